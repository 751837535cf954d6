"""Turn segments into a directed graph: nodes are segments plus module nodes, edges carry evidence.

Edge kinds: ``import`` (segment holding an import line -> imported definition or module),
``call`` and ``ref`` (segment -> definition it calls or mentions), ``inherit`` (class -> base)
and ``contain`` (definition -> nested definition). Every edge has a weight in (0, 1]: 1 when the
name resolved exactly (a local definition, an import, ``self.m`` found on the class), less
through a base class, and 1/n for each of n candidates when only the member name is known
(``obj.m()`` with ``obj`` of unknown type). Weak candidates are kept, never guessed into one.

Files are not parsed from disk: their text is put back together from the segments (outer
segments hold every line of their range, windows the rest), so the graph needs nothing but the
segments of the shard.
"""

from __future__ import annotations

import builtins
import io
import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from fourfold.plugins.graph.layout import CONFIG_NAMES, Layout, read_layout
from fourfold.plugins.graph.parse import (
    ARRAY,
    COMMONJS_EXPORT,
    CPP_HOLDERS,
    CPP_STD,
    PY_DECLARED,
    PY_MADE,
    RETURNS,
    RUST_SELF,
    SELF_MODULE,
    SUPER,
    UNKNOWN,
    FileFacts,
    Import,
    cs_type_name,
    parse_file,
    supported,
)
from fourfold.plugins.types import Segment

__all__ = ["CLASS_KINDS", "EDGE_KINDS", "EdgeLines", "GraphData", "NodeRecord", "build_graph", "sorted_lines"]

#: Edge kinds, in storage order (the index is what the shard stores).
EDGE_KINDS = ("contain", "import", "call", "ref", "inherit")
CONTAIN, IMPORT, CALL, REF, INHERIT = range(5)

#: Definition kinds whose members are reached through ``self.`` / ``this.`` / ``Type.member``.
CLASS_KINDS = frozenset(
    {"class", "struct", "interface", "trait", "enum", "object", "record", "protocol", "impl", "type", "mixin"}
)
_SELF_NAMES = frozenset({"self", "cls", "this"})
#: Python's built-in names: ``object.__new__(cls)`` or ``dict.get(d, k)`` calls no indexed definition.
_PY_BUILTINS = frozenset(dir(builtins))
#: The public members of Python's built-in values and files: ``parts.append``, ``", ".join``, ``stream.read``,
#: ``headers.items``. Called on a value whose type is not read here, such a name is as likely the built-in's as
#: the one definition of that name the project has (``EchoingStdin.read``).
_PY_BUILT_IN_MEMBERS = frozenset(
    name
    for kind in (str, bytes, list, dict, set, frozenset, tuple, int, float, io.TextIOWrapper, io.BufferedRandom)
    for name in dir(kind)
    if not name.startswith("_")
)
_JS_EXTENSIONS = (".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs")
_JS_FAMILY = frozenset({"javascript", "typescript", "tsx", "jsx"})
#: What a JavaScript function assigned to a property can be a member of: a constructor function
#: (``Suite.prototype.addTest = function``), a class, an object (``var app = exports = module.exports = {}``, then
#: ``app.init = function``).
_JS_OWNERS = frozenset({"function", "class", "variable"})
#: Java definitions a call cannot name (``size()`` is the method, not the field ``size``).
_JAVA_FIELDS = frozenset({"field", "constant", "variable"})
#: Words a C# parameter may carry before its type.
_CS_MODIFIERS = frozenset({"this", "ref", "out", "in", "params", "readonly", "scoped"})


@dataclass(frozen=True)
class _Conversions:
    """What an argument of one type may be passed as, in a language whose overloads are chosen by type."""

    widens: Mapping[str, frozenset[str]]  # a number -> the wider ones it converts to
    supers: frozenset[str]  # what any argument may be passed as (``object``; Java's ``Number``, ``Comparable``…)
    boxes: Mapping[str, str]  # a primitive -> its box (Java)
    built_in: frozenset[str]  # types no class of the repository's can stand for

    def fit(self, argument: str, parameter: str) -> int | None:
        """How well an argument of type ``argument`` fits a parameter of type ``parameter``: 2 the same type, 1 a
        wider number, 0 it may (``object``, boxing; a type of the repository's, which may derive from the
        parameter's; a type not shown), None not at all (a string for an ``int``, a number for a class)."""
        if not argument or not parameter:
            return 0
        if argument == parameter:
            return 2
        if parameter in self.widens.get(argument, ()):
            return 1
        if parameter in self.supers or self.boxes.get(argument) == parameter or self.boxes.get(parameter) == argument:
            return 0
        if argument in self.built_in or parameter in self.built_in:
            return None
        return 0


def _widening(table: Mapping[str, str]) -> dict[str, frozenset[str]]:
    return {number: frozenset(wider.split()) for number, wider in table.items()}


#: C#'s (its predefined types as ``parse.cs_type_name`` spells them).
_CS_CONVERSIONS = _Conversions(
    widens=_widening(
        {
            "sbyte": "short int long float double decimal",
            "byte": "short ushort int uint long ulong float double decimal",
            "short": "int long float double decimal",
            "ushort": "int uint long ulong float double decimal",
            "int": "long float double decimal",
            "uint": "long ulong float double decimal",
            "long": "float double decimal",
            "ulong": "float double decimal",
            "char": "ushort int uint long ulong float double decimal",
            "float": "double",
        }
    ),
    supers=frozenset({"object"}),
    boxes={},
    built_in=frozenset(
        {"sbyte", "byte", "short", "ushort", "int", "uint", "long", "ulong", "char", "float", "double", "decimal"}
        | {"bool", "String"}
    ),
)
#: Java's.
_JAVA_CONVERSIONS = _Conversions(
    widens=_widening(
        {
            "byte": "short int long float double",
            "short": "int long float double",
            "char": "int long float double",
            "int": "long float double",
            "long": "float double",
            "float": "double",
        }
    ),
    supers=frozenset({"Object", "Number", "Comparable", "Serializable", "CharSequence", "Constable"}),
    boxes={
        "byte": "Byte",
        "short": "Short",
        "char": "Character",
        "int": "Integer",
        "long": "Long",
        "float": "Float",
        "double": "Double",
        "boolean": "Boolean",
    },
    built_in=frozenset({"byte", "short", "char", "int", "long", "float", "double", "boolean", "String"}),
)


#: Languages whose names resolve as Java's: packages (C#: namespaces) of classes, imports of a package's classes.
_JAVA_LIKE = frozenset({"java", "csharp"})
#: Kinds of a definition that can be called and return something.
_CALLABLE = frozenset({"function", "method"})
#: C#'s definitions that hold a value of a declared type (``_Builder._typed``).
_CS_VALUES = _JAVA_FIELDS | {"property"}
#: JavaScript's global objects (and Node's): ``Promise.resolve()`` or ``Object.keys()`` calls no indexed definition
#: unless the file binds the name to one.
_JS_GLOBALS = frozenset(
    {
        "Array",
        "ArrayBuffer",
        "BigInt",
        "Boolean",
        "Buffer",
        "DataView",
        "Date",
        "Error",
        "Function",
        "Intl",
        "JSON",
        "Map",
        "Math",
        "Number",
        "Object",
        "Promise",
        "Proxy",
        "RangeError",
        "Reflect",
        "RegExp",
        "Set",
        "String",
        "Symbol",
        "TypeError",
        "URL",
        "URLSearchParams",
        "Uint8Array",
        "WeakMap",
        "WeakSet",
        "console",
        "document",
        "globalThis",
        "navigator",
        "process",
        "window",
    }
)
#: A JavaScript function's own methods that run it: ``f.call(...)``, ``f.apply(...)``, ``f.bind(...)``.
_FUNCTION_CALLERS = frozenset({"call", "apply", "bind"})
#: Rust's own crates: a path into them names no indexed code.
_RUST_STD = frozenset({"std", "core", "alloc"})
#: Where a Rust path starts from a module rather than a name in scope (``crate::a``, ``super::b``, ``self::c``).
_RUST_ANCHORS = frozenset({"crate", "super", RUST_SELF})
#: A member name with more candidate definitions than this resolves to nothing (``get``, ``run``).
MAX_CANDIDATES = 48
#: Weight of an edge found through a base class rather than the class itself.
BASE_WEIGHT = 0.9
#: Weight of an edge from ``self.m()`` to a subclass's override of ``m`` (dynamic dispatch).
OVERRIDE_WEIGHT = 0.5
#: A Rust method called on a local of unknown type (a pattern's binding, ``let x = f()``), or a Python built-in's
#: member's name called on a value of unknown type: as likely the standard library's (``as_ptr``, ``push``, ``len``
#: of a slice or a ``Vec``; ``read`` of a file, ``join`` of a string) as any of the project's of that name, so below a
#: call whose receiver's type is read.
UNTYPED_WEIGHT = 0.5
#: Weight of the inherit edge from a Go type to an interface, or a Python class to a protocol, it satisfies by its
#: methods' names alone.
IMPLEMENTS_WEIGHT = 0.9


@dataclass(frozen=True, slots=True)
class NodeRecord:
    """A graph node: a segment, or a module (``kind`` ``module``: a file, or a Go package folder)."""

    id: str
    repo: str
    path: str
    language: str
    start_line: int
    end_line: int
    symbol: str | None
    kind: str | None
    qualified_name: str | None
    parent: int  # index of the enclosing definition, -1 at top level


#: The evidence lines of one edge: one line, or a set of them (most edges have one; a set costs 200 bytes).
EdgeLines = int | set[int]


def sorted_lines(lines: EdgeLines) -> list[int]:
    """An edge's evidence lines in order."""
    return [lines] if isinstance(lines, int) else sorted(lines)


@dataclass
class GraphData:
    """The graph as built: nodes, aggregated edges ((src, dst, kind) -> weight and lines), notes."""

    nodes: list[NodeRecord]
    edges: dict[tuple[int, int, int], tuple[float, EdgeLines]]
    module_keys: dict[int, str] = field(default_factory=dict)  # module node -> dotted/import name
    notes: list[str] = field(default_factory=list)
    #: (repository, name): a name its code looked up in another repository's module and did not find
    #: (a partition is stale when that repository comes to define it; see ``links.py``)
    misses: set[tuple[str, str]] = field(default_factory=set)
    #: a base no definition of the index answers, by the dotted name it is known by (``Exception``,
    #: ``unittest.TestCase``, ``django.db.models.Model`` for ``models.Model`` after ``from django.db import models``:
    #: :func:`external_name`) -> the classes naming it: "which classes extend Exception" has no node to walk from
    external_bases: dict[str, list[int]] = field(default_factory=dict)

    @property
    def segment_count(self) -> int:
        return sum(1 for n in self.nodes if n.kind != "module")


@dataclass
class _File:
    repo: str
    path: str
    language: str
    node: int  # the module node of this file
    owner: list[int]  # line -> innermost segment node (index 0 unused; -1: none)
    facts: FileFacts
    top: dict[str, list[int]] = field(default_factory=dict)  # top-level definitions by name
    bindings: dict[str, list[Import]] = field(default_factory=dict)  # import alias -> imports
    stars: list[Import] = field(default_factory=list)


Targets = list[tuple[int, float]]


def _module_key_python(path: str) -> list[str]:
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    if parts and parts[-1] == "__init__":
        parts.pop()
    return parts


def _rust_module_key(path: str) -> tuple[str, tuple[str, ...]]:
    """A Rust file's crate root and module path: ``src/hir/mod.rs`` -> ``("src", ("hir",))``,
    ``src/ast/parse.rs`` -> ``("src", ("ast", "parse"))``, ``src/lib.rs`` -> ``("src", ())``; a file outside
    any ``src`` folder (``tests/api.rs``, ``benches/b.rs``) is a crate of its own."""
    parts = path.split("/")
    folders = parts[:-1]
    if "src" not in folders:
        return path, ()
    cut = len(folders) - 1 - folders[::-1].index("src")
    rel = parts[cut + 1 :]
    stem = rel[-1].rsplit(".", 1)[0]
    return "/".join(parts[: cut + 1]), tuple(rel[:-1]) + (() if stem in ("lib", "main", "mod") else (stem,))


def _file_text(segs: list[Segment]) -> str:
    """A file's text put back together from its segments (every line lies in some segment)."""
    size = max(s.end_line for s in segs)
    lines = [""] * size
    for seg in segs:
        for offset, text in enumerate(seg.content.split("\n")[: seg.end_line - seg.start_line + 1]):
            lines[seg.start_line - 1 + offset] = text
    return "\n".join(lines)


def _distinct(targets: Targets) -> Targets:
    """``targets`` once each, at the best weight found, in first-found order. A barrel file re-exporting
    every module of a package (``export * from './a'`` ...), imported by each of them, reaches one definition
    by many paths: kept as found, each star search multiplied the list (indexing mobx grew past 16 GB)."""
    if len(targets) < 2:
        return targets
    best: dict[int, float] = {}
    for node, weight in targets:
        if weight > best.get(node, -1.0):
            best[node] = weight
    return list(best.items())


def _ts_implementations(segs: list[Segment]) -> dict[str, str]:
    """A TypeScript file's overload signatures -> the implementation each declares: the last function or
    method of its name in its scope with a body (``function timeout(config: TimeoutConfig): …;`` twice,
    then the body). What a signature names is the implementation's use: "what depends on TimeoutConfig" is ``timeout``'s
    body, not a one-line signature of it. A signature is a definition whose text does not end in a body's
    ``}``; a run of signatures with no body (an interface's, an abstract method's) stays as it is."""
    runs: dict[tuple[str | None, str], list[Segment]] = defaultdict(list)
    for seg in segs:
        if seg.symbol is not None and seg.kind in ("function", "method"):
            runs[(seg.parent_id, seg.symbol)].append(seg)
    out: dict[str, str] = {}
    for run in runs.values():
        bodies = {seg.id: seg.start_line for seg in run if seg.content.rstrip().endswith("}")}
        if len(run) > 1 and bodies:  # a getter and its setter both have bodies: neither folds
            last = max(bodies, key=bodies.__getitem__)
            out.update((seg.id, last) for seg in run if seg.id not in bodies)
    return out


def _parameters_written(name: str, signature: str, opening: str, closing: str) -> tuple[list[str], bool, str] | None:
    """The parameters the signature of the function ``name`` writes, split at the commas outside the ``opening`` and
    ``closing`` brackets: each one's text outside them, whether any is written at all, and the signature after
    ``name(``; None when the list is not there or not closed."""
    match = re.search(rf"\b{re.escape(name)}\s*\(", signature)
    if match is None:
        return None
    rest = signature[match.end() :]
    depth, seen, current = 0, False, ""
    texts: list[str] = []
    for ch in rest:
        if ch in opening:
            depth += 1
        elif ch in closing:
            if depth == 0:
                return ([*texts, current] if seen else texts), seen, rest
            depth -= 1
        elif ch == "," and depth == 0:
            texts.append(current)
            current = ""
            continue
        elif not ch.isspace():
            seen = True
        if depth == 0:
            current += ch
    return None


def _csharp_parameters(name: str, signature: str) -> tuple[int, int, str | None, tuple[str, ...]] | None:
    """The least and most arguments a call of the C# method ``name`` passes, from its signature
    (``public int Read(byte[] buffer, int offset = 0, params object[] rest)``: (1, unbounded)); for an
    extension method the name of the type it extends (``Words(this string text, int max)``: (1, 1, "String"),
    its receiver not among the arguments); and its parameters' types, spelled as a call's argument types are
    (``parse.cs_type_name``; "" for an array, a generic parameter's or one not shown: any argument may be it).
    None when the signature does not show the list."""
    for _ in range(3):  # ``Convert<TKey, List<T>>(``: its type parameters, nested, out of the way
        signature = re.sub(r"<[^<>()]*>", "", signature)
    written = _parameters_written(name, signature, "(<[", ")>]")
    if written is None:
        return None
    texts, seen, _ = written
    if not seen:
        return 0, 0, None, ()
    words = [t.split() for t in texts]
    extends = None
    if words and words[0][:1] == ["this"] and len(words[0]) >= 2:
        extends = words[0][1].split(".")[-1].rstrip("?")
        extends = "String" if extends == "string" else extends  # as the reader spells a string's type
        words = words[1:]
        texts = texts[1:]
    least = sum(1 for w in words if w[:1] != ["params"] and "=" not in " ".join(w))
    most = (1 << 30) if any(w[:1] == ["params"] for w in words) else len(words)
    types: list[str] = []
    for text in texts:
        typed = [w for w in text.split("=")[0].split() if not w.startswith("]") and w not in _CS_MODIFIERS]
        typ = typed[-2] if len(typed) >= 2 else ""
        types.append("" if not typ or typ.endswith("]") or len(typ) == 1 else cs_type_name(typ))
    return least, most, extends, tuple(types)


def _namespaces(f: _File) -> list[str]:
    """The C# file ``f``'s namespace and those enclosing it, innermost first (``A.B.C``, ``A.B``, ``A``)."""
    parts = f.facts.package.split(".") if f.facts.package else []
    return [".".join(parts[:cut]) for cut in range(len(parts), 0, -1)]


def _java_parameters(name: str, signature: str) -> tuple[int, bool, tuple[str, ...]] | None:
    """A Java method's number of parameters, whether the last is varargs, and their types as the signature writes
    them (``public static byte[] encodeBase64(final byte[] data, final boolean chunked)``: (2, False, ("",
    "boolean")); ``List<String> names``: ``List``; "" for an array, varargs, a type parameter's); None when the
    signature does not show them."""
    written = _parameters_written(name, signature, "(<[", ")>]")
    if written is None:
        return None
    texts, seen, rest = written
    types: list[str] = []
    for text in texts if seen else []:
        words = text.split()
        typ = words[-2] if len(words) >= 2 else ""
        shown = not (typ.endswith("]") or "..." in typ or len(typ.rstrip(">")) <= 1)
        types.append(typ.rstrip(">").rsplit(".", 1)[-1] if shown else "")
    return len(types), "..." in rest, tuple(types)


#: A C++ field's or variable's signature: its type (a qualified name, a template's arguments apart), the name after.
_CPP_DECLARED = re.compile(
    r"\s*(?:(?:static|const|mutable|volatile|inline|constexpr|extern|thread_local|struct|class|typename)\s+)*"
    r"((?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)\s*(<.*>)?[\s*&]*(?:const\s+)?[A-Za-z_]\w*\s*(?:[\[=;{(,]|$)"
)
_CPP_BUILTINS = frozenset(
    {"int", "char", "bool", "float", "double", "void", "long", "short", "unsigned", "signed", "size_t", "auto"}
)
#: Source files (not headers) of C and C++: their static names, types and macros are their own.
_C_SOURCES = (".c", ".cc", ".cpp", ".cxx", ".c++", ".C")


def _dotted_suffix(qualified: str | None, parts: list[str] | tuple[str, ...]) -> bool:
    """Whether the dotted ``qualified`` name ends with ``parts`` (``geo.Circle`` ends with ``Circle``)."""
    tail = ".".join(parts)
    return qualified == tail or (qualified or "").endswith("." + tail)


def _cpp_parameter_text(signature: str) -> str:
    """A C++ signature's parameters as written, spaces aside (``void Mutex::Lock()`` and ``void Mutex::Lock( )``
    alike); the whole signature where it has no parentheses."""
    return re.sub(r"\s+", "", signature[signature.find("(") :] if "(" in signature else signature)


def _cpp_parameters(name: str, signature: str) -> tuple[int, int] | None:
    """The least and the most arguments a call of the C++ function ``name`` passes, from its signature
    (``Status Get(const ReadOptions& options, const Slice& key, std::string* value = nullptr)``: (2, 3); a
    ``...`` takes any number more); None when the signature does not show them."""
    written = _parameters_written(name, signature, "(<[{", ")>]}")
    if written is None:
        return None
    texts, _, rest = written
    count, defaults = len(texts), sum("=" in text for text in texts)
    if count == 1 and texts[0].strip() == "void":
        return 0, 0  # ``f(void)``
    if "..." in rest:  # ``fmt, ...`` or a pack (``Args&&... args``): any number
        return count - defaults - 1, 1 << 16
    return count - defaults, count


def _python_parameters(name: str, signature: str) -> tuple[int, int] | None:
    """The least and the most positional arguments a call of the Python method ``name`` passes, its ``self`` or
    ``cls`` left out, from its signature (``def search(self, query, k=10, *, deadline=None)``: (1, 2); ``*args``
    takes any number more); None when the signature does not show them."""
    written = _parameters_written(name, signature, "([{", ")]}")
    if written is None:
        return None
    texts = [t.strip() for t in written[0] if t.strip() and t.strip() != "/"]
    if texts and re.match(r"(?:self|cls)\b", texts[0]):
        texts = texts[1:]
    least = most = 0
    for text in texts:
        if text.startswith("**"):
            break
        if text.startswith("*"):  # ``*args``: any number more; a bare ``*``: keyword-only after it
            return least, most + (1 << 16) * (text != "*")
        most += 1
        least += "=" not in text
    return least, most


def _go_shape(name: str, signature: str) -> tuple[int, int] | None:
    """How many parameters and results the Go method ``name`` has, from its signature (``func (f *File) Write(p
    []byte) (n int, err error)`` or an interface's ``Write(p []byte) (int, error)``: (1, 2); ``a, b int`` is two
    parameters, ``...string`` one); None when the signature does not show them. A type satisfies an interface only
    with methods of identical signatures, so two of different shapes never match."""
    written = _parameters_written(name, signature, "([{", ")]}")
    if written is None:
        return None
    texts, seen, rest = written
    results = rest[_closing(rest) + 1 :].strip().removesuffix("{").strip()
    if results.startswith("("):  # ``(n int, err error)``: the commas outside any inner brackets
        inner = results[1 : 1 + _closing(results[1:])]
        count = 1 + sum(ch == "," for ch, depth in _depths(inner) if depth == 0)
    else:
        count = 1 if results else 0
    return len(texts) if seen else 0, count


def _depths(text: str) -> Iterator[tuple[str, int]]:
    """Each character of ``text`` with how many brackets are open around it, a bracket itself at the depth outside
    it (-1: it closes one opened before ``text``)."""
    depth = 0
    for ch in text:
        depth -= ch in ")]}"
        yield ch, depth
        depth += ch in "([{"


def _closing(text: str) -> int:
    """Where the bracket opened before ``text`` closes in it (its length when it does not)."""
    return next((i for i, (_, depth) in enumerate(_depths(text)) if depth < 0), len(text))


def _is_typing_protocol(chain: tuple[str, ...]) -> bool:
    """Whether a Python base names ``typing.Protocol`` (``Protocol``, ``typing.Protocol``, ``t.Protocol``, the
    subscript already read past), not a class of that name elsewhere (``asyncio.Protocol``, a base to extend)."""
    return chain[-1] == "Protocol" and (len(chain) == 1 or chain[-2] in ("typing", "typing_extensions", "t"))


def external_name(chain: tuple[str, ...], bindings: Mapping[str, Sequence[Import]]) -> str:
    """The dotted name a base that no definition answers is known by: its first part read through the file's one
    import of it (``models.Model`` after ``from django.db import models``: ``django.db.models.Model``;
    ``React.Component`` after ``import React from 'react'``: ``react.Component``), else as written (``Exception``)."""
    imports = bindings.get(chain[0], ())
    if len(imports) != 1 or not imports[0].module or imports[0].module.startswith("."):
        return ".".join(chain)  # a relative module would have resolved; two imports of a name: which is unknown
    imp = imports[0]
    member = (imp.name,) if imp.name and imp.name not in ("default", "*") else ()
    return ".".join((imp.module, *member, *chain[1:]))


def _join_js(folder: str, target: str) -> str:
    return posixpath.normpath(posixpath.join(folder, target)) if folder else posixpath.normpath(target)


class _Builder:
    def __init__(self, segments: Iterable[Segment]) -> None:
        self.nodes: list[NodeRecord] = []
        self.edges: dict[tuple[int, int, int], tuple[float, EdgeLines]] = {}
        self.files: dict[tuple[str, str], _File] = {}
        self.children: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
        self.members: dict[str, list[int]] = defaultdict(list)  # member name -> definitions
        self.bases: dict[int, Targets] = {}
        self.external_bases: dict[str, list[int]] = defaultdict(list)  # an unresolved base's name -> its classes
        self.subclasses: dict[int, list[int]] = defaultdict(list)
        # Python's ``@overload`` declarations: a call runs the implementation after them, never one of these
        self.py_overloads: set[int] = set()
        self.module_files: dict[int, list[_File]] = {}  # module node -> its files (a Go package: several)
        self.module_keys: dict[int, str] = {}
        self.py_keys: dict[str, list[int]] = defaultdict(list)
        self.go_dirs: dict[str, list[int]] = defaultdict(list)  # "repo/dir" suffix -> package nodes
        self.java_packages: dict[str, list[int]] = defaultdict(list)  # Java package name -> its nodes, a repo each
        self._java_nodes: dict[tuple[str, str], int] = {}  # (repo, package) -> its node
        # a method -> its file and declared return type (Java, Python); a C# field or property -> its declared type
        self.declared_returns: dict[int, tuple[_File, tuple[str, ...]]] = {}
        self.java_params: dict[int, tuple[int, bool]] = {}  # method -> its parameters' count, whether varargs
        self.layout = Layout()  # package_dir, go.mod, package.json, tsconfig: read from the segments
        self.py_packages: dict[str, set[str]] = {}  # repo -> its top-level Python package names
        self.go_types: dict[tuple[int, str], int] = {}  # (package node, type name) -> type definition
        self.go_receivers: dict[int, tuple[str, int]] = {}  # method node -> (receiver var, type node)
        self.go_shapes: dict[int, tuple[int, int]] = {}  # Go method (an interface's too) -> its parameters, results
        self.py_protocols: set[int] = set()  # Python classes deriving from ``typing.Protocol``
        self.py_params: dict[int, tuple[int, int]] = {}  # Python method -> its positional arguments' least, most
        self.js_files: dict[tuple[str, str], int] = {}
        self.rust_modules: dict[tuple[str, str, tuple[str, ...]], int] = {}  # (repo, crate root, path) -> module
        self.rust_module_of: dict[int, tuple[str, tuple[str, ...]]] = {}  # module node -> (crate root, path)
        self.rust_types: dict[tuple[str, str], list[int]] = defaultdict(list)  # (repo, name) -> its types, impls
        self.c_names: dict[tuple[str, str], list[int]] = defaultdict(list)  # (repo, name) -> C's top-level names
        self.c_local: set[int] = set()  # C definitions no other file sees (a .c file's static, type or macro)
        self.c_paths: dict[tuple[str, str], list[str]] = defaultdict(list)  # (repo, file name) -> C files' paths
        self._c_closure: dict[tuple[str, str], frozenset[str]] = {}  # a C file -> the paths it includes, transitively
        self.cpp_names: dict[tuple[str, str], list[int]] = defaultdict(list)  # (repo, name) -> C++ definitions
        self.cpp_signatures: dict[int, str] = {}  # a C++ method, field or variable -> its signature
        self.cpp_outside: list[tuple[_File, int]] = []  # ``Circle::area`` defined outside its class's body
        self.js_outside: list[tuple[_File, int]] = []  # ``Suite.prototype.addTest = function``, ``Suite.create = …``
        self.js_classes: set[int] = set()  # JavaScript constructor functions: a function with methods attached
        self.param_types: dict[int, tuple[str, ...]] = {}  # Java or C# method -> its parameters' types
        self.partials: dict[int, tuple[int, ...]] = {}  # a C# partial class -> all its parts, itself among them
        # a name -> the C# extension methods so named (``static int Words(this string text)``), each with the
        # name of the type it extends
        self.extensions: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self.param_ranges: dict[int, tuple[int, int]] = {}  # a C++ or C# function -> its least and most arguments
        self._cpp_functions: dict[int, tuple[str | None, str]] = {}  # a C++ definition -> its name and parameters
        self.repo_of_name: dict[str, str] = {}
        self._binding_cache: dict[tuple[int, str], Targets] = {}
        self._fallback_cache: dict[tuple[str, frozenset[str]], list[int]] = {}
        self.notes: list[str] = []
        self.misses: set[tuple[str, str]] = set()
        self._load(segments)

    # --- indexing -----------------------------------------------------------------------------

    def _load(self, segments: Iterable[Segment]) -> None:
        by_file: dict[tuple[str, str], list[Segment]] = defaultdict(list)
        for seg in segments:
            by_file[(seg.repo, seg.path)].append(seg)
        configs = {key: _file_text(segs) for key, segs in by_file.items() if posixpath.basename(key[1]) in CONFIG_NAMES}
        self.layout = read_layout(configs)
        self.notes.extend(self.layout.notes)
        self.py_packages = {repo: set(names) for repo, names in self.layout.python_packages.items()}
        index_of: dict[str, int] = {}
        skipped: dict[str, int] = defaultdict(int)
        for (repo, path), segs in sorted(by_file.items()):
            segs.sort(key=lambda s: (s.start_line, -s.end_line))
            for seg in segs:
                index_of[seg.id] = len(self.nodes)
                self.nodes.append(
                    NodeRecord(
                        seg.id,
                        seg.repo,
                        seg.path,
                        seg.language,
                        seg.start_line,
                        seg.end_line,
                        seg.symbol,
                        seg.kind,
                        seg.qualified_name,
                        -1,
                    )
                )
            for seg in segs:
                if seg.parent_id is not None and seg.parent_id in index_of:
                    i = index_of[seg.id]
                    rec = self.nodes[i]
                    parent = index_of[seg.parent_id]
                    self.nodes[i] = NodeRecord(
                        rec.id,
                        rec.repo,
                        rec.path,
                        rec.language,
                        rec.start_line,
                        rec.end_line,
                        rec.symbol,
                        rec.kind,
                        rec.qualified_name,
                        parent,
                    )
                    self._edge(parent, i, CONTAIN, 1.0, seg.start_line)
            language = segs[0].language
            if not supported(language):
                skipped[language] += 1
            self._add_file(repo, path, language, segs, index_of)
        for language, count in sorted(skipped.items()):
            self.notes.append(f"{count} {language} files: definitions and containment only (no import/call reader)")

    def _add_file(self, repo: str, path: str, language: str, segs: list[Segment], index_of: dict[str, int]) -> None:
        size = max(s.end_line for s in segs)
        lines = [""] * size
        owner = [-1] * (size + 1)
        implementation = _ts_implementations(segs) if language in ("typescript", "tsx") else {}
        for seg in sorted(segs, key=lambda s: s.start_line - s.end_line):  # outermost first
            node = index_of[implementation.get(seg.id, seg.id)]
            for offset, text in enumerate(seg.content.split("\n")[: seg.end_line - seg.start_line + 1]):
                lines[seg.start_line - 1 + offset] = text
            for line in range(seg.start_line, seg.end_line + 1):
                owner[line] = node
        facts = parse_file("\n".join(lines).encode("utf-8", "surrogateescape"), language)
        if language == "go":
            module = self._go_package(repo, posixpath.dirname(path))
        elif language in _JAVA_LIKE:
            module = self._java_package(repo, posixpath.dirname(path), facts.package, language)
        elif language == "rust":
            module = self._rust_file_module(repo, path)
        else:
            module = self._module_node(repo, path, language, path)
        f = _File(repo, path, language, module, owner, facts)
        self.files[(repo, path)] = f
        self.module_files.setdefault(module, []).append(f)
        for seg in segs:
            node = index_of[seg.id]
            if seg.symbol is None:
                continue
            rec = self.nodes[node]
            if rec.parent < 0:
                f.top.setdefault(seg.symbol, []).append(node)
                if language in _JS_FAMILY and rec.kind == "function" and "." in (rec.qualified_name or ""):
                    self.js_outside.append((f, node))
            else:
                self.children[rec.parent][seg.symbol].append(node)
                if self.nodes[rec.parent].kind in CLASS_KINDS:
                    self.members[seg.symbol].append(node)
                elif language == "csharp" and self.nodes[rec.parent].kind == "module":  # a namespace block's class
                    f.top.setdefault(seg.symbol, []).append(node)
            if language == "go" and rec.kind in CLASS_KINDS:
                self.go_types.setdefault((module, seg.symbol), node)
            elif language == "rust" and rec.kind in CLASS_KINDS:  # a type and its impl blocks share its name
                self.rust_types[(repo, seg.symbol)].append(node)
            elif language == "c":
                self._c_definition(f, node, seg.signature or "")
            elif language == "cpp":
                self._cpp_definition(f, node, seg)
            elif language == "go" and rec.kind == "method" and seg.signature:
                shape = _go_shape(seg.symbol, seg.signature)
                if shape is not None:
                    self.go_shapes[node] = shape
            elif language == "python" and rec.kind == "method" and seg.signature:
                arguments = _python_parameters(seg.symbol, seg.signature)
                if arguments is not None:
                    self.py_params[node] = arguments
            elif language == "java" and rec.kind == "method" and seg.signature:
                params = _java_parameters(seg.symbol, seg.signature)
                if params is not None:
                    count, varargs, types = params
                    self.java_params[node] = (count, varargs)
                    if any(types):
                        self.param_types[node] = types
            elif language == "csharp" and rec.kind == "method" and seg.signature:
                written = _csharp_parameters(seg.symbol, seg.signature)
                if written is not None:
                    least, most, extends, types = written
                    self.param_ranges[node] = (least, most)
                    if any(types):
                        self.param_types[node] = types
                    if extends is not None:
                        self.extensions[seg.symbol].append((node, extends))
        if language in ("c", "cpp"):
            self.c_paths[(repo, posixpath.basename(path))].append(path)
        for imp in facts.imports:
            if imp.alias == "*" or imp.alias == ".":
                f.stars.append(imp)
            elif imp.alias:
                f.bindings.setdefault(imp.alias, []).append(imp)
        if language == "python":
            parts = _module_key_python(path)
            for i in range(len(parts)):
                self.py_keys[".".join(parts[i:])].append(f.node)
            self.module_keys[f.node] = ".".join(parts)
            for key in self._mapped_python_keys(repo, path):
                if f.node not in self.py_keys[key]:
                    self.py_keys[key].append(f.node)
            if path.endswith("/__init__.py") and posixpath.dirname(posixpath.dirname(path)) in ("", "src"):
                self.py_packages.setdefault(repo, set()).add(posixpath.basename(posixpath.dirname(path)))
        elif language in _JS_FAMILY:
            self.js_files[(repo, path)] = f.node
        for line, returned in facts.returns:
            node = owner[line] if line < len(owner) else -1
            if node >= 0 and self.nodes[node].kind not in CLASS_KINDS:  # its segment may start at its doc comment
                self.declared_returns.setdefault(node, (f, returned))

    def _c_definition(self, f: _File, node: int, signature: str) -> None:
        """Index a C definition by name: a top-level one, or an enumerator (whose name is the file's, not its
        enum's)."""
        rec = self.nodes[node]
        if rec.parent >= 0 and not (rec.kind == "constant" and self.nodes[rec.parent].kind == "enum"):
            return
        if rec.parent >= 0:
            f.top.setdefault(rec.symbol or "", []).append(node)
        self._c_global(f, node, signature)

    def _c_global(self, f: _File, node: int, signature: str) -> None:
        """A C (or C++ namespace-level) name: a source file's static function or variable, and its types and
        macros, are its own; a header's are every includer's."""
        rec = self.nodes[node]
        self.c_names[(f.repo, rec.symbol or "")].append(node)
        static = "static" in signature.split("(")[0].split()
        if f.path.endswith(_C_SOURCES) and (static or rec.kind not in ("function", "variable")):
            self.c_local.add(node)

    def _cpp_definition(self, f: _File, node: int, seg: Segment) -> None:
        """Index a C++ definition: every one by name (a qualified name finds it), one at namespace level as C's
        (``_c_definition``), and one written outside its class's body (``Circle::area``) for ``_cpp_attach``."""
        rec = self.nodes[node]
        symbol = rec.symbol or ""
        self.cpp_names[(f.repo, symbol)].append(node)
        if rec.kind in ("method", "field", "variable", "function", "constant"):
            self.cpp_signatures[node] = seg.signature or ""
        if rec.kind in ("method", "function") and seg.signature:
            params = _cpp_parameters(symbol, seg.signature)
            if params is not None:
                self.param_ranges[node] = params
        parent = rec.parent
        while parent >= 0 and self.nodes[parent].kind == "module":  # a namespace
            parent = self.nodes[parent].parent
        if parent >= 0 and not (rec.kind == "constant" and self.nodes[parent].kind == "enum"):
            return
        scope = (self.nodes[rec.parent].qualified_name or "") if rec.parent >= 0 else ""
        written = (rec.qualified_name or "")[len(scope) :].strip(".").split(".")
        if len(written) > 1 and rec.kind in ("function", "method"):
            self.cpp_outside.append((f, node))  # a class's member, or a namespace's function (``ns::f``)
            return
        if rec.parent >= 0:
            f.top.setdefault(symbol, []).append(node)
        self._c_global(f, node, seg.signature or "")
        if any(first <= rec.start_line <= last for first, last in f.facts.hidden):
            self.c_local.add(node)  # in an anonymous namespace: the file's own, as a static is

    def _cpp_attach(self) -> None:
        """Make each C++ definition written outside its class's body (``double Circle::area() const {``) that
        class's member, contained by it (an impact of the class reaches it; an overload calling it is the class's
        own), in place of the declaration the body has for it (of the same name and a number of parameters it
        takes); a definition whose qualifier names no class (``geo::helper``) is a namespace's, seen as C sees a
        name."""
        for f, node in self.cpp_outside:
            rec = self.nodes[node]
            symbol = rec.symbol or ""
            qualifier = (rec.qualified_name or "").split(".")[:-1]
            classes = [
                c
                for c in self.cpp_names.get((f.repo, qualifier[-1]), ())
                if self.nodes[c].kind in CLASS_KINDS and _dotted_suffix(self.nodes[c].qualified_name, qualifier)
            ]
            if not classes:
                f.top.setdefault(symbol, []).append(node)
                self._c_global(f, node, self.cpp_signatures.get(node, ""))
                continue
            cls = min(classes, key=lambda c: (self.nodes[c].qualified_name != ".".join(qualifier), c))
            if rec.parent >= 0:  # the namespace it is written in contains it no longer: its class does
                self.edges.pop((rec.parent, node, CONTAIN), None)
            self.nodes[node] = replace(rec, parent=cls)
            self._edge(cls, node, CONTAIN, 1.0, rec.start_line)
            top = f.top.get(symbol)
            if top and node in top:  # written at file level, it is the class's, not the file's
                top.remove(node)
            arity = self.param_ranges.get(node)
            declared = self.children[cls][symbol]
            for decl in list(declared):
                if decl == node or self.nodes[decl].kind != "method":
                    continue
                signature = self.cpp_signatures.get(decl, "")
                if not signature.rstrip().endswith(";"):
                    continue  # a body of its own: an overload
                other = self.param_ranges.get(decl)
                if arity is not None and other is not None and not other[0] <= arity[1] <= other[1]:
                    continue
                declared.remove(decl)
                if decl in self.param_ranges:  # its default arguments are written where it is declared
                    self.param_ranges[node] = self.param_ranges[decl]
                if decl in self.members[symbol]:
                    self.members[symbol].remove(decl)
                names = self.cpp_names[(f.repo, symbol)]
                if decl in names:
                    names.remove(decl)
            declared.append(node)
            self.members[symbol].append(node)

    def _js_attach(self) -> None:
        """Make each JavaScript function assigned to a property of a function, class or variable of its file
        (``Suite.prototype.addTest = function (test) {}``, ``Suite.create = function``, ``app.init = function`` on
        ``var app = {}``) that one's member, contained by it: the function (or object) is then a class,
        ``this.addTest()`` inside it or its methods and ``suite.addTest()`` on a value of unknown type reach the
        method, as a class's own would. A qualifier that is none of the file's (``exports.send``) changes nothing."""
        for f, node in self.js_outside:
            rec = self.nodes[node]
            symbol = rec.symbol or ""
            qualifier = (rec.qualified_name or "").split(".")[:-1]
            if len(qualifier) != 1:
                continue
            owners = [c for c in f.top.get(qualifier[0], ()) if c != node and self.nodes[c].kind in _JS_OWNERS]
            if len(owners) != 1:
                continue
            cls = owners[0]
            self.nodes[node] = replace(rec, parent=cls)
            self._edge(cls, node, CONTAIN, 1.0, rec.start_line)
            # it stays among the file's names too: ``require("./suite")`` is the module, whose ``Suite.create`` is
            # found there (``module.exports = Suite`` is not followed)
            self.children[cls][symbol].append(node)
            self.members[symbol].append(node)
            if self.nodes[cls].kind not in CLASS_KINDS:
                self.js_classes.add(cls)

    def _mapped_python_keys(self, repo: str, path: str) -> list[str]:
        """Module names ``path`` has under the repository's ``package_dir`` mappings."""
        out = []
        for root in self.layout.python_roots:
            if root.repo != repo or (root.folder and not path.startswith(root.folder + "/")):
                continue
            parts = _module_key_python(path[len(root.folder) + 1 :] if root.folder else path)
            key = ".".join(p for p in (root.prefix, *parts) if p)
            if key:
                out.append(key)
        return out

    def _module_node(self, repo: str, path: str, language: str, key: str) -> int:
        node = len(self.nodes)
        self.nodes.append(NodeRecord(f"module:{repo}:{key}", repo, path, language, 1, 1, None, "module", key, -1))
        return node

    def _go_package(self, repo: str, folder: str) -> int:
        key = f"{repo}/{folder}".rstrip("/")
        for node in self.go_dirs.get(key, ()):
            if self.nodes[node].repo == repo:
                return node
        node = self._module_node(repo, folder, "go", folder or ".")
        parts = key.split("/")
        for i in range(len(parts)):
            self.go_dirs["/".join(parts[i:])].append(node)
        self.module_keys[node] = key
        return node

    def _rust_file_module(self, repo: str, path: str) -> int:
        root, mods = _rust_module_key(path)
        node = self._module_node(repo, path, "rust", "::".join(("crate", *mods)))
        self.rust_modules.setdefault((repo, root, mods), node)
        self.rust_module_of[node] = (root, mods)
        self.module_keys[node] = "::".join((root, *mods))
        return node

    def _java_package(self, repo: str, folder: str, package: str, language: str) -> int:
        """The node of a Java package (a C# namespace): one per repository and package name, whatever folders
        its files lie in (``src/main/java/a/b`` and ``src/test/java/a/b`` see each other's classes); a file that
        declares no package is its folder's."""
        key = (repo, package or "/" + folder)
        node = self._java_nodes.get(key)
        if node is None:
            node = self._java_nodes[key] = self._module_node(repo, folder, language, folder or ".")
            self.module_keys[node] = package or folder
            if package:
                self.java_packages[package].append(node)
        return node

    def _edge(self, src: int, dst: int, kind: int, weight: float, line: int) -> None:
        key = (src, dst, kind)
        old = self.edges.get(key)
        if old is None:
            self.edges[key] = (weight, line)  # most edges have one line: a set only from the second on
            return
        best, lines = old
        if isinstance(lines, int):
            if lines == line:
                if weight > best:
                    self.edges[key] = (weight, line)
                return
            lines = {lines, line}
        else:
            lines.add(line)
        self.edges[key] = (max(best, weight), lines)

    # --- resolution ---------------------------------------------------------------------------

    def build(self) -> GraphData:
        for f in self.files.values():
            if f.language == "go":
                self._go_methods(f)
            elif f.language == "python":
                self._python_overloads(f)
        self._csharp_partials()
        self._cpp_attach()
        self._js_attach()
        for f in self.files.values():
            for base in f.facts.bases:
                cls = self._definition_at(f, base.class_line)
                if cls < 0:
                    continue
                if f.language == "python" and _is_typing_protocol(base.chain):
                    self.py_protocols.add(cls)
                scope = self.nodes[cls].parent if f.language in _JAVA_LIKE else cls  # Java: named around the class
                targets = [(t, w) for t, w in self._resolve_chain(f, scope, base.chain, False) if t != cls]
                if not targets and base.chain and base.chain[-1] != self.nodes[cls].symbol:
                    self.external_bases[external_name(base.chain, f.bindings)].append(cls)
                self.bases.setdefault(cls, []).extend(targets)
                for target, weight in targets:
                    self.subclasses[target].append(cls)
                    self._edge(cls, target, INHERIT, weight, base.line)
        self._go_implementations()  # after the bases: an embedded struct's methods are promoted
        self._python_protocols()  # ... and a Python class's inherited methods are its own
        for f in self.files.values():
            self._imports(f)
            # a scope names the same chain many times (``self.assertEqual``, ``os.path.join``): resolved once
            resolved: dict[tuple[int, tuple[str, ...], bool], Targets] = {}
            for ref in f.facts.references:
                src = f.owner[ref.line] if ref.line < len(f.owner) else -1
                if src < 0:
                    continue
                kind = CALL if ref.call else REF
                scope = src
                if ref.decorator and self.nodes[src].parent >= 0:
                    scope = self.nodes[src].parent  # a decorator runs in the scope around its definition
                    if self.nodes[scope].kind in _CALLABLE:
                        src = scope  # ... which is what runs it: a test defining a decorated command
                key = (scope, ref.chain, ref.local)
                meant = resolved.get(key)
                if meant is None:
                    meant = resolved[key] = self._resolve_chain(f, scope, ref.chain, ref.local)
                if self.py_overloads and len(meant) > 1:  # the implementation, not its ``@overload`` declarations
                    meant = [(t, w) for t, w in meant if t not in self.py_overloads] or meant
                if ref.call and f.language in ("java", "csharp", "rust"):  # a call names a method, not a field
                    meant = [(t, w) for t, w in meant if self.nodes[t].kind not in _JAVA_FIELDS] or meant
                elif f.language == "rust" and len(ref.chain) > 1:  # ``x.len`` uncalled: a field, never a method
                    meant = [(t, w) for t, w in meant if self.nodes[t].kind in _JAVA_FIELDS] or meant
                if not meant and ref.call and f.language == "csharp" and len(ref.chain) > 1:
                    # ``"a b".Words()``, ``items.Shuffle()``: a member no indexed class has, on a value of a type
                    # no indexed code defines (``string``, ``IEnumerable<T>``), is an extension method of its name
                    meant = self._extension(ref.chain)
                if ref.arity >= 0 and len(meant) > 1:  # of a method's overloads, those its arguments fit
                    meant = [(t, w) for t, w in meant if self._fits(t, ref.arity)] or meant
                if ref.types and len(meant) > 1:  # of those, the ones whose parameters its arguments fit best
                    conversions = _JAVA_CONVERSIONS if f.language == "java" else _CS_CONVERSIONS
                    meant = self._by_argument_types(meant, ref.types, conversions)
                for target, weight in meant:
                    self._edge(src, target, kind, weight, ref.line)
        return GraphData(self.nodes, self.edges, self.module_keys, self.notes, self.misses, dict(self.external_bases))

    def _python_overloads(self, f: _File) -> None:
        """The definitions of ``f`` under ``@overload`` (``typing.overload``, ``t.overload``): declarations of the
        signatures the implementation after them accepts (click's three ``get_current_context``)."""
        for ref in f.facts.references:
            if ref.decorator and ref.chain[-1] == "overload" and ref.line < len(f.owner) and f.owner[ref.line] >= 0:
                self.py_overloads.add(f.owner[ref.line])

    def _csharp_partials(self) -> None:
        """A C# class declared ``partial`` in several files (or blocks) is one class: each part's members are
        every part's (a designer file's fields, the code's methods)."""
        parts: dict[tuple[str, str], list[int]] = defaultdict(list)
        for node, rec in enumerate(self.nodes):
            if rec.language == "csharp" and rec.kind in CLASS_KINDS and rec.qualified_name:
                parts[(rec.repo, rec.qualified_name)].append(node)
        for group in parts.values():
            if len(group) > 1:
                self.partials.update((node, tuple(group)) for node in group)

    def _fits(self, node: int, arity: int) -> bool:
        """Whether a call with ``arity`` arguments can be of ``node`` (a Java method whose parameters are known;
        varargs take any number from one fewer on)."""
        least_most = self.param_ranges.get(node)
        if least_most is not None:
            return least_most[0] <= arity <= least_most[1]
        params = self.java_params.get(node)
        if params is None:
            return True
        count, varargs = params
        return arity == count or (varargs and arity >= count - 1)

    def _by_argument_types(self, meant: Targets, types: tuple[str, ...], conversions: _Conversions) -> Targets:
        """Of the overloads ``meant``, those a call whose arguments have ``types`` fits best (``conversions.fit``
        summed over the parameters): ``Write("x")`` is ``Write(string)``, not ``Write(Signature)``
        or ``Write(int)``. A target whose parameters are not read stays; where none fits, all stay (the reading may
        be wrong)."""
        scored: list[tuple[int, int, float]] = []
        for target, weight in meant:
            steps = [conversions.fit(a, p) for a, p in zip(types, self.param_types.get(target, ()), strict=False)]
            if None not in steps:
                scored.append((sum(step or 0 for step in steps), target, weight))
        if not scored:
            return meant
        best = max(fit for fit, _, _ in scored)
        return [(target, weight) for fit, target, weight in scored if fit == best]

    def _definition_at(self, f: _File, line: int) -> int:
        node = f.owner[line] if line < len(f.owner) else -1
        rec = self.nodes[node] if node >= 0 else None
        if rec is not None and f.language in _JS_FAMILY and rec.kind == "function" and rec.start_line == line:
            self.js_classes.add(node)  # a constructor function ``inherits(Dot, Base)`` names: a class from now on
            return node
        while node >= 0 and self.nodes[node].start_line == line and self.nodes[node].kind not in CLASS_KINDS:
            node = self.nodes[node].parent
        return node if node >= 0 and self.nodes[node].kind in CLASS_KINDS else -1

    def _go_implementations(self) -> None:
        """A Go type satisfies an interface whose every method it has: Go says so nowhere in the source,
        so the edge is made here, an inherit edge as a base class gives (``who implements Formatter``,
        the impact of changing it). Matched by the methods' names and shapes: as many parameters and results
        (``Write(s string, level int)`` is no ``io.Writer``'s ``Write(p []byte) (n int, err error)``; the types
        themselves are not compared); an interface with no method of its own (``any``, one that only embeds
        others) is matched by nothing."""
        own: dict[int, dict[str, int]] = defaultdict(dict)  # Go type -> its methods by name
        for method, (_, type_node) in self.go_receivers.items():
            symbol = self.nodes[method].symbol
            if symbol is not None:
                own[type_node].setdefault(symbol, method)
        if not own:
            return
        # method name -> each Go type with it (promoted ones too) and the method itself, its own before an embedded one
        have: dict[str, dict[int, int]] = defaultdict(dict)
        for t in {t for t, rec in enumerate(self.nodes) if rec.language == "go" and rec.kind in ("struct", "type")}:
            seen, stack = {t}, [t]
            while stack:  # a struct embedding another has its methods (gin's Engine embeds RouterGroup)
                node = stack.pop()
                for name, method in own.get(node, {}).items():
                    have[name].setdefault(t, method)
                for base, _ in self.bases.get(node, ()):
                    if base not in seen and self.nodes[base].kind in ("struct", "type"):
                        seen.add(base)
                        stack.append(base)
        for iface, rec in enumerate(self.nodes):
            if rec.kind != "interface" or rec.language != "go":
                continue
            declared = {
                name: next(d for d in defs if self.nodes[d].kind == "method")
                for name, defs in self.children.get(iface, {}).items()
                if any(self.nodes[d].kind == "method" for d in defs)
            }
            names = sorted(declared, key=lambda name: len(have.get(name, ())))
            if not names:
                continue
            types = set(have.get(names[0], {}))
            for name in names:
                shape, methods = self.go_shapes.get(declared[name]), have.get(name, {})
                types = {
                    t
                    for t in types
                    if t in methods and (shape is None or self.go_shapes.get(methods[t], shape) == shape)
                }
            for t in sorted(types):
                if t != iface:
                    self.bases.setdefault(t, []).append((iface, IMPLEMENTS_WEIGHT))
                    self.subclasses[iface].append(t)
                    self._edge(t, iface, INHERIT, IMPLEMENTS_WEIGHT, self.nodes[t].start_line)

    def _python_protocols(self) -> None:
        """A Python class implements a ``typing.Protocol`` whose every method it has, its bases' included: like Go's
        interfaces, nothing in the source says so (``who implements Modality`` lists the plugins' classes). Matched
        by the methods' names; a protocol of dunder methods alone (``__call__``: any callable) is matched by nothing,
        nor is another protocol; a class whose base implements it is reached through that base (an indirect
        implementation), as a subclass of any base class is. A method must take the positional arguments the
        protocol's may be called with (``search(self, query)`` is not ``search(self, generation, shards, query)``)."""
        if not self.py_protocols:
            return
        methods: dict[int, dict[str, int]] = {}  # Python class -> its methods by name (its own over its bases')

        def of(cls: int, seen: frozenset[int] = frozenset()) -> dict[str, int]:
            if cls not in methods:
                own: dict[str, int] = {}
                for base, _ in self.bases.get(cls, ()):
                    if base not in seen and self.nodes[base].kind == "class":
                        own.update(of(base, seen | {cls}))
                for name, defs in self.children.get(cls, {}).items():
                    for d in defs:
                        if self.nodes[d].kind == "method":
                            own[name] = d
                methods[cls] = own
            return methods[cls]

        def fits(method: int, declared: int) -> bool:
            """Whether ``method`` takes the positional arguments the protocol's ``declared`` method may be called
            with (either's unknown: it may)."""
            have, want = self.py_params.get(method), self.py_params.get(declared)
            return have is None or want is None or (have[0] <= want[1] and have[1] >= want[0])

        classes = [
            t
            for t, rec in enumerate(self.nodes)
            if rec.language == "python" and rec.kind == "class" and t not in self.py_protocols
        ]
        for protocol in sorted(self.py_protocols):
            declared = of(protocol)
            if not declared or all(n.startswith("__") and n.endswith("__") for n in declared):
                continue
            satisfying = {
                t for t in classes if all(name in of(t) and fits(of(t)[name], d) for name, d in declared.items())
            }
            for t in sorted(satisfying):
                if any(base in satisfying or base == protocol for base, _ in self.bases.get(t, ())):
                    continue  # through its base (or it names the protocol itself)
                self.bases.setdefault(t, []).append((protocol, IMPLEMENTS_WEIGHT))
                self.subclasses[protocol].append(t)
                self._edge(t, protocol, INHERIT, IMPLEMENTS_WEIGHT, self.nodes[t].start_line)

    def _go_methods(self, f: _File) -> None:
        for method in f.facts.go_methods:
            node = f.owner[method.line] if method.line < len(f.owner) else -1
            if node < 0 or self.nodes[node].symbol is None:
                continue
            type_node = self.go_types.get((f.node, method.type_name))
            if type_node is None:
                continue
            self.go_receivers[node] = (method.receiver, type_node)
            symbol = self.nodes[node].symbol
            assert symbol is not None
            if node not in self.children[type_node][symbol]:
                self.children[type_node][symbol].append(node)
                self.members[symbol].append(node)

    def _imports(self, f: _File) -> None:
        for imp in f.facts.imports:
            src = f.owner[imp.line] if imp.line < len(f.owner) else -1
            if src < 0 or imp.module == SELF_MODULE:  # a local name exported under another: no import
                continue
            module = self._resolve_module(f, imp.module)
            if module is None:
                if f.language not in ("c", "cpp") and not (
                    f.language == "rust" and imp.module.split("::")[0] in _RUST_STD
                ):
                    self.misses.add((f.repo, imp.module.rsplit(".", 1)[-1].rsplit("/", 1)[-1].rsplit(":", 1)[-1]))
                continue
            self._edge(src, module, IMPORT, 1.0, imp.line)
            if imp.name is not None and imp.name != "*":
                found = self._member(module, imp.name, 0)
                if not found:
                    self._missed(f, module, imp.name)
                for target, weight in found:
                    self._edge(src, target, IMPORT, weight, imp.line)

    def _missed(self, f: _File, module: int, name: str) -> None:
        if self.nodes[module].repo != f.repo:
            self.misses.add((f.repo, name))

    def _resolve_module(self, f: _File, spec: str) -> int | None:
        if f.language == "python":
            return self._python_module(f, spec)
        if f.language == "go":
            return self._go_module(f, spec)
        if f.language in _JAVA_LIKE:
            return self._java_module(f, spec)
        if f.language == "rust":
            return self._rust_module(f, spec.split("::") if spec else [])
        if f.language in ("c", "cpp"):
            included = self._c_include(f, spec)
            return included.node if included is not None else None
        return self._js_module(f, spec)

    def _c_included(self, f: _File) -> frozenset[str]:
        """The paths of the files ``f`` includes, through the files they include in turn."""
        known = self._c_closure.get((f.repo, f.path))
        if known is not None:
            return known
        seen: set[str] = set()
        stack = [f]
        while stack:
            current = stack.pop()
            for imp in current.facts.imports:
                target = self._c_include(current, imp.module)
                if target is not None and target.path not in seen and target is not f:
                    seen.add(target.path)
                    stack.append(target)
        self._c_closure[(f.repo, f.path)] = frozenset(seen)
        return self._c_closure[(f.repo, f.path)]

    def _c_include(self, f: _File, spec: str) -> _File | None:
        """``#include "lua.h"``: the file beside the includer, else the repository's file whose path ends
        so (an include folder given to the compiler: ``-Ilib``), the shortest first."""
        beside = self.files.get((f.repo, posixpath.normpath(posixpath.join(posixpath.dirname(f.path), spec))))
        if beside is not None:
            return beside
        tail = "/" + spec.lstrip("./")
        found = [p for p in self.c_paths.get((f.repo, posixpath.basename(spec)), ()) if ("/" + p).endswith(tail)]
        return self.files[(f.repo, min(found, key=len))] if found else None

    def _java_module(self, f: _File, spec: str) -> int | None:
        """``com.acme.core`` (a package) or ``com.acme.core.Outer`` (a class, for a nested class or a static
        member): the longest leading part that is an indexed package, then its classes. C#: a ``using`` inside
        ``namespace DBus`` names ``DBus.Protocol`` by ``Protocol``."""
        if f.language == "csharp":
            spec = next((f"{n}.{spec}" for n in _namespaces(f) if f"{n}.{spec}" in self.java_packages), spec)
        parts = tuple(spec.split("."))
        found = self._java_package_of(f, parts)
        if found is None:
            return None
        node, cut = found
        for name in parts[cut:]:
            classes = [t for t, _ in self._java_member(node, name) if self.nodes[t].kind in CLASS_KINDS]
            if not classes:
                return None
            node = classes[0]
        return node

    def _java_package_of(self, f: _File, parts: tuple[str, ...]) -> tuple[int, int] | None:
        """The longest leading run of ``parts`` that names an indexed package: its node (``f``'s repository's
        first) and the run's length; None when none does."""
        for cut in range(len(parts), 0, -1):
            nodes = self.java_packages.get(".".join(parts[:cut]))
            if nodes:
                return min(nodes, key=lambda n: self.nodes[n].repo != f.repo), cut
        return None

    def _python_module(self, f: _File, spec: str) -> int | None:
        if spec.startswith("."):
            dots = len(spec) - len(spec.lstrip("."))
            base = posixpath.dirname(f.path)
            for _ in range(dots - 1):
                base = posixpath.dirname(base)
            rest = spec[dots:].replace(".", "/")
            stem = posixpath.join(base, rest) if rest else base
            for candidate in (f"{stem}.py", f"{stem}/__init__.py"):
                found = self.files.get((f.repo, candidate.lstrip("/")))
                if found is not None:
                    return found.node
            return None
        candidates = self.py_keys.get(spec, [])
        if not candidates:
            return self._linked_python_module(f, spec)
        # same repository first, then the module whose path is shortest (closest to a root)
        return min(candidates, key=lambda n: (self.nodes[n].repo != f.repo, self.nodes[n].path.count("/")))

    def _linked_python_module(self, f: _File, spec: str) -> int | None:
        """``pkg.sub.mod`` where ``pkg`` is a package of this repository but ``pkg/sub`` is no folder of it.

        The package's subpackages then live elsewhere in the repository and are linked into it (a
        symlink ``pkg/sub -> ../sub``, which the walk does not follow, or an install-time mapping the
        build files do not spell out): ``sub.mod`` is looked up among this repository's modules.
        """
        head, _, rest = spec.partition(".")
        if not rest or head not in self.py_packages.get(f.repo, ()):
            return None
        found = [n for n in self.py_keys.get(rest, ()) if self.nodes[n].repo == f.repo]
        return min(found, key=lambda n: self.nodes[n].path.count("/")) if found else None

    def _js_file(self, repo: str, stem: str) -> int | None:
        """The JS/TS file ``stem`` names (as written, with an extension added, or its folder's index)."""
        stem = posixpath.normpath(stem).lstrip("/") if stem else "."
        if stem.startswith("../") or stem == "..":
            return None
        stem = "" if stem == "." else stem
        bare = re.sub(r"(\.d)?\.(m|c)?(j|t)sx?$", "", stem)
        options = [stem] + [b + ext for b in dict.fromkeys((stem, bare)) if b for ext in _JS_EXTENSIONS]
        options += [f"{stem}/index{ext}" if stem else f"index{ext}" for ext in _JS_EXTENSIONS]
        for option in options:
            node = self.js_files.get((repo, option))
            if node is not None:
                return node
        return None

    def _js_package(self, spec: str) -> int | None:
        """``spec`` through a package.json of an indexed package: its ``exports``, else its main file."""
        parts = spec.split("/")
        cut = 2 if spec.startswith("@") else 1
        package = self.layout.js_packages.get("/".join(parts[:cut]))
        if package is None:
            return None
        sub = "./" + "/".join(parts[cut:]) if len(parts) > cut else "."
        targets: list[str] = []
        for key, values in package.exports:
            if key == sub:
                targets.extend(values)
            elif "*" in key:
                head, _, tail = key.partition("*")
                if sub.startswith(head) and sub.endswith(tail) and len(sub) >= len(head) + len(tail):
                    star = sub[len(head) : len(sub) - len(tail)]
                    targets.extend(v.replace("*", star) for v in values)
        if not targets:
            targets = [sub]
        for target in targets:
            stem = _join_js(package.folder, target)
            node = self._js_file(package.repo, stem)
            if node is None:  # a build output (dist/, lib/...): its source under src/
                source = re.sub(r"^((?:.*/)?)(?:dist|lib|build|out|esm|cjs)/", r"\1src/", stem)
                node = self._js_file(package.repo, source) if source != stem else None
            if node is not None:
                return node
        return None

    def _ts_path(self, f: _File, spec: str) -> int | None:
        """``spec`` through the ``paths`` (and ``baseUrl``) of the nearest tsconfig above ``f``."""
        for config in self.layout.ts_paths:
            if config.repo != f.repo or (config.folder and not f.path.startswith(config.folder + "/")):
                continue
            for pattern, targets in config.paths:
                head, star, tail = pattern.partition("*")
                if star:
                    if not (spec.startswith(head) and spec.endswith(tail) and len(spec) >= len(head) + len(tail)):
                        continue
                    rest = spec[len(head) : len(spec) - len(tail)]
                elif spec != pattern:
                    continue
                else:
                    rest = ""
                for target in targets:
                    node = self._js_file(f.repo, _join_js(config.base, target.replace("*", rest)))
                    if node is not None:
                        return node
            return None  # only the nearest tsconfig applies
        return None

    def _js_module(self, f: _File, spec: str) -> int | None:
        if not spec.startswith("."):
            found = self._ts_path(f, spec)
            if found is None:
                found = self._js_package(spec)
            if found is not None:
                return found
        if spec.startswith("."):
            repo, stem = f.repo, posixpath.normpath(posixpath.join(posixpath.dirname(f.path), spec))
        else:  # a package: another indexed repository of that name
            parts = spec.split("/")
            name = "/".join(parts[:2]) if spec.startswith("@") else parts[0]
            rest = parts[2:] if spec.startswith("@") else parts[1:]
            repo = name if any(k[0] == name for k in self.js_files) else name.split("/")[-1]
            stem = "/".join(rest) if rest else "index"
        options = [stem] + [stem + ext for ext in _JS_EXTENSIONS] + [f"{stem}/index{ext}" for ext in _JS_EXTENSIONS]
        if stem == "index":
            options += [f"lib/{repo}.js", "lib/index.js", "src/index.ts", "src/index.js"]
        for option in options:
            node = self.js_files.get((repo, option.lstrip("./")))
            if node is not None:
                return node
        return None

    def _java_member(self, node: int, name: str) -> Targets:
        """``name`` in a Java package (its classes: a file's imports are its own) or class (its members)."""
        if self.nodes[node].kind == "module":
            return [(n, 1.0) for ff in self.module_files.get(node, []) for n in ff.top.get(name, ())]
        return self._member(node, name, 0)

    def _go_module(self, f: _File, spec: str) -> int | None:
        for module, (repo, folder) in self.layout.go_modules.items():
            if spec == module or spec.startswith(module + "/"):
                key = "/".join(p for p in (repo, folder, spec[len(module) :].strip("/")) if p)
                found = [n for n in self.go_dirs.get(key, ()) if self.nodes[n].repo == repo]
                if found:
                    return found[0]
        parts = spec.split("/")
        if len(parts) < 2:
            return None  # the standard library, or a module we do not index
        for i in range(len(parts) - 1):  # the longest suffix of two or more parts first
            suffix_dirs = self.go_dirs.get("/".join(parts[i:]))
            if suffix_dirs:
                return min(suffix_dirs, key=lambda n: self.nodes[n].repo != f.repo)
        return None

    def _rust_module(self, f: _File, parts: list[str]) -> int | None:
        """The file module a Rust path of modules names from ``f`` (``crate::hir::literal``, ``super::ast``,
        ``self::parse``; a bare ``ast::parse``: a module of ``f``'s, else of the crate root, as Rust 2018 and
        2015 read it); None for another crate's (``std::fmt``) or what is no file module."""
        where = self.rust_module_of.get(f.node)
        if where is None or not parts:
            return None
        root, mods = where
        if parts[0] in _RUST_ANCHORS:
            if parts[0] == "crate":
                mods, parts = (), parts[1:]
            while parts and parts[0] in ("super", RUST_SELF):
                mods = mods[:-1] if parts[0] == "super" else mods
                parts = parts[1:]
            return self.rust_modules.get((f.repo, root, (*mods, *parts)))
        for start in (mods, ()):
            found = self.rust_modules.get((f.repo, root, (*start, *parts)))
            if found is not None:
                return found
        crate = self.layout.rust_crates.get(parts[0])  # another crate of the index (``use tiny::ast``)
        return self.rust_modules.get((crate[0], crate[1], tuple(parts[1:]))) if crate is not None else None

    def _rust_child(self, module: int, name: str) -> int | None:
        """The file module ``name`` inside the Rust file module ``module`` (``mod hir;`` in ``lib.rs``)."""
        where = self.rust_module_of.get(module)
        if where is None:
            return None
        root, mods = where
        return self.rust_modules.get((self.nodes[module].repo, root, (*mods, name)))

    def _rust_member(self, target: int, name: str, depth: int) -> Targets:
        """``name`` in a Rust type, trait or module item: a type's members are those of every impl block of
        its name in the repository (``impl Parser``, ``impl Default for Parser``), then the default methods
        of the traits those implement; a ``mod x;`` item is the file module ``x``, a ``mod x { }`` its items."""
        rec = self.nodes[target]
        if rec.kind == "module":
            if rec.end_line > rec.start_line:  # an inline module: its items
                return [(n, 1.0) for n in self.children.get(target, {}).get(name, ())]
            holder = self.files.get((rec.repo, rec.path))
            child = self._rust_child(holder.node, rec.symbol or "") if holder is not None else None
            return self._module_member(child, name, depth + 1) if child is not None else []
        group = self.rust_types.get((rec.repo, rec.symbol or ""), []) if rec.kind != "trait" else []
        owners = [target, *(n for n in group if n != target and self.nodes[n].kind != "trait")]
        found = [(n, 1.0) for owner in owners for n in self.children.get(owner, {}).get(name, ())]
        if found:
            return found
        out: Targets = []
        for owner in owners:
            for base, weight in self.bases.get(owner, ()):
                out.extend((n, w * weight * BASE_WEIGHT) for n, w in self._member(base, name, depth + 1))
        return _distinct(out)

    def _member(self, target: int, name: str, depth: int) -> Targets:
        """What ``target.name`` is: a definition in a module, a member of a class (or its bases)."""
        if depth > 6:
            return []
        rec = self.nodes[target]
        if rec.language == "rust" and not rec.id.startswith("module:"):
            return self._rust_member(target, name, depth)
        if rec.kind == "module":
            return self._module_member(target, name, depth)
        if rec.kind in CLASS_KINDS or target in self.js_classes:
            parts = self.partials.get(target, (target,))
            found = [(n, 1.0) for part in parts for n in self.children.get(part, {}).get(name, ())]
            if found:
                return found
            out: Targets = []
            for part in parts:
                for base, weight in self.bases.get(part, ()):
                    out.extend((n, w * weight * BASE_WEIGHT) for n, w in self._member(base, name, depth + 1))
            return out
        return []

    def _module_member(self, module: int, name: str, depth: int, seen: set[int] | None = None) -> Targets:
        """What ``name`` is in ``module``: its own definition, a binding it imports, or what a star (Go: dot)
        import brings. ``seen``: the modules this star search has entered, each once, so that a cycle of
        star imports (logrus's tests and its testutils dot-import each other) ends."""
        files = self.module_files.get(module, [])
        found = [(n, 1.0) for f in files for n in f.top.get(name, ())]
        if found:
            return found
        child = self._rust_child(module, name)  # None for any module but a Rust file's
        if child is not None:
            return [(child, 1.0)]
        out: Targets = []
        for f in files:
            for imp in f.bindings.get(name, ()):
                out.extend(self._binding(f, imp, depth + 1))
        if out:
            return out
        seen = {module} if seen is None else seen
        for f in files:
            for imp in f.stars:
                sub = self._resolve_module(f, imp.module)
                if sub is not None and sub not in seen:
                    seen.add(sub)
                    out.extend(self._module_member(sub, name, depth + 1, seen))
        if not out and files and files[0].language == "python" and files[0].path.endswith("__init__.py"):
            key = self.module_keys.get(module)
            sub = self._python_module(files[0], f"{key}.{name}") if key else None
            if sub is not None:
                out.append((sub, 1.0))
        return _distinct(out)

    def _binding(self, f: _File, imp: Import, depth: int) -> Targets:
        key = (f.node, f"{imp.alias}\0{imp.module}\0{imp.name}")
        cached = self._binding_cache.get(key)
        if cached is not None:
            return cached
        self._binding_cache[key] = []  # a cycle of re-exports resolves to nothing, not forever
        module = f.node if imp.module == SELF_MODULE else self._resolve_module(f, imp.module)
        out: Targets = []
        if module is not None:
            if imp.name is None:  # ``require("./suite")`` of a file whose ``module.exports = Suite``: Suite too
                exported = self._module_member(module, COMMONJS_EXPORT, depth) if f.language in _JS_FAMILY else []
                out = [*exported, (module, 1.0)]
            elif imp.name == "default":
                out = self._module_member(module, "default", depth) or [(module, 1.0)]
            elif self.nodes[module].kind in CLASS_KINDS:  # Java: ``import a.b.Outer.Inner``, ``import static``
                out = self._member(module, imp.name, depth)
            else:
                out = self._module_member(module, imp.name, depth)
                if not out and f.language == "python":
                    key_name = self.module_keys.get(module)
                    sub = self._python_module(f, f"{key_name}.{imp.name}") if key_name else None
                    if sub is not None:
                        out = [(sub, 1.0)]
        out = _distinct(out)
        self._binding_cache[key] = out
        return out

    def _scope(self, f: _File, src: int, name: str) -> tuple[Targets, bool]:
        """Definitions ``name`` means inside segment ``src`` of ``f``; the flag: the name is bound at all."""
        node = src
        while node >= 0:  # nested definitions of enclosing functions; a class body sees its own
            rec = self.nodes[node]
            if rec.kind not in CLASS_KINDS or node == src:
                found = self.children.get(node, {}).get(name)
                if found:
                    return [(n, 1.0) for n in found], True
            node = rec.parent
        imports = f.bindings.get(name)
        if imports:  # before top-level definitions: ``const lib = require(...)`` is both
            out: Targets = []
            for imp in imports:
                out.extend(self._binding(f, imp, 0))
            if out:
                return out, True
        top = [(n, 1.0) for ff in self.module_files.get(f.node, [f]) for n in ff.top.get(name, ())]
        if top or imports:
            return top, True
        for imp in f.stars:
            module = self._resolve_module(f, imp.module)
            if module is not None:
                found_star = self._module_member(module, name, 1)
                if found_star:
                    return found_star, True
        return [], False

    def _java_scope(self, f: _File, src: int, name: str) -> tuple[Targets, bool]:
        """What the simple name ``name`` means inside ``src`` of the Java file ``f``, as Java looks it up:
        the members (inherited ones too) and nested classes of each enclosing class, inside out, then
        single-type and static imports, the package's classes, on-demand imports. A capitalised name
        found nowhere is a class no indexed code defines (``String``, ``List``): bound, to nothing."""
        node = src
        while node >= 0:
            rec = self.nodes[node]
            if rec.kind in CLASS_KINDS:
                if rec.symbol == name:
                    return [(node, 1.0)], True
                # a constructor is no member: ``Element`` inside ``Document extends Element`` is the class
                found = [(n, w) for n, w in self._member(node, name, 0) if not self._constructor(n)]
            else:
                found = [(n, 1.0) for n in self.children.get(node, {}).get(name, ())]  # a local class
            if found:
                if f.language == "csharp" and all(self._typed_as(n, name) for n, _ in found):
                    # ``Connection Connection { get; }``: ``Connection`` names the property and its type alike
                    found += [(n, w) for n, w in self._java_scope(f, -1, name)[0] if self.nodes[n].kind in CLASS_KINDS]
                return found, True
            node = rec.parent
        imports = f.bindings.get(name)
        out: Targets = []
        for imp in imports or ():
            out.extend(self._binding(f, imp, 0))
        if out:
            return out, True
        out = [(n, 1.0) for ff in self.module_files.get(f.node, [f]) for n in ff.top.get(name, ())]
        if out:
            return out, True
        if f.language == "csharp":  # code in namespace ``A.B.C`` sees the types of ``A.B`` and ``A``
            for namespace in _namespaces(f)[1:]:
                for outer in self.java_packages.get(namespace, ()):
                    out.extend(self._java_member(outer, name))
                if out:
                    return out, True
        for imp in f.stars:
            module = self._resolve_module(f, imp.module)
            if module is not None:
                out.extend(self._java_member(module, name))
        return out, bool(out or imports or name[:1].isupper())

    def _extension(self, chain: tuple[str, ...]) -> Targets:
        """The C# extension methods ``chain``'s call can be: those extending the receiver's declared type when it
        is written (``writer.Write(x)`` on a ``BinaryWriter``: ``Write(this BinaryWriter w, ...)``), at full
        weight; else every one of its name, at half."""
        found = self.extensions.get(chain[-1], ())
        receiver = chain[-2] if len(chain) == 2 else ""
        typed = [(n, 1.0) for n, extends in found if extends == receiver]
        return typed or [(n, 0.5) for n, _ in found]

    def _typed_as(self, node: int, name: str) -> bool:
        """Whether ``node`` is a C# field or property whose declared type is named ``name``."""
        declared = self.declared_returns.get(node) if self.nodes[node].kind in _CS_VALUES else None
        return declared is not None and declared[1][-1:] == (name,)

    def _constructor(self, node: int) -> bool:
        """Whether ``node`` is a constructor (a method named as the class it is in)."""
        rec = self.nodes[node]
        return rec.kind not in CLASS_KINDS and rec.parent >= 0 and self.nodes[rec.parent].symbol == rec.symbol

    def _java_qualified(self, f: _File, chain: tuple[str, ...]) -> Targets | None:
        """A fully qualified chain (``com.acme.Helpers.check``): its definitions where a leading part is an
        indexed package; nothing where it reads as another package's (lower-case parts, then a class);
        None where it is neither (the head is a field no declaration here tells the type of)."""
        found = self._java_package_of(f, chain[:-1])
        if found is not None:
            node, cut = found
            targets: Targets = [(node, 1.0)]
            for name in chain[cut:]:
                targets = [(n, w * v) for t, w in targets for n, v in self._java_member(t, name)]
            return targets
        lower = 0
        while lower < len(chain) - 1 and chain[lower][:1].islower():
            lower += 1
        return [] if lower >= 2 and chain[lower][:1].isupper() else None

    def _overrides(self, cls: int, name: str) -> list[int]:
        """Definitions of ``name`` in classes deriving from ``cls`` (transitively, cycles cut)."""
        out: list[int] = []
        seen = {cls}
        stack = list(self.subclasses.get(cls, ()))
        while stack:
            sub = stack.pop()
            if sub in seen:
                continue
            seen.add(sub)
            out.extend(self.children.get(sub, {}).get(name, ()))
            stack.extend(self.subclasses.get(sub, ()))
        return out

    def _nested(self, src: int, name: str) -> Targets:
        """Definitions named ``name`` nested in a function enclosing ``src`` (a local function)."""
        node = src
        while node >= 0 and self.nodes[node].kind not in CLASS_KINDS:
            found = self.children.get(node, {}).get(name)
            if found:
                return [(n, 1.0) for n in found]
            node = self.nodes[node].parent
        return []

    def _enclosing_class(self, src: int) -> int:
        node = src
        while node >= 0:
            if node in self.go_receivers:
                return self.go_receivers[node][1]
            if self.nodes[node].kind in CLASS_KINDS or node in self.js_classes:
                return node
            node = self.nodes[node].parent
        return -1

    def _receiver_name(self, src: int) -> str | None:
        node = src
        while node >= 0:
            if node in self.go_receivers:
                return self.go_receivers[node][0]
            node = self.nodes[node].parent
        return None

    def _fallback(self, name: str, language: str, weight: float) -> Targets:
        """Every member named ``name`` in the same language family, each with a share of ``weight``."""
        family = _JS_FAMILY if language in _JS_FAMILY else frozenset({language})
        key = (name, family)
        found = self._fallback_cache.get(key)
        if found is None:  # members is complete once resolution starts: one scan per name and family
            found = [n for n in self.members.get(name, ()) if self.nodes[n].language in family]
            found = [n for n in found if n not in self.py_overloads] or found
            self._fallback_cache[key] = found
        if not found or len(found) > MAX_CANDIDATES:
            return []
        return [(n, weight / len(found)) for n in found]

    def _python_typed(self, f: _File, src: int, chain: tuple[str, ...]) -> Targets:
        """A member of a Python local whose type is read (``parse.PY_DECLARED``, ``parse.PY_MADE``): of the class the
        chain before the mark names, with the overrides of its subclasses at ``OVERRIDE_WEIGHT`` as for ``self.m()``;
        none of the project's where no indexed code defines that type (``stream: t.IO``, ``t = threading.Thread()``);
        where it names something else (a function called, a type alias), a member of a value of unknown type."""
        cut = max(i for i, part in enumerate(chain) if part in (PY_DECLARED, PY_MADE))  # the value before: typed too
        value, rest = chain[:cut], chain[cut + 1 :]
        if not rest:
            return []
        last = rest[-1]
        if value[-1] in (PY_DECLARED, PY_MADE):  # a value called (``comp = comp_cls()``): of a type not read here
            return self._fallback(last, f.language, self._untyped_weight(last, f.language))
        meant = self._resolve_chain(f, src, value, False)
        classes = [(n, w) for n, w in meant if self.nodes[n].kind in CLASS_KINDS]
        if not classes and chain[cut] == PY_MADE:  # a call to a function: what its return annotation names
            classes = [c for function, weight in meant for c in self._returned_classes(function, weight)]
        if classes:
            found = self._follow(f, classes, (value[-1], *rest))
            if len(rest) == 1:
                found = found + [(n, OVERRIDE_WEIGHT) for cls, _ in classes for n in self._overrides(cls, rest[0])]
            return found
        if not meant:
            return []
        return self._fallback(last, f.language, self._untyped_weight(last, f.language))

    @staticmethod
    def _untyped_weight(name: str, language: str) -> float:
        """The weight of a member ``name`` called on a value whose type is not read (a parameter, a call's result):
        full, but a Python built-in's member's name (``stream.read``) only as likely the project's as the built-in's."""
        return UNTYPED_WEIGHT if language == "python" and name in _PY_BUILT_IN_MEMBERS else 1.0

    def _super_member(self, src: int, name: str) -> Targets:
        """What ``super().name`` is inside ``src``: the member of the enclosing class's bases (nothing where
        no base is indexed: ``super().__init__()`` under ``Exception`` calls none of the repository's)."""
        cls = self._enclosing_class(src)
        out: Targets = []
        for base, weight in self.bases.get(cls, ()) if cls >= 0 else ():
            out.extend((n, w * weight) for n, w in self._member(base, name, 1))
        return out

    def _resolve_rust(self, f: _File, src: int, chain: tuple[str, ...], local: bool) -> Targets | None:
        """The start of a Rust chain: a path from a module (``crate::``, ``super::``, ``self::``), from the
        enclosing type (``self.``, ``Self::``) or from a name in scope, a ``mod x;`` item read as its file
        module and a type before its impl blocks. ``[]``: a name no indexed code defines (``Vec``,
        ``std::mem::swap``, a generic parameter); None: go on as other languages do (a local's chain)."""
        head = chain[0]
        if head in _RUST_ANCHORS:
            anchors = 0
            while anchors < len(chain) - 1 and chain[anchors] in _RUST_ANCHORS:
                anchors += 1
            # the longest run of file modules, then the members of the last one
            for cut in range(len(chain) - 1, anchors - 1, -1):
                module = self._rust_module(f, list(chain[:cut]))
                if module is not None:
                    return self._follow(f, [(module, 1.0)], (head, *chain[cut:]))
            return []
        if head == "Self":
            cls = self._enclosing_class(src)
            return self._follow(f, [(cls, 1.0)], chain) if cls >= 0 else []
        if head in _SELF_NAMES or local:
            return None
        targets = self._nested(src, head) or self._scope(f, src, head)[0]
        if not targets:  # a module of this one, of the crate root (Rust 2015), or another crate's root
            module = self._rust_module(f, [head])
            targets = [(module, 1.0)] if module is not None else []
        # a type's name means the type, not its impl blocks (which ``_rust_member`` reads through it)
        targets = [(t, w) for t, w in targets if self.nodes[t].kind != "impl"] or targets
        return self._follow(f, targets, chain) if targets else []

    def _c_name(self, f: _File, name: str) -> Targets:
        """What a C name means in ``f``: the file's own definition of it, else the one other files see (a function
        or a variable no ``.c`` file keeps static, anything a header defines, and anything in a file ``f``
        includes, through other includes: a test that includes ``../cJSON.c`` sees its static functions); of
        several (two programs of one repository), those in the file's folder, else each a share."""
        here = f.top.get(name)
        if here:
            return [(n, 1.0) for n in here]
        every = self.c_names.get((f.repo, name), ())
        found = [n for n in every if n not in self.c_local]
        if len(found) < len(every):  # a file's own name is seen where that file is included (a ``.c`` one too)
            included = self._c_included(f)
            found = [n for n in every if n not in self.c_local or self.nodes[n].path in included]
        if len(found) > 1:
            folder = posixpath.dirname(f.path)
            found = [n for n in found if posixpath.dirname(self.nodes[n].path) == folder] or found
        if not found or len(found) > MAX_CANDIDATES:
            return []
        return [(n, 1.0 / len(found)) for n in found]

    def _cpp_qualified(self, f: _File, chain: tuple[str, ...]) -> Targets:
        """The C++ definitions whose qualified name ends with ``chain`` (``geo::helper``, ``Circle::area``, a
        typed receiver's ``("Circle", "area")``), each a share."""
        found = [
            n
            for n in self.cpp_names.get((f.repo, chain[-1]), ())
            if _dotted_suffix(self.nodes[n].qualified_name, chain)
        ]
        if not found or len(found) > MAX_CANDIDATES:
            return []
        # one function defined once per ``#if`` branch (``void Mutex::Lock()`` three times) is one function: a share
        # each only among functions that differ (overloads, another class's of the same name)
        share = 1.0 / len({self._cpp_function(n) for n in found})
        return [(n, share) for n in found]

    def _cpp_function(self, node: int) -> tuple[str | None, str]:
        """The function a C++ definition is (its qualified name and parameters as written), read once a build: a
        qualified name's candidates are asked for it at each resolution."""
        known = self._cpp_functions.get(node)
        if known is None:
            parameters = _cpp_parameter_text(self.cpp_signatures.get(node, ""))
            known = self._cpp_functions[node] = (self.nodes[node].qualified_name, parameters)
        return known

    def _cpp_name(self, f: _File, src: int, name: str) -> Targets:
        """A plain C++ name: a member of the enclosing class (through its bases), else a name C would find."""
        cls = self._enclosing_class(src)
        if cls >= 0:
            member = self._member(cls, name, 0)
            if member:
                return member
            if self.nodes[cls].symbol == name:
                return [(cls, 1.0)]
        return self._c_name(f, name)

    def _cpp_declared_type(self, node: int) -> tuple[str, ...]:
        """The class a C++ field or variable is declared with (``std::unique_ptr<Engine> engine_;`` holds an
        ``Engine``), from its signature; ``()`` for a built-in, a standard library type, or an unread one."""
        rec = self.nodes[node]
        match = _CPP_DECLARED.match(self.cpp_signatures.get(node, ""))
        if match is None or rec.symbol is None:
            return ()
        typ, template = match.group(1), match.group(2) or ""
        parts = tuple(typ.split("::"))
        if parts[-1] in CPP_HOLDERS and template:
            held = _CPP_DECLARED.match(template.strip("<> ") + " x;")
            parts = tuple(held.group(1).split("::")) if held is not None else ()
        if not parts or parts[0] in CPP_STD or parts[-1] in _CPP_BUILTINS:
            return ()
        return parts

    def _resolve_cpp(self, f: _File, src: int, chain: tuple[str, ...], local: bool, depth: int) -> Targets:
        """What a C++ chain means in ``src``: ``this->m`` the enclosing class's member; a qualified name or a
        typed receiver's chain the definitions named so; a plain name a member of the enclosing class, else
        a name C would find; a name's members read through what it is (a class, or a field's or a global's
        declared class), else any member of that name at a share."""
        head, last = chain[0], chain[-1]
        if local:
            return self._fallback(last, f.language, 0.5) if len(chain) > 1 else []
        if head == "this":
            cls = self._enclosing_class(src)
            return self._follow(f, [(cls, 1.0)], chain) if cls >= 0 and len(chain) > 1 else []
        if len(chain) == 1:
            return self._cpp_name(f, src, head)
        exact = self._cpp_qualified(f, chain)
        if exact:
            return exact
        for cut in range(len(chain) - 1, 0, -1):
            prefix = chain[:cut]
            heads = self._cpp_qualified(f, prefix) if cut > 1 else self._cpp_name(f, src, head)
            if not heads:
                continue
            out: Targets = []
            valued = False
            for target, weight in heads:
                kind = self.nodes[target].kind
                if kind in CLASS_KINDS:
                    out.extend(self._follow(f, [(target, weight)], (prefix[-1], *chain[cut:])))
                elif kind != "module":  # a field's or a variable's members: its declared class's
                    valued = True
                    typ = self._cpp_declared_type(target)
                    if typ and depth < 4:
                        where = self._file_of(target) or f
                        out.extend(
                            (n, weight * w)
                            for n, w in self._resolve_cpp(where, target, (*typ, *chain[cut:]), False, depth + 1)
                        )
            if out:
                return out
            return self._fallback(last, f.language, 0.5) if valued else []
        return []  # the standard library's, or a type no indexed code defines

    def _file_of(self, node: int) -> _File | None:
        rec = self.nodes[node]
        return self.files.get((rec.repo, rec.path))

    def _resolve_chain(self, f: _File, src: int, chain: tuple[str, ...], local: bool) -> Targets:
        head, last = chain[0], chain[-1]
        if head == UNKNOWN:
            return self._fallback(last, f.language, self._untyped_weight(last, f.language))
        if f.language == "python" and (PY_DECLARED in chain or PY_MADE in chain):
            return self._python_typed(f, src, chain)
        if f.language == "c":
            if len(chain) > 1:  # a struct's field, through a name whose type is not read here
                return self._fallback(last, f.language, 0.5)
            return [] if local else self._c_name(f, head)
        if f.language == "cpp":
            return self._resolve_cpp(f, src, chain, local, 0)
        if f.language == "rust":
            rust = self._resolve_rust(f, src, chain, local)
            if rust is not None:
                return rust
        if head == SUPER:  # before: any indexed member of that name (every ``__init__``, at a share each)
            if len(chain) == 2:
                return self._super_member(src, last)
            return self._fallback(last, f.language, 0.5) if len(chain) > 2 else []
        receiver = self._receiver_name(src) if f.language == "go" else None
        if head in _SELF_NAMES or (receiver is not None and head == receiver):
            if len(chain) == 1:
                return []
            cls = self._enclosing_class(src)
            targets = [(cls, 1.0)] if cls >= 0 else []
            if cls >= 0 and len(chain) == 2:
                found = self._member(cls, last, 0)
                if found:  # ``self.m()`` may also run an override in a subclass
                    return found + [(n, OVERRIDE_WEIGHT) for n in self._overrides(cls, last)]
        elif f.language in _JAVA_LIKE and not local:
            targets, bound = self._java_scope(f, src, head)
            if not targets:
                qualified = self._java_qualified(f, chain) if not bound and len(chain) > 2 else None
                if qualified is not None:
                    return qualified
                return [] if bound or len(chain) == 1 else self._fallback(last, f.language, 0.5)
        else:
            nested = self._nested(src, head)
            if nested:
                targets = nested
            elif local:
                weight = UNTYPED_WEIGHT if f.language == "rust" else self._untyped_weight(last, f.language)
                return self._fallback(last, f.language, weight) if len(chain) > 1 else []
            else:
                targets, bound = self._scope(f, src, head)
                if not targets:
                    if (
                        bound
                        or len(chain) == 1
                        or (f.language == "python" and head in _PY_BUILTINS)
                        or (f.language in _JS_FAMILY and head in _JS_GLOBALS)
                    ):
                        return []  # a name bound to what is not indexed, or a built-in (``object.__new__``)
                    return self._fallback(last, f.language, 0.5)
        return self._follow(f, targets, chain)

    def _follow(self, f: _File, targets: Targets, chain: tuple[str, ...]) -> Targets:
        """The members ``chain[1:]`` names, one after another, from ``targets`` (what ``chain[0]`` means)."""
        last = chain[-1]
        for name in chain[1:]:
            if name == "prototype" and f.language in _JS_FAMILY and targets:
                # ``Runnable.prototype.run.call(this)``: the members a constructor function's prototype holds
                # are its own, attached to it (``_js_attach``)
                continue
            following: Targets = []
            if name == RETURNS:  # Java: what the methods before it return, by their declared types
                returned = [(t, w, *self.declared_returns[t]) for t, w in targets if t in self.declared_returns]
                if not returned or any(typ[:1] == (UNKNOWN,) for *_, typ in returned):
                    return self._fallback(last, f.language, 0.5)  # not a method whose type is written
                for method, weight, where, typ in returned:
                    if typ and typ[0] != ARRAY:  # else a primitive's or an array's: no indexed code's members
                        following.extend((n, weight * w) for n, w in self._resolve_chain(where, method, typ, False))
                if not following:
                    return []  # a primitive, an array, or a class no indexed code defines (``String``)
                targets = [(t, w) for t, w in following if self.nodes[t].kind in CLASS_KINDS]
                continue
            if f.language == "csharp":
                targets = self._typed(targets)
            elif f.language == "python":
                targets = self._returned(targets)
            for target, weight in targets:
                following.extend((n, weight * w) for n, w in self._member(target, name, 0))
            if not following and f.language == "csharp" and name == last and name in self.extensions:
                # ``rule.Matches(x)`` where ``Matches`` extends ``MatchRule`` from a static class elsewhere
                receiver = self.nodes[targets[0][0]].symbol or "" if targets else ""
                return self._extension((receiver, name))
            if not following:
                if f.language in _JS_FAMILY and name in _FUNCTION_CALLERS and name == last:
                    return targets  # ``dispatchRequest.call(this, config)`` calls dispatchRequest
                if all(self.nodes[t].kind == "module" for t, _ in targets):
                    for t, _ in targets:
                        self._missed(f, t, name)
                    return []  # a name we do not know in a module we do: dynamic, or not indexed
                return self._fallback(last, f.language, 0.5)  # an attribute of unknown type
            targets = following
        return targets

    def _returned(self, targets: Targets) -> Targets:
        """Python: a function or a property among ``targets`` whose return annotation names an indexed class stands for
        that class (``response.request.url`` with ``Response.request -> Request``: ``Request.url``); the rest as they
        are."""
        return [c for target, weight in targets for c in self._returned_classes(target, weight) or [(target, weight)]]

    def _returned_classes(self, function: int, weight: float) -> Targets:
        """The indexed classes a Python function's or property's return annotation names, read in its own file (none
        for a target that is no function, has no annotation, or names a type no indexed code defines)."""
        where, returned = self.declared_returns.get(function, (None, ()))
        if where is None or self.nodes[function].kind not in _CALLABLE:
            return []
        return [
            (n, weight * w)
            for n, w in self._resolve_chain(where, function, returned, False)
            if self.nodes[n].kind in CLASS_KINDS
        ]

    def _typed(self, targets: Targets) -> Targets:
        """C#: a field or property among ``targets`` stands for the classes of its declared type
        (``engine.Parts.Count``: ``Parts``'s type's ``Count``); the rest as they are."""
        out: Targets = []
        for target, weight in targets:
            declared = self.declared_returns.get(target) if self.nodes[target].kind in _CS_VALUES else None
            if declared is None or declared[1][:1] == (UNKNOWN,):
                out.append((target, weight))
                continue
            where, typ = declared
            if not typ or typ[0] == ARRAY:
                continue  # a built-in's or an array's members (``Count``, ``Length``): no indexed code's
            # a type, never a member of the type's name (``Connection Connection``): from the file's scope if need be
            classes = [
                (n, w) for n, w in self._resolve_chain(where, target, typ, False) if self.nodes[n].kind in CLASS_KINDS
            ]
            if not classes:
                classes = [
                    (n, w) for n, w in self._resolve_chain(where, -1, typ, False) if self.nodes[n].kind in CLASS_KINDS
                ]
            out.extend((n, weight * w) for n, w in classes)
        return out


def build_graph(segments: Iterable[Segment]) -> GraphData:
    """The graph over ``segments`` (one shard: every repository for global sharding)."""
    return _Builder(segments).build()
