"""C++: includes, namespaces, classes and their bases, methods defined outside their class's body, and
receivers of declared type (a parameter, a local, a field, a holder such as ``std::unique_ptr<T>``) are read
and resolved; against real tree-sitter and the real graph build."""

from __future__ import annotations

from pathlib import Path

from fourfold.index.ingest.segment import segment_file
from fourfold.plugins.cpp_source import readable
from fourfold.plugins.graph.parse import parse_file
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.shard import GraphShard, impact_evidence
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import ModalityQuery

FILES = {
    "include/geo/shape.h": """#pragma once
#include <memory>
#include <string>
namespace geo {
class Shape {
 public:
  virtual ~Shape();
  virtual double area() const = 0;
  int id() const { return id_; }
 private:
  int id_;
};
class Circle : public Shape {
 public:
  explicit Circle(double r);
  double area() const override;
  double scaled(double k) const;
 private:
  double r_;
};
double helper(double a);
}  // namespace geo
""",
    "src/shape.cc": """#include "geo/shape.h"
namespace geo {
static double twice(double v) { return 2 * v; }
double helper(double a) { return twice(a); }
Shape::~Shape() {}
Circle::Circle(double r) : r_(r) {}
double Circle::area() const { return 3.14 * r_ * r_; }
double Circle::scaled(double k) const {
  return this->area() * helper(k);
}
}  // namespace geo
""",
    "src/canvas.cc": """#include "geo/shape.h"
#include <vector>
namespace {
double twice(double v) { return v + v; }
}
class Canvas {
 public:
  double total(const geo::Circle& c, geo::Shape* s) {
    std::string name = "c";
    auto made = std::make_unique<geo::Circle>(1.0);
    return c.scaled(2) + s->area() + made->area() + name.size() + twice(1);
  }
  double first() { return held_->scaled(1) + geo::helper(3); }
 private:
  std::unique_ptr<geo::Circle> held_;
};
int main() {
  Canvas canvas;
  geo::Circle circle(2.0);
  return canvas.total(circle, &circle) + circle.id();
}
""",
}


def _shard(tmp_path: Path) -> GraphShard:
    segments = [s for path, text in FILES.items() for s in segment_file("g", path, "cpp", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("g",)))
    return modality.load(tmp_path)


def _ask(shard: GraphShard, text: str, intent: str | None = None) -> list[tuple[str, str | None, int]]:
    return [(h.path, h.symbol, h.start_line) for h in shard.search(ModalityQuery(text=text, k=10, intent=intent)).hits]


def test_a_cpp_file_s_names_are_read_with_their_declared_types() -> None:
    """A qualified name is one chain; a receiver of declared type is read through it (a holder through what it
    holds, ``auto x = std::make_unique<T>()`` as a ``T``); a standard library receiver's members and names
    under ``std::`` are none of the project's; a definition's own qualified name is no use; bases are read."""
    facts = parse_file(FILES["src/canvas.cc"].encode(), "cpp")
    assert [(i.line, i.module) for i in facts.imports] == [(1, "geo/shape.h")]  # <vector> is the system's
    uses = {(r.line, r.chain, r.call, r.local) for r in facts.references}
    assert (11, ("geo", "Circle", "scaled"), True, False) in uses  # const geo::Circle& c
    assert (11, ("geo", "Shape", "area"), True, False) in uses  # geo::Shape* s
    assert (10, ("geo", "Circle"), False, False) in uses  # the template's argument
    assert (11, ("geo", "Circle", "area"), True, False) in uses  # auto made = std::make_unique<geo::Circle>(..)
    assert (13, ("held_", "scaled"), True, False) in uses  # a field: its type is read when it is resolved
    assert (13, ("geo", "helper"), True, False) in uses
    assert not any(r.chain[0] == "std" or r.chain[-1] == "size" for r in facts.references)
    own = parse_file(FILES["src/shape.cc"].encode(), "cpp")
    named = {(r.line, r.chain) for r in own.references}
    assert (7, ("Circle", "area")) not in named and (7, ("r_",)) in named
    assert (9, ("this", "area")) in named
    header = parse_file(FILES["include/geo/shape.h"].encode(), "cpp")
    assert [(b.class_line, b.chain) for b in header.bases] == [(13, ("Shape",))]
    # an export macro between ``class`` and the name hides neither the class nor its bases
    exported = parse_file(b"class GEO_EXPORT Square : public geo::Shape {\n  double area() const;\n};\n", "cpp")
    assert [(b.class_line, b.chain) for b in exported.bases] == [(1, ("geo", "Shape"))]


def test_cpp_names_resolve_through_classes_and_declared_types(tmp_path: Path) -> None:
    shard = _shard(tmp_path)
    # a method defined outside its class's body is the class's member, in place of its declaration: a call
    # through a typed receiver, a holder field or ``this->`` reaches the definition in the .cc file
    callers = _ask(shard, "who calls scaled")
    assert ("src/canvas.cc", "total", 8) in callers and ("src/canvas.cc", "first", 13) in callers
    assert set(_ask(shard, "who calls Circle.area")) == {("src/shape.cc", "scaled", 8), ("src/canvas.cc", "total", 8)}
    # an inherited member is found through the base; a member used without ``this->`` is the class's
    assert _ask(shard, "who calls id") == [("src/canvas.cc", "main", 17)]
    assert set(_ask(shard, "who uses r_")) == {("src/shape.cc", "Circle", 6), ("src/shape.cc", "area", 7)}
    # a source file's static function, and one in its anonymous namespace, are its own
    assert ("src/shape.cc", "twice", 3) in _ask(shard, "what does helper call")
    total = _ask(shard, "what does total call")
    assert ("src/canvas.cc", "twice", 4) in total and ("src/shape.cc", "twice", 3) not in total
    assert _ask(shard, "who calls twice") == [("src/shape.cc", "helper", 4), ("src/canvas.cc", "total", 8)]
    callees = _ask(shard, "what does first call")
    assert ("src/shape.cc", "scaled", 8) in callees and ("src/shape.cc", "helper", 4) in callees
    assert _ask(shard, "who implements Shape") == [("include/geo/shape.h", "Circle", 13)]
    impact = _ask(shard, "what depends on helper", intent="impact_analysis")
    assert impact[0] == ("src/shape.cc", "scaled", 8)
    assert ("src/canvas.cc", "first", 13) in impact and ("src/canvas.cc", "total", 8) in impact


def test_a_name_in_an_anonymous_namespace_is_its_file_s_own(tmp_path: Path) -> None:
    """``namespace { int parse(..) }`` in one source file is that file's, as a static function is: another file
    calling ``parse`` with no definition of its own does not call it; the file itself does."""
    files = {
        "a.cc": "namespace {\nint parse(int v) { return v; }\n}  // namespace\nint run() { return parse(1); }\n",
        "b.cc": "int other() { return parse(2); }\n",
    }
    assert parse_file(files["a.cc"].encode(), "cpp").hidden == ((1, 3),)
    segments = [s for path, text in files.items() for s in segment_file("p", path, "cpp", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("p",)))
    assert _ask(modality.load(tmp_path), "who calls parse") == [("a.cc", "run", 4)]


def test_a_cpp_call_reaches_the_overloads_its_arguments_fit(tmp_path: Path) -> None:
    """``Value(int)``, ``Value(int, int)`` and ``set(k, v = 0)``: a call is of the overloads whose parameters
    (defaults and ``...`` counted) take its arguments."""
    files = {
        "value.h": "class Value {\n public:\n  void set(int k, int v = 0);\n  void set(int k, int v, int w);\n};\n",
        "value.cc": '#include "value.h"\nvoid Value::set(int k, int v) {}\nvoid Value::set(int k, int v, int w) {}\n'
        "void use(Value& x) {\n  x.set(1);\n}\nvoid both(Value& x) {\n  x.set(1, 2, 3);\n}\n",
    }
    facts = parse_file(files["value.cc"].encode(), "cpp")
    assert {(r.line, r.chain, r.arity) for r in facts.references if r.call} == {
        (5, ("Value", "set"), 1),
        (8, ("Value", "set"), 3),
    }
    segments = [s for path, text in files.items() for s in segment_file("v", path, "cpp", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("v",)))
    shard = modality.load(tmp_path)
    assert [h for h in _ask(shard, "what does use call") if h[1] == "set"] == [("value.cc", "set", 2)]
    assert [h for h in _ask(shard, "what does both call") if h[1] == "set"] == [("value.cc", "set", 3)]


def test_a_function_defined_once_per_if_branch_is_one_function(tmp_path: Path) -> None:
    """re2's ``void Mutex::Lock()`` is written once for each platform under ``#if``: the reader sees all three, and
    a call is of that one function (each at full weight, before a type the caller only names), not a third of it."""
    header = (
        "class Mutex {\n public:\n  void Lock();\n};\n#if defined(WIN32)\nvoid Mutex::Lock() { win(); }\n"
        "#elif defined(PTHREAD)\nvoid Mutex::Lock() { posix(); }\n#else\nvoid Mutex::Lock() {}\n#endif\n"
        "class MutexLock {\n public:\n  explicit MutexLock(Mutex *mu) : mu_(mu) { mu_->Lock(); }\n"
        " private:\n  Mutex * const mu_;\n};\n"
    )
    segments = segment_file("m", "mutex.h", "cpp", header.encode()).segments
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("m",)))
    hits = modality.load(tmp_path).search(ModalityQuery(text="what does MutexLock call", k=10)).hits
    assert [(h.symbol, h.start_line, h.score) for h in hits[:3]] == [  # a method called: 1 + its full evidence
        ("Lock", 6, 2.0),
        ("Lock", 8, 2.0),
        ("Lock", 10, 2.0),
    ]


def test_a_field_marked_for_thread_safety_keeps_its_type(tmp_path: Path) -> None:
    """leveldb's ``VersionSet* const versions_ GUARDED_BY(mutex_);`` is a field of type ``VersionSet`` (read as
    written it was a method named ``GUARDED_BY``), so ``versions_->NewFileNumber()`` reaches the method."""
    files = {
        "db_impl.h": "class VersionSet {\n public:\n  int NewFileNumber() { return 1; }\n};\n"
        "class DBImpl {\n  void Write() EXCLUSIVE_LOCKS_REQUIRED(mutex_);\n  Mutex mutex_;\n"
        "  VersionSet* const versions_ GUARDED_BY(mutex_);\n};\n",
        "db_impl.cc": '#include "db_impl.h"\nvoid DBImpl::Write() {\n  versions_->NewFileNumber();\n}\n',
    }
    segments = [s for path, text in files.items() for s in segment_file("d", path, "cpp", text.encode()).segments]
    assert "GUARDED_BY" not in {s.symbol for s in segments}
    # an annotation alone in its file is blanked as well (``RELEASE()`` was kept where no other one was written)
    assert (
        readable(b"class Mutex {\n  void Unlock() RELEASE();\n};\n")
        == b"class Mutex {\n  void Unlock()          ;\n};\n"
    )
    assert readable(b"union PACKED Cell {\n  int v;\n};\n") == b"union        Cell {\n  int v;\n};\n"
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("d",)))
    assert _ask(modality.load(tmp_path), "who calls NewFileNumber") == [("db_impl.cc", "Write", 2)]


def test_a_call_split_between_overloads_is_surely_a_use_of_the_name(tmp_path: Path) -> None:
    """tinyxml2's ``doc.LoadFile(path)``: ``LoadFile(const char*)`` and ``LoadFile(FILE*)`` both take one argument, so
    the call is half each one's, and surely the name's. It comes before the overload that calls the other (before,
    both were half sure, and the overload, more central, came first)."""
    files = {
        "doc.h": "class Doc {\n public:\n  int LoadFile(const char* path);\n  int LoadFile(FILE* fp);\n};\n",
        "doc.cc": '#include "doc.h"\nint Doc::LoadFile(const char* path) {\n  return LoadFile(fopen(path, "r"));\n}\n'
        "int Doc::LoadFile(FILE* fp) {\n  return 0;\n}\n",
        "main.cc": '#include "doc.h"\nint main() {\n  Doc doc;\n  return doc.LoadFile("a.xml");\n}\n',
    }
    segments = [s for path, text in files.items() for s in segment_file("d", path, "cpp", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("d",)))
    shard = modality.load(tmp_path)
    impact = shard.search(ModalityQuery(text="what depends on LoadFile", k=10, intent="impact_analysis")).hits
    assert [(h.path, h.symbol, h.start_line) for h in impact] == [("main.cc", "main", 2), ("doc.cc", "LoadFile", 2)]
    assert impact_evidence(impact[0]) == (1, 1.0) and impact_evidence(impact[1])[1] < 1.0
    callers = {h.symbol: h.score for h in shard.search(ModalityQuery(text="who calls LoadFile", k=10)).hits}
    assert callers["main"] >= 1.0  # a full call's evidence, not half of one
    lonely = {"lonely.h": "class Lonely {\n public:\n  void Go(int a);\n  void Go(char* b);\n};\n"}
    segments = [s for path, text in lonely.items() for s in segment_file("l", path, "cpp", text.encode()).segments]
    modality.build(segments, tmp_path / "lonely", BuildContext(generation="g", shard="all", repos=("l",)))
    for question in ("who calls Go", "what depends on Go"):  # two overloads that nothing uses: no answer, no error
        assert not modality.load(tmp_path / "lonely").search(ModalityQuery(text=question, k=10)).hits


def test_a_wrapper_of_the_name_asked_about_comes_after_the_code_that_uses_it(tmp_path: Path) -> None:
    """re2's free ``CompileSet`` forwards to ``Compiler::CompileSet``. Asked "what depends on CompileSet", both are
    what is being changed: ``Set::Compile``, which uses the name, comes first, the wrapper after it."""
    files = {
        "compile.cc": "class Compiler {\n public:\n  static int CompileSet(int n);\n};\n"
        "int Compiler::CompileSet(int n) {\n  return n;\n}\n"
        "int CompileSet(int n) {\n  return Compiler::CompileSet(n);\n}\n",
        "set.cc": "class Set {\n public:\n  int Compile();\n};\n"
        "int Set::Compile() {\n  return Compiler::CompileSet(1);\n}\n",
    }
    segments = [s for path, text in files.items() for s in segment_file("r", path, "cpp", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("r",)))
    impact = (
        modality.load(tmp_path)
        .search(ModalityQuery(text="what depends on CompileSet", k=10, intent="impact_analysis"))
        .hits
    )
    assert [(h.path, h.symbol, h.start_line) for h in impact][:2] == [
        ("set.cc", "Compile", 5),
        ("compile.cc", "CompileSet", 8),
    ]
