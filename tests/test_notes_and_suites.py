"""Answer notes never echo a long query in full; the example eval suite ships with the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from fourfold.coordinator import cli, evaluate
from fourfold.coordinator.notes import MAX_LISTING_NOTE_CHARS, MAX_NOTE_CHARS, tidy_notes

ROOT = Path(__file__).resolve().parent.parent


def test_a_long_query_is_echoed_short_once() -> None:
    query = ("retry the request on connection errors " * 130)[:5000]
    notes = [
        f"structural: no identifier in {query!r}; name a symbol such as parseConfig",
        f"structural: no identifier in {query!r}; name a symbol such as parseConfig",  # a second shard
        f"text: BM25 over terms {query}",
        "semantic: the query was truncated to the model window of 256 tokens",
    ]
    tidy = tidy_notes(notes, query)
    assert len(tidy) == 3
    assert all(len(n) <= MAX_NOTE_CHARS for n in tidy)
    assert "(5,000 characters)" in tidy[0] and tidy[0].startswith("structural: no identifier in 'retry the request")
    assert tidy[0].endswith("name a symbol such as parseConfig")
    assert tidy[2] == notes[3]
    assert sum(n.count("retry the request") for n in tidy) <= 4


def test_a_short_query_is_echoed_as_it_is() -> None:
    notes = ["structural: no identifier in 'how?'", "structural: no identifier in 'how?'"]
    assert tidy_notes(notes, "how?") == ("structural: no identifier in 'how?'",)


def test_a_listing_whose_answer_is_its_note_keeps_it_whole_up_to_its_own_bound() -> None:
    folders = "text: folders in ./: " + ", ".join(f"pkg/folder{n:03}/ (1 file)" for n in range(60))
    assert len(folders) > MAX_NOTE_CHARS
    assert tidy_notes([folders], "ls", listing=True) == (folders,)
    cut = tidy_notes([folders], "ls")[0]
    assert len(cut) == MAX_NOTE_CHARS and cut.endswith("…")
    assert len(tidy_notes([folders * 5], "ls", listing=True)[0]) == MAX_LISTING_NOTE_CHARS


def test_the_bundled_demo_suite_is_valid_and_points_at_real_files() -> None:
    suites = cli.bundled_suites()
    assert "demo" in suites
    queries = evaluate.load_suite(suites["demo"])
    assert len(queries) >= 10
    for q in queries:
        for item in q.relevant:
            assert item.repo == "fourfold"
            assert (ROOT / item.path).is_file(), f"{q.id}: {item.path} is not in the source tree"
    assert '"*.jsonl"' in (ROOT / "setup.py").read_text()  # shipped as package data


def test_eval_names_the_bundled_suites_when_a_file_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["eval", "no-such-suite.jsonl"]) == 2
    err = capsys.readouterr().err
    assert "suite file not found: 'no-such-suite.jsonl'" in err and "bundled suite's name: demo" in err
    with pytest.raises(SystemExit):
        cli.main(["eval", "--help"])
    assert "demo" in capsys.readouterr().out
