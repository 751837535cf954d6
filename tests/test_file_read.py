"""A command that reads a file, written as the query (``cat``, ``head``, ``tail``, ``sed -n``), answered by the
file's segments that hold those lines, and a file's path alone answered by the file: the reader, then the engine
over a real index, the CLI, the Python client over gRPC and MCP."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, index_files, mcp_search, search_once

from fourfold.api import Answer, SearchParams
from fourfold.client import Client
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.file_read import FileRead, read
from fourfold.coordinator.file_subject import is_path_alone
from fourfold.index.store import IndexStore


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("cat src/api.py", FileRead("cat", "src/api.py")),
        ("cat -n ./src/api.py", FileRead("cat", "src/api.py")),
        ("less README.md", FileRead("less", "README.md")),
        ("bat -r 10:20 api.py", FileRead("bat", "api.py", 10, 20)),
        ("head src/api.py", FileRead("head", "src/api.py", 1, 10)),
        ("head -n 40 src/api.py", FileRead("head", "src/api.py", 1, 40)),
        ("head -40 src/api.py", FileRead("head", "src/api.py", 1, 40)),
        ("head --lines=5 src/api.py", FileRead("head", "src/api.py", 1, 5)),
        ("tail -n 20 CHANGES.md", FileRead("tail", "CHANGES.md", -20, 0)),
        ("tail -n +30 CHANGES.md", FileRead("tail", "CHANGES.md", 30, 0)),
        ("sed -n '120,160p' src/api.py", FileRead("sed -n", "src/api.py", 120, 160)),
        ("sed -n 7p src/api.py", FileRead("sed -n", "src/api.py", 7, 7)),
        ("sed -n '7,$p' src/api.py", FileRead("sed -n", "src/api.py", 7, 0)),
        ("cat src/api.py | head -n 5", FileRead("cat | head", "src/api.py", 1, 5)),
        ("cat src/api.py | sed -n '3,4p'", FileRead("cat | sed -n", "src/api.py", 3, 4)),
        ("cat /home/me/api/src/api.py", FileRead("cat", "/home/me/api/src/api.py")),
        ("cat a.py b/c.py", FileRead("cat", "a.py", more=("b/c.py",))),  # several files, each in turn
        ("cat a.py 2>/dev/null", FileRead("cat", "a.py")),  # a redirection is no file
        ("head -n 3 a.go b.go c.go", FileRead("head", "a.go", 1, 3, more=("b.go", "c.go"))),
        # sed reads several files as one stream, its lines numbered on across them
        ("sed -n '1,5p' a.py b.py", FileRead("sed -n", "a.py", 1, 5, more=("b.py",), stream=True)),
        # bytes: the lines that hold them
        ("head -c 100 a.py", FileRead("head -c", "a.py", bytes=100)),
        ("head --bytes=2K a.py", FileRead("head -c", "a.py", bytes=2048)),
        ("tail -c 1kB a.py", FileRead("tail -c", "a.py", bytes=-1000)),
        ("cat a.py | head -c 50", FileRead("cat | head -c", "a.py", bytes=50)),
        # several ranges of one file; awk's tests of the line number
        ("sed -n '3,4p;9p' a.py", FileRead("sed -n", "a.py", 3, 4, ranges=((9, 9),))),
        ("sed -n -e 3p -e '7,$p' a.py", FileRead("sed -n", "a.py", 3, 3, ranges=((7, 0),))),
        ("awk 'NR>=10 && NR<=20' a.go", FileRead("awk", "a.go", 10, 20)),
        ("awk 'NR==5' a.go", FileRead("awk", "a.go", 5, 5)),
        ("awk 'NR==3,NR==9 {print}' a.go", FileRead("awk", "a.go", 3, 9)),
        ("awk 'NR>2&&NR<6{print $0}' a.go", FileRead("awk", "a.go", 3, 5)),
        ("cat -n a.go | awk 'FNR>=7'", FileRead("cat | awk", "a.go", 7, 0)),
        # a file's name without an extension: capitals, or a build file's name
        ("cat LICENSE", FileRead("cat", "LICENSE")),
        # words as the shell makes them: braces expanded, a glob read file by file (the engine expands it)
        ("cat src/{app,routes}.py", FileRead("cat", "src/app.py", more=("src/routes.py",))),
        ("head -n 3 render/*.go", FileRead("head", "render/*.go", 1, 3)),
        ("wc -l *.go", FileRead("wc -l", "*.go", counted="l")),
        ("sed -n '1,5p' src/*.py", FileRead("sed -n", "src/*.py", 1, 5, stream=True)),
        ("awk 'NR<=5' src/*.py", FileRead("awk", "src/*.py", 1, 5, stream=True)),
        ("awk 'FNR<=5' src/*.py", FileRead("awk", "src/*.py", 1, 5)),
        ("cat 'a{b,c}.py'", FileRead("cat", "a{b,c}.py")),  # quoted: no braces expanded
        # the lines a pipe of line filters keeps, and all but the last lines, and bytes from one on
        ("head -n 50 a.py | tail -n 10", FileRead("head | tail", "a.py", 1, 50, then=((-10, 0),))),
        ("tail -n +20 a.py | head -5", FileRead("tail | head", "a.py", 20, 0, then=((1, 5),))),
        (
            "sed -n '10,200p' a.py | head -n 20 | tail -n 5",
            FileRead("sed -n | head | tail", "a.py", 10, 200, then=((1, 20), (-5, 0))),
        ),
        ("cat a.py b.py | head -n 3", FileRead("cat | head", "a.py", 1, 3, more=("b.py",), stream=True)),
        ("cat a.py b.py | tail -n 3", FileRead("cat | tail", "a.py", -3, 0, more=("b.py",), stream=True)),
        (
            "cat a.py b.py | tail -n 30 | head -n 2",
            FileRead("cat | tail | head", "a.py", -30, 0, more=("b.py",), stream=True, then=((1, 2),)),
        ),
        ("head -n -5 a.py", FileRead("head", "a.py", 1, -5)),
        ("head --lines=-5 a.py", FileRead("head", "a.py", 1, -5)),
        ("tail -c +100 a.py", FileRead("tail -c", "a.py", byte_from=100)),
        # an editor or a pager opened at a line, an agent's editor commands
        ("less +120 a.py", FileRead("less", "a.py", 120)),
        ("vim +12 src/a.py", FileRead("vim", "src/a.py", 12)),
        ("nano +12,4 a.py", FileRead("nano", "a.py", 12)),
        ("code -g src/a.py:120:4", FileRead("code", "src/a.py", 120)),
        ("view a.py", FileRead("view", "a.py")),
        ("open src/a.py 800", FileRead("open", "src/a.py", 1, 850, then=((-100, 0),))),
        ("open src/a.py", FileRead("open", "src/a.py", 1, 100, then=((-100, 0),))),
        (
            "str_replace_editor view /repo/a.py --view_range 30 50",
            FileRead("str_replace_editor view", "/repo/a.py", 30, 50, True),
        ),
        # a file at a revision
        ("git show HEAD:src/a.py", FileRead("git show", "src/a.py")),
        ("git --no-pager show v1.2:a.py | head -n 5", FileRead("git show | head", "a.py", 1, 5, revision="v1.2")),
        ("git cat-file -p main:a.py", FileRead("git cat-file", "a.py", revision="main")),
        ("head -n 5 PKG-INFO", FileRead("head", "PKG-INFO", 1, 5)),
        ("less Makefile", FileRead("less", "Makefile")),
        # an agent's tool call that reads a file
        (
            '{"tool": "read_file", "path": "a.py", "start_line": 3, "end_line": 9}',
            FileRead("read_file", "a.py", 3, 9, True),
        ),
        (
            '{"command": "view", "path": "/repo/a.py", "view_range": [5, -1]}',
            FileRead("view", "/repo/a.py", 5, 0, True),
        ),
        ('Read(file_path="/repo/a.py", offset=20, limit=5)', FileRead("Read", "/repo/a.py", 20, 24, True)),
        (  # Gemini CLI's read_file: a 0-based offset
            'read_file(absolute_path="/repo/a.py", offset=9, limit=5)',
            FileRead("read_file", "/repo/a.py", 10, 14, True),
        ),
        (  # Windsurf's view_file: capitalized arguments
            'view_file(AbsolutePath="/repo/a.py", StartLine=10, EndLine=14)',
            FileRead("view_file", "/repo/a.py", 10, 14, True),
        ),
        (  # Cursor's read_file
            'read_file(target_file="a.py", start_line_one_indexed=10, end_line_one_indexed_inclusive=14)',
            FileRead("read_file", "a.py", 10, 14, True),
        ),
        (
            '{"name": "get_file_contents", "arguments": {"path": "a.py"}}',
            FileRead("get_file_contents", "a.py", 1, 0, True),
        ),
        ('open_file("src/a.py")', FileRead("open_file", "src/a.py", 1, 0, True)),
        ('view_file(path="a.py", lines="10-20")', FileRead("view_file", "a.py", 10, 20, True)),
    ],
)
def test_a_command_that_reads_a_file_is_read_as_its_lines(query: str, expected: FileRead) -> None:
    assert read(query) == expected


@pytest.mark.parametrize(
    "query",
    [
        "cat",
        "cat cats are great",
        "cat 1.py 2.py 3.py 4.py 5.py 6.py 7.py 8.py 9.py",  # more files than a read answers
        "head -n 5 a.py b.py | tail -n 2",  # head prints each file's name as a line too
        "sed -n '/a/,/b/p' src/*.py",  # a pattern's ranges over several files
        "head -c +5 a.py",
        "less +/retry a.py",  # a pattern to open at: no line named
        "open the pod bay doors",
        "open a.py first",
        "cat a.py more words",
        "less likely",
        "cat Cats",
        "awk '{print $1}' a.py",
        "awk 'NR>9 && NR<5' a.py",
        "sed -n '1,5p;9p' a.py b.py",  # several ranges of several files
        "sed -n '3p;/def/p' a.py",
        "head -c 0 a.py",
        "head -c ten a.py",
        "tail -f app.log",
        "sed 's/a/b/' a.py",
        "sed -n '9,3p' a.py",
        "less likely",
        "cat src/",
        "head -n 5 a.py | grep x",
        "grep -n x a.py | head",
        "what does cat a.py print",
        'find_callers(symbol="read_file")',
        '{"tool": "open_pull_request", "title": "fix a.py"}',
        '{"tool": "read_file", "path": "a.py", "start_line": 9, "end_line": 3}',
        "read_config(settings)",
        'search_file_content(pattern="x", path="a.py")',  # Gemini CLI's grep, though its name says file content
    ],
)
def test_what_reads_no_one_files_lines_is_left_to_the_other_rules(query: str) -> None:
    assert read(query) is None


def test_a_path_alone_is_a_files_path_not_a_dotted_name() -> None:
    assert is_path_alone("alpha/core.py", "alpha/core.py") and is_path_alone("`core.py`", "core.py")
    assert not is_path_alone("Vec.write", "Vec.write") and not is_path_alone("click.core", "click.core")
    assert not is_path_alone("what is in core.py", "core.py")


def ask(home: Path, query: str, visible: frozenset[str] | None = None, **kw: object) -> Answer:
    p = SearchParams(query, **{"k": 20, "with_snippets": True, **kw})  # type: ignore[arg-type]
    return search_once(Engine(IndexStore(home)), p, visible)


def spans(a: Answer) -> list[tuple[str, int, int]]:
    return [(f.hit.path, f.hit.start_line, f.hit.end_line) for f in a.hits]


def test_the_engine_answers_with_the_segments_that_hold_the_lines_in_line_order(multi_home: Path) -> None:
    whole = ask(multi_home, "cat alpha/core.py")
    assert (whole.intent, whole.fusion_strategy, whole.complete) == ("exact_match", "direct", True)
    starts = [s for _, s, _ in spans(whole)]
    assert starts == sorted(starts) and {p for p, _, _ in spans(whole)} == {"alpha/core.py"}
    assert {f.hit.symbol for f in whole.hits} >= {"fmt", "parse", "tick", "report"}
    assert whole.notes[0].startswith("read as the command cat: the segments of alpha/core.py (alpha) that hold its")
    assert "`fourfold show alpha:alpha/core.py:1-" in whole.notes[1] and "MCP read_file" in whole.notes[1]
    middle = ask(multi_home, "sed -n '10,11p' alpha/core.py")
    assert [f.hit.symbol for f in middle.hits] == ["parse"] and "def parse(text):" in middle.hits[0].hit.snippet
    assert "lines 10-11 (of 21)" in middle.notes[0]
    assert [f.hit.symbol for f in ask(multi_home, "tail -n 2 alpha/core.py").hits] == ["report"]
    head = ask(multi_home, "head -n 7 core.py", k=1)  # a file's name alone names it where it is the only one
    assert len(head.hits) == 1 and not head.complete and "more segments hold those lines" in head.notes[-1]
    past = ask(multi_home, "sed -n '90,95p' alpha/core.py")
    assert past.hits == () and "has 21 lines, none from line 90" in past.notes[0]


def test_an_agents_read_call_and_an_absolute_path_read_the_file(multi_home: Path) -> None:
    called = ask(multi_home, 'Read(file_path="/home/me/checkouts/alpha/alpha/core.py", offset=10, limit=2)')
    assert [f.hit.symbol for f in called.hits] == ["parse"]
    assert called.notes[0].startswith("read as the tool call Read: the segments of alpha/core.py (alpha)")
    viewed = ask(multi_home, '{"command": "view", "path": "alpha/core.py", "view_range": [14, -1]}')
    assert [f.hit.symbol for f in viewed.hits] == ["tick", "report"]
    assert [f.hit.symbol for f in ask(multi_home, "cat /tmp/x/alpha/core.py").hits if f.hit.symbol][:1] == ["fmt"]
    folder = ask(multi_home, '{"command": "view", "path": "beta"}')  # an editor's view of a folder lists it
    assert {f.hit.path for f in folder.hits} == {"beta/__init__.py", "beta/service.py"}
    assert (
        folder.notes[0] == "'beta' is a folder: listed as ls lists it" and "text: no folders in beta/" in folder.notes
    )
    assert ask(multi_home, '{"command": "view", "path": "nope"}').notes[0].startswith("read as the tool call view: no")


def test_several_files_are_read_each_in_turn(multi_home: Path) -> None:
    a = ask(multi_home, "head -n 7 alpha/core.py gamma/app.py alpha/nope.py", k=4)
    assert [p for p, _, _ in spans(a)] == ["alpha/core.py", "gamma/app.py"]  # k shared: one each, in order
    assert a.notes[0].startswith("read as the command head: the segments of alpha/core.py (alpha)")
    assert a.notes[1].startswith("read as the command head: the segments of gamma/app.py (gamma)")
    assert "no indexed file is 'alpha/nope.py'" in a.notes[2]  # how each file was read first, then the rest
    assert "`fourfold show alpha:alpha/core.py:1-7`" in a.notes[3]
    both = ask(multi_home, "cat gamma/app.py beta/service.py")
    assert [p for p, _, _ in spans(both)] == sorted(
        [p for p, _, _ in spans(both)], key=lambda p: p != "gamma/app.py"
    ) and {p for p, _, _ in spans(both)} == {"gamma/app.py", "beta/service.py"}


FIXTURE = Path(__file__).parent / "fixtures" / "graph_multi"


@pytest.mark.parametrize("size", [1, 50, 52, 53, 120, 358, 359, 5000])
def test_head_c_reads_the_lines_that_hold_the_bytes_head_prints(multi_home: Path, size: int) -> None:
    path = FIXTURE / "alpha" / "alpha" / "core.py"
    printed = subprocess.run(["head", "-c", str(size), str(path)], capture_output=True, check=True).stdout
    a = ask(multi_home, f"head -c {size} alpha/core.py")
    lines = len(printed.splitlines())  # a line the bytes end inside counts: head printed part of it
    assert f"its lines 1-{lines} (of 21; its first {size} bytes)" in a.notes[0]
    assert min(f.hit.start_line for f in a.hits) == 1 and max(f.hit.start_line for f in a.hits) <= lines
    tail = subprocess.run(["tail", "-c", str(size), str(path)], capture_output=True, check=True).stdout
    t = ask(multi_home, f"tail -c {size} alpha/core.py")
    first = 21 - len(tail.splitlines()) + 1
    assert f"its lines {first}-21 (of 21; its last {size} bytes)" in t.notes[0]


def test_several_ranges_and_awk_read_the_lines_the_tools_print(multi_home: Path) -> None:
    path = FIXTURE / "alpha" / "alpha" / "core.py"
    for command in ("sed -n '6,7p;14,17p' alpha/core.py", "awk 'NR>=10 && NR<=11' alpha/core.py"):
        printed = subprocess.run(command.replace("alpha/core.py", str(path)), shell=True, capture_output=True)
        a = ask(multi_home, command)
        spans_read = [tuple(map(int, m)) for n in a.notes for m in re.findall(r"its lines (\d+)-(\d+)", n)]
        assert sum(last - first + 1 for first, last in spans_read) == len(printed.stdout.splitlines()), a.notes
    ranges = ask(multi_home, "sed -n '6,7p;14,17p' alpha/core.py")
    assert [f.hit.symbol for f in ranges.hits] == ["fmt", "tick"]
    assert [f.hit.symbol for f in ask(multi_home, "awk 'NR==10,NR==11' alpha/core.py").hits] == ["parse"]


@pytest.mark.parametrize(
    ("command", "numbered"),
    [  # the command, and the same range printing its lines' numbers (sed's =, awk's NR)
        ("sed -n '/^def tick/,/^def /p' alpha/core.py", "sed -n '/^def tick/,/^def /=' alpha/core.py"),
        ("sed -n '/import/,+1p' alpha/core.py", "sed -n '/import/,+1=' alpha/core.py"),
        ("sed -n '/strip();*/,+1p' alpha/core.py", "sed -n '/strip();*/,+1=' alpha/core.py"),  # a ; in the pattern
        ("sed -n '10,/^def /p' alpha/core.py", "sed -n '10,/^def /=' alpha/core.py"),
        ("sed -n '/fmt(/,$p' alpha/core.py", "sed -n '/fmt(/,$=' alpha/core.py"),
        (
            "sed -nE '/^def (fmt|parse)/,/return/p' alpha/core.py",
            "sed -nE '/^def (fmt|parse)/,/return/=' alpha/core.py",
        ),
        ("awk '/^def /,/return/' alpha/core.py", "awk '/^def /,/return/ {print NR}' alpha/core.py"),
        (
            "awk '/return/,/return/' alpha/core.py",
            "awk '/return/,/return/ {print NR}' alpha/core.py",
        ),  # ends where it opens
    ],
)
def test_a_range_from_a_patterns_line_reads_the_lines_the_tool_prints(
    multi_home: Path, command: str, numbered: str
) -> None:
    root = FIXTURE / "alpha"
    printed = subprocess.run(numbered, shell=True, cwd=root, capture_output=True, text=True, check=True).stdout
    want = {int(n) for n in printed.split()}
    a = ask(multi_home, command)
    named = re.search(r"its lines ((?:\d+-\d+(?:, )?)+)", a.notes[0])
    assert named is not None, a.notes
    got = {n for span in named[1].split(", ") for n in range(int(span.split("-")[0]), int(span.split("-")[1]) + 1)}
    assert got == want and want, (command, a.notes[0])
    assert {f.hit.path for f in a.hits} == {"alpha/core.py"}


def test_wc_l_says_how_many_lines_each_file_has(multi_home: Path) -> None:
    files = [FIXTURE / "alpha" / "alpha" / "core.py", FIXTURE / "gamma" / "gamma" / "app.py"]
    counts = [len(f.read_bytes().splitlines()) for f in files]
    a = ask(multi_home, "wc -l alpha/core.py gamma/app.py")
    assert a.notes[:2] == (
        f"read as the command wc -l: alpha/core.py (alpha) has {counts[0]} lines",
        f"read as the command wc -l: gamma/app.py (gamma) has {counts[1]} lines",
    )
    assert [(f.hit.path, f.hit.start_line) for f in a.hits] == [("alpha/core.py", 1), ("gamma/app.py", 1)]
    assert ask(multi_home, "cat alpha/core.py | wc -l").notes[0].endswith(f"has {counts[0]} lines")
    assert read("wc -l") is None and read("wc -L a.py") is None


def test_a_range_no_line_opens_or_whose_pattern_re2_cannot_read_says_so(multi_home: Path) -> None:
    none = ask(multi_home, "sed -n '/nothing here/,/^def /p' alpha/core.py")
    assert none.hits == () and none.notes == (
        "read as the command sed -n: no line of alpha/core.py (alpha) opens its range of lines",
    )
    lookbehind = ask(multi_home, "sed -nE '/(?<=def )fmt/,+1p' alpha/core.py")
    assert lookbehind.hits == () and "its pattern is no regular expression RE2 reads" in lookbehind.notes[0]
    assert read("sed -n '/a/,/b/p' a.py b.py") is None  # a pattern's range over several files: not read
    assert read("sed '/a/,/b/p' a.py") is None  # without -n, sed prints every line


def test_sed_reads_several_files_as_one_stream(multi_home: Path) -> None:
    files = [str(FIXTURE / "alpha" / "alpha" / "core.py"), str(FIXTURE / "gamma" / "gamma" / "app.py")]
    printed = subprocess.run(["sed", "-n", "20,25p", *files], capture_output=True, text=True, check=True).stdout
    assert len(printed.splitlines()) == 6  # core.py's last 2 lines, app.py's first 4
    a = ask(multi_home, "sed -n '20,25p' alpha/core.py gamma/app.py")
    assert "alpha/core.py (alpha) that hold its lines 20-21 (of 21)" in a.notes[0]
    assert "gamma/app.py (gamma) that hold its lines 1-4 (of 29)" in a.notes[1]
    assert spans(a)[0][0] == "alpha/core.py" and spans(a)[-1][0] == "gamma/app.py"
    later = ask(multi_home, "sed -n '30,31p' alpha/core.py gamma/app.py")  # the lines are all in the second file
    assert {p for p, _, _ in spans(later)} == {"gamma/app.py"} and "its lines 9-10 (of 29)" in later.notes[0]
    past = ask(multi_home, "sed -n '60,70p' alpha/core.py gamma/app.py")
    assert past.hits == () and past.notes == (
        "read as the command sed -n: alpha/core.py, gamma/app.py hold 50 lines in all, none from line 60",
    )
    lost = ask(multi_home, "sed -n '30,31p' alpha/nope.py gamma/app.py")  # the lines after an unknown file: unknown
    assert lost.hits == () and "no indexed file is 'alpha/nope.py'" in lost.notes[0] and len(lost.notes) == 1


def test_a_path_as_written_is_the_file_a_shell_reads_and_a_bare_name_no_file_has_is_words(tmp_path: Path) -> None:
    home = index_files(
        tmp_path,
        "web",
        {
            "index.js": "module.exports = require('./lib');\n",
            "lib/index.js": "exports.serve = function () {};\n",
            "LICENSE": "(The MIT License)\n\nCopyright (c) fourfold\n",
            "docs/cpu.md": "# CPU\n\nless CPU time per request\n",
        },
    )
    top = ask(home, "head -c 10 index.js")  # the shell reads ./index.js, not lib/index.js
    assert spans(top) == [("index.js", 1, 1)] and "its first 10 bytes" in top.notes[0]
    assert spans(ask(home, "cat lib/index.js")) == [("lib/index.js", 1, 1)]
    assert ask(home, "cat js/index.js").notes[0].startswith("read as the command cat: no indexed file is 'js/index.js'")
    licence = ask(home, "cat LICENSE")
    assert spans(licence) == [("LICENSE", 1, 3)] and licence.notes[0].startswith("read as the command cat:")
    words = ask(home, "less CPU")  # no file is CPU: the words are searched
    assert not words.notes[0].startswith("read as") and {p for p, _, _ in spans(words)} == {"docs/cpu.md"}


def test_a_read_after_cd_reads_from_that_folder(multi_home: Path, tmp_path: Path) -> None:
    from fourfold.index.generation import build_generation

    assert read("cd alpha && sed -n '10,11p' core.py") == FileRead("cd alpha && sed -n", "alpha/core.py", 10, 11)
    assert read("cd src/api; cat ../core.py a.py") == FileRead(
        "cd src/api && cat", "src/core.py", more=("src/api/a.py",)
    )
    parse = ask(multi_home, "cd alpha && sed -n '10,11p' core.py")
    assert [f.hit.symbol for f in parse.hits] == ["parse"] and "the command cd alpha && sed -n" in parse.notes[0]
    checked_out = ask(multi_home, "cd /home/me/gamma && head -n 3 gamma/app.py")
    assert {p for p, _, _ in spans(checked_out)} == {"gamma/app.py"}
    for name in ("api", "web"):  # two repositories, each with its README: the checkout says whose
        (tmp_path / name).mkdir()
        (tmp_path / name / "README.md").write_text(f"# {name}\n")
    home = tmp_path / "home"
    build_generation(IndexStore(home), [(tmp_path / "api", "api"), (tmp_path / "web", "web")], modalities=["text"])
    assert "fits several files (api:README.md, web:README.md)" in ask(home, "cat README.md").notes[0]
    web = ask(home, "cd /home/me/src/web && cat README.md")
    assert [(f.hit.repo, f.hit.path) for f in web.hits] == [("web", "README.md")]


def test_a_files_empty_last_lines_count_as_the_tools_count_them(tmp_path: Path) -> None:
    home = index_files(
        tmp_path, "trail", {"a.py": "def one():\n    return 1\n\n\n\n", "b.py": "def two():\n    return 2\n"}
    )
    repo = tmp_path / "trail"

    def printed(command: str) -> int:
        return len(subprocess.run(command, shell=True, cwd=repo, capture_output=True, check=True).stdout.splitlines())

    assert printed("sed -n '4,6p' a.py b.py") == 3  # a.py's lines 4 and 5 (empty), b.py's first
    stream = ask(home, "sed -n '4,6p' a.py b.py")
    assert "a.py (trail) that hold its lines 4-5 (of 5)" in stream.notes[0]
    assert "b.py (trail) that hold its lines 1-1 (of 2)" in stream.notes[1]
    tail = ask(home, "tail -c 3 a.py")  # the empty last lines: no segment holds them
    assert printed("tail -c 3 a.py") == 3 and "its lines 3-5 (of 5; its last 3 bytes)" in tail.notes[0]
    assert "has 5 lines, none from line 6" in ask(home, "sed -n '6,7p' a.py").notes[0]


def test_a_file_whose_last_line_ends_in_no_newline_is_counted_and_cut_as_the_tools_do(tmp_path: Path) -> None:
    home = index_files(tmp_path, "open", {"a.py": "def one():\n    return 1\n\nX = 1", "b.py": "B = 2\n"})
    repo = tmp_path / "open"

    def printed(command: str) -> bytes:
        return subprocess.run(command, shell=True, cwd=repo, capture_output=True, check=True).stdout

    assert printed("wc -l a.py").split()[0] == b"3"  # four lines, three newlines
    assert ask(home, "wc -l a.py").notes[0] == "read as the command wc -l: a.py (open) has 3 lines"
    for command in ("tail -c 5 a.py", "tail -c 6 a.py", "tail -c +25 a.py", "head -c 24 a.py"):
        lines = len(printed(command).splitlines())
        named = named_lines(ask(home, command))
        assert len(named) == lines and (named[-1] == 4 if command.startswith("tail") else named[0] == 1), command


def test_a_path_that_names_no_file_or_several_says_so_and_hides_what_the_caller_may_not_read(
    multi_home: Path,
) -> None:
    none = ask(multi_home, "cat alpha/nope.py")
    assert none.hits == () and "no indexed file is 'alpha/nope.py'" in none.notes[0]
    several = ask(multi_home, "cat __init__.py")
    assert several.hits == () and "fits several files (alpha:alpha/__init__.py, beta:" in several.notes[0]
    hidden = ask(multi_home, "cat alpha/core.py", frozenset({"gamma"}))  # read as a file no one indexed
    assert hidden.hits == () and hidden.notes == (none.notes[0].replace("nope.py", "core.py"),)


def named_lines(a: Answer) -> list[int]:
    """Every line the answer's notes say it reads, in order (none where a note says the pipe keeps none)."""
    spans_read = [tuple(map(int, m)) for n in a.notes for m in re.findall(r"its lines (\d+)-(\d+)", n)]
    return [n for first, last in spans_read for n in range(first, last + 1)]


@pytest.mark.parametrize(
    "pipeline",
    [
        "head -n 15 alpha/core.py | tail -n 4",
        "tail -n +5 alpha/core.py | head -3",
        "sed -n '3,18p' alpha/core.py | head -n 10 | tail -n 2",
        "awk 'NR>=6' alpha/core.py | head -n 2",
        "cat alpha/core.py | tail -n 2 | head -n 1",
        "tail -n 8 alpha/core.py | sed -n '2,3p'",
        "head -n -5 alpha/core.py",
        "head -n -30 alpha/core.py",  # all but more lines than it has: none
        "head -n 5 alpha/core.py | tail -n +9",  # none
    ],
)
def test_a_pipe_of_line_filters_reads_the_lines_it_prints(multi_home: Path, tmp_path: Path, pipeline: str) -> None:
    total = len((FIXTURE / "alpha" / "alpha" / "core.py").read_bytes().splitlines())
    (tmp_path / "alpha").mkdir()  # the file's lines, each its own number: the pipe prints the numbers it keeps
    (tmp_path / "alpha" / "core.py").write_text("".join(f"{n}\n" for n in range(1, total + 1)))
    printed = subprocess.run(pipeline, shell=True, cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    a = ask(multi_home, pipeline)
    assert named_lines(a) == [int(n) for n in printed.split()], a.notes
    if not printed:
        assert a.hits == () and "it keeps none of the 21 lines of alpha/core.py (alpha)" in a.notes[0]
    else:
        assert {f.hit.path for f in a.hits} == {"alpha/core.py"} and a.hits


def test_tail_c_from_a_byte_reads_the_lines_tail_prints(multi_home: Path) -> None:
    path = FIXTURE / "alpha" / "alpha" / "core.py"
    for byte in (1, 52, 53, 300):
        printed = subprocess.run(["tail", "-c", f"+{byte}", str(path)], capture_output=True, check=True).stdout
        a = ask(multi_home, f"tail -c +{byte} alpha/core.py")
        first = 21 - len(printed.splitlines()) + 1
        assert f"its lines {first}-21 (of 21; its bytes from byte {byte})" in a.notes[0], a.notes


@pytest.mark.parametrize(
    "command",
    [
        "head -n 3 alpha/*.py",
        "cat alpha/{core,shapes}.py",
        "wc -l alpha/*.py",
        "cat alpha/[cs]*.py | head -n 25",
        "awk 'NR>=20 && NR<=23' alpha/*.py",
        "sed -n '2,3p' alpha/{shapes,core}.py",
        "cat alpha/*.py | tail -n 4",  # the stream's last lines: the files' lengths say where they start
        "cat alpha/{core,shapes}.py | head -n -30",
        # a stream's lines piped on: where each filter starts is known once the files' lengths are
        "cat alpha/{core,shapes}.py | tail -n 30 | head -n 2",
        "cat alpha/*.py | head -n 25 | tail -n 3",
        "sed -n '2,30p' alpha/{shapes,core}.py | tail -n 2",
        "cat alpha/{core,shapes}.py | head -n 40 | tail -n 5 | head -n 1",
    ],
)
def test_braces_and_globs_read_the_files_the_shell_expands_them_to(multi_home: Path, command: str) -> None:
    root = FIXTURE / "alpha"
    expanded = subprocess.run(
        ["bash", "-c", f"printf '%s\\n' {command.split('|')[0].split()[-1]}"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()  # the files bash hands the tool, in its order
    a = ask(multi_home, command, repos=("alpha",))
    read_files = [m for n in a.notes for m in re.findall(r"(?:segments of |wc -l: )(\S+) \(alpha\)", n)]
    printed = subprocess.run(["bash", "-c", command], cwd=root, capture_output=True, text=True, check=True).stdout
    if command.startswith("wc"):  # each file's count, as wc prints it
        counts = [tuple(line.split()) for line in printed.splitlines()[:-1]]
        said = [tuple(reversed(m)) for n in a.notes for m in re.findall(r"wc -l: (\S+) \(alpha\) has (\d+)", n)]
        assert said == counts
    elif command.startswith("head -n 3"):  # head names each file, and prints its lines
        assert read_files == [line[4:-4] for line in printed.splitlines() if line.startswith("==> ")]
    else:
        assert len(named_lines(a)) == len(printed.splitlines()), a.notes
    assert read_files and set(read_files) <= set(expanded), (read_files, expanded)
    assert {f.hit.path for f in a.hits} <= set(expanded) and a.hits
    if "*" in command:
        assert any(" expands to " in n for n in a.notes)


def test_a_glob_or_braces_naming_no_file_say_so(multi_home: Path) -> None:
    none = ask(multi_home, "cat alpha/*.rs")
    assert none.hits == () and "no indexed file is 'alpha/*.rs'" in none.notes[0]
    unknown = ask(multi_home, "cat alpha/core.py alpha/nope.py | tail -n 3")  # where the stream ends is unknown
    assert unknown.hits == () and "no indexed file is 'alpha/nope.py'" in unknown.notes[0]
    quoted = ask(multi_home, "cat 'alpha/{core,shapes}.py'")  # quoted: the shell expands nothing
    assert quoted.hits == () and "no indexed file is 'alpha/{core,shapes}.py'" in quoted.notes[0]
    cd = ask(multi_home, "cd alpha && cat c*.py | head -n 2")
    assert "alpha/c*.py expands to 1 file (alpha/core.py)" in cd.notes[0] and named_lines(cd) == [1, 2]
    checkout = ask(multi_home, "head -n 2 /home/me/gamma/gamma/a*.py")
    assert "expands to 1 file (gamma/app.py)" in checkout.notes[0]
    assert {f.hit.path for f in checkout.hits} == {"gamma/app.py"}
    named = ask(multi_home, "cd /home/me/beta && head -n 1 */__init__.py")  # the checkout's repository's
    assert {(f.hit.repo, f.hit.path) for f in named.hits} == {("beta", "beta/__init__.py")}, named.notes
    many = ask(multi_home, "head -n 1 */*.py", k=3)
    assert len(many.hits) == 3 and not many.complete
    assert any(n.startswith("read as the command head: */*.py expands to 7 files") for n in many.notes)
    assert any(n.endswith("more segments of the files read: ask for more hits (k)") for n in many.notes)
    read_notes = [n for n in many.notes if n.startswith("read as the command head: the segments of")]
    assert len(read_notes) == 3  # the notes of the files whose hits are shown, not of all 7
    counted = ask(multi_home, "wc -l */*.py", k=3)
    assert len([n for n in counted.notes if n.startswith("read as the command wc -l: ") and " has " in n]) == 7


def test_git_show_reads_the_file_at_the_revision_the_index_holds(tmp_path: Path) -> None:
    from fourfold.index.generation import build_generation

    for rev, body in (("now", "def run():\n    return 2\n"), ("v1", "def run():\n    return 1\n\n\nOLD = 1\n")):
        (tmp_path / rev / "app").mkdir(parents=True)
        (tmp_path / rev / "app" / "main.py").write_text(body)
    home = tmp_path / "home"
    build_generation(
        IndexStore(home), [(tmp_path / "now", "app"), (tmp_path / "v1", "app@v1")], modalities=["text", "structural"]
    )
    at_v1 = ask(home, "git show v1:app/main.py | tail -n 1")
    assert at_v1.notes[0] == "read at v1: the index holds it as app@v1"
    assert "the segments of app/main.py (app@v1) that hold its lines 5-5 (of 5)" in at_v1.notes[1]
    assert [(f.hit.repo, f.hit.symbol) for f in at_v1.hits] == [("app@v1", "OLD")]
    head = ask(home, "git show HEAD:app/main.py", repos=("app",))
    assert "the segments of app/main.py (app) that hold its lines 1-2 (of 2)" in head.notes[0]
    other = ask(home, "git cat-file -p v2:app/main.py", repos=("app",))
    assert other.notes[0].startswith("the index holds no revision 'v2' apart: read at the revision indexed")
    assert "(app) that hold its lines 1-2 (of 2)" in other.notes[1]
    assert read("git show v1") is None and read("git show v1 -- a.py") is None  # a commit, not a file


def test_commands_run_one_after_another_are_each_answered_in_turn(multi_home: Path) -> None:
    both = ask(multi_home, "cat alpha/core.py && cat gamma/app.py")
    assert both.notes[0] == "read as 2 commands run in turn, each answered: `cat alpha/core.py`; `cat gamma/app.py`"
    assert [p for p, _, _ in spans(both)] == sorted([p for p, _, _ in spans(both)], key=lambda p: p != "alpha/core.py")
    assert {p for p, _, _ in spans(both)} == {"alpha/core.py", "gamma/app.py"}
    mixed = ask(multi_home, "cd alpha && head -n 7 core.py; grep -n return core.py")
    assert mixed.notes[1].startswith("read as the command cd alpha && head: the segments of alpha/core.py")
    assert any(n.startswith("read as the command cd alpha && grep: literal 'return', in alpha/") for n in mixed.notes)
    assert mixed.total_matches == 0 and mixed.total_files == 0  # a file's lines and a grep's: no one total
    for words in ("for (i = 0; i < n; i++) total += a[i]", "grep -n 'a && b' alpha/core.py"):
        assert not ask(multi_home, words).notes[0].startswith("read as 2 commands")


def test_a_for_loop_and_echo_between_reads_are_read_as_the_shell_runs_them(multi_home: Path) -> None:
    command = 'for f in alpha/core.py gamma/app.py; do echo "== $f"; sed -n \'2,3p\' "$f"; done'
    a = ask(multi_home, command)
    assert a.notes[0] == (
        "read as 2 commands run in turn, each answered: `sed -n '2,3p' alpha/core.py`; `sed -n '2,3p' gamma/app.py`; "
        'left out: `echo "== alpha/core.py"`; `echo "== gamma/app.py"` (printing its own words)'
    )
    printed = subprocess.run(
        ["bash", "-c", command.replace("alpha/", "alpha/alpha/").replace("gamma/", "gamma/gamma/")],
        cwd=FIXTURE,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(named_lines(a)) == len([line for line in printed if not line.startswith("== ")]) == 4
    one = ask(multi_home, "echo '--- core ---' && head -n 3 alpha/core.py")
    assert (
        one.notes[0]
        == "read as the command `head -n 3 alpha/core.py`; left out: `echo '--- core ---'` (printing its own words)"
    )
    assert named_lines(one) == [1, 2, 3] and {f.hit.path for f in one.hits} == {"alpha/core.py"}
    assert not ask(multi_home, "echo hello; echo there").notes[0].startswith("read as")  # nothing but words: searched


def test_an_agents_shell_call_is_answered_as_the_command_it_runs(multi_home: Path) -> None:
    for call in (
        "bash -lc 'sed -n 6,7p alpha/core.py'",
        '["bash", "-lc", "sed -n 6,7p alpha/core.py"]',
        '{"command": ["bash", "-lc", "sed -n 6,7p core.py"], "workdir": "alpha"}',
        'Bash(command="sed -n 6,7p alpha/core.py")',
    ):
        a = ask(multi_home, call)
        assert a.notes[0].startswith("read as the command the shell call runs: `"), (call, a.notes)
        assert "segments of alpha/core.py (alpha) that hold its lines 6-7" in a.notes[1], (call, a.notes)
        assert named_lines(a) == [6, 7]
    grep = ask(multi_home, "execute_bash(command=\"grep -rn 'return fmt' .\")")
    assert grep.total_matches == ask(multi_home, "grep -rn 'return fmt' .").total_matches > 0


def test_an_agents_question_call_asks_its_question_within_its_folders(multi_home: Path) -> None:
    a = ask(multi_home, 'codebase_search(query="where is fmt defined", target_directories=["alpha"])')
    assert a.notes[0] == "read as the question the search call asks within alpha/: 'where is fmt defined'"
    assert a.hits and {f.hit.path.split("/")[0] for f in a.hits} == {"alpha"}
    assert a.hits[0].hit.symbol == "fmt" and a.intent == "find_definition"
    every = ask(multi_home, '{"tool": "codebase_search", "query": "where is fmt defined"}')
    assert every.notes[0] == "read as the question the search call asks: 'where is fmt defined'" and every.hits


def test_an_editors_view_of_a_nested_folder_lists_it(tmp_path: Path) -> None:
    home = index_files(tmp_path, "deep", {"src/api/a.py": "A = 1\n", "src/api/b.py": "B = 2\n"})
    nested = ask(home, '{"command": "view", "path": "src/api"}')  # a folder with a / in its path: listed
    assert nested.notes[0] == "'src/api' is a folder: listed as ls lists it"
    assert {f.hit.path for f in nested.hits} == {"src/api/a.py", "src/api/b.py"}


def test_a_file_named_as_hits_name_it_is_read_in_that_repository(multi_home: Path) -> None:
    a = ask(multi_home, "sed -n '6,7p' gamma:gamma/app.py")  # REPO:PATH, as a hit and `fourfold show` write it
    assert "the segments of gamma/app.py (gamma) that hold its lines 6-7" in a.notes[0]
    assert (
        ask(multi_home, "cat beta:alpha/core.py")
        .notes[0]
        .startswith("read as the command cat: no indexed file is 'beta:alpha/core.py'")
    )


def test_swe_agents_open_reads_the_window_it_shows(tmp_path: Path) -> None:
    home = index_files(tmp_path, "big", {"big.py": "".join(f"def f{n}():\n    return {n}\n\n" for n in range(100))})
    for command, shown in (
        ("open big.py 200", "head -n 250 | tail -n 100"),  # SWE-agent's window: up to the line + 50, 100 lines
        ("open big.py 10", "head -n 100 | tail -n 100"),
        ("open big.py", "head -n 100 | tail -n 100"),
        ("less +290 big.py", "tail -n +290"),
    ):
        numbers = f"awk '{{print NR}}' big.py | {shown}"  # the numbers of the lines the window shows
        printed = subprocess.run(numbers, shell=True, cwd=tmp_path / "big", capture_output=True, text=True).stdout
        assert named_lines(ask(home, command)) == [int(n) for n in printed.split()], command


def test_a_files_path_alone_is_answered_by_the_file(multi_home: Path) -> None:
    a = ask(multi_home, "alpha/core.py", k=5)
    assert a.intent == "understand_code" and a.confidence == 1.0
    assert a.notes[0].startswith("asked of alpha/core.py (alpha), the file the query names")
    assert {f.hit.path for f in a.hits} == {"alpha/core.py"}


def test_the_cli_the_client_and_mcp_read_a_files_lines(
    multi_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(multi_home))
    assert main(["search", "--in-process", "--json", "head -n 7 alpha/core.py"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [h["symbol"] for h in out["hits"] if h["symbol"]][:1] == ["fmt"] and out["hits"][0]["start_line"] == 1
    with coordinator_in_process(multi_home) as address:
        with Client(address) as client:
            a = client.search("sed -n '14,17p' alpha/core.py")
            assert [f.hit.symbol for f in a.hits] == ["tick"] and a.notes[0].startswith("read as the command sed -n")
        text = mcp_search(address, "cat alpha/core.py", 10)
        assert "read as the command cat" in text and "alpha:alpha/core.py:6-7 function fmt\n" in text
        piped = mcp_search(address, "head -n 17 alpha/*.py | tail -n 4", 10)
        assert "that hold its lines 14-17 (of 21)" not in piped  # head of several files prints their names: words
        globbed = mcp_search(address, "cat alpha/c*.py | sed -n '6,7p'", 10)
        assert "read as the command cat | sed -n: alpha/c*.py expands to 1 file (alpha/core.py)" in globbed
        assert "that hold its lines 6-7 (of 21)" in globbed and "alpha:alpha/core.py:6-7 function fmt\n" in globbed
        in_turn = mcp_search(address, "cat alpha/core.py; cat gamma/app.py", 10)
        assert "read as 2 commands run in turn" in in_turn and "gamma:gamma/app.py" in in_turn
        called = mcp_search(address, '["bash", "-lc", "cat alpha/core.py | sed -n 6,7p"]', 10)  # Codex's shell call
        assert (
            "read as the command the shell call runs" in called and "alpha:alpha/core.py:6-7 function fmt\n" in called
        )
        looped = mcp_search(address, "for f in alpha/core.py gamma/app.py; do head -n 2 $f; done", 10)
        assert "read as 2 commands run in turn" in looped and "alpha:alpha/core.py" in looped
        shown = mcp_search(address, "git show HEAD:alpha/core.py | sed -n '6,7p'", 10)
        assert "read as the command git show | sed -n" in shown and "alpha:alpha/core.py:6-7 function fmt\n" in shown


@pytest.mark.parametrize(
    "files, filters",
    [
        ("alpha/core.py alpha/shapes.py", "tail -n 30 | head -n 2"),
        ("alpha/shapes.py alpha/core.py", "head -n 25 | tail -n 3"),
        ("alpha/core.py alpha/shapes.py", "tail -n +18 | head -n 6 | tail -n 4"),
        ("alpha/core.py alpha/shapes.py", "head -n 500 | tail -n 2"),
    ],
)
def test_a_streams_lines_piped_on_are_the_lines_the_shell_prints(multi_home: Path, files: str, filters: str) -> None:
    # each line of the stream printed as FILE:LINE, then kept by the same filters: the lines the pipe prints
    printed = subprocess.run(
        ["bash", "-c", f"awk '{{print FILENAME \":\" FNR}}' {files} | {filters}"],
        cwd=FIXTURE / "alpha",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    a = ask(multi_home, f"cat {files} | {filters}", repos=("alpha",))
    said = [
        f"{path}:{n}"
        for note in a.notes
        for path, first, last in re.findall(r"segments of (\S+) \(alpha\) that hold its lines (\d+)-(\d+)", note)
        for n in range(int(first), int(last) + 1)
    ]
    assert said == printed, a.notes


def test_gemini_clis_read_many_files_reads_each_file_and_glob_whole(multi_home: Path) -> None:
    both = ask(multi_home, 'read_many_files(paths=["alpha/core.py", "beta/service.py"])')
    assert {f.hit.path for f in both.hits} == {"alpha/core.py", "beta/service.py"}
    assert both.notes[0].startswith("read as the tool call read_many_files: the segments of alpha/core.py")
    globbed = ask(multi_home, '{"tool": "read_many_files", "paths": ["**/core.py"]}')  # its glob tool's **: any folders
    assert {f.hit.path for f in globbed.hits} == {"alpha/core.py"}
    deeper = ask(multi_home, '{"tool": "read_many_files", "paths": ["**/**/core.py"]}')  # bash's: */*/core.py, none
    assert {f.hit.path for f in deeper.hits} == {"alpha/core.py"} and not ask(multi_home, "cat **/**/core.py").hits
