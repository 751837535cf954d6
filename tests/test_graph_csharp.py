"""The graph reads C#: namespaces, ``using`` directives (a namespace's, a class's static members, an alias),
declared types of receivers (parameters, locals, ``var`` of a written type, fields, properties, what a method
returns), bases, ``base`` and the members a bare name uses, against real tree-sitter and the real graph build."""

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
from fourfold.plugins.cs_source import readable as cs_readable
from fourfold.plugins.graph.links import import_names, provided_names, surface_of
from fourfold.plugins.graph.parse import parse_file
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.resolve import build_graph
from fourfold.plugins.graph.shard import GraphShard
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.structural.extract import extract, parse
from fourfold.plugins.types import Hit, ModalityQuery, Segment

FILES = {
    "src/Shapes/Shape.cs": """using System;

namespace Demo.Shapes
{
    public interface IShape
    {
        double Area();
    }

    public abstract class Shape : IShape
    {
        public Engine Motor { get; set; }

        public abstract double Area();

        public string Describe(int digits = 2)
        {
            return Math.Round(Area(), digits).ToString();
        }
    }

    public class Engine
    {
        public void Start(int speed) { }

        public void Start(int speed, bool warm) { }

        public int Speed { get; private set; }

        public int Length => Speed;
    }
}
""",
    "src/Shapes/Circle.cs": """namespace Demo.Shapes
{
    public partial class Circle : Shape
    {
        private readonly double radius;

        public Circle(double radius)
        {
            this.radius = radius;
        }

        public override double Area()
        {
            return 3.14 * radius * radius;
        }

        public static Circle Unit() => new Circle(1);
    }
}
""",
    "src/Shapes/Circle.Draw.cs": """namespace Demo.Shapes
{
    public partial class Circle
    {
        public double Draw() => Area() + radius;
    }
}
""",
    "src/Shapes/Tools/Ruler.cs": """namespace Demo.Shapes.Tools;

public static class Ruler
{
    public static double Measure(Circle circle) => circle.Area();

    public static int Count(string text) => text.Length;
}

public static class TextExtensions
{
    public static int Words(this string text) => text.Split(' ').Length;

    public static int Words(this Engine engine) => engine.Speed;
}
""",
    "src/App/Program.cs": """using System.Collections.Generic;
using Demo.Shapes;
using static Demo.Shapes.Tools.Ruler;
using Wheel = Demo.Shapes.Circle;

namespace Demo.App
{
    public static class Program
    {
        public static double Total(List<IShape> shapes)
        {
            double sum = 0;
            foreach (IShape s in shapes)
                sum += s.Area();
            return sum;
        }

        public static void Run()
        {
            var c = Circle.Unit();
            c.Motor.Start(3);
            var d = new Wheel(2.0);
            System.Console.WriteLine(d.Describe() + Total(new List<IShape> { c, d }));
            var speed = c.Motor.Speed;
            Measure(d);
            Count("x");
            "a b".Words();
        }
    }
}
""",
}


def segments(repo: str = "demo") -> list[Segment]:
    out: list[Segment] = []
    for path, text in sorted(FILES.items()):
        out.extend(segment_file(repo, path, "csharp", text.encode()).segments)
    return out


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> GraphShard:
    shard_dir = tmp_path_factory.mktemp("graph_csharp")
    modality = GraphModality()
    stats = modality.build(segments(), shard_dir, BuildContext(generation="g", shard="all", repos=("demo",)))
    assert not any("csharp files" in note for note in stats.notes)  # read, not "containment only"
    return modality.load(shard_dir)


def ask(shard: GraphShard, text: str) -> dict[str, Hit]:
    return {f"{Path(h.path).stem}.{h.symbol}": h for h in shard.search(ModalityQuery(text=text, k=20)).hits}


def test_facts_read_usings_namespace_bases_and_declared_types() -> None:
    facts = parse_file(FILES["src/App/Program.cs"].encode(), "csharp")
    assert facts.package == "Demo.App"
    assert {(i.module, i.name, i.alias) for i in facts.imports} == {
        ("System.Collections.Generic", "*", "*"),
        ("Demo.Shapes", "*", "*"),
        ("Demo.Shapes.Tools.Ruler", "*", "*"),
        ("Demo.Shapes", "Circle", "Wheel"),
    }
    calls = {r.chain for r in facts.references if r.call}
    # a foreach variable's declared type; ``var`` of what a method returns; ``new`` through an alias
    assert {("IShape", "Area"), ("Circle", "Unit", "()", "Motor", "Start"), ("Wheel",), ("Wheel", "Describe")} <= calls
    uses = {(r.line, r.chain) for r in facts.references if not r.call}
    assert (21, ("Circle", "Unit", "()", "Motor")) in uses  # a property read on the way to a call
    circle = parse_file(FILES["src/Shapes/Circle.cs"].encode(), "csharp")
    assert [b.chain for b in circle.bases] == [("Shape",)]
    assert (9, ("this", "radius")) in {(r.line, r.chain) for r in circle.references}
    assert (14, ("radius",)) in {(r.line, r.chain) for r in circle.references}  # a bare name: the field


def test_a_typed_receiver_calls_that_type_s_method(shard: GraphShard) -> None:
    """``c.Motor.Start(3)``: ``c`` is what ``Circle.Unit()`` returns, ``Motor`` a property of type Engine,
    ``Start`` with one argument Engine's first overload, not the two-argument one."""
    starts = shard.search(ModalityQuery(text="who calls Engine.Start", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in starts] == [("Run", (21,))]
    callees = shard.search(ModalityQuery(text="what does Run call", k=20)).hits
    assert ("Start", 24) in {(h.symbol, h.start_line) for h in callees}
    assert ("Start", 26) not in {(h.symbol, h.start_line) for h in callees}
    motors = ask(shard, "who uses Motor")
    assert set(motors) == {"Program.Run"} and motors["Program.Run"].match_lines == (21, 24)


def test_interfaces_overrides_and_implementations(shard: GraphShard) -> None:
    """``s.Area()`` on an IShape calls the interface's ``Area``; ``Area()`` inside Shape is Shape's, which
    Circle overrides; Shape and Circle implement IShape."""
    assert "Program.Total" in ask(shard, "who calls IShape.Area")
    assert "Shape.Describe" in ask(shard, "who calls Shape.Area")
    assert set(ask(shard, "who implements IShape")) == {"Shape.Shape", "Circle.Circle"}
    assert set(ask(shard, "who extends Shape")) == {"Circle.Circle"}


def test_namespaces_static_usings_and_aliases(shard: GraphShard) -> None:
    """``Measure(d)`` through ``using static ...Ruler``; ``new Wheel(2.0)`` through the alias is Circle;
    Ruler (namespace ``Demo.Shapes.Tools``) sees ``Circle`` of the enclosing namespace ``Demo.Shapes``; a
    string's ``Length`` is no indexed code's."""
    assert "Program.Run" in ask(shard, "who calls Ruler.Measure")
    assert "Program.Run" in ask(shard, "who calls Ruler.Count")
    assert "Ruler.Measure" in ask(shard, "who calls Circle.Area")
    users = ask(shard, "what breaks if I change Circle")
    assert {"Program.Run", "Ruler.Measure"} <= set(users)
    assert not shard.search(ModalityQuery(text="who uses Engine.Length", k=10)).hits  # ``text.Length``


def test_an_extension_method_on_a_type_no_indexed_code_defines(shard: GraphShard) -> None:
    """``"a b".Words()``: string has no indexed members, so the call is of the extension method ``Words`` that
    extends string, not of the one extending Engine."""
    words = shard.search(ModalityQuery(text="who calls Words", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in words] == [("Run", (27,))]
    hits = shard.search(ModalityQuery(text="what does Run call", k=20)).hits
    assert ("Words", 12) in {(h.symbol, h.start_line) for h in hits}
    assert ("Words", 14) not in {(h.symbol, h.start_line) for h in hits}
    callees = [(h.symbol, h.kind) for h in hits]
    # the code a use runs (methods, and properties, whose accessors are methods) before the types it names
    kinds = [kind for _, kind in callees]
    assert "property" in kinds and kinds.index("class") > max(i for i, k in enumerate(kinds) if k == "property")


def test_a_partial_class_s_parts_see_each_other_s_members(shard: GraphShard) -> None:
    """``Area()`` and ``radius`` in Circle.Draw.cs are the members Circle.cs declares (before the parts were
    joined, a bare name not declared in its own part was bound to nothing)."""
    assert ask(shard, "who calls Circle.Area")["Circle.Draw.Draw"].match_lines == (5,)
    assert "Circle.Draw.Draw" in ask(shard, "who uses Circle.radius")


def test_a_csharp_repository_provides_its_namespaces_and_imports_them() -> None:
    """Another repository's ``using Demo.Shapes;`` makes this one a dependency: it provides ``demo.shapes``
    (its name, then its folder), and its namespace node is on its surface."""
    provided = provided_names("demo", FILES)
    assert {"cs:demo", "cs:demo.shapes", "cs:demo.shapes.tools", "cs:shapes"} <= provided
    imported = import_names(segments())
    assert {"cs:demo.shapes", "cs:demo.shapes.tools.ruler", "cs:demo.shapes.tools"} <= imported
    assert "module:demo:src/Shapes" in surface_of("demo", segments()).ids


CONDITIONAL = b"""\xef\xbb\xbf#if !NET20
using System.Numerics;
#endif
namespace Demo
{
    public class Writer
    {
        public void Write(object value)
        {
#if !(NET20 || NET35)
            if (value is BigInteger)
            {
                WriteBig(value);
            }
            else
#else
            if (value == null)
#endif
            {
                WriteLong(value);
            }
        }

        public void WriteBig(object value) { }

        public void WriteLong(object value) { }
    }
}
"""


def test_an_if_section_that_cuts_a_statement_is_read_as_one_build_compiles_it() -> None:
    """Json.NET's ``if (...) { ... } else`` under ``#if``, then the block every build shares: read as written, the
    tree breaks and the methods after it lose their definitions; read with each ``#if``'s first branch (the file's
    bytes and lines where they were), ``Write`` calls both and every method is a definition."""
    kept = cs_readable(CONDITIONAL)
    assert len(kept) == len(CONDITIONAL) and kept.count(b"\n") == CONDITIONAL.count(b"\n")
    assert b"value == null" not in kept and b"WriteBig(value)" in kept
    assert parse(CONDITIONAL, "csharp").root_node.has_error  # type: ignore[union-attr]
    assert not parse(kept, "csharp").root_node.has_error  # type: ignore[union-attr]
    names = {(d.name, d.start_line) for d in extract(CONDITIONAL, "csharp").definitions}
    assert {("Write", 8), ("WriteBig", 24), ("WriteLong", 26)} <= names
    calls = {(r.line, r.chain) for r in parse_file(CONDITIONAL, "csharp").references if r.call}
    assert {(13, ("WriteBig",)), (20, ("WriteLong",))} <= calls


COLOR = {
    "src/Net/Connection.cs": """namespace Net
{
    public class Connection
    {
        public void Open() { }
    }
}
""",
    "src/Net/Proto/Frame.cs": """namespace Net.Proto
{
    public class Frame
    {
        public void Send() { }
    }
}
""",
    "src/Net/Client.cs": """namespace Net
{
    using Proto;

    public class Client
    {
        public Connection Connection { get; set; }

        public void Run(Frame frame)
        {
            Connection.Open();
            frame.Send();
        }
    }
}
""",
}


def test_a_property_named_as_its_type_and_a_using_inside_a_namespace(tmp_path: Path) -> None:
    """``Connection Connection { get; }``: ``Connection.Open()`` is the type's ``Open`` (before, the name was the
    property and the call went nowhere; dbus-sharp's ``conn.AddMatch`` was lost so); ``using Proto;`` inside
    ``namespace Net`` names ``Net.Proto``."""
    segments = [s for path, text in COLOR.items() for s in segment_file("net", path, "csharp", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("net",)))
    shard = modality.load(tmp_path)
    opens = shard.search(ModalityQuery(text="who calls Connection.Open", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in opens] == [("Run", (11,))]
    sends = shard.search(ModalityQuery(text="who calls Frame.Send", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in sends] == [("Run", (12,))]


def test_every_surface_answers_a_csharp_caller_question_from_the_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real index (text, structural, graph) of the C# repository: "who calls Engine.Start" is answered by the
    graph's direct path through the CLI, the gRPC client and MCP (before, by where the name is written)."""
    import fourfold

    home = index_files(tmp_path, "demo", FILES)
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "who calls Engine.Start"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fusion_strategy"] == "direct" and [h["symbol"] for h in out["hits"]] == ["Run"]
    with coordinator_in_process(home) as address, fourfold.Client(address) as client:
        answer = client.search("who calls Engine.Start", k=3)
        assert answer.fusion_strategy == "direct" and answer.hits[0].hit.match_lines == (21,)
    text = format_answer(search_once(Engine(IndexStore(home)), SearchParams("who calls Engine.Start", k=3)))
    assert "method Run" in text and "mentions" not in text.splitlines()[0]


def test_a_var_is_read_with_the_parameters_and_locals_of_its_scope() -> None:
    """``var conn = other.Connection`` has the type of ``other``'s ``Connection``, and ``var again = conn`` that
    too (before, a ``var`` was read with the scope around the method: ``other`` was no parameter there, and
    ``conn.Open()`` was read as ``other.Connection.Open``, an unknown name's)."""
    source = b"""class Client
{
    public Connection Connection { get; set; }

    public void Send(Client other)
    {
        var conn = other.Connection;
        var again = conn;
        conn.Open();
        again.Close();
    }
}
"""
    calls = {(r.line, r.chain) for r in parse_file(source, "csharp").references if r.call}
    assert (9, ("Client", "Connection", "Open")) in calls
    assert (10, ("Client", "Connection", "Close")) in calls


def test_an_overload_is_chosen_by_the_types_its_arguments_show() -> None:
    """``Write("x")`` calls ``Write(string)``, ``Write(sig)`` on a ``Signature`` parameter ``Write(Signature)``,
    ``Write((long)5)`` and ``Write(7)`` (an ``int`` widens to ``long``) ``Write(long)``: each overload takes one
    argument, and the number of arguments told them no apart (before, each call went to all three). An argument
    whose type the source does not show (``Write(Next())``) may be any of them."""
    source = """namespace Wire
{
    public class Signature { }

    public class Writer
    {
        public void Write(string value) { }
        public void Write(Signature sig) { }
        public void Write(long number) { }
        public Signature Next() { return null; }

        public void Run(Signature sig)
        {
            Write("x");
            Write(sig);
            Write((long)5);
            Write(7);
            Write(Next());
        }
    }
}
"""
    calls = {r.line: r.types for r in parse_file(source.encode(), "csharp").references if r.call}
    assert [calls.get(line, ()) for line in range(14, 19)] == [("String",), ("Signature",), ("long",), ("int",), ()]
    graph = build_graph(segment_file("wire", "src/Writer.cs", "csharp", source.encode()).segments)
    writes = {n: rec.start_line for n, rec in enumerate(graph.nodes) if rec.symbol == "Write"}
    called: dict[int, set[int]] = {line: set() for line in writes.values()}
    for (src, dst, _kind), (_weight, lines) in graph.edges.items():
        if dst in writes and graph.nodes[src].symbol == "Run":
            called[writes[dst]] |= {lines} if isinstance(lines, int) else set(lines)
    assert called == {7: {14, 18}, 8: {15, 18}, 9: {16, 17, 18}}
