"""A repository's segment database (``segments/<repo>.sqlite`` in a generation): how it is laid out.

Format 2 (written now) keeps each file's text once and a segment as a line range of it:

    PRAGMA user_version                    2 (the format; 0 in format 1)
    files(id, path, size, language, text,  text: the file's bytes in blocks of whole lines (about
          blocks, first, last)             BLOCK_BYTES each), each zstd-compressed when that is
                                           smaller; blocks: where each block starts (line) and ends
                                           (offset in text); first..last: the rowids of its
                                           segments (all three NULL when it has none)
    segments(id, file, start_line, end_line, symbol, kind, signature, qualified_name, parent_id,
             centrality, exact)            id, parent_id: the 10 bytes of the hex id (BLOB);
                                           signature: where it stands in the segment's
                                           whitespace-normalised head (an INTEGER), else the text;
                                           qualified_name: NULL when it is the symbol, the
                                           enclosing part when it is ``part.symbol``

A segment's ``content`` is sliced from its file's lines on read (only the blocks it covers are
decompressed) and its ``content_hash`` computed from that, so nested segments (a class and its
methods) no longer hold the same lines twice; ``path`` and ``language`` are stored once per file
and ``repo`` not at all (the database is the repository's: ``segments/<repo>.sqlite``). The
writer reads every segment back as a reader will: one that differs in any way from what is
derived (a content that is not the slice, an id that is not lowercase hex...) is kept whole, as
JSON in ``exact``. Readers therefore see exactly the ``Segment`` values that were written.

Format 1 (generations written before) has one ``segments`` table with every column, the content
included; it is still read. A database of a newer format is refused with a clear message rather
than misread.
"""

from __future__ import annotations

import bisect
import collections
import functools
import json
import os
import re
import shutil
import sqlite3
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from fourfold.errors import CorruptIndex
from fourfold.index.ingest.segment import content_hash, place_id, split_lines
from fourfold.plugins.codec import compress, decompress
from fourfold.plugins.types import Segment

__all__ = [
    "BLOCK_BYTES",
    "SEGMENTS_FORMAT",
    "FileText",
    "Place",
    "SegmentDb",
    "SegmentWriter",
    "encode_file_text",
    "open_segment_db",
    "slice_lines",
]

#: The format this code writes; it reads this one and every older one.
SEGMENTS_FORMAT = 2
#: The files not indexed a repository's database names at most (``unheld``): a listing's note names a few of them.
MAX_UNHELD = 10_000

_LEGACY_COLUMNS = (
    "id",
    "repo",
    "path",
    "language",
    "start_line",
    "end_line",
    "content",
    "content_hash",
    "symbol",
    "kind",
    "signature",
    "qualified_name",
    "parent_id",
)
_ROW = "s.id, s.start_line, s.end_line, s.symbol, s.kind, s.signature, s.qualified_name, s.parent_id, s.exact"
#: A stored file's text is cut into blocks of about this many bytes (whole lines), compressed apart:
#: a segment's lines cost their blocks' decompression, not the whole file's.
BLOCK_BYTES = 8192
_RAW = 1 << 31  # a block stored as it is (compressing it would not make it smaller)
#: zstd: a block decompresses in microseconds (zlib took 6x longer for the same size)
_LEVEL = 9  # contexts per thread: fourfold.plugins.codec
#: Ids per ``IN (...)`` query (SQLite's default limit on bound parameters is far above).
_CHUNK = 500
#: Files whose text (and the blocks decompressed so far) a database keeps for lookups by id: hits
#: cluster in files and the snippet, rerank and answer steps ask for the same segments again.
_KEPT_FILES = 64
_KEPT_BYTES = 4 << 20  # of compressed text; a file over a quarter of it is not kept


def encode_file_text(data: bytes, block_bytes: int = 0) -> tuple[bytes, bytes]:
    """(text, blocks) as stored: ``data`` cut after the first newline past every ``BLOCK_BYTES``, each
    block zstd-compressed when that is smaller, and the blocks' (first line | raw flag, end offset)."""
    parts: list[bytes] = []
    index: list[int] = []
    line, offset, i = 1, 0, 0
    while i < len(data):
        j = data.find(b"\n", i + (block_bytes or BLOCK_BYTES) - 1)
        j = len(data) if j < 0 else j + 1
        block = data[i:j]
        packed = compress(block, _LEVEL)
        raw = len(packed) >= len(block)
        parts.append(block if raw else packed)
        offset += len(parts[-1])
        index += [line | (_RAW if raw else 0), offset]
        line += block.count(b"\n")
        i = j
    return b"".join(parts), struct.pack(f"<{len(index)}I", *index)


class FileText:
    """A stored file's lines, decompressed block by block as a segment asks for them."""

    __slots__ = ("_blob", "_ended", "_ends", "_lines", "_raw", "_starts")

    def __init__(self, blob: bytes | None, blocks: bytes | None) -> None:
        self._blob = blob or b""
        index = struct.unpack(f"<{len(blocks or b'') // 4}I", blocks or b"")
        self._starts = [v & ~_RAW for v in index[0::2]]
        self._raw = [bool(v & _RAW) for v in index[0::2]]
        self._ends = list(index[1::2])
        self._lines: dict[int, list[str]] = {}
        self._ended: bool | None = None  # whether the last block ends in a newline, once it is decompressed

    def _block(self, b: int) -> list[str]:
        lines = self._lines.get(b)
        if lines is None:
            part = self._blob[self._ends[b - 1] if b else 0 : self._ends[b]]
            text = part if self._raw[b] else decompress(part)
            lines = self._lines[b] = split_lines(text.decode("utf-8", "surrogateescape"))
            if b == len(self._starts) - 1:
                self._ended = text.endswith(b"\n")
        return lines

    def content(self, start_line: int, end_line: int) -> str:
        """Lines ``start_line..end_line`` (1-based, inclusive) joined: what the segmenter cut for them."""
        if end_line < start_line or start_line < 1 or not self._starts:
            return slice_lines(self.lines(), start_line, end_line) if start_line < 1 else ""
        b = max(bisect.bisect_right(self._starts, start_line) - 1, 0)
        out: list[str] = []
        while b < len(self._starts) and self._starts[b] <= end_line:
            first = self._starts[b]
            out += self._block(b)[max(start_line - first, 0) : end_line - first + 1]
            b += 1
        return "\n".join(out)

    def line_count(self) -> int:
        """How many lines the file has (its empty last lines too, which no segment covers): its last block's."""
        if not self._starts:
            return 0
        return self._starts[-1] + len(self._block(len(self._starts) - 1)) - 1

    def ends_in_newline(self) -> bool:
        """Whether the file's last line ends in a newline (``wc -l`` counts a last line without one not at all)."""
        if not self._starts:
            return True
        if self._ended is None:  # the last block read once, for line_count and this alike
            self._block(len(self._starts) - 1)
        return bool(self._ended)

    def lines(self) -> list[str]:
        """Every line of the file."""
        out: list[str] = []
        for b in range(len(self._starts)):
            out += self._block(b)
        return out


def slice_lines(lines: Sequence[str], start_line: int, end_line: int) -> str:
    """The content of a segment over ``start_line..end_line`` (1-based, inclusive): how the segmenter cuts it."""
    return "\n".join(lines[start_line - 1 : end_line])


@functools.lru_cache(maxsize=8192)  # a lookup hands the same ids to every database it searches
def _id_key(value: str) -> bytes | str:
    """How an id is stored and looked up: its bytes when it is lowercase hex, else as written."""
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        return value
    return raw if raw.hex() == value else value


def _id_of(value: bytes | str | None) -> str | None:
    return value.hex() if isinstance(value, bytes) else value


_WHITESPACE = re.compile(r"\s+")


def _normal_head(content: str, chars: int) -> str:
    """At least the first ``chars`` characters of ``content`` with whitespace runs made one space,
    left-stripped (how a signature is written: ``def f(a, b) -> int``, on one line); what it gives
    is a prefix of the whole content's normalisation."""
    size = chars + 32
    while True:  # normalise no more than it takes: the head only grows when the cut is mostly whitespace
        head = _WHITESPACE.sub(" ", content[:size]).lstrip()
        if len(head) > chars or size >= len(content):
            return head
        size *= 4


def _encode_signature(signature: str | None, content: str) -> str | int | None:
    """A signature found in its segment's normalised head as the integer ``offset << 12 | length``, else as written."""
    if not signature or len(signature) >= 1 << 12:
        return signature
    size = len(signature) + 32
    while True:  # most signatures open their segment: look no further than it takes
        head = _normal_head(content, size)
        at = head.find(signature)
        if at >= 0:
            return at << 12 | len(signature)
        if len(head) <= size or size > 1 << 14:
            return signature
        size *= 4


def _decode_signature(value: str | int | None, content: str) -> str | None:
    if not isinstance(value, int):
        return value
    at, n = value >> 12, value & 0xFFF
    return _normal_head(content, at + n)[at : at + n]


def _encode_qualified(qualified_name: str | None, symbol: str | None) -> str | bytes | None:
    """A definition's qualified name: NULL when it is the symbol, the enclosing part when it ends in
    ``.symbol``, else the name as UTF-8 bytes (a BLOB)."""
    if symbol is None or qualified_name is None:
        return qualified_name
    if qualified_name == symbol:
        return None
    if qualified_name.endswith("." + symbol):
        return qualified_name[: -len(symbol) - 1]
    return qualified_name.encode("utf-8", "surrogatepass")


def _decode_qualified(value: str | bytes | None, symbol: str | None) -> str | None:
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogatepass")
    if symbol is None:
        return value
    return symbol if value is None else f"{value}.{symbol}"


def decode_row(row: Sequence[Any], repo: str, path: str, language: str, text: FileText) -> Segment:
    """The segment a stored row (id, start, end, symbol, kind, signature, qualified name, parent id,
    exact) of ``repo``'s file ``path`` stands for."""
    sid, start, end, symbol, kind, signature, qualified_name, parent, exact = row
    if exact is not None:
        return Segment(**json.loads(exact))
    content = text.content(start, end)
    return Segment(
        _id_of(sid),  # type: ignore[arg-type]  # never NULL
        repo,
        path,
        language,
        start,
        end,
        content,
        content_hash(content),
        symbol,
        kind,
        _decode_signature(signature, content),
        _decode_qualified(qualified_name, symbol),
        _id_of(parent),
    )


class SegmentWriter:
    """Writes one repository's segment database (format 2), file by file, then its centrality."""

    def __init__(self, path: Path, repo: str, page_size: int = 1024) -> None:
        self.repo = repo
        self.path = path
        self.conn = sqlite3.connect(path, check_same_thread=False)
        # small pages: a fleet's repositories are small, and every table and index takes a page at least
        self.conn.execute(f"PRAGMA page_size={int(page_size)}")
        # no journal, no syncs while it is written: a build that stops midway is thrown away whole
        # (``.build-*``); the finished file is synced once (``finish``)
        self.conn.execute("PRAGMA journal_mode=OFF")
        self.conn.execute("PRAGMA synchronous=OFF")
        self.conn.executescript(
            f"""
            PRAGMA user_version={SEGMENTS_FORMAT};
            CREATE TABLE files (
                id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,
                language TEXT NOT NULL, text BLOB, blocks BLOB, first INTEGER, last INTEGER);
            -- signature, qualified_name: declared BLOB so that SQLite converts nothing (an INTEGER stays one)
            CREATE TABLE segments (
                id BLOB NOT NULL, file INTEGER NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
                symbol TEXT, kind TEXT, signature BLOB, qualified_name BLOB, parent_id BLOB,
                centrality REAL NOT NULL DEFAULT 0, exact TEXT);
            CREATE UNIQUE INDEX segments_id ON segments(id);
            """
        )
        self._next = 1
        self._copied: dict[str, tuple[int, int]] = {}  # a base's files (``over``): path -> (file id, size)
        self._kept: set[str] = set()

    @classmethod
    def over(cls, base: Path, path: Path, repo: str) -> SegmentWriter:
        """A writer that starts from the database of ``repo``'s base (a revision ``NAME@REV`` over
        ``NAME``, format 2): the base's files are copied as they are, their segments re-stamped for
        ``repo`` (an id names its place, the repository included: ``place_id``), exactly as
        re-stamping each file's cached segments would; ``keep`` says a file is the revision's too,
        ``add_file`` replaces one, and ``finish`` drops those neither kept nor replaced. What a
        branch sharing most files with its base writes is then its changed files, not all of them.
        Raises ``ValueError`` for a base of another format (write it whole instead)."""
        shutil.copyfile(base, path)
        self = cls.__new__(cls)
        self.repo, self.path = repo, path
        self.conn = sqlite3.connect(path, check_same_thread=False)
        try:
            if self.conn.execute("PRAGMA user_version").fetchone()[0] != SEGMENTS_FORMAT:
                raise ValueError(f"segment database {str(base)!r} is not of format {SEGMENTS_FORMAT}")
            self.conn.execute("PRAGMA journal_mode=OFF")
            self.conn.execute("PRAGMA synchronous=OFF")
            self._restamp_copy()
        except BaseException:
            self.conn.close()
            path.unlink(missing_ok=True)
            raise
        return self

    def _restamp_copy(self) -> None:
        files = {fid: (fpath, size) for fid, fpath, size in self.conn.execute("SELECT id, path, size FROM files")}
        self._copied = {fpath: (fid, size) for fid, (fpath, size) in files.items()}
        self._kept = set()
        rows = self.conn.execute(
            "SELECT rowid, file, start_line, end_line, symbol, qualified_name, id, parent_id, exact FROM segments"
        ).fetchall()
        new: dict[tuple[int, Any], str] = {}  # (file, stored id) -> the id at the same place in ``repo``
        for _, fid, start, end, symbol, qualified, sid, _, exact in rows:
            qn = json.loads(exact).get("qualified_name") if exact is not None else _decode_qualified(qualified, symbol)
            new[(fid, sid)] = place_id(self.repo, files[fid][0], start, end, qn, symbol)
        updates = []
        for rowid, fid, _, _, _, _, sid, parent, exact in rows:
            nid = new[(fid, sid)]
            nparent = None if parent is None else new.get((fid, parent))  # a parent is in the same file
            if exact is not None:
                exact = json.dumps({**json.loads(exact), "repo": self.repo, "id": nid, "parent_id": nparent})
            updates.append((_id_key(nid), None if nparent is None else _id_key(nparent), exact, rowid))
        # centrality is the revision's own, set after (``set_centrality``), as in a database written whole
        self.conn.executemany(
            "UPDATE segments SET id = ?, parent_id = ?, exact = ?, centrality = 0 WHERE rowid = ?", updates
        )
        self._next = max((r[0] for r in rows), default=0) + 1

    def keep(self, path: str, size: int) -> bool:
        """Keep the base's file ``path`` (of ``size`` bytes) as the revision's; False when the base has
        no such file (then ``add_file`` it)."""
        found = self._copied.get(path)
        if found is None or found[1] != size:
            return False
        self._kept.add(path)
        return True

    def _drop(self, path: str) -> None:
        fid, _ = self._copied.pop(path)
        self.conn.execute("DELETE FROM segments WHERE file = ?", (fid,))
        self.conn.execute("DELETE FROM files WHERE id = ?", (fid,))

    def add_file(self, path: str, size: int, language: str, data: bytes, segments: Sequence[Segment]) -> None:
        """One file: its text once, and its segments as line ranges of it (in the order given)."""
        if path in self._copied:  # the base's file of that path, replaced
            self._kept.discard(path)
            self._drop(path)
        language = segments[0].language if segments else language
        cur = self.conn.execute("INSERT INTO files(path, size, language) VALUES (?, ?, ?)", (path, size, language))
        if not segments:
            return
        file_id = cur.lastrowid
        text, blocks = encode_file_text(data)
        stored = FileText(text, blocks)  # read back as a reader will: what cannot be derived is kept
        first = self._next
        rows = []
        for s in segments:
            rows.append((self._next, file_id, *self._row(s, path, language, stored)))
            self._next += 1
        before = self.conn.total_changes
        self.conn.executemany(
            "INSERT OR IGNORE INTO segments(rowid, file, id, start_line, end_line, symbol, kind, signature,"
            " qualified_name, parent_id, exact) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        if self.conn.total_changes > before:  # none kept: every id was taken (never, in practice)
            self.conn.execute(
                "UPDATE files SET text = ?, blocks = ?, first = ?, last = ? WHERE id = ?",
                (text, blocks, first, self._next - 1, file_id),
            )

    def _row(self, s: Segment, path: str, language: str, stored: FileText) -> tuple[Any, ...]:
        """(id, start, end, symbol, kind, signature, qualified name, parent id, exact) of one segment:
        derived where ``decode_row`` derives it back exactly (checked field by field), else with the
        whole segment in ``exact``."""
        content = stored.content(s.start_line, s.end_line)
        sid, parent = _id_key(s.id), None if s.parent_id is None else _id_key(s.parent_id)
        signature, qualified = _encode_signature(s.signature, content), _encode_qualified(s.qualified_name, s.symbol)
        row = (sid, s.start_line, s.end_line, s.symbol, s.kind, signature, qualified, parent, None)
        if (  # every field as decode_row gives it back
            content == s.content
            and (s.repo, s.path, s.language) == (self.repo, path, language)
            and content_hash(content) == s.content_hash
            and _id_of(sid) == s.id
            and _id_of(parent) == s.parent_id
            and _decode_signature(signature, content) == s.signature
            and _decode_qualified(qualified, s.symbol) == s.qualified_name
        ):
            return row
        return (*row[:5], s.signature, s.qualified_name, row[7], json.dumps(asdict(s)))

    def set_unheld(self, files: Iterable[tuple[str, str, int]]) -> None:
        """The repository's files that are not indexed, each with why (``binary``, ``too_large``, ``invalid_utf8``,
        ``unreadable``, ``symlink``) and its size in bytes (-1: unknown): a listing names them (its answer holds only
        indexed files). At most :data:`MAX_UNHELD`, by path; a base's (``over``) are replaced."""
        self.conn.execute(
            "CREATE TABLE IF NOT EXISTS unheld (path TEXT PRIMARY KEY, reason TEXT NOT NULL, size INTEGER NOT NULL)"
        )
        self.conn.execute("DELETE FROM unheld")
        rows = sorted({path: (path, why, size) for path, why, size in files}.values())[:MAX_UNHELD]
        self.conn.executemany("INSERT INTO unheld(path, reason, size) VALUES (?, ?, ?)", rows)

    def set_centrality(self, values: Mapping[str, float]) -> None:
        self.conn.executemany(
            "UPDATE segments SET centrality = ? WHERE id = ?", ((float(v), _id_key(k)) for k, v in values.items())
        )

    def finish(self) -> None:
        """Commit, pack the id index (written in random order) and sync: one plain file, linked into
        later generations as it is."""
        for path in [p for p in self._copied if p not in self._kept]:  # the base's files the revision lacks
            self._drop(path)
        self.conn.commit()
        self.conn.execute("VACUUM")  # 2-3 % smaller
        self.conn.close()
        fd = os.open(self.path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class Place(NamedTuple):
    """Where a segment is, without its text: what revisions are matched on (``fourfold.index.delta``)."""

    id: str
    path: str
    start_line: int
    end_line: int
    qualified_name: str | None
    symbol: str | None
    centrality: float


class SegmentDb(Protocol):
    """Read access to one segment database, whatever its format."""

    def file_segments(self, repo: str, path: str) -> Iterator[Segment]: ...
    def line_count(self, repo: str, path: str) -> tuple[int, bool] | None: ...
    def repo_segments(self, repo: str) -> Iterator[Segment]: ...
    def paths(self, repo: str) -> list[str]: ...
    def unheld(self, repo: str) -> list[tuple[str, str, int]]: ...
    def sizes(self, repo: str) -> dict[str, int]: ...
    def text(self, repo: str, path: str) -> str | None: ...
    def repos(self) -> list[str]: ...
    def rows(self, ids: Sequence[str]) -> Iterator[Segment]: ...
    def centrality(self, ids: Sequence[str]) -> Iterator[tuple[str, float]]: ...
    def places(self) -> Iterator[Place]: ...
    def close(self) -> None: ...


def open_segment_db(path: Path, repo: str) -> SegmentDb:
    """A read-only view of ``repo``'s segment database at ``path``, in the format it was written in
    (a generation's single ``segments.sqlite`` of format 1 holds every repository: ``repo`` is unused)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise CorruptIndex(
            f"segment database {str(path)!r} cannot be read ({exc}); rebuild with `fourfold index`"
        ) from None
    if version == 0:
        return _LegacyDb(conn)
    if version > SEGMENTS_FORMAT or version < 0:
        conn.close()
        raise CorruptIndex(
            f"segment database {str(path)!r} is in format {version}, which this fourfold does not read "
            f"(1-{SEGMENTS_FORMAT}): upgrade fourfold, or rebuild the index with `fourfold index`"
        )
    return _PackedDb(conn, repo)


class _LegacyDb:
    """Format 1: every column in one table (one repository's, or a whole generation's ``segments.sqlite``)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._cols = ", ".join(_LEGACY_COLUMNS)

    def file_segments(self, repo: str, path: str) -> Iterator[Segment]:
        q = f"SELECT {self._cols} FROM segments WHERE repo = ? AND path = ? ORDER BY start_line, end_line DESC"
        for row in self.conn.execute(q, (repo, path)):
            yield Segment(*row)

    def line_count(self, repo: str, path: str) -> tuple[int, bool] | None:
        return None  # format 1 keeps no file's text: its segments' lines are all there is

    def unheld(self, repo: str) -> list[tuple[str, str, int]]:
        return []  # format 1 kept no record of the files it did not index

    def sizes(self, repo: str) -> dict[str, int]:
        return {}  # nor their sizes

    def text(self, repo: str, path: str) -> str | None:
        return None  # nor their text

    def repo_segments(self, repo: str) -> Iterator[Segment]:
        q = f"SELECT {self._cols} FROM segments WHERE repo = ? ORDER BY path, start_line, end_line DESC"
        for row in self.conn.execute(q, (repo,)):
            yield Segment(*row)

    def paths(self, repo: str) -> list[str]:
        q = "SELECT DISTINCT path FROM segments WHERE repo = ? ORDER BY path"
        return [p for (p,) in self.conn.execute(q, (repo,))]

    def repos(self) -> list[str]:
        return [r for (r,) in self.conn.execute("SELECT DISTINCT repo FROM segments ORDER BY repo")]

    def rows(self, ids: Sequence[str]) -> Iterator[Segment]:
        for chunk in _chunks(ids):
            q = f"SELECT {self._cols} FROM segments WHERE id IN ({','.join('?' * len(chunk))})"
            for row in self.conn.execute(q, chunk):
                yield Segment(*row)

    def centrality(self, ids: Sequence[str]) -> Iterator[tuple[str, float]]:
        for chunk in _chunks(ids):
            q = f"SELECT id, centrality FROM segments WHERE id IN ({','.join('?' * len(chunk))})"
            yield from self.conn.execute(q, chunk)

    def places(self) -> Iterator[Place]:
        q = "SELECT id, path, start_line, end_line, qualified_name, symbol, centrality FROM segments"
        for row in self.conn.execute(q):
            yield Place(*row)

    def close(self) -> None:
        self.conn.close()


class _PackedDb:
    """Format 2: file texts once, segments as line ranges (see the module's docstring)."""

    def __init__(self, conn: sqlite3.Connection, repo: str) -> None:
        self.conn = conn
        self.repo = repo
        self._kept: collections.OrderedDict[int, tuple[str, str, FileText, int]] = collections.OrderedDict()
        self._kept_bytes = 0

    def _texts(self, file_ids: Iterable[int]) -> dict[int, tuple[str, str, FileText, int]]:
        """(path, language, text, compressed size) of each file, from those kept or read (and kept)."""
        out: dict[int, tuple[str, str, FileText, int]] = {}
        missing = []
        for f in file_ids:
            entry = self._kept.get(f)
            if entry is None:
                missing.append(f)
            else:
                self._kept.move_to_end(f)
                out[f] = entry
        for chunk in _chunks(missing):
            q = f"SELECT id, path, language, text, blocks FROM files WHERE id IN ({','.join('?' * len(chunk))})"
            for f, path, language, text, blocks in self.conn.execute(q, chunk):
                out[f] = entry = (path, language, FileText(text, blocks), len(text or b""))
                if entry[3] <= _KEPT_BYTES // 4:
                    self._kept[f] = entry
                    self._kept_bytes += entry[3]
        while len(self._kept) > _KEPT_FILES or self._kept_bytes > _KEPT_BYTES:
            self._kept_bytes -= self._kept.popitem(last=False)[1][3]
        return out

    def _file(
        self, path: str, language: str, text: bytes | None, blocks: bytes | None, first: int, last: int
    ) -> Iterator[Segment]:
        stored = FileText(text, blocks)
        q = f"SELECT {_ROW} FROM segments s WHERE s.rowid BETWEEN ? AND ? ORDER BY start_line, end_line DESC, rowid"
        for row in self.conn.execute(q, (first, last)).fetchall():
            yield decode_row(row, self.repo, path, language, stored)

    def file_segments(self, repo: str, path: str) -> Iterator[Segment]:
        if repo != self.repo:
            return
        row = self.conn.execute(
            "SELECT language, text, blocks, first, last FROM files WHERE path = ? AND first IS NOT NULL", (path,)
        ).fetchone()
        if row is not None:
            yield from self._file(path, *row)

    def line_count(self, repo: str, path: str) -> tuple[int, bool] | None:
        if repo != self.repo:
            return None
        row = self.conn.execute(
            "SELECT text, blocks FROM files WHERE path = ? AND first IS NOT NULL", (path,)
        ).fetchone()
        if row is None:
            return None
        text = FileText(*row)
        return text.line_count(), text.ends_in_newline()

    def repo_segments(self, repo: str) -> Iterator[Segment]:
        if repo != self.repo:
            return
        listing = self.conn.execute(
            "SELECT id, path, language FROM files WHERE first IS NOT NULL ORDER BY path"
        ).fetchall()
        for file_id, path, language in listing:
            text, blocks, first, last = self.conn.execute(
                "SELECT text, blocks, first, last FROM files WHERE id = ?", (file_id,)
            ).fetchone()
            yield from self._file(path, language, text, blocks, first, last)

    def paths(self, repo: str) -> list[str]:
        if repo != self.repo:
            return []
        return [p for (p,) in self.conn.execute("SELECT path FROM files WHERE first IS NOT NULL ORDER BY path")]

    def unheld(self, repo: str) -> list[tuple[str, str, int]]:
        if repo != self.repo:
            return []
        for columns in ("path, reason, size", "path, reason, -1"):  # a table written before sizes were: unknown
            try:
                return [(p, r, n) for p, r, n in self.conn.execute(f"SELECT {columns} FROM unheld ORDER BY path")]
            except sqlite3.OperationalError:  # written before the table was: nothing known
                continue
        return []

    def sizes(self, repo: str) -> dict[str, int]:
        if repo != self.repo:
            return {}
        return {p: n for p, n in self.conn.execute("SELECT path, size FROM files WHERE first IS NOT NULL")}

    def text(self, repo: str, path: str) -> str | None:
        if repo != self.repo:
            return None
        row = self.conn.execute("SELECT text, blocks FROM files WHERE path = ?", (path,)).fetchone()
        if row is None or row[1] is None:
            return None
        stored = FileText(row[0], row[1])
        lines = stored.lines()
        return "\n".join(lines) + ("\n" if lines and stored.ends_in_newline() else "")

    def repos(self) -> list[str]:
        return [self.repo]

    def rows(self, ids: Sequence[str]) -> Iterator[Segment]:
        for chunk in _chunks([_id_key(i) for i in ids]):
            q = f"SELECT s.file, {_ROW} FROM segments s WHERE s.id IN ({','.join('?' * len(chunk))})"
            found = self.conn.execute(q, chunk).fetchall()
            texts = self._texts(dict.fromkeys(r[0] for r in found))  # a file's blocks decompress once
            for file_id, *row in found:
                path, language, stored, _ = texts[file_id]
                yield decode_row(row, self.repo, path, language, stored)

    def centrality(self, ids: Sequence[str]) -> Iterator[tuple[str, float]]:
        for chunk in _chunks([_id_key(i) for i in ids]):
            q = f"SELECT id, centrality FROM segments WHERE id IN ({','.join('?' * len(chunk))})"
            for sid, value in self.conn.execute(q, chunk):
                yield _id_of(sid), value  # type: ignore[misc]  # never NULL

    def places(self) -> Iterator[Place]:
        q = (
            "SELECT s.id, f.path, s.start_line, s.end_line, s.qualified_name, s.symbol, s.centrality, s.exact"
            " FROM segments s JOIN files f ON f.id = s.file"
        )
        for sid, path, start, end, qualified, symbol, value, exact in self.conn.execute(q):
            if exact is not None:
                d = json.loads(exact)
                yield Place(d["id"], d["path"], d["start_line"], d["end_line"], d["qualified_name"], d["symbol"], value)
            else:
                yield Place(_id_of(sid), path, start, end, _decode_qualified(qualified, symbol), symbol, value)  # type: ignore[arg-type]

    def close(self) -> None:
        self.conn.close()


def _chunks(values: Iterable[Any]) -> Iterator[list[Any]]:
    values = list(values)
    for i in range(0, len(values), _CHUNK):
        yield values[i : i + _CHUNK]
