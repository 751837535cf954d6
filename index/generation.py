"""Build an index generation: walk → segment → plan shards → build every shard → centrality → switch.

The shard builds go through an executor so that the same code runs in-process (tests, a laptop)
and as Ray tasks spread over a cluster (``fourfold.workers.build.RayShardExecutor``). A build
task only needs the generation folder and a ``ShardJob``: it reads its segments from the
generation's ``segments.sqlite`` on the shared store.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from fourfold.api import IndexSummary
from fourfold.config import build_settings_from_env
from fourfold.errors import IndexStateError, InvalidInput
from fourfold.index import integrity
from fourfold.index.ingest.languages import detect_language
from fourfold.index.ingest.parallel import FileTask, ParallelSegmenter
from fourfold.index.ingest.segment import SEGMENTER_VERSION, content_hash
from fourfold.index.ingest.walk import DEFAULT_MAX_FILE_BYTES, SourceFile, read_source, walk_repository
from fourfold.index.progress import BUILDING_FILE, Progress, ProgressFile, shard_progress, tee, with_rates
from fourfold.index.shard_failure import FailedBuild, failed_build
from fourfold.index.store import GenerationReader, IndexStore, ShardSpec, create_segments_db, insert_segments
from fourfold.plugins.manager import get_registry
from fourfold.plugins.modality import BuildContext, BuildProgress, BuildStats, MapBatches
from fourfold.plugins.types import Segment

__all__ = [
    "SHARDINGS",
    "IndexSummary",
    "LocalShardExecutor",
    "ShardJob",
    "build_generation",
    "build_one_shard",
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
        if sharding_of(modality, job.settings) == "partitioned":
            segments = reader.segments()  # every segment; the shard keeps what its repositories need
        elif job.spec.files:
            segments = reader.segments(files=job.spec.files)
        else:
            segments = reader.segments(repos=job.spec.repos)
        shard_dir = build_dir / job.spec.folder
        shard_dir.mkdir(parents=True, exist_ok=True)
        ctx = BuildContext(
            generation=job.generation,
            shard=job.spec.shard,
            repos=job.spec.repos,
            previous_dir=Path(job.previous_dir) if job.previous_dir else None,
            settings=job.settings,
            map_batches=map_batches,
            progress=progress,
        )
        return modality.build(segments, shard_dir, ctx)
    finally:
        reader.close()


class LocalShardExecutor:
    """Builds shards one after another in this process; ``report`` hears each shard's progress."""

    def __init__(self, report: Progress | None = None) -> None:
        self.report = report

    def run(self, jobs: Sequence[ShardJob]) -> Iterator[tuple[ShardJob, BuildStats]]:
        for i, job in enumerate(jobs, start=1):
            label = f"shard {i}/{len(jobs)} {job.modality}/{job.spec.shard}"
            inside = shard_progress(self.report, f"build:{job.modality}", label) if self.report else None
            yield job, build_one_shard(job, progress=inside)


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


def _plan_shards(modality: str, sharding: str, repo_files: dict[str, list[tuple[str, int]]]) -> list[ShardSpec]:
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
) -> IndexSummary:
    """Register ``add`` (path, name) repositories, then build and publish a generation of all of them.

    ``modalities`` limits the generation to those modalities (all loaded ones by default);
    ``centrality=False`` skips the centrality hook (every segment then gets 0). Validates every
    input before touching the store; on any failure the live generation stays.
    """
    started = time.perf_counter()
    settings = {**build_settings_from_env(), **(settings or {})}
    # Embeddings are cached per store by the text embedded (plugins/semantic/cache.py): shared by
    # every repository and generation, kept by an interrupted build.
    settings.setdefault("semantic.cache_dir", str(Path(store.home) / "cache" / "embeddings"))
    # Progress goes to the caller (with rates and ETAs) and to the store's building.json (for `status`).
    building = ProgressFile(Path(store.home) / BUILDING_FILE)
    report = tee(with_rates(progress), building) if progress else building
    executor = executor or LocalShardExecutor(report)
    if progress is not None and getattr(executor, "report", True) is None:
        # an executor that can relay progress from inside its shards (RayShardExecutor) hears ours
        setattr(executor, "report", report)  # noqa: B010 - not every ShardExecutor has the attribute
    registry = get_registry()
    if modalities is not None:
        unknown = sorted(set(modalities) - set(registry.modalities))
        if unknown or not modalities:
            raise InvalidInput(
                f"unknown modalities {unknown or list(modalities)}; loaded: {', '.join(sorted(registry.modalities))}"
            )
    chosen = sorted(modalities if modalities is not None else registry.modalities)
    shardings = {name: sharding_of(registry.modalities[name], settings) for name in chosen}
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

    store.ensure()
    with store.build_lock(), contextlib.ExitStack() as cleanup:
        store.clean_abandoned_builds()
        for folder, name in additions:
            store.register_repo(name, folder)
        repos = store.repos()
        if not repos:
            raise InvalidInput("nothing to index: no repository is registered; pass a path: `fourfold index PATH`")
        generation = store.next_generation_name()
        build_dir = store.generations_dir / f".build-{generation}"
        build_dir.mkdir(parents=True)
        building.generation = generation
        cleanup.callback(building.close)
        previous = store.live_generation()
        previous_root = store.generations_dir / previous if previous else None
        summary = IndexSummary(generation=generation)
        all_segments: list[Segment] = []
        repo_files: dict[str, list[tuple[str, int]]] = {}
        repo_stats: dict[str, dict[str, Any]] = {}
        with (
            contextlib.closing(store.catalog()) as catalog,
            contextlib.closing(create_segments_db(build_dir / "segments.sqlite")) as segdb,
            ParallelSegmenter() as segmenter,
        ):
            for repo in repos:
                walked = walk_repository(Path(repo.path))
                summary.skipped.update(walked.skipped)
                files_in_repo: list[tuple[str, int]] = []
                n_segments = 0
                for path, size, language, segs, parse_errors, supported in _segmented_files(
                    repo.name, walked.files, catalog, segmenter, summary, report, max_file_bytes
                ):
                    if parse_errors:
                        summary.parse_errors += 1
                    if not supported and language not in _PLAIN_TEXT:
                        summary.unsupported_languages[language] += 1
                    insert_segments(segdb, segs)
                    all_segments.extend(segs)
                    files_in_repo.append((path, size))
                    n_segments += len(segs)
                    summary.files += 1
                    summary.bytes += size
                catalog.commit()
                repo_files[repo.name] = files_in_repo
                repo_stats[repo.name] = {"path": repo.path, "files": len(files_in_repo), "segments": n_segments}
            summary.segments = len(all_segments)

            if centrality:
                report("centrality", 0, 1, "computing centrality")
                values = registry.pm.hook.fourfold_compute_centrality(segments=all_segments) or {}
                segdb.executemany(
                    "UPDATE segments SET centrality = ? WHERE id = ?", ((float(v), k) for k, v in values.items())
                )
                report("centrality", 1, 1, f"centrality for {len(values)} segments")
            segdb.commit()
        del all_segments

        jobs: list[ShardJob] = []
        specs: list[ShardSpec] = []
        for name in chosen:
            for spec in _plan_shards(name, shardings[name], repo_files):
                prev_dir = (
                    previous_root / spec.folder if previous_root and (previous_root / spec.folder).is_dir() else None
                )
                # repo_path.<name>: the registered folder, for modalities that read more than segments (git history)
                job_settings = {**settings, **{f"repo_path.{r}": repo_stats[r]["path"] for r in spec.repos}}
                jobs.append(
                    ShardJob(name, spec, str(build_dir), str(prev_dir) if prev_dir else None, generation, job_settings)
                )
        built: dict[tuple[str, str], BuildStats] = {}
        for done, (job, stats) in enumerate(executor.run(jobs), start=1):
            built[(job.modality, job.spec.shard)] = stats
            outcome = f"FAILED: {stats.error}" if isinstance(stats, FailedBuild) else f"{stats.segments} segments"
            report(f"build:{job.modality}", done, len(jobs), f"{job.modality}/{job.spec.shard}: {outcome}")
        failed = {key: s for key, s in built.items() if isinstance(s, FailedBuild)}
        if jobs and len(failed) == len(jobs):
            raise IndexStateError(
                "every shard failed to build, the live generation stays: "
                + "; ".join(f"{m}/{sh}: {f.error}" for (m, sh), f in sorted(failed.items()))
            )
        summary.failed_shards = [f"{m}/{sh}: {f.error}" for (m, sh), f in sorted(failed.items())]
        for job in jobs:
            stats = built[(job.modality, job.spec.shard)]
            if isinstance(stats, FailedBuild):
                continue
            s = job.spec
            specs.append(ShardSpec(s.modality, s.shard, s.folder, s.repos, s.files, stats.segments))
        summary.shards = len(specs)
        summary.seconds = time.perf_counter() - started
        manifest = {
            "generation": generation,
            "created": time.time(),
            "previous": previous,
            "repos": repo_stats,
            "shards": [
                {
                    "modality": s.modality,
                    "shard": s.shard,
                    "folder": s.folder,
                    "repos": list(s.repos),
                    "files": list(s.files),
                    "segments": s.segments,
                }
                for s in specs
            ],
            "summary": summary.as_dict(),
            "failed_shards": [{"modality": m, "shard": sh, "error": f.error} for (m, sh), f in sorted(failed.items())],
            "settings": dict(settings or {}),
            "modalities": chosen,
            "integrity": integrity.record_shards(build_dir, (s.folder for s in specs)),
        }
        (build_dir / "manifest.json").write_text(json.dumps(manifest, indent=1))
        report("switch", 0, 1, f"switching to {generation}")
        store.publish(build_dir, generation)
        report("switch", 1, 1, f"{generation} is live")
        return summary


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
) -> Iterator[tuple[str, int, str, list[Segment], int, bool]]:
    """(path, size, language, segments, parse errors, supported) of each readable file of a repository, in order.

    A file whose content hash (with the segmenter's version) is in the catalog's file cache reuses
    its segments; the others are segmented in batches, over the segmenter's process pool when a
    batch is big, and written to the cache. Unreadable and skipped files are counted in ``summary``.
    """
    batch: list[tuple[str, bytes, str, str, list[Segment] | None, int, bool]] = []
    batch_bytes = 0

    def flush() -> Iterator[tuple[str, int, str, list[Segment], int, bool]]:
        fresh = segmenter.segment(
            [FileTask(repo, path, language, data) for path, data, _, language, cached, _, _ in batch if cached is None]
        )
        for path, data, fhash, language, cached, parse_errors, supported in batch:
            if cached is not None:
                summary.reused_files += 1
                yield path, len(data), language, cached, parse_errors, supported
                continue
            seg_file = next(fresh)
            segs = list(seg_file.segments)
            parse_errors, supported = seg_file.extraction.parse_errors, seg_file.extraction.supported
            catalog.execute(
                "INSERT OR REPLACE INTO file_cache VALUES (?, ?, ?, ?, ?, ?, ?)",
                (repo, path, fhash, language, parse_errors, int(supported), json.dumps([_seg_dict(s) for s in segs])),
            )
            yield path, len(data), language, segs, parse_errors, supported

    total = len(files)
    for i, f in enumerate(files):
        if i % 50 == 0 or i == total - 1:
            report("segment", i + 1, total, f"{repo}: {f.path}")
        data, reason = read_source(f, max_file_bytes)
        if data is None:
            summary.skipped[reason or "unknown"] += 1
            continue
        fhash = content_hash(data + SEGMENTER_VERSION.encode())
        language = detect_language(f.path, data[:128])
        row = catalog.execute(
            "SELECT file_hash, parse_errors, supported, segments FROM file_cache WHERE repo = ? AND path = ?",
            (repo, f.path),
        ).fetchone()
        if row and row[0] == fhash:
            batch.append(
                (f.path, data, fhash, language, [Segment(**d) for d in json.loads(row[3])], row[1], bool(row[2]))
            )
        else:
            batch.append((f.path, data, fhash, language, None, 0, True))
            batch_bytes += len(data)
        if len(batch) >= SEGMENT_BATCH_FILES or batch_bytes >= SEGMENT_BATCH_BYTES:
            yield from flush()
            batch.clear()
            batch_bytes = 0
    yield from flush()


_PLAIN_TEXT = {"text", "markdown", "rst", "json", "yaml", "toml", "xml", "html", "css", "scss"}


def _seg_dict(s: Segment) -> dict[str, Any]:
    return {f: getattr(s, f) for f in Segment.__slots__}
