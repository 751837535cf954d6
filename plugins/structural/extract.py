"""The structural extractor: definitions, kinds, qualified names and signatures from tree-sitter.

Ingestion calls :func:`extract` once per file to cut definition segments, so it must be fast and
must never raise on bad input. Each supported language has a tags query in ``queries/<lang>.scm``
(the convention of tree-sitter's ``tags.scm``): a pattern captures the definition node as
``@definition.<kind>`` and its name as ``@name``. A name written with a qualifier
(``Foo::bar``, ``app.init``, ``Route.prototype.get``) is split so that ``bar`` is the name and
``Foo`` a qualifier; Go's receivers are captured as ``@receiver`` for the same purpose.

Nesting comes from byte ranges, not from the query: after the matches are collected they are
sorted by position and a stack finds each definition's innermost enclosing definition. That gives

* ``qualified_name`` - the enclosing chain plus any written qualifier (``Session.send``,
  ``gin.Context.JSON`` with Go's package name in front);
* ``kind`` refinements - a function directly inside a class-like definition is a ``method``;
  a variable inside a class-like definition is a ``field``; a variable inside a function is a
  local and dropped; an ALL_CAPS module-level variable is a ``constant``;
* ``parent`` - the qualified name of the lexically enclosing definition (so segments nest by lines).

Languages without a query fall back to a generic walk of node types whose names say
``..._definition``/``..._declaration``/``..._item`` and carry a ``name`` field; languages where
neither works come back ``supported=False``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from fourfold.plugins.c_source import count_errors
from fourfold.plugins.per_thread import PerThread
from fourfold.plugins.readable import readable_tree
from fourfold.plugins.types import Definition, Extraction

__all__ = [
    "CALLABLE_KINDS",
    "CLASS_LIKE_KINDS",
    "EXTRACTOR_VERSION",
    "KINDS",
    "SUPPORTED_LANGUAGES",
    "extract",
    "is_supported",
    "parse",
]

#: Part of ingestion's per-file cache key: bump it whenever the definitions of a file may change.
# 3: a variable inside an anonymous function is a local; 4: a C name behind a macro; 5: a C++ class behind an export
# macro (``class LEVELDB_EXPORT DB``), a field behind a thread-safety annotation (``GUARDED_BY(mu_)``):
# ``cpp_source.readable``; 6: a C++ macro invoked as a statement outside functions (``DEFINE_FLAG(int, limit, 1);``)
# is read past; 7: a pointer to a function is a field or a global (``int (*cb)(int);``), the lock annotations of
# older clang (``void Lock() EXCLUSIVE_LOCK_FUNCTION()``) are read past; 8: C# is read as one build compiles it (the
# first branch of each ``#if``: ``cs_source.readable``); 9: C is read after its decoration and prototype macros, its
# old-style definitions that return a pointer and its ``#if`` that cut a statement (``c_source.readable``); 10:
# TypeScript call signatures on lines of their own are members of their own (``readable.typescript_members``)
EXTRACTOR_VERSION = "10"

#: Every kind the extractor emits.
KINDS = (
    "function",
    "method",
    "class",
    "struct",
    "interface",
    "trait",
    "enum",
    "union",
    "type",
    "constant",
    "variable",
    "field",
    "property",
    "module",
    "impl",
    "extension",
    "object",
    "macro",
)

#: Kinds whose directly nested functions are methods and whose variables are fields.
CLASS_LIKE_KINDS = frozenset({"class", "struct", "interface", "trait", "enum", "union", "impl", "extension", "object"})

#: Languages with a dedicated query (``queries/<language>.scm``).
SUPPORTED_LANGUAGES: tuple[str, ...] = (
    "python",
    "javascript",
    "typescript",
    "tsx",
    "go",
    "java",
    "rust",
    "c",
    "cpp",
    "csharp",
    "ruby",
    "php",
    "kotlin",
    "swift",
    "scala",
)

# Languages sharing another's query file.
_QUERY_FILE = {"tsx": "typescript"}

_SIGNATURE_MAX = 240
_CONSTANT_NAME = re.compile(r"^[A-Z][A-Z0-9_]*[A-Z0-9]$")
_WHITESPACE = re.compile(r"\s+")
_GENERICS = re.compile(r"<[^<>]*>")
_QUALIFIER_SPLIT = re.compile(r"::|->|\.|\\")
_VARIABLE_KINDS = frozenset({"variable", "constant", "field", "property"})
#: Kinds of a definition that can be called.
CALLABLE_KINDS = frozenset({"function", "method"})
#: Syntax nodes of a function with no name a definition could have (a callback, an arrow, a Go
#: closure): a variable declared inside one is a local, like one inside a named function.
_ANONYMOUS_FUNCTIONS = frozenset(
    {"function_expression", "function", "arrow_function", "generator_function", "func_literal", "lambda_expression"}
)
# Wrappers whose start line belongs to the definition they wrap (decorators).
_DECORATOR_WRAPPERS = frozenset({"decorated_definition", "template_declaration"})
# Preceding siblings that belong to the next definition (Rust attributes).
_ATTRIBUTE_SIBLINGS = frozenset({"attribute_item"})
# Node types that are a definition's body in grammars without a ``body`` field (Kotlin).
_BODY_TYPES = frozenset({"function_body", "class_body", "enum_class_body", "block"})
# Grammar node types the generic fallback considers, and the kind each keyword means.
_GENERIC_SUFFIX = re.compile(r"_(definition|declaration|item|def|decl|statement)$")
_GENERIC_KEYWORDS = (
    ("method", "method"),
    ("function", "function"),
    ("procedure", "function"),
    ("subroutine", "function"),
    ("macro", "macro"),
    ("class", "class"),
    ("struct", "struct"),
    ("interface", "interface"),
    ("protocol", "interface"),
    ("trait", "trait"),
    ("enum", "enum"),
    ("union", "union"),
    ("record", "struct"),
    ("object", "object"),
    ("module", "module"),
    ("namespace", "module"),
    ("package", "module"),
    ("type", "type"),
    ("const", "constant"),
)


@dataclass(frozen=True, slots=True)
class _Grammar:
    """What extraction needs for one language: its grammar, compiled query and per-grammar facts.

    The facts are worked out once so that extraction asks the tree only what this grammar can
    answer (a grammar without decorator wrappers never has a definition's parent looked up).
    """

    language: Language
    query: Query
    generic_kinds: Mapping[str, str]  # node type -> kind, for the generic fallback
    wrapped: bool  # the grammar has decorator-like wrappers (_DECORATOR_WRAPPERS)
    attributes: bool  # the grammar has attribute siblings (_ATTRIBUTE_SIBLINGS)


@dataclass(slots=True)
class _Item:
    """A definition while nesting is being worked out (mutable, internal only).

    ``node`` is kept so that the signature, the costliest part, is cut only for the items that
    survive nesting (most assignments a query matches are locals and are dropped).
    """

    start_byte: int
    end_byte: int
    start_line: int
    node: Node
    name: str
    kind: str
    qualifier: str
    order: int
    qualified_name: str = ""
    enclosing: _Item | None = None


def is_supported(language: str) -> bool:
    """Whether ``language`` has a dedicated query or a usable generic fallback."""
    return _grammar(language) is not None


def extract(source: bytes, language: str) -> Extraction:
    """Extract the definitions of one file.

    Never raises on bad input: what tree-sitter recovered is returned and the ERROR and MISSING
    nodes are counted in ``parse_errors``; a language without grammar or usable query returns
    ``supported=False``. Definitions come in source order (outer before inner).
    """
    grammar = _grammar(language)
    if grammar is None:
        return Extraction(definitions=(), parse_errors=0, supported=False)
    source, tree = readable_tree(source, language, _parsers.get(language))
    root = tree.root_node
    items = _collect(grammar, root, source)
    package = _package_name(grammar, root, source) if language in _PACKAGE_LANGUAGES else ""
    definitions = _nest(items, package, source)
    return Extraction(definitions=definitions, parse_errors=count_errors(root), supported=True)


def parse(source: bytes, language: str) -> Tree | None:
    """The tree-sitter tree of one file (None when the language is unsupported).

    The first half of :func:`extract`, on its own so that benchmarks can tell the parser's time
    from the extractor's: tree-sitter's one parse of the file as written (making C, C++ and C# readable,
    ``readable.readable_tree``, counts as the extractor's).
    """
    grammar = _grammar(language)
    return None if grammar is None else _parsers.get(language).parse(source)


# --- grammars, parsers, queries -----------------------------------------------------------------


@cache
def _grammar(language: str) -> _Grammar | None:
    """Load the grammar and compile the query for ``language`` once; None when unsupported."""
    try:
        from tree_sitter_language_pack import get_language

        lang = get_language(language)  # type: ignore[arg-type]
    except (LookupError, ValueError, ImportError, OSError):
        return None
    if language in SUPPORTED_LANGUAGES:
        name = _QUERY_FILE.get(language, language)
        query = Query(lang, resources.files(__package__).joinpath("queries", f"{name}.scm").read_text())
        generic: dict[str, str] = {}
    else:
        generic = dict(_generic_kinds(lang))
        if not generic:
            return None
        query = Query(lang, "[" + " ".join(f"({node_type})" for node_type in generic) + "] @generic")
    return _Grammar(
        language=lang,
        query=query,
        generic_kinds=generic,
        wrapped=any(_has_node_type(lang, t) for t in _DECORATOR_WRAPPERS),
        attributes=any(_has_node_type(lang, t) for t in _ATTRIBUTE_SIBLINGS),
    )


def _has_node_type(lang: Language, node_type: str) -> bool:
    return lang.id_for_node_kind(node_type, True) is not None


def _generic_kinds(lang: Language) -> tuple[tuple[str, str], ...]:
    """Node types of a grammar that look like definitions and have a ``name`` field."""
    if lang.field_id_for_name("name") is None:
        return ()
    found: dict[str, str] = {}
    for kind_id in range(lang.node_kind_count):
        node_type = lang.node_kind_for_id(kind_id)
        if not node_type or not lang.node_kind_is_named(kind_id) or not lang.node_kind_is_visible(kind_id):
            continue
        if not _GENERIC_SUFFIX.search(node_type) or node_type in found:
            continue
        for keyword, kind in _GENERIC_KEYWORDS:
            if keyword in node_type:
                found[node_type] = kind
                break
    return tuple(sorted(found.items()))


def _new_parser(language: str) -> Parser:
    grammar = _grammar(language)
    assert grammar is not None  # asked only for a language whose grammar loaded
    return Parser(grammar.language)


#: A parser per language owned by the calling thread (parsers are not thread-safe).
_parsers: PerThread[str, Parser] = PerThread(_new_parser)


# --- collecting matches -------------------------------------------------------------------------


def _collect(grammar: _Grammar, root: Node, source: bytes) -> list[_Item]:
    """Run the query and turn each match into items, one per captured name."""
    best: dict[tuple[int, int, str], _Item] = {}
    generic = grammar.generic_kinds
    for pattern, captures in QueryCursor(grammar.query).matches(root):
        node: Node | None = None
        kind = ""
        for capture, nodes in captures.items():
            if capture.startswith("definition."):
                node, kind = nodes[0], capture[11:]
                break
        names: Sequence[Node] = captures.get("name", ())
        if node is None and "generic" in captures:
            node = captures["generic"][0]
            kind = generic.get(node.type, "")
            name_node = node.child_by_field_name("name")
            names = (name_node,) if name_node is not None else ()
        if node is None or not kind:
            continue
        receivers = captures.get("receiver")
        receiver = _clean_qualifier(_text(receivers[0], source)) if receivers else ""
        for name_node in names:
            item = _item(grammar, node, name_node, kind, receiver, pattern, source)
            if item is None:
                continue
            key = (item.start_byte, item.end_byte, item.name)
            kept = best.get(key)
            if kept is None or pattern < kept.order:
                best[key] = item
    return sorted(best.values(), key=_position)


def _behind_macro(name_node: Node) -> Node:
    """A C or C++ function's name where an export macro hides it: in ``XXH_PUBLIC_API XXH_errorcode
    XXH32_update(...)`` a parser that does not expand the macro reads the return type as the function's
    declarator and the name as an error just before the parameters; that name is the function's."""
    after = name_node.next_named_sibling
    if (
        name_node.parent is not None
        and name_node.parent.type == "function_declarator"
        and after is not None
        and after.type == "ERROR"
        and len(after.named_children) == 1
        and after.named_children[0].type == "identifier"
    ):
        return after.named_children[0]
    return name_node


def _position(item: _Item) -> tuple[int, int, int]:
    """Source order, outer before inner, then the earlier query pattern."""
    return item.start_byte, -item.end_byte, item.order


def _item(
    grammar: _Grammar, node: Node, name_node: Node, kind: str, receiver: str, order: int, source: bytes
) -> _Item | None:
    """One definition from a definition node and its (possibly qualified) name node."""
    name_node = _behind_macro(name_node)
    raw = source[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace").strip()
    if raw.isidentifier():  # the common case: a plain name, nothing to split
        if raw == "prototype":
            return None
        name, qualifier = raw, ""
    else:
        parts = [p for p in _QUALIFIER_SPLIT.split(_GENERICS.sub("", raw)) if p and p != "prototype"]
        if not parts:
            return None
        name = parts[-1].strip()
        qualifier = ".".join(p.strip() for p in parts[:-1])
    if not name or not (name[0].isalpha() or name[0] in "_$@~#"):
        return None
    if receiver:
        qualifier = f"{receiver}.{qualifier}" if qualifier else receiver
    start = node
    if grammar.wrapped and (parent := node.parent) is not None and parent.type in _DECORATOR_WRAPPERS:
        start = parent
    if grammar.attributes:
        sibling = start.prev_named_sibling
        while sibling is not None and sibling.type in _ATTRIBUTE_SIBLINGS:
            start, sibling = sibling, sibling.prev_named_sibling
    return _Item(
        start_byte=start.start_byte,
        end_byte=node.end_byte,
        start_line=start.start_point[0] + 1,
        node=node,
        name=name,
        kind=kind,
        qualifier=qualifier,
        order=order,
    )


def _end_line(node: Node) -> int:
    """The last line the node really occupies (a node ending at column 0 ends on the line before)."""
    row, column = node.end_point
    if column == 0 and row > node.start_point[0]:
        return row
    return row + 1


def _signature(node: Node, kind: str, source: bytes) -> str:
    """The header as written (parameters and return type), on one line.

    Callables and types: the text before the body (or, without one, up to the end of the
    parameters and return type). Variables: the first line of the statement.
    """
    body = _body(node)
    if body is not None and body.start_byte > node.start_byte:
        raw = source[node.start_byte : body.start_byte]
    elif kind in _VARIABLE_KINDS:
        raw = source[node.start_byte : node.end_byte].split(b"\n", 1)[0]
    else:
        ends = [
            child.end_byte
            for field in ("parameters", "return_type", "result")
            if (child := node.child_by_field_name(field)) is not None
        ]
        end = max(ends) if ends else node.end_byte
        raw = source[node.start_byte : min(end, node.start_byte + 4 * _SIGNATURE_MAX)]
        if kind not in CALLABLE_KINDS:
            raw = raw.split(b"{", 1)[0]
    text = _WHITESPACE.sub(" ", raw.decode("utf-8", "replace")).strip()
    for suffix in ("{", "=>", "=", ":"):
        if text.endswith(suffix) and not text.endswith("::"):
            text = text[: -len(suffix)].rstrip()
    if len(text) > _SIGNATURE_MAX:
        text = text[: _SIGNATURE_MAX - 1] + "…"
    return text


def _body(node: Node) -> Node | None:
    """The body of a definition: its ``body`` field, its value's body, or a body-typed child."""
    body = node.child_by_field_name("body")
    if body is not None:
        return body
    value = node.child_by_field_name("value") or node.child_by_field_name("right")
    if value is not None and (body := value.child_by_field_name("body")) is not None:
        return body
    for child in node.named_children:
        if child.type in _BODY_TYPES:
            return child
    return None


def _clean_qualifier(text: str) -> str:
    """A receiver or impl type written as a qualifier: no generics, pointers or references."""
    text = _GENERICS.sub("", _GENERICS.sub("", text))
    text = re.sub(r"\[.*\]", "", text)
    text = text.strip().strip("()").strip()
    # Go receivers are "(s *Server)": keep the type.
    text = text.split()[-1] if text.split() else ""
    return text.lstrip("*&").replace("::", ".")


def _text(node: Node, source: bytes) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


# --- nesting ------------------------------------------------------------------------------------

# Languages whose files declare a package that prefixes every qualified name.
_PACKAGE_LANGUAGES = frozenset({"go", "java", "kotlin", "scala", "csharp", "php"})
_PACKAGE_NODES = frozenset(
    {
        "package_clause",
        "package_declaration",
        "package_header",
        "file_scoped_namespace_declaration",
        "namespace_definition",
    }
)


def _package_name(grammar: _Grammar, root: Node, source: bytes) -> str:
    """The package (or file-scoped namespace) a file declares ("" when none)."""
    for child in root.named_children:
        if child.type in _PACKAGE_NODES and child.child_by_field_name("body") is None:
            text = _text(child, source).replace("\\", ".")
            text = re.sub(r"^\s*(package|namespace)\s+", "", text).strip().rstrip(";").strip()
            return text.split()[0].rstrip(";") if text.split() else ""
    return ""


def _in_anonymous_function(item: _Item, owner: _Item | None) -> bool:
    """Whether ``item`` is declared inside a function that is no definition, below ``owner`` (the
    ``var handle`` of express's ``methods.forEach(function (method) { ... })``). A function called
    where it is written (``(function () { var VERSION = ... }).call(this)``, a library's wrapper) is
    the module's scope, not a function's."""
    node = item.node.parent
    while node is not None and (owner is None or node.start_byte >= owner.start_byte):
        if node.type in _ANONYMOUS_FUNCTIONS and not _immediately_invoked(node):
            return True
        if owner is not None and node.start_byte == owner.start_byte and node.end_byte == owner.end_byte:
            return False
        node = node.parent
    return False


def _same(a: Node | None, b: Node) -> bool:
    return a is not None and (a.start_byte, a.end_byte, a.type) == (b.start_byte, b.end_byte, b.type)


def _immediately_invoked(function: Node) -> bool:
    """``(function () {...})()``, ``(() => {...})()``, ``(function () {...}).call(this)``."""
    node = function
    while node.parent is not None and node.parent.type == "parenthesized_expression":
        node = node.parent
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "call_expression":
        return _same(parent.child_by_field_name("function"), node)
    if parent.type == "member_expression" and _same(parent.child_by_field_name("object"), node):
        prop = parent.child_by_field_name("property")
        called = parent.parent is not None and parent.parent.type == "call_expression"
        return called and prop is not None and prop.text in (b"call", b"apply")
    return False


def _nest(items: list[_Item], package: str, source: bytes) -> tuple[Definition, ...]:
    """Find each item's enclosing definition, refine kinds, build qualified names."""
    out: list[Definition] = []
    stack: list[_Item] = []
    for item in items:
        while stack and not _contains(stack[-1], item):
            stack.pop()
        enclosing = stack[-1] if stack else None
        while enclosing is not None and enclosing.kind == "type" and item.kind in CLASS_LIKE_KINDS:
            enclosing = enclosing.enclosing  # typedef struct point {...} point_t: struct beside typedef
        if _restates(enclosing, item):
            continue  # exports.send = function send () {}: one definition, not two
        if item.kind in _VARIABLE_KINDS:
            owner = enclosing
            if (owner is not None and owner.kind in CALLABLE_KINDS) or _in_anonymous_function(item, owner):
                continue  # a local variable
            if owner is not None and owner.kind in CLASS_LIKE_KINDS and item.kind == "variable":
                item.kind = "field"
            elif item.kind == "variable" and _CONSTANT_NAME.match(item.name):
                item.kind = "constant"
        elif item.kind == "function" and enclosing is not None and enclosing.kind in CLASS_LIKE_KINDS:
            item.kind = "method"
        item.enclosing = enclosing
        prefix = enclosing.qualified_name if enclosing is not None else package
        parts = [p for p in (prefix, item.qualifier, item.name) if p]
        item.qualified_name = ".".join(parts)
        stack.append(item)
        out.append(
            Definition(
                name=item.name,
                kind=item.kind,
                start_line=item.start_line,
                end_line=_end_line(item.node),
                qualified_name=item.qualified_name,
                signature=_signature(item.node, item.kind, source),
                parent=enclosing.qualified_name if enclosing is not None else "",
            )
        )
    return tuple(out)


def _restates(outer: _Item | None, inner: _Item) -> bool:
    """Whether ``inner`` is the function that ``outer`` (same name, same line) assigns."""
    return (
        outer is not None
        and inner.kind == "function"
        and outer.kind in CALLABLE_KINDS
        and outer.name == inner.name
        and outer.start_line == inner.start_line
    )


def _contains(outer: _Item, inner: _Item) -> bool:
    """Whether ``inner`` lies inside ``outer`` (items of one node, ``var a, b``, are siblings)."""
    same = outer.start_byte == inner.start_byte and outer.end_byte == inner.end_byte
    return not same and outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte
