"""Filters written in the query (``repo:``, ``file:``, ``lang:``, ``-file:``, ``sym:``, ``content:``…), read
as Zoekt, Sourcegraph and GitHub read them (``coordinator/query_filters.py``): the reading, the errors, and
the answers through the engine, the CLI, the Python client over gRPC and MCP, over a real index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_benchmark
from inprocess import coordinator_in_process, mcp_search, search_once

from fourfold.api import Answer, SearchParams
from fourfold.client import Client
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.query_filters import FILTERS_OPTION, file_glob, language, read
from fourfold.errors import InvalidInput, InvalidQuery, PermissionDenied, UnknownRepository
from fourfold.index.store import IndexStore
from fourfold.plugins.types import EXCLUDE_OPTION

FIXTURE = Path(__file__).parent / "fixtures" / "graph_multi"
REPOS = ("alpha", "beta", "gamma")


# -- reading ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "rest", "written"),
    [
        ("repo:click who calls make_context", "who calls make_context", ("repo:click",)),
        ("lang:go -file:_test\\.go$ who calls Render", "who calls Render", ("lang:go", "-file:_test\\.go$")),
        ("who calls Render lang:go", "who calls Render", ("lang:go",)),
        ('file:"my dir/x.py" parse', "parse", ('file:"my dir/x.py"',)),
        ('content:"def invoke"', "", ('content:"def invoke"',)),
        ('a  "b  c" f:x', 'a  "b  c"', ("f:x",)),  # the words between keep their spacing
        ("refs:retry path:src/api/retry.go", "refs:retry", ("path:src/api/retry.go",)),  # GitHub's path:
        ("Lang:Go patternType:literal x", "x", ("Lang:Go", "patternType:literal")),
    ],
)
def test_the_filters_are_read_and_the_rest_is_the_search(query: str, rest: str, written: tuple[str, ...]) -> None:
    f = read(query)
    assert f is not None and (f.rest, f.written) == (rest, written)


@pytest.mark.parametrize(
    "query",
    [
        "where is parseConfig defined",
        '"file:core.py" in a message',  # inside quotes: the text to find
        "find `repo:x` in the docs",
        "locate the declaration of retry and return file:line",  # asks for locations
        "error at server.go:12 file:main.go:33",  # a location
        "std::string s",
        "Context::EndpointRegistry",  # a qualified name
        "refs:retry",  # not a filter fourfold knows: a word
        "-sym:x",  # sym: does not negate
        "Traceback (most recent call last):\n  File x, line 1\nrepo:x",  # a paste of several lines
    ],
)
def test_words_that_are_no_filters_are_left_alone(query: str) -> None:
    assert read(query) is None


@pytest.mark.parametrize(
    ("value", "glob"),
    [
        ("core.py", "**core.py**"),
        ("src/api/", "**src/api/**"),
        ("^src/", "src/**"),
        ("_test\\.go$", "**_test.go"),
        ("^cmd/.*/main\\.go$", "cmd/**/main.go"),
        ("*.go", "*.go"),  # a glob as --path takes it
        ("src/**/*.ts", "src/**/*.ts"),
        ("a{b}", "**a[{]b[}]**"),  # a brace written in a fragment is a brace
    ],
)
def test_a_file_value_is_a_fragment_anchors_or_a_glob(value: str, glob: str) -> None:
    assert file_glob(value) == glob


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("(a|b)", "group or alternation, which a path filter does not take"),
        (".*", "selects every path"),
    ],
)
def test_a_file_value_no_path_filter_can_take_says_why(value: str, says: str) -> None:
    with pytest.raises(InvalidQuery, match=says):
        file_glob(value)


def test_a_language_is_named_as_users_name_it() -> None:
    assert language("golang") == ("go",) and language("TS") == ("typescript", "tsx") and language("c++") == ("cpp",)
    assert language("python") == ("python",)
    with pytest.raises(InvalidQuery, match=r"lang:cobol is no language fourfold reads; write one of: bash, c, "):
        language("cobol")


# -- through the engine, over a real index ----------------------------------------------------------------


@pytest.fixture(scope="module")
def home(multi_home: Path) -> Path:
    return multi_home


def ask(home: Path, query: str, visible: frozenset[str] | None = None, **kw: object) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, k=20, **kw), visible)  # type: ignore[arg-type]


def places(a: Answer) -> set[tuple[str, str]]:
    return {(f.hit.path, f.hit.symbol or "") for f in a.hits}


# the callers of fmt, the best of each file (alpha/core.py's report calls it too)
NORMALIZE, HELPER = ("beta/service.py", "normalize"), ("gamma/app.py", "helper")
TICK, DESCRIBE = ("alpha/core.py", "tick"), ("alpha/shapes.py", "describe")


def test_the_callers_of_fmt_unfiltered(home: Path) -> None:
    assert places(ask(home, "who calls fmt")) == {NORMALIZE, HELPER, TICK, DESCRIBE}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("repo:beta who calls fmt", {NORMALIZE}),
        ("who calls fmt -repo:beta -repo:gamma", {TICK, DESCRIBE}),
        ("r:^(alpha|gamma)$ who calls fmt", {TICK, DESCRIBE, HELPER}),
        ("file:app.py who calls fmt", {HELPER}),
        ("-file:core who calls fmt", {NORMALIZE, HELPER, DESCRIBE}),
        ("-f:^alpha/ -f:^gamma/ who calls fmt", {NORMALIZE}),
        ("lang:python ext:py who calls fmt", {NORMALIZE, HELPER, TICK, DESCRIBE}),
        ("lang:go who calls fmt", set()),
    ],
)
def test_the_filters_narrow_the_answer(home: Path, query: str, expected: set[tuple[str, str]]) -> None:
    a = ask(home, query)
    assert places(a) == expected
    assert a.notes[0].startswith("read the query's filters ") and a.notes[0].endswith("; searched 'who calls fmt'")


def test_a_filter_answers_as_the_parameter_does(home: Path) -> None:
    written, given = ask(home, "repo:beta -file:nothing helper"), ask(home, "helper", repos=("beta",))
    assert [f.hit.segment_id for f in written.hits] == [f.hit.segment_id for f in given.hits] != []
    assert (written.intent, written.fusion_strategy) == (given.intent, given.fusion_strategy)


def test_sym_asks_for_the_definition_and_content_for_the_lines(home: Path) -> None:
    sym = ask(home, "sym:helper please")
    assert (sym.intent, places(sym)) == ("find_definition", {("beta/service.py", "helper"), ("gamma/app.py", "helper")})
    assert sym.notes[1] == "'please' left out: sym:helper is the whole search"
    content = ask(home, 'content:"return fmt(" repo:gamma')
    assert content.intent == "exact_match" and {f.hit.path for f in content.hits} == {"gamma/app.py"}
    quoted = ask(home, 'patternType:literal "fmt("gamma")" context:global')  # Sourcegraph's; the quotes hold quotes
    assert quoted.notes[0].endswith("""searched 'fmt("gamma")'""") and {f.hit.path for f in quoted.hits} == {
        "gamma/app.py"
    }
    assert ask(home, 'content:"BETA" case:no').total_matches > 0
    exact = ask(home, 'content:"BETA" case:yes')  # no line holds it: fusion's candidates, and the answer says so
    assert exact.total_matches == 0 and "direct path (text) found nothing: answered by fusion" in exact.notes


def test_filters_off_searches_the_words_as_written(home: Path) -> None:
    a = ask(home, "repo:nosuch helper", options={FILTERS_OPTION: "off"})
    assert not any(n.startswith("read the query's filters") for n in a.notes)


@pytest.mark.parametrize(
    ("query", "error", "says"),
    [
        ("repo:nosuch helper", UnknownRepository, "repo:nosuch matches no indexed repository; indexed: alpha, beta"),
        ("rev:release/9 helper", UnknownRepository, "rev:release/9 matches no indexed repository at that revision"),
        ("repo:beta -repo:beta helper", InvalidQuery, "leave no repository to search"),
        ("lang:cobol helper", InvalidQuery, "lang:cobol is no language fourfold reads"),
        ("lang:go -lang:golang helper", InvalidQuery, "leave none to search"),
        ("file:a file:b helper", InvalidQuery, "the search filters paths 2 ways"),
        (
            "case:yes rev:main",
            InvalidQuery,
            r"the query holds only filters \(case:yes rev:main\): add what to search for",
        ),
        ("case:maybe x", InvalidQuery, "case:maybe is no setting"),
        ("sym:a content:b", InvalidQuery, "each is the whole search: give one"),
        ("context:mine x", InvalidQuery, "fourfold does not keep: name the repositories with repo:"),
        ("patterntype:fuzzy x", InvalidQuery, "patterntype:fuzzy is no pattern type"),
        ("ext:* x", InvalidQuery, "give an extension as a name"),
    ],
)
def test_a_filter_that_cannot_be_read_says_what_to_write(
    home: Path, query: str, error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says):
        ask(home, query)


def test_a_restricted_caller_is_told_only_of_its_own_repositories(home: Path) -> None:
    with pytest.raises(PermissionDenied, match=r"repo:beta matches no repository you may search; yours: alpha$"):
        ask(home, "repo:beta helper", frozenset({"alpha"}))
    mine = ask(home, "repo:a who calls fmt", frozenset({"alpha", "gamma"}))  # "a" is in alpha and gamma
    assert {f.hit.repo for f in mine.hits} == {"alpha", "gamma"}


def test_a_path_filter_and_the_path_parameter_are_one_filter_and_left_out_paths_add_up(home: Path) -> None:
    with pytest.raises(InvalidQuery, match=r"filters paths 2 ways \(app.py, gamma/\*\)"):
        ask(home, "file:app.py helper", path_glob="gamma/*")
    a = ask(home, "-file:gamma who calls fmt", options={EXCLUDE_OPTION: "**/core.py"})
    assert places(a) == {NORMALIZE, DESCRIBE}


# -- every surface -------------------------------------------------------------------------------------------


def test_the_cli_the_client_and_mcp_read_them(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "repo:beta who calls fmt"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {h["path"] for h in out["hits"]} == {"beta/service.py"} and out["notes"][0].startswith("read the query's")
    assert main(["search", "--in-process", "repo:nosuch helper"]) != 0
    err = capsys.readouterr().err
    assert "repo:nosuch matches no indexed repository" in err and "Traceback" not in err
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            a = client.search("-file:core who calls fmt")
            assert {f.hit.path for f in a.hits} == {"beta/service.py", "gamma/app.py", "alpha/shapes.py"}
            with pytest.raises(InvalidInput, match="lang:cobol is no language"):
                client.search("lang:cobol helper")
        text = mcp_search(address, "file:app.py who calls fmt", 10)
        assert "gamma/app.py" in text and "alpha/core.py" not in text and "read the query's filters" in text


def test_the_benchmark_asks_each_way_and_judges_it(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benchmarks"))
    bench = load_benchmark("query_filters")
    row = {"query": "who calls fmt", "intent": "find_references", "match": "file"}
    suite = tmp_path / "beta.jsonl"  # asked of the repository beta
    rows = [
        {**row, "id": "beta-1", "relevant": [{"repo": "beta", "path": "beta/service.py"}]},
        {
            "id": "beta-2",
            "query": '"return fmt(text)"',
            "intent": "exact_match",
            "match": "line",
            "relevant": [{"repo": "beta", "path": "beta/service.py", "line": 8}],
        },
        {
            "id": "beta-3",
            "query": "def helper",
            "intent": "find_definition",
            "match": "line",
            "relevant": [{"repo": "beta", "path": "beta/service.py", "line": 22, "end_line": 23}],
        },
    ]
    suite.write_text("\n".join(json.dumps(r) for r in rows))
    assert bench.main(["--home", str(home), str(suite), "--out", str(tmp_path / "out.json")]) == 0
    summary = json.loads((tmp_path / "out.json").read_text())["summary"]
    assert set(summary) == {f"{lang}/{way}" for lang in ("python", "all") for way in bench.WAYS}
    assert summary["python/repo: filter"]["s@1"] == summary["python/scoped"]["s@1"] == 1.0
    assert summary["python/repo: filter"]["outside"] == 0.0 < summary["python/unscoped"]["outside"]
    assert summary["python/--path NAME"]["s@1"] == 1.0 and summary["python/--path NAME"]["outside"] == 0.0
    for way in ("rg -F command", "grep -rn DIR command", "rg def command"):  # each row its own way: n 1
        assert (summary[f"python/{way}"]["n"], summary[f"python/{way}"]["s@1"]) == (1, 1.0)
    assert "repo: filter" in capsys.readouterr().out
