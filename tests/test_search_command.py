"""A grep-like command pasted as the query (``rg -n "retry" src/``), read as the listing it asks for
(``coordinator/search_command.py``): the reading, and the answers through the engine, the CLI, the Python
client over gRPC and MCP, over a real index."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, index_files, mcp_search, search_once

from fourfold.api import Answer, SearchParams
from fourfold.client import Client
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.query_filters import FILTERS_OPTION
from fourfold.coordinator.search_command import apply, path_glob, read, regex_glob, without_lookaround
from fourfold.errors import InvalidQuery
from fourfold.index.store import GenerationReader, IndexStore
from fourfold.plugins.globs import compile_glob
from fourfold.plugins.types import CONTEXT_OPTION, EXCLUDE_OPTION, LINE_FILTERS_OPTION, MAX_COUNT_OPTION, LineFilter


@pytest.mark.parametrize(
    ("query", "pattern", "regex", "case"),
    [
        ('rg -n "retry_budget" src/', "retry_budget", False, True),
        ("grep -rn make_context --include=*.py .", "make_context", False, True),
        ("git grep -n 'def make_context'", "def make_context", False, True),
        ("rg -i Retry", "Retry", False, False),
        ("rg -S retry", "retry", False, False),  # smart case: no capital
        ("rg -S Retry", "Retry", False, True),
        ("ag retry", "retry", False, False),  # ag's case is smart by default
        ("rg -F 'a.b(c)'", "a.b(c)", False, True),
        ("fgrep 'x.*'", "x.*", False, True),
        ("rg 'def \\w+\\('", "def \\w+\\(", True, True),
        ('grep "get\\|set(" src', "get|set\\(", True, True),  # basic syntax: \\| is the operator, ( a bracket
        ('grep -E "get|set\\(" src', "get|set\\(", True, True),
        ("rg -w fmt", "\\b(?:fmt)\\b", True, True),
        ("rg -e foo -e 'bar.baz'", "(?:foo)|(?:bar.baz)", True, True),  # each a regular expression
        ("rg -- -v", "-v", False, True),
        ("rg -C 3 -m 5 --color=always retry | head -20", "retry", False, True),
        ("rg 'a(b'", "a(b", False, True),  # no regular expression: the literal
        ("grep -rn automatically. docs/", "automatically.", True, True),  # "." is any character, as grep has it
    ],
)
def test_the_pattern_and_its_case_are_read_as_the_tool_reads_them(
    query: str, pattern: str, regex: bool, case: bool
) -> None:
    c = read(query)
    assert c is not None and (c.pattern, c.regex, c.case_sensitive) == (pattern, regex, case)


@pytest.mark.parametrize(
    "query",
    [
        "grep -f patterns.txt src",  # patterns from a file
        "how does grep work here",
        "rg",
        "git log -S retry",
        'rg "unclosed',
        "rg retry\nrg budget",  # two commands
        "grep for calls to bootstrap",  # a sentence
        "grep 'token expired' in this codebase",
        "grep -F 'defer wg.Done()' (python)",
        "grep 'cannot read property 'map' of undefined'",  # quotes inside the quotes: the shell would join them
    ],
)
def test_what_is_no_search_command_is_left_to_the_other_rules(query: str) -> None:
    assert read(query) is None


@pytest.mark.parametrize(
    ("query", "glob", "languages", "excluded"),
    [
        ("rg retry src/", "src/**", (), ()),
        ("rg retry ./src/api.py", "src/api.py", (), ()),
        ("rg retry src", "{src/**,src}", (), ()),
        ("grep -rn --include=*.py retry .", "*.py", (), ()),
        ("grep -rn --include=*.py --include=*.pyi retry src/", "{src/**/*.py,src/**/*.pyi}", (), ()),
        ("rg -g '*.go' -g '!vendor/**' retry", "*.go", (), ("vendor/**",)),
        ("grep -rn --exclude-dir=node_modules --exclude=*.min.js retry", "", (), ("**/node_modules/**", "*.min.js")),
        ("rg -t py -tgo retry", "", ("python", "go"), ()),
        ("git grep -n retry -- '*.py'", "*.py", (), ()),  # a pathspec
        # a pathspec's * crosses folders (git matches without FNM_PATHNAME), one before a / at least one folder
        ("git grep -n retry -- 'src/**/*.go'", "src/*/**/**.go", (), ()),
        ("git ls-files 'src/*.go'", "src/**.go", (), ()),
        ("git grep -n retry -- ':(glob)src/*.go'", "src/*.go", (), ()),
        # git's pathspecs that leave files out: ':!', ':^', ':(exclude)'; a glob's * crosses folders as git's does
        ("git grep -n retry -- ':!*_test.go'", "", (), ("*_test.go",)),
        ("git grep -n retry -- src ':^src/vendor'", "{src/**,src}", (), ("src/vendor", "src/vendor/**")),
        ("git grep retry -- '*.py' ':(exclude)docs/*.py'", "*.py", (), ("docs/**.py",)),
        ("git grep retry -- :/src", "{src/**,src}", (), ()),  # :/ from the top
    ],
)
def test_the_files_are_read_from_operands_types_and_globs(
    query: str, glob: str, languages: tuple[str, ...], excluded: tuple[str, ...]
) -> None:
    c = read(query)
    assert c is not None and (path_glob(c), c.languages, c.exclude) == (glob, languages, excluded)


def test_a_comment_is_left_out_and_a_type_of_no_language_searches_every_one() -> None:
    c = read("grep -rn 'func Assign(' --include=*.go   # want the declaration only")
    assert c is not None and (c.pattern, path_glob(c)) == ("func Assign(", "*.go")
    ex = read("rg -w retry -t ex")  # ripgrep's type by an extension: elixir
    assert ex is not None and ex.languages == ("elixir",)
    own = read("rg -F 'DRT-180' --type-add 'cfg:*.{yml,toml}' -t cfg")  # a type the command adds: its globs
    assert own is not None and own.languages == () and own.include == ("*.{yml,toml}",) and not own.unread_types
    assert apply(SearchParams("x"), own)[1] == (
        "read as the command rg: literal 'DRT-180', in *.{yml,toml}, not in hidden files, case respected"
    )
    unknown = read("rg -F 'DRT-180' -t cfg")  # a type neither rg's nor the command's: every language, said
    assert unknown is not None and unknown.unread_types == ("cfg",)
    assert apply(SearchParams("x"), unknown)[1] == (
        "read as the command rg: literal 'DRT-180', not in hidden files, every language (no language of "
        "fourfold's is the type cfg), case respected"
    )


def test_files_no_path_filter_can_take_say_why() -> None:
    several = read("rg retry src/*.py lib/ a.py")  # the files a glob names, a folder's, a file: one glob of them all
    assert several is not None and path_glob(several) == "{src/*.py,lib/**,a.py}"
    for query, says in [
        ("rg retry 'src/*.py' lib/ -g '*.go'", "mix globs and folders: give folders and files, or one glob"),
        ("rg retry 'src/*.py' -g 'lib/**'", "select files 2 ways"),
        ("rg -g 'src/**' -g 'lib/**' retry", "select files 2 ways"),
        ("rg -g '*.py' -g 'test_*' retry", "the globs \\*.py test_\\* are several"),
    ]:
        c = read(query)
        assert c is not None
        with pytest.raises(InvalidQuery, match=says):
            apply(SearchParams(query), c)


def test_types_that_leave_no_language_say_so_as_lang_filters_do() -> None:
    # before, both searched every language without a word: rg -t py -T py, and -t go in a Python-only search
    for query, languages, says in [
        ("rg -t py -T py retry", (), r"the file types \(-t python -T python\) leave no language to search: drop"),
        ("rg -t go retry", ("python",), r"leave no language to search within the search's languages \(python\)"),
    ]:
        c = read(query)
        assert c is not None
        with pytest.raises(InvalidQuery, match=says):
            apply(SearchParams(query, languages=languages), c)
    both = read("rg -t py retry")
    assert both is not None and apply(SearchParams("q", languages=("python", "go")), both)[0].languages == ("python",)
    left = read("rg -T py retry")
    assert left is not None and "python" not in apply(SearchParams("q"), left)[0].languages


@pytest.mark.parametrize(
    ("query", "pattern", "paths"),
    [
        ("grep -rn retry . 2>/dev/null | head -20", "retry", ()),  # where the output goes, not what is read
        ("rg -n retry src > /tmp/out.txt 2>&1", "retry", ("src",)),
        ("rg -e '>' src &>/dev/null", ">", ("src",)),  # a quoted > is the pattern
        ('grep -rn "a > b" lib < /dev/null', "a > b", ("lib",)),
    ],
)
def test_the_shells_redirections_are_left_out(query: str, pattern: str, paths: tuple[str, ...]) -> None:
    c = read(query)
    assert c is not None and (c.pattern, c.paths) == (pattern, paths)


@pytest.mark.parametrize(
    ("query", "context"),
    [
        ("rg -C 3 retry", (3, 3)),
        ("grep -rn -A2 -B 1 retry .", (1, 2)),
        ("grep -4 retry src", (4, 4)),  # grep's -NUM
        ("rg --context=2 -A 5 retry", (2, 5)),  # the later option wins on its side
        ("rg --before-context 1 retry", (1, 0)),
        ("rg -n retry", (0, 0)),
        ('Grep(pattern="retry", -C=2)', (2, 2)),
        ('{"tool": "Grep", "pattern": "retry", "-A": 3, "-B": 0}', (0, 3)),
    ],
)
def test_context_lines_are_read_as_the_tool_prints_them(query: str, context: tuple[int, int]) -> None:
    c = read(query)
    assert c is not None and c.pattern == "retry" and c.context == context


def test_context_goes_to_the_listing_capped_and_the_note_says_so() -> None:
    assert read("rg -C x retry") is None  # rg's own error: no listing
    c = read("rg -C 50 -B 1 retry")
    assert c is not None
    asked, note = apply(SearchParams("q"), c)
    assert asked.options[CONTEXT_OPTION] == "1,10"
    assert note == (
        "read as the command rg: literal 'retry', not in hidden files, with 1 line before and 10 after (at most 10), "
        "case respected"
    )
    plain = read("rg retry")
    assert plain is not None and CONTEXT_OPTION not in apply(SearchParams("q"), plain)[0].options


@pytest.mark.parametrize(
    ("query", "then", "left_out"),
    [
        ("grep -rn retry . | grep -v _test", (LineFilter("_test", invert=True, shown="./path:line:text"),), ()),
        (
            "rg retry | grep -i 'def ' | grep -vE 'mock|fake'",  # rg to a pipe: the path, no line number
            (
                LineFilter("def ", case_sensitive=False, shown="path:text"),
                LineFilter("mock|fake", regex=True, invert=True, shown="path:text"),
            ),
            (),
        ),
        ("rg -n retry | head -20", (), ()),  # shows the lines another way: the listing as it is
        ("rg -n retry | sort | uniq -c | wc -l", (), ()),
        ("rg -n retry | awk -F: '{print $1}'", (), ("awk -F: '{print $1}'",)),
        ("rg retry | grep budget src/", (), ("grep budget src/",)),  # a grep of files, not of the output
        ("cat a.py | grep retry | grep -v import", (LineFilter("import", invert=True, shown="text"),), ()),
        ("grep -n retry a.py | grep -v import", (LineFilter("import", invert=True, shown="line:text"),), ()),
        ("git grep -n retry | grep x", (LineFilter("x"),), ()),
        ("grep -rnh retry src | grep x", (LineFilter("x", shown="line:text"),), ()),
        ("grep -rl budget . | xargs grep -n retry", (), ()),  # the files holding budget: see below
        (
            "rg -n retry | grep -v a | grep -i 'for the'",
            (LineFilter("a", invert=True), LineFilter("for the", case_sensitive=False)),
            (),
        ),  # words no sentence reading may take
    ],
)
def test_the_greps_a_listing_is_piped_to_keep_its_lines(
    query: str, then: tuple[LineFilter, ...], left_out: tuple[str, ...]
) -> None:
    c = read(query)
    assert c is not None and c.pattern == "retry" and (c.then, c.left_out) == (then, left_out)


def test_a_grep_that_xargs_runs_on_the_files_a_grep_l_lists_greps_the_files_holding_its_pattern() -> None:
    c = read("grep -rl --include=*.py budget src | xargs grep -n retry | grep -v test")
    assert c is not None and (c.pattern, c.paths, c.include, c.tool) == (
        "retry",
        ("src",),
        ("*.py",),
        "grep -l | xargs grep",
    )
    assert c.holding == (LineFilter("budget"),) and c.then == (LineFilter("test", invert=True),)  # path:line:text
    lines = read("grep -rn budget . | xargs grep retry")  # no -l: xargs is handed lines, not files
    assert lines is not None and (lines.pattern, lines.holding, lines.left_out) == ("budget", (), ("xargs grep retry",))


def test_grep_big_l_lists_the_files_without_its_pattern(home: Path) -> None:
    a = ask(home, "grep -rL 'return fmt' --include=*.py .")  # as grep -L lists them: every .py file but three
    every = {str(p.relative_to(FIXTURE).relative_to(p.relative_to(FIXTURE).parts[0])) for p in FIXTURE.rglob("*.py")}
    assert files(a) == every - {"alpha/shapes.py", "beta/service.py", "gamma/app.py"}
    assert "in the files not holding 'return fmt'" in a.notes[0] and a.complete
    follow = read("rg -L fmt")  # rg's -L follows links: its lines, as listed
    assert follow is not None and (follow.lists, follow.holding) == ("lines", ())


def test_a_pipe_into_a_grep_that_reads_no_output_leaves_the_words() -> None:
    assert read("rg retry | grep -f patterns.txt") is None


# -- through the engine, over a real index ----------------------------------------------------------------


@pytest.fixture(scope="module")
def home(multi_home: Path) -> Path:
    return multi_home


def ask(home: Path, query: str, **kw: object) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, k=20, **kw))  # type: ignore[arg-type]


def files(a: Answer) -> set[str]:
    return {f.hit.path for f in a.hits}


def test_a_command_lists_the_lines_it_asks_for(home: Path) -> None:
    a = ask(home, 'rg -n "fmt(" gamma/')
    assert (a.intent, a.fusion_strategy, files(a)) == ("exact_match", "direct", {"gamma/app.py"})
    assert a.notes[0] == "read as the command rg: literal 'fmt(', in gamma/**, not in hidden files, case respected"
    assert a.total_matches == 1 and a.hits[0].hit.match_lines == (9,)
    every = ask(home, "grep -rn --include=*.py 'return fmt' .")
    assert files(every) == {"alpha/shapes.py", "beta/service.py", "gamma/app.py"} and every.complete
    assert files(ask(home, "rg -w fmt -g '!alpha/**'")) == {"beta/service.py", "gamma/app.py"}
    go = ask(home, "rg -t go fmt")  # no Go file: nothing listed, fusion's candidates, and the answer says so
    assert go.total_matches == 0 and "direct path (text) found nothing: answered by fusion" in go.notes


def test_a_commands_context_lines_are_numbered_as_grep_prints_them(home: Path) -> None:
    a = ask(home, 'rg -n -C 1 "fmt(" gamma/')  # gamma/app.py: line 9 matches, 8 and 10 around it
    assert a.notes[0] == (
        "read as the command rg: literal 'fmt(', in gamma/**, not in hidden files, with 1 line of context, case "
        "respected"
    )
    assert a.hits[0].hit.snippet == '8-def helper():\n9:    return fmt("gamma")\n10-'
    assert ask(home, 'rg -n "fmt(" gamma/').hits[0].hit.snippet == '    return fmt("gamma")'
    with pytest.raises(InvalidQuery, match=r"invalid context '3,x': give the lines to show around each match as N"):
        ask(home, "fmt(", options={"mode": "literal", CONTEXT_OPTION: "3,x"})


FIXTURE = Path(__file__).parent / "fixtures" / "graph_multi"


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep (rg) is not on PATH; CI installs it")
@pytest.mark.parametrize(
    "pipeline",
    [
        "rg -n fmt | grep -v shapes",
        "rg -n fmt | grep return | grep -v lower",
        "rg -n -i FMT | grep -E ':[0-9]+:[[:space:]]+return'",
        "rg -n def | grep -iv HELPER",
        "rg -n import | grep -w alpha",
        "grep -rn fmt . | grep '^./alpha/core'",  # ./ as grep -r prints the paths of .
        "rg fmt | grep -E '^[a-z/]+[.]py:def'",  # rg to a pipe: no line numbers
        "grep -rn return . | grep -v ':1[0-9]:'",
        "grep -rl fmt . | xargs grep -n return",  # return's lines in the files holding fmt
        "rg -l import | xargs rg -n def | grep -v helper",
        "find . -name '*.py' -path '*a/*' | xargs grep -n 'return fmt'",  # find's tests, then the grep of its files
        "grep -m1 -rn fmt .",  # each file's first matching line
        "rg -n -m 2 fmt | grep -v core",  # each file's first 2, then the pipe's grep
        "grep -rnP '(?<=return )fmt[(]' .",  # Perl's lookbehind, and \K: the lines holding what they look at
        "grep -rnP 'return \\Kfmt(?=[(])' .",
        # the greps after a grep that xargs or find -exec runs, each line seen as it printed it
        "find . -name '*.py' | xargs grep -n fmt | grep -v core",
        "find . -name '*.py' | xargs grep -n fmt | grep -v '^./[a-z]*/core'",
        "find . -name '*.py' -exec grep -n fmt {} + | grep -v '^./[a-z]*/core'",
        "find . -name '*.py' -exec grep -n fmt {} \\; | grep -v ':1:'",  # each file alone: no path printed
        "grep -rl fmt . | xargs grep -n return | grep -v '^./[a-z]*/core'",
        # a loop that reads each listed file, and xargs placing each file itself: the grep of each file alone
        "find . -name '*.py' | while read f; do grep -n fmt \"$f\"; done",
        "find . -name '*.py' | while read -r f; do grep -Hn fmt $f; done | grep -v core",
        "find . -name '*.py' | xargs -I{} grep -n fmt {}",
        "rg --files | xargs -I % grep -Hn return % | grep -v '^[a-z]*/shapes'",
        # rg's --color with its value after a space, --max-depth, git grep's --and and --and --not
        "rg -n --color never fmt",
        "rg -n fmt --max-depth 2",
        "rg -n fmt --max-depth 1",
        "git grep -n -e return --and -e fmt",
        "git grep -n -e return --and --not -e fmt",
        "git grep -n -e return --or -e import",
        # a listing's output substituted as the grep's files
        "grep -n return $(find . -name '*.py') | grep -v shapes",
        "rg -n return `rg --files -g '*.py'` | grep -v '^[a-z]*/core'",
        # a glob beside a folder: a name's at any depth (**/*.py), or one within the folder searched
        "rg -n -g '**/*.py' return .",
        "rg -n -g '**/c*.py' -g '!**/core.py' fmt .",
        "rg -n -g 'gamma/*.py' fmt gamma",
        # what runs only where the command fails, left out: the command's own lines
        "rg -n fmt || true",
        "grep -rn return . 2>/dev/null || :",
        "rg -n fmt | grep -v core || true",
    ],
)
def test_a_pipe_into_grep_keeps_the_lines_the_shell_keeps(home: Path, pipeline: str) -> None:
    shell = pipeline.replace("rg ", "rg --no-config ", 1)  # the shell's pipe, as written
    for repo in ("alpha", "beta", "gamma"):
        out = subprocess.run(shell, shell=True, cwd=FIXTURE / repo, capture_output=True, text=True, check=False)
        rows = [row.removeprefix("./").split(":", 2) for row in out.stdout.splitlines()]
        got = ask(home, pipeline, repos=(repo,))
        assert got.total_matches == len(rows), (repo, got.notes)
        if rows and rows[0][1].isdigit():
            want = {(path, int(n)) for path, n, _ in rows}
            assert {(f.hit.path, n) for f in got.hits for n in f.hit.match_lines} == want, repo


@pytest.mark.parametrize(
    ("perl", "re2"),
    [
        (r"(?<=func )New", r"(?:func )New"),
        (r"foo\K\w+", r"foo\w+"),
        (r"New(?=\()", r"New(?:\()"),
        (r"(?<=a(b))c(?=d)", r"(?:a(b))c(?:d)"),
        (r"(?<!x)y", r"(?<!x)y"),  # a negative lookaround: RE2 reads none, and says so
        (r"a(?=b)c", r"a(?=b)c"),  # a lookahead inside: no line-for-line equal
    ],
)
def test_perls_lookaround_at_either_end_is_matched_as_the_text_it_looks_at(perl: str, re2: str) -> None:
    assert without_lookaround(perl) == re2
    c = read(f"grep -rnP {shlex.quote(perl)} .")
    assert c is not None and c.pattern == re2 and c.regex
    assert without_lookaround(r"a\\K") == r"a\\K"  # an escaped backslash, then K: no \K


@pytest.mark.parametrize(
    ("query", "glob"),
    [
        ("cd src && grep -rn retry .", "{src/**,src}"),
        ("cd src; rg -n retry", "{src/**,src}"),  # no operand: the folder it went to
        ("cd src && rg retry api/", "src/api/**"),
        ("cd src/api && grep -n retry ../core.py", "src/core.py"),
        ("cd 'my dir' && cd src && rg retry", "{my dir/src/**,my dir/src}"),
        ("cd . && rg retry", ""),
    ],
)
def test_a_command_after_cd_searches_from_that_folder(query: str, glob: str) -> None:
    c = read(query)
    assert c is not None and path_glob(c) == glob and c.tool.startswith("cd ")
    for unknown in ("cd - && rg retry", "cd ~ && rg retry", "cd .. && rg retry"):  # a folder no index path names
        assert read(unknown) is None


def test_a_pipe_after_cd_sees_the_paths_as_printed_from_that_folder(home: Path) -> None:
    c = read("cd src && grep -rn retry . | grep '^./api'")
    assert c is not None and c.then == (LineFilter("^./api", True, True, False, "./path:line:text", "src"),)
    assert c.then[0].seen("src/api/a.py", 3, "retry()") == "./api/a.py:3:retry()"
    for pipeline in ("cd alpha && grep -rn fmt . | grep '^./s'", "cd alpha && rg -n fmt | grep -v '^core'"):
        out = subprocess.run(pipeline, shell=True, cwd=FIXTURE / "alpha", capture_output=True, text=True, check=True)
        rows = {
            ("alpha/" + line.removeprefix("./").split(":")[0], int(line.split(":")[1]))
            for line in out.stdout.splitlines()
        }
        got = ask(home, pipeline, repos=("alpha",))
        assert {(f.hit.path, n) for f in got.hits for n in f.hit.match_lines} == rows and rows, pipeline
    listed = "cd alpha && find . -name '*.py' | grep a"  # ./shapes.py: the folder's name is not printed
    out = subprocess.run(listed, shell=True, cwd=FIXTURE / "alpha", capture_output=True, text=True, check=True)
    assert files(ask(home, listed, repos=("alpha",))) == {"alpha/" + p.removeprefix("./") for p in out.stdout.split()}


def test_a_cd_into_a_checkout_searches_that_repository(home: Path) -> None:
    a = ask(home, "cd /home/me/checkouts/beta && rg -n 'return fmt'")
    assert files(a) == {"beta/service.py"}
    assert a.notes[0].endswith("in the repository beta (the checkout the cd goes to)")
    beneath = ask(home, "cd /home/me/checkouts/gamma/gamma && grep -rn 'return fmt' .")
    assert files(beneath) == {"gamma/app.py"}
    with pytest.raises(InvalidQuery, match="the checkout is the repository beta, which is not among those asked"):
        ask(home, "cd /home/me/checkouts/beta && rg -n 'return fmt'", repos=("alpha",))
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            assert files(client.search("cd /w/gamma && grep -rn 'return fmt' .")) == {"gamma/app.py"}
        text = mcp_search(address, "cd alpha && rg -n 'return fmt' | grep -v lower", 10)
        assert "alpha:alpha/shapes.py" in text and "read as the command cd alpha && rg" in text


def test_a_git_pathspec_that_leaves_files_out_is_kept_to(home: Path) -> None:
    assert files(ask(home, "git grep -n 'return fmt'")) == {"alpha/shapes.py", "beta/service.py", "gamma/app.py"}
    a = ask(home, "git grep -n 'return fmt' -- ':!alpha' ':(exclude)*/service.py'")
    assert files(a) == {"gamma/app.py"} and "not in alpha or alpha/** or */**/service.py" in a.notes[0]


def test_a_pipe_that_keeps_no_line_answers_with_none(home: Path) -> None:
    a = ask(home, "rg -n 'return fmt' | grep -v return")  # not fusion's candidates: they hold the lines left out
    assert (a.hits, a.total_matches, a.fusion_strategy) == ((), 0, "direct")
    assert not any("answered by fusion" in n for n in a.notes)


def test_what_a_pipe_leaves_out_is_said_and_a_bad_filter_refused(home: Path) -> None:
    a = ask(home, "rg -n 'return fmt' | grep -v lower | awk -F: '{print $1}'")
    assert files(a) == {"alpha/shapes.py", "gamma/app.py"}
    assert a.notes[0] == (
        "read as the command rg: literal 'return fmt', not in hidden files | grep -vF lower (each line seen as "
        "path:line:text), case respected; left out: | awk -F: '{print $1}' (no search runs it)"
    )
    counted = ask(home, "rg -c fmt | grep -v ':1$'")  # rg -c prints path:count: no line of a file a filter sees
    assert counted.notes[0].endswith("case respected; left out: | grep -v ':1$' (no search runs it)")
    assert counted.total_files == ask(home, "rg -c fmt").total_files
    for nonzero in ("grep -v ':0$'", "grep -v -e ':0$'", "awk -F: '$2>0'", "awk -F : '$NF != 0 {print}'"):
        # the files grep -c counts 0, which no answer lists: nothing left out (checked against grep below)
        kept = ask(home, f"grep -rc fmt . | {nonzero}")
        assert "left out" not in kept.notes[0] and kept.total_files == counted.total_files, kept.notes
        printed = subprocess.run(
            ["bash", "-c", f"grep -rc fmt --include='*.py' . | {nonzero}"],
            cwd=FIXTURE / "alpha",
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert {p.split(":")[0][2:] for p in printed} == files(
            ask(home, f"grep -rc fmt . | {nonzero}", repos=("alpha",))
        )
    with pytest.raises(InvalidQuery, match=r"invalid max_count '0': give the matching lines to keep of each file"):
        ask(home, "fmt", options={"mode": "literal", MAX_COUNT_OPTION: "0"})
    assert read("grep -m 0 -rn fmt .") is None and read("grep -m x -rn fmt .") is None
    with pytest.raises(InvalidQuery, match=r"invalid line_filters '\[1\]': give a JSON list"):
        ask(home, "fmt", options={"mode": "literal", LINE_FILTERS_OPTION: "[1]"})
    with pytest.raises(
        InvalidQuery, match=r"the grep the output is piped to: invalid regex 'a\(': missing \) at position 1"
    ):
        ask(home, "fmt", options={"mode": "literal", LINE_FILTERS_OPTION: '[{"pattern": "a(", "regex": true}]'})


@pytest.fixture(scope="module")
def dotted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of one repository with hidden files: a dotfile, and a file beneath a hidden folder."""
    from fourfold.index.generation import build_generation

    repo = tmp_path_factory.mktemp("dots") / "dots"
    for path, text in {
        "src/app.py": "def retry():\n    return 1\n",
        ".github/workflows/ci.yml": "steps:\n  - run: retry\n",
        "src/.env.example": "RETRY=retry\n",
    }.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    home = repo.parent / "home"
    build_generation(IndexStore(home), [(repo, "dots")], modalities=["text"])
    return home


@pytest.mark.parametrize(
    ("query", "listed"),
    [
        ("rg -n retry", {"src/app.py"}),  # rg skips hidden files
        ("rg --hidden retry", {"src/app.py", ".github/workflows/ci.yml", "src/.env.example"}),
        ("rg -uu retry", {"src/app.py", ".github/workflows/ci.yml", "src/.env.example"}),
        ("rg retry .github/", {".github/workflows/ci.yml"}),  # a hidden folder named is searched
        ("grep -rn retry .", {"src/app.py", ".github/workflows/ci.yml", "src/.env.example"}),  # grep does not skip
        ("ag retry", {"src/app.py"}),
        ("rg --files", {"src/app.py"}),
        ("fd -H .", {"src/app.py", ".github/workflows/ci.yml", "src/.env.example"}),
        ("fd yml", set()),
        ("find . -name '*.yml'", {".github/workflows/ci.yml"}),
        ("ls -R", {"src/app.py"}),
        ("ls -aR", {"src/app.py", ".github/workflows/ci.yml", "src/.env.example"}),
        ("tree -a", {"src/app.py", ".github/workflows/ci.yml", "src/.env.example"}),
        ('Grep(pattern="retry")', {"src/app.py", ".github/workflows/ci.yml", "src/.env.example"}),  # a tool's own
    ],
)
def test_hidden_files_are_skipped_where_the_tool_skips_them(dotted: Path, query: str, listed: set[str]) -> None:
    a = ask(dotted, query)
    assert (files(a) if a.total_files else set()) == listed


def test_a_folder_tree_names_every_depth_and_skips_hidden_folders_where_the_tool_does(dotted: Path) -> None:
    every = ask(dotted, "find . -type d")
    assert "text: folders in ./: .github/ (1 file), .github/workflows/ (1 file), src/ (2 files)" in every.notes
    assert "text: folders in ./: src/ (1 file)" in ask(dotted, "tree -d").notes  # .github/ and src/.env.example
    assert "text: folders in ./: .github/ (1 file)" in ask(dotted, "find . -maxdepth 1 -type d -name '.*'").notes


def test_case_is_the_tools(home: Path) -> None:
    assert ask(home, 'rg -i "BETA" beta/').total_matches > 0
    exact = ask(home, 'rg "BETA" beta/')  # rg respects case: no line holds BETA, and the answer says so
    assert exact.total_matches == 0 and "direct path (text) found nothing: answered by fusion" in exact.notes


def test_filters_off_and_a_listing_asked_for_leave_the_words(home: Path) -> None:
    for kw in ({"options": {FILTERS_OPTION: "off"}}, {"options": {"mode": "literal"}}):
        a = ask(home, 'rg -n "fmt(" gamma/', **kw)
        assert not any(n.startswith("read as the command") for n in a.notes)
    with pytest.raises(InvalidQuery, match="filters paths 2 ways"):
        ask(home, "rg fmt gamma/", path_glob="*.py")
    left = ask(home, "rg fmt -g '!beta/**'", options={EXCLUDE_OPTION: "gamma/**"})
    assert files(left) == {"alpha/core.py", "alpha/shapes.py"}


def test_the_cli_the_client_and_mcp_read_it(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", 'rg "fmt(" gamma/']) == 0
    out = json.loads(capsys.readouterr().out)
    assert {h["path"] for h in out["hits"]} == {"gamma/app.py"} and out["notes"][0].startswith("read as the command")
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            assert files(client.search("git grep -n 'def helper'")) == {"beta/service.py", "gamma/app.py"}
        text = mcp_search(address, "rg -n 'return fmt' alpha/", 10)
        assert "alpha/shapes.py" in text and "gamma/app.py" not in text and "read as the command rg" in text
        # context lines: a grep's -C, the client's context, MCP's context_lines
        with Client(address) as client:
            hit = client.search("fmt(", options={"mode": "literal"}, repos=["gamma"], context=(1, 0)).hits[0].hit
            assert hit.snippet == '8-def helper():\n9:    return fmt("gamma")'
        text = mcp_search(address, "fmt(", 10, mode="literal", repos=["gamma"], context_lines=1)
        assert '   | 8-def helper():\n   | 9:    return fmt("gamma")\n   | 10-' in text
        # each file's first matching lines: a grep's -m, the client's max_count, MCP's max_count
        with Client(address) as client:
            every = client.search("fmt", options={"mode": "literal"}, k=30)
            first = client.search("fmt", options={"mode": "literal"}, k=30, max_count=1)
            assert first.total_matches == first.total_files == every.total_files < every.total_matches
        assert "matching lines in" in mcp_search(address, "fmt", 10, mode="literal", max_count=1)
    assert main(["search", "--in-process", "--json", "--literal", "-m", "1", "fmt"]) == 0
    counted = json.loads(capsys.readouterr().out)["total_matches"]
    assert counted["lines"] == counted["files"] == first.total_files
    assert main(["search", "--in-process", "--literal", "-m", "0", "fmt"]) == 2
    assert "invalid -m 0: keep 1 or more matching lines of each file" in capsys.readouterr().err
    assert main(["search", "--in-process", "--literal", "-C", "1", "-A", "0", "--repo", "gamma", "fmt("]) == 0
    out = capsys.readouterr().out
    assert '       8-def helper():\n       9:    return fmt("gamma")\n' in out
    assert main(["search", "--in-process", "--literal", "-C", "11", "fmt("]) == 2
    assert "invalid -C 11: show 0 to 10 lines around each match" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("call", "tool", "pattern", "glob", "lists", "case_sensitive"),
    [
        ('Grep(pattern="retry", path="src", glob="*.py")', "Grep", "retry", "{src/**/*.py,src}", "lines", True),
        ('{"tool": "grep", "pattern": "a.b", "fixed_strings": true}', "grep", "a.b", "", "lines", True),
        ('{"tool": "grep", "pattern": "Retry", "-i": true}', "grep", "Retry", "", "lines", False),
        ('search_dir("connection refused")', "search_dir", "connection refused", "", "lines", True),
        ('{"name": "glob", "arguments": {"pattern": "**/*_test.go"}}', "glob", "*", "**/*_test.go", "paths", False),
        ('Glob(pattern="**/*.ts", path="web")', "Glob", "*", "web/**/*.ts", "paths", False),
        ('find_file("core.py")', "find_file", "*", "**/core.py", "paths", False),
        # Gemini CLI's search_file_content (a regex), Windsurf's find_by_name (fd's name glob, at any depth) and its
        # grep_search (capitalized arguments, a literal unless IsRegex, its Includes a list)
        (
            'search_file_content(pattern="ret\\w+", include="*.py", path="src")',
            "search_file_content",
            "ret\\w+",
            "{src/**/*.py,src}",
            "lines",
            True,
        ),
        (
            'find_by_name(SearchDirectory="src", Pattern="*.py")',
            "find_by_name",
            "*",
            "{src/**/*.[pP][yY],src}",
            "paths",
            False,
        ),
        (
            'grep_search(SearchPath="src", Query="a.b", Includes=["*.py", "*.pyi"])',
            "grep_search",
            "a.b",
            "{src/**/{*.py,*.pyi},src}",
            "lines",
            True,
        ),
        (
            '{"tool": "grep_search", "query": "x", "include_pattern": ["*.py", "*.go"]}',
            "grep_search",
            "x",
            "{*.py,*.go}",
            "lines",
            True,
        ),
        # Cursor's grep_search with its file patterns; Cline's search_files, whose pattern is a regex
        ('grep_search(query="retry", include_pattern="src/*.py")', "grep_search", "retry", "src/*.py", "lines", True),
        (
            'search_files(path="src", regex="ret\\w+", file_pattern="*.py")',
            "search_files",
            "ret\\w+",
            "{src/**/*.py,src}",
            "lines",
            True,
        ),
        ('LS(path="src")', "LS", "*", "{src,src/**}", "paths", False),
        (
            'list_dir(relative_workspace_path="coordinator")',
            "list_dir",
            "*",
            "{coordinator,coordinator/**}",
            "paths",
            False,
        ),
        # Continue's builtin_ tools, and Copilot's grep_search (camelCase: a literal unless isRegexp)
        ('builtin_ls(dirPath="src")', "builtin_ls", "*", "{src,src/**}", "paths", False),
        ('builtin_file_glob_search(pattern="**/*.go")', "builtin_file_glob_search", "*", "**/*.go", "paths", False),
        ('builtin_grep_search(query="a.b")', "builtin_grep_search", "a.b", "", "lines", True),
        ('grep_search(query="a.b", includePattern="src/**")', "grep_search", "a.b", "src/**", "lines", True),
    ],
)
def test_an_agents_search_tool_call_is_read_as_the_command_it_runs(
    call: str, tool: str, pattern: str, glob: str, lists: str, case_sensitive: bool
) -> None:
    c = read(call)
    assert c is not None and c.called
    assert (c.tool, c.pattern, path_glob(c), c.lists, c.case_sensitive) == (tool, pattern, glob, lists, case_sensitive)


def test_a_grep_calls_left_out_files_are_left_out() -> None:
    c = read('grep_search(query="retry", include_pattern="*.py", exclude_pattern="*_test.py")')
    assert c is not None and c.include == ("*.py",) and c.exclude[:1] == ("*_test.py",)
    assert read('search_files(path="src", regex="a.c")').regex  # a regex, where SWE-agent's search_dir is literal
    assert not read('search_dir(search_term="a.c")').regex
    assert not read('grep_search(SearchPath="src", Query="a.c")').regex  # Windsurf's: a literal
    assert read('grep_search(SearchPath="src", Query="a.c", IsRegex=true)').regex
    assert not read('grep_search(query="a.c", includePattern="**/*.py")').regex  # Copilot's: a literal
    assert read('grep_search(query="a|c", isRegexp=true, includePattern="**/*.py")').regex  # type: ignore[union-attr]
    assert read('builtin_grep_search(query="a.c")').regex  # type: ignore[union-attr]  # Continue's: ripgrep's regex
    for flagged in ('{"tool": "grep", "pattern": "a.c", "-F": true}', 'Grep(pattern="a.c", literal=true)'):
        assert not read(flagged).regex, flagged  # a flag named as written: -F, not -f
    for either in (
        'grep_search(query="Retry", case_sensitive=false)',
        '{"tool": "grep_search", "query": "Retry", "case_sensitive": false}',
    ):  # Cursor's, written as a call (false) and as JSON
        assert not read(either).case_sensitive, either  # type: ignore[union-attr]
    assert read('grep_search(query="Retry", case_sensitive=true)').case_sensitive  # type: ignore[union-attr]


def test_tool_calls_that_run_no_search_command_are_left_to_the_other_rules() -> None:
    for call in ('find_callers(symbol="retry")', "retry(fn, 3)", '{"tool": "read_file", "path": "a.py"}', "grep()"):
        assert read(call) is None, call


def test_an_absolute_folder_of_a_checkout_is_read_as_the_indexed_folder(home: Path) -> None:
    a = ask(home, "rg -n 'return fmt' /home/me/checkouts/gamma/gamma")
    assert files(a) == {"gamma/app.py"} and a.notes[0].startswith("read as the command rg: literal 'return fmt', in")
    assert files(ask(home, 'Grep(pattern="return fmt", path="/Users/me/src/beta/beta/")')) == {"beta/service.py"}
    assert files(ask(home, "ls /work/alpha/alpha")) == {"alpha/__init__.py", "alpha/core.py", "alpha/shapes.py"}
    # a caller who may read gamma alone: beta's folder is none of its, and the path is read as written
    hidden = search_once(Engine(IndexStore(home)), SearchParams("ls /x/beta", k=20), frozenset({"gamma"}))
    assert files(hidden) == set() and "text: nothing indexed in x/beta/" in hidden.notes  # as written


def test_the_file_lists_an_absolute_path_reads_are_read_off_the_serving_loop(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[bool] = []
    paths = GenerationReader.paths

    def recorded(reader: GenerationReader, repo: str) -> list[str]:
        threads.append(threading.current_thread() is threading.main_thread())  # the loop runs on the main thread
        return paths(reader, repo)

    monkeypatch.setattr(GenerationReader, "paths", recorded)
    for query in ("rg -n 'return fmt' /home/me/gamma/gamma", "cat /home/me/alpha/alpha/core.py", "alpha/core.py"):
        assert ask(home, query).hits, query
    for query in ("rg -n fmt nosuch", "git grep -n fmt main", "rg -n fmt v1.2"):  # a path no repository holds
        ask(home, query)
    assert threads and not any(threads)


def test_an_agents_grep_and_ls_calls_answer_as_the_commands(home: Path) -> None:
    within = ask(home, 'Grep(pattern="return fmt", glob="**/*.py", path="gamma")')  # as Claude Code sends them
    assert files(within) == {"gamma/app.py"} and within.notes[0].startswith("read as the tool call Grep")
    a = ask(home, 'Grep(pattern="return fmt", glob="*.py")')
    assert files(a) == {"alpha/shapes.py", "beta/service.py", "gamma/app.py"} and a.complete
    assert a.notes[0] == "read as the tool call Grep: literal 'return fmt', in *.py, case respected"
    assert files(ask(home, '{"tool": "glob", "pattern": "gamma/*.py"}')) == {"gamma/__init__.py", "gamma/app.py"}
    listed = ask(home, 'LS(path="beta")')
    assert files(listed) == {"beta/__init__.py", "beta/service.py"} and "text: no folders in beta/" in listed.notes


def test_git_greps_revision_is_read_as_the_revision_and_said(home: Path) -> None:
    c = read("git grep -n fmt v1.2 -- '*.py'")
    assert c is not None and c.revision == "v1.2" and c.paths == ("*.py",)
    assert read("git grep -n fmt HEAD~2").revision == "HEAD~2"  # type: ignore[union-attr]
    assert read("git grep -n fmt HEAD").revision == ""  # type: ignore[union-attr]
    assert read("git grep -n fmt alpha").paths == ("alpha",)  # type: ignore[union-attr]  # a folder, not a revision
    either = read("git grep -n -e a --or -e b")  # the patterns' either, as without --or
    assert either is not None and either.pattern == "(?:a)|(?:b)" and either.regex
    assert read("git grep -n -e a --or -e b --and -e c") is None and read("git grep -n -e a --not -e b") is None
    quoted = read("grep -rn '$(pwd)' .")  # a substitution inside single quotes is the pattern's text
    assert quoted is not None and quoted.pattern == "$(pwd)" and not quoted.regex and quoted.tool == "grep"
    assert read("rg -n '`retry`' docs").pattern == "`retry`"  # type: ignore[union-attr]
    a = ask(home, "git grep -n fmt v1.2 -- '*.py'")
    assert a.notes[1].startswith("the index holds no revision 'v1.2' apart: read at the revision indexed")
    assert a.total_matches > 0


@pytest.fixture(scope="module")
def revision_named(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A repository (a real git one) whose folders are named as revisions (``main``, ``v1.2``) or hold a dot
    (``vendor/github.com``), and its index's home."""
    root = tmp_path_factory.mktemp("revision_named")
    go = "package x\n// fmt\n"
    paths = ("main/app.go", "lib/x.go", "v1.2/old.go", "vendor/github.com/pkg/errors/errors.go", "lib/notes.md")
    home = index_files(
        root,
        "svc",
        {
            **dict.fromkeys(paths, go),
            **dict.fromkeys(("go.mod", "lib/go.mod", "README.md", "lib/README.md"), "module\n"),
        },
    )
    commit = "git init -q && git add -A && git -c user.email=a@b -c user.name=a commit -qm x"
    subprocess.run(commit, shell=True, cwd=root / "svc", check=True)
    return home, root / "svc"


@pytest.mark.skipif(shutil.which("fdfind") is None, reason="fd (fdfind) is not on PATH; make system-tools installs it")
@pytest.mark.parametrize(
    "command",
    [
        "git grep -l fmt main",  # a folder named as a branch: a path, as git reads it where no such revision is
        "git grep -l fmt main/",
        "git grep -l fmt v1.2",
        "grep -rl fmt v1.2",  # a folder whose name holds a dot, written without its slash
        "rg -l fmt vendor/github.com",
        "fd -e go . lib",  # fd's pattern is a regular expression: . is any name
        "fd . v1.2 -e go",
        "fd -e go . vendor/github.com",
        "fd errors vendor/github.com",
        "rg -n fmt v1.2 | grep 'old.go:2:'",  # rg prints a folder's paths, a file's not
        "rg -l module go.mod",  # the file at the top, not lib/go.mod
        "grep -l module go.mod lib/x.go main/app.go",
        "grep -l -e module -e fmt go.mod lib/x.go",
        "rg -l module go.mod README.md",  # several files at the top
        # git's pathspec magic, several operands among them a glob the shell expands, and a type rg is told of
        "git grep -l fmt -- ':(glob)**/*.go'",
        "git grep -l module -- ':(glob)*.mod'",  # glob magic: its * stays in the top folder
        "git grep -l fmt -- ':(top)lib'",
        "git grep -l fmt -- '*.go' ':(exclude,glob)vendor/**'",
        "rg -l fmt main/*.go lib/x.go",
        "grep -l module *.mod lib/README.md",
        "rg -l module --type-add 'mod:*.mod' -t mod",
        # a pathspec's * crosses folders, as git matches it (without FNM_PATHNAME); one before a / at least one
        "git grep -l fmt -- 'vendor/*.go'",
        "git ls-files 'vendor/*/*.go'",
        "git grep -l module -- '*/go.mod'",  # lib/go.mod, not the one at the top
        "git ls-files 'vendor/**/*.go'",  # beneath a folder of vendor, at any depth
        "git grep -l fmt -- . ':!vendor/*.go'",
        # rg's and fd's ignore globs leave out a folder they name with everything beneath it, as .gitignore does
        "rg -l fmt -g '!vendor'",
        "rg -l module -g '!lib/'",
        "rg -l fmt -g '!vendor/github.com' -g '!main'",
        "fd -e go -E vendor",
        "fd -E lib -e md",
        "fd --exclude main -e go",
        "fd -e md -d 1",  # fd's --max-depth: the files at most that many folders down
        "fd -e go --max-depth 2",
        "fd -e go -X grep -l fmt",  # fd's --exec-batch: grep of the files it lists
        "fd -e go . lib main -x grep -l fmt",  # --exec: each file alone
        "rg -l fmt main lib vendor",  # three bare words after the pattern: folders of the index, not a sentence
        "grep -rl module lib main vendor README.md",
    ],
)
def test_folders_named_as_revisions_or_files_are_searched_as_the_tools_read_them(
    revision_named: tuple[Path, Path], command: str
) -> None:
    home, repo = revision_named
    shell = command.replace("fd ", "fdfind ", 1) if command.startswith("fd ") else command
    printed = subprocess.run(shell, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout
    rows = [row.split(":")[0] for row in printed.splitlines()]
    want = {row.removeprefix("./") for row in rows if not row.endswith("/")}  # fd's folders: in notes
    a = ask(home, command)
    assert files(a) == want and want and not any("revision" in n for n in a.notes), a.notes


def test_a_revision_is_one_where_the_index_holds_no_such_folder_or_dash_dash_says_so() -> None:
    assert read("git grep -n fmt main").revision == "main"  # type: ignore[union-attr]  # no index to look in
    assert read("git grep -n fmt v1.2 -- '*.go'").revision == "v1.2"  # type: ignore[union-attr]
    assert read("rg fmt v1.2").paths == ("v1.2",)  # type: ignore[union-attr]  # a file, where no index says


@pytest.mark.parametrize("pattern", ["$(pwd)", "a$b", "x^2", "^cd $HOME", "total$", "[$]1", "^\\(cd\\|echo\\) "])
def test_grep_basic_syntax_reads_anchors_where_grep_does(tmp_path: Path, pattern: str) -> None:
    lines = "cd $(pwd)\necho a$b\ny = x^2\ncd $HOME\nthe total\ncost $1\necho total$\n"
    home = index_files(tmp_path, "sh", {"run.sh": lines})
    command = f"grep -rn {shlex.quote(pattern)} ."
    printed = subprocess.run(command, shell=True, cwd=tmp_path / "sh", capture_output=True, text=True).stdout
    want = {int(row.split(":")[1]) for row in printed.splitlines()}
    got = search_once(Engine(IndexStore(home)), SearchParams(command, k=10))
    assert {n for f in got.hits for n in f.hit.match_lines} == want and got.total_matches == len(want), got.notes


@pytest.mark.parametrize(
    ("command", "shell"),
    [  # SWE-agent's search commands, and the shell commands they run
        ("search_dir return alpha", "grep -rnI -- return alpha"),
        ("search_file fmt alpha/core.py", "grep -Hn -- fmt alpha/core.py"),
        ("find_file 'c*.py'", "find . -type f -name 'c*.py'"),
    ],
)
def test_swe_agents_search_commands_answer_as_the_commands_they_run(home: Path, command: str, shell: str) -> None:
    printed = subprocess.run(shell, shell=True, cwd=FIXTURE / "alpha", capture_output=True, text=True).stdout
    got = ask(home, command, repos=("alpha",))
    assert got.notes[0].startswith(f"read as the command {command.split()[0]}")
    if command.startswith("find_file"):
        assert {f.hit.path for f in got.hits} == {row.removeprefix("./") for row in printed.splitlines()}
    else:
        want = {(row.split(":")[0], int(row.split(":")[1])) for row in printed.splitlines()}
        assert {(f.hit.path, n) for f in got.hits for n in f.hit.match_lines} == want and want


def test_a_command_after_the_querys_filters_is_run_within_them(home: Path) -> None:
    a = ask(home, "repo:gamma rg -n 'fmt('")
    assert a.notes[:2] == (
        "read the query's filters repo:gamma",
        "read as the command rg: literal 'fmt(', not in hidden files, case respected",
    )
    assert a.total_matches > 0 and {f.hit.repo for f in a.hits} == {"gamma"}
    every = ask(home, "rg -n 'fmt('")
    assert {f.hit.repo for f in every.hits} > {"gamma"}  # without the filter: every repository's lines
    listed = ask(home, "rg --files | grep -v init repo:alpha")
    assert {f.hit.repo for f in listed.hits} == {"alpha"} and all("init" not in f.hit.path for f in listed.hits)


@pytest.mark.skipif(shutil.which("ag") is None, reason="ag is installed by `make system-tools`")
@pytest.mark.parametrize(
    "command",
    [
        # -G: the files searched, by a regular expression over their paths (smart case of its own)
        "ag -l -G 'core' fmt",
        "ag -l -G '\\.py$' return",
        "ag -l -G '(core|app)\\.py$' fmt",
        "ag -l -G 'CORE' fmt",
        "ag -l -i -G 'CORE' fmt",
        "ag -l -G '^\\./gamma/' import",
        "ag --nocolor -G 's[a-z]+' fmt",  # a quantifier after a class: no glob writes it, the words searched
        # a language's files, as ag's --python and ack's --python name them
        "ag -l --python def",
        # -g: the files whose paths match
        "ag -g 'a'",
        "ag -g '^\\./beta'",
        "ag -g 'APP'",
        "ag -i -g 'APP'",
        "ag -g 'py$' | grep -v init",
        # --ignore NAME (a value written after a space too): the files and folders so named left out
        "ag -l --ignore shapes.py fmt",
        "ag -l --ignore-dir gamma import",
        "ag -l --ignore='__init__.py' --ignore '*.txt' import",
    ],
)
def test_ags_file_regex_and_listing_select_the_files_ag_does(home: Path, command: str) -> None:
    every: set[str] = set()
    for repo in ("alpha", "beta", "gamma"):
        out = subprocess.run(command, shell=True, cwd=FIXTURE / repo, capture_output=True, text=True, check=False)
        printed = {row.removeprefix("./").split(":", 1)[0] for row in out.stdout.splitlines()}
        got = ask(home, command, repos=(repo,))
        if "[a-z]+" in command:
            assert not any(n.startswith("read as the command ag") for n in got.notes)
            continue
        assert files(got) == printed, (repo, got.notes)
        every |= printed
    capitals = ("CORE" in command or "APP" in command) and " -i " not in command  # smart case: none so named
    assert bool(every) != bool(capitals) or "[a-z]+" in command, command


@pytest.mark.parametrize(
    ("regex", "glob"),
    [
        ("_test\\.go$", "**_test.go"),
        ("\\.(js|ts)$", "**.{js,ts}"),
        ("^src/", "/src/**"),
        ("^\\./render", "/render**"),
        ("render/j", "**render/j**"),
        ("\\.go$|\\.py$", "{**.go,**.py}"),
        ("[^_]test", "**[!_]test**"),
        ("x.y", "**x?y**"),
        ("", ""),
        (".*", ""),
        # no glob writes these: a quantifier of a letter, a class of its own, alternatives anchored
        ("a+b", None),
        ("\\d", None),
        ("^a|b", None),
        ("(a|b)+", None),
    ],
)
def test_a_path_regex_is_the_glob_that_selects_the_paths_it_matches(regex: str, glob: str | None) -> None:
    assert regex_glob(regex) == glob
    paths = ["src/a_test.go", "render/json.go", "web/x.ts", "srcx/b.py", "a/test.md", "lib/_test.txt"]
    if glob:  # the glob selects the paths ag would search, each seen as ./path (^src/: the top folder's, as meant)
        rx, dotted = re.compile(regex), not regex.startswith("^") or regex.startswith("^\\./")
        matched = [p for p in paths if rx.search(f"./{p}" if dotted else p)]
        assert [p for p in paths if compile_glob(glob).match(p)] == matched


def test_a_file_placed_inside_a_word_or_a_loop_of_several_commands_is_not_read() -> None:
    assert read("find . -name '*.py' | xargs -I{} grep -n X {}.bak") is None  # the file inside a word
    assert read("find . -name '*.py' | xargs -I{} grep -n {} {}") is None  # placed twice
    assert read('find . | while read f; do grep -n X "$f" | head -1; done') is None  # a pipe inside the loop
    assert read('find . | while read f; do grep -n X "$f.orig"; done') is None
    each = read("find . -name '*.py' | xargs --replace=F grep -n X F")
    assert each is not None and each.pattern == "X" and each.include == ("*.py",)


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A repository whose files hold ``retry`` on distinct numbers of lines (one defines it, once), and its home."""
    root = tmp_path_factory.mktemp("counted")
    lines = {"a.py": 3, "src/b.py": 7, "src/deep/c.py": 5, "d.go": 1, "e.py": 9, "docs/f.md": 2}
    files_ = {path: "".join(f"retry()  # {i}\n" for i in range(n)) for path, n in lines.items()}
    files_["g.py"] = "def retry():\n    return 1\n"  # a definition: ranked first as usual, last by count
    return index_files(root, "svc", files_), root / "svc"


@pytest.mark.parametrize(
    ("command", "k"),
    [
        ("rg -c retry | sort -t: -k2 -rn", 20),
        ("grep -rc retry . | sort -t : -k 2,2nr | head -3", 3),  # the top 3 by count, though k keeps only them
        ("rg --count retry src | sort -t: -k2 -n | tail -2", 2),  # read from its end: the largest counts
        ("grep -rc 'retry()' --include='*.py' . | grep -v ':0$' | sort -t: -k2 -nr", 20),
    ],
)
def test_counts_sorted_largest_first_rank_the_files_by_their_matching_lines(
    counted: tuple[Path, Path], command: str, k: int
) -> None:
    home, repo = counted
    printed = subprocess.run(command, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout
    rows = [row.rsplit(":", 1) for row in printed.splitlines()]
    want = sorted(((path.removeprefix("./"), int(n)) for path, n in rows), key=lambda r: (-r[1], r[0]))
    a = search_once(Engine(IndexStore(home)), SearchParams(command, k=k))
    assert [(f.hit.path, len(f.hit.match_lines)) for f in a.hits] == want[:k], a.notes
    assert "the files with most matching lines first (their counts sorted)" in a.notes[0]


def test_counts_are_ranked_by_count_only_where_a_numeric_sort_puts_the_largest_first(home: Path) -> None:
    assert read("rg -c x | sort -rn").order == "matches"  # type: ignore[union-attr]
    assert read("grep -c x a.py b.py | sort --key=2nr -t:").order == "matches"  # type: ignore[union-attr]
    for unsorted in ("rg -c x", "rg -c x | sort -t: -k2 -n", "rg -l x | sort -rn", "rg -n x | sort"):
        assert read(unsorted).order == "", unsorted  # type: ignore[union-attr]
    assert read("rg -c x | sort").order == "path"  # type: ignore[union-attr]  # path:count, as the paths sort
    across = ask(home, "rg -c return | sort -t: -k2 -rn")  # three repositories' files, merged by their counts
    counts = [len(f.hit.match_lines) for f in across.hits]
    assert len({f.hit.repo for f in across.hits}) == 3 and counts == sorted(counts, reverse=True)
    paths = ask(home, "return", options={"order": "path", "mode": "literal"})  # the option as the client sends it
    assert [(f.hit.repo, f.hit.path) for f in paths.hits] == sorted((f.hit.repo, f.hit.path) for f in paths.hits)
    with pytest.raises(InvalidQuery, match="invalid order 'most'"):
        ask(home, "return", options={"order": "most"})
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            listed = client.search("rg -c return | sort -t: -k2 -rn")
            assert [len(f.hit.match_lines) for f in listed.hits] == counts
        text = mcp_search(address, "rg -c return | sort -t: -k2 -rn", 10)
        assert "the files with most matching lines first" in text


def test_a_path_the_repositories_do_not_hold_is_said_with_the_paths_that_end_so(home: Path) -> None:
    missing = ask(home, "rg -n fmt nosuch/")  # rg: "nosuch/: No such file or directory"
    assert "nosuch is no file or folder of the repositories searched" in missing.notes[0]
    short = ask(home, "rg -n 'return fmt' app.py", repos=("gamma",))  # an agent's short name: found, and said so
    assert files(short) == {"gamma/app.py"}
    assert short.notes[0].endswith("app.py is no file or folder at the top: it names gamma/app.py")
    held = ask(home, "rg -n 'return fmt' gamma/app.py alpha")
    assert "no file or folder" not in held.notes[0] and files(held) == {"gamma/app.py", "alpha/shapes.py"}


@pytest.mark.parametrize(
    ("command", "n", "in_files"),
    [
        ("rg -n return | head -3", 3, False),  # its first 3 matching lines, in the answer's order
        ("grep -rn return . | grep -v shapes | head -n 2", 2, False),
        ('Grep(pattern="return", output_mode="content", head_limit=4)', 4, False),  # as Claude Code asks
        ("rg -l return | head -2", 2, True),  # a file a line
        ('Grep(pattern="return", head_limit=1)', 1, True),  # its default output: the files
        ("rg -c return | sort -t: -k2 -rn | head -2", 2, True),
        ("find . -name '*.py' | head -3", 3, True),
    ],
)
def test_a_head_keeps_as_many_lines_as_it_keeps_of_the_output(home: Path, command: str, n: int, in_files: bool) -> None:
    a = ask(home, command)
    lines = [(f.hit.path, line) for f in a.hits for line in f.hit.match_lines]
    if in_files:
        assert len(a.hits) == n and a.total_files > n, a.notes
    else:  # among the lines the command lists without its head
        assert len(lines) == n and not a.complete and a.total_matches > n, a.notes
        every = ask(home, command.split(" | head")[0] if "|" in command else 'Grep(pattern="return", -n=true)')
        assert set(lines) <= {(f.hit.path, line) for f in every.hits for line in f.hit.match_lines}
    assert f"the first {n} " in a.notes[0] or "the first file" in a.notes[0], a.notes


def test_a_head_is_read_only_where_it_cuts_the_commands_own_lines(home: Path) -> None:
    for unread in ("rg -n x | sort | head", "rg -n x | head -5 | grep y", "rg -C 2 x | head -5", "rg -n x | head -c 9"):
        assert read(unread).head == 0, unread  # type: ignore[union-attr]
    assert (read("rg -n x | head").head, read("fd -e py | head -n3").head) == (10, 3)  # type: ignore[union-attr]
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            cut = client.search("rg -n return | head -2", k=10)
            assert sum(len(f.hit.match_lines) for f in cut.hits) == 2 and not cut.complete
        assert "the first 2 matching lines listed" in mcp_search(address, "rg -n return | head -2", 10)


@pytest.mark.parametrize(
    ("fixture", "command"),
    [
        ("revision_named", "rg -l fmt | sort | head -3"),  # a plain sort of the paths, then its first 3
        ("revision_named", "rg --sort path -n fmt | head -3"),  # rg's own order by path: its first 3 lines
        ("revision_named", "rg --sort=path -l module"),
        ("revision_named", "git grep -n fmt | head -2"),  # git grep prints in path order: its first 2 are known
        ("revision_named", "git ls-files | head -4"),
        ("revision_named", "find . -name '*.go' | sort | head -2"),
        ("revision_named", "rg -l fmt | grep -v vendor | sort -u | head -2"),
        # files whose usual rank (their matching lines) is not their paths' order
        ("counted", "rg -l retry | sort | head -3"),
        ("counted", "rg --sort path -n retry | head -4"),
        ("counted", "rg -c retry | sort"),
        ("counted", "find . -name '*.py' | sort | head -2"),
    ],
)
def test_a_listing_sorted_by_path_is_the_tools_own_order(
    request: pytest.FixtureRequest, fixture: str, command: str
) -> None:
    home, repo = request.getfixturevalue(fixture)
    shell = command.replace("rg ", "rg --no-config ", 1)
    printed = subprocess.run(shell, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout
    rows = [row.removeprefix("./") for row in printed.splitlines()]
    a = ask(home, command)
    if " -n " in command:  # path:line:text, in order
        want: list[object] = [(row.split(":")[0], int(row.split(":")[1])) for row in rows]
        got: list[object] = [(f.hit.path, line) for f in a.hits for line in f.hit.match_lines]
    elif " -c " in command:  # path:count
        want = [(row.rsplit(":", 1)[0], int(row.rsplit(":", 1)[1])) for row in rows]
        got = [(f.hit.path, len(f.hit.match_lines)) for f in a.hits]
    else:
        want, got = list(rows), [f.hit.path for f in a.hits]
    assert got == want and want, a.notes
    assert "in the order of their paths" in a.notes[0]


@pytest.fixture(scope="module")
def lines_counted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Files of as many lines as wc -l counts (their newlines): one whose last line ends in none, one with empty
    lines after its code; and the index's home."""
    root = tmp_path_factory.mktemp("lines_counted")
    texts = {f"src/m{n}.py": "".join(f"x{i} = {i}\n" for i in range(n)) for n in (3, 8, 5, 12)}
    texts |= {"src/deep/t.py": "a = 1\nb = 2", "blank.py": "a = 1\n\n\n\n", "docs/r.md": "# r\n\nsome words\n"}
    return index_files(root, "svc", texts), root / "svc"


@pytest.mark.parametrize(
    "command",
    [
        "find . -name '*.py' | xargs wc -l",  # each file's count, and their total
        "find . -name '*.py' | xargs wc -l | sort -n | tail -3",  # the two longest, and the total
        "find . -name '*.py' | xargs wc -l | sort -rn | head -4",
        "find src -name '*.py' -exec wc -l {} +",
        "find . -name '*.py' -exec wc -l {} \\;",  # each file alone: no total
        "wc -l $(find . -name '*.md')",  # one file: no total
        "find . -type f | xargs wc -l | sort -n | tail -1",  # the total alone
        "find . -type f | xargs -0 wc -l --lines | sort -nr | head -n 2",
        "grep -rl 'x4 =' . | xargs wc -l | sort -n | tail -2",  # the files a grep lists
        "fd -e py . src -X wc -l | sort -n | tail -2",  # fd's --exec-batch
    ],
)
def test_a_listings_files_have_their_lines_counted_as_wc_counts_them(
    lines_counted: tuple[Path, Path], command: str
) -> None:
    home, repo = lines_counted
    shell = command.replace("xargs -0", "xargs").replace("fd ", "fdfind ")  # find's files as it prints them; fd
    if shell.startswith("fdfind") and shutil.which("fdfind") is None:
        pytest.skip("fd (fdfind) is not on PATH; make system-tools installs it")
    printed = subprocess.run(shell, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout
    want = sorted((int(n), path.removeprefix("./")) for n, path in (row.split() for row in printed.splitlines()))
    a = ask(home, command)
    said = next(n for n in a.notes if n.startswith("wc -l: ")).removeprefix("wc -l: ").split(" (")[0]
    rows = [(int(n), path) for n, path in (row.split(" ") for row in said.split(", "))]
    assert sorted(rows) == want, a.notes
    assert [f.hit.path for f in a.hits] == [path for _, path in rows if path != "total"]
    assert "each file's lines counted (wc -l)" in a.notes[0]


@pytest.mark.parametrize(
    "command",
    [
        "find . -name '*.py' | xargs wc -c",  # bytes
        "find . -name '*.py' | xargs wc -c | sort -n | tail -3",  # the largest two, and the total
        "find . -type f | xargs wc | sort -rn | head -3",  # wc's defaults: lines, words, bytes
        "find src -name '*.py' -exec wc -w {} +",
        "find src -name '*.py' | xargs wc -lc",
        "fd -e md -X wc -m",  # characters
        "wc -c $(find . -name '*.md')",
    ],
)
def test_a_listings_files_have_their_words_and_bytes_counted_as_wc_counts_them(
    lines_counted: tuple[Path, Path], command: str
) -> None:
    home, repo = lines_counted
    shell = command.replace("fd ", "fdfind ")
    if shell.startswith("fdfind") and shutil.which("fdfind") is None:
        pytest.skip("fd (fdfind) is not on PATH; make system-tools installs it")
    printed = subprocess.run(shell, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout
    want = sorted(
        (tuple(map(int, row.split()[:-1])), row.split()[-1].removeprefix("./")) for row in printed.splitlines()
    )
    a = ask(home, command)
    said = next(n for n in a.notes if n.startswith("wc")).split(": ", 1)[1].split(" (")[0]
    rows = [(tuple(map(int, row.split()[:-1])), row.split()[-1]) for row in said.split(", ")]
    assert sorted(rows) == want, a.notes
    assert [f.hit.path for f in a.hits] == [path for _, path in rows if path != "total"]


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("wc -c src/m3.py", "src/m3.py (svc) has 21 bytes"),
        ("wc src/deep/t.py", "src/deep/t.py (svc) has 1 lines, 6 words, 11 bytes"),  # no newline at its end
        ("wc -w -l docs/r.md", "docs/r.md (svc) has 3 lines, 4 words"),
        ("cat blank.py | wc -m", "blank.py (svc) has 9 characters"),
    ],
)
def test_wc_of_a_file_counts_what_wc_counts(lines_counted: tuple[Path, Path], command: str, said: str) -> None:
    home, repo = lines_counted
    printed = subprocess.run(command, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout.split()
    counts = [n for n in printed if n.isdigit()]
    assert [n for n in said.split(" has ")[1].replace(",", "").split() if n.isdigit()] == counts
    a = ask(home, command)
    assert said in a.notes[0] and a.hits[0].hit.path == said.split(" ")[0]


def test_words_are_counted_as_wc_counts_them_in_a_utf8_locale(tmp_path: Path) -> None:
    text = "a\u00a0b · c\u2003d\te\x1cf\n"  # no-break and em spaces part words, a lone dot is one, \x1c no part
    home = index_files(tmp_path, "w", {"t.txt": text})
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    printed = subprocess.run(["wc", "-w", "t.txt"], cwd=tmp_path / "w", capture_output=True, text=True, env=env)
    assert printed.stdout.split()[0] == "6"
    assert "t.txt (w) has 6 words" in ask(home, "wc -w t.txt").notes[0]


def test_the_longest_files_come_first_through_every_interface(lines_counted: tuple[Path, Path]) -> None:
    home, _ = lines_counted
    c = read("git ls-files '*.py' | xargs wc -l | sort -n | tail -3")
    assert c is not None and (c.counts_lines, c.order, c.head) == ("total", "lines", 3)
    assert read("fd -e py | xargs wc -l | sort -n").order == ""  # type: ignore[union-attr]  # ascending, all shown
    kept = read("find . -name '*.py' | xargs wc -l | awk '{print $1}'")  # the counts, the awk said to be left out
    assert kept is not None and kept.counts_lines == "total" and kept.left_out == ("awk '{print $1}'",)
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            top = client.search("find . -name '*.py' | xargs wc -l | sort -rn | head -3", k=10)
            assert [f.hit.path for f in top.hits] == ["src/m12.py", "src/m8.py"] and not top.complete
        text = mcp_search(address, "find . -name '*.py' | xargs wc -l | sort -rn | head -3", 10)
        assert "wc -l: 12 src/m12.py, 8 src/m8.py, 33 total" in text


@pytest.mark.parametrize(
    ("command", "offset"),
    [  # the file's lines a command reads, piped to a grep: its lines numbered in the file (the stream's + offset)
        ("head -5 src/m12.py | grep -n x", 0),
        ("head -n 20 src/m12.py | grep -n '= 1'", 0),
        ("sed -n '3,8p' src/m12.py | grep -n =", 2),
        ("tail -n 4 src/m12.py | grep -n 1", 8),
        ("awk 'NR>=2 && NR<=6' src/m8.py | grep -n -e 3 -e 5", 1),
    ],
)
def test_a_grep_of_the_lines_a_command_reads_of_a_file_keeps_to_them(
    lines_counted: tuple[Path, Path], command: str, offset: int
) -> None:
    home, repo = lines_counted
    printed = subprocess.run(command, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout
    want = [int(row.split(":")[0]) + offset for row in printed.splitlines()]
    a = ask(home, command)
    assert [n for f in a.hits for n in f.hit.match_lines] == want and a.total_matches == len(want), a.notes
    assert all(f.hit.start_line <= f.hit.match_lines[0] <= f.hit.end_line for f in a.hits)  # shown where they are
    assert len(a.confidences) in (0, len(a.hits))
    assert a.notes[0].startswith(f"read as the command {command.split()[0]}")


def test_a_grep_of_some_lines_is_read_only_where_they_are_one_files_plain_range(
    lines_counted: tuple[Path, Path],
) -> None:
    assert read("head -40 a.py | grep -n def").within == (1, 40)  # type: ignore[union-attr]
    assert read("tail -n 20 a.py | grep def").within == (-20, 0)  # type: ignore[union-attr]
    for unread in ("head -5 a.py b.py | grep x", "head -c 100 a.py | grep x", "sed -n '/def/,/return/p' a.py | grep x"):
        assert read(unread) is None, unread
    home, _ = lines_counted
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            got = client.search("tail -n 3 src/m12.py | grep -n x", k=10)
            assert [n for f in got.hits for n in f.hit.match_lines] == [10, 11, 12]
        assert "in its last 3 lines" in mcp_search(address, "tail -n 3 src/m12.py | grep -n x", 10)


def test_a_calls_escaped_regex_is_the_regex_json_and_python_write(lines_counted: tuple[Path, Path]) -> None:
    home, repo = lines_counted
    printed = subprocess.run(
        ["rg", "--no-config", "-n", r"x1\d = \d+\(?", "src"], cwd=repo, capture_output=True, text=True
    )
    want = {(row.split(":")[0], int(row.split(":")[1])) for row in printed.stdout.splitlines()}
    a = ask(home, r'Grep(pattern="x1\\d = \\d+\\(?", path="src", output_mode="content")')
    assert {(f.hit.path, n) for f in a.hits for n in f.hit.match_lines} == want and want, a.notes


@pytest.mark.parametrize(
    "command", ["grep -c '' src/m8.py", "rg -n '' src/deep/t.py", "grep -n -e '' -e zzz src/m5.py"]
)
def test_an_empty_pattern_matches_every_line_as_grep_reads_it(lines_counted: tuple[Path, Path], command: str) -> None:
    home, repo = lines_counted
    printed = subprocess.run(command, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout
    rows = printed.splitlines()
    want = int(rows[0]) if " -c " in command else len(rows)  # grep -c: the count; else a matching line a row
    a = ask(home, command)
    assert sum(len(f.hit.match_lines) for f in a.hits) == want == a.total_matches, a.notes


@pytest.mark.parametrize("option", ["--others", "-o", "-m", "--deleted", "-i"])
def test_git_ls_files_of_a_checkouts_state_is_refused_saying_why(home: Path, option: str) -> None:
    with pytest.raises(InvalidQuery, match=f"git ls-files {option} lists the checkout's .* leave {option} out"):
        ask(home, f"git ls-files {option} --exclude-standard")


@pytest.mark.parametrize(
    "command",
    [  # a grep's lines cut to their paths and counted per file, most first: the files that use it most
        "grep -rn 'retry()' . | cut -d: -f1 | sort | uniq -c | sort -rn | head -3",
        "rg -n retry | awk -F: '{print $1}' | sort | uniq -c | sort -n | tail -2",
        "rg -n retry | grep -v docs/ | cut -d : -f 1 | sort | uniq -c | sort -nr",
    ],
)
def test_lines_counted_per_file_by_uniq_rank_the_files_that_use_it_most(
    counted: tuple[Path, Path], command: str
) -> None:
    home, repo = counted
    shell = command.replace("rg ", "rg --no-config ", 1)
    printed = subprocess.run(shell, shell=True, cwd=repo, capture_output=True, text=True, check=True).stdout
    want = sorted(
        ((p.removeprefix("./"), int(n)) for n, p in (row.split() for row in printed.splitlines())), key=_by_count
    )
    a = search_once(Engine(IndexStore(home)), SearchParams(command, k=20))
    assert [(f.hit.path, len(f.hit.match_lines)) for f in a.hits] == want, a.notes
    assert "the files with most matching lines first" in a.notes[0]


def _by_count(row: tuple[str, int]) -> tuple[int, str]:
    return -row[1], row[0]
