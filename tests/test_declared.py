"""A definition question whose name no extractor keeps (``coordinator/declared.py``): a local declared in a
function, a property a constructor assigns, a Go local. Where it is declared leads the answer, over a real index
(text, structural, graph), and through the CLI, the Python client over gRPC and MCP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, mcp_search, search_once

from fourfold.api import Answer, SearchParams
from fourfold.client import Client
from fourfold.coordinator import declared
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins.types import Hit

FILES = {
    "lib/encode.js": """function encode(str) {
  const charMap = {
    '!': '%21',
  };
  return str.replace(/[!]/g, (m) => charMap[m]);
}

module.exports = encode;
""",
    "lib/axios.js": """class Axios {
  constructor(config) {
    this.defaults = config;
    this.interceptors = { request: [], response: [] };
  }

  reset() {
    this.interceptors = { request: [], response: [] };
  }

  request(config) {
    return this.interceptors.request.length;
  }
}

module.exports = Axios;
""",
    "lib/many.js": "\n".join(f"function f{n}() {{\n  const options = {n};\n  return options;\n}}" for n in range(6))
    + "\n",
    "main.go": """package main

func run() int {
	budget := 3
	return budget
}
""",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("declared-repo") / "web"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    home = tmp_path_factory.mktemp("declared") / "home"
    build_generation(IndexStore(home), [(root, "web")], modalities=["text", "structural", "graph"])
    return home


def ask(home: Path, query: str, **options: str) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, k=5, options=options))


def first(a: Answer) -> tuple[str, str | None, int, int]:
    h = a.hits[0].hit
    return h.path, h.symbol, h.start_line, h.end_line


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("where is charMap defined", "charMap"),
        ("def interceptors", "interceptors"),
        ("Axios.interceptors", "interceptors"),
    ],
)
def test_the_name_is_read_as_structural_reads_it(query: str, name: str) -> None:
    assert declared.name(query) == name


def test_the_pattern_finds_declarations_not_uses() -> None:
    import re

    rx = re.compile(declared.pattern("interceptors"))
    assert rx.search("    this.interceptors = {") and rx.search("  const interceptors = []")
    assert rx.search("\tinterceptors := load()") and rx.search("        self.interceptors = []")
    assert not rx.search("    return this.interceptors.request") and not rx.search("if (this.interceptors == x)")
    assert not rx.search("const myinterceptors = 1")


def test_a_files_first_declaration_is_the_one_kept() -> None:
    def hit(path: str, line: int) -> Hit:
        return Hit(f"{path}:{line}", "web", path, line - 1, line + 1, 1.0, match_lines=(line,))

    kept = declared.first_in_file([hit("a.js", 8), hit("a.js", 4), hit("b.js", 9)])
    assert [(h.path, h.match_lines) for h in kept] == [("a.js", (4,)), ("b.js", (9,))]


def test_a_local_a_property_and_a_go_local_lead_the_answer(home: Path) -> None:
    local = ask(home, "where is charMap defined")
    assert first(local)[:2] == ("lib/encode.js", "encode")
    assert any(n.startswith("no definition of 'charMap' is indexed") for n in local.notes)
    prop = ask(home, "def interceptors")  # the constructor's assignment, not reset()'s later one
    assert first(prop)[:2] == ("lib/axios.js", "constructor")
    assert first(ask(home, "budget"))[:2] == ("main.go", "run")


def test_a_common_local_name_or_a_definition_leaves_the_answer_as_it_was(home: Path) -> None:
    common = ask(home, "where is options defined")  # declared in six functions: none is the answer
    assert not any(n.startswith("no definition of") for n in common.notes)
    defined = ask(home, "where is encode defined")  # structural defines it
    assert first(defined)[:2] == ("lib/encode.js", "encode")
    assert not any(n.startswith("no definition of") for n in defined.notes)
    off = ask(home, "where is charMap defined", declared="off")
    assert not any(n.startswith("no definition of") for n in off.notes)


def test_the_cli_the_client_and_mcp_lead_with_the_declaration(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "where is charMap defined"]) == 0
    assert json.loads(capsys.readouterr().out)["hits"][0]["path"] == "lib/encode.js"
    with coordinator_in_process(home) as address:
        with Client(address) as client:
            assert client.search("def interceptors").hits[0].hit.symbol == "constructor"
        text = mcp_search(address, "where is charMap defined", 5)
        listed = [line for line in text.splitlines() if "lib/" in line or "main.go" in line]
        assert "lib/encode.js" in listed[0]
