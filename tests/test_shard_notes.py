"""A text listing's notes said once for the index: every shard's counts summed (``shard_notes.merge``), through
the engine over a real index of several shards, and the sums themselves."""

from __future__ import annotations

from pathlib import Path

from inprocess import search_once

from fourfold.api import SearchParams
from fourfold.coordinator.engine import Engine
from fourfold.index.store import IndexStore
from fourfold.plugins.text.shard_notes import (
    FOLDERS_SHOWN_CHARS,
    folders_note,
    merge,
    paths_note,
    stopped_note,
    verified_note,
)


def test_notes_that_differ_only_in_counts_are_summed_in_the_first_ones_place() -> None:
    literal = "literal 'x' [('x')]"
    notes = [
        "text: no literal match here",
        verified_note(literal, 3, 10, 3, 11),
        paths_note("*.go", 0, 7),
        verified_note(literal, 2, 20, 2, 20),
        stopped_note(5, 10, 3, 7, 3),
        verified_note("regex 'y' [('y')]", 1, 5, 1, 5),  # another pattern is another note
        paths_note("*.go", 4, 9),
        stopped_note(4, 8, 3, 6, 3),
        "text: no literal match here",
    ]
    assert merge(notes) == [
        "text: no literal match here",
        "text: literal 'x' [('x')]; 5 of 30 files verified (5 of 31 blocks) in 2 shards",
        "text: paths '*.go'; 4 of 16 files in 2 shards",
        "text: 2 shards stopped after 9 of 18 candidate files, each holding k=3 matching files: at least 13 lines "
        "in 6 files (about 26 lines in 12 files by the share verified); ask for the next page for more",
        "text: regex 'y' [('y')]; 1 of 5 files verified (1 of 5 blocks)",
    ]
    one = [verified_note(literal, 3, 10, 3, 11), stopped_note(5, 10, 3, 7, 3)]
    assert merge(one) == one  # one shard's notes stay as it wrote them
    assert one[1].startswith("text: stopped after 5 of 10 candidate files") and "about 14 lines in 6 files" in one[1]


def test_the_folders_ls_names_are_summed_over_the_shards_and_said_as_many_as_fit() -> None:
    notes = [folders_note("src", {"api": 3, "util": 1}, 0), "other", folders_note("src/", {"api": 2, "zeta": 5}, 1)]
    assert notes[0] == "text: folders in src/: api/ (3 files), util/ (1 file)"
    assert merge(notes) == ["text: folders in src/: api/ (5 files), util/ (1 file), zeta/ (5 files)", "other"]
    assert merge([folders_note(".", {}, 0), folders_note(".", {"a": 1}, 0)]) == ["text: folders in ./: a/ (1 file)"]
    assert merge([folders_note(".", {}, 2), folders_note(".", {}, 0)]) == ["text: no folders in ./"]
    # a folder no shard holds anything in: said so, not "no folders" (which says it has files)
    assert merge([folders_note("nope", {}, 0), folders_note("nope", {}, 0)]) == ["text: nothing indexed in nope/"]
    many = merge([folders_note(".", {f"folder{n:03}": n for n in range(200)}, 0)])
    assert len(many) == 1 and len(many[0]) < FOLDERS_SHOWN_CHARS + 50 and many[0].endswith(", and 136 more folders")


def test_an_answer_over_several_shards_says_each_listing_note_once(multi_home: Path) -> None:
    shards = [d for d in (multi_home / "generations").glob("*/text/*") if (d / "meta.json").exists()]
    assert len(shards) > 1, "the fixture holds several text shards"
    engine = Engine(IndexStore(multi_home))
    for params, said in (
        (SearchParams("*.py", k=20, options={"mode": "paths"}), "text: paths '*.py'; 7 of "),
        (SearchParams("def", k=20, options={"mode": "literal"}), "text: literal 'def' "),
    ):
        notes = [n for n in search_once(engine, params).notes if n.startswith("text:")]
        assert len(notes) == 1 and notes[0].startswith(said), notes
        assert notes[0].endswith(f" in {len(shards)} shards"), notes
