"""The structural extractor: per-language definitions, kinds, qualified names, signatures, bad input."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from fourfold.plugins.cpp_source import readable
from fourfold.plugins.readable import typescript_members
from fourfold.plugins.structural.extract import SUPPORTED_LANGUAGES, extract, is_supported
from fourfold.plugins.types import Definition

FIXTURES = Path(__file__).parent / "fixtures" / "structural"


def _defs(name: str, language: str) -> dict[tuple[str, str], Definition]:
    """(qualified name, kind) -> definition (a Rust struct and its impl share a qualified name)."""
    extraction = extract((FIXTURES / name).read_bytes(), language)
    assert extraction.supported
    assert extraction.parse_errors == 0
    return {(d.qualified_name, d.kind): d for d in extraction.definitions}


# (fixture, language, qualified name, kind, signature, start line, parent)
EXPECTED = [
    ("auth.py", "python", "Auth", "class", "class Auth", 22, ""),
    ("auth.py", "python", "Auth.sync_auth_flow", "method",
     "def sync_auth_flow( self, request: Request ) -> typing.Generator[Request, Response, None]", 62, "Auth"),
    ("auth.py", "python", "DigestAuth._ALGORITHM_TO_HASH_FUNCTION", "field",
     "_ALGORITHM_TO_HASH_FUNCTION: dict[str, typing.Callable[[bytes], _Hash]]", 176, "DigestAuth"),
    ("route.js", "javascript", "Route", "function", "function Route(path)", 43, ""),
    ("route.js", "javascript", "Route._handles_method", "function", "Route.prototype._handles_method = function "
    "_handles_method(method)", 58, ""),
    ("route.js", "javascript", "debug", "variable", "debug = require('debug')('express:router:route')", 16, ""),
    ("client.go", "go", "main.Client", "struct", "Client struct", 30, ""),
    ("client.go", "go", "main.Client.Run", "method", "func (c *Client) Run() error", 37, ""),
    ("shapes.ts", "typescript", "Base.describe", "method", "describe(prefix: string): string", 16, "Base"),
    ("shapes.ts", "typescript", "Geometry.distance", "function", "function distance(a: Point, b: Point): "
    "number", 23, "Geometry"),
    ("shapes.ts", "typescript", "scale", "function", "scale = (p: Point, k: number): Point", 28, ""),
    ("shapes.ts", "typescript", "Shape", "interface", "interface Shape<T>", 1, ""),
    ("shapes.ts", "tsx", "Color", "enum", "enum Color", 8, ""),
    ("shapes.java", "java", "org.fourfold.shapes.Circle.repeat", "method",
     "public <T> List<T> repeat(T item, int times) throws IllegalArgumentException", 18, "org.fourfold.shapes.Circle"),
    ("shapes.java", "java", "org.fourfold.shapes.Circle.Visitor", "interface", "interface "
    "Visitor", 22, "org.fourfold.shapes.Circle"),
    ("shapes.rs", "rust", "Polygon", "struct", "pub struct Polygon<T>", 5, ""),
    ("shapes.rs", "rust", "Polygon.new", "method", "pub fn new(sides: Vec<T>) -> Self", 20, "Polygon"),
    ("shapes.rs", "rust", "Area", "trait", "pub trait Area", 15, ""),
    ("shapes.rs", "rust", "util.perimeter", "function", "pub fn perimeter(sides: &[f64]) -> f64", 32, "util"),
    ("shapes.rs", "rust", "square", "macro", "macro_rules! square", 39, ""),
    ("shapes.c", "c", "distance", "function", "double distance(const point_t *a, const point_t *b)", 15, ""),
    ("shapes.c", "c", "point.x", "field", "double x;", 7, "point"),
    ("shapes.c", "c", "point_t", "type", "typedef struct point", 6, ""),
    ("shapes.c", "c", "counter", "variable", "static int counter = 0;", 13, ""),
    ("shapes.c", "c", "SQUARE", "macro", "#define SQUARE(x)", 4, ""),
    ("shapes.cpp", "cpp", "geo.Shape", "class", "class Shape", 5, "geo"),
    ("shapes.cpp", "cpp", "geo.Shape.name", "method", "std::string name() const", 11, "geo.Shape"),
    ("shapes.cpp", "cpp", "geo.Circle.area", "function", "double geo::Circle::area() const", 25, ""),
    ("shapes.cs", "csharp", "Fourfold.Shapes.Square.Unit", "method",
     "public static Square Unit<T>(T hint) where T : class", 19, "Fourfold.Shapes.Square"),
    ("shapes.cs", "csharp", "Fourfold.Shapes.Square.Name", "property", "public string Name { get; set; "
    "}", 13, "Fourfold.Shapes.Square"),
    ("shapes.rb", "ruby", "Geometry.Square.unit", "method", "def self.unit(scale = 1)", 15, "Geometry.Square"),
    ("shapes.rb", "ruby", "Geometry.SIDES", "constant", "SIDES = 4", 2, "Geometry"),
    ("shapes.php", "php", "Fourfold.Shapes.Square.area", "method", "public function area(): "
    "float", 22, "Fourfold.Shapes.Square"),
    ("shapes.php", "php", "Fourfold.Shapes.describe", "function", "function describe(Shape $shape): string", 28, ""),
    ("shapes.kt", "kotlin", "org.fourfold.shapes.Square.scaled", "method", "fun scaled(k: Double): "
    "Square", 12, "org.fourfold.shapes.Square"),
    ("shapes.kt", "kotlin", "org.fourfold.shapes.Registry", "object", "object Registry", 18, ""),
    ("shapes.kt", "kotlin", "org.fourfold.shapes.Corner", "enum", "enum class Corner", 22, ""),
    ("shapes.swift", "swift", "Square.scaled", "method", "func scaled(by k: Double) -> Square", 26, "Square"),
    ("shapes.swift", "swift", "Shape", "interface", "protocol Shape", 3, ""),
    ("shapes.swift", "swift", "describe", "function", "func describe(_ shape: Shape) -> String", 35, ""),
    ("shapes.scala", "scala", "org.fourfold.shapes.Square.scaled", "method", "def scaled(k: Double): "
    "Square", 10, "org.fourfold.shapes.Square"),
    ("shapes.scala", "scala", "org.fourfold.shapes.Shape", "trait", "trait Shape", 3, ""),
]  # fmt: skip


@pytest.mark.parametrize(("fixture", "language", "qualified", "kind", "signature", "line", "parent"), EXPECTED)
def test_expected_definition(
    fixture: str, language: str, qualified: str, kind: str, signature: str, line: int, parent: str
) -> None:
    found = _defs(fixture, language).get((qualified, kind))
    assert found is not None, f"{kind} {qualified} not extracted from {fixture}"
    assert (found.signature, found.start_line, found.parent) == (signature, line, parent)
    assert found.name == qualified.rsplit(".", 1)[-1]


def test_every_dedicated_language_has_a_fixture() -> None:
    covered = {language for _, language, *_ in EXPECTED}
    assert covered == set(SUPPORTED_LANGUAGES)


def test_a_variable_inside_a_callback_is_a_local_too() -> None:
    """express's ``methods.forEach(function (method) { Route.prototype[method] = function () { var
    handle = ... } })``: no definition encloses ``handle``, but a function does."""
    source = b"""var methods = require('methods');

methods.forEach(function (method) {
  Route.prototype[method] = function () {
    var handles = [];
    for (var i = 0; i < handles.length; i++) {
      var handle = handles[i];
    }
  };
});

const run = (items) => { const total = items.length; return total; };
"""
    found = {(d.name, d.kind) for d in extract(source, "javascript").definitions}
    assert found == {("methods", "variable"), ("run", "function")}
    # a library's wrapper called where it is written is the module's scope (lodash, UMD bundles)
    wrapped = b"""(function () {
  var VERSION = '4.17.21';
  function chunk(array) { var size = 1; return size; }
}.call(this));
(() => { const limit = 200; })();
"""
    found = {(d.name, d.kind) for d in extract(wrapped, "javascript").definitions}
    assert found == {("VERSION", "constant"), ("chunk", "function"), ("limit", "variable")}


def test_locals_are_not_definitions() -> None:
    names = {d.name for d in extract((FIXTURES / "shapes.kt").read_bytes(), "kotlin").definitions}
    assert "local" not in names
    names = {d.name for d in extract((FIXTURES / "shapes.c").read_bytes(), "c").definitions}
    assert "dx" not in names


def test_a_c_function_behind_an_export_macro_keeps_its_name() -> None:
    """``XXH_PUBLIC_API XXH_errorcode XXH32_update(...)``: a parser that does not expand the macro reads the
    return type as the declarator and the name as an error; the definition is still ``XXH32_update`` (before,
    it was named ``XXH_errorcode``, and "where is XXH32_update defined" found no definition)."""
    source = (
        b"XXH_PUBLIC_API XXH_errorcode XXH32_update(XXH32_state_t* state, size_t len)\n{\n    return 0;\n}\n"
        b"LUA_API int lua_gettop (lua_State *L) {\n  return 0;\n}\n"
    )
    found = [(d.name, d.kind, d.start_line, d.end_line) for d in extract(source, "c").definitions]
    assert found == [("XXH32_update", "function", 1, 4), ("lua_gettop", "function", 5, 7)]


def test_decorators_belong_to_the_definition() -> None:
    source = b"import functools\n\n@functools.cache\n@other\ndef cached(x):\n    return x\n"
    (definition,) = extract(source, "python").definitions
    assert (definition.start_line, definition.end_line, definition.kind) == (3, 6, "function")


def test_ranges_nest_and_are_inclusive() -> None:
    definitions = _defs("auth.py", "python")
    outer = definitions["DigestAuth", "class"]
    inner = definitions["DigestAuth._build_auth_header", "method"]
    assert outer.start_line < inner.start_line <= inner.end_line <= outer.end_line


def test_broken_source_returns_what_was_recovered() -> None:
    source = b"def fine(a):\n    return a\n\ndef broken(:\n    pass\n\nclass Later:\n    def m(self): ...\n"
    extraction = extract(source, "python")
    assert extraction.supported
    assert extraction.parse_errors > 0
    assert {"fine", "Later", "m"} <= {d.name for d in extraction.definitions}


@pytest.mark.parametrize("source", [b"", b"\x00\xff\xfe garbage \x80", "ünïcödé = 1\n".encode(), b"((((((("])
def test_odd_bytes_never_raise(source: bytes) -> None:
    for language in ("python", "javascript", "go", "c", "cpp"):
        assert extract(source, language).supported


def test_a_cpp_class_behind_an_export_macro_and_its_pointer_returning_methods() -> None:  # and a nested one
    """``class LEVELDB_EXPORT DB : public Base {`` is the class ``DB`` (tree-sitter, not expanding the macro, read
    it as a function named ``DB``), and a method returning a pointer or a reference is a method; the lines and
    the file's bytes elsewhere are as written."""
    source = (
        b"namespace leveldb {\nclass LEVELDB_EXPORT DB : public Base {\n public:\n  virtual ~DB();\n"
        b"  virtual Iterator* NewIterator(const ReadOptions& options) = 0;\n  const Snapshot& snap() const;\n};\n"
        b"struct ALIGNED(16) Block { int size; };\nclass DB::Impl {\n  bool Open();\n};\n}\n"
    )
    found = {(d.qualified_name, d.kind, d.start_line) for d in extract(source, "cpp").definitions}
    assert {
        ("leveldb.DB", "class", 2),
        ("leveldb.DB.NewIterator", "method", 5),
        ("leveldb.DB.snap", "method", 6),
        ("leveldb.Block", "struct", 8),
        ("leveldb.DB.Impl", "class", 9),  # a nested class defined outside its enclosing class's body
        ("leveldb.DB.Impl.Open", "method", 10),
    } <= found
    assert not any(kind == "function" for _, kind, _ in found)
    assert readable(source).count(b"\n") == source.count(b"\n") and len(readable(source)) == len(source)


def test_a_cpp_macro_invoked_as_a_statement_outside_functions_is_read_past() -> None:
    """re2's ``DEFINE_FLAG(int, limit, 256 << 10, "...");`` was read as a function whose body ran on to the file's
    next ``}``: every definition up to there was lost or nested inside it. A macro invoked as a statement of its
    own is blanked; one above a body (``TEST(A, B)`` then ``{``) and one that a return type on the line before
    makes a function's name are not."""
    source = (
        b'#include "x.h"\nDEFINE_FLAG(int, stack_limit, 256 << 10,\n            "limit (bytes)");\n'
        b"DEFINE_HOOK(SearchFailure, search_failure)\n\nnamespace re2 {\nint pcre_exec(const pcre*, int) {\n"
        b"  return 0;\n}\nTEST(Parse, Empty)\n{\n  Check();\n}\n}\nint\nFOO(int x);\n"
    )
    found = {(d.qualified_name, d.kind, d.start_line) for d in extract(source, "cpp").definitions}
    assert {("re2", "module", 6), ("re2.pcre_exec", "function", 7), ("re2.TEST", "function", 10)} <= found
    assert not any(name.startswith("DEFINE_") for name, _, _ in found)
    blanked = readable(source)
    assert len(blanked) == len(source) and blanked.count(b"\n") == source.count(b"\n")
    assert b"DEFINE_FLAG" not in blanked and b"TEST(Parse, Empty)" in blanked and b"FOO(int x);" in blanked


def test_the_older_lock_annotations_are_read_past() -> None:
    """leveldb's ``void Lock() EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }`` is the method ``Lock``."""
    source = (
        b"class LOCKABLE Mutex {\n public:\n  void Lock() EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }\n"
        b"  void Unlock() UNLOCK_FUNCTION() { mu_.unlock(); }\n  bool TryLock() EXCLUSIVE_TRYLOCK_FUNCTION(true);\n};\n"
    )
    found = {(d.qualified_name, d.kind) for d in extract(source, "cpp").definitions}
    assert found == {
        ("Mutex", "class"),
        ("Mutex.Lock", "method"),
        ("Mutex.Unlock", "method"),
        ("Mutex.TryLock", "method"),
    }


def test_a_pointer_to_a_function_is_a_field_or_a_global() -> None:
    """leveldb's C API keeps its callbacks as ``const char* (*name_)(void*);``: "where is name_ defined" found
    nothing. A pointer to a function is a field in a struct and a variable outside one, in C and C++; a local
    stays out."""
    source = (
        b"struct S {\n  const char* (*name_)(void*);\n  int (*cb)(int);\n  void (**table)(void);\n};\n"
        b"static int (*hook)(int) = 0;\nint f(void) {\n  int (*local)(int) = 0;\n  return 0;\n}\n"
    )
    for language in ("c", "cpp"):
        found = {(d.qualified_name, d.kind) for d in extract(source, language).definitions}
        assert found == {
            ("S", "struct"), ("S.name_", "field"), ("S.cb", "field"), ("S.table", "field"), ("hook", "variable"),
            ("f", "function"),
        }, language  # fmt: skip


def test_unknown_language_is_unsupported() -> None:
    extraction = extract(b"whatever", "no-such-language")
    assert (extraction.supported, extraction.definitions) == (False, ())
    assert not is_supported("no-such-language")


def test_generic_fallback_for_a_grammar_without_a_query() -> None:
    extraction = extract(b"local function helper(a)\n  return a\nend\nfunction M.run() end\n", "lua")
    assert extraction.supported
    assert [(d.name, d.kind) for d in extraction.definitions][:1] == [("helper", "function")]


def test_data_formats_are_unsupported() -> None:
    assert not extract(b'{"a": 1}', "json").supported


def test_concurrent_extraction_agrees_with_serial() -> None:
    source = (FIXTURES / "auth.py").read_bytes()
    expected = extract(source, "python")
    results: list[object] = []

    def work() -> None:
        results.extend(extract(source, "python") for _ in range(5))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 20 and all(r == expected for r in results)


# (language, ctags kind) -> fourfold kinds meaning the same (benchmarks/structural.py keeps the full map).
_KINDS = {
    ("python", "class"): {"class"}, ("python", "function"): {"function", "method"},
    ("python", "member"): {"method", "function"}, ("python", "variable"): {"variable", "constant", "field"},
    ("javascript", "class"): {"class", "function"}, ("javascript", "function"): {"function", "method"},
    ("javascript", "method"): {"method", "function"},
    ("javascript", "variable"): {"variable", "constant", "function", "class"},
    ("go", "func"): {"function", "method"}, ("go", "struct"): {"struct"}, ("go", "interface"): {"interface"},
    ("go", "type"): {"type"}, ("go", "const"): {"constant"}, ("go", "var"): {"variable"},
    ("go", "member"): {"field"}, ("go", "methodSpec"): {"method"},
}  # fmt: skip
_LANGUAGE = {".py": "python", ".js": "javascript", ".go": "go"}


def test_recall_against_checked_in_ctags() -> None:
    tags = [json.loads(line) for line in (FIXTURES / "ctags.json").read_text().splitlines()]
    extracted = {
        path: extract((FIXTURES / path).read_bytes(), _LANGUAGE[Path(path).suffix]).definitions
        for path in {t["path"] for t in tags}
    }

    def kinds(tag: dict[str, object]) -> set[str]:
        return _KINDS.get((_LANGUAGE[Path(str(tag["path"])).suffix], str(tag["kind"])), set())

    compared = [t for t in tags if kinds(t) and not t["name"].startswith("AnonymousFunction")]
    found = [
        t for t in compared
        if any(d.name == t["name"] and d.start_line <= t["line"] <= d.end_line and d.kind in kinds(t)
               for d in extracted[t["path"]])
    ]  # fmt: skip
    assert len(compared) >= 40
    assert len(found) / len(compared) >= 0.97, [t for t in compared if t not in found]


TS_CALL_SIGNATURES = b"""export interface ActionFactory
    extends Annotation {
    // nameless actions
    <T extends Function | null>(fn: T): T
    // named actions
    <T extends Function | null>(name: string, fn: T): T
    (customName: string): PropertyDecorator &
        Annotation
    bound: Annotation
}

function createActionFactory(auto: boolean): ActionFactory {
    const res = function action(a, b?): any {
        return (auto ? a : b)
    } as ActionFactory
    return res
}
"""


def test_typescript_call_signatures_on_their_own_lines_keep_the_interface_and_the_file() -> None:
    # tree-sitter reads the second signature's "<" as the first one's type arguments: the interface and the
    # function after it were lost (mobx's IActionFactory); each signature is a member of its own, as tsc reads it
    found = {(d.name, d.kind, d.start_line) for d in extract(TS_CALL_SIGNATURES, "typescript").definitions}
    assert {("ActionFactory", "interface", 1), ("createActionFactory", "function", 12)} <= found
    assert extract(TS_CALL_SIGNATURES, "typescript").parse_errors == 0
    separated = typescript_members(TS_CALL_SIGNATURES)
    assert len(separated) == len(TS_CALL_SIGNATURES) and separated.count(b"\n") == TS_CALL_SIGNATURES.count(b"\n")
    assert b"   ;<T extends Function | null>(fn: T): T" in separated
