"""A prose question is answered by a file's code, not by its constant.

"how does exponential retry backoff work", asked of a repository whose ``retry.py`` holds a one-line
``STRATEGIES`` constant whose doc comment shares the question's words: BM25 ranks that short segment far above
``backoff``, the function that does the work (as "how does weighted rank fusion work" found fourfold's own
``METHODS`` before ``fuse``). The file is the right answer either way; it now shows ``backoff`` first, in the
file's place, and the constant right after it (``fusion.code_first_within``). A real index (text, structural,
graph), asked in process, through the CLI, the Python client over real gRPC, and an MCP client over that same
server.
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

QUESTION = "how does exponential retry backoff work"
WHY = "first of its file, which ranks by constant STRATEGIES (line 11)"

RETRY = '''"""Sending again after a failure."""

import time


def jitter(delay):
    return delay * 0.9


#: Backoff strategies: exponential retry backoff, or the same delay between tries.
STRATEGIES = ("exponential", "fixed")


def backoff(send, tries, delay):
    """Send, and on a failure retry after waiting twice as long as the time before."""
    for attempt in range(tries):
        try:
            return send()
        except ConnectionError:
            time.sleep(jitter(delay * 2**attempt))
    return send()
'''

FILES = {
    "net/retry.py": RETRY,
    "net/pool.py": "class Pool:\n    def add(self, host, conn):\n        self.conns[host] = conn\n",
    "net/url.py": "def parse(url):\n    return url.split('/')\n\n\ndef host(parts):\n    return parts[2]\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return index_files(tmp_path_factory.mktemp("lead"), "retrylib", FILES)


def _first_of_fusion(hits: list[tuple[str, str | None, float]]) -> list[str | None]:
    """The symbols ``net/retry.py`` shows, in order; the file's first row must lead the whole answer."""
    assert hits and hits[0][0] == "net/retry.py", hits
    return [symbol for path, symbol, _ in hits if path == "net/retry.py"]


def test_in_process_the_function_leads_and_the_constant_follows(home: Path) -> None:
    a = search(Engine(IndexStore(home)), SearchParams(QUESTION, k=10))
    assert (a.intent, a.fusion_strategy) == ("understand_code", "fused")
    assert _first_of_fusion([(f.hit.path, f.hit.symbol, f.score) for f in a.hits])[:2] == ["backoff", "STRATEGIES"]
    assert WHY in a.hits[0].hit.snippet.splitlines()
    # one segment a file shows the file's best as it is: the constant, with the same score
    one = search(Engine(IndexStore(home)), SearchParams(QUESTION, k=10, options={FILE_SEGMENTS_OPTION: "one"}))
    assert (one.hits[0].hit.symbol, one.hits[0].score) == ("STRATEGIES", pytest.approx(a.hits[0].score))


def test_a_definition_question_still_finds_the_constant(home: Path) -> None:
    a = search(Engine(IndexStore(home)), SearchParams("where is STRATEGIES defined", k=5))
    assert (a.hits[0].hit.path, a.hits[0].hit.symbol) == ("net/retry.py", "STRATEGIES")


def test_the_cli_shows_it(home: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "-k", "5", QUESTION]) == 0
    doc = json.loads(capsys.readouterr().out)
    shown = _first_of_fusion([(h["path"], h["symbol"], h["score"]) for h in doc["hits"]])
    assert shown[:2] == ["backoff", "STRATEGIES"]
    assert main(["search", "--in-process", "-k", "5", QUESTION]) == 0
    assert WHY in capsys.readouterr().out


def test_the_client_over_grpc_and_mcp_show_it(home: Path) -> None:
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            r = client.search(QUESTION, k=5)
        assert _first_of_fusion([(h.hit.path, h.hit.symbol, h.score) for h in r.hits])[:2] == ["backoff", "STRATEGIES"]
        assert WHY in r.hits[0].hit.snippet
        text = mcp_search(address, QUESTION, 5)
        first = next(line for line in text.splitlines() if line.startswith("1. "))
        assert first.startswith("1. retrylib:net/retry.py:14-") and "backoff" in first, text
        assert WHY in text
