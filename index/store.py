"""The index store: ``$FOURFOLD_HOME`` on disk.

    $FOURFOLD_HOME/
      catalog.sqlite            registered repositories; per-file cache of segments by content hash
      LIVE                      name of the live generation (replaced atomically)
      index.lock                held (flock) by the one build that may run at a time
      generations/
        g000007/                an immutable generation
          manifest.json         repositories, shards (modality, shard, folder, segments), summary, settings
          segments/<repo>.sqlite  each repository's files and segments, with their centrality
                                (``fourfold.index.segdb``: the file's text once, segments as line ranges)
          <modality>/<shard>/   what each modality built for each shard
        .build-g000008/         a build in progress: renamed to g000008 when complete, then LIVE switches

A crash mid-build leaves ``.build-*`` folders that the next build removes; LIVE still names the
previous, complete generation, so readers never see a half index.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from fourfold.errors import CorruptIndex, IndexLocked, NoIndex, UnknownRepository
from fourfold.index.segdb import SegmentDb, open_segment_db
from fourfold.plugins.types import Segment

__all__ = ["SEGMENTS_DIR", "GenerationReader", "IndexStore", "RepoRecord", "ShardSpec", "link_tree"]

T = TypeVar("T")

#: Generations kept after a switch: the live one and the one before it (a server may still be on it).
KEEP_GENERATIONS = 2
#: Segment databases one thread keeps open at most (least recently used closed first).
OPEN_SEGMENT_DBS = 64
#: A generation's per-repository segment databases: ``segments/<repo>.sqlite``.
SEGMENTS_DIR = "segments"


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
    #: Tombstones of a compound shard (``fourfold.index.compound``): repositories its files still
    #: hold but that moved on (changed, removed); they are never answered for from this shard.
    dead: tuple[str, ...] = ()
    #: A revision's delta shard (``fourfold.index.delta``): the repository whose shard it reads
    #: through, its changed files in ``files``; "" for every other shard.
    base: str = ""


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
                CREATE INDEX IF NOT EXISTS file_cache_hash ON file_cache(file_hash);
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

    def publish(self, build_dir: Path, generation: str, collect: bool = True) -> Path:
        """Rename a finished build into place and switch LIVE to it atomically; then (``collect``)
        remove the generations no longer kept."""
        final = self.generations_dir / generation
        os.replace(build_dir, final)
        tmp = self.home / f".LIVE.{os.getpid()}.tmp"
        tmp.write_text(generation + "\n")
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, self.home / "LIVE")
        if collect:
            self._collect_garbage(generation)
        return final

    def collect_after_publish(self, live: str) -> list[str]:
        """The clean-up ``publish(collect=False)`` left: the generations beyond the kept ones."""
        return self._collect_garbage(live)

    def _collect_garbage(self, live: str, keep: int = KEEP_GENERATIONS) -> list[str]:
        """Remove every generation but the newest ``keep`` and the live one; their names, oldest first.

        Carried shards are hard links, so removing an old generation frees only what no kept one shares.
        """
        gens = sorted(p for p in self.generations_dir.glob("g[0-9]*") if p.is_dir())
        removed: list[str] = []
        for p in gens[: max(len(gens) - keep, 0)]:
            if p.name != live:
                shutil.rmtree(p, ignore_errors=True)
                removed.append(p.name)
        return removed

    def collect_garbage(self, keep: int = KEEP_GENERATIONS) -> list[str]:
        """``fourfold gc``: drop abandoned builds and the generations beyond the live one and ``keep - 1``
        before it. Takes the build lock, so it never races a build; returns the removed generations."""
        if not self.generations_dir.is_dir():
            return []
        with self.build_lock():
            self.clean_abandoned_builds()
            live = self.live_generation()
            return self._collect_garbage(live or "", max(keep, 1))

    def unregister_repo(self, name: str) -> None:
        """Forget ``name`` (catalog row and file cache). The next build leaves it out."""
        self.repo(name)  # raises UnknownRepository, naming the registered ones
        with contextlib.closing(self.catalog()) as conn, conn:
            conn.execute("DELETE FROM repos WHERE name = ?", (name,))
            conn.execute("DELETE FROM file_cache WHERE repo = ?", (name,))

    def retire_live(self) -> None:
        """No repository is left: LIVE goes, so readers say there is no index (generations stay for gc)."""
        with contextlib.suppress(FileNotFoundError):
            (self.home / "LIVE").unlink()
        self._live = None


class GenerationReader:
    """Read access to one immutable generation: manifest, segments, centrality."""

    manifest: dict[str, Any]
    name: str

    def __init__(self, root: Path, *, building: bool = False) -> None:
        """``building=True`` reads a generation whose manifest is not written yet (shard builds)."""
        self.root = Path(root)
        self._local = threading.local()
        self._specs: tuple[ShardSpec, ...] | None = None
        single = self.root / "segments.sqlite"
        self._single_db = single if single.exists() else None
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

    def _single(self) -> Path | None:
        """The one ``segments.sqlite`` of a generation built before segments were kept per repository."""
        return self._single_db

    def segment_db(self, repo: str) -> Path:
        """Where ``repo``'s segments of this generation live (``segments/<repo>.sqlite``)."""
        return self.root / SEGMENTS_DIR / f"{repo}.sqlite"

    def _db(self, repo: str) -> SegmentDb | None:
        """A read-only view (per thread) of ``repo``'s segments, None if it has none here."""
        dbs: collections.OrderedDict[str, SegmentDb] | None = getattr(self._local, "conns", None)
        if dbs is None:
            dbs = self._local.conns = collections.OrderedDict()
        single = self._single()
        key = "" if single is not None else repo
        db = dbs.get(key)
        if db is not None:
            dbs.move_to_end(key)
            return db
        path = single if single is not None else self.segment_db(repo)
        if not path.exists():
            return None
        db = dbs[key] = open_segment_db(path, repo)
        while len(dbs) > OPEN_SEGMENT_DBS:  # a fleet has more repositories than a process has files to open
            dbs.popitem(last=False)[1].close()
        return db

    def segment_repos(self) -> list[str]:
        """Every repository with segments in this generation, sorted."""
        repos = self.manifest.get("repos")
        if repos:
            return sorted(repos)
        single = self._single()
        if single is not None:
            db = open_segment_db(single, "")
            try:
                return db.repos()
            finally:
                db.close()
        return sorted(p.name.removesuffix(".sqlite") for p in (self.root / SEGMENTS_DIR).glob("*.sqlite"))

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
                    tuple(s.get("dead", ())),  # absent in manifests written before compound shards
                    str(s.get("base", "")),  # absent in manifests written before delta shards
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
        """Segments of the given repositories (all when empty), or exactly the given repo\\0path files.

        Streamed one repository (one file) at a time: nothing here holds more than a file's rows.
        """
        files = list(files)
        if files:
            for key in files:
                repo, path = key.split("\0", 1)
                db = self._db(repo)
                if db is not None:
                    yield from db.file_segments(repo, path)
            return
        for repo in list(repos) or self.segment_repos():
            db = self._db(repo)
            if db is not None:
                yield from db.repo_segments(repo)

    def line_count(self, repo: str, path: str) -> tuple[int, bool] | None:
        """How many lines ``repo``'s file ``path`` has as indexed, its empty last lines too (which no segment covers),
        and whether its last line ends in a newline; None where the generation keeps no file text (format 1) or has
        no such file."""
        db = self._db(repo)
        return None if db is None else db.line_count(repo, path)

    def paths(self, repo: str) -> list[str]:
        """The paths of ``repo``'s files with segments in this generation, sorted."""
        db = self._db(repo)
        return [] if db is None else db.paths(repo)

    def unheld(self, repo: str) -> list[tuple[str, str, int]]:
        """(path, why, size in bytes) of ``repo``'s files this generation does not index (``binary``, ``too_large``,
        ``invalid_utf8``, ``unreadable``, ``symlink``), sorted; none where its build kept no such list."""
        db = self._db(repo)
        return [] if db is None else db.unheld(repo)

    def sizes(self, repo: str) -> dict[str, int]:
        """The size in bytes of each of ``repo``'s indexed files (by path); none where the generation keeps none."""
        db = self._db(repo)
        return {} if db is None else db.sizes(repo)

    def file_text(self, repo: str, path: str) -> str | None:
        """The text of ``repo``'s file ``path`` as indexed (its lines, newline-ended where the file's last is); None
        where the generation keeps no file text (format 1) or has no such file."""
        db = self._db(repo)
        return None if db is None else db.text(repo, path)

    def _lookup(
        self, ids: Iterable[str], repos: Iterable[str], fetch: Callable[[SegmentDb, list[str]], Iterator[tuple[str, T]]]
    ) -> Iterator[tuple[str, T]]:
        """``fetch``'s (id, value) of the segments with these ids, searched in ``repos`` (every one when empty)."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return
        wanted = set(ids)
        for repo in list(dict.fromkeys(repos)) or self.segment_repos():
            db = self._db(repo)
            if db is None:
                continue
            for sid, value in fetch(db, [i for i in ids if i in wanted]):
                wanted.discard(sid)
                yield sid, value
            if not wanted or self._single() is not None:
                return

    def centrality(self, ids: Iterable[str], repos: Iterable[str] = ()) -> dict[str, float]:
        """Segment id -> centrality; ``repos`` (the hits' repositories) narrows where to look."""
        return dict(self._lookup(ids, repos, lambda db, chunk: db.centrality(chunk)))

    def segment_rows(self, ids: Iterable[str], repos: Iterable[str] = ()) -> dict[str, Segment]:
        """Segment id -> segment; ``repos`` (the hits' repositories) narrows where to look."""
        return dict(self._lookup(ids, repos, lambda db, chunk: ((s.id, s) for s in db.rows(chunk))))

    def close(self) -> None:
        dbs: collections.OrderedDict[str, SegmentDb] | None = getattr(self._local, "conns", None)
        for db in (dbs or {}).values():
            db.close()
        self._local.conns = collections.OrderedDict()


def link_tree(src: Path, dst: Path) -> None:
    """Hard-link ``src`` (a file, or a folder's files recursively) at ``dst``: how an unchanged
    shard or segment database joins a new generation without being rewritten. Copies where a link
    is impossible (another file system). The linked files are immutable: nothing writes to them.

    Plain ``os`` calls on strings: a fleet update links thousands of files, and path objects
    cost more than the links."""
    source, target = os.fspath(src), os.fspath(dst)
    if os.path.isfile(source):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        _link(source, target)
        return
    _link_folder(source, target)


def _link_folder(source: str, target: str) -> None:
    os.makedirs(target, exist_ok=True)
    with os.scandir(source) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                _link_folder(entry.path, os.path.join(target, entry.name))
            else:
                _link(entry.path, os.path.join(target, entry.name))


def _link(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def segment_to_json(s: Segment) -> dict[str, Any]:
    return asdict(s)


# -- a repository's file list, by key --


def paths_key(files: Sequence[tuple[str, int]]) -> str:
    """A key of a repository's (path, size) list: equal keys, equal lists."""
    digest = hashlib.blake2b(digest_size=16)
    for path, size in sorted(files):
        digest.update(f"{path}\0{size}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()
