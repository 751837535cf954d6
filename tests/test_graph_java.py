"""The graph reads Java: packages, imports (single-type, static, on demand), declared types of receivers,
inheritance, ``super`` and the classes a call names, against real tree-sitter and the real graph build."""

from __future__ import annotations

from pathlib import Path

import pytest

from fourfold.index.ingest.segment import segment_file
from fourfold.plugins.graph.links import import_names, provided_names
from fourfold.plugins.graph.parse import parse_file
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.resolve import build_graph
from fourfold.plugins.graph.shard import GraphShard
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import Hit, ModalityQuery, Segment

MAIN = "src/main/java/com/acme"
FILES = {
    f"{MAIN}/core/Engine.java": """package com.acme.core;

public class Engine implements Api {
    private int size;

    public void start() {
        warm();
    }

    protected void warm() {
    }

    public int size() {
        return size;
    }
}
""",
    f"{MAIN}/core/Api.java": """package com.acme.core;

public interface Api {
    void start();
}
""",
    f"{MAIN}/core/Fast.java": """package com.acme.core;

public class Fast extends Engine {
    @Override
    public void start() {
        super.start();
        warm();
    }
}
""",
    f"{MAIN}/core/Helpers.java": """package com.acme.core;

public final class Helpers {
    public static void check(Object value) {
    }

    public static class Nested {
        public void start() {
        }
    }
}
""",
    f"{MAIN}/core/Threads.java": """package com.acme.core;

public final class Threads {
    public static int find(String name) {
        return find(name, 0);
    }

    public static int find(String name, int from) {
        return from;
    }
}
""",
    f"{MAIN}/app/Lookup.java": """package com.acme.app;

import com.acme.core.Threads;

class Lookup {
    int first(String name) {
        return Threads.find(name, 1);
    }
}
""",
    f"{MAIN}/app/Runner.java": """package com.acme.app;

import com.acme.core.Engine;
import com.acme.core.Helpers.Nested;
import static com.acme.core.Helpers.check;
import java.util.List;

public class Runner {
    private final Engine engine = new Engine();

    public void run(List<String> names, String label) {
        Engine local = engine;
        local.start();
        check(local);
        names.size();
        label.length();
        this.engine.size();
        new Nested().start();
        com.acme.core.Helpers.check(label);
        java.util.Objects.requireNonNull(label);
    }
}
""",
    f"{MAIN}/app/Starter.java": """package com.acme.app;

import com.acme.core.*;

class Starter {
    void go(Api api) {
        api.start();
        new Runner().run(null, "x");
    }
}
""",
    "src/test/java/com/acme/app/RunnerTest.java": """package com.acme.app;

class RunnerTest {
    void testRun() {
        Runner runner = new Runner();
        runner.run(null, "y");
    }
}
""",
}


def segments(repo: str = "acme") -> list[Segment]:
    out: list[Segment] = []
    for path, text in sorted(FILES.items()):
        out.extend(segment_file(repo, path, "java", text.encode()).segments)
    return out


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> GraphShard:
    shard_dir = tmp_path_factory.mktemp("graph_java")
    modality = GraphModality()
    modality.build(segments(), shard_dir, BuildContext(generation="g", shard="all", repos=("acme",)))
    return modality.load(shard_dir)


def ask(shard: GraphShard, text: str) -> dict[str, Hit]:
    return {f"{Path(h.path).stem}.{h.symbol}": h for h in shard.search(ModalityQuery(text=text, k=20)).hits}


def test_facts_read_imports_package_bases_and_declared_types() -> None:
    facts = parse_file(FILES[f"{MAIN}/app/Runner.java"].encode(), "java")
    assert facts.package == "com.acme.app"
    assert {(i.module, i.name, i.alias) for i in facts.imports} == {
        ("com.acme.core", "Engine", "Engine"),
        ("com.acme.core.Helpers", "Nested", "Nested"),
        ("com.acme.core.Helpers", "check", "check"),
        ("java.util", "List", "List"),
    }
    calls = {r.chain for r in facts.references if r.call}
    # a local and a field are read through their declared types; a literal's and a parameter's too
    assert {("Engine", "start"), ("Engine", "size"), ("List", "size"), ("String", "length")} <= calls
    assert ("check",) in calls and ("Nested",) in calls  # a static import's call; ``new Nested()``
    fast = parse_file(FILES[f"{MAIN}/core/Fast.java"].encode(), "java")
    assert [b.chain for b in fast.bases] == [("Engine",)]
    assert ("super()", "start") in {r.chain for r in fast.references}


def test_a_typed_receiver_calls_that_type_s_method_and_no_other(shard: GraphShard) -> None:
    """``local.start()`` on an ``Engine`` is Engine's ``start``, resolved through the import; the
    nested class's ``start`` is called only by ``new Nested().start()``; ``names.size()`` on a
    ``java.util.List`` calls nothing indexed, so Engine's ``size`` has one caller (``this.engine.size()``)."""
    callers = ask(shard, "who calls Engine.start")
    assert "Runner.run" in callers and callers["Runner.run"].match_lines == (13,)
    assert callers["Runner.run"].score >= 1.0  # resolved, not a guess among same-named methods
    assert "Fast.start" in callers  # super.start()
    assert set(ask(shard, "who calls Nested.start")) == {"Runner.run"}
    sizes = ask(shard, "who calls Engine.size")
    assert set(sizes) == {"Runner.run"} and sizes["Runner.run"].match_lines == (17,)


def test_unqualified_calls_static_imports_and_qualified_names(shard: GraphShard) -> None:
    """``warm()`` inside Engine and inside its subclass Fast is Engine's; ``check(local)`` through a static
    import and ``com.acme.core.Helpers.check(label)`` spelled out both call Helpers.check."""
    assert set(ask(shard, "who calls warm")) == {"Engine.start", "Fast.start"}
    checks = ask(shard, "who calls Helpers.check")
    assert set(checks["Runner.run"].match_lines) == {14, 19}
    assert checks["Runner.None"].match_lines == (5,)  # the import line, as every language's imports count


def test_same_package_classes_are_seen_across_source_roots(shard: GraphShard) -> None:
    """RunnerTest (under src/test) uses Runner (src/main) of its package without importing it, and
    Starter reaches Api through ``import com.acme.core.*``."""
    runs = ask(shard, "who calls Runner.run")
    assert {"RunnerTest.testRun", "Starter.go"} <= set(runs)
    assert "Starter.go" in ask(shard, "who calls Api.start")


def test_implementations_and_impact_follow_extends_and_implements(shard: GraphShard) -> None:
    """Fast extends Engine, which implements Api: both implement Api, the direct one first (before, only
    Engine was listed; javac-checked suites, file recall 0.872 -> 0.983)."""
    hits = shard.search(ModalityQuery(text="who implements Api", k=10)).hits
    assert [f"{Path(h.path).stem}.{h.symbol}" for h in hits] == ["Engine.Engine", "Fast.Fast"]
    assert hits[0].score > hits[1].score
    assert set(ask(shard, "who extends Engine")) == {"Fast.Fast"}
    impact = ask(shard, "what breaks if I change Engine.warm")
    assert {"Engine.start", "Fast.start"} <= set(impact)


def test_a_java_repository_provides_its_packages_and_imports_them() -> None:
    provided = provided_names("acme", FILES)
    assert {"java:com.acme.core", "java:com.acme.app"} <= provided
    imported = import_names(segments())
    assert {"java:com.acme.core", "java:java.util", "java:com.acme.core.Helpers"} <= imported


def test_an_overload_calling_another_is_listed_after_the_code_depending_on_them(shard: GraphShard) -> None:
    """``find(name)`` calls ``find(name, from)``: it is the operation being changed, so the blast radius of
    ``find`` lists ``Lookup.first`` first and the overload after it, with half its evidence."""
    hits = shard.search(ModalityQuery(text="what breaks if I change find", k=10, options={"depth": "1"})).hits
    assert [f"{Path(h.path).stem}.{h.symbol}" for h in hits] == ["Lookup.first", "Threads.find"]
    assert hits[0].score > hits[1].score


CHAINED = {
    "src/a/Node.java": """package a;

public class Node {
    public Node() {
    }

    public Node child(int i) {
        return this;
    }

    public int size() {
        return 0;
    }
}
""",
    "src/a/Doc.java": """package a;

public class Doc extends Node {
    public Node body() {
        return this;
    }

    public String title() {
        return "";
    }
}
""",
    "src/a/Bag.java": """package a;

public class Bag {
    public int size() {
        return 1;
    }

    public int length() {
        return 1;
    }
}
""",
    "src/a/Use.java": """package a;

class Use {
    private Node[] nodes;

    int walk(Doc doc, Node[] more, int[] counts) {
        doc.body().child(0).size();
        doc.title().length();
        nodes[0].size();
        more[1].child(2);
        return more.length + counts[0];
    }
}
""",
}


def test_a_call_s_result_is_read_through_the_method_s_declared_return_type(tmp_path: Path) -> None:
    """``doc.body().child(0).size()`` is Node's ``child`` and ``size`` (``body()`` returns a Node, declared
    in ``Doc extends Node``: there ``Node`` is the class, not Node's constructor, which is no member);
    ``doc.title().length()`` is String's, no indexed code's (before, a call's result was of unknown type and
    went to every indexed ``length``); an array's element has the array's declared type, and the array itself
    no indexed members."""
    facts = parse_file(CHAINED["src/a/Use.java"].encode(), "java")
    calls = {r.chain for r in facts.references if r.call}
    assert ("Doc", "body", "()", "child", "()", "size") in calls and ("Node", "size") in calls
    assert ("Node", "child") in calls and not any(c[-1] == "length" and c[0] != "Doc" for c in calls)
    segments = [s for path, text in CHAINED.items() for s in segment_file("a", path, "java", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("a",)))
    shard = modality.load(tmp_path)
    sizes = shard.search(ModalityQuery(text="who calls Node.size", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in sizes] == [("walk", (7, 9))]
    assert not shard.search(ModalityQuery(text="who calls Bag.length", k=10)).hits
    assert not shard.search(ModalityQuery(text="who calls Bag.size", k=10)).hits
    assert [h.match_lines for h in shard.search(ModalityQuery(text="who calls Node.child", k=10)).hits] == [(7, 10)]


OVERLOADS = {
    "src/a/Codec.java": """package a;

public class Codec {
    public static byte[] encode(byte[] data) {
        return encode(data, false);
    }

    public static byte[] encode(byte[] data, boolean chunked) {
        return data;
    }

    public static String join(String first, String... rest) {
        return first;
    }

    static byte[] twice(byte[] data) {
        join("a");
        join("a", "b", "c");
        return encode(data, true);
    }
}
""",
}


def test_a_call_is_of_the_overloads_its_arguments_fit(tmp_path: Path) -> None:
    """``encode(data, true)`` calls the two-parameter ``encode``, not the one-parameter overload; a varargs
    method takes any number of arguments from one fewer than its parameters on (before, a call went to every
    overload of its name)."""
    calls = [r for r in parse_file(OVERLOADS["src/a/Codec.java"].encode(), "java").references if r.call]
    assert {(r.line, r.chain[-1], r.arity) for r in calls} >= {(5, "encode", 2), (17, "join", 1), (18, "join", 3)}
    segments = [s for path, text in OVERLOADS.items() for s in segment_file("a", path, "java", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("a",)))
    shard = modality.load(tmp_path)
    callees = shard.search(ModalityQuery(text="what does twice call", k=10)).hits
    assert sorted((h.symbol, h.start_line) for h in callees) == [("encode", 8), ("join", 12)]


def test_an_overload_is_chosen_by_the_types_its_arguments_show() -> None:
    """``isTrue(x != null, "m")`` is ``isTrue(boolean, String)``, not ``isTrue(boolean, Supplier)``; ``write(5)``
    (an ``int`` widens to ``long``) is ``write(long)``; ``write(name)`` on a ``String`` parameter ``write(String)``;
    ``write(next())`` may be either (its type is not read)."""
    source = """package acme;

public class Checks {
    static void isTrue(boolean ok, String message) { }
    static void isTrue(boolean ok, Supplier message) { }
    static void write(long n) { }
    static void write(String s) { }
    static String next() { return ""; }

    void run(Object x, String name) {
        isTrue(x != null, "m");
        write(5);
        write(name);
        write(next());
    }
}
"""
    graph = build_graph(segment_file("acme", "src/Checks.java", "java", source.encode()).segments)
    called: dict[int, set[int]] = {}
    for (src, dst, _kind), (_weight, lines) in graph.edges.items():
        if graph.nodes[src].symbol == "run" and graph.nodes[dst].symbol in ("isTrue", "write"):
            called.setdefault(graph.nodes[dst].start_line, set()).update({lines} if isinstance(lines, int) else lines)
    assert called == {4: {11}, 6: {12, 14}, 7: {13, 14}}
