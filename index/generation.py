"""Build an index generation: walk → segment → plan shards → build every shard → centrality → switch.

The shard builds go through an executor so that the same code runs in-process (tests, a laptop)
and as Ray tasks spread over a cluster (``fourfold.workers.build.RayShardExecutor``). A build
task only needs the generation folder and a ``ShardJob``: it reads its segments from the
generation's segment databases (``segments/<repo>.sqlite``) on the shared store.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib.metadata
import json
import shutil
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from fourfold.api import IndexProgress, IndexSummary
from fourfold.config import build_settings_from_env
from fourfold.errors import CorruptIndex, IndexStateError, InvalidInput
from fourfold.index import integrity
from fourfold.index.compound import (
    CompoundPolicy,
    RepoShardPlan,
    compound_policy,
    is_compound,
    plan_partitions,
    plan_repo_shards,
)
from fourfold.index.delta import (
    DELTA_DIR,
    RevisionDiff,
    base_of,
    build_delta,
    delta_spec,
    inherited_centrality,
    masks_paths,
    revision_diff,
)
from fourfold.index.filecache import decode_segments, encode_segments
from fourfold.index.ingest.languages import detect_language
from fourfold.index.ingest.parallel import FileTask, ParallelSegmenter
from fourfold.index.ingest.segment import content_hash, place_id, segmenter_version
from fourfold.index.ingest.walk import (
    DEFAULT_MAX_FILE_BYTES,
    SourceFile,
    WalkResult,
    read_source,
    source_size,
    walk_repository,
)
from fourfold.index.progress import (
    BUILDING_FILE,
    Progress,
    ProgressFile,
    StageClock,
    shard_progress,
    tee,
    with_rates,
)
from fourfold.index.segdb import SEGMENTS_FORMAT, SegmentWriter
from fourfold.index.shard_failure import FailedBuild, failed_build
from fourfold.index.store import (
    SEGMENTS_DIR,
    GenerationReader,
    IndexStore,
    ShardSpec,
    link_tree,
    paths_key,
)
from fourfold.plugins.manager import get_registry
from fourfold.plugins.modality import BuildContext, BuildProgress, BuildStats, MapBatches
from fourfold.plugins.types import Segment

__all__ = [
    "SHARDINGS",
    "IndexSummary",
    "LocalShardExecutor",
    "RepoOptions",
    "ShardJob",
    "build_generation",
    "build_one_shard",
    "shard_progress_of",
    "sharding_of",
]

#: A repository whose segment text exceeds this is split over several shards (by file).
MAX_SHARD_BYTES = 64 << 20


@dataclass(frozen=True, slots=True)
class ShardJob:
    modality: str
    spec: ShardSpec
    build_dir: str  # the generation folder being built
    previous_dir: str | None
    generation: str
    settings: dict[str, str]
    peers: tuple[str, ...] = ()  # a partition's build: every repository of the modality
    base_folder: str = ""  # a delta shard's build: the folder of its base's shard in this generation
    masked: tuple[str, ...] = ()  # a delta shard's build: the base's paths it hides
    peer_keys: tuple[str, ...] = ()  # a partition's build: each peer's paths_key ("" unknown), as ``peers``


@dataclass(frozen=True, slots=True)
class RepoOptions:
    """How one repository is built when it differs from the rest (from the fleet file)."""

    modalities: tuple[str, ...] = ()  # empty: every modality of the build
    settings: Mapping[str, str] = field(default_factory=dict)  # build settings for its shards (embedder)
    commit: str = ""  # the commit its files are from (a sync's checkout); recorded, not part of the key

    def key(self) -> str:
        """What its shards depend on besides its files (the commit is not: equal files, equal shards)."""
        return json.dumps([sorted(self.modalities), sorted(self.settings.items())])


class ShardExecutor(Protocol):
    def run(self, jobs: Sequence[ShardJob]) -> Iterator[tuple[ShardJob, BuildStats]]: ...


def build_one_shard(
    job: ShardJob, map_batches: MapBatches | None = None, progress: BuildProgress | None = None
) -> BuildStats:
    """Build one shard of one modality (runs in-process or inside a Ray task).

    ``map_batches`` is the host's way to spread the build's heavy batches (embedding) over the
    cluster; it is made where the build runs (a Ray task makes one that submits Ray tasks), so a
    ``ShardJob`` stays plain data. ``progress`` hears how far the shard is. A build that raises
    (anything but ``InvalidInput``) returns a ``FailedBuild`` and leaves no shard folder.
    """
    try:
        return _build_one_shard(job, map_batches, progress)
    except InvalidInput:
        raise
    except Exception as exc:  # noqa: BLE001 - a plugin's failure is reported, the generation goes on
        shutil.rmtree(Path(job.build_dir) / job.spec.folder, ignore_errors=True)
        return failed_build(exc)


def _build_one_shard(job: ShardJob, map_batches: MapBatches | None, progress: BuildProgress | None) -> BuildStats:
    build_dir = Path(job.build_dir)
    reader = GenerationReader(build_dir, building=True)  # the manifest is written after the shards
    try:
        modality = get_registry().modality(job.modality)
        partitioned = sharding_of(modality, job.settings) == "partitioned"
        incremental = partitioned and _incremental(modality)
        if partitioned and not incremental:
            segments = reader.segments()  # every segment; the shard keeps what its repositories need
        elif job.spec.files:
            segments = reader.segments(files=job.spec.files)
        else:
            segments = reader.segments(repos=job.spec.repos)
        shard_dir = build_dir / job.spec.folder
        previous_dir = Path(job.previous_dir) if job.previous_dir else None
        if job.spec.base:  # a revision's delta shard: its changed files here, its base's linked beside them
            if previous_dir is not None:
                previous_dir = previous_dir / DELTA_DIR if (previous_dir / DELTA_DIR).is_dir() else None
            ctx = _build_context(job, reader, map_batches, progress, previous_dir, incremental=False)
            return build_delta(
                build_dir,
                job.spec,
                job.base_folder,
                job.masked,
                segments,
                lambda segs, out: modality.build(segs, _made(out), ctx),
            )
        shard_dir.mkdir(parents=True, exist_ok=True)
        ctx = _build_context(job, reader, map_batches, progress, previous_dir, incremental)
        return modality.build(segments, shard_dir, ctx)
    finally:
        reader.close()


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _build_context(
    job: ShardJob,
    reader: GenerationReader,
    map_batches: MapBatches | None,
    progress: BuildProgress | None,
    previous_dir: Path | None,
    incremental: bool,
) -> BuildContext:
    """What a modality's build is told about its shard (``BuildContext``)."""
    return BuildContext(
        generation=job.generation,
        shard=job.spec.shard,
        repos=job.spec.repos,
        previous_dir=previous_dir,
        settings=job.settings,
        map_batches=map_batches,
        progress=progress,
        peers=job.peers,
        paths_keys={p: k for p, k in zip(job.peers, job.peer_keys, strict=False) if k},
        build_id=str(Path(job.build_dir).resolve()),
        paths_of=reader.paths if incremental else None,
        segments_of=(lambda repos: _only_of(reader, repos)) if incremental else None,
    )


def _only_of(reader: GenerationReader, repos: Sequence[str]) -> Iterator[Segment]:
    """The segments of exactly ``repos`` (``reader.segments`` reads every repository for none)."""
    return reader.segments(repos=repos) if repos else iter(())


class LocalShardExecutor:
    """Builds shards one after another in this process; ``report`` hears each shard's progress."""

    def __init__(self, report: Progress | None = None) -> None:
        self.report = report

    def run(self, jobs: Sequence[ShardJob]) -> Iterator[tuple[ShardJob, BuildStats]]:
        for i, job in enumerate(jobs, start=1):
            label = f"shard {i}/{len(jobs)} {job.modality}/{job.spec.shard}"
            inside = shard_progress_of(job, self.report, label) if self.report else None
            yield job, build_one_shard(job, progress=inside)


def shard_progress_of(job: ShardJob, report: Progress, label: str) -> BuildProgress:
    """The ``BuildContext.progress`` of ``job``'s build: its reports name the shard (and its repository)."""
    spec = job.spec
    repo = spec.repos[0] if len(spec.repos) == 1 else ""
    return shard_progress(report, f"build:{job.modality}", label, shard=f"{spec.modality}/{spec.shard}", repo=repo)


def _validate_name(name: str) -> str:
    if not name or len(name) > 100 or any(c in name for c in "/\\\0~") or name.startswith("."):
        raise InvalidInput(
            f"invalid repository name {name!r}: use 1-100 characters without '/', '\\\\', '~' or a leading '.'"
        )
    return name


#: How a modality's shards are laid out (see ``Modality``'s docstring).
SHARDINGS = ("repo", "global", "partitioned")


def sharding_of(modality: Any, settings: Mapping[str, str]) -> str:
    """The modality's sharding for this build: its own, or ``global`` when the build settings say
    ``<name>.sharding=global`` (one shard over everything, which every modality can build: the
    way to compare a partitioned modality with its single-shard self).
    """
    declared: str = modality.sharding
    wanted = settings.get(f"{modality.name}.sharding", "") or declared
    if wanted not in (declared, "global"):
        raise InvalidInput(
            f"build setting {modality.name}.sharding={wanted!r} is not possible: the {modality.name} "
            f"modality is sharded {declared!r}; use 'global' or {declared!r}"
        )
    return wanted


def _plan_shards(modality: str, sharding: str, repo_files: Mapping[str, list[tuple[str, int]]]) -> list[ShardSpec]:
    if sharding not in SHARDINGS:
        raise InvalidInput(f"modality {modality!r} declares sharding {sharding!r}; use one of {', '.join(SHARDINGS)}")
    if sharding == "global":
        return [ShardSpec(modality, "all", f"{modality}/all", tuple(sorted(repo_files)))]
    specs: list[ShardSpec] = []
    for repo in sorted(repo_files):
        files = repo_files[repo]
        total = sum(size for _, size in files)
        if sharding == "partitioned" or total <= MAX_SHARD_BYTES:  # a partition is never split by size
            specs.append(ShardSpec(modality, repo, f"{modality}/{repo}", (repo,)))
            continue
        part: list[str] = []
        part_bytes = 0
        parts: list[list[str]] = []
        for path, size in files:
            if part and part_bytes + size > MAX_SHARD_BYTES:
                parts.append(part)
                part, part_bytes = [], 0
            part.append(f"{repo}\0{path}")
            part_bytes += size
        if part:
            parts.append(part)
        for i, keys in enumerate(parts):
            specs.append(ShardSpec(modality, f"{repo}~{i}", f"{modality}/{repo}~{i}", (repo,), tuple(keys)))
    return specs


@dataclass(frozen=True, slots=True)
class _Previous:
    """The live generation this build may reuse from (``reader`` None when there is none or it is unreadable)."""

    name: str | None
    reader: GenerationReader | None
    carry: bool  # built under this build's carry key: its segment databases and shards may be linked
    repos: Mapping[str, dict[str, Any]]  # its manifest's repository records (whatever its carry key)


@dataclass(frozen=True, slots=True)
class _ScannedRepo:
    """One repository after the scan: its manifest record, its files, and whether its shards may carry."""

    record: dict[str, Any]
    files: list[tuple[str, int]] | None  # (path, size) of each file; None: carried, read when planning asks
    unchanged: bool  # its segments are those of the previous generation


class _FileLists(Mapping[str, list[tuple[str, int]]]):
    """Each repository's (path, size) list for shard planning. The lists of repositories carried
    without a walk are not held: they are read from their segment database when asked for (a
    planner asks for few), so a sync in a fleet of 1,000 holds the files of what changed only."""

    def __init__(self, known: dict[str, list[tuple[str, int]] | None], segments_dir: Path) -> None:
        self._known = known
        self._dir = segments_dir

    def __getitem__(self, repo: str) -> list[tuple[str, int]]:
        files = self._known[repo]
        return files if files is not None else _files_of(self._dir / f"{repo}.sqlite")

    def __iter__(self) -> Iterator[str]:
        return iter(self._known)

    def __len__(self) -> int:
        return len(self._known)

    def __contains__(self, repo: object) -> bool:
        return repo in self._known

    def subset(self, repos: Iterable[str]) -> _FileLists:
        """The same lists, for ``repos`` only (still read when asked for)."""
        return _FileLists({r: self._known[r] for r in repos}, self._dir)


def _files_of(db: Path) -> list[tuple[str, int]]:
    """The (path, size) list a segment database keeps, in path order."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return [(p, int(size)) for p, size in conn.execute("SELECT path, size FROM files ORDER BY path")]


@dataclass(frozen=True, slots=True)
class _RepoScan:
    """Every repository after the scan, handed to shard planning."""

    stats: dict[str, dict[str, Any]]  # the manifest's record of each repository, by name
    files: _FileLists  # (path, size) of each repository's files
    unchanged: frozenset[str]  # repositories whose segments are those of the previous generation
    sizes: dict[str, int] = field(default_factory=dict)  # bytes of each repository's files


@dataclass(frozen=True, slots=True)
class _ShardPlan:
    """One modality's shards: those linked from the previous generation as they are, and those to build."""

    carried: tuple[ShardSpec, ...]
    build: tuple[ShardSpec, ...]
    #: a delta shard to build (by shard name): its base's shard folder and the base paths it hides
    bases: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)


def build_generation(
    store: IndexStore,
    add: Iterable[tuple[Path, str | None]] = (),
    *,
    executor: ShardExecutor | None = None,
    progress: Progress | None = None,
    settings: dict[str, str] | None = None,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    modalities: Sequence[str] | None = None,
    centrality: bool = True,
    repo_options: Mapping[str, RepoOptions] | None = None,
) -> IndexSummary:
    """Register ``add`` (path, name) repositories, then build and publish a generation of all of them.

    ``modalities`` limits the generation to those modalities (all loaded ones by default);
    ``centrality=False`` skips the centrality hook (every segment then gets 0). ``repo_options``
    narrows a repository's modalities or sets its shards' build settings. Validates every input
    before touching the store; on any failure the live generation stays.

    Cost follows the change: a repository whose files (sizes, times, git HEAD) did not move since
    the live generation is carried without reading a file, its segment database and its shards
    hard-linked into the new generation; the others are segmented (files reused by content hash)
    and their shards rebuilt; a partitioned modality's partitions are rebuilt when the modality
    says a change touches them (the graph: a repository they import moved a node they point at).

    The steps, in order: validate the inputs (settings, modalities, additions), then under the
    store's build lock: scan the repositories (carry or segment each), plan the shards (carry or
    build), link the carried shards, build the others (a failed shard is left out, unless all
    fail), write the manifest, register the additions and publish.
    """
    started = time.perf_counter()
    settings = _effective_settings(store, settings)
    # Progress goes to the caller (with rates and ETAs) and to the store's building.json (for `status`).
    building = ProgressFile(Path(store.home) / BUILDING_FILE)
    clock = StageClock()
    report = tee(with_rates(progress), building, clock) if progress else tee(building, clock)
    executor = _with_progress(executor, report, relay=progress is not None)
    chosen, shardings = _chosen_modalities(modalities, settings)
    policy = compound_policy(settings)
    additions = _validated_additions(add)
    options: Mapping[str, RepoOptions] = repo_options or {}

    store.ensure()
    with store.build_lock(), contextlib.ExitStack() as cleanup:
        store.clean_abandoned_builds()
        sources = _sources(store, additions)
        generation = store.next_generation_name()
        build_dir = store.generations_dir / f".build-{generation}"
        build_dir.mkdir(parents=True)
        building.generation = generation
        cleanup.callback(building.close)
        (build_dir / SEGMENTS_DIR).mkdir()
        key = _carry_key(settings, shardings, max_file_bytes, centrality, segmenter_version(get_registry().extractor))
        prev = _previous(store, key)
        summary = IndexSummary(generation=generation)
        scan = _scan_repositories(
            store, sources, options, prev, build_dir, summary, report, max_file_bytes, centrality, settings
        )
        diff_of = _revision_differ(store, scan)
        plans = [
            (name, _plan_modality(name, shardings[name], scan, options, prev, build_dir, policy, diff_of))
            for name in chosen
        ]
        # a partition's build names every repository of its modality (its peers): listed once per modality
        peers = {n: _wanting(n, scan, options) if shardings[n] == "partitioned" else () for n in chosen}
        jobs = [
            _shard_job(name, spec, scan, options, prev, settings, build_dir, generation, peers[name], plan.bases)
            for name, plan in plans
            for spec in plan.build
        ]
        carried = [spec for _, plan in plans for spec in plan.carried]
        _link_carried(carried, prev, build_dir, report)
        # delta shards last: the shard of their base may be one of the others
        built = _run_jobs(executor, [j for j in jobs if not j.spec.base], report)
        if any(j.spec.base for j in jobs):
            built.update(_run_jobs(executor, [j for j in jobs if j.spec.base], report))
        failed = _failures(jobs, built)
        specs = sorted([*carried, *_built_specs(jobs, built)], key=lambda s: (s.modality, s.shard))
        if prev.reader is not None:
            prev.reader.close()
        summary.failed_shards = [f"{m}/{sh}: {f.error}" for (m, sh), f in sorted(failed.items())]
        summary.shards = len(specs)
        summary.carried_shards = len(carried)
        summary.changed_repos = sorted(set(scan.files) - scan.unchanged)
        summary.seconds = time.perf_counter() - started
        summary.stages = clock.table()
        manifest = _manifest(
            generation, prev, key, scan, specs, summary, failed, settings, chosen, centrality, build_dir, carried
        )
        (build_dir / "manifest.json").write_text(json.dumps(manifest, indent=1))
        _publish(store, build_dir, generation, additions, report, summary, started)
        summary.stages = clock.table()  # with the switch and the clean-up
        return summary


def _effective_settings(store: IndexStore, settings: Mapping[str, str] | None) -> dict[str, str]:
    """The build settings: the environment's, overridden by the caller's, with the store's embedding cache."""
    merged = {**build_settings_from_env(), **(settings or {})}
    # Embeddings are cached per store by the text embedded (plugins/semantic/cache.py): shared by
    # every repository and generation, kept by an interrupted build.
    merged.setdefault("semantic.cache_dir", str(Path(store.home) / "cache" / "embeddings"))
    # Parsed graph facts by file content, the same way: a rebuild parses only the files that changed
    merged.setdefault("graph.facts_cache", str(Path(store.home) / "cache" / "graph-facts.sqlite"))
    return merged


def _with_progress(executor: ShardExecutor | None, report: Progress, *, relay: bool) -> ShardExecutor:
    """The executor to build with: the caller's, or one in this process that reports each shard."""
    executor = executor or LocalShardExecutor(report)
    if relay and getattr(executor, "report", True) is None:
        # an executor that can relay progress from inside its shards (RayShardExecutor) hears ours
        setattr(executor, "report", report)  # noqa: B010 - not every ShardExecutor has the attribute
    return executor


def _chosen_modalities(
    modalities: Sequence[str] | None, settings: Mapping[str, str]
) -> tuple[list[str], dict[str, str]]:
    """The modalities to build (sorted, each once; all loaded ones by default) and the sharding of each.

    Raises ``InvalidInput`` for an unknown modality, an empty choice or an impossible sharding setting.
    """
    registry = get_registry()
    if modalities is not None:
        unknown = sorted(set(modalities) - set(registry.modalities))
        if unknown or not modalities:
            raise InvalidInput(
                f"unknown modalities {unknown or list(modalities)}; loaded: {', '.join(sorted(registry.modalities))}"
            )
    # a modality named twice (`--modality text --modality text`) is built once
    chosen = sorted(set(modalities) if modalities is not None else registry.modalities)
    return chosen, {name: sharding_of(registry.modalities[name], settings) for name in chosen}


def _validated_additions(add: Iterable[tuple[Path, str | None]]) -> list[tuple[Path, str]]:
    """(resolved folder, name) of each repository to register, checked before anything is written.

    A folder must be walkable and a name valid (the folder's name by default); two additions may
    not share a name.
    """
    additions: list[tuple[Path, str]] = []
    for given, name in add:
        folder = Path(given).expanduser()
        walk_repository(folder)  # raises InvalidPath before anything is written
        additions.append((folder.resolve(), _validate_name(name or folder.resolve().name)))
    names = [n for _, n in additions]
    if len(set(names)) != len(names):
        raise InvalidInput(
            f"two repositories would be registered under one name: {sorted(names)}; pass distinct --name values"
        )
    return additions


def _sources(store: IndexStore, additions: Sequence[tuple[Path, str]]) -> dict[str, Path]:
    """The folder of every repository of the new generation: the registered ones and the additions.

    Registration takes effect only with a completed build: the new repositories are built from
    here and written to the catalog just before the switch (an interrupted build leaves none behind).
    """
    sources = {r.name: Path(r.path) for r in store.repos()}
    sources.update({name: path for path, name in additions})
    if not sources:
        raise InvalidInput("nothing to index: no repository is registered; pass a path: `fourfold index PATH`")
    return sources


def _previous(store: IndexStore, key: str) -> _Previous:
    """The live generation, and whether it was built under ``key`` (only then is anything carried from it)."""
    name = store.live_generation()
    reader = _previous_reader(store, name)
    carry = reader is not None and reader.manifest.get("carry_key") == key
    repos: dict[str, dict[str, Any]] = dict(reader.manifest.get("repos", {})) if reader is not None else {}
    return _Previous(name, reader, carry, repos)


def _scan_repositories(
    store: IndexStore,
    sources: Mapping[str, Path],
    options: Mapping[str, RepoOptions],
    prev: _Previous,
    build_dir: Path,
    summary: IndexSummary,
    report: Progress,
    max_file_bytes: int,
    centrality: bool,
    settings: Mapping[str, str],
) -> _RepoScan:
    """Give every repository (in name order) its segment database in the new generation.

    Shares one file cache (the catalog) and one segmenter process pool across repositories.
    """
    stats: dict[str, dict[str, Any]] = {}
    files: dict[str, list[tuple[str, int]] | None] = {}
    unchanged: set[str] = set()
    with contextlib.closing(store.catalog()) as catalog, ParallelSegmenter() as segmenter:
        for name in sorted(sources):
            seg_path = build_dir / SEGMENTS_DIR / f"{name}.sqlite"
            repo = _scan_repo(
                name,
                sources[name],
                options.get(name, RepoOptions()),
                prev,
                seg_path,
                catalog,
                segmenter,
                summary,
                report,
                max_file_bytes,
                centrality,
                settings,
            )
            stats[name] = repo.record
            files[name] = repo.files
            if repo.unchanged:
                unchanged.add(name)
    sizes = {r: sum(s for _, s in fs) if fs is not None else int(stats[r].get("bytes", 0)) for r, fs in files.items()}
    return _RepoScan(stats, _FileLists(files, build_dir / SEGMENTS_DIR), frozenset(unchanged), sizes)


def _scan_repo(
    name: str,
    path: Path,
    options: RepoOptions,
    prev: _Previous,
    seg_path: Path,
    catalog: sqlite3.Connection,
    segmenter: ParallelSegmenter,
    summary: IndexSummary,
    report: Progress,
    max_file_bytes: int,
    centrality: bool,
    settings: Mapping[str, str] | None = None,
) -> _ScannedRepo:
    """Carry one repository from the previous generation, or segment it anew.

    It is carried (its segment database linked, no file read) when its stat key — file list,
    sizes, times, git HEAD and options — equals the previous generation's. Otherwise it is
    segmented; if its content then turns out equal (files touched, not changed), it still counts
    as unchanged, so its shards may carry.
    """
    before = prev.repos.get(name) if prev.carry else None
    if _pinned(name, path, options, prev, before):  # a sync's checkout at the commit indexed last time
        return _carry_repo(name, prev, seg_path, summary, report, before or {}, options, None)
    walked = walk_repository(path)
    summary.skipped.update(walked.skipped)
    stat_key, sizes = _stat_key(path, walked.files, max_file_bytes, options.key())
    if (
        prev.reader is not None
        and before is not None
        and before.get("stat_key") == stat_key
        and prev.reader.segment_db(name).is_file()
    ):
        # nothing under the repository moved: its segments (and centrality) carry over as they are
        return _carry_repo(name, prev, seg_path, summary, report, before, options, sizes)
    record = _segment_repo(
        name, path, walked, seg_path, catalog, segmenter, summary, report, max_file_bytes, centrality, settings
    )
    record["stat_key"] = stat_key
    record["content_key"] += options.key()
    record["commit"] = options.commit or record["head"]
    record["options_key"] = options.key()
    files = record.pop("_files")
    # touched but not changed: the shards carry over
    same = before is not None and before.get("content_key") == record["content_key"]
    return _ScannedRepo(record, files, unchanged=same)


def _carry_repo(
    name: str,
    prev: _Previous,
    seg_path: Path,
    summary: IndexSummary,
    report: Progress,
    before: dict[str, Any],
    options: RepoOptions,
    sizes: list[tuple[str, int]] | None,
) -> _ScannedRepo:
    """Link an unchanged repository's segment database into the new generation. Its files are not
    held (planning reads them from that database if it asks); ``sizes``, when a walk listed them,
    give a record written before ``paths_key`` its key."""
    assert prev.reader is not None
    link_tree(prev.reader.segment_db(name), seg_path)
    if "paths_key" not in before and sizes is not None:  # recorded before the key was
        before = {**before, "paths_key": paths_key(sizes)}
    n = int(before.get("files", 0))
    summary.files += n
    summary.bytes += int(before.get("bytes", 0))
    summary.segments += int(before.get("segments", 0))
    summary.reused_files += n
    report(IndexProgress("segment", n, n, f"{name}: unchanged", unit="files", repo=name))
    return _ScannedRepo({**before, "commit": options.commit or before.get("commit", "")}, None, unchanged=True)


def _pinned(name: str, path: Path, options: RepoOptions, prev: _Previous, before: dict[str, Any] | None) -> bool:
    """Whether a sync checked the repository out at the very commit, path and options of its
    previous build: its files are that commit's, so nothing is walked or stat-ed. Its segment
    database must be one that lists its files (recorded with a ``paths_key``; an older one is
    walked once)."""
    if not options.commit or prev.reader is None or before is None or not before.get("paths_key"):
        return False
    if (before.get("commit"), before.get("path"), before.get("options_key")) != (
        options.commit,
        str(path),
        options.key(),
    ):
        return False
    return prev.reader.segment_db(name).is_file()


def _plan_modality(
    name: str,
    sharding: str,
    scan: _RepoScan,
    options: Mapping[str, RepoOptions],
    prev: _Previous,
    build_dir: Path | None = None,
    policy: CompoundPolicy | None = None,
    diff_of: Callable[[str, str], RevisionDiff] | None = None,
) -> _ShardPlan:
    """Which of a modality's shards carry over from the previous generation and which are built.

    Only repositories that want the modality (``RepoOptions.modalities``) are in its shards. A
    per-repository shard carries when its repository is unchanged and the previous shard folders
    exist; small repositories share compound shards (``_plan_repo_sharded``). A shard over
    several repositories (global, partitioned) carries only if no repository changed, none was
    added or removed, and it covered exactly the same repositories.
    """
    reader = prev.reader
    prev_specs = (
        reader.shards(name) if reader is not None and prev.carry and name in reader.manifest["modalities"] else []
    )
    carried: list[ShardSpec] = []
    build: list[ShardSpec] = []
    wanting = scan.files.subset(_wanting(name, scan, options))
    modality = get_registry().modality(name)
    if sharding == "partitioned" and _incremental(modality) and build_dir is not None:
        packable = {r for r in wanting if not options.get(r, RepoOptions()).settings}
        return _plan_partitions(modality, scan, wanting, prev_specs, reader, build_dir, packable, policy)
    if sharding == "repo":
        return _plan_repo_sharded(name, wanting, scan, options, prev_specs, reader, policy or CompoundPolicy(), diff_of)
    if not wanting:
        pass
    elif (
        prev_specs
        and reader is not None
        and scan.unchanged == set(scan.files) == set(prev.repos)
        and {r for s in prev_specs for r in s.repos} == set(wanting)
        and all(reader.shard_dir(s).is_dir() for s in prev_specs)
    ):
        carried.extend(prev_specs)  # a shard over several repositories carries only if none changed
    else:
        build.extend(_plan_shards(name, sharding, wanting))
    return _ShardPlan(tuple(carried), tuple(build))


def _plan_repo_sharded(
    name: str,
    wanting: Mapping[str, list[tuple[str, int]]],
    scan: _RepoScan,
    options: Mapping[str, RepoOptions],
    prev_specs: Sequence[ShardSpec],
    reader: GenerationReader | None,
    policy: CompoundPolicy,
    diff_of: Callable[[str, str], RevisionDiff] | None = None,
) -> _ShardPlan:
    """A ``repo``-sharded modality's plan: small repositories packed into compound shards (carried
    with tombstones, compacted; see ``fourfold.index.compound``), the others one shard each (split
    by size), carried when unchanged; a changed revision ``NAME@REV`` whose base ``NAME`` has one
    whole shard gets a delta shard over it (``fourfold.index.delta``) when it shares most files."""

    def present(spec: ShardSpec) -> bool:
        return reader is not None and reader.shard_dir(spec).is_dir()

    def plan(skip: Collection[str]) -> tuple[RepoShardPlan, dict[str, ShardSpec]]:
        out = plan_repo_shards(
            name,
            {repo: scan.sizes[repo] for repo in wanting if repo not in skip},
            scan.unchanged,
            {repo for repo in wanting if not options.get(repo, RepoOptions()).settings},
            [s for s in prev_specs if not s.base],
            present,
            policy,
        )
        whole = {s.repos[0]: s for s in out.carried if len(s.repos) == 1 and not s.files and not is_compound(s)}
        for repo in out.singles:
            specs = _plan_shards(name, "repo", {repo: scan.files[repo]})
            whole.update({repo: specs[0]} if len(specs) == 1 and not specs[0].files else {})
        return out, whole

    carried_deltas = [s for s in prev_specs if s.base and s.repos[0] in wanting and s.repos[0] in scan.unchanged]
    carried_deltas = [s for s in carried_deltas if present(s)]
    skip = {s.repos[0] for s in carried_deltas}
    first, whole = plan(skip)
    deltas: dict[str, tuple[ShardSpec, str, tuple[str, ...]]] = {}
    if diff_of is not None and masks_paths(get_registry().modality(name)):
        for revision in sorted(set(wanting) - scan.unchanged - skip):
            base = base_of(revision)
            settings = options.get(revision, RepoOptions()).settings
            if base is None or base not in whole or dict(settings) != dict(options.get(base, RepoOptions()).settings):
                continue
            diff = diff_of(base, revision)
            if diff.shares_enough:
                deltas[revision] = (delta_spec(name, revision, base, diff), whole[base].folder, diff.masked)
    final, whole_after = (first, whole) if not deltas else plan(skip | set(deltas))
    if any(whole_after.get(str(base_of(r))) != whole.get(str(base_of(r))) for r in deltas):
        final, deltas = first, {}  # packing moved a base (not seen in practice): build them whole
    build = list(final.compounds)
    for repo in final.singles:
        build.extend(_plan_shards(name, "repo", {repo: scan.files[repo]}))
    build.extend(spec for spec, _, _ in deltas.values())
    bases = {spec.shard: (folder, masked) for spec, folder, masked in deltas.values()}
    return _ShardPlan((*final.carried, *carried_deltas), tuple(build), bases)


def _incremental(modality: Any) -> bool:
    """Whether a partitioned modality rebuilds only the partitions a change touches (see ``Modality``)."""
    return callable(getattr(modality, "stale_partitions", None))


def _plan_partitions(
    modality: Any,
    scan: _RepoScan,
    wanting: Mapping[str, list[tuple[str, int]]],
    prev_specs: Sequence[ShardSpec],
    reader: GenerationReader | None,
    build_dir: Path,
    packable: Collection[str],
    policy: CompoundPolicy | None,
) -> _ShardPlan:
    """An incremental partitioned modality's plan: a partition carries unless one of its
    repositories changed or the modality says a change elsewhere makes it stale (the graph: it
    imports a changed repository); small repositories share packed partitions."""
    present = {s.shard: reader.shard_dir(s) for s in prev_specs} if reader is not None else {}
    present = {k: d for k, d in present.items() if d.is_dir()}
    before = {r for s in prev_specs for r in s.repos}
    changed = frozenset((set(wanting) - scan.unchanged) | (before - set(wanting)))
    paths = {r: [p for p, _ in wanting[r]] for r in changed if r in wanting}
    stale: frozenset[str] = frozenset()
    if changed and present:
        building = GenerationReader(build_dir, building=True)  # the changed repositories' new segments
        try:
            stale = modality.stale_partitions(changed, present, paths, lambda repos: _only_of(building, repos))
        finally:
            building.close()
    plan = plan_partitions(
        modality.name,
        {repo: scan.sizes[repo] for repo in wanting},
        scan.unchanged,
        stale,
        packable,
        prev_specs,
        lambda spec: spec.shard in present,
        policy or CompoundPolicy(),
    )
    build = [*plan.compounds, *(ShardSpec(modality.name, r, f"{modality.name}/{r}", (r,)) for r in plan.singles)]
    return _ShardPlan(plan.carried, tuple(build))


def _shard_job(
    modality: str,
    spec: ShardSpec,
    scan: _RepoScan,
    options: Mapping[str, RepoOptions],
    prev: _Previous,
    settings: Mapping[str, str],
    build_dir: Path,
    generation: str,
    peers: tuple[str, ...] = (),
    bases: Mapping[str, tuple[str, tuple[str, ...]]] | None = None,
) -> ShardJob:
    """The job that builds one planned shard: its settings, the previous shard's folder if there
    is one, and for a partition every repository of the modality (its peers)."""
    prev_dir = prev.reader.shard_dir(spec) if prev.reader is not None else None
    # repo_path.<name>: the registered folder, for modalities that read more than segments (git history)
    job_settings = {**settings, **{f"repo_path.{r}": scan.stats[r]["path"] for r in spec.repos}}
    if len(spec.repos) == 1 and spec.repos[0] in options:
        job_settings.update(options[spec.repos[0]].settings)
    return ShardJob(
        modality,
        spec,
        str(build_dir),
        str(prev_dir) if prev_dir is not None and prev_dir.is_dir() else None,
        generation,
        job_settings,
        peers,
        *((bases or {}).get(spec.shard, ("", ())) if spec.base else ("", ())),
        peer_keys=tuple(str(scan.stats[p].get("paths_key", "")) for p in peers),
    )


def _revision_differ(store: IndexStore, scan: _RepoScan) -> Callable[[str, str], RevisionDiff]:
    """How a revision's files differ from its base's, from the file cache (asked once per pair)."""
    known: dict[tuple[str, str], RevisionDiff] = {}

    def diff_of(base: str, revision: str) -> RevisionDiff:
        if (base, revision) not in known:
            with contextlib.closing(store.catalog()) as catalog:
                known[base, revision] = revision_diff(
                    catalog, base, [p for p, _ in scan.files[base]], revision, [p for p, _ in scan.files[revision]]
                )
        return known[base, revision]

    return diff_of


def _wanting(modality: str, scan: _RepoScan, options: Mapping[str, RepoOptions]) -> tuple[str, ...]:
    """The repositories of the build that want ``modality`` (``RepoOptions.modalities``)."""
    return tuple(sorted(r for r in scan.files if modality in (options.get(r, RepoOptions()).modalities or (modality,))))


def _link_carried(carried: Sequence[ShardSpec], prev: _Previous, build_dir: Path, report: Progress) -> None:
    """Hard-link the carried shards' folders from the previous generation into the new one."""
    for spec in carried:
        assert prev.reader is not None
        link_tree(prev.reader.shard_dir(spec), build_dir / spec.folder)
    if carried:
        n = len(carried)
        report(IndexProgress("carry", n, n, f"{n} shards carried over unchanged", unit="shards"))


def _run_jobs(executor: ShardExecutor, jobs: Sequence[ShardJob], report: Progress) -> dict[tuple[str, str], BuildStats]:
    """Build every job's shard through the executor: (modality, shard) → its stats or ``FailedBuild``.

    Each ``build:<modality>`` stage counts that modality's shards (shards finish in any order)."""
    built: dict[tuple[str, str], BuildStats] = {}
    total = Counter(job.modality for job in jobs)
    done: Counter[str] = Counter()
    for job, stats in executor.run(jobs):
        built[(job.modality, job.spec.shard)] = stats
        done[job.modality] += 1
        outcome = f"FAILED: {stats.error}" if isinstance(stats, FailedBuild) else f"{stats.segments} segments"
        message = f"{job.modality}/{job.spec.shard}: {outcome}"
        report(IndexProgress(f"build:{job.modality}", done[job.modality], total[job.modality], message, unit="shards"))
    return built


def _failures(
    jobs: Sequence[ShardJob], built: Mapping[tuple[str, str], BuildStats]
) -> dict[tuple[str, str], FailedBuild]:
    """The shards that failed to build, which the generation leaves out.

    Raises ``IndexStateError`` when every one failed: such a generation would serve nothing new,
    so the live one stays.
    """
    failed = {key: s for key, s in built.items() if isinstance(s, FailedBuild)}
    if jobs and len(failed) == len(jobs):
        raise IndexStateError(
            "every shard failed to build, the live generation stays: "
            + "; ".join(f"{m}/{sh}: {f.error}" for (m, sh), f in sorted(failed.items()))
        )
    return failed


def _built_specs(jobs: Sequence[ShardJob], built: Mapping[tuple[str, str], BuildStats]) -> list[ShardSpec]:
    """The specs of the shards built, in job order, with their segment counts; failed ones left out."""
    specs: list[ShardSpec] = []
    for job in jobs:
        stats = built[(job.modality, job.spec.shard)]
        if isinstance(stats, FailedBuild):
            continue
        specs.append(dataclasses.replace(job.spec, segments=stats.segments))
    return specs


def _manifest(
    generation: str,
    prev: _Previous,
    key: str,
    scan: _RepoScan,
    specs: Sequence[ShardSpec],
    summary: IndexSummary,
    failed: Mapping[tuple[str, str], FailedBuild],
    settings: Mapping[str, str],
    chosen: Sequence[str],
    centrality: bool,
    build_dir: Path,
    carried: Sequence[ShardSpec],
) -> dict[str, Any]:
    """The new generation's manifest: its repositories, shards, summary, failures, settings and integrity."""
    return {
        "generation": generation,
        "created": time.time(),
        "previous": prev.name,
        "carry_key": key,
        "segments_format": SEGMENTS_FORMAT,
        "repos": scan.stats,
        "shards": [
            {
                "modality": s.modality,
                "shard": s.shard,
                "folder": s.folder,
                "repos": list(s.repos),
                "files": list(s.files),
                "segments": s.segments,
                **({"dead": list(s.dead)} if s.dead else {}),
                **({"base": s.base} if s.base else {}),
            }
            for s in specs
        ],
        "summary": summary.as_dict(),
        "failed_shards": [{"modality": m, "shard": sh, "error": f.error} for (m, sh), f in sorted(failed.items())],
        "settings": dict(settings or {}),
        "modalities": chosen,
        "centrality": centrality,
        "integrity": _integrity(build_dir, specs, carried, prev.reader),
    }


def _publish(
    store: IndexStore,
    build_dir: Path,
    generation: str,
    additions: Sequence[tuple[Path, str]],
    report: Progress,
    summary: IndexSummary,
    started: float,
) -> None:
    """Register the added repositories, then switch the store to the new generation."""
    for path, name in additions:
        store.register_repo(name, path)
    report(IndexProgress("switch", 0, 1, f"switching to {generation}", unit="steps"))
    store.publish(build_dir, generation, collect=False)
    report(IndexProgress("switch", 1, 1, f"{generation} is live", unit="steps"))
    summary.live_seconds = time.perf_counter() - started
    store.collect_after_publish(generation)  # after the switch: the answers do not wait for the clean-up


def _integrity(
    build_dir: Path, specs: Sequence[ShardSpec], carried: Sequence[ShardSpec], prev: GenerationReader | None
) -> dict[str, Any]:
    """The manifest's integrity records: a carried shard keeps the previous generation's (its files are
    the same, linked), so only rebuilt shards are read and checksummed."""
    kept: dict[str, Any] = {}
    if prev is not None:
        carried_folders = {s.folder for s in carried}
        for folder in carried_folders:
            files = integrity.expected_files(prev.manifest, folder)
            if files is not None:
                kept[folder] = {name: [size, digest] for name, (size, digest) in files.items()}
    entry = integrity.record_shards(build_dir, (s.folder for s in specs if s.folder not in kept))
    entry["shards"].update(kept)
    entry["shards"] = dict(sorted(entry["shards"].items()))
    return entry


def _previous_reader(store: IndexStore, previous: str | None) -> GenerationReader | None:
    """The live generation to carry from, None when there is none or it cannot be read."""
    if previous is None:
        return None
    try:
        return store.reader(previous)
    except CorruptIndex:
        return None


def _carry_key(
    settings: Mapping[str, str], shardings: Mapping[str, str], max_file_bytes: int, centrality: bool, segmenter: str
) -> str:
    """What a shard's content depends on besides its repository's files: carried only when equal.

    fourfold's version, every loaded plugin's version, each modality's ``build_version`` (see
    :class:`~fourfold.plugins.modality.Modality`), the segmenter, the build settings."""
    try:
        version = importlib.metadata.version("fourfold")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    registry = get_registry()
    state = {
        "version": version,
        "plugins": sorted(registry.plugin_versions().items()),
        # a modality's own build_version: a plugin that changes what its shards hold says so there
        "builds": sorted((name, str(getattr(m, "build_version", ""))) for name, m in registry.modalities.items()),
        "segmenter": segmenter,
        "segments_format": SEGMENTS_FORMAT,  # an older generation's segment databases are rewritten, not linked
        "settings": sorted(settings.items()),
        "shardings": sorted(shardings.items()),
        "max_file_bytes": max_file_bytes,
        "centrality": centrality,
    }
    return hashlib.blake2b(json.dumps(state, sort_keys=True).encode(), digest_size=12).hexdigest()


def _stat_key(
    root: Path, files: Sequence[SourceFile], max_file_bytes: int, options: str
) -> tuple[str, list[tuple[str, int]]]:
    """A digest of the repository's file list with sizes and modification times, and its git HEAD.

    Equal keys mean nothing was added, removed or written since the last build, so the repository
    is carried without reading a file. Also returns (path, size) of every file, for shard planning.
    """
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{root}\0{_git_head(root)}\0{options}\n".encode())
    sizes: list[tuple[str, int]] = []
    for f in files:
        try:
            st = f.abspath.stat()
        except OSError:
            digest.update(f"{f.path}\0missing\n".encode())
            continue
        digest.update(f"{f.path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode())
        sizes.append((f.path, min(st.st_size, max_file_bytes)))
    return digest.hexdigest(), sizes


def _git_head(root: Path) -> str:
    """The commit a git work tree is at ("" when it is not one): history modalities read it."""
    git = root / ".git"
    try:
        head = (git / "HEAD").read_text().strip()
    except OSError:
        return ""
    if not head.startswith("ref: "):
        return head
    ref = head[5:]
    try:
        return (git / ref).read_text().strip()
    except OSError:
        pass
    try:
        for line in (git / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split(" ", 1)[0]
    except OSError:
        pass
    return head


def _segment_repo(
    name: str,
    path: Path,
    walked: WalkResult,
    seg_path: Path,
    catalog: sqlite3.Connection,
    segmenter: ParallelSegmenter,
    summary: IndexSummary,
    report: Progress,
    max_file_bytes: int,
    centrality: bool,
    settings: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Segment one repository into its own ``segments/<name>.sqlite`` with its centrality.

    Holds one repository's segments at a time (for the centrality hook), never the store's.
    Returns the repository's manifest record, with its (path, size) list under ``_files``. The files ``walked``
    lists that are not indexed (left out by the walk, and those not read: binary, too large, not UTF-8) are named
    in the database with why (``SegmentWriter.set_unheld``).
    """
    files = walked.files
    files_in_repo: list[tuple[str, int]] = []
    repo_segments: list[Segment] = []
    unheld = list(walked.left_out)
    n_bytes = 0
    writer, base_hashes = _segment_writer(name, seg_path, catalog)
    try:
        for rel, data, language, segs, parse_errors, supported, fhash in _segmented_files(
            name, files, catalog, segmenter, summary, report, max_file_bytes, unheld
        ):
            if parse_errors:
                summary.parse_errors += 1
            if not supported and language not in _PLAIN_TEXT:
                summary.unsupported_languages[language] += 1
            if not (base_hashes.get(rel) == fhash and writer.keep(rel, len(data))):
                writer.add_file(rel, len(data), language, data, segs)
            repo_segments.extend(segs)
            files_in_repo.append((rel, len(data)))
            n_bytes += len(data)
        key = paths_key(files_in_repo)
        catalog.commit()
        summary.files += len(files_in_repo)
        summary.bytes += n_bytes
        summary.segments += len(repo_segments)
        if centrality and repo_segments:
            report(IndexProgress("centrality", 0, 1, f"{name}: centrality", unit="repositories", repo=name))
            values = _revision_centrality(name, seg_path, catalog, repo_segments, files_in_repo)
            if values is None:
                hook = get_registry().pm.hook.fourfold_compute_centrality
                values = hook(segments=repo_segments, settings=dict(settings or {})) or {}
            writer.set_centrality(values)
            message = f"{name}: centrality for {len(values)} segments"
            report(IndexProgress("centrality", 1, 1, message, unit="repositories", repo=name))
        writer.set_unheld(unheld)
        writer.finish()
    except BaseException:
        writer.conn.close()
        raise
    digest = hashlib.blake2b(digest_size=16)
    for seg_id, seg_hash in sorted((s.id, s.content_hash) for s in repo_segments):
        digest.update(f"{seg_id}\0{seg_hash}\n".encode())
    return {
        "path": str(path),
        "files": len(files_in_repo),
        "segments": len(repo_segments),
        "bytes": n_bytes,
        "content_key": digest.hexdigest(),
        "paths_key": key,
        "head": _git_head(path),
        "unheld": len(unheld),  # its files not indexed, named in its segment database
        "_files": files_in_repo,
    }


def _segment_writer(name: str, seg_path: Path, catalog: sqlite3.Connection) -> tuple[SegmentWriter, dict[str, str]]:
    """The writer of ``name``'s segment database, and the file hashes of the base it starts from.

    A revision ``NAME@REV`` whose base was scanned first in this build (names sort so) starts from
    the base's database (``SegmentWriter.over``): the files whose bytes the base holds (by the file
    cache's hashes, as delta shards are planned) are kept as they are, the others written.
    """
    base, base_db = _base_db(name, seg_path)
    if base_db is not None:
        try:
            writer = SegmentWriter.over(base_db, seg_path, name)
        except (OSError, ValueError, sqlite3.Error):
            pass  # a base of an older format, or unreadable: written whole
        else:
            rows = catalog.execute("SELECT path, file_hash FROM file_cache WHERE repo = ?", (base,))
            return writer, {str(p): str(h) for p, h in rows}
    return SegmentWriter(seg_path, name), {}


def _base_db(name: str, seg_path: Path) -> tuple[str, Path | None]:
    """A revision's base and its segment database in this build (``NAME@REV``: ``NAME``, scanned
    before it since names sort so); no database for a default branch or a base not in the build."""
    base = base_of(name) or ""
    db = seg_path.parent / f"{base}.sqlite"
    return base, db if base and db.is_file() else None


def _revision_centrality(
    name: str,
    seg_path: Path,
    catalog: sqlite3.Connection,
    segments: Sequence[Segment],
    files: Sequence[tuple[str, int]],
) -> dict[str, float] | None:
    """A revision's centrality inherited from its base in this build (``NAME@REV`` from ``NAME``,
    segmented just before it: names sort so) when it shares most files; None: compute it."""
    base, base_db = _base_db(name, seg_path)
    if base_db is None:
        return None
    diff = revision_diff(catalog, base, [p for p, _ in _files_of(base_db)], name, [p for p, _ in files])
    return inherited_centrality(base_db, segments, diff.changed) if diff.shares_enough else None


#: Files read (and looked up in the file cache) before the cache misses among them are segmented together.
SEGMENT_BATCH_FILES = 512
SEGMENT_BATCH_BYTES = 32 << 20


def _segmented_files(
    repo: str,
    files: Sequence[SourceFile],
    catalog: sqlite3.Connection,
    segmenter: ParallelSegmenter,
    summary: IndexSummary,
    report: Progress,
    max_file_bytes: int,
    unread: list[tuple[str, str, int]] | None = None,
) -> Iterator[tuple[str, bytes, str, list[Segment], int, bool, str]]:
    """(path, bytes, language, segments, parse errors, supported, file hash) of each readable file of a
    repository, in order.

    A file whose content hash (with the segmenter's version) is in the catalog's file cache reuses
    its segments; the others are segmented in batches, over the segmenter's process pool when a
    batch is big, and written to the cache. Unreadable and skipped files are counted in ``summary``,
    and each added to ``unread`` with why (``binary``, ``too_large``, …).
    """
    batch: list[tuple[str, bytes, str, str, list[Segment] | None, int, bool]] = []
    batch_bytes = 0

    def flush() -> Iterator[tuple[str, bytes, str, list[Segment], int, bool, str]]:
        fresh = segmenter.segment(
            [FileTask(repo, path, language, data) for path, data, _, language, cached, _, _ in batch if cached is None]
        )
        for path, data, fhash, language, cached, parse_errors, supported in batch:
            if cached is not None:
                summary.reused_files += 1
                yield path, data, language, cached, parse_errors, supported, fhash
                continue
            seg_file = next(fresh)
            segs = list(seg_file.segments)
            parse_errors, supported = seg_file.extraction.parse_errors, seg_file.extraction.supported
            catalog.execute(
                "INSERT OR REPLACE INTO file_cache VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    repo,
                    path,
                    fhash,
                    language,
                    parse_errors,
                    int(supported),
                    encode_segments(segs, repo, path, language, data),
                ),
            )
            yield path, data, language, segs, parse_errors, supported, fhash

    total = len(files)
    for i, f in enumerate(files):
        if i % 50 == 0 or i == total - 1:
            report(IndexProgress("segment", i + 1, total, f"{repo}: {f.path}", unit="files", repo=repo))
        data, reason = read_source(f, max_file_bytes)
        if data is None:
            summary.skipped[reason or "unknown"] += 1
            if unread is not None:
                unread.append((f.path, reason or "unknown", source_size(f)))
            continue
        fhash = content_hash(data + segmenter.version.encode())
        language = detect_language(f.path, data)  # it reads the head it needs (a .h file's first 64 KiB)
        row = catalog.execute(
            "SELECT file_hash, parse_errors, supported, segments, language FROM file_cache WHERE repo = ? AND path = ?",
            (repo, f.path),
        ).fetchone()
        if row and row[0] == fhash and row[4] == language:  # (a header read as C before is C++ now)
            cached = [Segment(**d) for d in decode_segments(row[3], repo, f.path, row[4], data)]
            batch.append((f.path, data, fhash, language, cached, row[1], bool(row[2])))
        elif (other := _same_content(catalog, fhash, language, f.path)) is not None:
            # the same bytes were segmented under another repository, revision or path: reuse, re-stamped
            errors, supported, payload, other_repo, other_path = other
            segs, value = _reused(payload, other_repo, other_path, repo, f.path, language, data)
            catalog.execute(
                "INSERT OR REPLACE INTO file_cache VALUES (?, ?, ?, ?, ?, ?, ?)",
                (repo, f.path, fhash, language, errors, supported, value),
            )
            batch.append((f.path, data, fhash, language, segs, errors, bool(supported)))
        else:
            batch.append((f.path, data, fhash, language, None, 0, True))
            batch_bytes += len(data)
        if len(batch) >= SEGMENT_BATCH_FILES or batch_bytes >= SEGMENT_BATCH_BYTES:
            yield from flush()
            batch.clear()
            batch_bytes = 0
    yield from flush()


_PLAIN_TEXT = {"text", "markdown", "rst", "json", "yaml", "toml", "xml", "html", "css", "scss"}


def _same_content(
    catalog: sqlite3.Connection, fhash: str, language: str, path: str
) -> tuple[int, int, bytes | str, str, str] | None:
    """(parse errors, supported, cached segments, repository, path) of a file with these bytes
    segmented anywhere before, at the same ``path`` if there is one (a revision's base, a fork)."""
    row = catalog.execute(
        "SELECT parse_errors, supported, segments, repo, path FROM file_cache WHERE file_hash = ? AND language = ?"
        " ORDER BY path = ? DESC LIMIT 1",
        (fhash, language, path),
    ).fetchone()
    return None if row is None else (int(row[0]), int(row[1]), row[2], str(row[3]), str(row[4]))


def _reused(
    payload: bytes | str, other_repo: str, other_path: str, repo: str, path: str, language: str, data: bytes
) -> tuple[list[Segment], bytes | str]:
    """The segments of a file whose bytes were cached at ``other_repo``/``other_path``, re-stamped
    for ``repo``/``path``, and their cache value. At the same path the cached value usually names
    no repository (ids that follow from the place are left out): read for ``repo`` it gives the
    re-stamped segments as they are, and serves as their cache value unchanged."""
    if other_path == path and not isinstance(payload, str):
        segs = [Segment(**d) for d in decode_segments(payload, repo, path, language, data)]
        ids = {s.id for s in segs}
        if all(
            s.repo == repo
            and s.id == place_id(repo, path, s.start_line, s.end_line, s.qualified_name, s.symbol)
            and (s.parent_id is None or s.parent_id in ids)
            for s in segs
        ):
            return segs, payload
    segs = _restamp(decode_segments(payload, other_repo, other_path, language, data), repo, path)
    return segs, encode_segments(segs, repo, path, language, data)


def _restamp(rows: list[dict[str, Any]], repo: str, path: str) -> list[Segment]:
    """Segments of an identical file moved to ``repo``/``path``: the ids (which name the place) made anew."""
    ids = {
        d["id"]: place_id(repo, path, d["start_line"], d["end_line"], d.get("qualified_name"), d.get("symbol"))
        for d in rows
    }
    return [
        Segment(**{**d, "id": ids[d["id"]], "repo": repo, "path": path, "parent_id": ids.get(d.get("parent_id") or "")})
        for d in rows
    ]
