"""The rerank stage: reorders the top candidates, never costs an answer; the Voyage reranker against a fake server."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest
from fake_http import send_json, serving

from fourfold.coordinator.rerank import document_for, make_reranker, rerank_candidates
from fourfold.errors import InvalidQuery, Unavailable
from fourfold.plugins.rerankers.voyage import VoyageReranker


class Scripted:
    """A reranker that answers fixed scores (or raises, or sleeps), recording what it read."""

    def __init__(self, scores: list[float] | None = None, error: Exception | None = None, sleep_s: float = 0.0) -> None:
        self.scores, self.error, self.sleep_s = scores, error, sleep_s
        self.seen: list[list[str]] = []

    def rerank(self, query: str, documents: list[str]) -> list[float]:
        self.seen.append(documents)
        time.sleep(self.sleep_s)
        if self.error is not None:
            raise self.error
        return list(self.scores or [])


def run(reranker: Scripted, docs: list[str], **kwargs: Any) -> Any:
    return asyncio.run(rerank_candidates(reranker, "scripted", "q", docs, **kwargs))


def test_reorders_only_the_top_depth_and_ties_keep_the_fused_order() -> None:
    r = Scripted([1.0, 9.0, 1.0])
    out = run(r, ["a", "b", "c", "d", "e"], depth=3)
    assert r.seen == [["a", "b", "c"]]
    assert out.order == (1, 0, 2, 3, 4)
    assert out.scores == (1.0, 9.0, 1.0, None, None)
    assert out.status == "scripted" and out.ran


@pytest.mark.parametrize(
    ("reranker", "reason"),
    [
        (Scripted(error=RuntimeError("model exploded")), "scripted failed: RuntimeError: model exploded"),
        (Scripted([5.0]), "scripted failed: ValueError: 1 scores for 2 documents"),
        (Scripted([5.0, 11.0]), "scripted failed: ValueError: score 11.0 outside 0-10"),
        (Scripted([5.0, float("nan")]), "scripted failed: ValueError: score nan outside 0-10"),
    ],
)
def test_a_failing_reranker_leaves_the_fused_order(reranker: Scripted, reason: str) -> None:
    out = run(reranker, ["a", "b"])
    assert out.order == (0, 1) and out.scores == (None, None)
    assert out.status == f"skipped ({reason})" and not out.ran


def test_a_slow_reranker_is_skipped_at_its_deadline() -> None:
    async def timed() -> tuple[Any, float]:
        t = time.perf_counter()
        out = await rerank_candidates(Scripted([1.0, 2.0], sleep_s=0.5), "scripted", "q", ["a", "b"], deadline_s=0.05)
        return out, time.perf_counter() - t

    out, seconds = asyncio.run(timed())  # the abandoned thread finishes before asyncio.run returns
    assert seconds < 0.45
    assert out.order == (0, 1) and out.status == "skipped (scripted exceeded its deadline of 50 ms)"


def test_no_time_left_skips_without_calling() -> None:
    r = Scripted([1.0])
    out = run(r, ["a"], deadline_s=0.0)
    assert r.seen == [] and out.status == "skipped (no time left before the search deadline)"


def test_document_is_path_then_clipped_code() -> None:
    doc = document_for("src/a.py", "x" * 5000)
    assert doc.startswith("src/a.py\nxxx") and len(doc) == len("src/a.py\n") + 2000


def test_unknown_reranker_names_the_available_ones() -> None:
    with pytest.raises(InvalidQuery, match=r"unknown reranker 'nope'; available: probe, voyage"):
        make_reranker("nope", {"probe": Scripted, "voyage": VoyageReranker})


def test_voyage_without_a_key_is_unavailable_with_a_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOYAGE_API_KEY", raising=False)
    with pytest.raises(Unavailable, match="voyage reranker is unavailable: set VOYAGE_API_KEY"):
        VoyageReranker()


# --- Voyage against a local fake server -----------------------------------------------------------


class FakeRerank:
    """Stands in for Voyage's /rerank endpoint: relevance = share of query words in the document."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.status = 200

    def handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
                words = body["query"].split()
                data = [
                    {"index": i, "relevance_score": sum(w in d for w in words) / len(words)}
                    for i, d in enumerate(body["documents"])
                ]
                data.sort(key=lambda d: -d["relevance_score"])  # Voyage answers best first
                payload: Any = {"object": "list", "data": data, "model": body["model"], "usage": {"total_tokens": 9}}
                if fake.status != 200:
                    payload = {"detail": "invalid key"}
                send_json(self, fake.status, payload)

        return Handler


@pytest.fixture
def fake_rerank() -> Iterator[tuple[FakeRerank, str]]:
    fake = FakeRerank()
    with serving(fake.handler()) as url:
        yield fake, url


def test_voyage_asks_rerank_2_5_and_scales_scores_to_ten(fake_rerank: tuple[FakeRerank, str]) -> None:
    fake, url = fake_rerank
    reranker = VoyageReranker(api_key="pa-test", base_url=url)
    scores = reranker.rerank("parse config", ["def parse(): config", "def unrelated(): pass", "parse only"])
    assert scores == [10.0, 0.0, 5.0]
    (req,) = fake.requests
    assert req["path"].endswith("/rerank") and req["model"] == "rerank-2.5" and req["auth"] == "Bearer pa-test"
    assert req["query"] == "parse config" and req["truncation"] is True


def test_voyage_failure_becomes_a_skipped_stage(fake_rerank: tuple[FakeRerank, str]) -> None:
    fake, url = fake_rerank
    fake.status = 401
    out = asyncio.run(rerank_candidates(VoyageReranker(api_key="pa-bad", base_url=url), "voyage", "q", ["a", "b"]))
    assert out.order == (0, 1) and out.status.startswith(
        "skipped (voyage failed: PluginError: Voyage rejected the API key"
    )
