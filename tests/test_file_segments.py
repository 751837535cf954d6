"""A prose question shows a file's further answers: its second and third best segments stay, the n-th after the
best at ``fusion.FURTHER_SEGMENT ** n`` of its own score, below other files' comparable segments.

On the sample repository (real text, structural, graph and semantic shards), "how does a session retry
sending a request" is answered by two methods of ``app/session.py``, and so is a route the learned layer hedges
as prose; every other intent, and the option ``file_segments=one``, keeps one segment a file. In process,
through the CLI and through gRPC on a real cluster.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import grpc
import pytest
from inprocess import search_once as search

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import FILE_SEGMENTS_OPTION, Engine
from fourfold.coordinator.fusion import FILE_SEGMENTS, FURTHER_SEGMENT
from fourfold.index.store import IndexStore
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

QUESTION = "how does a session retry sending a request"


def _segments(hits: list[tuple[str, int, float]], path: str) -> list[tuple[int, float]]:
    return [(start, score) for p, start, score in hits if p == path]


def _check_further(hits: list[tuple[str, int, float]]) -> None:
    """``app/session.py`` shows two or three of its segments, distinct, each at most half the one before."""
    shown = _segments(hits, "app/session.py")
    assert 2 <= len(shown) <= FILE_SEGMENTS, hits
    starts = [s for s, _ in shown]
    assert len(set(starts)) == len(starts)
    for (_, before), (_, after) in itertools.pairwise(shown):
        assert after <= before * FURTHER_SEGMENT + 1e-9
    for path in {p for p, _, _ in hits}:
        assert len(_segments(hits, path)) <= FILE_SEGMENTS


def _rows(a: Answer) -> list[tuple[str, int, float]]:
    return [(f.hit.path, f.hit.start_line, f.score) for f in a.hits]


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        (QUESTION, "understand_code"),
        # read by the learned layer as similar code, but naming none: hedged, so fused as the prose question it may be
        ("python function that retries requests", "find_similar"),
    ],
)
def test_a_prose_question_shows_a_files_further_answers(indexed_home: Path, question: str, intent: str) -> None:
    a = search(Engine(IndexStore(indexed_home)), SearchParams(question, k=10))
    assert (a.intent, a.fusion_strategy) == (intent, "fused")
    _check_further(_rows(a))
    one = search(Engine(IndexStore(indexed_home)), SearchParams(question, k=10, options={FILE_SEGMENTS_OPTION: "one"}))
    paths = [f.hit.path for f in one.hits]
    assert len(paths) == len(set(paths)) and "app/session.py" in paths
    # the file's best segment is the same either way, and so is its score
    first = next(f for f in a.hits if f.hit.path == "app/session.py")
    kept = next(f for f in one.hits if f.hit.path == "app/session.py")
    assert (first.hit.start_line, first.score) == (kept.hit.start_line, pytest.approx(kept.score))


def test_other_intents_keep_one_segment_a_file(indexed_home: Path) -> None:
    a = search(Engine(IndexStore(indexed_home)), SearchParams("who calls parse_config", k=10))
    assert a.intent == "find_references"
    paths = [f.hit.path for f in a.hits]
    assert len(paths) == len(set(paths))


def test_the_cli_shows_them(indexed_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(indexed_home))
    assert main(["search", "--in-process", "--json", "-k", "10", QUESTION]) == 0
    doc = json.loads(capsys.readouterr().out)
    _check_further([(h["path"], h["start_line"], h["score"]) for h in doc["hits"]])


@pytest.mark.cluster
@pytest.mark.slow
def test_through_grpc(cluster: Any) -> None:
    stub = coordinator_pb2_grpc.CoordinatorStub(grpc.insecure_channel(cluster.address))
    r = stub.Search(coordinator_pb2.SearchRequest(query=QUESTION, k=10), timeout=30)
    assert r.intent == "understand_code"
    _check_further([(h.path, h.start_line, h.score) for h in r.hits])
    one = stub.Search(
        coordinator_pb2.SearchRequest(query=QUESTION, k=10, options={FILE_SEGMENTS_OPTION: "one"}), timeout=30
    )
    assert len({h.path for h in one.hits}) == len(one.hits)
