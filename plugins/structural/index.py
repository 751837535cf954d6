"""The structural shard: definitions in SQLite, a name-trigram table for fuzzy lookups.

One file per shard, ``structural.sqlite`` (format 2; format 1 shards are still read)::

    meta(key, value)                    schema version, counts, the width of a posting
    files(id, repo, path, language,     each file once, with the signatures of its definitions
          signatures)                   (zstd-compressed, NUL-separated)
    defs(id, segment_id, file, start_line, end_line, name, lname, qualified_name, rqualified,
         lparent, kind, signature)
    names(id, lname, ntrigrams)         distinct lowercase names
    trigrams(trigram, ids)              padded trigrams of the distinct names: each trigram's name
                                        ids, ascending, as one little-endian array (u2 or u4)

``rqualified`` is the lowercase qualified name reversed, so that "qualified name ends with
``session.send``" is an index range scan; ``lparent`` is the lowercase qualified name without its
last component (``methods of X``: a scan, its ``LIKE '%.x'`` uses no index, so it has none).
Names are distinct by construction and looked up by id only (no index on them). Stored compactly,
read back as written: ``segment_id`` is its 10 bytes when it is 20 lowercase hex digits; ``lname``
NULL when it is the name (lookups go through an index on ``coalesce(lname, name)``);
``qualified_name`` NULL when it is the name; ``kind`` its position in ``KINDS`` when it is one;
``signature`` its position in its file's ``signatures`` (read only for the hits and the variables
that ask for it; a file's 40 signatures compress 4x together, not apart).
Format 1 repeated repo, path and language on every row, kept one (trigram, name) row per pair and
indexed lparent and names: 4.2x the indexed bytes of typeshed's stubs (format 2: 2.5x).

Ranking is by class so that hits from many shards merge by score alone:

    4.x exact name (or the whole qualified name for a dotted query)
    3.x qualified: a dotted query matching a suffix of the qualified name
    2.x prefix of the name
    1.x fuzzy (trigram Jaccard similarity, typo-tolerant)

The fraction orders hits inside a class: exact case, a kind the query asked for (``class X``),
then the kind itself (types and callables before variables). Every hit is a definition; a
variable that only binds a name from elsewhere (``x = require('m').x``, ``x = obj.x``) is left
out when a definition of the name itself matches.
"""

from __future__ import annotations

import functools
import os
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from fourfold.errors import CorruptIndex, InvalidQuery
from fourfold.plugins.codec import compress, decompress
from fourfold.plugins.globs import path_filter
from fourfold.plugins.modality import BuildStats
from fourfold.plugins.paths import is_auxiliary
from fourfold.plugins.structural.extract import CALLABLE_KINDS, KINDS
from fourfold.plugins.structural.query import SymbolQuery, parse_symbol_query
from fourfold.plugins.types import FALLBACK_OPTION, MASK_OPTION, FollowUp, Hit, ModalityQuery, Segment, ShardResult

__all__ = ["INDEX_FILE", "SCHEMA_VERSION", "StructuralShard", "build_shard", "merge_parts", "trigrams"]

INDEX_FILE = "structural.sqlite"
SCHEMA_VERSION = "2"
#: Older formats this code still reads.
_READABLE = ("1", SCHEMA_VERSION)


EXACT, QUALIFIED, PREFIX, FUZZY = 4.0, 3.0, 2.0, 1.0
_MIN_SIMILARITY = 0.3
_MIN_EDIT_SIMILARITY = 0.6
_MAX_CANDIDATES = 5000
#: Repositories a statement binds at most; a longer filter is applied to the rows.
_SQL_REPO_FILTER = 32
#: The follow-up option of the fuzzy round (see ``FALLBACK_OPTION``): this round may match fuzzily.
FUZZY_OPTION = "structural.fuzzy"
# Names sharing the most trigrams with a fuzzy query that are compared with it (a long name with a
# common prefix, test_..., shares a trigram or two with thousands of names).
_MAX_FUZZY_CANDIDATES = 200
_KIND_PRIOR = {
    "class": 0.2, "struct": 0.2, "interface": 0.2, "trait": 0.2, "enum": 0.18, "function": 0.19,
    "method": 0.18, "type": 0.17, "module": 0.15, "impl": 0.12, "extension": 0.12, "object": 0.18,
    "union": 0.17, "macro": 0.15, "constant": 0.12, "property": 0.08, "variable": 0.08, "field": 0.05,
}  # fmt: skip

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    id INTEGER PRIMARY KEY, repo TEXT NOT NULL, path TEXT NOT NULL, language TEXT NOT NULL, signatures BLOB
);
CREATE TABLE defs (
    id INTEGER PRIMARY KEY, segment_id NOT NULL, file INTEGER NOT NULL, start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, name TEXT NOT NULL, lname TEXT, qualified_name TEXT,
    rqualified TEXT NOT NULL, lparent TEXT NOT NULL, kind NOT NULL, signature NOT NULL
);
CREATE TABLE names (id INTEGER PRIMARY KEY, lname TEXT NOT NULL, ntrigrams INTEGER NOT NULL);
CREATE TABLE trigrams (trigram TEXT PRIMARY KEY, ids BLOB NOT NULL) WITHOUT ROWID;
"""
_INDEXES = """
CREATE INDEX defs_lname ON defs (coalesce(lname, name));
CREATE INDEX defs_rqualified ON defs (rqualified);
"""
#: A posting's integer while a shard has fewer than 65,536 distinct names.
_POSTING_WIDTH = "<u2"
_LEVEL = 9  # contexts per thread: fourfold.plugins.codec
#: Files whose signatures a loaded shard keeps decoded.
_SIGNATURE_FILES = 1024
_KIND_CODE = {k: i for i, k in enumerate(KINDS)}
_HEX_ID = re.compile(r"[0-9a-f]{20}")


class _Layout(NamedTuple):
    """What a format's queries name: the columns of a ``_Row``, the tables, the lowercase name."""

    columns: str
    tables: str
    lname: str
    filters: tuple[str, str, str]  # kind, language, repo


_LAYOUTS = {
    "1": _Layout(
        "segment_id, repo, path, language, start_line, end_line, name, qualified_name, kind, signature",
        "defs",
        "lname",
        ("kind", "language", "repo"),
    ),
    "2": _Layout(
        "d.segment_id, f.repo, f.path, f.language, d.start_line, d.end_line, d.name, d.qualified_name, d.kind,"
        " d.signature, d.file",
        "defs d JOIN files f ON f.id = d.file",
        "coalesce(d.lname, d.name)",
        ("d.kind", "f.language", "f.repo"),
    ),
}


def trigrams(name: str) -> set[str]:
    """Padded trigrams of a lowercase name (``"  a"``, ``" ab"``... ``"yz "``)."""
    padded = f"  {name} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def build_shard(segments: Iterable[Segment], shard_dir: Path) -> BuildStats:
    """Write the definition segments of one shard; other segments are skipped.

    The file is written beside its final name and renamed into place, so a crash never leaves
    a half-written shard.
    """
    shard_dir.mkdir(parents=True, exist_ok=True)
    final = shard_dir / INDEX_FILE
    tmp = shard_dir / f"{INDEX_FILE}.tmp"
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    try:
        db.execute("PRAGMA journal_mode = OFF")  # a new file renamed into place when whole: nothing to roll back
        db.execute("PRAGMA synchronous = OFF")
        db.executescript(_SCHEMA)
        count = 0
        names: dict[str, int] = {}
        files: dict[tuple[str, str, str], int] = {}
        signatures: dict[int, list[str]] = {}
        rows = []
        for seg in segments:
            if not seg.is_definition or not seg.symbol:
                continue
            qualified = seg.qualified_name or seg.symbol
            lqualified = qualified.lower()
            lname = seg.symbol.lower()
            names.setdefault(lname, len(names) + 1)
            file = files.setdefault((seg.repo, seg.path, seg.language), len(files) + 1)
            kind = seg.kind or ""
            text = seg.signature or ""
            signature: str | int = text
            if text and "\0" not in text:  # its place in the file's list (NUL separates them)
                mine = signatures.setdefault(file, [])
                mine.append(text)
                signature = len(mine) - 1
            rows.append((
                bytes.fromhex(seg.id) if _HEX_ID.fullmatch(seg.id) else seg.id, file, seg.start_line, seg.end_line,
                seg.symbol, None if lname == seg.symbol else lname, None if qualified == seg.symbol else qualified,
                lqualified[::-1], lqualified.rpartition(".")[0], _KIND_CODE.get(kind, kind), signature,
            ))  # fmt: skip
            count += 1
        packed = {i: compress("\0".join(sigs).encode(), _LEVEL) for i, sigs in signatures.items()}
        db.executemany(
            "INSERT INTO files (id, repo, path, language, signatures) VALUES (?,?,?,?,?)",
            ((i, *k, packed.get(i)) for k, i in files.items()),
        )
        db.executemany(
            "INSERT INTO defs (segment_id, file, start_line, end_line, name, lname, qualified_name, rqualified,"
            " lparent, kind, signature) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            rows,
        )
        db.executemany(
            "INSERT INTO names (id, lname, ntrigrams) VALUES (?,?,?)",
            ((i, n, len(trigrams(n))) for n, i in names.items()),
        )
        postings: dict[str, list[int]] = {}
        for n, i in names.items():  # ids ascend: each posting list is sorted
            for t in trigrams(n):
                postings.setdefault(t, []).append(i)
        width = _POSTING_WIDTH if len(names) < 1 << 16 else "<u4"
        db.executemany(
            "INSERT INTO trigrams (trigram, ids) VALUES (?,?)",
            ((t, np.asarray(ids, dtype=width).tobytes()) for t, ids in postings.items()),
        )
        db.executescript(_INDEXES)
        db.executemany(
            "INSERT INTO meta (key, value) VALUES (?,?)",
            [
                ("schema_version", SCHEMA_VERSION),
                ("definitions", str(count)),
                ("names", str(len(names))),
                ("posting_width", width),
            ],
        )
        db.commit()
    finally:
        db.close()
    with open(tmp, "rb") as done:
        os.fsync(done.fileno())
    os.replace(tmp, final)
    return BuildStats(segments=count, bytes_on_disk=final.stat().st_size)


@dataclass(frozen=True, slots=True)
class _Row:
    segment_id: str
    repo: str
    path: str
    language: str
    start_line: int
    end_line: int
    name: str
    qualified_name: str
    kind: str
    signature: str
    file: int = 0  # format 2: the file whose signatures ``sig`` points into
    sig: int = -1  # format 2: the signature's position in its file's (``signature`` is then "")


class StructuralShard:
    """A loaded structural shard.

    Owns a read-only SQLite file; each thread gets its own connection, so concurrent ``search``
    calls are safe. Nothing is cached between calls.
    """

    def __init__(self, path: Path) -> None:
        self._uri = f"{path.resolve().as_uri()}?mode=ro"
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        try:
            version = self._db().execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise CorruptIndex(f"structural shard {path} cannot be read ({exc}); rebuild the index") from exc
        if version is None or version[0] not in _READABLE:
            found = version[0] if version else "none"
            raise CorruptIndex(
                f"structural shard {path} has schema version {found}, expected {SCHEMA_VERSION}; rebuild the index"
            )
        self._version = version[0]
        self._layout = _LAYOUTS[self._version]
        width = self._db().execute("SELECT value FROM meta WHERE key = 'posting_width'").fetchone()
        self._width = width[0] if width else _POSTING_WIDTH
        self._file_signatures = functools.lru_cache(maxsize=_SIGNATURE_FILES)(self._read_signatures)

    def _db(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
            self._local.db = db
            with self._lock:
                self._connections.append(db)
        return db

    def close(self) -> None:
        with self._lock:
            for db in self._connections:
                db.close()
            self._connections.clear()
        self._local = threading.local()

    def search(self, query: ModalityQuery) -> ShardResult:
        """Definitions matching the query, best first (see the module docstring for scores)."""
        if query.k <= 0:
            raise InvalidQuery(f"k must be positive, got {query.k}; ask for at least one hit")
        kinds = tuple(k.strip() for k in query.options.get("kind", "").split(",") if k.strip())
        unknown = [k for k in kinds if k not in KINDS]
        if unknown:
            raise InvalidQuery(f"unknown kind {', '.join(map(repr, unknown))}; choose from: {', '.join(KINDS)}")
        symbol = parse_symbol_query(query.text)
        if symbol is None:
            return ShardResult(
                hits=(),
                notes=(
                    f"structural: no identifier in {query.text!r}; name a symbol such as parseConfig or Session.send",
                ),
            )
        # a host that runs fallback rounds gets fuzzy matching only when no shard found the name
        defer = query.options.get(FALLBACK_OPTION) == "defer" and FUZZY_OPTION not in query.options
        scored: dict[str, tuple[float, _Row]] = {}
        for score, row in self._candidates(symbol, query, kinds, fuzzy=not defer):
            if row.segment_id not in scored or scored[row.segment_id][0] < score:
                scored[row.segment_id] = (score, row)
        ranked = sorted(scored.values(), key=lambda sr: (-sr[0], sr[1].path, sr[1].start_line))
        # Weaker classes are noise beside stronger ones, and rank fusion sees ranks, not scores: an
        # exact or qualified match leaves prefix and fuzzy ones out; a prefix match leaves fuzzy out.
        best = ranked[0][0] if ranked else 0.0
        cut = QUALIFIED if best >= QUALIFIED else PREFIX if best >= PREFIX else 0.0
        kept = [sr for sr in ranked if sr[0] >= cut]
        # `var compileTrust = require('./utils').compileTrust` binds a name defined elsewhere: when
        # that definition is in the index too, the binding is not an answer to "where is X defined"
        if any(not self._is_alias(row) for _, row in kept):
            kept = [sr for sr in kept if not self._is_alias(sr[1])]
        hits = tuple(_hit(score, row, self._signature(row)) for score, row in kept[: query.k])
        later: tuple[FollowUp, ...] = ()
        if defer and not kept and not query.case_sensitive and not symbol.members:
            later = (FollowUp(query.repos, {FUZZY_OPTION: "1"}, if_empty=True),)
        return ShardResult(
            hits=hits, total_matches=len(kept), notes=(f"structural: read as {symbol}",), follow_ups=later
        )

    def _candidates(
        self, symbol: SymbolQuery, query: ModalityQuery, kinds: tuple[str, ...], fuzzy: bool = True
    ) -> Iterator[tuple[float, _Row]]:
        """Every match that can survive :meth:`search`'s class cut, with its score, class by class.

        A weaker class is looked up only while no stronger one matched: exact names leave prefix
        and fuzzy ones out, prefix names leave fuzzy ones out, so looking them up would be wasted
        (a short prefix or a fuzzy trigram join is the costliest lookup by far).
        """
        found = 0
        if symbol.members:
            parent = symbol.dotted.lower()
            for row in self._select("(lparent = ? OR lparent LIKE ?)", (parent, f"%.{parent}"), query, kinds):
                found += 1
                yield EXACT + self._fraction(row, symbol), row
            return
        lname = symbol.name.lower()
        if symbol.qualifier:
            # Drop leading qualifier parts while nothing matches: a Python qualified name has no
            # module in it, so httpx.Client.send is found as Client.send (lower in the class).
            parts = (*symbol.qualifier, symbol.name)
            for dropped in range(len(parts) - 1):
                dotted = ".".join(parts[dropped:]).lower()
                rq = dotted[::-1]
                for row in self._select("rqualified >= ? AND rqualified < ?", (rq, rq + "\uffff"), query, kinds):
                    lq = row.qualified_name.lower()
                    fraction = self._fraction(row, symbol) / (1 + dropped)
                    if lq == dotted and not dropped:
                        yield EXACT + fraction, row
                    elif lq == dotted or lq.endswith("." + dotted):
                        yield QUALIFIED + fraction, row
                    else:
                        continue
                    found += 1
                if found:
                    break
        else:
            for row in self._select(f"{self._layout.lname} = ?", (lname,), query, kinds):
                if query.case_sensitive and row.name != symbol.name:
                    continue
                found += 1
                yield EXACT + self._fraction(row, symbol), row
            if found:
                return
            low = self._layout.lname
            for row in self._select(f"{low} > ? AND {low} < ?", (lname, lname + "\uffff"), query, kinds):
                if query.case_sensitive and not row.name.startswith(symbol.name):
                    continue
                found += 1
                coverage = len(lname) / max(len(row.name), 1)
                yield PREFIX + 0.5 * self._fraction(row, symbol) + 0.4 * coverage, row
        if not found and not query.case_sensitive and fuzzy:
            yield from self._fuzzy(symbol, query, kinds)

    def _fuzzy(self, symbol: SymbolQuery, query: ModalityQuery, kinds: tuple[str, ...]) -> Iterator[tuple[float, _Row]]:
        """Names close to the query name: trigrams find candidates, edit distance confirms them.

        Similarity is the larger of the trigram Jaccard index and ``1 - distance / length`` (with
        transpositions, so ``Clinet`` finds ``Client``); at least 0.3 and 0.6 respectively. For a
        dotted query only the name is compared, below the real qualified matches.
        """
        lname = symbol.name.lower()
        grams = trigrams(lname)
        similar = self._similar(grams, min(len(grams), max(2, len(grams) // 3)))
        for name, size, shared in similar:
            if name == lname and not symbol.qualifier:
                continue
            jaccard = shared / (len(grams) + size - shared)
            longer = max(len(lname), len(name))
            # The length difference bounds the edit similarity: the distance is computed (in Python,
            # the costliest step) only when it could pass the threshold or beat the Jaccard index.
            bound = 1.0 - abs(len(lname) - len(name)) / longer
            if jaccard < _MIN_SIMILARITY and bound < _MIN_EDIT_SIMILARITY:
                continue
            edit = 1.0 - _edit_distance(lname, name) / longer if bound > jaccard else 0.0
            if jaccard < _MIN_SIMILARITY and edit < _MIN_EDIT_SIMILARITY:
                continue
            similarity = max(jaccard, edit)
            for row in self._select(f"{self._layout.lname} = ?", (name,), query, kinds):
                yield FUZZY + 0.7 * similarity + 0.25 * self._fraction(row, symbol), row

    def _fraction(self, row: _Row, symbol: SymbolQuery) -> float:
        """:func:`_fraction`, knowing whether the row only declares its function: a C prototype or a C++
        method declared in its class (``virtual int ItemSize() const = 0;``, ``Table(const Table&) = delete;``),
        whose signature is the whole declaration, ``;`` included (a definition's stops before its body; a K&R
        definition's parameter declarations end in ``;`` too, after names no declaration ends with)."""
        declaration = (
            row.language in _DECLARING_LANGUAGES
            and row.kind in CALLABLE_KINDS
            and _DECLARATION_END.search(self._signature(row)) is not None
        )
        return _fraction(row, symbol, declaration)

    def _signature(self, row: _Row) -> str:
        """The row's signature, from its file's list when it points into it."""
        return row.signature if row.sig < 0 else self._file_signatures(row.file)[row.sig]

    def _read_signatures(self, file: int) -> list[str]:
        found = self._db().execute("SELECT signatures FROM files WHERE id = ?", (file,)).fetchone()
        if found is None or found[0] is None:
            raise CorruptIndex(f"structural shard: file {file} has no signatures; rebuild the index")
        signatures: list[str] = decompress(found[0]).decode().split("\0")
        return signatures

    def _is_alias(self, row: _Row) -> bool:
        """Whether ``row`` is a variable binding a name defined elsewhere (an import, a re-export)."""
        if row.kind not in ("variable", "constant"):
            return False
        signature = self._signature(row)
        return bool(signature) and _ALIAS.match(signature) is not None

    def _similar(self, grams: set[str], least: int) -> list[tuple[str, int, int]]:
        """(name, its trigram count, trigrams shared) of the names sharing at least ``least`` of
        ``grams``, most shared first (then the first indexed), at most ``_MAX_FUZZY_CANDIDATES``."""
        marks = ",".join("?" * len(grams))
        db = self._db()
        if self._version == "1":
            return db.execute(
                f"SELECT n.lname, n.ntrigrams, COUNT(*) AS shared FROM trigrams t JOIN names n ON n.id = t.name_id"
                f" WHERE t.trigram IN ({marks}) GROUP BY t.name_id HAVING shared >= ? ORDER BY shared DESC LIMIT ?",
                (*grams, least, _MAX_FUZZY_CANDIDATES),
            ).fetchall()
        lists = [
            np.frombuffer(b, dtype=self._width)
            for (b,) in db.execute(f"SELECT ids FROM trigrams WHERE trigram IN ({marks})", tuple(grams))
        ]
        if not lists:
            return []
        ids, counts = np.unique(np.concatenate(lists), return_counts=True)
        keep = counts >= least
        ids, counts = ids[keep], counts[keep]
        order = np.lexsort((ids, -counts))[:_MAX_FUZZY_CANDIDATES]  # most shared first, then by id
        shared = {int(i): int(c) for i, c in zip(ids[order], counts[order], strict=True)}
        found: dict[int, tuple[str, int]] = {}
        picked = list(shared)
        for start in range(0, len(picked), 500):
            chunk = picked[start : start + 500]
            q = f"SELECT id, lname, ntrigrams FROM names WHERE id IN ({','.join('?' * len(chunk))})"
            found.update((i, (n, size)) for i, n, size in db.execute(q, chunk))
        return [(*found[i], shared[i]) for i in picked if i in found]

    def _select(
        self, where: str, params: tuple[str, ...], query: ModalityQuery, kinds: tuple[str, ...]
    ) -> Iterator[_Row]:
        """Rows matching ``where`` and the query's kind, language, repository and path filters.

        A long repository list (a compound shard's live repositories, a wide grant) is applied
        here rather than bound into every statement, unless the statement then reaches its
        candidate limit (the rows kept must be those SQL would keep).
        """
        repos = query.repos
        rows: Iterable[tuple[Any, ...]]
        if len(repos) > _SQL_REPO_FILTER:
            rows = self._query(where, params, query, kinds, ()).fetchall()
            if len(rows) < _MAX_CANDIDATES:
                wanted = set(repos)
                rows = [r for r in rows if r[1] in wanted]
            else:
                rows = self._query(where, params, query, kinds, repos)
        else:
            rows = self._query(where, params, query, kinds, repos)
        hidden = set(query.options[MASK_OPTION].split("\n")) if query.options.get(MASK_OPTION) else ()
        passes = path_filter(query)
        for values in rows:
            row = _Row(*values) if self._version == "1" else _row(values)
            if passes is not None and not passes(row.path):
                continue
            if hidden and row.path in hidden:
                continue
            yield row

    def _query(
        self, where: str, params: tuple[str, ...], query: ModalityQuery, kinds: tuple[str, ...], repos: tuple[str, ...]
    ) -> sqlite3.Cursor:
        """The rows matching ``where`` and the kind, language and repository filters, up to the limit."""
        clauses = [where]
        args: list[str | int] = list(params)
        layout = self._layout
        codes = [_KIND_CODE.get(k, k) for k in kinds] if self._version != "1" else list(kinds)
        for column, values in zip(layout.filters, (codes, query.languages, repos), strict=True):
            if values:
                clauses.append(f"{column} IN ({','.join('?' * len(values))})")
                args.extend(values)
        sql = f"SELECT {layout.columns} FROM {layout.tables} WHERE {' AND '.join(clauses)} LIMIT {_MAX_CANDIDATES}"
        return self._db().execute(sql, args)


#: A variable that only binds a name from elsewhere: ``x = require('m')...`` or ``x = obj.x``.
_ALIAS = re.compile(r"^\s*([\w$]+)\s*=\s*(?:require\s*\(.*|[\w$.]+\.\1\s*;?)\s*$", re.DOTALL)


def _row(values: Sequence[Any]) -> _Row:
    """A format-2 row as written: the id as hex, the qualified name and the kind spelled out."""
    sid, repo, path, language, start, end, name, qualified, kind, signature, file = values
    pointer = isinstance(signature, int)
    return _Row(
        sid.hex() if isinstance(sid, bytes) else sid,
        repo,
        path,
        language,
        start,
        end,
        name,
        name if qualified is None else qualified,
        KINDS[kind] if isinstance(kind, int) else kind,
        "" if pointer else signature,
        file,
        signature if pointer else -1,
    )


def _edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions, transpositions."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def _fraction(row: _Row, symbol: SymbolQuery, declaration: bool = False) -> float:
    """The in-class order, below 1: exact case, the kind the query asked for, the kind's prior, its home,
    a definition before a declaration of the same name.

    The home breaks ties between equal definitions in different places: library code before tests,
    examples and docs, and a module named after the definition (``progress_bar.py`` for
    ``ProgressBar``) before others. A ``declaration`` ranks below the definition that has the body, and below
    the class a constructor's declaration names.
    """
    fraction = _KIND_PRIOR.get(row.kind, 0.0) + _home_prior(row.path, row.name)
    if row.name == symbol.name:
        fraction += 0.45  # the name as written outweighs the keyword: `def Argument` means class Argument
    if symbol.kinds and row.kind in symbol.kinds:
        fraction += 0.3
    fraction = min(fraction, 0.99)
    return max(fraction - _DECLARATION_COST, 0.0) if declaration else fraction


#: What a declaration gives up in :func:`_fraction`: more than a class's prior and a kind asked for can
#: separate it from the definition (0.99 against 0.71 for a class asked as ``def X``).
_DECLARATION_COST = 0.3
#: Languages whose callables are declared apart from their definition, the declaration ending in ``;``.
_DECLARING_LANGUAGES = frozenset({"c", "cpp"})
#: How a declaration's signature ends: its parameters' ``)``, then qualifiers (``const``, ``override``, ``= 0``,
#: ``= delete``, ``noexcept(...)``, a trailing return type), then ``;``.
_DECLARATION_END = re.compile(
    r"\)(?:\s|const\b|volatile\b|override\b|final\b|noexcept\b|&|=\s*(?:0|default|delete)\b|->\s*[\w:<>,*& ]+)*;$"
)


def _home_prior(path: str, name: str) -> float:
    """0.04 for a definition outside tests/examples/docs, 0.02 more in a file named after it."""
    lower = path.lower()
    prior = 0.0 if is_auxiliary(path) else 0.04
    stem = lower.rsplit("/", 1)[-1].split(".", 1)[0].replace("_", "").replace("-", "")
    if stem and stem == name.lower().replace("_", ""):
        prior += 0.02
    return prior


def merge_parts(parts: Sequence[ShardResult], k: int) -> ShardResult:
    """One answer from answers over disjoint files of one repository (a revision's delta shard and
    its base), as one shard holding them all would give it: the class cut of :meth:`StructuralShard.search`
    applied to the union (an exact match anywhere leaves prefix and fuzzy ones out)."""
    best = max((h.score for p in parts for h in p.hits), default=0.0)
    cut = QUALIFIED if best >= QUALIFIED else PREFIX if best >= PREFIX else 0.0
    kept = [p for p in parts if p.hits and p.hits[0].score >= cut]
    hits = sorted((h for p in kept for h in p.hits if h.score >= cut), key=lambda h: (-h.score, h.path, h.start_line))
    found = any(p.hits for p in parts)
    follow_ups: list[FollowUp] = []
    for f in () if found else (f for p in parts for f in p.follow_ups):
        if f not in follow_ups:  # the same fuzzy round, asked by both parts
            follow_ups.append(f)
    return ShardResult(
        hits=tuple(hits[:k]),
        total_matches=sum(p.total_matches for p in kept),
        notes=tuple(dict.fromkeys(n for p in parts for n in p.notes)),
        follow_ups=tuple(follow_ups),
    )


def _hit(score: float, row: _Row, signature: str) -> Hit:
    return Hit(
        segment_id=row.segment_id,
        repo=row.repo,
        path=row.path,
        start_line=row.start_line,
        end_line=row.end_line,
        score=round(score, 4),
        symbol=row.name,
        kind=row.kind,
        language=row.language,
        match_lines=(row.start_line,),
        snippet=signature or row.qualified_name,
    )
