"""A regular expression written in the query ("regex open_valve\\(\\s*\\)", "/TODO\\(\\w+\\)/"): read as one
where it holds regular-expression syntax, routed to exact_match, and run by the text modality over
every line of a real shard, through the engine too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, search_once

from fourfold.api import SearchParams
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.intent import classify
from fourfold.coordinator.mcp_server import format_answer
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins import BuildContext, ModalityQuery
from fourfold.plugins.inline_regex import find
from fourfold.plugins.text import TextModality, TextShard
from fourfold.plugins.text.testing import segments_for_file

VALVES = (
    "def run(pump):\n"
    "    open_valve()\n"  # 2: no arguments
    "    open_valve(pump.id)\n"
    "    open_valve(  )\n"  # 4: no arguments, spaced
    "    close_valve()\n"
    "    # TODO(kim): drain first\n"  # 6
    "    # TODO: later\n"
)


@pytest.mark.parametrize(
    ("query", "pattern"),
    [
        (r"regex open_valve\(\s*\) with nothing passed", r"open_valve\(\s*\)"),
        (r"lines matching ^from\s+\.\s+import", r"^from\s+\.\s+import"),
        ("regexp: retry_.*_budget", "retry_.*_budget"),
        ('grep -E "def _?secondary"', "def _?secondary"),
        (r"search /TODO\(\w+\)/ in the pump code", r"TODO\(\w+\)"),
        ("rg -i 'foo|bar' please", "foo|bar"),
        ("regex: [A-Z]{3}-\\d+", "[A-Z]{3}-\\d+"),
        (r"match /\bE_COIL_HOT\b/ across the repo", r"\bE_COIL_HOT\b"),  # a pattern may open with an escape
    ],
)
def test_a_pattern_with_regex_syntax_is_read_from_the_query(query: str, pattern: str) -> None:
    found = find(query)
    assert found is not None and found.pattern == pattern


@pytest.mark.parametrize(
    "query",
    [
        "where is /api/v1/ handled",  # a path between slashes: no syntax
        "grep for the retry budget",
        "regex for parsing dates",  # asks about code holding a regex
        "what pattern does the retry loop follow",
        "grep what?",
        'grep "retry %d" in the client',  # a quoted literal stays one
        "is C++ supported",
        "code following the pattern vec.iter().map(|x| x * 2)",  # similar code, not a pattern to run
        "similar code: re.compile(pattern)?",
        "other places matching:\nself.cache[key] = value",  # a pasted line below: code
    ],
)
def test_words_are_not_a_pattern(query: str) -> None:
    assert find(query) is None


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> TextShard:
    root = tmp_path_factory.mktemp("inline-shard")
    TextModality().build(segments_for_file("r", "pump.py", "python", VALVES), root, BuildContext("g", "r", ("r",)))
    return TextShard(root)


def matched(shard: TextShard, text: str) -> tuple[set[int], tuple[str, ...]]:
    result = shard.search(ModalityQuery(text, k=10, intent="exact_match"))
    return {line for h in result.hits for line in h.match_lines}, result.notes


def test_the_text_modality_runs_the_pattern_over_every_line(shard: TextShard) -> None:
    lines, notes = matched(shard, r"regex open_valve\(\s*\) with nothing passed")
    expected = {i for i, line in enumerate(VALVES.splitlines(), 1) if re.search(r"open_valve\(\s*\)", line)}
    assert lines == expected == {2, 4}
    assert notes[0] == r"text: regex 'open_valve\\(\\s*\\)' from the query"
    assert matched(shard, r"/TODO\(\w+\)/")[0] == {6}


def test_a_pattern_re2_cannot_compile_is_matched_as_a_literal_and_said(shard: TextShard) -> None:
    lines, notes = matched(shard, r"regex valve_\w+(")
    assert lines == set()
    assert "matched as a literal" in notes[0] and "valve_\\\\w+(" in notes[0]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("inline-home")
    (root / "pump").mkdir()
    (root / "pump" / "pump.py").write_text(VALVES)
    build_generation(IndexStore(root / "home"), [(root / "pump", "pump")], modalities=["text", "structural"])
    return root / "home"


QUERY = r"regex open_valve\(\s*\) with nothing passed"


def test_a_regex_question_is_routed_and_answered_through_the_engine(home: Path) -> None:
    assert classify(QUERY).intent == "exact_match"
    a = search_once(Engine(IndexStore(home)), SearchParams(QUERY, k=10))
    assert (a.intent, a.fusion_strategy) == ("exact_match", "direct")
    assert {line for h in a.hits for line in h.hit.match_lines} == {2, 4}


def test_every_surface_runs_it(home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI says the pattern and that a ranked answer is not a listing; the Python client over gRPC and
    the MCP text get the same lines."""
    import fourfold

    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", QUERY]) == 0
    out = capsys.readouterr().out
    assert "2 matching lines in 1 files · ranked, not a listing" in out
    assert r"note: text: regex 'open_valve\\(\\s*\\)' from the query" in out
    with coordinator_in_process(home) as address, fourfold.Client(address) as client:
        answer = client.search(QUERY, k=5)
        assert {line for h in answer.hits for line in h.hit.match_lines} == {2, 4}
    assert "pump.py:1-" in format_answer(search_once(Engine(IndexStore(home)), SearchParams(QUERY, k=5)))
