"""Search a history shard: which current segments did the commits that answer the query touch?

A query is read three ways at once:

- **names**: a word that is the symbol (or qualified name) of a touched segment makes that segment
  a subject ("when was parse_config changed", "who changed Session.send last"); a plain word
  (no ``_``, ``.``, digit or inner capital) counts fully only in a when/who/recent question;
- **paths**: a word that names a folder or file stem makes that file's segments subjects, with less
  weight ("recent changes to the auth module"; a word before module/package/folder/file is only a place);
- **messages**: the other words are ranked by BM25 over commit messages, authors, touched symbols
  and paths ("why does load_lines strip blank lines").

A segment scores ``2·named + 1·in a named file + best relevance of a commit that touched it``
(a commit touching only an enclosing definition counts 0.8), 0.1 per query word in its symbol or
signature (at most 0.3), plus recency: dominant when the query
asks when/who/recent/last, a tie-breaker otherwise. Each hit's snippet lists the commits behind it
(short sha, date, author, subject), newest first when the question is about time.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fourfold.plugins import Hit, ModalityQuery, ShardResult
from fourfold.plugins.globs import path_filter
from fourfold_history.build import DB_NAME

__all__ = ["HistoryShard", "QueryTerms", "parse_query"]

_WORD = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*|\d+")
#: Words that shape a history question but name nothing in it.
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "the",
        "of",
        "to",
        "in",
        "on",
        "for",
        "at",
        "by",
        "with",
        "from",
        "about",
        "into",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "done",
        "has",
        "have",
        "had",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "ever",
        "last",
        "latest",
        "recent",
        "recently",
        "newest",
        "lately",
        "change",
        "changes",
        "changed",
        "changing",
        "modify",
        "modified",
        "modification",
        "edit",
        "edits",
        "edited",
        "commit",
        "commits",
        "committed",
        "history",
        "log",
        "blame",
        "git",
        "who's",
        "module",
        "modules",
        "file",
        "files",
        "code",
        "package",
        "folder",
        "directory",
        "introduce",
        "introduced",
        "add",
        "added",
        "remove",
        "removed",
        "touch",
        "touched",
        "write",
        "wrote",
        "written",
        "author",
        "authored",
        "me",
        "us",
        "we",
        "our",
        "my",
        "there",
        "their",
        "they",
        "was",
        "made",
        "make",
    ]
)
_PLACES = frozenset(
    [
        "module",
        "modules",
        "package",
        "packages",
        "folder",
        "folders",
        "directory",
        "directories",
        "file",
        "files",
        "dir",
    ]
)
_IDENTIFIER_SHAPE = re.compile(r"[_.$]|[a-z][A-Z]|\d")
_TEMPORAL = frozenset(["when", "who", "last", "latest", "recent", "recently", "newest", "lately", "blame"])
_CANDIDATE_COMMITS = 500
#: (repo, path, language, start_line, end_line, symbol, kind, signature) of a stored segment.
_Row = tuple[str, str, str, int, int, str | None, str | None, str | None]
_SNIPPET_COMMITS = 3


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """A history question taken apart: identifier-like words, content words, and whether it asks about time."""

    names: tuple[str, ...]  # may name a definition or a file/folder
    words: tuple[str, ...]  # for BM25 over messages
    temporal: bool
    paths: tuple[str, ...] = ()  # named as a place ("the auth module"): a file or folder only
    identifiers: frozenset[str] = frozenset()  # names shaped like code (snake_case, camelCase, dotted)


def parse_query(text: str) -> QueryTerms:
    tokens = _WORD.findall(text)
    lowered = [t.lower() for t in tokens]
    names: list[str] = []
    paths: list[str] = []
    identifiers: set[str] = set()
    for i, (raw, t) in enumerate(zip(tokens, lowered, strict=True)):
        if t in _STOP or t in names or t in paths:
            continue
        if i + 1 < len(lowered) and lowered[i + 1] in _PLACES:
            paths.append(t)
            continue
        names.append(t)
        if _IDENTIFIER_SHAPE.search(raw):
            identifiers.add(t)
        if "." in t:
            names.append(t.rsplit(".", 1)[-1])
            identifiers.add(names[-1])
    words = [
        w
        for w in dict.fromkeys(p for t in names + paths for p in re.split(r"[._$]+", t) if p)
        if len(w) > 1 and w not in _STOP
    ]
    return QueryTerms(
        tuple(names), tuple(words), any(t in _TEMPORAL for t in lowered), tuple(paths), frozenset(identifiers)
    )


@dataclass(slots=True)
class _Candidate:
    named: float = 0.0
    relevance: float = 0.0
    latest: int = 0


class HistoryShard:
    """A loaded history shard. Thread-safe: one read-only SQLite connection per thread."""

    def __init__(self, shard_dir: Path) -> None:
        self.path = shard_dir / DB_NAME
        if not self.path.is_file():
            from fourfold.errors import CorruptIndex

            raise CorruptIndex(
                f"history shard {str(shard_dir)!r} has no {DB_NAME}; rebuild the index with `fourfold index`"
            )
        self._local = threading.local()
        meta = dict(self._db().execute("SELECT key, value FROM meta").fetchall())
        self.commits = int(meta.get("commits", "0"))
        self.build_notes = tuple(json.loads(meta.get("notes", "[]")))
        span = self._db().execute("SELECT min(time), max(time) FROM commits").fetchone()
        self.oldest, self.newest = (span[0] or 0), (span[1] or 0)

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
            self._local.db = db
        return db

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def search(self, query: ModalityQuery) -> ShardResult:
        if self.commits == 0:
            return ShardResult(hits=(), notes=self.build_notes or ("history: this shard has no commits",))
        terms = parse_query(query.text)
        db = self._db()
        cands: dict[str, _Candidate] = {}
        relevance = self._commit_relevance(db, terms.words)
        for name in terms.names:
            # a plain word names a definition when the question is about its history ("when was
            # check changed"); in a "why" question it is more likely prose ("fusion", "paths")
            weight = 2.0 if name in terms.identifiers or terms.temporal else 0.5
            for (sid,) in db.execute("SELECT segment_id FROM names WHERE name = ?", (name,)):
                c = cands.setdefault(sid, _Candidate())
                c.named = max(c.named, weight)
        for name in (*terms.names, *terms.paths):
            for (sid,) in db.execute(
                "SELECT s.id FROM path_terms t JOIN segments s ON s.path = t.path WHERE t.term = ?", (name,)
            ):
                c = cands.setdefault(sid, _Candidate())
                c.named = max(c.named, 1.0)
        if relevance:
            marks = ",".join("?" * len(relevance))
            for sid, cid, inner in db.execute(
                f"SELECT segment_id, commit_id, inner FROM touches WHERE commit_id IN ({marks})", list(relevance)
            ):
                c = cands.setdefault(sid, _Candidate())
                c.relevance = max(c.relevance, relevance[cid] * (1.0 if inner else 0.8))
        if not cands and terms.temporal:  # "what changed recently": the newest changes
            for (sid,) in db.execute(
                "SELECT t.segment_id FROM touches t JOIN commits c ON c.id = t.commit_id WHERE t.inner = 1 "
                "ORDER BY c.time DESC LIMIT ?",
                (max(query.k, 1) * 4,),
            ):
                cands.setdefault(sid, _Candidate())
        if not cands:
            return ShardResult(
                hits=(), notes=("history: no commit message, touched definition or path matches the query",)
            )
        rows = self._segments(db, list(cands))
        for sid, latest in self._latest(db, list(rows)).items():
            cands[sid].latest = latest
        span = max(self.newest - self.oldest, 1)
        recency_weight = 1.0 if terms.temporal else 0.05
        scored: list[tuple[float, str]] = []
        path_passes = path_filter(query)
        for sid, row in rows.items():
            if not _passes(row, query, path_passes):
                continue
            c = cands[sid]
            if not c.latest:
                continue  # named, but no commit in the indexed history touched it
            recency = (c.latest - self.oldest) / span
            scored.append((c.named + c.relevance + _mentions(row, terms.words) + recency_weight * recency, sid))
        scored.sort(key=lambda t: (-t[0], rows[t[1]][1], rows[t[1]][2]))
        hits = []
        for score, sid in scored[: query.k]:
            repo, path, language, start, end, symbol, kind, _ = rows[sid]
            snippet = self._snippet(db, sid, relevance, terms.temporal)
            hits.append(Hit(sid, repo, path, start, end, round(score, 6), symbol, kind, language, (), 0.0, snippet))
        return ShardResult(hits=tuple(hits), total_matches=len(scored))

    def _commit_relevance(self, db: sqlite3.Connection, words: tuple[str, ...]) -> dict[int, float]:
        """commit id -> BM25 relevance scaled to (0, 1] (1 for the best commit)."""
        if not words:
            return {}
        match = " OR ".join(f'"{w}"*' if len(w) >= 3 else f'"{w}"' for w in words)
        rows = db.execute(
            "SELECT rowid, bm25(commit_text) FROM commit_text WHERE commit_text MATCH ? ORDER BY bm25(commit_text) "
            "LIMIT ?",
            (match, _CANDIDATE_COMMITS),
        ).fetchall()
        if not rows:
            return {}
        best = rows[0][1] or -1.0  # bm25() is negative: lower is better
        return {cid: (score / best if best else 1.0) for cid, score in rows}

    @staticmethod
    def _segments(db: sqlite3.Connection, ids: list[str]) -> dict[str, _Row]:
        out = {}
        for i in range(0, len(ids), 900):
            chunk = ids[i : i + 900]
            for row in db.execute(
                "SELECT id, repo, path, language, start_line, end_line, symbol, kind, signature FROM segments WHERE "
                f"id IN ({','.join('?' * len(chunk))})",
                chunk,
            ):
                out[row[0]] = row[1:]
        return out

    @staticmethod
    def _latest(db: sqlite3.Connection, ids: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in range(0, len(ids), 900):
            chunk = ids[i : i + 900]
            out.update(
                db.execute(
                    f"SELECT t.segment_id, max(c.time) FROM touches t JOIN commits c ON c.id = t.commit_id "
                    f"WHERE t.segment_id IN ({','.join('?' * len(chunk))}) GROUP BY t.segment_id",
                    chunk,
                ).fetchall()
            )
        return out

    @staticmethod
    def _snippet(db: sqlite3.Connection, sid: str, relevance: dict[int, float], temporal: bool) -> str:
        rows = db.execute(
            "SELECT c.id, c.sha, c.author, c.time, c.subject FROM touches t JOIN commits c ON c.id = t.commit_id "
            "WHERE t.segment_id = ? ORDER BY c.time DESC, c.id ASC",
            (sid,),
        ).fetchall()
        if not temporal:
            rows.sort(key=lambda r: -relevance.get(r[0], 0.0))  # stable: newest first among equals
        lines = [
            f"{sha[:10]} {time.strftime('%Y-%m-%d', time.gmtime(when))} {author}: {subject}"
            for _, sha, author, when, subject in rows[:_SNIPPET_COMMITS]
        ]
        if len(rows) > _SNIPPET_COMMITS:
            lines.append(
                f"(+{len(rows) - _SNIPPET_COMMITS} older commits)"
                if temporal
                else f"(+{len(rows) - _SNIPPET_COMMITS} more commits)"
            )
        return "\n".join(lines)


def _passes(row: _Row, query: ModalityQuery, path_passes: Callable[[str], bool] | None) -> bool:
    """Whether ``row`` is in the query's repositories, languages and paths (its path glob, less its
    left-out globs: ``fourfold.plugins.globs.path_filter``, as every modality reads them)."""
    repo, path, language = row[0], row[1], row[2]
    if query.repos and repo not in query.repos:
        return False
    if query.languages and language not in query.languages:
        return False
    return path_passes is None or path_passes(path)


def _mentions(row: _Row, words: tuple[str, ...]) -> float:
    """0.1 per query word in the segment's symbol or signature (at most 0.3): among the segments
    one commit touched, the one the question is about."""
    text = f"{row[5] or ''} {row[7] or ''}".lower()
    return 0.1 * min(3, sum(1 for w in words if w in text))
