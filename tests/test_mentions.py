"""Where the graph finds no callers of a name it was asked about, the answer is where text finds the name
written (``coordinator/mentions.py``): a real index (text, structural, graph) of a JavaScript repository
whose method is called through ``this``, asked through the engine, the CLI, the gRPC client and MCP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, search_once

from fourfold.api import Answer, FusedHit, SearchParams
from fourfold.coordinator.absent import Subject
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.mcp_server import format_answer
from fourfold.coordinator.mentions import STRATEGY, uses
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins.types import Hit

RESPONSE_JS = """'use strict';

var res = Object.create(null);

/**
 * Transfer the file at the given path.
 */

res.sendFile = function sendFile(path, callback) {
  if (!path) {
    throw new TypeError('path argument is required to res.sendFile');
  }
  callback(null, path);
};

/**
 * Transfer the file as an attachment.
 */

res.download = function download(path, callback) {
  // Resolve the full path for sendFile
  return this.sendFile(path, callback);
};

// an old helper of another name: a case-insensitive match, not a use
function sendfile(res, file) {
  return file;
}

res.lonely = function lonely() {
  return 1;
};

module.exports = res;
"""


#: Rust, which the graph does not follow: a struct whose name is a plain word.
OVERRIDES_RS = """/// Manages a set of overrides provided explicitly by the end user.
pub struct Override(Vec<String>);

impl Override {
    pub fn empty() -> Override {
        Override(Vec::new())
    }
}
"""

DIR_RS = """use crate::overrides::Override;

// the override matcher is asked first
pub struct Ignore {
    overrides: Override,
}

pub fn build_ignore() -> Ignore {
    Ignore { overrides: Override::empty() }
}
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mentions")
    (root / "web" / "lib").mkdir(parents=True)
    (root / "web" / "lib" / "response.js").write_text(RESPONSE_JS)
    (root / "web" / "src").mkdir()
    (root / "web" / "src" / "overrides.rs").write_text(OVERRIDES_RS)
    (root / "web" / "src" / "dir.rs").write_text(DIR_RS)
    home = root / "home"
    build_generation(IndexStore(home), [(root / "web", "web")], modalities=["text", "structural", "graph"])
    return home


def search(home: Path, query: str, **kwargs: object) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, k=5, **kwargs))  # type: ignore[arg-type]


def test_a_method_called_through_this_is_found_where_it_is_written(home: Path) -> None:
    a = search(home, "who calls sendFile")
    assert a.intent == "find_references" and a.fusion_strategy == STRATEGY, a.notes
    assert a.hits[0].hit.symbol == "download" and 22 in a.hits[0].hit.match_lines
    symbols = [f.hit.symbol for f in a.hits]
    assert "sendFile" not in symbols and "sendfile" not in symbols  # its own definition; another name
    assert a.notes[0].startswith("the graph found no uses of 'sendFile'")
    assert (a.total_matches, a.complete, a.cursor) == (0, False, "")  # ranked, not a listing
    impact = search(home, "what breaks if I change res.sendFile")
    assert impact.fusion_strategy == STRATEGY and impact.hits[0].hit.symbol == "download"


def test_a_name_only_its_definition_writes_is_fused_as_before(home: Path) -> None:
    a = search(home, "who calls lonely")
    assert a.fusion_strategy == "fused" and a.notes[0].startswith("direct path (graph) found nothing")


def test_a_plain_word_the_index_defines_is_found_where_it_is_written(home: Path) -> None:
    """ "who uses Override" in Rust: one plain word, which a struct of the index is named; not "override",
    which only a comment writes."""
    a = search(home, "who uses Override")
    assert a.intent == "find_references" and a.fusion_strategy == STRATEGY, a.notes
    assert {f.hit.path for f in a.hits} == {"src/dir.rs", "src/overrides.rs"}
    assert "build_ignore" in [f.hit.symbol for f in a.hits]
    assert all(f.hit.symbol != "Override" for f in a.hits)  # its definition and impl block left out
    assert a.notes[0].startswith("the graph found no uses of 'Override'")
    word = search(home, "who uses override")
    assert word.fusion_strategy == "fused" and word.notes[0].startswith("direct path (graph) found nothing")


def test_a_caller_naming_modalities_gets_them(home: Path) -> None:
    a = search(home, "who calls sendFile", modalities=("graph",))
    assert a.fusion_strategy != STRATEGY and not a.hits


def _fused(symbol: str | None) -> FusedHit:
    return FusedHit(Hit("s", "r", "a.js", 1, 3, 1.0, symbol=symbol), 1.0, {})


def test_uses_leave_out_the_definitions_and_put_callers_first() -> None:
    hits = [_fused(None), _fused("Response.sendFile"), _fused("download"), _fused("sendFileLater")]
    assert [f.hit.symbol for f in uses(hits, Subject("res.sendFile", "sendFile"))] == [
        "download",
        "sendFileLater",
        None,
    ]


def test_every_surface_says_it(home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import fourfold

    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "who calls sendFile"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fusion_strategy"] == STRATEGY and out["hits"][0]["symbol"] == "download"
    with coordinator_in_process(home) as address, fourfold.Client(address) as client:
        answer = client.search("who calls sendFile", k=3)
        assert answer.fusion_strategy == STRATEGY and answer.hits[0].hit.symbol == "download"
    text = format_answer(search(home, "who calls sendFile"))
    assert "mentions" in text.splitlines()[0] and "function download" in text
