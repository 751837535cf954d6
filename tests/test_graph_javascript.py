"""The graph reads JavaScript's constructor functions: a function assigned to a property of a function of its file
(``Suite.prototype.addTest = function``, ``Suite.create = function``) is that function's method, ``this`` inside
the constructor or its methods is the class, a call on a value of unknown type reaches the method as a class's own,
and the property a function is assigned to is its name, not a use; against real tree-sitter and the real graph
build, and through the CLI, the gRPC client and MCP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, index_files, search_once

from fourfold.api import SearchParams
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.mcp_server import format_answer
from fourfold.index.ingest.segment import segment_file
from fourfold.index.store import IndexStore
from fourfold.plugins.graph.parse import parse_file
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.shard import GraphShard
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import ModalityQuery

FILES = {
    "lib/suite.js": """'use strict';

function Suite(title) {
  this.title = title;
  this.tests = [];
  this.reset();
}

Suite.prototype.reset = function () {
  this.tests = [];
};

Suite.prototype.addTest = function (test) {
  this.tests.push(test);
  return this;
};

Suite.create = function (parent, title) {
  var suite = new Suite(title);
  parent.addSuite(suite);
  return suite;
};

module.exports = Suite;
""",
    "lib/bdd.js": """'use strict';
var Suite = require('./suite');

module.exports = function (suites) {
  function it(title, fn) {
    var test = { title: title, fn: fn };
    suites[0].addTest(test);
    return test;
  }
  function describe(title) {
    return Suite.create(suites[0], title);
  }
  return { it: it, describe: describe };
};
""",
}

INHERITS = {
    "lib/base.js": """function Base(runner) {
  this.runner = runner;
}

Base.prototype.epilogue = function () {
  return this.runner;
};

Base.prototype.done = function () {};

module.exports = Base;
""",
    "lib/dot.js": """var inherits = require('util').inherits;
var Base = require('./base');

function Dot(runner) {
  Base.call(this, runner);
  var self = this;
  runner.once('end', function () {
    self.epilogue();
  });
}

Dot.prototype.done = function () {};

inherits(Dot, Base);

module.exports = Dot;
""",
}


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> GraphShard:
    segments = [
        s for path, text in FILES.items() for s in segment_file("kit", path, "javascript", text.encode()).segments
    ]
    out = tmp_path_factory.mktemp("graph")
    modality = GraphModality()
    modality.build(segments, out, BuildContext(generation="g", shard="all", repos=("kit",)))
    return modality.load(out)


def test_the_property_a_function_is_assigned_to_is_its_name_not_a_use() -> None:
    facts = parse_file(FILES["lib/suite.js"].encode(), "javascript")
    chains = {r.chain for r in facts.references}
    assert ("Suite", "prototype", "addTest") not in chains and ("Suite", "create") not in chains
    assert ("Suite",) in {r.chain for r in facts.references if r.line == 13}  # the object it extends is read
    assert ("this", "reset") in {r.chain for r in facts.references if r.call}


def test_a_method_on_the_prototype_is_the_constructor_s(shard: GraphShard) -> None:
    """``suites[0].addTest(test)`` (a receiver of unknown type) reaches ``Suite.prototype.addTest``: before, the
    method was a top-level function no member call could reach, and the graph knew no caller of it. ``this.reset()``
    inside the constructor function is Suite's ``reset``, resolved (full confidence)."""
    adds = shard.search(ModalityQuery(text="who calls addTest", k=10)).hits
    assert [(h.path, h.symbol, h.match_lines) for h in adds] == [("lib/bdd.js", "it", (7,))]
    resets = shard.search(ModalityQuery(text="who calls reset", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in resets] == [("Suite", (6,))]
    assert resets[0].score >= 1.0
    creates = shard.search(ModalityQuery(text="who calls Suite.create", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in creates] == [("describe", (11,))]


def test_a_constructor_function_calls_what_its_body_calls_not_its_methods(shard: GraphShard) -> None:
    """The question "what does Suite call" is the constructor's body (``this.reset()``), not every method attached
    to it."""
    callees = shard.search(ModalityQuery(text="what does Suite call", k=10)).hits
    assert [h.symbol for h in callees] == ["reset"]


def test_every_surface_answers_a_caller_question_about_a_prototype_method(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import fourfold

    home = index_files(tmp_path, "kit", FILES)
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "who calls addTest"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fusion_strategy"] == "direct" and [h["symbol"] for h in out["hits"]] == ["it"]
    with coordinator_in_process(home) as address, fourfold.Client(address) as client:
        answer = client.search("who calls addTest", k=3)
        assert answer.fusion_strategy == "direct" and answer.hits[0].hit.match_lines == (7,)
    text = format_answer(search_once(Engine(IndexStore(home)), SearchParams("who calls addTest", k=3)))
    assert "function it" in text and "mentions" not in text.splitlines()[0]


def test_inherits_makes_a_constructor_function_a_subclass(tmp_path: Path) -> None:
    """``inherits(Dot, Base)``: ``self.epilogue()`` inside Dot is Base's ``epilogue``, found through the base (before,
    every ``epilogue`` at half weight); Dot's own ``done`` overrides Base's."""
    facts = parse_file(INHERITS["lib/dot.js"].encode(), "javascript")
    assert [(b.class_line, b.chain) for b in facts.bases] == [(4, ("Base",))]
    segments = [
        s for path, text in INHERITS.items() for s in segment_file("kit", path, "javascript", text.encode()).segments
    ]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("kit",)))
    shard = modality.load(tmp_path)
    epilogue = shard.search(ModalityQuery(text="who calls epilogue", k=10)).hits
    assert [(h.path, h.symbol, h.match_lines) for h in epilogue] == [("lib/dot.js", "Dot", (8,))]
    implementations = shard.search(ModalityQuery(text="who implements Base", k=10)).hits
    assert [(h.path, h.symbol) for h in implementations] == [("lib/dot.js", "Dot")]


def test_a_function_assigned_to_an_object_s_property_is_that_object_s_method(tmp_path: Path) -> None:
    """``var app = exports = module.exports = {}; app.init = function init() { this.configure(); }``: ``this`` is
    ``app`` (before, ``this.configure()`` resolved to nothing outside a class)."""
    source = """var app = exports = module.exports = {};

app.init = function init() {
  this.configure();
};

app.configure = function configure() {
  return this;
};
"""
    segments = segment_file("web", "lib/application.js", "javascript", source.encode()).segments
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    shard = modality.load(tmp_path)
    callers = shard.search(ModalityQuery(text="who calls configure", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in callers] == [("init", (4,))]
    assert callers[0].score >= 1.0


def test_a_function_calls_its_nested_helpers_and_its_own_calls_come_first(tmp_path: Path) -> None:
    """Asked what wrap calls: ``settle``, which its own body passes on, then ``done``, which only ``settle`` calls.
    Before, a function's nested definitions were never its callees."""
    source = """function wrap(executor) {
  function done(value) {
    return value;
  }
  function settle(value) {
    return done(value);
  }
  return executor(settle);
}
"""
    segments = segment_file("kit", "lib/wrap.js", "javascript", source.encode()).segments
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("kit",)))
    shard = modality.load(tmp_path)
    callees = shard.search(ModalityQuery(text="what does wrap call", k=10)).hits
    assert [h.symbol for h in callees] == ["settle", "done"]
    assert callees[0].score > callees[1].score


def test_a_built_in_s_member_called_on_a_literal_is_nobody_s(tmp_path: Path) -> None:
    """``[a, b].join(",")`` is ``Array.prototype.join`` and ``"x".split(y)`` ``String``'s, never the project's one
    ``join`` or ``split`` (before, a call on a receiver that is no name reached every member of its name);
    ``parts.join()`` on a value of unknown type still may be the project's."""
    source = """function Path(base) {
  this.base = base;
}

Path.prototype.join = function (other) {
  return this.base + other;
};

function label(a, b) {
  return [a, b].join(",") + "x".split(b) + `${a}`.split(b);
}

function concat(parts) {
  return parts.join("/");
}
"""
    chains = {r.chain for r in parse_file(source.encode(), "javascript").references}
    assert {("Array", "join"), ("String", "split")} <= chains
    segments = segment_file("web", "lib/path.js", "javascript", source.encode()).segments
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    callers = modality.load(tmp_path).search(ModalityQuery(text="who calls Path.join", k=10)).hits
    assert [h.symbol for h in callers] == ["concat"]


def test_a_shorthand_property_uses_its_name(tmp_path: Path) -> None:
    """``module.exports = { concat, mask: _mask }`` and ``export default { merge }``: ``concat`` is ``concat:
    concat``, a use of the function, as TypeScript's compiler counts it (before, only ``mask: _mask`` was read: 25 of
    the JavaScript references suites' missed lines were such exports). A destructuring pattern (``const { a } =
    require("x")``) declares its names and uses none."""
    source = """const { inherits } = require("util");

function concat(list) {
  return list;
}

function _mask(buffer) {
  return concat([buffer]);
}

module.exports = {
  concat,
  mask: _mask
};
"""
    uses = {(r.line, r.chain) for r in parse_file(source.encode(), "javascript").references}
    assert (12, ("concat",)) in uses and (13, ("_mask",)) in uses and (1, ("inherits",)) not in uses
    segments = segment_file("ws", "lib/buffer-util.js", "javascript", source.encode()).segments
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("ws",)))
    hits = modality.load(tmp_path).search(ModalityQuery(text="usages of concat", k=10)).hits
    assert {line for h in hits for line in h.match_lines} == {8, 12}
