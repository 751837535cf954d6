"""Per-file graph facts kept on disk by content, so a build in a new process parses only what changed.

Parsing (tree-sitter, then walking captures in Python) is most of a graph build: 0.93 s of
pydantic's 1.15 s. The in-process cache in ``parse.py`` spares a second parse within one process
(the centrality pass, then the partition); this one spares it across processes: a sync after one
commit, a second branch, a fork, a partition that reads its dependencies' files. It is keyed by
the file's bytes, its language and the parser's version, and shared by every repository of a store
(the host names the file: build setting ``graph.facts_cache``).

One SQLite file: ``facts(key BLOB PRIMARY KEY, data BLOB)``: values of plain tuples, strings,
numbers and None (``parse.py`` turns facts into them and back), ``marshal``-ed and compressed
(zstd, 18 % smaller than the zlib of entries written before, which still read) — no pickle, so
a damaged or planted entry can only read as a miss, never run code. Several build processes may
share it (WAL, a busy timeout, ``INSERT OR IGNORE``); losing it loses nothing but
time. A flush that leaves the write-ahead log over ``WAL_LIMIT`` folds it into the database and
empties it, when no other process is reading (it never waits for one): a fleet's first build
left 3.5 MB of log beside 1.6 MB of cache for as long as its process ran.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import marshal
import os
import sqlite3
import threading
import zlib
from pathlib import Path
from typing import Any

from fourfold.plugins.codec import compress, decompress

__all__ = ["FACTS_FORMAT", "WAL_LIMIT", "FactsCache", "facts_cache_for"]

#: Bump when ``FileFacts`` or what the parser reads changes: older entries are never read again.
#: 2: JavaScript's local exports under another name (export default X) are facts; 3: a Go member chain
#: starting from a parameter is read through the parameter's declared type; 4: a chain from ``super()`` (Python)
#: or ``super`` (JavaScript) starts with ``parse.SUPER``, not the unknown receiver; 5: Java is read, and
#: ``FileFacts`` carries Java methods' declared return types; a JavaScript/TypeScript chain starting from a
#: variable or field of known type is read through that type; 6: Rust is read; 7: C is read, a TypeScript
#: interface's ``extends`` are its bases, and a Java call carries its number of arguments (``Reference.arity``);
#: 8: C++ is read (and ``FileFacts.hidden``, its anonymous namespaces); 9: a C++ macro invoked as a statement outside
#: functions is read past (``cpp_source.readable``); 10: so are older clang's lock annotations
#: (``EXCLUSIVE_LOCK_FUNCTION()``); 11: a Go struct literal's key is its type's field (``&Mux{handler: h}``);
#: 12: C# is read (``parse._CSharp``; ``FileFacts.returns`` holds its fields' and properties' declared types too);
#: 13: the property a JavaScript function is assigned to (``Suite.prototype.addTest = function``) is no reference;
#: 14: ``inherits(Dot, Base)`` is a JavaScript base (``FileFacts.bases``), ``module.exports = Base`` an export
#: (``parse.COMMONJS_EXPORT``); 15: a C# call carries its arguments' types where the source shows them
#: (``Reference.types``); 16: so does a Java call; 17: a Python or JavaScript literal receiver is its built-in type
#: (``", ".join``: ``("str", "join")``), a Python local's or ``self`` attribute's type is read where written
#: (``parse.PY_DECLARED``, ``parse.PY_MADE``) and a Python function's return annotation is kept (``returns``);
#: 18: C is read after its decoration macros, prototype macros and statement-cutting ``#if`` (``c_source.readable``);
#: 19: a JavaScript or TypeScript shorthand property (``module.exports = { concat }``) is a use of its name; 20: a
#: Python base written with type arguments (``Protocol[T]``, ``Repository[Model]``) is the class subscripted.
FACTS_FORMAT = 20
_ZSTD_LEVEL = 9
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: Bytes of write-ahead log a flush leaves as they are.
WAL_LIMIT = 1 << 20
_BUSY_MS = 30_000


def _parser_version() -> str:
    try:
        return importlib.metadata.version("tree-sitter-language-pack")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


_LEAVES = frozenset({str, int, bool, float, type(None)})


def _plain(value: Any) -> bool:
    """Whether ``value`` is made of tuples, strings, numbers and None only (what a cache entry holds).

    Exact types, without recursion (a file's facts are a million small values: the recursive
    ``isinstance`` walk was 12 % of a graph build); ``marshal`` keeps no subclass either."""
    stack = [value]
    while stack:
        v = stack.pop()
        t = type(v)
        if t is tuple:
            stack.extend(v)
        elif t not in _LEAVES:
            return False
    return True


class FactsCache:
    """Plain values by key (see ``parse.parse_file``), in one SQLite file; thread-safe."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.version = f"{FACTS_FORMAT}:{_parser_version()}".encode()
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=_BUSY_MS / 1000)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("CREATE TABLE IF NOT EXISTS facts (key BLOB PRIMARY KEY, data BLOB NOT NULL)")
        self._conn.commit()
        self._pending = 0

    def key(self, digest: bytes, language: str) -> bytes:
        return digest + b"\0" + language.encode() + b"\0" + self.version

    def get(self, key: bytes) -> tuple[Any, ...] | None:
        with self._lock:
            row = self._conn.execute("SELECT data FROM facts WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            data = row[0]
            raw = decompress(data) if data[:4] == _ZSTD_MAGIC else zlib.decompress(data)
            value = marshal.loads(raw)
        except Exception:  # noqa: BLE001 - a damaged or foreign entry is a miss, never a failure
            return None
        return value if isinstance(value, tuple) else None

    def put(self, key: bytes, value: tuple[Any, ...]) -> None:
        """Keep ``value`` (tuples of strings, numbers and None) under ``key``."""
        if not _plain(value):
            raise TypeError("a facts cache entry holds tuples, strings, numbers and None only")
        data = compress(marshal.dumps(value), _ZSTD_LEVEL)
        with self._lock:
            try:
                self._conn.execute("INSERT OR IGNORE INTO facts VALUES (?, ?)", (key, data))
                self._pending += 1
                if self._pending >= 512:
                    self._commit()
            except sqlite3.Error:  # a full or locked disk costs a parse next time, nothing more
                self._pending = 0

    def flush(self) -> None:
        with self._lock:
            self._commit()
            try:
                wal = os.path.getsize(f"{self.path}-wal")
            except OSError:
                return
            if wal > WAL_LIMIT:
                with contextlib.suppress(sqlite3.Error):  # busy: another process reads; the next flush tries again
                    self._conn.execute("PRAGMA busy_timeout = 0")
                    try:
                        self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                    finally:
                        self._conn.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")

    def _commit(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.commit()
        self._pending = 0

    def close(self) -> None:
        with self._lock:
            self._commit()
            self._conn.close()


_caches: dict[str, FactsCache] = {}
_caches_lock = threading.Lock()


def facts_cache_for(path: str | None) -> FactsCache | None:
    """The process's cache at ``path`` (opened once), or None when no path is given or it cannot open."""
    if not path:
        return None
    with _caches_lock:
        found = _caches.get(path)
        if found is None:
            try:
                found = _caches[path] = FactsCache(Path(path))
            except (OSError, ValueError, sqlite3.Error):  # the cache is an optimisation: build without it
                return None
        return found
