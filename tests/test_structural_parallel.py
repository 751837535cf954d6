"""Parallel segmentation: a process pool cuts exactly the segments that in-process segmentation cuts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fourfold.index import generation as indexer
from fourfold.index.generation import build_generation
from fourfold.index.ingest.languages import detect_language
from fourfold.index.ingest.parallel import CHUNK_FILES, FileTask, ParallelSegmenter
from fourfold.index.ingest.segment import segment_file
from fourfold.index.store import IndexStore
from fourfold.plugins.types import Segment

FIXTURES = Path(__file__).parent / "fixtures" / "structural"


def _fixture_tasks(copies: int) -> list[FileTask]:
    """Every source fixture (all languages), ``copies`` times under distinct paths."""
    tasks = []
    for copy in range(copies):
        for path in sorted(FIXTURES.iterdir()):
            data = path.read_bytes()
            language = detect_language(path.name, data[:128])
            if path.suffix not in {".md", ".json"}:
                tasks.append(FileTask("fixtures", f"copy{copy}/{path.name}", language, data))
    return tasks


@pytest.mark.slow  # starts worker processes
def test_pool_segments_equal_in_process_segments() -> None:
    tasks = _fixture_tasks(copies=3)
    assert len(tasks) > CHUNK_FILES  # more than one chunk goes to the pool
    expected = [segment_file(t.repo, t.path, t.language, t.source) for t in tasks]
    with ParallelSegmenter(max_workers=2, min_files=1) as segmenter:
        assert segmenter.uses_pool(tasks)
        assert list(segmenter.segment(tasks)) == expected
        assert list(segmenter.segment(tasks[:5])) == expected[:5]  # the pool serves later batches too
    assert sum(len(s.segments) for s in expected) > 100


def test_small_batches_and_one_cpu_stay_in_process() -> None:
    tasks = _fixture_tasks(copies=1)
    assert not ParallelSegmenter(max_workers=4).uses_pool(tasks[:3])
    assert not ParallelSegmenter(max_workers=1, min_files=1).uses_pool(tasks)
    assert ParallelSegmenter(max_workers=4, min_files=10**6, min_bytes=1).uses_pool(tasks)
    segmenter = ParallelSegmenter(max_workers=1)
    assert list(segmenter.segment(tasks)) == [segment_file(t.repo, t.path, t.language, t.source) for t in tasks]
    segmenter.close()


def _segments(home: Path) -> list[Segment]:
    reader = IndexStore(home).require_live()
    try:
        return sorted(reader.segments(repos=["many"]), key=lambda s: s.id)
    finally:
        reader.close()


@pytest.mark.slow  # two builds, one with worker processes
def test_build_generation_same_segments_with_and_without_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "many"
    for copy in range(6):
        shutil.copytree(FIXTURES, repo / f"copy{copy}", ignore=shutil.ignore_patterns("*.md", "*.json"))
    made: list[ParallelSegmenter] = []

    def segmenter(workers: int) -> ParallelSegmenter:
        made.append(ParallelSegmenter(max_workers=workers, min_files=2))
        return made[-1]

    monkeypatch.setattr(indexer, "ParallelSegmenter", lambda: segmenter(1))
    alone = build_generation(
        IndexStore(tmp_path / "alone"), [(repo, "many")], modalities=["structural"], centrality=False
    )
    monkeypatch.setattr(indexer, "ParallelSegmenter", lambda: segmenter(2))
    pooled = build_generation(
        IndexStore(tmp_path / "pooled"), [(repo, "many")], modalities=["structural"], centrality=False
    )
    assert [s.max_workers for s in made] == [1, 2]
    assert pooled.files == alone.files > 60 and pooled.segments == alone.segments
    assert pooled.parse_errors == alone.parse_errors and pooled.unsupported_languages == alone.unsupported_languages
    assert _segments(tmp_path / "pooled") == _segments(tmp_path / "alone")
    # a second build reuses every file from the cache by content hash, pool or not
    again = build_generation(IndexStore(tmp_path / "pooled"), [], modalities=["structural"], centrality=False)
    assert again.reused_files == pooled.files and _segments(tmp_path / "pooled") == _segments(tmp_path / "alone")
