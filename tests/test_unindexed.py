"""The files a repository holds that the index does not (binary, too large, not UTF-8, symbolic links): a build names
them with why, a path listing (``find``, ``ls``, ``git ls-files``, a ``Glob`` call) names those it would have listed,
and a read of one says why it shows nothing; through the engine, the CLI, the Python client over gRPC and MCP, over a
real index of real git repositories."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, mcp_search, search_once

from fourfold.api import Answer, SearchParams
from fourfold.client import Client
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.search_command import size_test
from fourfold.coordinator.unindexed import MAX_NAMED, note
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
MAX_BYTES = 4096  # the builds' file size limit here: big.log is over it


def _git_repo(root: Path, files: dict[str, bytes]) -> Path:
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    os.symlink("app", root / "current")  # a link to a folder, as git keeps it: a file of the repository
    commit = "git init -q && git add -A && git -c user.email=t@local -c user.name=t commit -qm tree"
    subprocess.run(commit, shell=True, cwd=root, check=True)
    return root


def _build(home: Path, repos: list[tuple[Path, str]]) -> None:
    build_generation(IndexStore(home), repos, modalities=["text", "structural", "graph"], max_file_bytes=MAX_BYTES)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two repositories, ``web`` (a logo, a large log, a Latin-1 file, a link beside its code) and ``other`` (a logo
    of its own), indexed; the store's home and ``web``'s root."""
    top = tmp_path_factory.mktemp("unindexed")
    web = _git_repo(
        top / "web",
        {
            "app/main.py": b"def serve():\n    return 'ok'\n",
            "app/assets/logo.png": PNG,
            "logs/big.log": b"line of a log\n" * (MAX_BYTES // 10),
            "legacy/readme.txt": "caf\u00e9 cr\u00e8me\n".encode("latin-1"),
            "README.md": b"# web\n",
        },
    )
    other = _git_repo(top / "other", {"lib/core.py": b"def core():\n    pass\n", "lib/other.png": PNG})
    home = top / "home"
    _build(home, [(web, "web"), (other, "other")])
    return home, web


def ask(home: Path, query: str, visible: frozenset[str] | None = None, **kw: object) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, **{"k": 20, **kw}), visible)  # type: ignore[arg-type]


def unindexed_note(a: Answer) -> str:
    return next((n for n in a.notes if " not indexed, so not " in n), "")


def test_a_build_names_each_file_it_does_not_index_with_why(store: tuple[Path, Path], tmp_path: Path) -> None:
    home, web = store
    reader = IndexStore(home).require_live()
    assert reader.unheld("web") == [  # each with its size, as find and fd see it (a link's own)
        ("app/assets/logo.png", "binary", len(PNG)),
        ("current", "symlink", len("app")),
        ("legacy/readme.txt", "invalid_utf8", len("caf\u00e9 cr\u00e8me\n")),
        ("logs/big.log", "too_large", len(b"line of a log\n") * (MAX_BYTES // 10)),
    ]
    assert reader.sizes("web") == {"app/main.py": 29, "README.md": 6}
    assert reader.manifest["repos"]["web"]["unheld"] == 4 and reader.manifest["repos"]["other"]["unheld"] == 2
    assert "app/assets/logo.png" not in reader.paths("web") and "app/main.py" in reader.paths("web")
    copy = tmp_path / "web"  # rebuilt unchanged (its segments carried), then with the logo gone
    shutil.copytree(web, copy, symlinks=True)
    again = tmp_path / "home"
    _build(again, [(copy, "web")])
    _build(again, [])
    assert IndexStore(again).require_live().unheld("web")[0] == ("app/assets/logo.png", "binary", len(PNG))
    subprocess.run("git rm -q app/assets/logo.png && git -c user.email=t@local -c user.name=t commit -qm gone",
                   shell=True, cwd=copy, check=True)  # fmt: skip
    _build(again, [])
    assert [p for p, _, _ in IndexStore(again).require_live().unheld("web")] == [
        "current",
        "legacy/readme.txt",
        "logs/big.log",
    ]


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("find . -name '*.png'", {"web:app/assets/logo.png", "other:lib/other.png"}),
        ("repo:web find app -type f", {"app/assets/logo.png"}),
        ("repo:web git ls-files", {"app/assets/logo.png", "current", "legacy/readme.txt", "logs/big.log"}),
        ("repo:web ls app/assets", {"app/assets/logo.png"}),
        ("repo:web fd -e log", {"logs/big.log"}),
        ('Glob(pattern="**/*.png", path="app")', {"web:app/assets/logo.png"}),
        ("repo:web find . -name '*.txt' -o -name current", {"legacy/readme.txt", "current"}),
        ("repo:web fd cur", {"current"}),  # a link, as fd and find list it
    ],
)
def test_a_listing_names_the_files_it_would_list_that_are_not_indexed(
    store: tuple[Path, Path], command: str, named: set[str]
) -> None:
    home, _ = store
    a = ask(home, command)
    said = unindexed_note(a)
    assert said.startswith(f"{len(named)} file"), a.notes
    for name in named:
        assert name in said
    assert {f.hit.path for f in a.hits}.isdisjoint(name.split(":")[-1] for name in named)


@pytest.mark.parametrize(
    "command",
    [
        "repo:web find . -type f -name 'cur*'",  # find -type f, fd -t f and rg --files list no symbolic link
        "repo:web fd -t f cur",
        "repo:web rg --files -g 'cur*'",
        "find . -name '*.py'",  # no file it would list is left out
        "repo:web ls app",  # the logo is beneath a folder of it, not in it
        "repo:web rg --files -t py",  # a language asked: a logo is none
        "repo:web find . -type f | xargs grep -l serve",  # kept by what a file holds: a logo's text is unknown
        "repo:web find . -type d",  # folders alone
        "repo:web find . -name '*.png' | grep -v assets",  # the grep leaves it out
    ],
)
def test_a_listing_names_no_file_it_would_not_list(store: tuple[Path, Path], command: str) -> None:
    a = ask(store[0], command)
    assert not unindexed_note(a), a.notes


def test_a_read_of_a_file_not_indexed_says_why_it_shows_nothing(store: tuple[Path, Path]) -> None:
    home, _ = store
    logo = ask(home, "cat app/assets/logo.png", repos=("web",))
    assert not logo.hits
    assert "app/assets/logo.png is in web but not indexed (binary), so it has no lines to show" in logo.notes[0]
    big = ask(home, "head -5 logs/big.log", repos=("web",))
    assert "logs/big.log is in web but not indexed (too large)" in big.notes[0]
    either = ask(home, "cat assets/logo.png")  # a path's ending, as a checkout's file is named
    assert "app/assets/logo.png is in web but not indexed (binary)" in either.notes[0]
    none = ask(home, "cat app/assets/missing.png", repos=("web",))
    assert "no indexed file is 'app/assets/missing.png'" in none.notes[0]


def test_a_restricted_caller_is_told_of_no_file_of_a_repository_it_may_not_search(store: tuple[Path, Path]) -> None:
    home, _ = store
    listed = ask(home, "find . -name '*.png'", visible=frozenset({"web"}))
    assert "app/assets/logo.png (binary)" in unindexed_note(listed) and "other" not in unindexed_note(listed)
    read = ask(home, "cat lib/other.png", visible=frozenset({"web"}))
    assert "not indexed" not in read.notes[0] and "no indexed file is 'lib/other.png'" in read.notes[0]


def test_a_note_names_ten_files_and_counts_the_rest() -> None:
    found = [("api", f"img/{i:02}.png", "binary") for i in range(MAX_NAMED + 3)]
    said = note(found)
    assert said.startswith(f"{MAX_NAMED + 3} files here are not indexed, so not listed: img/00.png (binary), ")
    assert f"img/{MAX_NAMED - 1:02}.png (binary) and 3 more;" in said and f"img/{MAX_NAMED:02}.png" not in said
    assert note([]) == ""


def test_the_cli_the_client_and_mcp_name_the_files_not_indexed(
    store: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home, _ = store
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "repo:web find . -name '*.png'"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("1 file here is not indexed, so not listed: app/assets/logo.png (binary)" in n for n in notes)
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            read = client.search("cat logs/big.log", repos=["web"])
            assert "logs/big.log is in web but not indexed (too large)" in read.notes[0]
        text = mcp_search(address, "git ls-files '*.png'", 10)
        assert "2 files here are not indexed, so not listed: other:lib/other.png (binary), web:app/assets/logo.png" in (
            text
        )


@pytest.fixture(scope="module")
def sized(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Files of many sizes (empty, under a block, kilobytes, one over the build's limit, a binary one), indexed."""
    top = tmp_path_factory.mktemp("sized")
    root = _git_repo(
        top / "sizes",
        {
            "empty.py": b"",
            "pkg/__init__.py": b"",
            "small.py": b"x = 1\n" * 20,  # 120 bytes
            "pkg/mid.py": b"y = 2\n" * 500,  # 3000 bytes: 6 blocks of 512, rounded up
            "pkg/edge.py": b"z\n" * 1024,  # 2048 bytes: 2k exactly
            "docs/large.md": b"word " * 800,  # 4000 bytes
            "data/blob.bin": b"\0" * 3500,  # binary, not indexed
            "logs/huge.log": b"a\n" * 4000,  # 8000 bytes: over the limit, not indexed
        },
    )
    home = top / "home"
    _build(home, [(root, "sizes")])
    return home, root


@pytest.mark.parametrize(
    "command",
    [
        "find . -type f -size +2k",
        "find . -name '*.py' -size -1k",
        "find . -type f -empty",
        "find . -type f ! -size -3k",
        "find . -type f -size +3k -size -5k",
        "find . -type f -size 6",
        "find . -type f -size 2k",
        "find . -type f -size -1M",
        "find pkg -not -empty",
        "find . -name '*.py' -size +2000c",
        "fd -t f --size +2ki",
        "fd -t f -S -200b",
        "fd -e py --size 2ki",
    ],
)
def test_a_listings_size_tests_keep_the_files_the_tool_keeps(sized: tuple[Path, Path], command: str) -> None:
    home, root = sized
    shell = command.replace("fd ", "fdfind ", 1) if command.startswith("fd ") else command
    if shutil.which(shell.split()[0]) is None:
        pytest.skip(f"{shell.split()[0]} is not on PATH; make system-tools installs it")
    printed = subprocess.run(shell, shell=True, cwd=root, capture_output=True, text=True, check=True).stdout.split()
    want = {p.removeprefix("./") for p in printed} - {".git"}
    want = {p for p in want if not p.startswith(".git/") and not (root / p).is_dir()}
    a = ask(home, command)
    listed = {f.hit.path for f in a.hits}
    said = unindexed_note(a)
    named = {p for p in ("data/blob.bin", "logs/huge.log") if f"{p} (" in said}
    assert listed | named == want and not listed & named, (a.notes, want)
    assert a.total_files == len(listed) and a.complete


def test_size_tests_read_as_find_and_fd_read_them() -> None:
    def passes(spec: str, *sizes: int) -> list[bool]:
        test = size_test(spec)
        assert test is not None, spec
        return [test(n) for n in sizes]

    assert passes("find:-1M", 0, 1, 1 << 20) == [True, False, False]  # rounded up: one byte is one unit
    assert passes("find:+1k", 1024, 1025) == [False, True]
    assert passes("find:10", 4608, 4609, 5120, 5121) == [False, True, True, False]  # 512-byte blocks
    assert passes("find:!empty", 0, 1) == [False, True]
    assert passes("fd:+1k", 999, 1000) == [False, True] and passes("fd:-1ki", 1024, 1025) == [True, False]
    assert passes("fd:10b", 10, 11) == [True, False]
    assert size_test("find:1x") is None and size_test("fd:10") is None and size_test("ls:+1k") is None


def test_a_size_test_of_folders_or_beside_an_exec_is_left_out_and_said(sized: tuple[Path, Path]) -> None:
    home, _ = sized
    grepped = ask(home, "find . -name '*.py' -size +1k -exec grep -l y {} +")
    assert "-size +1k left out" in grepped.notes[0] and {f.hit.path for f in grepped.hits} == {"pkg/mid.py"}
    paged = ask(home, "find . -type f -size -5k", k=2)  # every file sized, the first two shown
    assert len(paged.hits) == 2 and paged.total_files == 6 and not paged.complete
    assert any("4 more files: ask for more hits (k)" in n for n in paged.notes)
