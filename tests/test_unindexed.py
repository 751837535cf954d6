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
    assert reader.unheld("web") == [
        ("app/assets/logo.png", "binary"),
        ("current", "symlink"),
        ("legacy/readme.txt", "invalid_utf8"),
        ("logs/big.log", "too_large"),
    ]
    assert reader.manifest["repos"]["web"]["unheld"] == 4 and reader.manifest["repos"]["other"]["unheld"] == 2
    assert "app/assets/logo.png" not in reader.paths("web") and "app/main.py" in reader.paths("web")
    copy = tmp_path / "web"  # rebuilt unchanged (its segments carried), then with the logo gone
    shutil.copytree(web, copy, symlinks=True)
    again = tmp_path / "home"
    _build(again, [(copy, "web")])
    _build(again, [])
    assert IndexStore(again).require_live().unheld("web")[0] == ("app/assets/logo.png", "binary")
    subprocess.run("git rm -q app/assets/logo.png && git -c user.email=t@local -c user.name=t commit -qm gone",
                   shell=True, cwd=copy, check=True)  # fmt: skip
    _build(again, [])
    assert [p for p, _ in IndexStore(again).require_live().unheld("web")] == [
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
