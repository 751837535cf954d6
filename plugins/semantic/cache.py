"""An on-disk cache of window embeddings keyed by (embedder identity, hash of the window's text).

Embedding is nearly all of an index build's CPU. A window whose exact text was embedded before by
the same embedder (same model, same backend, same weights: ``Embedder.identity()``) gets the same
vector, so it is looked up here instead: after an interrupted build, after a failed one, for a
repository registered under another name or indexed into another generation, for a file copied
from one repository to another. The previous generation's shard already gives reuse for unchanged
segments of the same shard; this cache covers everything else.

Storage: one SQLite file (WAL, so that several build processes may read and write it at once);
rows hold the packed sign bits and the float16 vector (absent for a binary embedder). A cache that
cannot be opened or written is skipped with the build going on: it only ever saves work.

Interface (for a generation builder that wants to share embeddings across repositories)::

    cache = EmbeddingCache.open(directory)          # None when it cannot be used
    key = text_key(window_text)
    found = cache.get_many(identity, [key, ...])    # key -> (codes row, float16 vector or None)
    cache.put_many(identity, keys, codes, vectors)  # arrays of len(keys) rows
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = ["CACHE_FILE", "EmbeddingCache", "default_cache_dir", "text_key"]

CACHE_FILE = "embeddings.sqlite"
#: SQLite's default limit on host parameters is 32766; stay well below it.
_CHUNK = 900


def text_key(text: str) -> str:
    """The cache key of one window's text: a 16-byte BLAKE2b digest in hex."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def default_cache_dir() -> Path:
    """``$FOURFOLD_HOME/cache/embeddings``: shared by every build of the store."""
    from fourfold.config import fourfold_home

    return fourfold_home() / "cache" / "embeddings"


class EmbeddingCache:
    """A thread-safe handle on the cache file; see the module doc for the interface."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self._lock = threading.Lock()
        self.path = path

    @classmethod
    def open(cls, directory: Path) -> EmbeddingCache | None:
        """The cache in ``directory`` (created if missing), or ``None`` if it cannot be used."""
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path = directory / CACHE_FILE
            conn = sqlite3.connect(path, timeout=30, check_same_thread=False, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS windows ("
                " identity TEXT NOT NULL, key TEXT NOT NULL, codes BLOB NOT NULL, vector BLOB,"
                " PRIMARY KEY (identity, key)) WITHOUT ROWID"
            )
        except (OSError, sqlite3.Error):
            return None
        return cls(conn, path)

    def get_many(self, identity: str, keys: Sequence[str]) -> dict[str, tuple[np.ndarray, np.ndarray | None]]:
        """``key -> (packed codes, float16 vector or None)`` for the keys found; a read error finds none."""
        found: dict[str, tuple[np.ndarray, np.ndarray | None]] = {}
        unique = list(dict.fromkeys(keys))
        try:
            with self._lock:
                for start in range(0, len(unique), _CHUNK):
                    part = unique[start : start + _CHUNK]
                    marks = ",".join("?" * len(part))
                    rows = self._conn.execute(
                        f"SELECT key, codes, vector FROM windows WHERE identity = ? AND key IN ({marks})",
                        (identity, *part),
                    ).fetchall()
                    for key, codes, vector in rows:
                        found[key] = (
                            np.frombuffer(codes, dtype=np.uint8),
                            None if vector is None else np.frombuffer(vector, dtype=np.float16),
                        )
        except sqlite3.Error:
            return {}
        return found

    def put_many(self, identity: str, keys: Sequence[str], codes: np.ndarray, vectors: np.ndarray | None) -> bool:
        """Store rows ``i`` of ``codes``/``vectors`` under ``keys[i]``; False if the write failed."""
        if not keys:
            return True
        codes = np.ascontiguousarray(codes, dtype=np.uint8)
        vecs = None if vectors is None else np.ascontiguousarray(vectors, dtype=np.float16)
        rows = [
            (identity, key, codes[i].tobytes(), None if vecs is None else vecs[i].tobytes())
            for i, key in enumerate(keys)
        ]
        try:
            with self._lock:
                self._conn.execute("BEGIN")
                self._conn.executemany("INSERT OR REPLACE INTO windows VALUES (?, ?, ?, ?)", rows)
                self._conn.execute("COMMIT")
        except sqlite3.Error:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            return False
        return True

    def count(self, identity: str | None = None) -> int:
        """Rows held (for one identity, or all)."""
        with self._lock:
            if identity is None:
                return int(self._conn.execute("SELECT COUNT(*) FROM windows").fetchone()[0])
            return int(self._conn.execute("SELECT COUNT(*) FROM windows WHERE identity = ?", (identity,)).fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()
