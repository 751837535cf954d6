"""The graph modality over small committed fixtures: a Python package, a JavaScript and a Go pair."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

from fourfold.errors import InvalidQuery
from fourfold.index.ingest.segment import segment_file
from fourfold.plugins.graph import shard as shard_module
from fourfold.plugins.graph.centrality import pagerank
from fourfold.plugins.graph.parse import PY_MADE, Reference, parse_file
from fourfold.plugins.graph.plugin import GraphModality, compute_centrality
from fourfold.plugins.graph.query import GraphQuestion, parse_query
from fourfold.plugins.graph.resolve import CALL, GraphData, NodeRecord, build_graph
from fourfold.plugins.graph.shard import GraphShard
from fourfold.plugins.graph.store import save_graph
from fourfold.plugins.manager import build_registry
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import Hit, ModalityQuery, Segment, ShardResult

FIXTURES = Path(__file__).parent / "fixtures" / "graph"
LANGUAGES = {".py": "python", ".js": "javascript", ".go": "go", ".mod": "gomod"}


def segments_of(root: Path, repo: str) -> list[Segment]:
    out: list[Segment] = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in LANGUAGES:
            rel = path.relative_to(root).as_posix()
            out.extend(segment_file(repo, rel, LANGUAGES[path.suffix], path.read_bytes()).segments)
    return out


def all_segments() -> list[Segment]:
    return (
        segments_of(FIXTURES / "pyapp", "pyapp")
        + segments_of(FIXTURES / "js", "jsapp")
        + segments_of(FIXTURES / "go", "goapp")
    )


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> GraphShard:
    shard_dir = tmp_path_factory.mktemp("graph")
    modality = GraphModality()
    stats = modality.build(all_segments(), shard_dir, BuildContext(generation="g1", shard="all", repos=()))
    assert stats.segments > 0 and stats.bytes_on_disk > 0
    return modality.load(shard_dir)


def ask(shard: GraphShard, text: str, k: int = 20, **options: str) -> ShardResult:
    return shard.search(ModalityQuery(text=text, k=k, options=options))


def by_symbol(result: ShardResult) -> dict[str, Hit]:
    return {f"{h.path}:{h.symbol}": h for h in result.hits}


# --- Python ---------------------------------------------------------------------------------------


def test_callers_resolve_imports_aliases_and_module_attributes(shard: GraphShard) -> None:
    hits = by_symbol(ask(shard, "who calls fmt"))
    assert hits["shop/util.py:helper"].match_lines == (9,)
    assert hits["shop/core.py:step"].match_lines == (17,)  # util.fmt through ``from . import util``
    assert hits["shop/core.py:run"].match_lines == (9,)  # through ``from .util import fmt as format_value``
    assert hits["shop/cli.py:line"].match_lines == (16,)  # a nested function using ``u.fmt``


def test_references_include_import_lines_outside_definitions(shard: GraphShard) -> None:
    result = ask(shard, "usages of helper")
    lines = {(h.path, line) for h in result.hits for line in h.match_lines}
    assert {("shop/__init__.py", 3), ("shop/cli.py", 10), ("shop/core.py", 21)} <= lines
    init = [h for h in result.hits if h.path == "shop/__init__.py"]
    assert init and init[0].symbol is None  # the import window, not a definition


def test_references_put_a_use_before_the_import_that_enables_it(shard: GraphShard) -> None:
    """core.py imports fmt and calls it: its first hit is the calling function, not the import window; a
    file that only imports (``__init__.py``'s re-export of helper) follows every file that uses."""
    core = [h for h in ask(shard, "usages of fmt").hits if h.path == "shop/core.py"]
    assert core and core[0].symbol in ("run", "step") and any(h.symbol is None for h in core[1:])
    paths = [h.path for h in ask(shard, "usages of helper").hits]
    assert paths.index("shop/__init__.py") > max(paths.index("shop/cli.py"), paths.index("shop/core.py"))


def test_self_calls_resolve_to_class_bases_and_overrides(shard: GraphShard) -> None:
    run_callers = by_symbol(ask(shard, "who calls Base.run"))
    assert run_callers["shop/core.py:start"].match_lines == (20,)  # self.run() found on the base class
    step_callers = ask(shard, "who calls Engine.step")
    assert [(h.symbol, h.match_lines) for h in step_callers.hits] == [("run", (8,))]  # self.step() may dispatch
    base_step = ask(shard, "who calls Base.step").hits
    assert base_step[0].symbol == "run" and base_step[0].score > step_callers.hits[0].score


def test_callers_through_package_reexport_and_dotted_import(shard: GraphShard) -> None:
    hits = by_symbol(ask(shard, "callers of make_engine"))
    assert hits["shop/cli.py:main"].match_lines == (8, 11)  # ``build()`` alias and ``shop.core.make_engine()``
    engine = by_symbol(ask(shard, "references to Engine"))
    assert "shop/core.py:make_engine" in engine
    assert any(h.path == "shop/__init__.py" for h in engine.values())


def test_callees(shard: GraphShard) -> None:
    result = ask(shard, "what calls does cli.main make")
    names = {h.symbol for h in result.hits}
    assert {"make_engine", "start", "helper"} <= names
    assert all(h.match_lines == () and h.snippet.startswith("used at shop/cli.py:") for h in result.hits)


def test_impact_depth_and_distance_order(shard: GraphShard) -> None:
    direct = ask(shard, "impact of changing fmt", depth="1")
    assert {h.symbol for h in direct.hits} >= {"helper", "step", "run", "line"}
    assert "main" not in {h.symbol for h in direct.hits}
    deep = ask(shard, "what breaks if I change fmt", depth="3")
    distance = {h.symbol: int(h.snippet.split()[1].rstrip(":")) for h in deep.hits}
    assert distance["helper"] == 1 and distance["main"] == 2 and distance["report"] == 2
    order = [int(h.snippet.split()[1].rstrip(":")) for h in deep.hits]
    assert order == sorted(order)


PY_OWN_MEMBERS = b"""class Store:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)
        self.flush()

    def flush(self):
        return Store()


def fill(store: Store):
    store = Store()
    store.add(1)
"""


def test_impact_of_a_class_leaves_out_its_own_members(tmp_path: Path) -> None:
    """Changing ``Store`` breaks ``fill``, which builds one and calls its method, and ``flush``, which builds
    one by name; ``Store.add`` calling ``self.flush()`` is the class using itself (before, it was listed first,
    at distance 1). A member is still a dependent of another target it uses."""
    segments = segment_file("web", "store.py", "python", PY_OWN_MEMBERS).segments
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    shard = modality.load(tmp_path)
    assert {h.symbol for h in ask(shard, "what breaks if I change Store", depth="1").hits} == {"fill", "flush"}
    assert {h.symbol for h in ask(shard, "what breaks if I change flush", depth="1").hits} == {"add"}


def test_cycles_never_loop(shard: GraphShard) -> None:
    result = ask(shard, "blast radius of ping", depth="10")
    assert [h.symbol for h in result.hits] == ["pong"]
    assert {h.symbol for h in ask(shard, "who calls pong").hits} == {"ping"}


def test_path_between_symbols(shard: GraphShard) -> None:
    result = ask(shard, "path from main to fmt")
    assert [h.symbol for h in result.hits] == ["main", "helper", "fmt"]
    assert result.hits[0].match_lines == (10,)  # where main uses the next step
    assert ask(shard, "path from fmt to main").hits == ()


def test_missing_symbol_suggests_near_names(shard: GraphShard) -> None:
    result = ask(shard, "who calls make_engin")
    assert result.hits == ()
    assert any("make_engine" in note for note in result.notes)


def test_not_a_graph_question_is_said(shard: GraphShard) -> None:
    result = ask(shard, "how does the shop work")
    assert result.hits == () and "no graph question" in result.notes[0]


def test_centrality_on_hits_and_hub_ranks_higher() -> None:
    centrality = compute_centrality(all_segments())
    by_name: dict[str, float] = {}
    for seg in all_segments():
        if seg.symbol:
            by_name[f"{seg.repo}:{seg.qualified_name}"] = centrality[seg.id]
    assert by_name["pyapp:fmt"] > by_name["pyapp:make_engine"]
    assert by_name["pyapp:fmt"] > by_name["pyapp:main"]
    assert all(value >= 0 for value in centrality.values())


def test_hits_carry_centrality(shard: GraphShard) -> None:
    assert all(h.centrality > 0 for h in ask(shard, "who calls fmt").hits)


def test_filters_apply_to_hits(shard: GraphShard) -> None:
    assert ask(shard, "who calls fmt", **{}).hits
    result = shard.search(ModalityQuery(text="who calls fmt", k=20, path_glob="shop/core.py"))
    assert {h.path for h in result.hits} == {"shop/core.py"}
    assert shard.search(ModalityQuery(text="who calls fmt", repos=("jsapp",))).hits == ()


# --- JavaScript and Go ------------------------------------------------------------------------------


def test_javascript_require_destructuring_and_inheritance(shard: GraphShard) -> None:
    hits = by_symbol(ask(shard, "who calls normalize"))
    assert hits["lib.js:load"].match_lines == (8,)
    assert hits["app.js:load"].match_lines == (7,)  # ``normalize: clean`` destructured alias
    assert hits["app.js:main"].match_lines == (14,)  # ``lib.normalize``
    subclass = by_symbol(ask(shard, "references to Store"))
    assert subclass["app.js:CachedStore"].match_lines == (5,)
    assert "app.js:main" in by_symbol(ask(shard, "who calls Store.get"))  # ``store.get`` by member name


ESM_ERROR = b"""function AxiosError(message) {
  this.message = message;
}

function toJSON(err) {
  return {message: err.message};
}

export { toJSON as serialize };
export default AxiosError;
"""

ESM_CALLERS = b"""import AxiosError from './core/AxiosError.js';
import { serialize } from './core/AxiosError.js';
import dispatchRequest from './dispatch.js';

function request(config) {
  if (!config) {
    throw new AxiosError('config is required');
  }
  return dispatchRequest.call(this, config);
}

function report(err) {
  return serialize(err);
}
"""

ESM_DISPATCH = b"""export default function dispatchRequest(config) {
  return config;
}
"""


def test_javascript_default_exports_resolve_to_the_definition_they_name(tmp_path: Path) -> None:
    """``export default AxiosError`` (or ``export default function f``) and ``export { a as b }``: an
    importer's name resolves to the function, not to the file; ``f.call(...)`` calls ``f``."""
    segments = [
        *segment_file("esm", "lib/core/AxiosError.js", "javascript", ESM_ERROR).segments,
        *segment_file("esm", "lib/request.js", "javascript", ESM_CALLERS).segments,
        *segment_file("esm", "lib/dispatch.js", "javascript", ESM_DISPATCH).segments,
    ]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g1", shard="all", repos=()))
    esm = modality.load(tmp_path)
    assert by_symbol(ask(esm, "who uses AxiosError"))["lib/request.js:request"].match_lines == (7,)
    assert by_symbol(ask(esm, "who calls toJSON"))["lib/request.js:report"].match_lines == (13,)
    assert by_symbol(ask(esm, "who calls dispatchRequest"))["lib/request.js:request"].match_lines == (9,)
    facts = parse_file(ESM_ERROR, "javascript")
    exported = {(i.module, i.name, i.alias) for i in facts.imports}
    assert exported == {("", "AxiosError", "default"), ("", "toJSON", "serialize")}


def test_go_imports_by_module_path_and_receiver_methods(shard: GraphShard) -> None:
    hits = by_symbol(ask(shard, "who calls Format"))
    assert hits["util/util.go:Print"].match_lines == (13,)
    assert hits["main.go:run"].match_lines == (9,)
    callees = {h.symbol for h in ask(shard, "what does run call").hits}
    assert {"Printer", "Print", "Format"} <= callees


GO_TYPED = b"""package web

import (
	"io"
	"net/http"
)

type Buffer struct{}

func (b *Buffer) Write(p []byte) (int, error) { return len(p), nil }

type Router struct{}

func (rt *Router) Value(key string) string { return key }

func Serve(w http.ResponseWriter, r *http.Request, buf *Buffer, out io.Writer, err error) {
	w.Write(nil)
	out.Write(nil)
	_ = r.Context().Value("k")
	buf.Write(nil)
	_ = err.Error()
}

func Lookup(rt *Router) string {
	return rt.Value("x")
}
"""


def test_go_members_are_read_through_the_parameters_declared_types(tmp_path: Path) -> None:
    """``w.Write`` on an ``http.ResponseWriter`` parameter, ``r.Context().Value`` on an ``*http.Request``
    and ``err.Error`` on an ``error`` are no calls of this package's ``Buffer.Write``, ``Router.Value`` or
    anything else: the parameter's type says whose member it is (before, a member of unknown type went to
    every member of that name). ``buf.Write`` on a ``*Buffer`` is Buffer's, at full confidence."""
    facts = parse_file(GO_TYPED, "go")
    chains = {r.chain for r in facts.references if r.call}
    assert {("http", "ResponseWriter", "Write"), ("io", "Writer", "Write"), ("Buffer", "Write")} <= chains
    assert ("http", "Request", "?", "Value") in chains and ("Router", "Value") in chains
    assert not any(c[-1] == "Error" for c in chains)  # a predeclared type's method: nobody's here
    segments = segment_file("web", "web.go", "go", GO_TYPED).segments
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    shard = modality.load(tmp_path)
    writers = by_symbol(shard.search(ModalityQuery(text="who calls Buffer.Write", k=10)))
    assert set(writers) == {"web.go:Serve"} and writers["web.go:Serve"].match_lines == (20,)
    assert writers["web.go:Serve"].score >= 1.0  # resolved, not a guess among same-named members
    assert set(by_symbol(shard.search(ModalityQuery(text="who calls Router.Value", k=10)))) == {"web.go:Lookup"}


GO_KEYED = b"""package chi

type Mux struct {
	methodNotAllowedHandler func()
}

func methodNotAllowedHandler() {}

func (mx *Mux) With() *Mux {
	return &Mux{methodNotAllowedHandler: mx.methodNotAllowedHandler}
}

func (mx *Mux) Handler() func() {
	return methodNotAllowedHandler
}

func Counts(key string) map[string]int {
	return map[string]int{key: 1}
}
"""


def test_a_go_struct_literals_key_is_its_field_not_the_name_in_scope(tmp_path: Path) -> None:
    """chi's ``&Mux{methodNotAllowedHandler: mx.methodNotAllowedHandler}`` sets Mux's field: its key was read as
    a use of the package's function ``methodNotAllowedHandler``. A map literal's key is an expression."""
    facts = parse_file(GO_KEYED, "go")
    chains = {(r.line, r.chain) for r in facts.references}
    assert (10, ("Mux", "methodNotAllowedHandler")) in chains
    assert (10, ("methodNotAllowedHandler",)) not in chains
    assert (18, ("key",)) in chains
    graph = build_graph(segment_file("chi", "mux.go", "go", GO_KEYED).segments)
    nodes = graph.nodes
    function = next(i for i, n in enumerate(nodes) if n.symbol == "methodNotAllowedHandler" and n.kind == "function")
    field = next(i for i, n in enumerate(nodes) if n.symbol == "methodNotAllowedHandler" and n.kind == "field")
    users = {t: {nodes[src].symbol for src, dst, _ in graph.edges if dst == t} for t in (function, field)}
    assert users[function] == {"Handler"} and "With" in users[field]


def test_who_calls_a_name_of_a_function_and_a_field_asks_of_the_function(tmp_path: Path) -> None:
    """ "who calls methodNotAllowedHandler" in chi: reading Mux's field of that name calls nothing, so the answer is
    the function's users; "usages of" it is every use of either."""
    modality = GraphModality()
    segments = segment_file("chi", "mux.go", "go", GO_KEYED).segments
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("chi",)))
    shard = modality.load(tmp_path)
    assert set(by_symbol(shard.search(ModalityQuery(text="who calls methodNotAllowedHandler", k=10)))) == {
        "mux.go:Handler"
    }
    assert {"mux.go:Handler", "mux.go:With"} <= set(
        by_symbol(shard.search(ModalityQuery(text="usages of methodNotAllowedHandler", k=10)))
    )


TS_CALLEES = b"""export interface Options {
  delay: number
}

const run = (f: () => void) => f()

export function scheduler(opts: Options) {
  return opts.delay ? (f: () => void) => setTimeout(f, opts.delay) : run
}
"""


def test_a_callee_answer_puts_the_functions_it_uses_before_the_types_it_reads(tmp_path: Path) -> None:
    """mobx's ``createSchedulerFromOptions`` calls nothing and returns ``run``: among its callees of equal
    evidence the function comes before the interface and the field it reads (by path and line, they came first),
    and the score says so, so a merged answer keeps the order."""
    modality = GraphModality()
    segments = segment_file("mobx", "autorun.ts", "typescript", TS_CALLEES).segments
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("mobx",)))
    hits = modality.load(tmp_path).search(ModalityQuery(text="what does scheduler call", k=10)).hits
    assert hits[0].symbol == "run" and {"Options", "delay"} <= {h.symbol for h in hits}
    assert hits[0].score > max(h.score for h in hits[1:])


PY_SUPER = b"""class Base:
    def __init__(self, x):
        self.x = x


class Child(Base):
    def __init__(self, x):
        super().__init__(x)


class Token(tuple):
    def __new__(cls, *members):
        return super().__new__(cls, members)


class Err(Exception):
    def __init__(self):
        super().__init__("boom")


class Frame:
    def copy(self):
        return object.__new__(self.__class__)
"""


def test_super_calls_the_bases_member_and_a_builtins_member_is_nobodys(tmp_path: Path) -> None:
    """``super().__init__(x)`` in ``Child(Base)`` calls ``Base.__init__``; under ``Exception`` or ``tuple``
    (not indexed) it calls none of the repository's, and ``object.__new__`` is the built-in's. Before,
    each went to every indexed member of its name: "what breaks if I change Environment.from_string" in
    jinja2 listed every ``super().__new__`` and ``object.__new__`` caller as a dependent of ``Template.__new__``."""
    facts = parse_file(PY_SUPER, "python")
    assert ("super()", "__init__") in {r.chain for r in facts.references if r.call}
    segments = segment_file("web", "tok.py", "python", PY_SUPER).segments
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    shard = modality.load(tmp_path)
    callers = shard.search(ModalityQuery(text="who calls Base.__init__", k=10)).hits
    assert [(h.symbol, h.start_line, h.match_lines) for h in callers] == [("__init__", 7, (8,))]  # Child's
    assert callers[0].score >= 1.0  # resolved, not a guess among same-named members
    assert not shard.search(ModalityQuery(text="who calls Token.__new__", k=10)).hits
    assert not shard.search(ModalityQuery(text="who calls Err.__init__", k=10)).hits


PY_TYPED = b"""import typing as t


class Jar:
    def clear(self):
        return None

    def read(self):
        return ""


class Other:
    def clear(self):
        return None


class Path:
    def join(self, other):
        return other


class Cookies:
    def __init__(self, jar: Jar):
        self.jar = jar

    def reset(self):
        self.jar.clear()


def made():
    jar = Jar()
    jar.clear()


def declared(stream: t.IO[str]):
    return stream.read()


def joined(parts):
    return ", ".join(parts)


def untyped(thing):
    return thing.read()


def get_jar() -> "Jar":
    return Jar()


def returned():
    jar = get_jar()
    jar.clear()


class Shop:
    def jar(self) -> Jar:
        return Jar()


def chained():
    shop = Shop()
    jar = shop.jar()
    jar.clear()


class Box:
    @property
    def jar(self) -> Jar:
        return Jar()


def through_property(box: Box):
    box.jar.clear()
"""


def _python_shard(tmp_path: Path, source: bytes | dict[str, str]) -> GraphShard:
    """A graph of the repository ``web``: one file ``jar.py`` holding ``source``, or the files ``source`` maps."""
    files = source if isinstance(source, dict) else {"jar.py": source.decode()}
    segments = [s for path, text in files.items() for s in segment_file("web", path, "python", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    return modality.load(tmp_path)


def test_a_python_local_s_type_is_read_from_its_annotation_or_the_class_it_was_made_from(tmp_path: Path) -> None:
    """``jar = Jar()`` then ``jar.clear()``, ``self.jar = jar`` with ``jar: Jar`` then ``self.jar.clear()``, and
    ``jar = get_jar()`` with ``get_jar() -> "Jar"`` (or ``jar = shop.jar()``, ``shop = Shop()``, ``Shop.jar -> Jar``;
    or ``box.jar`` with ``box: Box`` and a property ``Box.jar -> Jar``) call ``Jar.clear`` at full confidence and not
    ``Other.clear``;
    ``stream: t.IO`` makes ``stream.read()`` the typing module's, none of the project's. Before, each was every
    indexed member of its name at a share (httpx's ``cookies.clear()`` in a test was as much ``Headers.clear``'s
    caller as ``Cookies.clear``'s)."""
    from fourfold.plugins.graph.parse import PY_DECLARED

    chains = {r.chain for r in parse_file(PY_TYPED, "python").references}
    assert ("Jar", PY_MADE, "clear") in chains and ("t", "IO", PY_DECLARED, "read") in chains
    assert ("Jar", PY_DECLARED, "clear") in chains  # ``self.jar.clear()``: the field holds the parameter
    shard = _python_shard(tmp_path, PY_TYPED)
    callers = shard.search(ModalityQuery(text="who calls Jar.clear", k=10)).hits
    assert {h.symbol for h in callers} == {"made", "reset", "returned", "chained", "through_property"}
    assert all(h.score >= 1.0 for h in callers)
    assert not shard.search(ModalityQuery(text="who calls Other.clear", k=10)).hits


def test_a_python_built_in_s_member_on_a_literal_is_nobodys_and_on_an_untyped_value_half_sure(tmp_path: Path) -> None:
    """``", ".join(parts)`` is ``str.join``, never the project's ``Path.join``; ``thing.read()`` on a parameter of
    unwritten type may be the project's one ``read`` or a file's, so it is a caller at half weight, after every
    caller whose receiver's type is read. Before, click's ``_is_binary_reader`` (``stream.read(0)``) was the first
    dependent of ``EchoingStdin``, at full confidence."""
    from fourfold.plugins.graph.parse import UNKNOWN

    chains = {r.chain for r in parse_file(PY_TYPED, "python").references}
    assert ("str", "join") in chains and (UNKNOWN, "join") not in chains
    shard = _python_shard(tmp_path, PY_TYPED)
    assert not shard.search(ModalityQuery(text="who calls Path.join", k=10)).hits
    readers = shard.search(ModalityQuery(text="who calls Jar.read", k=10)).hits
    assert [h.symbol for h in readers] == ["untyped"] and 0.4 < readers[0].score < 0.6


def test_impact_of_a_class_lists_its_direct_users_before_the_users_of_its_members(tmp_path: Path) -> None:
    """Both break when the class changes: the code that builds or names ``Jar`` whatever part changes, the code
    calling ``Jar.clear`` when that does; at one distance the first come first (``shard.MEMBER_FACTOR``)."""
    from fourfold.plugins.graph.shard import MEMBER_FACTOR, impact_evidence

    hits = _python_shard(tmp_path, PY_TYPED).search(ModalityQuery(text="what breaks if I change Jar", k=10)).hits
    evidence = {h.symbol: impact_evidence(h) for h in hits}
    assert evidence["made"] == (1, pytest.approx(1.0, abs=1e-3)) and evidence["__init__"] == evidence["made"]
    assert evidence["reset"] == (1, pytest.approx(MEMBER_FACTOR, abs=1e-3))
    order = [h.symbol for h in hits]
    assert order.index("reset") > max(order.index("made"), order.index("__init__"))


PY_NESTED_DECORATOR = b"""def pass_obj(f):
    return f


def test_sub():
    @pass_obj
    def cmd(obj):
        return obj

    return cmd


@pass_obj
def top(obj):
    return obj
"""


def test_a_decorator_on_a_nested_function_is_used_by_the_function_that_defines_it(tmp_path: Path) -> None:
    """``@pass_obj`` above ``def cmd`` inside ``test_sub`` runs when ``test_sub`` does: the use is ``test_sub``'s (as
    jedi counts it); above a module's function it stays that function's. Before, "what depends on pass_obj" in click
    named the nested commands, never the tests that define them."""
    callers = _python_shard(tmp_path, PY_NESTED_DECORATOR).search(ModalityQuery(text="who calls pass_obj", k=10)).hits
    assert sorted((h.symbol, h.match_lines) for h in callers) == [("test_sub", (6,)), ("top", (13,))]


PY_OVERLOADS = b"""import typing as t


@t.overload
def get(name: str) -> str: ...


@t.overload
def get(name: int) -> int: ...


def get(name):
    return name


def use():
    return get("a")
"""


def test_a_call_runs_the_implementation_not_its_overload_declarations(tmp_path: Path) -> None:
    """``@overload`` definitions declare the signatures of the implementation after them: "what does use call" is
    that implementation (before: the first declaration first, click's ``get_current_context`` at lines 11-13 where
    jedi and the interpreter go to 21-42), and "who calls get" still finds ``use``."""
    shard = _python_shard(tmp_path, PY_OVERLOADS)
    callees = shard.search(ModalityQuery(text="what does use call", k=10)).hits
    assert [(h.symbol, h.start_line) for h in callees] == [("get", 12)]
    callers = shard.search(ModalityQuery(text="who calls get", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in callers] == [("use", (17,))]


def test_impact_lists_an_example_s_use_after_the_code_and_tests_that_ship(tmp_path: Path) -> None:
    """An example demonstrates the code it uses (Go's ``_examples/`` is not even built by the go tool): at one
    distance it comes after the shipped code and the tests. Before, chi's ``_examples/`` mains were the first
    dependents of ``RequestID`` and ``RealIP``, ahead of the middleware using them."""
    from fourfold.plugins.graph.shard import AUXILIARY_FACTOR, impact_evidence
    from fourfold.plugins.paths import is_example

    assert is_example("_examples/logging/main.go") and is_example("docs/Examples/demo.py")
    assert not is_example("src/example_utils.py") and not is_example("lib/examplesuite/run.js")
    files = {
        "lib/core.py": "def target():\n    return 1\n",
        "examples/demo.py": "from lib.core import target\n\n\ndef demo():\n    return target() + target()\n",
        "lib/use.py": "from lib.core import target\n\n\ndef user():\n    return target()\n",
        "tests/test_core.py": "from lib.core import target\n\n\ndef test_target():\n    assert target() == 1\n",
    }
    hits = _python_shard(tmp_path, files).search(ModalityQuery(text="what breaks if I change target", k=10)).hits
    shown = [h.symbol for h in hits if h.symbol]
    assert shown.index("demo") > max(shown.index("user"), shown.index("test_target"))
    demo = next(h for h in hits if h.symbol == "demo")
    assert impact_evidence(demo) == (1, pytest.approx(AUXILIARY_FACTOR, abs=1e-3))


# --- bounds, concurrency, contract ---------------------------------------------------------------------


def test_hub_with_many_callers_is_truncated_and_says_so(tmp_path: Path) -> None:
    callers = "".join(f"def caller_{i}():\n    return hub()\n\n\n" for i in range(300))
    source = f"def hub():\n    return 1\n\n\n{callers}".encode()
    segments = segment_file("big", "big.py", "python", source).segments
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("big",)))
    shard = modality.load(tmp_path)
    result = shard.search(ModalityQuery(text="who calls hub", k=10))
    assert len(result.hits) == 10 and result.total_matches == 300
    assert any("truncated" in note for note in result.notes)


def test_a_file_s_first_caller_names_every_call_site_of_the_file(tmp_path: Path) -> None:
    """An answer shows one segment a file, with the lines of the file's other hits: its first caller also
    carries the lines of the file's callers past k (before, 290 callers past the tenth were named nowhere)."""
    callers = "".join(f"def caller_{i}():\n    return hub()\n\n\n" for i in range(300))
    source = f"def hub():\n    return 1\n\n\n{callers}".encode()
    modality = GraphModality()
    segments = segment_file("big", "big.py", "python", source).segments
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("big",)))
    hits = modality.load(tmp_path).search(ModalityQuery(text="who calls hub", k=10)).hits
    assert hits[0].match_lines == (6, *(6 + 4 * i for i in range(10, 300)))
    assert all(len(h.match_lines) == 1 for h in hits[1:])  # the file's others in the answer name their own line


def test_hub_with_50k_callers_answers_within_its_deadline(tmp_path: Path) -> None:
    """A synthetic graph (no parsing): 50k callers over 500 files of 7 repositories, chained so impact runs deep."""
    nodes = [NodeRecord("hub", "lib", "lib/core.py", "python", 1, 3, "hub", "function", "hub", -1)]
    edges: dict[tuple[int, int, int], tuple[float, set[int]]] = {}
    for i in range(50_000):
        line = (i % 100) * 4 + 1
        nodes.append(
            NodeRecord(
                f"c{i}",
                f"repo{i % 7}",
                f"pkg/m{i // 100}.py",
                "python",
                line,
                line + 2,
                f"caller_{i}",
                "function",
                f"caller_{i}",
                -1,
            )
        )
        edges[(i + 1, 0, CALL)] = (1.0, {line + 1})
        if i:
            edges[(i + 1, i, CALL)] = (1.0, {line + 1})
    save_graph(GraphData(nodes, edges), tmp_path)
    shard = GraphShard.open(tmp_path)
    for text, total in (("who calls hub", 50_000), ("impact of changing hub", shard_module.MAX_IMPACT_NODES)):
        started = time.perf_counter()
        result = shard.search(ModalityQuery(text=text, k=20))
        elapsed = time.perf_counter() - started
        assert elapsed < 2.0, f"{text!r} took {elapsed:.2f}s; the coordinator's default deadline is 5s"
        assert len(result.hits) == 20 and result.total_matches == total
        assert any("truncated" in note for note in result.notes)
    callers = shard.search(ModalityQuery(text="who calls hub", k=20, repos=("repo3",)))
    assert callers.total_matches == len(range(3, 50_000, 7)) and {h.repo for h in callers.hits} == {"repo3"}


def test_impact_bound_is_reported(shard: GraphShard, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shard_module, "MAX_IMPACT_NODES", 2)
    result = ask(shard, "impact of changing fmt")
    assert len(result.hits) == 2 and any("truncated" in note for note in result.notes)


def test_concurrent_searches_agree(shard: GraphShard) -> None:
    expected = ask(shard, "impact of changing fmt")
    results: list[ShardResult] = []

    def work() -> None:
        for _ in range(20):
            results.append(ask(shard, "impact of changing fmt"))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 80 and all(r == expected for r in results)


def test_bad_options_raise_invalid_query(shard: GraphShard) -> None:
    with pytest.raises(InvalidQuery, match="depth"):
        ask(shard, "impact of changing fmt", depth="deep")
    with pytest.raises(InvalidQuery, match="relation"):
        ask(shard, "fmt", relation="friends")


def test_relation_option_forces_the_relation(shard: GraphShard) -> None:
    forced = ask(shard, "fmt", relation="callers")
    assert {h.symbol for h in forced.hits} >= {"helper", "step"}


@pytest.mark.parametrize(
    ("text", "intent", "expected"),
    [
        ("who calls retry_request", "find_references", GraphQuestion("callers", "retry_request")),
        ("where is Session.send used?", "understand_code", GraphQuestion("references", "Session.send")),
        ("what breaks if I change `Client::send`", "understand_code", GraphQuestion("impact", "Client.send")),
        ("blast radius of parse()", "impact_analysis", GraphQuestion("impact", "parse")),
        ("what depends on click.core.Context", "impact_analysis", GraphQuestion("impact", "click.core.Context")),
        ("callees of main", "understand_code", GraphQuestion("callees", "main")),
        ("what does ~VersionSet call", "find_references", GraphQuestion("callees", "~VersionSet")),  # a destructor
        ("who calls Mutex::~Mutex", "find_references", GraphQuestion("callers", "Mutex.~Mutex")),
        ("dependency path between cli and Engine.step", "understand_code", GraphQuestion("path", "cli", "Engine.step")),
        ("parseConfig", "find_references", GraphQuestion("references", "parseConfig")),
        ("how does authentication work", "understand_code", None),
        # the phrase caught a word of prose; the question names its code elsewhere
        (
            "is it safe to make get_current_context async or do callers of callers need changing too",
            "impact_analysis",
            GraphQuestion("callers", "get_current_context"),
        ),
        ("who uses session", "find_references", GraphQuestion("references", "session")),
        ("who calls echo in click/termui.py or utils.py", "find_references", GraphQuestion("callers", "echo")),
        ("who calls `send` besides Session.close", "find_references", GraphQuestion("callers", "send")),
        # routed to impact or references, the code named in prose: its first code-shaped token
        (
            "PR: segment_file only logs a binary file now; we want a hard error. which jobs would start failing?",
            "impact_analysis",
            GraphQuestion("impact", "segment_file"),
        ),
        (
            "everything that hands a Booking to confirm_seat",
            "find_references",
            GraphQuestion("references", "confirm_seat"),
        ),
        ("segment_file in plain words please", "understand_code", None),
        ("which jobs would start failing", "impact_analysis", None),
        # Go's method expressions and stack frames name the receiver's type
        (
            "who calls (*Engine).handleHTTPRequest",
            "find_references",
            GraphQuestion("callers", "Engine.handleHTTPRequest"),
        ),
        ("what breaks if I change (Engine).Run", "impact_analysis", GraphQuestion("impact", "Engine.Run")),
        (
            "github.com/spf13/cobra.(*Command).ExecuteC(0xc000)",
            "find_references",
            GraphQuestion("references", "cobra.Command.ExecuteC"),
        ),
    ],
)
def test_parse_query(text: str, intent: str, expected: GraphQuestion | None) -> None:
    assert parse_query(text, intent, {}) == expected


def test_pagerank_matches_networkx() -> None:
    g = nx.gnp_random_graph(60, 0.08, directed=True, seed=5)
    edges = np.array(list(g.edges), dtype=np.int64)
    weights = np.array([1.0 + (u * 3 + v) % 4 for u, v in g.edges])
    for (u, v), w in zip(g.edges, weights, strict=True):
        g[u][v]["weight"] = w
    ours = pagerank(60, edges[:, 0], edges[:, 1], weights)
    theirs = _pagerank_python(g, weight="weight")  # networkx's own, scipy-free implementation
    assert np.allclose(ours, [theirs[i] for i in range(60)], atol=1e-9)


def test_registered_through_the_plugin_manager() -> None:
    registry = build_registry()
    assert registry.modality("graph").sharding == "partitioned"
    segments = all_segments()
    centrality = registry.pm.hook.fourfold_compute_centrality(segments=segments, settings={})
    assert set(centrality) == {s.id for s in segments}


def test_centrality_pass_graph_is_reused_by_the_shard_build(tmp_path: Path) -> None:
    segments = all_segments()
    values = compute_centrality(segments)
    stats = GraphModality().build(
        list(reversed(segments)), tmp_path, BuildContext(generation="g", shard="all", repos=())
    )
    assert any("graph reused" in note for note in stats.notes)
    loaded = GraphModality().load(tmp_path).graph
    stored = {loaded.ids[i]: float(loaded.centrality[i]) for i in range(loaded.size) if not loaded.is_module(i)}
    assert stored == pytest.approx(values, rel=1e-6)
    again = GraphModality().build(segments, tmp_path / "again", BuildContext(generation="g", shard="all", repos=()))
    assert not any("reused" in note for note in again.notes)  # taken once: the next build parses again


def test_python_reader_scopes_decorators_annotations_and_skips() -> None:
    source = b"""import os.path as p
from .core import Engine, helper as h

@h.register(Engine)
def run(cfg: "Engine", n=helper):
    global counter
    total = Engine(cfg)
    for item in total.items():
        p.join(item)
    def inner():
        return n
    class Local:
        shadow = 1
    fn = lambda v: (w := v) or w
    return inner(), Local, shadow, fn
"""
    facts = parse_file(source, "python")
    refs = set(facts.references)
    assert Reference(4, ("h", "register"), True, False, True) in refs  # a decorator runs outside the function
    assert Reference(5, ("Engine",), False, False, False) in refs  # the quoted annotation names a type
    assert Reference(7, ("Engine",), True) in refs and Reference(7, ("cfg",), False, True) in refs
    # a local's attribute: not a global's, but a member of the class the local was made from
    assert Reference(8, ("Engine", PY_MADE, "items"), True, False) in refs
    assert Reference(11, ("n",), False, False) in refs  # a closure variable is not inner's own local
    assert Reference(14, ("w",), False, True) in refs  # the walrus binds inside the lambda
    assert Reference(15, ("inner",), True, True) in refs and Reference(15, ("Local",), False, True) in refs
    assert Reference(15, ("shadow",), False, False) in refs  # bound in the class body, not in run
    assert not any(r.line in (1, 2, 6) for r in refs)  # imports and ``global`` name nothing they use
    assert [(i.module, i.name, i.alias) for i in facts.imports] == [
        ("os.path", None, "p"),
        (".core", "Engine", "Engine"),
        (".core", "helper", "h"),
    ]


def test_a_shard_is_stored_compressed_and_one_stored_plain_still_reads(shard: GraphShard, tmp_path: Path) -> None:
    import json

    import zstandard

    from fourfold.plugins.graph.store import NODES_FILE

    built = GraphModality().build(
        all_segments(), tmp_path / "new", BuildContext(generation="g1", shard="all", repos=())
    )
    assert built.segments > 0
    new = tmp_path / "new"
    assert (new / NODES_FILE).is_file() and not (new / "nodes.json").exists()
    with np.load(new / "edges.npz") as arrays:
        edges = {name: arrays[name] for name in arrays.files}
    # the same shard as it was stored before: plain JSON and an uncompressed npz
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "nodes.json").write_bytes(zstandard.ZstdDecompressor().decompress((new / NODES_FILE).read_bytes()))
    json.loads((plain / "nodes.json").read_text())
    with (plain / "edges.npz").open("wb") as fh:
        np.savez(fh, **edges)
    a, b = GraphShard.open(new), GraphShard.open(plain)
    for text in ("who calls fmt", "what does run call", "references to fmt", "impact of changing fmt"):
        q = ModalityQuery(text=text, k=20)
        assert a.search(q) == b.search(q) == shard.search(q) and a.search(q).hits, text


def test_an_answer_keeps_the_graphs_order_among_equal_evidence(tmp_path: Path) -> None:
    """Every direct caller is equal evidence (1.0); the graph orders them by centrality and puts each
    file's first caller before a file's second. The engine merges the shards' lists by score and
    cuts to ``k``: the graph's order must survive that merge, or the answer is the callers whose
    paths sort first (``a_util.py``'s three, then ``m_mid.py``'s), the most used one last."""
    from test_compound_shards import search_store

    from fourfold.api import SearchParams
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore
    from fourfold.plugins.graph.shard import ORDER_STEP

    repo = tmp_path / "app"
    (repo / "app").mkdir(parents=True)
    files = {
        "app/__init__.py": "",
        "app/target.py": "def target():\n    return 1\n",
        "app/a_util.py": "from app.target import target\n\n\n"
        + "\n\n".join(f"def a{i}():\n    return target()\n" for i in range(1, 4)),
        "app/z_core.py": "from app.target import target\n\n\ndef hub():\n    return target()\n",
        "app/m_mid.py": "from app.target import target\n\n\ndef mid():\n    return target()\n",
    }
    for i in range(1, 6):  # hub is called from five places: the most central caller
        files[f"app/b{i}.py"] = f"from app.z_core import hub\n\n\ndef use{i}():\n    return hub()\n"
    for rel, text in files.items():
        (repo / rel).write_text(text)
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(repo, "app")], modalities=["text", "structural", "graph"])

    callers = search_store(store, SearchParams("who calls target", k=3))
    assert callers.fusion_strategy == "direct"
    assert [(h.hit.path, h.hit.symbol) for h in callers.hits] == [
        ("app/z_core.py", "hub"),  # the most central caller first
        ("app/a_util.py", "a1"),  # then each file's first, by path among equal centrality
        ("app/m_mid.py", "mid"),
    ]
    # the order is in the score, below any difference of evidence: all read as 1.0 evidence
    assert all(1.0 <= h.hit.score < 1.0 + 15 * ORDER_STEP for h in callers.hits)
    # impact: the dependents at one distance and confidence, ordered by centrality and then, over the
    # merged list, each file's first before any file's second (not a_util.py's a1 and a2 after hub); a
    # file's first is a function that uses target, not the file's import of it (which ties with them)
    impact = search_store(store, SearchParams("what breaks if I change target", k=3))
    assert impact.intent == "impact_analysis"
    assert [(h.hit.path, h.hit.symbol) for h in impact.hits] == [
        ("app/z_core.py", "hub"),
        ("app/a_util.py", "a1"),
        ("app/m_mid.py", "mid"),
    ]


def test_the_shipped_code_uses_a_name_before_its_tests_of_equal_evidence(tmp_path: Path) -> None:
    """A test's helper called by five tests is the most central caller of ``target``; the shipped function that
    calls it is no less a caller. Among equal evidence the graph lists the shipped code's uses first, for
    references and for impact, unless the question asks for the tests or ``code_first`` is off; a file's
    module-level call comes after the functions that call it, as an impact answer's module code does."""
    from test_compound_shards import search_store

    from fourfold.api import SearchParams
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    repo = tmp_path / "app"
    files = {
        "app/__init__.py": "",
        "app/target.py": "def target():\n    return 1\n",
        "app/service.py": "from app.target import target\n\n\ndef serve():\n    return target()\n",
        "tests/helpers.py": "from app.target import target\n\n\ndef make():\n    return target()\n",
        "app/boot.py": "from app.target import target\n\ntarget()\n",  # module-level code
    }
    for i in range(1, 6):  # the helper is called by five tests: the most central caller
        files[f"tests/test_t{i}.py"] = f"from tests.helpers import make\n\n\ndef test_{i}():\n    assert make()\n"
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(repo, "app")], modalities=["text", "structural", "graph"])

    def first_two(text: str, preset: str = "default", **options: str) -> list[str]:
        a = search_store(store, SearchParams(text, k=5, preset=preset, options=options))
        assert a.fusion_strategy == ("fused" if preset == "thorough" else "direct")
        return [h.hit.path for h in a.hits[:2]]

    shipped, helper = "app/service.py", "tests/helpers.py"
    assert first_two("who calls target") == [shipped, helper]
    a = search_store(store, SearchParams("who calls target", k=5))
    assert [(h.hit.path, h.hit.symbol) for h in a.hits[:3]] == [
        (shipped, "serve"),
        (helper, "make"),
        ("app/boot.py", None),
    ]
    assert first_two("who calls target", code_first="off") == [helper, shipped]  # the order by centrality alone
    assert first_two("who calls target in the tests") == [helper, shipped]  # asked for: no preference
    assert first_two("what breaks if I change target") == [shipped, helper]
    # fused with text, which counts the helper's words: the graph's order between them stands
    assert first_two("who calls target", preset="thorough") == [shipped, helper]
    assert first_two("what breaks if I change target", preset="thorough") == [shipped, helper]
    assert first_two("what breaks if I change target", code_first="off") == [helper, shipped]


def test_an_impact_hits_distance_and_confidence_read_back_from_its_score() -> None:
    """The merged impact answer is ordered from what its scores say (``spread_dependents``): every
    distance and confidence a walk gives, at any centrality, reads back as it was scored."""
    from fourfold.plugins.graph.shard import ORDER_STEP, impact_evidence, impact_score

    for distance in range(1, 11):
        for confidence in (1.0, 0.95, 0.9, 0.81, 0.5, 0.3, 0.09, 0.01, 1e-3):
            for centrality in (0.0, 0.02, 1.0, 13.1, 5000.0):
                score = impact_score(distance, confidence) + ORDER_STEP * centrality / (1.0 + centrality)
                hit = Hit("s", "r", "p.py", 1, 2, round(score, 6), centrality=centrality)
                read_distance, read_confidence = impact_evidence(hit)
                assert read_distance == distance, (distance, confidence, centrality)
                assert abs(read_confidence - confidence) < 1e-4, (distance, confidence, centrality)


def test_the_merged_impact_answer_spreads_over_files_and_other_answers_keep_their_order() -> None:
    """Within a distance and a confidence tier each file's first dependent comes before any file's
    second; a higher tier still comes first; callers' answers (ordered by their own scores) are not moved."""
    from fourfold.plugins.graph.shard import impact_score, spread_dependents

    def at(path: str, distance: int, confidence: float, name: str) -> Hit:
        symbol = None if name.endswith("import") else name
        return Hit(name, "r", path, 1, 2, round(impact_score(distance, confidence), 6), symbol=symbol)

    merged = [
        at("a.py", 1, 1.0, "a-import"),  # the file's module code: its first only where no definition ties
        at("a.py", 1, 1.0, "a1"),
        at("a.py", 1, 1.0, "a2"),
        at("a.py", 1, 1.0, "a3"),
        at("b.py", 1, 1.0, "b1"),
        at("c.py", 1, 0.5, "c1"),  # a lower tier: after every 1.0 dependent, a second of a.py's too
        at("d.py", 2, 1.0, "d1"),
        at("a.py", 2, 1.0, "a4"),
        at("e.py", 2, 1.0, "e1"),
    ]
    impact = ModalityQuery("what breaks if I change target", k=8, intent="impact_analysis")
    spread = [h.segment_id for h in spread_dependents(merged, impact)]
    assert spread == ["a1", "b1", "a2", "a3", "a-import", "c1", "d1", "e1", "a4"]
    lone = [at("f.py", 1, 1.0, "f-import"), at("f.py", 1, 0.5, "f1"), at("g.py", 1, 0.5, "g1")]
    assert [h.segment_id for h in spread_dependents(lone, impact)] == ["f-import", "g1", "f1"]  # f1: a lower tier
    # an interface or a type alias naming the type ranks after the code of its tier; a one-line field typed with
    # the name after that, before module code, and so does a constant of many lines (a table naming it); a
    # function-valued variable (more than one line) is a definition with a body
    score = round(impact_score(1, 1.0), 6)
    declared = [
        Hit("barrel", "r", "index.ts", 1, 9, score),
        Hit("alias", "r", "types.ts", 40, 40, score, symbol="HubMessage", kind="type"),
        Hit("shape", "r", "types.ts", 3, 8, score, symbol="SchedulerLike", kind="interface"),
        Hit("field", "r", "conn.ts", 12, 12, score, symbol="_queue", kind="field"),
        Hit("arrow", "r", "conn.ts", 30, 41, score, symbol="flush", kind="variable"),
        Hit("method", "r", "send.ts", 5, 20, score, symbol="send", kind="method"),
        Hit("annotated", "r", "Nop.java", 33, 34, score, symbol="NOP", kind="constant"),  # an annotation above
        Hit("nop", "r", "Nop.java", 43, 45, score, symbol="nop", kind="method"),
        Hit("table", "r", "maps.py", 92, 107, score, symbol="EXC_MAP", kind="constant"),
    ]
    assert [h.segment_id for h in spread_dependents(declared, impact)] == [
        "arrow", "method", "nop", "alias", "table", "barrel", "shape", "field", "annotated",
    ]  # fmt: skip
    callers = ModalityQuery("who calls target", k=8, intent="find_references")
    assert spread_dependents(merged, callers) == merged


def test_a_barrel_file_re_exporting_modules_that_import_it_resolves_each_name_once() -> None:
    """``internal.ts`` re-exports every module (``export * from './m3'``) and each module imports its
    neighbours' functions from it, as mobx does: a name reached by many paths is one target. Before, each
    star search appended every path's copy, the lists multiplied layer by layer, and indexing mobx grew past
    16 GB of memory without finishing."""
    from fourfold.plugins.graph.resolve import _Builder

    count = 8
    files = {"src/internal.ts": "".join(f"export * from './m{i}';\n" for i in range(count))}
    for i in range(count):
        names = ", ".join(f"f{j}" for j in range(count) if j != i)
        files[f"src/m{i}.ts"] = f"import {{ {names} }} from './internal';\nexport function f{i}() {{\n  return 1;\n}}\n"
    segments = [
        s for path, text in files.items() for s in segment_file("web", path, "typescript", text.encode()).segments
    ]
    builder = _Builder(segments)
    barrel = builder.files[("web", "src/internal.ts")].node
    found = builder._module_member(barrel, "f0", 0)
    assert [(builder.nodes[n].path, builder.nodes[n].symbol) for n, _ in found] == [("src/m0.ts", "f0")]
    builder.build()  # and the whole graph builds
