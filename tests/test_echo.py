"""A prose question is not answered by a file that quotes it (``coordinator/echo.py``): the string literal
that is the question, and the engine's answer over a real index that keeps such a query list."""

from __future__ import annotations

from pathlib import Path

import pytest
from inprocess import search_once

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.echo import asks_enough, quoting
from fourfold.coordinator.engine import Engine
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore

QUESTION = "how does the kiln firing schedule get computed"


@pytest.mark.parametrize(
    ("text", "quotes"),
    [
        (f'QUERIES = ("{QUESTION}", "def fire")', True),
        (f"    '{QUESTION.upper()}?',", True),  # case, and its question mark
        ('ask("how does the kiln\n    firing schedule get computed")', True),  # whitespace between words
        (f"`{QUESTION}`", True),
        (f"# {QUESTION}? By walking the cones, hottest first.", False),  # a comment that answers it
        (f'"""{QUESTION}: the cones are walked hottest first."""', False),  # a docstring that goes on
        ('"how does the kiln schedule get computed"', False),  # not the question whole
    ],
)
def test_a_string_that_is_the_question_quotes_it(text: str, quotes: bool) -> None:
    assert quoting(QUESTION, {"s": text}) == ({"s"} if quotes else set())


def test_a_short_phrase_is_never_a_quote_of_the_question() -> None:
    assert not asks_enough("kiln schedule") and quoting("kiln schedule", {"s": '"kiln schedule"'}) == set()
    assert asks_enough(QUESTION)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("echo")
    repo = root / "kiln"
    (repo / "kiln").mkdir(parents=True)
    (repo / "kiln" / "schedule.py").write_text(
        '"""The firing schedule of a kiln load."""\n\n\n'
        "def firing_schedule(cones):\n"
        '    """Compute the kiln firing schedule: walk the cones, hottest first, holding at each."""\n'
        "    return sorted(cones, reverse=True)\n"
    )
    (repo / "bench").mkdir()
    (repo / "bench" / "queries.py").write_text(
        f'QUERIES = (\n    "{QUESTION}",\n    "where is firing_schedule defined",\n)\n'
    )
    home = root / "home"
    build_generation(
        IndexStore(home),
        [(repo, "kiln")],
        modalities=["text", "structural", "graph", "semantic"],
        settings={"embedder": "hash"},
    )
    return home


def search(home: Path, query: str, **options: str) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, k=5, options=options))


def test_the_query_list_is_left_out_and_named(home: Path) -> None:
    a = search(home, QUESTION)
    assert a.intent == "understand_code"
    assert a.hits and a.hits[0].hit.path == "kiln/schedule.py"
    assert "bench/queries.py" not in {f.hit.path for f in a.hits}
    assert (
        "left out 1 segment(s) that quote the question itself (kiln:bench/queries.py): the question, not its answer"
        in a.notes
    )
    kept = search(home, QUESTION, echo="off")  # for comparisons: as before
    assert "bench/queries.py" in {f.hit.path for f in kept.hits} and not any("left out" in n for n in kept.notes)


def test_other_intents_find_the_string_where_it_is(home: Path) -> None:
    quoted = search(home, f'"{QUESTION}"')  # a quoted string is searched for, wherever it is written
    assert quoted.intent == "exact_match" and [f.hit.path for f in quoted.hits] == ["bench/queries.py"]
