"""The index store: ``$FOURFOLD_HOME`` on disk.

    $FOURFOLD_HOME/
      catalog.sqlite            registered repositories; per-file cache of segments by content hash
      LIVE                      name of the live generation (replaced atomically)
      index.lock                held (flock) by the one build that may run at a time
      generations/
        g000007/                an immutable generation
          manifest.json         repositories, shards (modality, shard, folder, segments), summary, settings
          segments.sqlite       every segment of the generation, with its centrality
          <modality>/<shard>/   what each modality built for each shard
        .build-g000008/         a build in progress: renamed to g000008 when complete, then LIVE switches

A crash mid-build leaves ``.build-*`` folders that the next build removes; LIVE still names the
previous, complete generation, so readers never see a half index.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fourfold.errors import CorruptIndex, IndexLocked, NoIndex, UnknownRepository
from fourfold.plugins.types import Segment

__all__ = ["GenerationReader", "IndexStore", "RepoRecord", "ShardSpec"]

_SEGMENT_COLUMNS = (
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
KEEP_GENERATIONS = 3


@dataclass(frozen=True, slots=True)
class RepoRecord:
    name: str
    path: str
    added_at: float


@dataclass(frozen=True, slots=True)
class ShardSpec:
    """One shard of one modality in a generation: its folder (relative to the generation) and repos."""

    modality: str
    shard: str
    folder: str
    repos: tuple[str, ...]
    files: tuple[str, ...] = ()  # "repo\0path" keys when a repository is split over several shards
    segments: int = 0


def _connect(path: Path, readonly: bool = False) -> sqlite3.Connection:
    if readonly:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    else:
        conn = sqlite3.connect(path, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
    return conn


class IndexStore:
    """Reads and writes ``$FOURFOLD_HOME``. Safe for several readers; one writer at a time (flock)."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.generations_dir = self.home / "generations"
        self._live: tuple[tuple[int, int, int], str | None] | None = None  # (LIVE's stat stamp, its name)

    # -- identity --------------------------------------------------------------------------------
    def store_id(self) -> str:
        """A short random id made once per store: names its workers apart from another store's on
        the same Ray cluster (every store numbers its generations from g000001)."""
        path = self.home / "STORE_ID"
        try:
            return path.read_text().strip()
        except FileNotFoundError:
            self.home.mkdir(parents=True, exist_ok=True)
            tmp = self.home / f".STORE_ID.{os.getpid()}.tmp"
            tmp.write_text(os.urandom(4).hex() + "\n")
            try:
                os.link(tmp, path)  # first writer wins; a concurrent one reads the winner's id
            except FileExistsError:
                pass
            finally:
                tmp.unlink()
            return path.read_text().strip()

    # -- catalog ---------------------------------------------------------------------------------
    def ensure(self) -> None:
        self.generations_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.closing(_connect(self.home / "catalog.sqlite")) as conn, conn:
            conn.executescript(
                """
                CREATE TABLE IF NOT EXISTS repos (name TEXT PRIMARY KEY, path TEXT NOT NULL, added_at REAL NOT NULL);
                CREATE TABLE IF NOT EXISTS file_cache (
                    repo TEXT NOT NULL, path TEXT NOT NULL, file_hash TEXT NOT NULL,
                    language TEXT NOT NULL, parse_errors INTEGER NOT NULL, supported INTEGER NOT NULL,
                    segments TEXT NOT NULL, PRIMARY KEY (repo, path));
                """
            )

    def catalog(self) -> sqlite3.Connection:
        self.ensure()
        return _connect(self.home / "catalog.sqlite")

    def register_repo(self, name: str, path: Path) -> RepoRecord:
        with contextlib.closing(self.catalog()) as conn, conn:
            conn.execute(
                "INSERT INTO repos(name, path, added_at) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET path = excluded.path",
                (name, str(path), time.time()),
            )
        return self.repo(name)

    def repos(self) -> list[RepoRecord]:
        if not (self.home / "catalog.sqlite").exists():
            return []
        with contextlib.closing(_connect(self.home / "catalog.sqlite", readonly=True)) as conn:
            return [RepoRecord(*row) for row in conn.execute("SELECT name, path, added_at FROM repos ORDER BY name")]

    def repo(self, name: str) -> RepoRecord:
        for r in self.repos():
            if r.name == name:
                return r
        known = ", ".join(r.name for r in self.repos()) or "none"
        raise UnknownRepository(
            f"unknown repository {name!r}; registered: {known}. Index it with `fourfold index PATH --name {name}`"
        )

    # -- generations -----------------------------------------------------------------------------
    def live_generation(self) -> str | None:
        """The live generation's name (None before the first build).

        Asked on every query, so the file is read again only when it changed: ``publish``
        replaces it by a rename, which gives it a new inode and modification time.
        """
        path = self.home / "LIVE"
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return None
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        cached = self._live
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            name = path.read_text().strip() or None
        except FileNotFoundError:
            return None
        self._live = (stamp, name)
        return name

    def require_live(self) -> GenerationReader:
        gen = self.live_generation()
        if gen is None:
            raise NoIndex(f"no index in {str(self.home)!r}; run `fourfold index PATH` first (or set FOURFOLD_HOME)")
        return self.reader(gen)

    def reader(self, generation: str) -> GenerationReader:
        return GenerationReader(self.generations_dir / generation)

    def next_generation_name(self) -> str:
        numbers = [int(p.name[1:]) for p in self.generations_dir.glob("g[0-9]*") if p.name[1:].isdigit()]
        numbers += [
            int(p.name[len(".build-g") :])
            for p in self.generations_dir.glob(".build-g*")
            if p.name[len(".build-g") :].isdigit()
        ]
        return f"g{max(numbers, default=0) + 1:06d}"

    @contextlib.contextmanager
    def build_lock(self) -> Iterator[None]:
        self.ensure()
        fd = os.open(self.home / "index.lock", os.O_CREAT | os.O_RDWR, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise IndexLocked(
                    f"another index build holds {str(self.home / 'index.lock')!r}; wait for it to finish"
                ) from None
            yield
        finally:
            os.close(fd)

    def clean_abandoned_builds(self) -> int:
        n = 0
        for p in self.generations_dir.glob(".build-*"):
            shutil.rmtree(p, ignore_errors=True)
            n += 1
        return n

    def publish(self, build_dir: Path, generation: str) -> Path:
        """Rename a finished build into place and switch LIVE to it atomically."""
        final = self.generations_dir / generation
        os.replace(build_dir, final)
        tmp = self.home / f".LIVE.{os.getpid()}.tmp"
        tmp.write_text(generation + "\n")
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, self.home / "LIVE")
        self._collect_garbage(generation)
        return final

    def _collect_garbage(self, live: str) -> None:
        gens = sorted(p for p in self.generations_dir.glob("g[0-9]*") if p.is_dir())
        for p in gens[:-KEEP_GENERATIONS]:
            if p.name != live:
                shutil.rmtree(p, ignore_errors=True)


class GenerationReader:
    """Read access to one immutable generation: manifest, segments, centrality."""

    manifest: dict[str, Any]
    name: str

    def __init__(self, root: Path, *, building: bool = False) -> None:
        """``building=True`` reads a generation whose manifest is not written yet (shard builds)."""
        self.root = Path(root)
        self._local = threading.local()
        self._specs: tuple[ShardSpec, ...] | None = None
        manifest = self.root / "manifest.json"
        if building:
            self.manifest = {"generation": self.root.name.removeprefix(".build-"), "shards": []}
            self.name = self.manifest["generation"]
            return
        if not manifest.exists():
            raise CorruptIndex(f"generation {str(self.root)!r} has no manifest.json; rebuild with `fourfold index`")
        try:
            self.manifest = json.loads(manifest.read_text())
        except json.JSONDecodeError as exc:
            raise CorruptIndex(
                f"manifest of {str(self.root)!r} is not valid JSON ({exc}); rebuild with `fourfold index`"
            ) from None
        self.name = self.manifest["generation"]

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = _connect(self.root / "segments.sqlite", readonly=True)
            self._local.conn = conn
        return conn

    def shards(self, modality: str | None = None) -> list[ShardSpec]:
        """The generation's shards (of one modality, or all), parsed from the manifest once."""
        specs = self._specs
        if specs is None:
            specs = self._specs = tuple(
                ShardSpec(
                    s["modality"],
                    s["shard"],
                    s["folder"],
                    tuple(s["repos"]),
                    tuple(s.get("files", ())),
                    s.get("segments", 0),
                )
                for s in self.manifest["shards"]
            )
        return [spec for spec in specs if modality is None or spec.modality == modality]

    def shard(self, modality: str, shard: str) -> ShardSpec:
        for s in self.shards(modality):
            if s.shard == shard:
                return s
        raise CorruptIndex(f"generation {self.name} has no shard {modality}/{shard}")

    def shard_dir(self, spec: ShardSpec) -> Path:
        return self.root / spec.folder

    def segments(self, repos: Iterable[str] = (), files: Iterable[str] = ()) -> Iterator[Segment]:
        """Segments of the given repositories (all when empty), or exactly the given repo\\0path files."""
        cols = ", ".join(_SEGMENT_COLUMNS)
        conn = self._conn()
        files = list(files)
        if files:
            for key in files:
                repo, path = key.split("\0", 1)
                for row in conn.execute(
                    f"SELECT {cols} FROM segments WHERE repo = ? AND path = ? ORDER BY start_line, end_line DESC",
                    (repo, path),
                ):
                    yield Segment(*row)
            return
        repos = list(repos)
        if repos:
            for repo in repos:
                for row in conn.execute(
                    f"SELECT {cols} FROM segments WHERE repo = ? ORDER BY path, start_line, end_line DESC", (repo,)
                ):
                    yield Segment(*row)
        else:
            for row in conn.execute(f"SELECT {cols} FROM segments ORDER BY repo, path, start_line, end_line DESC"):
                yield Segment(*row)

    def centrality(self, ids: Iterable[str]) -> dict[str, float]:
        ids = list(ids)
        if not ids:
            return {}
        out: dict[str, float] = {}
        conn = self._conn()
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            q = f"SELECT id, centrality FROM segments WHERE id IN ({','.join('?' * len(chunk))})"
            out.update(conn.execute(q, chunk).fetchall())
        return out

    def segment_rows(self, ids: Iterable[str]) -> dict[str, Segment]:
        ids = list(ids)
        cols = ", ".join(_SEGMENT_COLUMNS)
        out: dict[str, Segment] = {}
        conn = self._conn()
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            for row in conn.execute(f"SELECT {cols} FROM segments WHERE id IN ({','.join('?' * len(chunk))})", chunk):
                out[row[0]] = Segment(*row)
        return out

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


def create_segments_db(path: Path) -> sqlite3.Connection:
    conn = _connect(path)
    conn.executescript(
        """
        CREATE TABLE segments (
            id TEXT PRIMARY KEY, repo TEXT NOT NULL, path TEXT NOT NULL, language TEXT NOT NULL,
            start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, content TEXT NOT NULL,
            content_hash TEXT NOT NULL, symbol TEXT, kind TEXT, signature TEXT, qualified_name TEXT,
            parent_id TEXT, centrality REAL NOT NULL DEFAULT 0);
        CREATE INDEX segments_file ON segments(repo, path);
        """
    )
    return conn


def insert_segments(conn: sqlite3.Connection, segments: Iterable[Segment]) -> None:
    conn.executemany(
        f"INSERT OR IGNORE INTO segments({', '.join(_SEGMENT_COLUMNS)}) VALUES "
        f"({', '.join('?' * len(_SEGMENT_COLUMNS))})",
        ([getattr(s, c) for c in _SEGMENT_COLUMNS] for s in segments),
    )


def segment_to_json(s: Segment) -> dict[str, Any]:
    return asdict(s)
