"""Files listed by their paths (``mode=paths``): the text modality's shards, a query of filters alone
(``file:core.py``, ``lang:python repo:beta``), Sourcegraph's ``type:path``, and the file commands an agent
writes (``find . -name '*.py'``, ``fd core``, ``git ls-files``, ``rg --files``, ``find … | xargs grep X``),
through the engine, the CLI, the Python client over gRPC and MCP, over a real index."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, index_files, mcp_search, search_once

from fourfold.api import Answer, SearchParams, totals_text
from fourfold.client import Client
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.search_command import path_glob, read
from fourfold.errors import InvalidQuery
from fourfold.index.store import IndexStore
from fourfold.plugins.globs import compile_glob
from fourfold.plugins.text.shard import TextShard
from fourfold.plugins.types import EXCLUDE_OPTION, LINE_FILTERS_OPTION, LineFilter, ModalityQuery

FIXTURE = Path(__file__).parent / "fixtures" / "graph_multi"
EVERY = {
    "alpha/__init__.py",
    "alpha/core.py",
    "alpha/shapes.py",
    "beta/__init__.py",
    "beta/service.py",
    "gamma/__init__.py",
    "gamma/app.py",
}


@pytest.fixture(scope="module")
def home(multi_home: Path) -> Path:
    return multi_home


def ask(home: Path, query: str, **kw: object) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, **{"k": 20, **kw}))  # type: ignore[arg-type]


def files(a: Answer) -> set[str]:
    return {f.hit.path for f in a.hits}


def listed(home: Path, query: str, **kw: object) -> set[str]:
    return files(ask(home, query, options={"mode": "paths"}, **kw))


# -- one shard ------------------------------------------------------------------------------------


def test_a_shard_lists_the_paths_a_fragment_or_a_glob_selects(home: Path) -> None:
    shards = [TextShard(d) for d in sorted((home / "generations").glob("*/text/*")) if (d / "meta.json").exists()]
    assert shards, "the fixture's text shards"

    def paths(text: str, **kw: object) -> list[str]:
        q = ModalityQuery(text=text, k=20, options={"mode": "paths", **kw.pop("options", {})}, **kw)  # type: ignore[arg-type]
        return [h.path for s in shards for h in s.search(q).hits]

    assert sorted(paths("core")) == ["alpha/core.py"]
    assert sorted(paths("*.py")) == sorted(EVERY)  # a glob without "/" names a file in any folder
    assert sorted(paths("beta/")) == ["beta/__init__.py", "beta/service.py"]
    assert paths("CORE") == ["alpha/core.py"] and paths("CORE", case_sensitive=True) == []
    assert sorted(paths("*", path_glob="gamma/**")) == ["gamma/__init__.py", "gamma/app.py"]
    assert "alpha/core.py" not in paths("*", options={EXCLUDE_OPTION: "core.py"})
    hits = [h for s in shards for h in s.search(ModalityQuery(text="a", k=20, options={"mode": "paths"})).hits]
    named = {h.path: h.score for h in hits}  # a file whose name holds the fragment before one whose folder does
    assert named["gamma/app.py"] > named["alpha/core.py"]
    assert all(h.match_lines == () and h.start_line >= 1 for h in hits)
    with pytest.raises(InvalidQuery, match="path search is empty"):
        shards[0].search(ModalityQuery(text=" ", k=5, options={"mode": "paths"}))


# -- through the engine ---------------------------------------------------------------------------


def test_a_path_listing_counts_files_and_pages_through_them(home: Path) -> None:
    a = ask(home, "*.py", options={"mode": "paths"}, k=3)
    assert (a.intent, a.fusion_strategy, a.total_files, a.total_matches) == ("exact_match", "direct", 7, 0)
    assert len(a.hits) == 3 and a.cursor and not a.complete
    rest = search_once(Engine(IndexStore(home)), SearchParams("*.py", k=20, options={"mode": "paths"}, cursor=a.cursor))
    assert files(a) | files(rest) == EVERY and not files(a) & files(rest) and rest.complete
    assert totals_text(a.total_matches, a.total_files, a.total_exact) == "7 matching files"
    none = ask(home, "no_such_file", options={"mode": "paths"})  # nothing found is the answer: no fusion
    assert none.hits == () and not any("answered by fusion" in n for n in none.notes)


def test_a_query_of_filters_alone_lists_the_files_they_allow(home: Path) -> None:
    a = ask(home, "file:core.py")
    assert files(a) == {"alpha/core.py"} and a.complete
    assert a.notes[0] == "read the query's filters file:core.py; listed the files they allow"
    assert (
        ask(home, "type:path app").notes[0]
        == "read the query's filters type:path; listed the files whose path holds 'app'"
    )
    assert files(ask(home, "repo:beta lang:python")) == {"beta/__init__.py", "beta/service.py"}
    assert files(ask(home, "ext:py -file:__init__")) == {
        "alpha/core.py",
        "alpha/shapes.py",
        "beta/service.py",
        "gamma/app.py",
    }
    assert files(ask(home, "type:path app")) == {"gamma/app.py"}
    with pytest.raises(InvalidQuery, match="only filters"):
        ask(home, "case:yes")


def test_sourcegraph_result_types_counts_and_timeouts(home: Path) -> None:
    for query in ("type:symbol helper", "select:symbol.function helper"):
        sym = ask(home, query)
        assert sym.intent == "find_definition" and sym.hits
    assert files(ask(home, "select:file fmt")) == files(ask(home, "fmt"))  # the usual answer: one file a hit
    assert len(ask(home, "count:2 ext:py").hits) == 2
    assert len(ask(home, "count:all ext:py").hits) == 7
    assert ask(home, "timeout:2s ext:py").total_files == 7
    with pytest.raises(InvalidQuery, match="count:00 asks for no results"):
        ask(home, "count:00 ext:py")
    with pytest.raises(InvalidQuery, match="timeout:0s leaves no time to search"):
        ask(home, "timeout:0s ext:py")
    for query, says in (
        ("type:commit fix", "not repository names, commits or diffs"),
        ("type:path helper content:x", "give one"),
    ):
        with pytest.raises(InvalidQuery, match=says):
            ask(home, query)
    marked = ask(home, "fork:no helper")
    assert any(n.startswith("fork:no: no fork, archive or visibility marks") for n in marked.notes)
    as_words = ask(home, "type:int helper")  # a value of no filter's shape stays a word of code
    assert not any(n.startswith("read the query's filters") for n in as_words.notes)


# -- file commands --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "tool", "glob", "exclude"),
    [
        ("find . -name '*.go'", "find", "*.go", ()),
        ("find src -type f -name '*_test.go'", "find", "{src/**/*_test.go,src}", ()),
        ("find . -path ./vendor -prune -o -name '*.go' -print", "find", "*.go", ("vendor", "vendor/**")),
        ("find . -name '*.py' -o -name '*.pyi'", "find", "*.{py,pyi}", ()),
        ("find . -path '*/internal/*' -name '*.go'", "find", "**/internal/**/*.go", ()),
        ("find . -not -path '*/node_modules/*' -name '*.ts'", "find", "*.ts", ("**/node_modules/**",)),
        ("find . -iname 'readme*'", "find", "[rR][eE][aA][dD][mM][eE]*", ()),  # either case
        ("find . -ipath '*/Docs/*'", "find", "**/[dD][oO][cC][sS]/**", ()),
        ("fd config", "fd", "*[cC][oO][nN][fF][iI][gG]*", ()),  # fd's smart case: either, lower case written
        ("fd Config", "fd", "*Config*", ()),
        ("fd -s config", "fd", "*config*", ()),
        ("fd -i Config", "fd", "*[cC][oO][nN][fF][iI][gG]*", ()),
        ("fd -e py Test", "fd", "*Test*.[pP][yY]", ()),  # an extension in either case, as fd matches it
        ("git ls-files '*.toml'", "git ls-files", "*.toml", ()),
        ("git ls-files '*.py' ':!tests'", "git ls-files", "*.py", ("tests", "tests/**")),
        ("ls -la src/", "ls", "{src,src/**}", ()),  # the folder's own files: the shard keeps those (folder=src)
        ("ls src/*.py", "ls", "src/*.py", ()),
        ("ls *.py", "ls", "*.py", ("*/**",)),  # the shell's glob names the top's files
        ("ls -R src", "ls", "{src,src/**}", ()),
        ("tree -L 2 src", "tree", "{src,src/**}", ("src/*/*/**",)),
        ("tree -I 'node_modules|dist'", "tree", "", ("node_modules", "**/node_modules/**", "dist", "**/dist/**")),
        ("tree -P '*.go' pkg/", "tree", "pkg/**/*.go", ()),
        ("tree pkg -P '*_test.go'", "tree", "pkg/**/*_test.go", ()),  # an option after the folder: a command too
        ("rg --files -g '*.md'", "rg --files", "*.md", ()),
    ],
)
def test_a_file_command_is_read_as_the_files_it_lists(
    command: str, tool: str, glob: str, exclude: tuple[str, ...]
) -> None:
    c = read(command)
    assert c is not None and (c.tool, c.lists, c.pattern, path_glob(c), c.exclude) == (
        tool,
        "paths",
        "*",
        glob,
        exclude,
    )


@pytest.mark.parametrize(
    "query",
    [
        "find the config file",
        "find src",
        "find . -maxdepth 0",
        "tree -d | grep test",  # tree's drawing into a grep: not read
        "ls -d src",
        "ls is slow",
        "ls src docs",
        "tree sitter parser",
        "tree src",  # a word after tree: a sentence's, unless an option says it is the command
        "tree -d src docs",
        "fd is fast",
        "fd -e",
        "fd '^test_.*\\.py$'",
        "git ls-files the files",
        "find . -name '*.py' | xargs -I{} grep x {}.orig",  # the file inside a word of its own
        "tree | grep -v test",  # tree's drawing into a grep that leaves lines out: not read
        "grep -rv TODO src/",
    ],
)
def test_what_no_file_listing_answers_is_left_to_the_other_rules(query: str) -> None:
    assert read(query) is None


@pytest.mark.parametrize(
    "command",
    [
        "find . -type d -name a -name b",  # several tests of one kind
        "find . -links 2",  # a test no index reads
        "find . -name '*.py' -name 'test_*'",
        "find . -type l",
        "find . ! -type f",
        "find src -not -type d -name '*.py'",
        "find . -name '*.pyc' -delete",  # an action
        "find . -regex '.*py'",
        "find . -name a -name b | xargs grep -l x",  # whatever it is piped to
        "find . -type l -exec grep -n x {} +",
    ],
)
def test_a_find_expression_not_read_is_refused_not_searched_as_words(home: Path, command: str) -> None:
    c = read(command)
    assert c is not None and c.refused.startswith(('"find ', "'find "))
    assert "' is not read: fourfold lists files by find's -name" in c.refused.replace('"', "'")
    with pytest.raises(InvalidQuery, match="several tests of one kind"):
        ask(home, command)


def test_a_file_listing_piped_to_grep_keeps_the_paths_holding_its_pattern(home: Path) -> None:
    c = read("rg --files | rg shell_completion")
    assert c is not None and (c.tool, c.lists, c.pattern, c.case_sensitive) == (
        "rg --files | rg",
        "paths",
        "shell_completion",
        True,
    )
    assert files(ask(home, "git ls-files | grep -i SERVICE | head")) == {"beta/service.py"}
    regex = read("git ls-files | grep -E 'test_.*py$'")  # a regular expression: each path as the tool printed it
    assert regex is not None and regex.then == (LineFilter("test_.*py$", True, True, False, "path"),)


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep (rg) is not on PATH; CI installs it")
@pytest.mark.parametrize(
    "pipeline",
    [
        "find . -name '*.py' | grep -v __init__",
        "find . -type f | grep -vi INIT | grep -v shapes",
        "find alpha -name '*.py' | grep -E '^alpha/[a-c]'",  # find prints the folder it was given
        "find . -name '*.py' | grep -E '^[.]/[a-z]+/s'",  # ./ as find . prints it
        "rg --files | grep -E '(core|app)[.]py$'",
        "rg --files . | grep '^[.]/beta'",
        "rg --files | grep -v -e core -e app | sort",
        "grep -rL fmt . | grep -v __init__",  # the files without fmt, then a grep of their paths
        "find . -name '*.py' -path '*/[a-c]*'",  # a name and a path, both tests of each file
        "find . -name '*.py' -ipath '*ALPHA/S*'",
        "rg -l fmt | grep -v shapes",  # the files holding fmt, a grep of their paths (not of their lines)
        "grep -rl return . | grep -E '^[.]/[a-z]+/[a-c]'",
    ],
)
def test_a_file_listing_piped_to_grep_keeps_the_paths_the_shell_keeps(home: Path, pipeline: str) -> None:
    shell = pipeline.replace("rg ", "rg --no-config ", 1)
    for repo in ("alpha", "beta", "gamma"):
        out = subprocess.run(shell, shell=True, cwd=FIXTURE / repo, capture_output=True, text=True, check=False)
        want = {row.removeprefix("./") for row in out.stdout.splitlines()}
        got = ask(home, pipeline, repos=(repo,))
        assert (files(got), got.total_files) == (want, len(want)), (repo, got.notes)
        if " -l " in pipeline:  # each file with its matching lines, as a listing shows them
            assert all(f.hit.match_lines for f in got.hits)


@pytest.mark.parametrize(
    "pipeline", ["ls alpha | grep -v core", "ls | grep -E '^[ab]'", "ls -a beta | grep -v -e '^[.]'"]
)
def test_ls_piped_to_grep_keeps_the_names_it_keeps(home: Path, pipeline: str) -> None:
    for repo in ("alpha", "beta", "gamma"):
        out = subprocess.run(pipeline, shell=True, cwd=FIXTURE / repo, capture_output=True, text=True, check=False)
        printed = set(out.stdout.split())
        a = ask(home, pipeline, repos=(repo,))
        names = {f.hit.path.rsplit("/", 1)[-1] for f in a.hits} | {
            n.rstrip("/") for n in re.findall(r"([\w.]+/) \(\d+ files?\)", " ".join(a.notes))
        }
        assert names == printed, (repo, a.notes)


def test_ls_l_piped_to_a_grep_of_the_type_letter_keeps_the_folders_or_the_files(tmp_path: Path) -> None:
    paths = ("a.py", "b.md", "src/api/v1.py", "src/c.py", "src/core/d.py", "docs/e.md")
    built = index_files(tmp_path, "typed", dict.fromkeys(paths, "x = 1\n"))
    for pipeline in ("ls -l | grep '^d'", "ls -l src | grep '^d'", "ls -l | grep -v '^d'", "ls -l src | grep '^-'"):
        out = subprocess.run(pipeline, shell=True, cwd=tmp_path / "typed", capture_output=True, text=True, check=True)
        printed = {row.split()[-1] for row in out.stdout.splitlines() if not row.startswith("total")}
        a = ask(built, pipeline)
        note = next((n for n in a.notes if n.startswith("text: folders in ")), "")
        named = {m.group(1) for m in re.finditer(r"([\w/]+)/ \(\d+ files?\)", note)}
        listed = {f.hit.path.rsplit("/", 1)[-1] for f in a.hits}
        assert (named if "'^d'" in pipeline and "-v" not in pipeline else listed) == printed, (pipeline, a.notes)


def test_folders_piped_to_grep_are_the_folders_it_keeps(home: Path, tmp_path: Path) -> None:
    paths = ("src/api/v1/a.py", "src/api/v2/b.py", "src/core/c.py", "tests/api/test_a.py", "docs/d.md")
    built = index_files(tmp_path, "tree", dict.fromkeys(paths, "x = 1\n"))
    repo = tmp_path / "tree"
    for pipeline in (
        "find . -type d | grep api",
        "find . -type d | grep -v -E 'api|docs'",
        "find src -type d | grep v",
    ):
        out = subprocess.run(pipeline, shell=True, cwd=repo, capture_output=True, text=True, check=True)
        where = "src/" if "find src" in pipeline else ""
        want = {row.removeprefix("./") for row in out.stdout.splitlines()} - {".", "src"[: len(where)]}  # not itself
        a = ask(built, pipeline)
        note = next(n for n in a.notes if n.startswith("text: folders in ") or n.startswith("text: no folders"))
        named = {where + m.group(1) for m in re.finditer(r"([\w/]+)/ \(\d+ files?\)", note)}
        assert named == want, (pipeline, note)
    assert read("find . -type d | grep -v api") is not None and read("find . -type d | xargs grep x") is None


def test_find_piped_to_grep_searches_the_files_find_lists(home: Path) -> None:
    for command in ("find . -name 'app.py' | xargs grep -n 'fmt('", "find . -name app.py -exec grep -n 'fmt(' {} +"):
        c = read(command)
        assert c is not None and (c.tool, c.lists, c.pattern, path_glob(c)) == (
            "find | grep",
            "lines",
            "fmt(",
            "app.py",
        )
    catted = ask(home, "cat alpha/shapes.py | grep -n 'return fmt'")  # that grep of that one file
    assert files(catted) == {"alpha/shapes.py"} and catted.notes[0].startswith("read as the command cat | grep:")
    for counted in ("find beta -name '*.py' | xargs wc -l", "find beta -name '*.py' -exec ls -l {} +"):
        assert files(ask(home, counted)) == {"beta/__init__.py", "beta/service.py"}  # the files it runs on
    a = ask(home, "find . -name '*.py' -not -path './gamma/*' | xargs grep -n 'return fmt'")
    assert files(a) == {"alpha/shapes.py", "beta/service.py"} and a.total_matches >= 2
    assert a.notes[0].startswith("read as the command find | grep: literal 'return fmt', in *.py, not in gamma/**")
    assert files(ask(home, "find beta -name '*.py'")) == {"beta/__init__.py", "beta/service.py"}


def test_ls_lists_a_folders_files_and_names_its_folders_and_tree_lists_beneath(home: Path) -> None:
    assert [(c.tool, c.folder) for c in map(read, ("ls", "ls -la src/", "ls -R src", "tree -L 1"))] == [
        ("ls", "."),
        ("ls", "src"),
        ("ls", None),
        ("tree", "."),
    ]
    top = ask(home, "ls -la")
    assert files(top) == set() and top.notes[:2] == (
        "read as the command ls: the files directly in ./ and the folders in it, case ignored; across 3 repositories, "
        "their folders summed: ask within one with repo:NAME",
        "text: folders in ./: alpha/ (3 files), beta/ (2 files), gamma/ (2 files)",  # every shard's, summed
    )
    alpha = ask(home, "ls alpha")
    assert files(alpha) == {"alpha/__init__.py", "alpha/core.py", "alpha/shapes.py"} and alpha.complete
    assert "text: no folders in alpha/" in alpha.notes
    assert files(ask(home, "ls alpha/core.py")) == {"alpha/core.py"}  # a file lists itself
    assert "text: nothing indexed in nope/" in ask(home, "ls nope").notes
    # a caller who may read gamma alone counts gamma's folders alone
    scoped = search_once(Engine(IndexStore(home)), SearchParams("ls", k=20), frozenset({"gamma"}))
    assert "text: folders in ./: gamma/ (2 files)" in scoped.notes and not any("alpha" in n for n in scoped.notes)
    assert "repositories" not in scoped.notes[0]  # one repository: nothing summed
    assert "repositories" not in ask(home, "ls", repos=("beta",)).notes[0]
    assert files(ask(home, "ls alpha/s*.py")) == {"alpha/shapes.py"}
    assert files(ask(home, "tree gamma/")) == {"gamma/__init__.py", "gamma/app.py"}
    assert files(ask(home, "tree -L 1")) == set() and files(ask(home, "tree -L 2")) == EVERY
    assert files(ask(home, "tree -P 'a*.py' -I core.py .")) == {"gamma/app.py"}
    with coordinator_in_process(home) as address:
        text = mcp_search(address, "ls beta", 10)
        assert "beta/service.py" in text and "read as the command ls" in text and "no folders in beta/" in text


@pytest.mark.parametrize(
    ("command", "folder", "tree", "hidden"),
    [
        ("find . -type d", ".", "0:", True),
        ("find src -maxdepth 2 -type d -name '*test*'", "src", "2:*test*", True),
        ("tree -d -L 3 pkg/", "pkg", "3:", False),
        ("tree -d", ".", "0:", False),
        ("fd -t d api", ".", "0:*[aA][pP][iI]*", False),
        ("fd --type directory -H", ".", "0:", True),
        ("ls -d */", ".", "1:", False),
        ("ls -ad src/*/", "src", "1:", True),
    ],
)
def test_a_folder_command_is_read_as_the_folders_it_lists(command: str, folder: str, tree: str, hidden: bool) -> None:
    c = read(command)
    assert c is not None and (c.lists, c.folder, c.tree, c.hidden) == ("paths", folder, tree, hidden)


def test_folders_are_listed_as_find_type_d_lists_them_and_maxdepth_keeps_to_its_depth(home: Path) -> None:
    top = ask(home, "find . -type d")
    assert (files(top), top.total_files) == (set(), 0)
    assert top.notes[0].startswith("read as the command find: the folders beneath ./ at any depth, no files")
    assert "text: folders in ./: alpha/ (3 files), beta/ (2 files), gamma/ (2 files)" in top.notes
    assert "text: folders in ./: beta/ (2 files)" in ask(home, "find . -type d -name 'b*'").notes
    assert "text: no folders in alpha/" in ask(home, "find alpha -type d").notes
    assert "text: folders in ./: alpha/ (3 files), beta/ (2 files), gamma/ (2 files)" in ask(home, "ls -d */").notes
    assert files(ask(home, "find . -maxdepth 1 -type f")) == set()  # every file is two levels down
    assert files(ask(home, "find alpha -maxdepth 1 -name '*.py'")) == {
        "alpha/__init__.py",
        "alpha/core.py",
        "alpha/shapes.py",
    }
    assert files(ask(home, "find . -maxdepth 2 -name '*.py'")) == {p for p in EVERY if p.endswith(".py")}


def test_find_iname_and_fd_match_either_case_as_the_tools_do(home: Path) -> None:
    assert files(ask(home, "find . -iname 'CORE.PY'")) == {"alpha/core.py"}
    assert files(ask(home, "find . -name 'CORE.PY'")) == set()
    assert files(ask(home, "fd -e PY serv")) == {"beta/service.py"}
    assert files(ask(home, "fd Serv")) == set()  # a capital: case as written


def test_the_cli_the_client_and_mcp_list_paths(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--paths", "service"]) == 0
    out = capsys.readouterr().out
    assert "1 matching files · complete" in out and "beta:beta/service.py" in out
    assert main(["search", "--in-process", "--json", "find gamma -name '*.py'"]) == 0
    assert {h["path"] for h in json.loads(capsys.readouterr().out)["hits"]} == {"gamma/__init__.py", "gamma/app.py"}
    assert main(["search", "--in-process", "--paths", "--regex", "x"]) == 2
    assert "--regex and --paths exclude each other" in capsys.readouterr().err
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            assert files(client.search("shapes", options={"mode": "paths"})) == {"alpha/shapes.py"}
            assert files(client.search("file:core.py")) == {"alpha/core.py"}
            piped = client.search("find . -name '*.py' | grep -v -e __init__ -e alpha")
            assert files(piped) == {"beta/service.py", "gamma/app.py"} and piped.total_files == 2
        text = mcp_search(address, "fd app", 10)
        assert "gamma/app.py" in text and "1 matching files · complete" in text and "read as the command fd" in text
        ag = mcp_search(address, "ag -g 'app\\.py$'", 10)
        assert "gamma/app.py" in ag and "1 matching files · complete" in ag and "read as the command ag -g" in ag
        folders = mcp_search(address, "find . -type d | grep -v beta", 10)
        assert "text: folders in ./: alpha/ (3 files), gamma/ (2 files)" in folders and "no hits" not in folders
    assert main(["search", "--in-process", "--json", "rg --files | grep -E '^gamma/.*[.]py$'"]) == 0
    assert {h["path"] for h in json.loads(capsys.readouterr().out)["hits"]} == {"gamma/__init__.py", "gamma/app.py"}
    assert listed(home, "gamma/") == {"gamma/__init__.py", "gamma/app.py"}
    wrong = json.dumps([{"pattern": "x", "shown": "path:line:text"}])
    with pytest.raises(InvalidQuery, match=r"a path listing \(mode=paths\) shows each file's path alone"):
        ask(home, "*.py", options={"mode": "paths", LINE_FILTERS_OPTION: wrong})


def test_finds_tests_of_what_the_index_keeps_nothing_of_are_left_out_and_said(home: Path) -> None:
    a = ask(home, "find . -name '*.py' -mtime -1")
    assert files(a) == files(ask(home, "find . -name '*.py'")) and a.hits
    assert "every file its other tests keep: -mtime -1 left out (the index keeps no file's time" in a.notes[0]
    grepped = ask(home, "find . -newer alpha/core.py -name '*.py' -exec grep -n 'return fmt' {} +")
    assert grepped.total_matches >= 2 and "-newer alpha/core.py left out" in grepped.notes[0]
    sized = ask(home, "find . -size +1M")  # read: no file of the fixture is so large
    assert "the files -size +1M keeps" in sized.notes[0] and not sized.hits and sized.complete


@pytest.mark.parametrize(
    "expression",
    [
        "-name 'core.py' -o -name 'app.py'",
        "-path './beta/*' -o -name 'core.py'",
        "-type f \\( -name '__init__.py' -o -path '*gamma/*' \\) -not -name 'app.py'",
        "-name 'c*' -o -name 's*' -o -path './gamma/a*'",
    ],
)
def test_finds_either_test_lists_the_files_any_test_selects_as_find_does(home: Path, expression: str) -> None:
    expected = {  # find in each repository's checkout: the files it prints
        path.removeprefix("./")
        for repo in ("alpha", "beta", "gamma")
        for path in subprocess.run(
            ["bash", "-c", f"find . -type f \\( {expression} \\)"],
            cwd=FIXTURE / repo,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    }
    assert expected and files(ask(home, f"find . {expression}")) == expected


@pytest.mark.parametrize(
    "test",
    [
        "-path './*/*_test.*'",  # a folder at least: no file at the top
        "-path '*/tests/*'",  # find prints ./tests/a.py: the leading * matches the .
        "-path './src/*'",
        "-path './src/*/b*'",
        "-path '*_test.*'",
        "-path './*'",
        "-not -path '*/tests/*' -name '*.py'",
        "-path './*/*' -o -name 'top.py'",
    ],
)
def test_finds_path_globs_select_the_files_find_prints(tmp_path: Path, test: str) -> None:
    tree = ["top.py", "top_test.py", "src/a.py", "src/a_test.py", "src/deep/b.py", "src/deep/b_test.go"]
    tree += ["tests/t.py", "src/tests/u.py", "docs/x.md"]
    for path in tree:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("x\n")
    printed = subprocess.run(
        ["bash", "-c", f"find . -type f \\( {test} \\)"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.split()
    c = read(f"find . {test}")
    assert c is not None
    keep = compile_glob(path_glob(c) or "**")
    dropped = [compile_glob(g) for g in c.exclude]
    selected = {p for p in tree if keep.match(p) and not any(rx.match(p) for rx in dropped)}
    assert selected == {p.removeprefix("./") for p in printed}


@pytest.mark.parametrize(
    "expression",
    [
        "\\( -path ./tests -o -path ./docs \\) -prune -o -type f -print",
        "\\( -path ./tests -o -path ./docs \\) -prune -o -name '*.py' -print",
        "-path ./src -prune -o \\( -name '*.md' -o -name 'top*' \\) -print",
    ],
)
def test_a_group_pruned_leaves_out_each_of_its_folders_as_find_does(tmp_path: Path, expression: str) -> None:
    tree = ["top.py", "src/a.py", "src/deep/b.go", "tests/t.py", "docs/x.md", "docs/y.py", "notes.md"]
    home = index_files(tmp_path, "repo", dict.fromkeys(tree, "x\n"))
    printed = subprocess.run(
        ["bash", "-c", f"find . {expression}"], cwd=tmp_path / "repo", capture_output=True, text=True, check=True
    ).stdout.split()
    want = {p.removeprefix("./") for p in printed if p.removeprefix("./") in tree}
    assert want and files(ask(home, f"find . {expression}")) == want


@pytest.mark.parametrize(
    "command",
    [
        "find src -path '*/deep/*'",  # a -path test beside a folder: of the path find prints (src/deep/b.py)
        "find src -path '*src*' -name '*.py'",
        "find ./src -path './src/d*'",
        "find . -path ./tests -prune -o -name '*.py' -path '*deep*' -print",  # the -o after -prune: no alternative
        "find . -path ./docs -prune -o -type f -size -2k -print",
    ],
)
def test_finds_tests_beside_a_folder_or_a_prune_keep_what_find_keeps(tmp_path: Path, command: str) -> None:
    tree = ["top.py", "src/a.py", "src/b.md", "src/deep/b.py", "src/deep/c.go", "tests/deep/t.py", "docs/x.md"]
    home = index_files(tmp_path, "repo", dict.fromkeys(tree, "x\n"))
    printed = subprocess.run(command, shell=True, cwd=tmp_path / "repo", capture_output=True, text=True, check=True)
    want = {p.removeprefix("./") for p in printed.stdout.split()} & set(tree)
    assert want and files(ask(home, command)) == want


@pytest.mark.parametrize(
    "expression",
    [
        "-name '*.md' -o -name '*.py' -path '*src*'",  # an alternative of two tests
        "\\( -name '*.py' -o -name '*.md' \\) -path '*docs*'",  # a group's alternatives each with a test beside
        "-name '*.py' -o -type d",  # an alternative of no name or path
        "-not \\( -name '*.py' -o -name '*.md' \\)",  # a group turned over
        "-name '*.py' -o -name '*.md' -not -path './docs/*'",  # turned over in one alternative alone
        "-empty -o -name '*.py'",  # an alternative of a size alone
        "-name '*.md' -size +1k -o -name '*.py'",  # a size test of one alternative
    ],
)
def test_finds_alternatives_it_cannot_list_as_one_glob_are_refused_not_misread(home: Path, expression: str) -> None:
    with pytest.raises(InvalidQuery, match=r"is not read: its -o joins alternatives of which one holds several tests"):
        ask(home, f"find . {expression}")


@pytest.mark.parametrize(
    ("call", "fd"),
    [
        ('find_by_name(SearchDirectory="src", Pattern="*.py", MaxDepth=1)', "-g '*.py' -d 1 src"),
        ('find_by_name(SearchDirectory="src", Pattern="*", Extensions=["go", ".md"])', "-g '*' -e go -e md src"),
        ('find_by_name(SearchDirectory="src", Pattern="*", Excludes=["deep"], Type="file")', "-g '*' -E deep -t f src"),
        (
            '{"name": "find_by_name", "arguments": {"SearchDirectory": ".", "Pattern": "b*", "MaxDepth": 3}}',
            "-g 'b*' -d 3",
        ),
    ],
)
def test_windsurfs_find_by_name_lists_what_fd_lists_with_its_options(tmp_path: Path, call: str, fd: str) -> None:
    if shutil.which("fdfind") is None:
        pytest.skip("fdfind is not on PATH; make system-tools installs it")
    tree = ["top.py", "src/a.py", "src/b.md", "src/deep/b.py", "src/deep/c.go", "src/deep/er/d.go", "docs/x.md"]
    home = index_files(tmp_path, "repo", dict.fromkeys(tree, "x\n"))
    printed = subprocess.run(
        f"fdfind --hidden {fd}", shell=True, cwd=tmp_path / "repo", capture_output=True, text=True, check=True
    ).stdout.split()
    want = {p.removeprefix("./") for p in printed if not p.endswith("/")}
    assert want and files(ask(home, call)) == want


def test_an_agents_ls_leaves_out_its_ignored_names_and_a_file_search_finds_a_fragment(home: Path) -> None:
    listed = ask(home, 'LS(path="/home/me/checkouts/alpha/alpha", ignore=["core.py", "__init__.py"])')
    assert files(listed) == {"alpha/shapes.py"} and "not in core.py" in listed.notes[0]
    gemini = ask(home, 'list_directory(path="alpha", ignore=["*.py"])', repos=("alpha",))
    assert not gemini.hits
    found = ask(home, 'file_search(query="servic")')  # Cursor's: a fragment of the path
    assert files(found) == {"beta/service.py"}


@pytest.fixture(scope="module")
def with_empty_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A package whose __init__.py files are empty (or blank), beside a py.typed marker, and its index's home."""
    root = tmp_path_factory.mktemp("empty_files")
    texts = {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "\n\n",
        "pkg/py.typed": "",
        "pkg/core.py": "def run():\n    pass\n",
    }
    return index_files(root, "lib", texts), root / "lib"


@pytest.mark.parametrize(
    "command",
    ["find . -name '__init__.py'", "find pkg -type f", "fd -t f . pkg", "rg --files", "ls pkg", "find . -name 'py.*'"],
)
def test_an_empty_file_is_listed_as_the_tools_list_it(with_empty_files: tuple[Path, Path], command: str) -> None:
    home, repo = with_empty_files
    shell = command.replace("fd ", "fdfind ", 1) if command.startswith("fd ") else command
    if shell.split()[0] in ("fdfind", "rg") and shutil.which(shell.split()[0]) is None:
        pytest.skip(f"{shell.split()[0]} is not on PATH; make system-tools installs it")
    printed = subprocess.run(shell, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout.split()
    prefix = "pkg/" if command.startswith("ls ") else ""
    want = {prefix + p.removeprefix("./") for p in printed if not p.endswith("/") and p != "sub"}
    a = ask(home, command)
    assert files(a) == want and a.total_files == len(want), a.notes


def test_an_empty_file_is_read_as_empty_and_its_lines_counted_none(with_empty_files: tuple[Path, Path]) -> None:
    home, _ = with_empty_files
    read_empty = ask(home, "cat pkg/__init__.py")
    assert files(read_empty) == {"pkg/__init__.py"} and "is empty (0 lines)" in read_empty.notes[0]
    counted = ask(home, "wc -l pkg/__init__.py pkg/sub/__init__.py pkg/core.py")
    assert [n.rsplit(" has ", 1)[1] for n in counted.notes[:3]] == ["0 lines", "2 lines", "2 lines"]
    asked = ask(home, "how does run work")  # an empty file has no words: it answers no question
    assert asked.hits and asked.hits[0].hit.path == "pkg/core.py"
    assert not files(asked) & {"pkg/__init__.py", "pkg/sub/__init__.py", "pkg/py.typed"}
