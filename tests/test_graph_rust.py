"""The graph reads Rust: file modules and ``use`` trees, paths (``crate::``, ``super::``, ``Self::``), impl
blocks as their type's members, declared types of receivers, generic parameters' bounds, calls inside
macros' token trees and ``impl Trait for Type``, against real tree-sitter and the real graph build."""

from __future__ import annotations

from pathlib import Path

import pytest

from fourfold.index.ingest.segment import segment_file
from fourfold.plugins.graph.links import import_names, provided_names
from fourfold.plugins.graph.parse import RUST_SELF, UNKNOWN, parse_file
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.resolve import CALL
from fourfold.plugins.graph.shard import GraphShard
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import Hit, ModalityQuery, Segment

FILES = {
    "Cargo.toml": """[package]
name = "tiny"
""",
    "src/lib.rs": """pub mod ast;
mod util;

pub use crate::ast::Parser;

/// Parses `text` with a fresh parser.
pub fn parse(text: &str) -> ast::Node {
    let mut p = Parser::new(text);
    p.parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_one() {
        assert_eq!(parse("x").len(), 2);
        assert!(util::helper(2) > 0);
    }
}
""",
    "src/ast.rs": """use crate::util::helper;

pub struct Node {
    len: usize,
}

impl Node {
    pub fn len(&self) -> usize {
        self.len
    }
}

pub trait Visit {
    fn visit(&mut self, node: &Node) -> usize;

    fn visit_all(&mut self, nodes: &[Node]) -> usize {
        nodes.iter().map(|n| self.visit(n)).sum()
    }
}

pub struct Parser {
    text: String,
}

impl Parser {
    pub fn new(text: &str) -> Parser {
        Parser { text: text.to_string() }
    }

    pub fn parse(&mut self) -> Node {
        Node { len: helper(self.text.len()) }
    }
}

pub struct Counter;

impl Visit for Counter {
    fn visit(&mut self, node: &Node) -> usize {
        node.len()
    }
}

pub fn count<V: Visit>(v: &mut V, nodes: &[Node]) -> usize {
    V::visit_all(v, nodes)
}
""",
    "src/util.rs": """pub fn helper(n: usize) -> usize {
    n + 1
}

pub fn len(items: &[u8]) -> usize {
    items.len()
}

pub fn total(items: &[u8]) -> usize {
    self::len(items) + super::util::helper(0)
}
""",
}


#: Another repository, a binary crate using the library by its name.
APP = {
    "Cargo.toml": """[package]
name = "tiny-app"
""",
    "src/main.rs": """use tiny::ast::Parser;
use std::io;

fn main() {
    let mut p = Parser::new("x");
    p.parse();
    tiny::parse("y");
}
""",
}


def segments(repo: str = "tiny", files: dict[str, str] = FILES) -> list[Segment]:
    out: list[Segment] = []
    for path, text in sorted(files.items()):
        language = "rust" if path.endswith(".rs") else "toml"
        out.extend(segment_file(repo, path, language, text.encode()).segments)
    return out


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> GraphShard:
    shard_dir = tmp_path_factory.mktemp("graph_rust")
    modality = GraphModality()
    both = segments() + segments("tiny-app", APP)
    modality.build(both, shard_dir, BuildContext(generation="g", shard="all", repos=("tiny", "tiny-app")))
    return modality.load(shard_dir)


def ask(shard: GraphShard, text: str) -> dict[str, Hit]:
    return {f"{Path(h.path).stem}.{h.symbol}": h for h in shard.search(ModalityQuery(text=text, k=20)).hits}


def test_facts_read_use_trees_paths_typed_receivers_and_macros() -> None:
    facts = parse_file(FILES["src/lib.rs"].encode(), "rust")
    assert {(i.module, i.name, i.alias) for i in facts.imports} == {
        ("crate::ast", "Parser", "Parser"),
        (RUST_SELF, "*", "*"),  # ``use super::*`` inside ``mod tests``: the file's own names
    }
    calls = {r.chain for r in facts.references if r.call}
    # ``let mut p = Parser::new(text)`` makes ``p`` a Parser; the macros' arguments are read as calls
    assert {("Parser", "new"), ("Parser", "parse"), ("parse",), ("util", "helper"), (UNKNOWN, "len")} <= calls
    ast = parse_file(FILES["src/ast.rs"].encode(), "rust")
    assert [b.chain for b in ast.bases] == [("Visit",)]  # impl Visit for Counter
    ast_calls = {r.chain for r in ast.references if r.call}
    assert ("Node", "len") in ast_calls  # ``node: &Node``
    assert ("Visit", "visit_all") in ast_calls  # ``V::visit_all`` under ``V: Visit``
    util = parse_file(FILES["src/util.rs"].encode(), "rust")
    util_calls = {r.chain for r in util.references if r.call}
    assert (RUST_SELF, "len") in util_calls and ("super", "util", "helper") in util_calls
    assert not any(chain[-1] == "len" and len(chain) == 2 and chain[0] == "items" for chain in util_calls)


def test_paths_imports_and_typed_receivers_resolve(shard: GraphShard) -> None:
    """``p.parse()`` on ``let mut p = Parser::new(..)`` is Parser's; ``helper`` is reached through ``use
    crate::util::helper``, a 2018 path from lib.rs (``util::helper`` inside a macro) and ``super::util::helper``."""
    assert set(ask(shard, "who calls Parser.parse")) == {"lib.parse", "main.main"}  # main.main: another crate's
    assert set(ask(shard, "who calls Parser.new")) == {"lib.parse", "main.main"}
    assert {"ast.parse", "lib.parses_one", "util.total"} <= set(ask(shard, "who calls helper"))
    assert set(ask(shard, "who calls util.len")) == {"util.total"}  # ``self::len``
    assert "lib.parses_one" in ask(shard, "who calls parse")  # ``use super::*`` in ``mod tests``


def test_a_getter_is_meant_not_its_field_and_a_slice_s_len_is_nobody_s(shard: GraphShard) -> None:
    """Rust names a getter as its field: "who calls len" lists the getter's callers, not ``Node::len``
    itself (which reads the field); ``items.len()`` on a ``&[u8]`` calls no indexed ``len``."""
    callers = ask(shard, "who calls Node.len")
    assert set(callers) == {"ast.visit", "lib.parses_one"}
    assert callers["ast.visit"].score > callers["lib.parses_one"].score  # typed, before a guess
    assert "ast.len" not in ask(shard, "who calls len")


def test_impl_blocks_traits_and_bounds(shard: GraphShard) -> None:
    """``impl Visit for Counter`` implements Visit; ``V::visit_all`` under ``V: Visit`` calls the trait's
    default method, whose ``self.visit`` may run Counter's."""
    hits = shard.search(ModalityQuery(text="who implements Visit", k=10)).hits
    assert [(Path(h.path).stem, h.kind, h.symbol) for h in hits] == [("ast", "impl", "Counter")]
    assert set(ask(shard, "who calls visit_all")) == {"ast.count"}
    assert "ast.visit_all" in ask(shard, "who calls Counter.visit")
    impact = ask(shard, "what breaks if I change helper")
    assert {"ast.parse", "lib.parse"} <= set(impact)  # lib.parse at distance 2, through Parser.parse


def test_another_crate_is_reached_by_its_name_and_its_repository_is_a_dependency(shard: GraphShard) -> None:
    """``use tiny::ast::Parser`` and ``tiny::parse(..)`` in another repository's binary resolve through the
    library's ``Cargo.toml``; the library provides its crate's name, which the binary imports (partitions)."""
    assert "main.main" in ask(shard, "who calls Parser.parse")
    assert "main.main" in ask(shard, "who calls tiny.parse")
    assert "rust:tiny" in provided_names("tiny", FILES)
    imported = import_names(segments("tiny-app", APP))
    assert "rust:tiny" in imported and not {"rust:std", "rust:crate", "rust:self", "rust:super"} & imported


def test_the_graph_says_which_call_edges_it_made(tmp_path: Path) -> None:
    """The build holds call edges between Rust definitions (before, a Rust file gave containment only)."""
    from fourfold.plugins.graph.resolve import build_graph

    data = build_graph(segments())
    names = {i: rec.symbol for i, rec in enumerate(data.nodes)}
    calls = {(names[s], names[d]) for (s, d, kind) in data.edges if kind == CALL}
    assert ("parse", "new") in calls and ("visit", "len") in calls
    assert not any("definitions and containment only" in n and "rust" in n for n in data.notes)


def test_a_callee_question_goes_to_the_graph_through_the_engine(tmp_path: Path) -> None:
    """ "what does Parser.parse call" is routed to the graph (a sure rule: no training phrasing asked what a
    name calls) and answered by its callees alone: ``helper`` first, the ``Node`` it builds and the field ``text``
    it reads (both in ast.rs: each its own answer, not one a file), not ``String::len``."""
    from inprocess import search_once
    from test_text_against_ripgrep import write_tree

    from fourfold.api import SearchParams
    from fourfold.coordinator.engine import Engine
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    write_tree(tmp_path / "tiny", FILES)
    home = tmp_path / "home"
    build_generation(IndexStore(home), [(tmp_path / "tiny", "tiny")], modalities=["text", "structural", "graph"])
    a = search_once(Engine(IndexStore(home)), SearchParams("what does Parser.parse call", k=5))
    assert (a.intent, a.fusion_strategy) == ("find_references", "direct"), a.notes
    assert [f.hit.symbol for f in a.hits] == ["helper", "Node", "text"]


def test_a_callee_question_lists_the_functions_run_before_the_types_built(shard: GraphShard) -> None:
    """``Node { len: helper(..) }``: ``helper`` runs, ``Node`` is built; "what does Parser.parse call" lists the
    function first, the struct after it (a construction is a use, ranked with the names the body reads)."""
    hits = shard.search(ModalityQuery(text="what does Parser.parse call", k=10)).hits
    order = [f"{Path(h.path).stem}.{h.symbol}" for h in hits]
    assert order.index("util.helper") < order.index("ast.Node"), order
    assert hits[order.index("util.helper")].score > hits[order.index("ast.Node")].score
