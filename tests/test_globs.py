"""One path glob selects the same files whichever modality answers (``fourfold.plugins.globs``).

Each modality read ``path_glob`` its own way until 2026-12-06: text as a ripgrep glob, structural
with ``fnmatch`` on the path or the file name, graph and semantic with ``fnmatch`` on the path alone,
and the host again with ``fnmatch`` on the path, so ``--path core.py`` answered nothing at all (text
and structural found the file by its name, the host dropped it). Every shard of every modality is
asked here directly (no host filter after it), over a real index with each modality built.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from inprocess import search_once

from fourfold.api import SearchParams
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.searcher import LocalSearcher
from fourfold.errors import InvalidQuery
from fourfold.index.store import IndexStore
from fourfold.plugins.globs import path_filter
from fourfold.plugins.types import EXCLUDE_OPTION, ModalityQuery

FIXTURE = Path(__file__).parent / "fixtures" / "graph_multi"
REPOS = ("alpha", "beta", "gamma")
# a question each modality answers with several files when nothing filters them
ASKED = {
    "text": "helper normalize fmt tock",
    "structural": "helper",
    "graph": "who calls fmt",
    "semantic": "helper normalize",
}


@pytest.mark.parametrize(
    ("glob", "left_out", "passes", "fails"),
    [
        ("core.py", "", ["alpha/core.py", "core.py"], ["alpha/core.pyc", "alpha/score.py"]),
        ("*.py", "", ["a.py", "alpha/b/c.py"], ["a.pyi"]),
        ("alpha/*.py", "", ["alpha/core.py"], ["alpha/sub/core.py", "beta/alpha/core.py"]),
        ("alpha/**", "", ["alpha/core.py", "alpha/sub/x.go"], ["beta/alpha.py"]),
        ("*.{go,py}", "", ["x.go", "a/y.py"], ["z.js"]),
        ("", "**test**", ["src/core.py"], ["tests/test_core.py", "src/core_test.go"]),
        ("*.py", "**/vendor/**\n**_pb2.py", ["src/core.py"], ["src/vendor/x.py", "api/a_pb2.py", "x.go"]),
    ],
)
def test_a_glob_and_its_left_out_globs_select_paths_as_ripgrep_does(
    glob: str, left_out: str, passes: list[str], fails: list[str]
) -> None:
    accept = path_filter(ModalityQuery("x", path_glob=glob or None, options={EXCLUDE_OPTION: left_out}))
    assert accept is not None
    assert [p for p in passes if not accept(p)] == [] and [p for p in fails if accept(p)] == []


def test_no_filter_is_none_and_a_malformed_glob_says_so() -> None:
    assert path_filter(ModalityQuery("x")) is None
    assert path_filter(ModalityQuery("x", options={EXCLUDE_OPTION: "\n"})) is None
    with pytest.raises(InvalidQuery, match=r"path glob 'src/\[a': '\[' at position 4 is never closed"):
        path_filter(ModalityQuery("x", options={EXCLUDE_OPTION: "src/[a"}))


@pytest.fixture(scope="module")
def home(multi_home: Path) -> Path:
    return multi_home


def shard_paths(home: Path, modality: str, query: ModalityQuery) -> set[str]:
    """The paths every shard of ``modality`` answers ``query`` with, asked directly."""

    async def ask() -> set[str]:
        searcher = LocalSearcher(IndexStore(home))
        await searcher.refresh()
        (generation,) = searcher.generations()
        keys = [key for key in searcher.available(generation) if key[0] == modality]
        answers = await searcher.search(generation, keys, query, time.monotonic() + 30)
        await searcher.close()
        assert keys and all(a.result is not None for a in answers)
        return {h.path for a in answers if a.result is not None for h in a.result.hits}

    return asyncio.run(ask())


@pytest.mark.parametrize("modality", sorted(ASKED))
@pytest.mark.parametrize(
    ("glob", "left_out"),
    [("core.py", ""), ("*.py", "**/app.py"), ("beta/*", ""), ("", "**core**"), ("{alpha,gamma}/**", "**/__init__.py")],
)
def test_every_modality_answers_from_the_files_the_glob_selects(
    home: Path, modality: str, glob: str, left_out: str
) -> None:
    everything = shard_paths(home, modality, ModalityQuery(ASKED[modality], k=50))
    filtered = ModalityQuery(ASKED[modality], k=50, path_glob=glob or None, options={EXCLUDE_OPTION: left_out})
    accept = path_filter(filtered)
    assert accept is not None and len(everything) > 1
    assert shard_paths(home, modality, filtered) == {p for p in everything if accept(p)}


def test_a_glob_without_a_slash_names_a_file_in_any_folder(home: Path) -> None:
    a = search_once(Engine(IndexStore(home)), SearchParams("fmt", k=10, path_glob="core.py"))
    assert a.hits and {f.hit.path for f in a.hits} == {"alpha/core.py"}
