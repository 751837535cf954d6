"""A question about one file, named by its path, is answered from that file (``coordinator/file_subject.py``):
the paths a query writes, how one resolves among the files a caller may see, and the engine's answer over
a real index of three repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inprocess import search_once

from fourfold.api import Answer, FusedHit, SearchParams
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.file_subject import (
    OVERVIEW_NOTE,
    FileIndex,
    Named,
    mentions,
    named,
    overview_order,
    path_glob,
)
from fourfold.coordinator.intent import classify
from fourfold.coordinator.tool_call import read_tool_call
from fourfold.index.store import IndexStore
from fourfold.plugins.types import Hit

FIXTURE = Path(__file__).parent / "fixtures" / "graph_multi"
REPOS = ("alpha", "beta", "gamma")
MODALITIES = ["text", "structural", "graph", "semantic"]
HASH = {"embedder": "hash"}

FILES = {
    "api": ["coordinator/fusion.py", "plugins/ingest/parallel.py", "a/__init__.py", "b/__init__.py", "c/__init__.py"],
    "web": ["coordinator/fusion.py", "src/intent_model.py", "d/__init__.py"],
}


def index(*repos: str) -> tuple[FileIndex, list[str]]:
    return FileIndex("g1", lambda repo: FILES[repo]), list(repos or FILES)


@pytest.mark.parametrize(
    ("query", "written"),
    [
        ("what does coordinator/fusion.py do", ["coordinator/fusion.py"]),
        ("explain `./plugins/ingest/parallel.py`?", ["plugins/ingest/parallel.py"]),
        ("give me an overview of fusion.py.", ["fusion.py"]),
        ('what is "fusion.py:120" for', ["fusion.py"]),
        ("explain coordinator/fusion.py:120-140 please", ["coordinator/fusion.py"]),
        ("what does .github/workflows/ci.yml run", [".github/workflows/ci.yml"]),
        ("compare fusion.py and (rerank.py)", ["fusion.py", "rerank.py"]),
        ("what does the fusion module do", []),  # words, no file
        ("what changed in 1.2.3", []),  # a version
        ("x" * 600 + ".py", []),  # too long to be a path
        ("what does \x00/\u202e.py do", []),
        ("", []),
    ],
)
def test_the_paths_a_query_writes(query: str, written: list[str]) -> None:
    found = mentions(query)
    assert [m.path for m in found] == written
    for m in found:  # the span covers the path as written (``./`` and a line number too)
        assert m.path in query[m.start : m.end]


def test_a_path_resolves_by_its_whole_folders() -> None:
    files, repos = index()
    assert files.resolve("coordinator/fusion.py", ["api"]) == [("api", "coordinator/fusion.py")]
    assert files.resolve("ingest/parallel.py", repos) == [("api", "plugins/ingest/parallel.py")]
    assert files.resolve("/plugins/ingest/parallel.py", repos) == [("api", "plugins/ingest/parallel.py")]
    assert files.resolve("gest/parallel.py", repos) == []  # a suffix of whole folders, not of characters
    assert files.resolve("web/src/intent_model.py", repos) == [("web", "src/intent_model.py")]  # repo first
    assert files.resolve("src.intent_model", repos) == [("web", "src/intent_model.py")]  # a dotted module
    assert files.resolve("fusion.py", repos) == [("api", "coordinator/fusion.py"), ("web", "coordinator/fusion.py")]
    for nothing in ("rerank.py", "", "/", "coordinator", "\x00", "a" * 10_000, "../fusion.py", "[*].py"):
        assert files.resolve(nothing, repos) == []
    # an absolute path is a checkout's: the indexed path that ends it, the longest (a/__init__.py, not another)
    assert files.resolve("/home/me/work/web/src/intent_model.py", repos) == [("web", "src/intent_model.py")]
    assert files.resolve("/srv/checkout/a/__init__.py", repos) == [("api", "a/__init__.py")]
    assert files.resolve("~/api/plugins/ingest/parallel.py", repos) == [("api", "plugins/ingest/parallel.py")]
    assert files.resolve("/srv/other/parallel.py", repos) == []  # no indexed path ends it at a folder
    assert files.resolve("elsewhere/intent_model.py", repos) == []  # a relative path is read as written


def test_an_absolute_folder_is_the_indexed_folder_or_file_that_ends_it() -> None:
    files, repos = index()
    assert files.relative("/home/me/api/plugins/ingest", repos) == "plugins/ingest"  # the longest ending
    assert files.relative("/home/me/api/plugins/ingest/", repos) == "plugins/ingest"
    assert files.relative("~/web/src/intent_model.py", repos) == "src/intent_model.py"
    assert files.relative("/srv/web/src", ["web"]) == "src" and files.relative("/srv/web/src", ["api"]) is None
    for nothing in ("/", "/nowhere/at/all", "/x/../plugins", "/" + "a/" * 600):
        assert files.relative(nothing, repos) is None


def test_a_file_is_asked_alone_only_by_a_glob_that_selects_it_alone() -> None:
    assert path_glob("coordinator/fusion.py") == "coordinator/fusion.py"
    for odd in ("a/x[1].py", "a/*.py", "a/{b,c}.py", "a/why?.md"):
        assert path_glob(odd) is None


def test_a_question_names_one_file_and_what_to_ask_of_it() -> None:
    files, repos = index("api")

    def resolve(path: str) -> list[tuple[str, str]]:
        return files.resolve(path, repos)

    assert named("what does coordinator/fusion.py do", None, resolve) == Named(
        (("api", "coordinator/fusion.py"),), "coordinator/fusion.py", "fusion", whole=True
    )
    asked = named("explain how retries work in plugins/ingest/parallel.py", None, resolve)
    assert asked is not None and asked.ask == "explain how retries work" and not asked.whole
    assert named("give me an overview of a/__init__.py", None, resolve) == Named(
        (("api", "a/__init__.py"),),
        "a/__init__.py",
        "a init",  # a generic name says its folder's
        whole=True,
    )
    # two files, or none: nothing named; a word that names no file is left as it is
    assert named("compare fusion.py and parallel.py", None, resolve) is None
    assert named("what does rerank.py do", None, resolve) is None
    also = named("how does fusion.py use Session.send", None, resolve)
    assert also is not None and also.ask == "how does use Session.send"


def test_an_ambiguous_path_names_its_candidates() -> None:
    files, repos = index()
    ambiguous = named("what does __init__.py do", None, lambda path: files.resolve(path, repos))
    assert ambiguous is not None and len(ambiguous.files) == 4
    assert ambiguous.ambiguity() == (
        "'__init__.py' fits several files (api:a/__init__.py, api:b/__init__.py, api:c/__init__.py and 1 more): "
        "give more of its path to ask of one"
    )


@pytest.mark.parametrize(
    ("query", "path", "ask"),
    [
        ('{"tool": "describe_module", "path": "coordinator/fusion.py"}', "coordinator/fusion.py", "fusion"),
        ('explain_file(path="fusion.py")', "fusion.py", "fusion"),
        ('{"name": "summarize_file", "arguments": {"file": "fusion.py", "query": "weights"}}', "fusion.py", "weights"),
        ('explain(module="coordinator.fusion")', "coordinator.fusion", "fusion"),
        ("mcp call code.explain --file-path ingest/parallel.py", "ingest/parallel.py", "parallel"),
    ],
)
def test_a_tool_calls_path_names_the_file(query: str, path: str, ask: str) -> None:
    files, repos = index("api")
    call = read_tool_call(query)
    assert call is not None and call.path == path
    found = named(call.subject, call, lambda p: files.resolve(p, repos))
    assert found is not None and len(found.files) == 1 and found.ask == ask
    assert found.whole == (ask != "weights")  # a call that asks something of the file is no overview


def _fused(symbol: str | None, kind: str | None, start: int) -> FusedHit:
    hit = Hit(f"s{start}", "r", "a.py", start, start + 3, 1.0, symbol=symbol, kind=kind)
    return FusedHit(hit, 1.0)


@pytest.mark.parametrize(
    ("opening", "first"),
    [
        ('"""What this module is for."""\nimport os', True),
        ("// Package shapes draws.\npackage shapes", True),
        ("# Copyright 2024 Someone. Licensed under the MIT License.\nimport os", False),  # a licence is no account
        ("#!/usr/bin/env python\nimport os", False),
        ("import os\nimport sys", False),  # imports alone say nothing of the file
    ],
)
def test_an_overview_puts_the_files_own_account_first(opening: str, first: bool) -> None:
    ranked = [
        _fused("__all__", "variable", 5),
        _fused("Badge.pin", "method", 44),
        _fused("_helper", "function", 30),
        _fused("run", "function", 20),
        _fused(None, None, 1),
        _fused("LIMIT", "constant", 9),
        _fused("Badge", "class", 40),
        _fused(None, None, 60),  # a later top-level stretch is not the opening
    ]
    order = [(ranked[i].hit.symbol, ranked[i].hit.start_line) for i in overview_order(ranked, lambda f: opening)]
    values = [("__all__", 5), *([] if first else [(None, 1)]), ("LIMIT", 9), (None, 60)]
    inner = [("Badge.pin", 44), ("_helper", 30)]
    assert order == [*([(None, 1)] if first else []), ("run", 20), ("Badge", 40), *inner, *values]


# -- the engine, over a real index --------------------------------------------------------------------


@pytest.fixture(scope="module")
def home(multi_home: Path) -> Path:
    return multi_home


def search(home: Path, p: SearchParams, visible: frozenset[str] | None = None) -> Answer:
    return search_once(Engine(IndexStore(home)), p, visible)


def files_of(a: Answer) -> set[tuple[str, str]]:
    return {(f.hit.repo, f.hit.path) for f in a.hits}


def asked_of(a: Answer) -> list[str]:
    return [n for n in a.notes if n.startswith("asked of")]


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("what does beta/service.py do", "query"),
        ("give me an overview of service.py", "query"),
        ('{"tool": "describe_module", "path": "beta/service.py"}', "tool call"),
        ('explain_file(path="service.py")', "tool call"),
        # an outline of the symbols it defines: Serena's, Cline's, a language server's
        ('get_symbols_overview(relative_path="beta/service.py")', "tool call"),
        ('list_code_definition_names(path="beta/service.py")', "tool call"),
        (
            '{"method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": "file:///w/beta/service.py"}}}',
            "tool call",
        ),
    ],
)
def test_a_question_about_a_file_is_answered_from_it(home: Path, query: str, names: str) -> None:
    a = search(home, SearchParams(query, k=10))
    assert a.intent == "understand_code"
    assert files_of(a) == {("beta", "beta/service.py")} and len(a.hits) > 1  # its segments, several
    assert asked_of(a) == [f"asked of beta/service.py (beta), the file the {names} names: 'service'"]
    # an overview: the module docstring first, and how sure the reading of the question is, not 1.0
    assert a.notes[1] == OVERVIEW_NOTE and (a.hits[0].hit.symbol, a.hits[0].hit.start_line) == (None, 1)
    assert a.confidence == (0.85 if names == "tool call" else classify(query).confidence) < 1.0


def test_what_else_it_asks_ranks_the_files_segments(home: Path) -> None:
    a = search(home, SearchParams("how does gamma/app.py run the badge", k=5))
    assert files_of(a) == {("gamma", "gamma/app.py")}
    assert a.hits[0].hit.symbol in ("run", "Badge")
    assert asked_of(a) == ["asked of gamma/app.py (gamma), the file the query names: 'how does run the badge'"]
    assert OVERVIEW_NOTE not in a.notes  # ranked by what it asks, not as an overview


def test_a_hidden_repositorys_file_is_never_used(home: Path) -> None:
    mine = frozenset({"alpha", "gamma"})
    hidden = search(home, SearchParams("what does beta/service.py do", k=10), mine)
    assert not asked_of(hidden) and not any("fits several" in n for n in hidden.notes)
    assert {repo for repo, _ in files_of(hidden)} <= mine
    # __init__.py fits one file per repository: ambiguous among those the caller sees, and only those
    seen = search(home, SearchParams("what does __init__.py do", k=10), mine)
    assert seen.notes[-1] == (
        "'__init__.py' fits several files (alpha:alpha/__init__.py, gamma:gamma/__init__.py): "
        "give more of its path to ask of one"
    )
    one = search(home, SearchParams("what does __init__.py do", k=10), frozenset({"alpha"}))
    assert files_of(one) == {("alpha", "alpha/__init__.py")} and asked_of(one)


def test_other_questions_and_the_callers_own_scope_are_left_as_they_were(home: Path) -> None:
    callers = search(home, SearchParams("who calls normalize in beta/service.py", k=10))
    assert callers.intent == "find_references" and not asked_of(callers)
    call = search(home, SearchParams('{"tool": "find_callers", "symbol": "normalize", "file": "beta/service.py"}'))
    assert call.intent == "find_references" and not asked_of(call)
    assert call.notes[0] == "read as a tool call: find_callers asks find_references of 'normalize'"
    forced = search(home, SearchParams("beta/service.py", intent="find_definition", k=10))
    assert not asked_of(forced)
    globbed = search(home, SearchParams("what does beta/service.py do", path_glob="gamma/*", k=10))
    assert not asked_of(globbed) and {path for _, path in files_of(globbed)} <= {"gamma/app.py", "gamma/__init__.py"}
    narrowed = search(home, SearchParams("what does service.py do", repos=("alpha",), k=10))
    assert not asked_of(narrowed) and {repo for repo, _ in files_of(narrowed)} <= {"alpha"}
    nothing = search(home, SearchParams("what does nowhere/service.py do", k=10))
    assert not asked_of(nothing) and not any("fits several" in n for n in nothing.notes)


@pytest.mark.parametrize(
    "query",
    [
        "what does " + "a/" * 4_000 + "x.py do",  # a path far too long
        "explain " + " ".join(f"d{i}/f{i}.py" for i in range(500)),
        "what does \x00/\u202e.py do",
        '{"tool": "describe_module", "path": "' + "[*?]{" * 300 + '"}',
        '{"tool": "describe_module", "path": "../../etc/passwd"}',
        "explain ./ .. / ... :: a/b/:12",
    ],
)
def test_bad_input_never_raises(home: Path, query: str) -> None:
    a = search(home, SearchParams(query, k=5))
    assert not asked_of(a)


def test_a_file_with_nothing_to_say_leaves_the_usual_answer(home: Path) -> None:
    """Asked of the text modality alone (the caller's choice, kept), a word the file does not hold finds
    nothing there: the answer is the usual one, and says so."""
    a = search(home, SearchParams("explain what tock returns in beta/service.py", modalities=("text",), k=10))
    assert not asked_of(a) and a.notes[0] == (
        "nothing in beta/service.py (beta), the file the query names, answers 'explain what tock returns': "
        "searched every file"
    )
    assert ("gamma", "gamma/app.py") in files_of(a)


def test_the_cli_answers_from_the_file(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", '{"tool": "describe_module", "path": "alpha/core.py"}']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hits"] and {h["path"] for h in out["hits"]} == {"alpha/core.py"}
    assert out["notes"][0] == "asked of alpha/core.py (alpha), the file the tool call names: 'core'"


@pytest.mark.parametrize(
    "query",
    [  # Cline's tool lists the definitions of the files at the top of a folder; an explain call of a folder the same
        'list_code_definition_names(path="alpha")',
        'list_code_definition_names(path="/home/me/checkouts/alpha/alpha/")',
        'explain_code(path="alpha/")',
    ],
)
def test_an_overview_call_of_a_folder_is_each_files_overview(home: Path, query: str) -> None:
    a = search(home, SearchParams(query, k=12))
    paths = [f.hit.path for f in a.hits]
    assert a.intent == "understand_code" and set(paths) == {"alpha/__init__.py", "alpha/core.py", "alpha/shapes.py"}
    assert paths == sorted(paths)  # each file's overview in turn, in path order
    assert {f.hit.repo for f in a.hits} == {"alpha"} and a.notes[0].endswith("each file directly in alpha (alpha)")
    assert {f.hit.symbol for f in a.hits} >= {"fmt", "parse", "Shape"}  # the definitions each file holds
