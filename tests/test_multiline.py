"""Matches that span lines, as ``rg -U`` finds them (``--multiline-dotall``: ``.`` matching newlines too): the text
modality's shards against ripgrep itself, and the way each caller asks for them (a command, the CLI, the Python
client over gRPC, MCP, an agent's Grep call), over a real index."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, index_files, mcp_search, search_once

from fourfold.api import Answer, SearchParams
from fourfold.client import Client
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.errors import InvalidQuery
from fourfold.index.store import IndexStore
from fourfold.plugins.text.matchers import multiline_matcher
from fourfold.plugins.text.shard import TextShard
from fourfold.plugins.types import MULTILINE_OPTION

#: Each line of the big file: a block of the text shard holds about 64 K characters, so matches of two lines
#: fall across its blocks' edges too.
_PAIRS = "".join(f"start {n} {'x' * 40}\nfinish {n}\n" for n in range(2500))
FILES = {
    "api/render.go": (
        "package api\n\ntype JSON struct {\n\tData any\n}\n\n"
        "func (r JSON) Render(w Writer) error {\n\treturn WriteJSON(w, r.Data)\n}\n\n"
        "type XML struct {\n\tData any\n}\n"
    ),
    "api/retry.py": (
        "def retry(fn,\n          attempts=3):\n    for _ in range(attempts):\n        fn()\n\n"
        "@cache\ndef settle(total):\n    return total\n"
    ),
    "big/pairs.txt": _PAIRS,
    "docs/notes.md": "A note\nwith no struct in it.\n",
}
PATTERNS = [
    ("type \\w+ struct \\{\\n\\s+Data", ""),
    ("def \\w+\\([^)]*\\n[^)]*\\):", ""),
    ("@cache\\ndef", ""),
    ("start \\d+ x+\\nfinish", ""),  # 2,500 matches of two lines, some across the big file's blocks
    ("Render.*?WriteJSON", "dotall"),
    ("struct \\{.*?\\}", "dotall"),
    ("^\\}\\n\\n", ""),
    ("fn\\(\\)\\n\\s*$", ""),
]
RG = shutil.which("rg")


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return index_files(tmp_path_factory.mktemp("multiline"), "api", FILES)


def ask(home: Path, query: str, **kw: object) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, **{"k": 50, **kw}))  # type: ignore[arg-type]


def listed(a: Answer) -> set[tuple[str, int]]:
    return {(f.hit.path, n) for f in a.hits for n in f.hit.match_lines}


def rg_lines(root: Path, pattern: str, dotall: bool) -> set[tuple[str, int]]:
    assert RG is not None
    flags = ["--multiline-dotall"] if dotall else []
    out = subprocess.run(
        [RG, "--no-config", "-n", "-U", *flags, "-e", pattern, "."], cwd=root, capture_output=True, text=True
    ).stdout
    rows = [line.removeprefix("./").split(":", 2) for line in out.splitlines()]
    return {(path, int(n)) for path, n, _ in rows}


@pytest.mark.skipif(RG is None, reason="ripgrep (rg) is not on PATH; CI installs it")
@pytest.mark.parametrize(("pattern", "spanning"), PATTERNS)
def test_matches_across_lines_list_the_lines_rg_prints(home: Path, pattern: str, spanning: str) -> None:
    root = home.parent / "api"
    want = rg_lines(root, pattern, spanning == "dotall")
    options = {"mode": "regex", MULTILINE_OPTION: spanning or "on"}
    a = ask(home, pattern, options=options, k=1000)
    assert a.total_matches == len(want) and listed(a) == want, (pattern, a.notes)
    assert a.complete and a.total_exact
    command = ask(home, f"rg -n -U {'--multiline-dotall ' if spanning else ''}'{pattern}'", k=1000)
    assert listed(command) == want and "its matches across lines" in command.notes[0]
    if spanning != "dotall":  # without -U the same pattern matches within lines only: none of these
        assert ask(home, pattern, options={"mode": "regex"}).total_matches == 0 or "\\n" not in pattern


def test_a_match_across_two_blocks_is_found_in_the_whole_file(home: Path) -> None:
    shards = [TextShard(d) for d in sorted((home / "generations").glob("*/text/*")) if (d / "meta.json").exists()]
    assert sum(s.n_blocks - s.n_files for s in shards) >= 1, "the big file is stored in several blocks"
    a = ask(home, "start 2499 x+\\nfinish 2499", options={"mode": "regex", MULTILINE_OPTION: "on"})
    assert listed(a) == {("big/pairs.txt", 4999), ("big/pairs.txt", 5000)}


def test_a_matchers_lines_are_every_line_each_match_spans() -> None:
    data = b"a\nfunc x() {\n  Render()\n}\nfunc y\nRender\n"
    assert multiline_matcher("func.*\\n.*Render", True).lines(data) == [1, 2, 4, 5]
    assert multiline_matcher("x\\(\\).*Render", True, dotall=True).lines(data) == [1, 2, 3, 4, 5]
    assert multiline_matcher("x\\(\\).*Render", True).lines(data) == []  # . stops at the newline
    assert multiline_matcher("^", True).lines(b"a\nb\nc") == [0, 1, 2]  # an empty match on each line
    assert multiline_matcher("^", True).lines(b"a\nb\n") == [0, 1]  # none after the last newline, as rg prints
    assert multiline_matcher("\\n", True).lines(b"a\nb\nc") == [0, 1]  # a newline is on the line it ends
    assert str(multiline_matcher("a\\nb", True).trigrams) == "ALL"  # no trigram holds the newline


def test_the_cli_the_client_mcp_and_a_grep_call_ask_for_matches_across_lines(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    want = {("api/render.go", n) for n in (3, 4, 11, 12)}
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "-U", "type \\w+ struct \\{\\n\\s+Data"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert {(h["path"], n) for h in hits for n in h["match_lines"]} == want
    assert main(["search", "--in-process", "--multiline-dotall", "x"]) == 2
    assert "give -U with it" in capsys.readouterr().err
    assert main(["search", "--in-process", "-U", "--paths", "x"]) == 2
    assert "-U reads a regular expression whose matches span lines: drop --paths" in capsys.readouterr().err
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            a = client.search("type \\w+ struct \\{.*?Data", multiline="dotall", k=20)
            assert listed(a) == want
        text = mcp_search(address, "@cache\\ndef", 10, multiline=True)
        assert "api:api/retry.py" in text and "4 matching lines" not in text and "2 matching lines in 1 files" in text
        called = mcp_search(address, 'Grep(pattern="@cache\\ndef settle", multiline=true)', 10)  # as Claude Code
        assert "2 matching lines in 1 files" in called and "its matches across lines" in called


def test_a_bad_multiline_value_is_refused_naming_it(home: Path) -> None:
    with pytest.raises(InvalidQuery, match=r"invalid multiline 'sometimes': give 'on' \(rg -U\)"):
        ask(home, "x", options={"mode": "regex", MULTILINE_OPTION: "sometimes"})
    with pytest.raises(InvalidQuery, match=r"invalid regex '\(a.*': missing \) at position 0"):
        ask(home, "(a\\nb", options={"mode": "regex", MULTILINE_OPTION: "on"})
