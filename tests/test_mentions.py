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
from fourfold.coordinator.mentions import CODE, COMMENT, STRATEGY, STRING, UNSHOWN, uses, written
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

function download(path, callback) {
  // Resolve the full path for sendFile
  return this.sendFile(path, callback);
}
res.download = download;

// an old helper of another name: a case-insensitive match, not a use
function sendfile(res, file) {
  return file;
}

res.lonely = function lonely() {
  return 1;
};

module.exports = res;
"""


#: Kotlin, which the graph does not follow: a class whose name is a plain word.
OVERRIDES_KT = """/** Manages a set of overrides provided explicitly by the end user. */
class Override {
    companion object {
        fun empty(): Override {
            return Override()
        }
    }
}
"""

DIR_KT = """import acme.overrides.Override

// the override matcher is asked first
class Ignore {
    private var overrides: Override? = null

    fun buildIgnore(): Ignore {
        overrides = Override.empty()
        return this
    }
}
"""

#: A method whose doc comments, in the class's own lines (between its methods), write its name more often
#: than its one caller does, and a string that writes it.
PATTERN_KT = """class Pattern(private val text: String) {

    // Whether the pattern matches the whole of `s`: matches is case-sensitive.
    // The matches of a pattern are exact; see matches_path for paths.
    fun matches(s: String): Boolean {
        return s == text
    }

    // A path's text against the pattern.
    fun matches_path(p: String): Boolean {
        return this.matches(p)
    }

    fun describe(): String {
        return "a pattern matches exactly"
    }
}
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mentions")
    (root / "web" / "lib").mkdir(parents=True)
    (root / "web" / "lib" / "response.js").write_text(RESPONSE_JS)
    (root / "web" / "src").mkdir()
    (root / "web" / "src" / "Overrides.kt").write_text(OVERRIDES_KT)
    (root / "web" / "src" / "Dir.kt").write_text(DIR_KT)
    (root / "web" / "src" / "Pattern.kt").write_text(PATTERN_KT)
    home = root / "home"
    build_generation(IndexStore(home), [(root / "web", "web")], modalities=["text", "structural", "graph"])
    return home


def search(home: Path, query: str, **kwargs: object) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, k=5, **kwargs))  # type: ignore[arg-type]


def test_a_method_called_through_this_is_found_where_it_is_written(home: Path) -> None:
    """``this`` in a plain function (``download``, assigned to ``res`` only later) is no class the graph knows: it
    finds no use of ``res.sendFile`` (written as ``res.download = function download``, it would: ``this`` is then
    ``res``, tests/test_graph_javascript.py)."""
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
    """ "who uses Override" in Kotlin: one plain word, which a class of the index is named; not "override",
    which only a comment writes."""
    a = search(home, "who uses Override")
    assert a.intent == "find_references" and a.fusion_strategy == STRATEGY, a.notes
    assert {f.hit.path for f in a.hits} == {"src/Dir.kt", "src/Overrides.kt"}
    assert "buildIgnore" in [f.hit.symbol for f in a.hits]
    assert all(f.hit.symbol != "Override" for f in a.hits)  # its definition and impl block left out
    assert a.notes[0].startswith("the graph found no uses of 'Override'")
    word = search(home, "who uses override")
    assert word.fusion_strategy == "fused" and word.notes[0].startswith("direct path (graph) found nothing")


def test_the_code_that_writes_the_name_comes_before_its_comments_and_strings(home: Path) -> None:
    """Doc comments between the methods of a class are the class's own lines (a Rust ``impl`` block's too):
    before, ``class Pattern`` (three lines that write ``matches``, all of them comments) came first."""
    a = search(home, "who calls matches")
    assert a.fusion_strategy == STRATEGY, a.notes
    assert [f.hit.symbol for f in a.hits] == ["matches_path", "describe", "Pattern"]
    assert [f.hit.kind for f in a.hits] == ["method", "method", "class"]


def test_a_callee_question_is_never_answered_by_where_the_name_is_written(home: Path) -> None:
    """Where ``download`` is written are its callers, not what it calls: the graph's answer or fusion, not mentions."""
    a = search(home, "what does download call")
    assert a.intent == "find_references" and a.fusion_strategy != STRATEGY, a.notes


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


def _shown(snippet: str, lines: tuple[int, ...], language: str = "rust", symbol: str | None = "f") -> FusedHit:
    return FusedHit(
        Hit("s", "r", "a", 1, 9, 1.0, symbol=symbol, language=language, match_lines=lines, snippet=snippet), 1.0, {}
    )


@pytest.mark.parametrize(
    ("language", "snippet", "lines", "expected"),
    [
        ("rust", "    self.matches(p)", (3,), (CODE, True)),
        ("rust", "    /// see matches for paths", (3,), (COMMENT, False)),
        ("rust", "    //! the matches of a crate", (3,), (COMMENT, False)),
        ("rust", " * matches, in a block comment", (3,), (COMMENT, False)),
        ("rust", '    "a pattern matches exactly"', (3,), (STRING, False)),
        ("rust", "    let n = 1; // matches below", (3,), (COMMENT, False)),
        ("rust", "    let matches = all.len();", (3,), (CODE, False)),
        ("rust", '    println!("{}", matches!(x, Some(_)))', (3,), (CODE, True)),
        ("rust", "    Pattern::matches::<str>(p)", (3,), (CODE, True)),
        ("rust", "    #[cfg(matches)]", (3,), (CODE, False)),  # an attribute, not a comment
        ("rust", "    /// matches\n    /// matches", (3, 4, 5), (UNSHOWN, False)),  # a third line not shown
        ("rust", "    let s = some_long_call(a, b, c", (3,), (UNSHOWN, False)),  # the snippet cut the line short
        ("rust", "    let x = 'a'; y.matches(x)", (3,), (CODE, True)),  # a char, not a string
        ("python", "    # matches is called below", (3,), (COMMENT, False)),
        ("python", "    x = 'matches'  # matches", (3,), (STRING, False)),
        ("python", "    return matches (path)", (3,), (CODE, True)),
        ("javascript", "  const s = `matches ${x}`; return matches(s);", (3,), (CODE, True)),
        ("go", '\treturn fmt.Sprintf("%s matches", s)', (3,), (STRING, False)),
    ],
)
def test_written_tells_code_from_comments_and_strings(
    language: str, snippet: str, lines: tuple[int, ...], expected: tuple[int, bool]
) -> None:
    assert written(_shown(snippet, lines, language), "matches") == expected


def test_uses_put_code_before_unshown_lines_strings_and_comments() -> None:
    comment = _shown("    /// matches", (2,), symbol="Pattern")
    string = _shown('    "matches"', (2,), symbol="describe")
    unshown = _shown("    /// matches\n    /// matches\n    /// matches", (2, 3, 4, 5), symbol="Other")
    module_line = _shown("use crate::matches;", (1,), symbol=None)
    caller = _shown("    self.matches(p)", (2,), symbol="matches_path")
    mention = _shown("    let matches = 1;", (2,), symbol="count")
    ordered = uses([comment, string, unshown, module_line, mention, caller], Subject("matches", "matches", False))
    assert [f.hit.symbol for f in ordered] == ["matches_path", "count", None, "Other", "describe", "Pattern"]


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
