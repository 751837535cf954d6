"""A prose question is answered by a file's code, not by its constant.

"how does weighted rank fusion work", asked of a repository whose ``fusion.py`` opens with a one-line
``METHODS`` constant whose doc comment shares the question's words: BM25 ranks that short segment far above
``fuse``, the function that does the work. The file is the right answer either way; it now shows ``fuse``
first, in the file's place, and the constant right after it (``fusion.code_first_within``). A real index
(text, structural, graph), asked in process, through the CLI, the Python client over real gRPC, and an MCP
client over that same server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inprocess import coordinator_in_process, index_files, mcp_search
from inprocess import search_once as search

from fourfold.api import SearchParams
from fourfold.client import Client
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import FILE_SEGMENTS_OPTION, Engine
from fourfold.index.store import IndexStore

QUESTION = "how does weighted rank fusion work"
WHY = "first of its file, which ranks by constant METHODS (line 11)"

FUSION = '''"""Ranked lists in, one list out."""

import math


def boost(centrality):
    return min(1 + 0.3 * math.log(1 + centrality), 1.5)


#: Fusion methods: weighted reciprocal rank fusion, or the weighted sum of z-scores.
METHODS = ("rrf", "zscore")


def fuse(ranked, weights, k):
    """Each list adds its weight over its constant plus the hit's rank in it."""
    scores = {}
    for name, hits in ranked.items():
        for place, hit in enumerate(hits):
            scores[hit] = scores.get(hit, 0.0) + weights[name] / (k + place + 1)
    return sorted(scores, key=scores.get, reverse=True)
'''

FILES = {
    "search/fusion.py": FUSION,
    "search/store.py": "class Store:\n    def add(self, path, text):\n        self.files[path] = text\n",
    "search/query.py": "def parse(query):\n    return query.split()\n\n\ndef weigh(terms):\n    return len(terms)\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return index_files(tmp_path_factory.mktemp("lead"), "fusionlib", FILES)


def _first_of_fusion(hits: list[tuple[str, str | None, float]]) -> list[str | None]:
    """The symbols ``search/fusion.py`` shows, in order; the file's first row must lead the whole answer."""
    assert hits and hits[0][0] == "search/fusion.py", hits
    return [symbol for path, symbol, _ in hits if path == "search/fusion.py"]


def test_in_process_the_function_leads_and_the_constant_follows(home: Path) -> None:
    a = search(Engine(IndexStore(home)), SearchParams(QUESTION, k=10))
    assert (a.intent, a.fusion_strategy) == ("understand_code", "fused")
    assert _first_of_fusion([(f.hit.path, f.hit.symbol, f.score) for f in a.hits])[:2] == ["fuse", "METHODS"]
    assert WHY in a.hits[0].hit.snippet.splitlines()
    # one segment a file shows the file's best as it is: the constant, with the same score
    one = search(Engine(IndexStore(home)), SearchParams(QUESTION, k=10, options={FILE_SEGMENTS_OPTION: "one"}))
    assert (one.hits[0].hit.symbol, one.hits[0].score) == ("METHODS", pytest.approx(a.hits[0].score))


def test_a_definition_question_still_finds_the_constant(home: Path) -> None:
    a = search(Engine(IndexStore(home)), SearchParams("where is METHODS defined", k=5))
    assert (a.hits[0].hit.path, a.hits[0].hit.symbol) == ("search/fusion.py", "METHODS")


def test_the_cli_shows_it(home: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "-k", "5", QUESTION]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert _first_of_fusion([(h["path"], h["symbol"], h["score"]) for h in doc["hits"]])[:2] == ["fuse", "METHODS"]
    assert main(["search", "--in-process", "-k", "5", QUESTION]) == 0
    assert WHY in capsys.readouterr().out


def test_the_client_over_grpc_and_mcp_show_it(home: Path) -> None:
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            r = client.search(QUESTION, k=5)
        assert _first_of_fusion([(h.hit.path, h.hit.symbol, h.score) for h in r.hits])[:2] == ["fuse", "METHODS"]
        assert WHY in r.hits[0].hit.snippet
        text = mcp_search(address, QUESTION, 5)
        first = next(line for line in text.splitlines() if line.startswith("1. "))
        assert first.startswith("1. fusionlib:search/fusion.py:14-") and "fuse" in first, text
        assert WHY in text
