"""Segment many files at once: a process pool over the CPUs for big batches, in-process for small ones.

Parsing is CPU-bound and tree-sitter holds the GIL, so threads do not help; worker processes do.
A batch is cut into chunks of files (``CHUNK_FILES`` files or ``CHUNK_BYTES`` bytes) so that one
round trip carries many files and the cost of pickling stays small against the parsing. Results
come back in the order the files were given, and a pool's answer is the same as
:func:`fourfold.index.ingest.segment.segment_file` in this process (the tests hold that).

The pool starts lazily on the first batch worth it and uses ``forkserver``: ingestion may run
inside a process with gRPC or Ray threads, which a plain ``fork`` must not copy.

The definition extractor is chosen once, in this process, through the plugin registry; the workers
get its :class:`~fourfold.plugins.extractor.ExtractorSpec` with every chunk and import only the
function it names, never the registry (which would load every modality in every worker).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from types import TracebackType

from fourfold.index.ingest.segment import (
    SegmentedFile,
    current_extractor,
    extract_definitions,
    segment_file,
    segmenter_version,
)
from fourfold.plugins.extractor import ExtractorSpec

__all__ = [
    "CHUNK_BYTES",
    "CHUNK_FILES",
    "MIN_PARALLEL_BYTES",
    "MIN_PARALLEL_FILES",
    "FileTask",
    "ParallelSegmenter",
    "available_cpus",
]

log = logging.getLogger(__name__)

#: A batch smaller than both of these is segmented in this process (a pool would cost more than it saves).
MIN_PARALLEL_FILES = 64
MIN_PARALLEL_BYTES = 1 << 20
#: Most files and bytes one worker round trip carries.
CHUNK_FILES = 32
CHUNK_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class FileTask:
    """One file to segment: the arguments of :func:`segment_file`."""

    repo: str
    path: str
    language: str
    source: bytes


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # platforms without affinity
        return os.cpu_count() or 1


def _segment_one(task: FileTask, extractor: ExtractorSpec | None) -> SegmentedFile:
    extraction = extract_definitions(task.source, task.language, extractor)
    return segment_file(task.repo, task.path, task.language, task.source, extraction)


def _segment_chunk(tasks: Sequence[FileTask], extractor: ExtractorSpec | None) -> list[SegmentedFile]:
    """Worker side: segment one chunk of files with ``extractor`` (imported here by its reference)."""
    return [_segment_one(t, extractor) for t in tasks]


def _chunks(tasks: Sequence[FileTask]) -> Iterator[Sequence[FileTask]]:
    """Consecutive runs of at most ``CHUNK_FILES`` files and (past the first file) ``CHUNK_BYTES`` bytes."""
    start, size = 0, 0
    for i, task in enumerate(tasks):
        if i > start and (i - start >= CHUNK_FILES or size + len(task.source) > CHUNK_BYTES):
            yield tasks[start:i]
            start, size = i, 0
        size += len(task.source)
    if start < len(tasks):
        yield tasks[start:]


class _Default:
    """The type of ``_DEFAULT``: "the registry's extractor", which None (no extractor) cannot say."""


_DEFAULT = _Default()


class ParallelSegmenter:
    """Segments batches of files, over a process pool when a batch is big enough.

    ``max_workers`` defaults to the available CPUs; 1 keeps everything in this process.
    ``min_files``/``min_bytes``: a batch below both is segmented in-process. ``extractor``: the
    definition extractor, by default the plugin registry's (:attr:`PluginRegistry.extractor`);
    None cuts line windows only. Use it as a context manager (or call :meth:`close`) so that the
    pool's processes end with the build.
    """

    def __init__(
        self,
        max_workers: int | None = None,
        *,
        min_files: int = MIN_PARALLEL_FILES,
        min_bytes: int = MIN_PARALLEL_BYTES,
        extractor: ExtractorSpec | _Default | None = _DEFAULT,
    ) -> None:
        self.extractor = current_extractor() if isinstance(extractor, _Default) else extractor
        self.max_workers = max_workers if max_workers is not None else available_cpus()
        self.min_files = min_files
        self.min_bytes = min_bytes
        self._pool: ProcessPoolExecutor | None = None
        self._broken = False

    @property
    def version(self) -> str:
        """The segmenter version of what this segmenter cuts (part of the per-file cache key)."""
        return segmenter_version(self.extractor)

    def __enter__(self) -> ParallelSegmenter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def uses_pool(self, tasks: Sequence[FileTask]) -> bool:
        """Whether a batch like ``tasks`` goes to the pool."""
        if self.max_workers <= 1 or self._broken or len(tasks) < 2:
            return False
        return len(tasks) >= self.min_files or sum(len(t.source) for t in tasks) >= self.min_bytes

    def segment(self, tasks: Sequence[FileTask]) -> Iterator[SegmentedFile]:
        """The segments of every file in ``tasks``, in the same order."""
        if not self.uses_pool(tasks):
            for task in tasks:
                yield _segment_one(task, self.extractor)
            return
        pool = self._pool
        if pool is None:
            pool = self._pool = ProcessPoolExecutor(
                self.max_workers, mp_context=multiprocessing.get_context("forkserver")
            )
        chunks = list(_chunks(tasks))
        futures: list[Future[list[SegmentedFile]]] = [
            pool.submit(_segment_chunk, chunk, self.extractor) for chunk in chunks
        ]
        for chunk, future in zip(chunks, futures, strict=True):
            try:
                done = future.result()
            except BrokenProcessPool:
                # A worker died (killed, out of memory): finish in this process, as without a pool.
                log.warning("a segmentation worker died; segmenting the rest of the files in this process")
                self._broken = True
                done = _segment_chunk(chunk, self.extractor)
            yield from done
