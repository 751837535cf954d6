"""A question naming code no file holds says so (``coordinator/absent.py``): the name read from the question,
the answer's own lists as evidence, and the engine's answer over a real index of three repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inprocess import search_once

from fourfold.api import Answer, FusedHit, ModalityRank, SearchParams
from fourfold.coordinator.absent import UNNAMED_NOTE, Subject, evidenced, names_nothing, note, subject
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.mcp_server import format_answer
from fourfold.index.store import IndexStore
from fourfold.plugins.types import Hit

FIXTURE = Path(__file__).parent / "fixtures" / "graph_multi"
REPOS = ("alpha", "beta", "gamma")


@pytest.mark.parametrize(
    ("query", "name", "word"),
    [
        ("who calls Engine.explode", "Engine.explode", "explode"),
        ("where is parse_confg defined in src/app_config.py", "parse_confg", "parse_confg"),
        ("what breaks if I change `ns::doThing`?", "ns::doThing", "doThing"),
        ("describe_every_badge", "describe_every_badge", "describe_every_badge"),
        ("callers of src/app_main.py", None, None),  # a path is no name
        ("who calls retry", None, None),  # a plain word may be prose: left alone
        ("where is the config parsed", None, None),
    ],
)
def test_the_name_a_question_asks_about(query: str, name: str | None, word: str | None) -> None:
    asked = subject(query)
    assert (asked.name, asked.word) == (name, word) if asked else (name, word) == (None, None)


@pytest.mark.parametrize(
    ("query", "empty"),
    [
        ("who calls", True),
        ("who calls this function?", True),
        ("what breaks if I change it", True),
        ("Callers of", True),
        ("who implements this?", True),
        ("which classes extend it", True),
        ("who implements Formatter", False),
        ("who calls retry", False),  # a word a name could be
        ("who uses the config loader", False),
        ("who imports requests", False),
        ("who calls invoke", False),  # a relation's word after the relation asked: a function named so
        ("callers of find", False),
        ("who uses call", False),
        ("what breaks if I change", True),
        ("what invokes this", True),
        ("who is called", True),
    ],
)
def test_a_relation_question_that_names_nothing(query: str, empty: bool) -> None:
    assert names_nothing(query) is empty


def _fused(symbol: str, score: float = 1.0) -> FusedHit:
    return FusedHit(Hit("s", "r", "a.py", 1, 3, score, symbol=symbol), score, {"text": ModalityRank(0, 0.01, score)})


def test_the_answers_own_lists_are_evidence_first() -> None:
    asked = Subject("Badge.explode", "explode")
    defined = Hit("d", "r", "a.py", 1, 3, 4.2, symbol="Badge.explode")
    fuzzy = Hit("f", "r", "a.py", 1, 3, 1.1, symbol="Badge.explain")
    assert evidenced(asked, {"structural": [defined]}, [])
    assert not evidenced(asked, {"structural": [fuzzy], "text": [fuzzy]}, [_fused("Badge.explain")])
    assert evidenced(asked, {"graph": [fuzzy]}, [])  # the graph answers only for a name it resolved
    assert evidenced(asked, {}, [_fused("Other.explode")])  # a hit is it
    assert note(asked) == (
        "'Badge.explode' is in no file searched (nor 'explode' as a word): the hits are near names and shared "
        "words, not it; check the spelling, or the repositories and branch asked"
    )


# -- the engine, over a real index --------------------------------------------------------------------


@pytest.fixture(scope="module")
def home(multi_home: Path) -> Path:
    return multi_home


def search(home: Path, query: str, visible: frozenset[str] | None = None) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, k=5), visible)


def said_absent(a: Answer) -> bool:
    return any(" is in no file searched" in n for n in a.notes)


@pytest.mark.parametrize(
    "query",
    [
        "who calls describe_every_badge",  # the graph's direct path finds nothing, fusion answers
        "what breaks if I change describe_every_badge",
        "where is Badge.explodes defined",  # structural offers fuzzy neighbours
        "describe_every_badge",  # a bare name: structural and text disagree, fusion answers
    ],
)
def test_a_name_no_file_holds_is_no_confident_match(home: Path, query: str) -> None:
    a = search(home, query)
    assert a.hits, "the neighbours are still listed"
    assert a.no_confident_match and said_absent(a), a.notes


@pytest.mark.parametrize("query", ["who calls", "what breaks if I change this function?"])
def test_a_relation_question_naming_nothing_is_no_confident_match(home: Path, query: str) -> None:
    a = search(home, query)
    assert a.intent in ("find_references", "impact_analysis")
    assert a.no_confident_match and UNNAMED_NOTE in a.notes, a.notes


def test_a_name_that_exists_is_answered_as_before(home: Path) -> None:
    for query in ("who calls beta_helper", "what breaks if I change beta_helper", "where is Badge.describe defined"):
        a = search(home, query)
        assert a.hits and not said_absent(a) and not a.no_confident_match, (query, a.notes)


def test_a_name_only_a_hidden_repository_holds_is_absent_for_that_caller(home: Path) -> None:
    """``beta_helper`` is written only in gamma: a caller who sees alpha and beta is told it is nowhere,
    exactly as a store without gamma would tell it, and no note names gamma."""
    mine = frozenset({"alpha", "beta"})
    a = search(home, "who calls beta_helper", mine)
    assert a.no_confident_match and said_absent(a)
    assert {f.hit.repo for f in a.hits} <= mine and not any("gamma" in n for n in a.notes)


def test_the_cli_and_mcp_say_it(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "who calls describe_every_badge"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["no_confident_match"] and any(" is in no file searched" in n for n in out["notes"])
    assert main(["search", "--in-process", "who calls describe_every_badge"]) == 0
    assert "no confident match" in capsys.readouterr().out
    head = format_answer(search(home, "who calls describe_every_badge")).splitlines()[0]
    assert head.endswith("· NO CONFIDENT MATCH (the hits are candidates, not answers)")
