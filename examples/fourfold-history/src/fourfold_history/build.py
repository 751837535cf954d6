"""Build a history shard: commits, the segments they touched, and a BM25 index over messages.

The shard is one SQLite file (``history.sqlite``):

    segments(id, repo, path, language, start_line, end_line, symbol, kind, qualified_name, signature)
    commits(id, repo, sha, author, email, time, subject)
    touches(commit_id, segment_id, inner)   inner = 1 when no touched child segment is narrower
    names(name, segment_id)                 lower-cased symbol, qualified name and its last part
    path_terms(term, path)                  lower-cased folder names and file stems
    commit_text                             FTS5 (contentless): message, author, touched symbols, paths
    meta(key, value)                        commits, repositories without history, settings used

Only segments that some commit touched are stored: a history hit always points at code a commit
changed, under the id every other modality gives the same segment.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import re
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from fourfold.plugins import BuildContext, BuildStats, Segment
from fourfold_history.gitlog import GitError, is_git_repository, read_history
from fourfold_history.linemap import HistoryWalker

__all__ = ["DB_NAME", "build_shard"]

DB_NAME = "history.sqlite"
#: Commits read per repository unless ``history.max_commits`` says otherwise (0: all).
DEFAULT_MAX_COMMITS = 20_000

_SCHEMA = """
CREATE TABLE segments (id TEXT PRIMARY KEY, repo TEXT NOT NULL, path TEXT NOT NULL, language TEXT NOT NULL,
    start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, symbol TEXT, kind TEXT, qualified_name TEXT,
    signature TEXT);
CREATE TABLE commits (id INTEGER PRIMARY KEY, repo TEXT NOT NULL, sha TEXT NOT NULL, author TEXT NOT NULL,
    email TEXT NOT NULL, time INTEGER NOT NULL, subject TEXT NOT NULL);
CREATE TABLE touches (commit_id INTEGER NOT NULL, segment_id TEXT NOT NULL, inner INTEGER NOT NULL,
    PRIMARY KEY (segment_id, commit_id)) WITHOUT ROWID;
CREATE TABLE names (name TEXT NOT NULL, segment_id TEXT NOT NULL);
CREATE TABLE path_terms (term TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (term, path)) WITHOUT ROWID;
CREATE VIRTUAL TABLE commit_text USING fts5(message, author, symbols, paths, content='');
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class _FileSegments:
    """The segments of one current file, sorted by start line, for range lookups."""

    __slots__ = ("segments", "starts")

    def __init__(self, segments: list[Segment]) -> None:
        self.segments = sorted(segments, key=lambda s: (s.start_line, -s.end_line))
        self.starts = [s.start_line for s in self.segments]

    def overlapping(self, start: int, end: int) -> list[tuple[Segment, bool]]:
        """Segments overlapping ``start..end``, each with True when no overlapping child is narrower."""
        hit = [s for s in self.segments[: bisect.bisect_right(self.starts, end)] if s.end_line >= start]
        parents = {s.parent_id for s in hit if s.parent_id}
        return [(s, s.id not in parents) for s in hit]


def build_shard(segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
    """Read the history of every repository of the shard and write ``history.sqlite``."""
    by_file: dict[tuple[str, str], list[Segment]] = defaultdict(list)
    for seg in segments:
        by_file[(seg.repo, seg.path)].append(seg)
    files = {key: _FileSegments(segs) for key, segs in by_file.items()}
    max_commits = int(context.settings.get("history.max_commits", DEFAULT_MAX_COMMITS))
    db_path = shard_dir / DB_NAME
    db_path.unlink(missing_ok=True)
    notes: list[str] = []
    stored: set[str] = set()
    n_commits = 0
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        db.executescript(_SCHEMA)
        for repo in context.repos:
            root = context.settings.get(f"repo_path.{repo}")
            if not root:
                notes.append(
                    f"history: no path for repository {repo!r} in the build settings (repo_path.{repo}); its history "
                    "is not indexed"
                )
                continue
            if not is_git_repository(Path(root)):
                notes.append(
                    f"history: repository {repo!r} ({root}) is not the top of a git checkout with commits; no history "
                    "indexed"
                )
                continue
            try:
                n_commits += _index_repo(db, repo, Path(root), files, max_commits, stored)
            except GitError as exc:
                notes.append(f"history: {exc}")
        _write_path_terms(db, {path for (_, path) in files})
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [
                ("commits", str(n_commits)),
                ("notes", json.dumps(notes)),
                ("max_commits", str(max_commits)),
            ],
        )
        db.execute("CREATE INDEX touches_commit ON touches(commit_id)")
        db.execute("CREATE INDEX names_name ON names(name)")
        db.commit()
        db.execute("VACUUM")
    return BuildStats(segments=len(stored), bytes_on_disk=db_path.stat().st_size, notes=tuple(notes))


def _index_repo(
    db: sqlite3.Connection,
    repo: str,
    root: Path,
    files: dict[tuple[str, str], _FileSegments],
    max_commits: int,
    stored: set[str],
) -> int:
    walker = HistoryWalker({path for (r, path) in files if r == repo})
    n = 0
    for commit in read_history(root, max_commits):
        touched: dict[str, bool] = {}
        paths: set[str] = set()
        for path, start, end in walker.walk(commit):
            paths.add(path)
            for seg, inner in files[(repo, path)].overlapping(start, end):
                touched[seg.id] = touched.get(seg.id, False) or inner
                if seg.id not in stored:
                    _store_segment(db, seg)
                    stored.add(seg.id)
        cur = db.execute(
            "INSERT INTO commits(repo, sha, author, email, time, subject) VALUES (?, ?, ?, ?, ?, ?)",
            (repo, commit.sha, commit.author, commit.email, commit.time, commit.subject),
        )
        cid = cur.lastrowid
        db.executemany(
            "INSERT INTO touches VALUES (?, ?, ?)", [(cid, sid, int(inner)) for sid, inner in touched.items()]
        )
        symbols = (
            db.execute(
                "SELECT coalesce(qualified_name, symbol) FROM segments WHERE symbol IS NOT NULL AND id IN "
                f"({','.join('?' * len(touched))})",
                list(touched),
            ).fetchall()
            if touched
            else []
        )
        all_paths = {c.new_path or c.old_path or "" for c in commit.changes} | paths
        db.execute(
            "INSERT INTO commit_text(rowid, message, author, symbols, paths) VALUES (?, ?, ?, ?, ?)",
            (
                cid,
                commit.message,
                f"{commit.author} {commit.email}",
                " ".join(s for (s,) in symbols),
                " ".join(sorted(all_paths)),
            ),
        )
        n += 1
    return n


def _store_segment(db: sqlite3.Connection, seg: Segment) -> None:
    db.execute(
        "INSERT INTO segments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            seg.id,
            seg.repo,
            seg.path,
            seg.language,
            seg.start_line,
            seg.end_line,
            seg.symbol,
            seg.kind,
            seg.qualified_name,
            seg.signature,
        ),
    )
    names = {n.lower() for n in (seg.symbol, seg.qualified_name) if n}
    names |= {n.rsplit(".", 1)[-1] for n in names}
    db.executemany("INSERT INTO names VALUES (?, ?)", [(n, seg.id) for n in names])


_SPLIT = re.compile(r"[^a-z0-9]+")


def _write_path_terms(db: sqlite3.Connection, paths: set[str]) -> None:
    """Folder names and file stems, so that "the auth module" finds ``app/auth.py`` and ``auth/``."""
    rows = set()
    for path in paths:
        p = PurePosixPath(path.lower())
        for term in [*p.parent.parts, p.stem, *_SPLIT.split(p.stem)]:
            if term and term != ".":
                rows.add((term, path))
    db.executemany("INSERT OR IGNORE INTO path_terms VALUES (?, ?)", sorted(rows))
