"""A command's words as the shell makes them: braces expanded, globs matched as pathname expansion matches them, and
a grep of ``*.go`` kept to the files the shell hands it; each checked against bash itself."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from inprocess import index_files, search_once

from fourfold.api import SearchParams
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.shell_words import (
    braces,
    commands,
    glob_matches,
    glob_regex,
    is_glob,
    prints_words,
    search_call,
    shell_command,
    split,
    without_fallbacks,
)
from fourfold.errors import InvalidQuery
from fourfold.index.store import IndexStore
from fourfold.plugins.globs import compile_glob


def bash_words(command: str) -> list[str]:
    """The words bash makes of ``command`` (in an empty folder: no glob expands)."""
    printed = subprocess.run(
        ["bash", "-c", f"printf '%s\\n' {command}"], capture_output=True, text=True, check=True, cwd="/"
    ).stdout
    return printed.splitlines()


@pytest.mark.parametrize(
    "command",
    [
        "src/{app,routes}.py",
        "a{b,c}d{1,2}",
        "{a,{b,c}}x",
        "x{1..3} y{3..1} z{a..c}",
        "f{01..10..3}",
        "a{,b}",
        "{x} {} a{b}c",
        "'a{b,c}' \"d{e,f}\" g\\{h,i}",
        "-g '*.{py,pyi}' x{y,z}",
        "''{a,b}.go \"x\"{c,d} '{e,f}'g{h,i} a\\{b,c}d{e,f}",  # the braces outside the quotes expand
        '"a\\"{b,c}"{d,e}',
    ],
)
def test_words_are_brace_expanded_as_bash_expands_them(command: str) -> None:
    assert split(command) == bash_words(command)


def test_a_sequence_too_long_and_a_comment_are_kept_as_written() -> None:
    assert braces("{1..100000}") == ["{1..100000}"]
    assert braces("${HOME}") == ["${HOME}"]
    assert split("cat a{b,c} # d{e,f}", comments=True) == ["cat", "ab", "ac"]
    with pytest.raises(ValueError):
        split("cat 'a{b,c}")


@pytest.mark.parametrize(
    ("glob", "path", "matches"),
    [
        ("*.go", "gin.go", True),
        ("*.go", "render/json.go", False),  # * stays in its folder
        ("render/*.go", "render/json.go", True),
        ("render/[a-j]*.go", "render/json.go", True),
        ("render/[!a-j]*.go", "render/json.go", False),
        ("*", ".env", False),  # a hidden name only by a pattern starting .
        (".*", ".env", True),
        ("*/*.py", "a/b.py", True),
        ("**/*.py", "a/b/c.py", False),  # without globstar, ** is *
        ("a?.py", "ab.py", True),
    ],
)
def test_a_glob_matches_the_paths_the_shell_expands_it_to(glob: str, path: str, matches: bool, tmp_path: Path) -> None:
    (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / path).write_text("x\n")
    expanded = subprocess.run(
        ["bash", "-c", f"shopt -s nullglob; printf '%s\\n' {glob}"], cwd=tmp_path, capture_output=True, text=True
    ).stdout.split()
    assert glob_matches(glob, path) is matches is (path in expanded)
    assert is_glob(glob)


def test_path_globs_anchor_at_the_top_and_nest_braces() -> None:
    assert compile_glob("/*.go").fullmatch("gin.go") and not compile_glob("/*.go").fullmatch("render/json.go")
    assert compile_glob("*.go").fullmatch("render/json.go")  # without a leading /: in any folder
    nested = compile_glob("{a/{b,c}.py,d/**}")
    assert all(nested.fullmatch(p) for p in ("a/b.py", "a/c.py", "d/e/f.go")) and not nested.fullmatch("a/d.py")
    with pytest.raises(InvalidQuery, match="never closed"):
        compile_glob("a/{b,c.py")


@pytest.mark.parametrize(
    ("command", "shell"),
    [  # the command, and the same run in a shell, printing each file's name (-H)
        ("grep -n needle *.go", "grep -Hn needle *.go"),
        ("grep -rn needle *.go", "grep -Hrn needle *.go"),
        ("rg -n needle *.go", "rg -Hn needle *.go"),
        ("grep -n needle sub/*", "grep -Hn needle sub/*"),
        ("grep -n needle {a,sub/c}.go", "grep -Hn needle {a,sub/c}.go"),
        ("cd sub && grep -n needle *.go", "grep -Hn needle sub/*.go"),
        ("git grep -n needle -- '*.go'", "grep -Hrn --include='*.go' needle ."),  # git's pathspec: * crosses folders
    ],
)
def test_a_grep_of_shell_globs_and_braces_reads_the_files_the_shell_hands_it(
    tmp_path: Path, command: str, shell: str
) -> None:
    files = {"a.go": "needle\n", "b.go": "needle\n", "sub/c.go": "needle\n", "sub/d.py": "needle\n"}
    home = index_files(tmp_path, "r", files)
    printed = subprocess.run(
        ["bash", "-c", shell], cwd=tmp_path / "r", capture_output=True, text=True, check=True
    ).stdout
    want = {line.split(":")[0].removeprefix("./") for line in printed.splitlines()}
    a = search_once(Engine(IndexStore(home)), SearchParams(command, k=20))
    assert {f.hit.path for f in a.hits} == want and want, (command, a.notes)


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("cat a.py && cat b.py", ["cat a.py", "cat b.py"]),
        ("ls src; grep -rn X src", ["ls src", "grep -rn X src"]),
        ("cd src && cat a.py; cat b.py", ["cd src && cat a.py", "cd src && cat b.py"]),  # the cd before each
        ("cd src && cat a.py", ["cd src && cat a.py"]),  # one command, in a folder
        ("grep 'a && b' x.py", ["grep 'a && b' x.py"]),  # quoted
        ("find . -exec grep X {} \\; | head", ["find . -exec grep X {} \\; | head"]),  # escaped
        ("grep X $(find . -name a; ls) && cat b", ["grep X $(find . -name a; ls)", "cat b"]),  # substituted
    ],
)
def test_a_line_of_commands_splits_where_the_shell_runs_the_next(text: str, parts: list[str]) -> None:
    assert commands(text) == parts


@pytest.mark.parametrize(
    "text",
    [
        "for f in a.py b.py; do head -n 2 $f; done",
        'for f in a.py "b c.py"; do echo "== $f"; head -n 2 "$f"; done',
        "for f in [ab].py; do cat ${f}; done; head -n 1 a.py",  # a glob: every file it names, read in turn
        "cd src && for f in x y; do sed -n 2p $f.py; done",
        'cat a.py; for n in 1 3; do sed -n "${n}p" a.py; done',
        "for f in $(ls *.py); do cat $f; done",
    ],
)
def test_a_for_loop_runs_its_body_once_for_each_word_as_bash_does(text: str, tmp_path: Path) -> None:
    for n, name in enumerate(("a.py", "b.py", "b c.py", "src/x.py", "src/y.py")):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(f"{name}\n{n}\n3\n")
    looped = subprocess.run(["bash", "-c", text], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    runs = commands(text)
    assert runs != [text] and not any(run.lstrip().startswith("for ") for run in runs)
    each = [subprocess.run(["bash", "-c", r], cwd=tmp_path, capture_output=True, text=True).stdout for r in runs]
    assert "".join(each) == looped, runs  # the runs, one after another, print what the loop prints


def test_a_loop_written_inside_another_command_or_too_long_is_no_loop() -> None:
    assert commands("for f in a b; do cat $f; done | head") != ["cat a", "cat b"]
    assert commands("echo for f in a b; do cat $f; done")[0] == "echo for f in a b"
    many = " ".join(f"f{n}" for n in range(300))
    assert commands(f"for f in {many}; do cat $f; done")[0].startswith("for f in")
    assert prints_words("echo '---'") and prints_words("cd src && printf '\\n'")
    assert not prints_words("echo x | grep x") and not prints_words("echoes a.py")


@pytest.mark.parametrize(
    ("call", "command"),
    [
        ("bash -lc 'rg -n X src'", "rg -n X src"),
        ("sh -c \"sed -n '1,5p' a.py\"", "sed -n '1,5p' a.py"),
        ('["bash", "-lc", "cat a.py"]', "cat a.py"),  # Codex's shell call, as its words
        (
            '{"command": ["bash", "-lc", "rg -n X"], "workdir": "/home/me/api", "timeout_ms": 1000}',
            "cd /home/me/api && rg -n X",
        ),
        ('{"cmd": "grep -rn X ."}', "grep -rn X ."),
        ('["rg", "-n", "X", "."]', "rg -n X ."),
        ('Bash(command="rg -n X", description="find X")', "rg -n X"),  # Claude Code's
        ('Bash(command="grep -n \\"a b\\" x.py")', 'grep -n "a b" x.py'),  # a string literal's escapes read
        ('["retry", "backoff"]', None),  # a list of words, no command's
        ('execute_bash(command="cat a.py")', "cat a.py"),  # OpenHands'
        ('run_shell_command(command="ls src", directory="app")', "cd app && ls src"),  # Gemini CLI's
        # none: the command itself, an editor's call, code, prose
        ("rg -n X", None),
        ('{"command": "view", "path": "src/a.py"}', None),
        ("Session(config)", None),
        ("how does bash -c work", None),
        ("bash script.sh", None),
        ("[1, 2]", None),
    ],
)
def test_an_agents_shell_call_is_read_as_the_command_it_runs(call: str, command: str | None) -> None:
    assert shell_command(call) == command


def test_a_shell_wrapper_prints_what_its_command_prints(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def retry():\n    return 1\n")
    for call in ("bash -lc 'grep -n return a.py'", "sh -c \"sed -n '1,1p' a.py\"", "bash -c 'cat a.py | head -n 1'"):
        command = shell_command(call)
        assert command is not None
        wrapped = subprocess.run(["bash", "-c", call], cwd=tmp_path, capture_output=True, text=True).stdout
        bare = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True).stdout
        assert wrapped == bare and bare, call


@pytest.mark.parametrize(
    ("call", "asked"),
    [
        (
            'codebase_search(query="how are retries handled", target_directories=["src"])',
            ("how are retries handled", ("src",)),
        ),
        ("codebase_search(query='retry', target_directories=['src/', 'lib'])", ("retry", ("src", "lib"))),
        ('{"tool": "semantic_search", "query": "retry logic"}', ("retry logic", ())),
        ('search_code(query="retry", kind="symbol_def")', None),  # a kind of its own: the tool calls' reader's
        ('codebase_search(query="")', None),
        ('grep_search(query="retry")', None),
        ("Session(config)", None),
    ],
)
def test_an_agents_question_call_is_read_as_its_question_and_folders(
    call: str, asked: tuple[str, tuple[str, ...]] | None
) -> None:
    assert search_call(call) == asked


@pytest.mark.parametrize(
    ("glob", "path"),
    [
        ("**/*.py", "a/b/c.py"),
        ("**/*.py", "c.py"),
        ("a/**/c.py", "a/c.py"),
        ("a/**/c.py", "a/x/y/c.py"),
        ("**/*.py", ".h/c.py"),
    ],
)
def test_a_globstar_glob_matches_what_bash_with_globstar_expands_it_to(glob: str, path: str, tmp_path: Path) -> None:
    (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / path).write_text("x\n")
    expanded = subprocess.run(
        ["bash", "-c", f"shopt -s globstar nullglob; printf '%s\\n' {glob}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert (glob_regex(glob, globstar=True).fullmatch(path) is not None) is (path in expanded)


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        ("rg -n X src || echo none", "rg -n X src", ["echo none"]),
        ("rg X || true; cat a.py", "rg X ; cat a.py", ["true"]),  # up to the next command
        ('grep -rn "a||b" . || :', 'grep -rn "a||b" .', [":"]),  # || inside quotes is the pattern's
        ("cat a || cat b && head c", "cat a && head c", ["cat b"]),
        ("rg X", "rg X", []),
    ],
)
def test_what_runs_only_where_a_command_fails_is_cut_out(text: str, kept: str, dropped: list[str]) -> None:
    assert without_fallbacks(text) == (kept, dropped)
