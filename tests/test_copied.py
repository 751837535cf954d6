"""Pasted code is answered first by the code it was copied from (``coordinator/copied.py``).

Two lines pasted out of ``fuse`` (a long function: BM25 favours a short one sharing the words, and a string
that quotes the snippet shares every one of them) are answered by ``fuse`` first; a string quoting the lines
on one line of its own is no source. The rule's arithmetic, then a real index (text, structural, graph) asked in
process, through the CLI, the Python client over real gRPC and an MCP client over that server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import grpc
import pytest
from inprocess import coordinator_in_process, index_files, mcp_search
from inprocess import search_once as search

from fourfold.api import SearchParams
from fourfold.client import Client
from fourfold.coordinator import copied
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.fusion import fuse
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins.types import Hit
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

PASTE = "for place, hit in enumerate(hits):\n    c = w / (k + place + 1)"

FUSE = '''def fuse(ranked, weights, k, use_centrality=True):
    """Each list adds its weight over its constant plus the hit's rank in it."""
    scores = {}
    for name, hits in ranked.items():
        w = weights.get(name, 0.0)
        for place, hit in enumerate(hits):
            if hit in scores and name in scores[hit]:
                continue
            c = w / (k + place + 1) * (boost(hit) if use_centrality else 1.0)
            scores.setdefault(hit, {})[name] = c
    totals = {h: sum(per.values()) for h, per in scores.items()}
    return sorted(totals, key=totals.get, reverse=True)


def boost(h):
    return 1.0
'''

FILES = {
    "rank/fusion.py": FUSE,
    "rank/places.py": "def places(hits):\n    for place, hit in enumerate(hits):\n        yield place + 1, hit\n",
    "rank/demo.py": f"QUERIES = (\n    ('find_similar', {PASTE!r}),\n)\n",
}


def test_lines_and_holders() -> None:
    assert copied.lines(PASTE) == ["for place, hit in enumerate(hits):", "c = w / (k + place + 1)"]
    # one line of code: a line of the source opens with it
    assert copied.lines("for place, hit in enumerate(hits):") == ["for place, hit in enumerate(hits):"]
    one = copied.lines("c = w / (k + place + 1)")
    assert copied.holders(one, {"source": FUSE, "quote": FILES["rank/demo.py"]}) == {"source"}
    assert copied.lines("who calls Session.send", "find_references") == []  # a graph question, however worded
    assert copied.lines("how does weighted rank fusion work", "understand_code") == []  # no code in it
    assert copied.lines('"Option {name!r} requires an argument."', "exact_match") == []  # text's literal search
    assert copied.lines("x = 1\n}\nreturn y") == []  # lines too short to tell anything
    held = copied.holders(
        copied.lines(PASTE),
        {
            "source": FUSE,
            "one-line-quote": FILES["rank/demo.py"],
            "reversed": "c = w / (k + place + 1)\nfor place, hit in enumerate(hits):\n",
            "half": FILES["rank/places.py"],
        },
    )
    assert held == {"source"}


def test_fuse_puts_pinned_segments_first_in_their_order() -> None:
    def h(sid: str, path: str) -> Hit:
        return Hit(sid, "r", path, 1, 2, 1.0)

    ranked = {"text": [h("A", "a.py"), h("B", "b.py"), h("C", "c.py"), h("D", "d.py")]}
    fused = fuse(ranked, {"text": 1.0}, 60, pinned=frozenset({"D", "C"}))
    assert [f.hit.segment_id for f in fused] == ["C", "D", "A", "B"]
    assert fused[0].score == pytest.approx(1 / 63 + 1 / 61)  # its own score plus the best of the rest
    assert fused[2].score == pytest.approx(1 / 61)


def test_every_holder_is_an_answer_of_its_own() -> None:
    """Two methods of one file that hold the paste are two answers (the file's collapse would hide the second);
    the file shows only them."""

    def h(sid: str, start: int) -> Hit:
        return Hit(sid, "r", "a.py", start, start + 5, 1.0)

    ranked = {"text": [h("OTHER", 40), h("B", 20), h("C", 30), Hit("X", "r", "x.py", 1, 2, 1.0)]}
    fused = fuse(ranked, {"text": 1.0}, 60, pinned=frozenset({"B", "C"}))
    assert [f.hit.segment_id for f in fused] == ["B", "C", "X"]
    assert [f.hit.segment_id for f in fuse(ranked, {"text": 1.0}, 60)] == ["OTHER", "X"]  # one a file unpinned


def test_the_innermost_holder_is_the_source() -> None:
    """A class holds the lines of its method only through it; two methods, or the same span twice, both stay."""
    spans = {
        "class": ("r", "a.py", 1, 50),
        "m1": ("r", "a.py", 10, 20),
        "m2": ("r", "a.py", 30, 40),
        "elsewhere": ("r", "b.py", 1, 50),
    }
    assert copied.innermost({"class", "m1", "m2", "elsewhere"}, spans) == {"m1", "m2", "elsewhere"}
    assert copied.innermost({"class", "elsewhere"}, spans) == {"class", "elsewhere"}
    assert copied.innermost({"m1", "unplaced"}, spans) == {"m1", "unplaced"}


TWICE = """class Ranker:
    def first(self, hits):
        ordered = sorted(hits, key=lambda hit: -hit.score)
        return [hit.path for hit in ordered]

    def again(self, hits):
        ordered = sorted(hits, key=lambda hit: -hit.score)
        return [hit.path for hit in ordered]
"""


def test_both_methods_holding_a_paste_are_shown_and_not_their_class(tmp_path: Path) -> None:
    home = index_files(tmp_path, "ranklib", {"rank/twice.py": TWICE, **FILES})
    paste = "ordered = sorted(hits, key=lambda hit: -hit.score)\nreturn [hit.path for hit in ordered]"
    a = search(Engine(IndexStore(home)), SearchParams(paste, k=5))
    assert {(f.hit.path, f.hit.symbol) for f in a.hits[:2]} == {("rank/twice.py", "first"), ("rank/twice.py", "again")}
    assert any(n.startswith("2 segment(s) hold every pasted line") for n in a.notes), a.notes


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return index_files(tmp_path_factory.mktemp("copied"), "ranklib", FILES)


def test_in_process_the_source_comes_first(home: Path) -> None:
    a = search(Engine(IndexStore(home)), SearchParams(PASTE, k=5))
    assert (a.hits[0].hit.path, a.hits[0].hit.symbol) == ("rank/fusion.py", "fuse"), a.hits
    assert any("hold every pasted line as written" in n for n in a.notes), a.notes
    off = search(Engine(IndexStore(home)), SearchParams(PASTE, k=5, options={copied.OPTION: "off"}))
    assert not any("hold every pasted line" in n for n in off.notes)
    # one line of code: the segment that holds it leads
    line = search(Engine(IndexStore(home)), SearchParams("scores.setdefault(hit, {})[name] = c", k=5))
    assert (line.hits[0].hit.path, line.hits[0].hit.symbol) == ("rank/fusion.py", "fuse"), line.hits
    assert any(n.startswith("1 segment(s) hold every pasted line") for n in line.notes), line.notes
    # without the rule the quoting string leads and fusion.py shows by its short ``boost``
    assert [(f.hit.path, f.hit.symbol) for f in off.hits][:1] == [("rank/demo.py", "QUERIES")]


def test_a_source_no_list_holds_is_looked_up(tmp_path: Path) -> None:
    """Forty short functions share the paste's words and fill text's list (30 deep for k = 5); ``fuse`` is in no
    list, and text's literal search for the paste's longest line finds it."""
    noise = {
        f"noise/n{i}.py": f"def n{i}(hits):\n    for place, hit in enumerate(hits, 1):\n        yield place + 1, hit\n"
        for i in range(40)
    }
    home = index_files(tmp_path, "ranklib", {"rank/fusion.py": FUSE, **noise})
    off = search(Engine(IndexStore(home)), SearchParams(PASTE, k=5, options={copied.OPTION: "off"}))
    assert "rank/fusion.py" not in {f.hit.path for f in off.hits}
    a = search(Engine(IndexStore(home)), SearchParams(PASTE, k=5))
    assert (a.hits[0].hit.path, a.hits[0].hit.symbol) == ("rank/fusion.py", "fuse"), a.hits
    assert a.hits[0].modalities["text"].rank == 30  # joined text's list after its 30 candidates


def test_a_repository_the_caller_may_not_read_gives_no_source(tmp_path: Path) -> None:
    """The literal lookup asks in the caller's scope: the same function in a repository the caller may not read
    is neither shown nor counted."""
    for repo, files in (("mine", FILES), ("secret", {"vault/fusion.py": FUSE})):
        for path, text in files.items():
            (tmp_path / repo / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / repo / path).write_text(text)
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(tmp_path / "mine", "mine"), (tmp_path / "secret", "secret")], modalities=["text"])
    everyone = search(Engine(store), SearchParams(PASTE, k=5))
    assert {f.hit.repo for f in everyone.hits if "hold every" in " ".join(everyone.notes)} >= {"mine", "secret"}
    a = search(Engine(store), SearchParams(PASTE, k=5), visible=frozenset({"mine"}))
    assert {f.hit.repo for f in a.hits} == {"mine"}
    assert (a.hits[0].hit.path, a.hits[0].hit.symbol) == ("rank/fusion.py", "fuse")
    assert any(n.startswith("1 segment(s) hold every pasted line") for n in a.notes), a.notes


def test_the_cli_shows_it(home: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "-k", "5", PASTE]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["hits"][0]["path"], doc["hits"][0]["symbol"]) == ("rank/fusion.py", "fuse")


def test_the_client_over_grpc_and_mcp_show_it(home: Path) -> None:
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            r = client.search(PASTE, k=5)
        assert (r.hits[0].hit.path, r.hits[0].hit.symbol) == ("rank/fusion.py", "fuse")
        text = mcp_search(address, PASTE, 5)
        first = next(line for line in text.splitlines() if line.startswith("1. "))
        assert first.startswith("1. ranklib:rank/fusion.py:1-") and "fuse" in first, text


@pytest.mark.cluster
@pytest.mark.slow
def test_through_grpc_on_a_cluster(cluster: Any) -> None:
    """Ray workers answer the literal lookup too: three lines out of the sample's ``retry_request``."""
    stub = coordinator_pb2_grpc.CoordinatorStub(grpc.insecure_channel(cluster.address))
    paste = "for _ in range(attempts):\n    try:\n        return request()"
    r = stub.Search(coordinator_pb2.SearchRequest(query=paste, k=5), timeout=30)
    assert (r.hits[0].repo, r.hits[0].path) == ("sample", "app/session.py"), r.hits
    assert any("hold every pasted line as written" in n for n in r.notes), r.notes
