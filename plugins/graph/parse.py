"""Per-file facts for the graph: imports, name references and base classes, from tree-sitter.

Definitions are not found here: they arrive as segments (made by ingestion from the structural
extractor). This module only reads what a definition list cannot tell: which names a file
binds by import, which names each line mentions (and whether it calls them), and what each
class inherits from. Everything is keyed by 1-based line so it can be joined to segments.

A reference is a *chain* of names: ``self.session.send(...)`` is ``("self", "session", "send")``;
a receiver that is not a plain name chain (``get()``, ``a[0]``) becomes ``"?"``. Resolution
(``resolve.py``) turns chains into candidate definitions.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import functools
import hashlib
import re
import sys
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from tree_sitter import Node, Parser, Query, QueryCursor
from tree_sitter_language_pack import get_language, get_parser

from fourfold.plugins.graph.facts_cache import FactsCache
from fourfold.plugins.per_thread import PerThread
from fourfold.plugins.readable import readable_tree

__all__ = [
    "ARRAY",
    "CPP_HOLDERS",
    "CPP_STD",
    "PY_DECLARED",
    "PY_MADE",
    "RETURNS",
    "RUST_SELF",
    "SELF_MODULE",
    "SUPER",
    "UNKNOWN",
    "Base",
    "FileFacts",
    "GoMethod",
    "Import",
    "Reference",
    "parse_file",
    "supported",
    "using_facts_cache",
]

_NAME_CHAIN = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")

#: The chain element for a receiver that is not a plain name (a call result, a subscript...).
UNKNOWN = "?"
#: The chain element for ``super()`` (Python) and ``super`` (JavaScript): the enclosing class's bases.
SUPER = "super()"
#: The chain element for what the method named before it returns (Java: ``a.b().c()`` is
#: ``("a", "b", RETURNS, "c")``, read through ``b``'s declared return type).
RETURNS = "()"
#: A Rust path's ``self`` (``self::helper``, ``use self::ast::Span``): the module the code is in, not a
#: receiver (which is ``self`` in ``self.parse()``, read as every language's ``this``).
RUST_SELF = "<self>"
#: A Java declared type's first element when it is an array of the rest (``Foo[]``: ``("[]", "Foo")``).
ARRAY = "[]"
#: The chain element after a Python local's declared type (``def f(stream: t.IO)``: ``stream.read`` is
#: ``("t", "IO", PY_DECLARED, "read")``): a member of that type, none of the project's where no indexed code defines it.
PY_DECLARED = "<:>"
#: The chain element after what a Python local was assigned a call to (``c = httpx.Cookies()``: ``c.clear`` is
#: ``("httpx", "Cookies", PY_MADE, "clear")``): a member of that class, where the call is to a class.
PY_MADE = "<=()>"


#: An ``Import``'s module for a name the file exports under another of its own (``export default
#: AxiosError``: ``Import(line, SELF_MODULE, "AxiosError", "default")``), so that an importer's
#: ``import AxiosError from './AxiosError.js'`` resolves to the function, not to the file.
SELF_MODULE = ""
#: The name ``Import(line, SELF_MODULE, "Suite", COMMONJS_EXPORT)`` binds for ``module.exports = Suite``: what a
#: ``require("./suite")`` of the file gives besides the file itself.
COMMONJS_EXPORT = "module.exports"


@dataclass(frozen=True, slots=True)
class Import:
    """One name bound by an import.

    ``module`` is the spelling in the source (``..core``, ``./util.js``, ``example.com/m/util``);
    ``name`` the member taken from it (``None``: the module itself); ``alias`` the local name.
    """

    line: int
    module: str
    name: str | None
    alias: str


class Reference(NamedTuple):
    """A mention of a name chain at ``line``; ``call`` when it is called (or constructed);
    ``local`` when its first name is a parameter or local variable of the enclosing function.

    A named tuple, not a dataclass: a repository has hundreds of thousands of them, and a build
    that reads them from the facts cache makes each anew (a frozen dataclass costs 3 x more).
    """

    line: int
    chain: tuple[str, ...]
    call: bool
    local: bool = False
    decorator: bool = False  # inside a decorator: evaluated in the scope around the definition
    arity: int = -1  # a Java call's number of arguments (which of a method's overloads it can be); -1 unknown
    #: Java and C#: each argument's type where the source shows it (a literal's, a declared name's, a construction's
    #: or a cast's: ``"String"``, ``"int"``, ``"Signature"``), "" where it does not: which of same-arity overloads
    #: it calls
    types: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Base:
    """The class (or struct) starting at ``class_line`` inherits from (embeds) ``chain``."""

    class_line: int
    line: int
    chain: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GoMethod:
    """A Go method declaration: its line, receiver variable and receiver type name."""

    line: int
    receiver: str
    type_name: str


@dataclass(frozen=True, slots=True)
class FileFacts:
    imports: tuple[Import, ...]
    references: tuple[Reference, ...]
    bases: tuple[Base, ...]
    go_methods: tuple[GoMethod, ...] = ()
    package: str = ""
    #: Java: each method's declared return type, by the line its declaration starts on (``RETURNS``); Python: each
    #: function's return annotation (what a local assigned its call holds, ``PY_MADE``)
    returns: tuple[tuple[int, tuple[str, ...]], ...] = ()
    #: C++: the first and last lines of each anonymous namespace, whose definitions no other file sees
    hidden: tuple[tuple[int, int], ...] = ()


_JS_FAMILY = frozenset({"javascript", "typescript", "tsx", "jsx"})
_LANGUAGES = frozenset({"python", "go", "java", "csharp", "rust", "c", "cpp"}) | _JS_FAMILY


def supported(language: str) -> bool:
    """Whether references and imports are read for ``language`` (others get containment only)."""
    return language in _LANGUAGES


#: A parser per language owned by the calling thread (tree-sitter parsers are not thread-safe).
_parsers: PerThread[str, Parser] = PerThread(lambda language: get_parser(language))  # type: ignore[arg-type]
_parser = _parsers.get


#: Facts of recently parsed files by content digest: a file's facts depend on its bytes only, so a
#: graph rebuilt after a change (or the per-repository centrality pass before the partitions)
#: parses only what changed. Bounded; the facts are immutable.
_FACTS_CACHE_FILES = 50_000
_facts: collections.OrderedDict[tuple[bytes, str], FileFacts] = collections.OrderedDict()
_facts_lock = threading.Lock()


#: The on-disk cache of the build running in this context (``using_facts_cache``), if any.
_disk: contextvars.ContextVar[FactsCache | None] = contextvars.ContextVar("graph_facts_disk", default=None)


@contextlib.contextmanager
def using_facts_cache(cache: FactsCache | None) -> Iterator[None]:
    """Within the block, ``parse_file`` also reads and fills ``cache`` (facts kept across processes)."""
    token = _disk.set(cache)
    try:
        yield
    finally:
        _disk.reset(token)
        if cache is not None:
            cache.flush()


def parse_file(source: bytes, language: str) -> FileFacts:
    """The facts of one file; an unsupported language gives empty facts."""
    if language not in _LANGUAGES:
        return FileFacts((), (), ())
    digest = hashlib.blake2b(source, digest_size=16).digest()
    key = (digest, language)
    with _facts_lock:
        found = _facts.get(key)
        if found is not None:
            _facts.move_to_end(key)
            return found
    disk = _disk.get()
    stored = _from_plain(disk.get(disk.key(digest, language))) if disk is not None else None
    if stored is not None:
        facts = stored
    else:
        facts = _parse(source, language)
        if disk is not None:
            disk.put(disk.key(digest, language), _to_plain(facts))
    with _facts_lock:
        _facts[key] = facts
        while len(_facts) > _FACTS_CACHE_FILES:
            _facts.popitem(last=False)
    return facts


def _to_plain(f: FileFacts) -> tuple[Any, ...]:
    """``f`` as tuples of strings, numbers and None (for the on-disk cache)."""
    return (
        tuple((i.line, i.module, i.name, i.alias) for i in f.imports),
        tuple(tuple(r) for r in f.references),
        tuple((b.class_line, b.line, b.chain) for b in f.bases),
        tuple((m.line, m.receiver, m.type_name) for m in f.go_methods),
        f.package,
        f.returns,
        f.hidden,
    )


def _from_plain(value: tuple[Any, ...] | None) -> FileFacts | None:
    """The facts ``_to_plain`` made ``value`` from; None when it is not such a value."""
    if value is None:
        return None
    try:
        imports, references, bases, methods, package, returns, hidden = value
        return FileFacts(
            tuple(Import(*i) for i in imports),
            tuple(Reference._make(r) for r in references),
            tuple(Base(*b) for b in bases),
            tuple(GoMethod(*m) for m in methods),
            package,
            tuple((line, tuple(chain)) for line, chain in returns),
            tuple((first, last) for first, last in hidden),
        )
    except (TypeError, ValueError):
        return None


def _parse(source: bytes, language: str) -> FileFacts:
    tree = readable_tree(source, language, _parser(language))[1]
    if language == "python":
        return _Python(tree.root_node).facts()
    if language == "go":
        return _Go(tree.root_node).facts()
    if language == "java":
        return _Java(tree.root_node).facts()
    if language == "csharp":
        return _CSharp(tree.root_node).facts()
    if language == "rust":
        return _Rust(tree.root_node).facts()
    if language == "c":
        return _C(tree.root_node).facts()
    if language == "cpp":
        return _Cpp(tree.root_node).facts()
    return _JavaScript(tree.root_node).facts()


def _text(node: Node | None) -> str:
    """The node's text, interned: a file names the same few identifiers thousands of times."""
    if node is None or node.text is None:
        return ""
    return sys.intern(node.text.decode("utf-8", "replace"))


def _line(node: Node) -> int:
    return node.start_point[0] + 1


def _walk(root: Node) -> Iterator[Node]:
    """Every node under ``root`` in document order, iteratively (deep files must not recurse)."""
    cursor = root.walk()
    while True:
        node = cursor.node
        assert node is not None
        yield node
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


#: A typed environment's value for a name whose type is not known here (Java's ``var``, a lambda's
#: parameter; TypeScript's ``any``, a union, no annotation).
_UNTYPED: tuple[str, ...] = (UNKNOWN,)


def _own_nodes(body: Node | None, nested: frozenset[str]) -> Iterator[Node]:
    """The named nodes under ``body`` outside the scopes nested in it (nodes of the ``nested`` types)."""
    stack = list(body.named_children) if body is not None else []
    while stack:
        sub = stack.pop()
        if sub.type in nested:
            continue
        yield sub
        stack.extend(sub.named_children)


def _string_value(node: Node) -> str:
    text = _text(node)
    return text[1:-1] if len(text) >= 2 and text[0] in "\"'`" else text


# --- Python ---------------------------------------------------------------------------------------

_PY_FUNCTIONS = frozenset({"function_definition", "lambda"})
#: What opens a scope of its own inside a Python function.
_PY_SCOPES = frozenset({"function_definition", "lambda", "class_definition"})
_PY_BINDERS = frozenset(
    {"assignment", "augmented_assignment", "for_statement", "for_in_clause", "as_pattern", "named_expression"}
)
#: What the Python reader looks at, found by one tree-sitter query (the walk runs in C; Python sees
#: only these nodes, in document order). ``skip``: nothing inside names a definition it uses.
_PY_QUERY = """
[(import_statement) (import_from_statement)] @import
[(future_import_statement) (global_statement) (nonlocal_statement)] @skip
[(function_definition) (lambda)] @function
(class_definition) @class
(decorator) @decorator
(type) @type
(string) @string
(attribute) @attribute
(identifier) @identifier
[(assignment) (augmented_assignment) (for_statement) (for_in_clause) (as_pattern) (named_expression)] @binder
"""
#: Sort rank among nodes that start at the same byte and end at the same byte: containers first.
_PY_RANK = {
    "import": 0,
    "skip": 0,
    "function": 0,
    "class": 0,
    "decorator": 0,
    "type": 0,
    "binder": 0,
    "string": 1,
    "attribute": 2,
    "identifier": 3,
}


@functools.cache
def _python_query() -> Query:
    return Query(get_language("python"), _PY_QUERY)


class _Python:
    """Reads a Python file from the captures of ``_PY_QUERY``, swept in document order.

    A stack of open containers (functions, decorators, type annotations, skipped statements)
    tells each name what encloses it: the innermost function's locals (parameters and names
    bound in its body, not in nested functions or classes), whether it sits in a decorator, and
    whether it is skipped (inside an import, a ``global``, a quoted annotation already read).
    """

    def __init__(self, root: Node) -> None:
        self.root = root
        self.imports: list[Import] = []
        self.references: list[Reference] = []
        self.bases: list[Base] = []
        self.returns: list[tuple[int, tuple[str, ...]]] = []

    def facts(self) -> FileFacts:
        captures = QueryCursor(_python_query()).captures(self.root)
        events = sorted(
            (
                (node.start_byte, -node.end_byte, _PY_RANK[name], name, node)
                for name, nodes in captures.items()
                for node in nodes
            ),
            key=lambda e: e[:3],
        )
        locals_of = self._locals(events)
        # (end byte, container kind, locals in force, their types where read, the enclosing class's fields' types)
        stack: list[tuple[int, str, frozenset[str], Mapping[str, tuple[str, ...]], Mapping[str, tuple[str, ...]]]] = []
        local: frozenset[str] = frozenset()
        types: Mapping[str, tuple[str, ...]] = {}
        fields: Mapping[str, tuple[str, ...]] = {}
        skipped = decorated = in_type = 0
        for start, _, _, name, node in events:
            while stack and stack[-1][0] <= start:
                _, kind, local, types, fields = stack.pop()
                skipped -= kind in ("import", "skip", "annotation")
                decorated -= kind == "decorator"
                in_type -= kind == "type"
            if skipped:
                continue
            if name == "identifier":
                if self._is_reference(node):
                    text = _text(node)
                    self.references.append(
                        Reference(_line(node), (text,), _is_called(node), text in local, decorated > 0)
                    )
            elif name == "attribute":
                self._attribute(node, local, types, fields, decorated > 0)
            elif name == "string":
                if in_type:
                    self._annotation(node, local)
                    stack.append((node.end_byte, "annotation", local, types, fields))
                    skipped += 1
            elif name == "binder":
                continue
            else:
                if name == "import":
                    self._import(node)
                elif name == "class":
                    self._class(node)
                stack.append((node.end_byte, name, local, types, fields))
                skipped += name in ("import", "skip")
                decorated += name == "decorator"
                in_type += name == "type"
                if name == "function":
                    local, types = locals_of.get(node.start_byte, (frozenset(), {}))
                    returned = node.child_by_field_name("return_type")
                    declared = _py_annotation(returned) if returned is not None else None
                    if declared:  # ``def get_console() -> "Console"``: what ``c = get_console()`` holds
                        self.returns.append((_line(node), declared))
                elif name == "class":
                    fields = self._fields(node, locals_of)
        return FileFacts(tuple(self.imports), tuple(self.references), tuple(self.bases), returns=tuple(self.returns))

    def _locals(
        self, events: list[tuple[int, int, int, str, Node]]
    ) -> dict[int, tuple[frozenset[str], Mapping[str, tuple[str, ...]]]]:
        """Function start byte -> its parameters and the names bound in its body (shadowing globals), and the type of
        those whose every binding says the same (``_typed_value``), as the chain a member of it starts with."""
        names: dict[int, set[str]] = {}
        values: dict[int, dict[str, tuple[str, ...] | None]] = collections.defaultdict(dict)
        stack: list[tuple[int, int, int, int]] = []  # (end byte, function start byte or -1, body start, body end)
        for start, _, _, name, node in events:
            if name not in ("function", "class", "binder"):
                continue
            while stack and stack[-1][0] <= start:
                stack.pop()
            owner = stack[-1] if stack else None
            inside = owner is not None and owner[1] >= 0 and owner[2] <= start < owner[3]
            if name == "binder":
                if inside:
                    assert owner is not None
                    for bound in self._bound(node):
                        names[owner[1]].add(bound)
                        _agree(values[owner[1]], bound, self._typed_value(node, bound))
                continue
            if inside:  # a nested definition's name is a local of the function around it
                assert owner is not None
                defined = node.child_by_field_name("name")
                if defined is not None:
                    names[owner[1]].add(_text(defined))
                    _agree(values[owner[1]], _text(defined), None)
            if name == "class":
                stack.append((node.end_byte, -1, 0, 0))
                continue
            found = names.setdefault(node.start_byte, set())
            params = node.child_by_field_name("parameters")
            for n in _walk(params) if params is not None else ():
                if n.type == "identifier" and self._is_parameter_name(n):
                    found.add(_text(n))
                    typed = n.parent.child_by_field_name("type") if n.parent is not None else None
                    _agree(values[node.start_byte], _text(n), _declared(typed))
            body = node.child_by_field_name("body")
            stack.append((node.end_byte, node.start_byte, body.start_byte if body else 0, body.end_byte if body else 0))
        out: dict[int, tuple[frozenset[str], Mapping[str, tuple[str, ...]]]] = {}
        for start, found in names.items():
            typed_names = {n: typed for n, typed in values[start].items() if typed is not None}
            for _ in range(3):  # ``r = client.get(url)`` with ``client = Client()``: what Client.get returns
                typed_names = {
                    n: (*typed_names[typed[0]], *typed[1:]) if typed[0] in typed_names and typed[0] != n else typed
                    for n, typed in typed_names.items()
                }
            out[start] = (
                frozenset(found),
                {n: typed for n, typed in typed_names.items() if typed[0] not in found or typed[0] == "self"},
            )  # a type named by an untyped local (``x = cls()``) is not read; what ``self.make()`` returns is
        return out

    @staticmethod
    def _fields(
        node: Node, locals_of: Mapping[int, tuple[frozenset[str], Mapping[str, tuple[str, ...]]]]
    ) -> Mapping[str, tuple[str, ...]]:
        """A class's attributes whose every assignment says the same type, as the chain a member of one starts with:
        annotated in the class body (``jar: CookieJar``, a dataclass's field) or assigned there a call, and
        ``self.x = ...`` in its methods, of a call (``self.jar = CookieJar()``), of a typed parameter or local
        (``self.console = console`` with ``console: Console``) or annotated; ``None`` assigned says nothing."""
        seen: dict[str, tuple[str, ...] | None] = {}
        body = node.child_by_field_name("body")
        for stmt in body.named_children if body is not None else ():
            if stmt.type == "decorated_definition":
                stmt = stmt.child_by_field_name("definition") or stmt
            if stmt.type == "expression_statement" and stmt.named_children:
                assignment = stmt.named_children[0]
                left = assignment.child_by_field_name("left")
                if assignment.type == "assignment" and left is not None and left.type == "identifier":
                    right = assignment.child_by_field_name("right")
                    if assignment.child_by_field_name("type") is not None or right is None or right.type != "none":
                        _agree(seen, _text(left), _Python._assigned(assignment))
                continue
            if stmt.type != "function_definition":
                continue
            params = stmt.child_by_field_name("parameters")
            first = params.named_children[0] if params is not None and params.named_children else None
            if first is None or first.type != "identifier":
                continue  # a static method, or ``self`` with a default: no instance to assign to
            receiver = _text(first)
            types = locals_of.get(stmt.start_byte, (frozenset(), {}))[1]
            for sub in _own_nodes(stmt.child_by_field_name("body"), _PY_SCOPES):
                if sub.type != "assignment":
                    continue
                left = sub.child_by_field_name("left")
                if left is None or left.type != "attribute":
                    continue
                obj, attr = left.child_by_field_name("object"), left.child_by_field_name("attribute")
                if obj is None or attr is None or obj.type != "identifier" or _text(obj) != receiver:
                    continue
                right = sub.child_by_field_name("right")
                if sub.child_by_field_name("type") is None and right is not None and right.type == "none":
                    continue  # ``None`` says nothing
                if sub.child_by_field_name("type") is None and right is not None and right.type == "identifier":
                    _agree(seen, _text(attr), types.get(_text(right)))  # ``self.console = console``
                else:
                    _agree(seen, _text(attr), _Python._assigned(sub))
        return {name: typed for name, typed in seen.items() if typed is not None}

    @staticmethod
    def _made(right: Node | None) -> tuple[str, ...] | None:
        """``("mod", "Foo", PY_MADE)`` for a value ``mod.Foo(...)``; None for any other."""
        if right is None or right.type != "call":
            return None
        called = right.child_by_field_name("function")
        if called is None or called.type not in ("identifier", "attribute"):
            return None
        chain = _chain(called, "attribute", "object", "attribute", ("identifier",))
        return None if UNKNOWN in chain else (*chain, PY_MADE)

    @staticmethod
    def _typed_value(node: Node, name: str) -> tuple[str, ...] | None:
        """What the binding ``node`` gives ``name``, as the chain a member of it starts with: ``x: Foo = ...`` is
        ``("Foo", PY_DECLARED)``, ``x = mod.Foo(...)`` ``("mod", "Foo", PY_MADE)``; None for any other binding."""
        if node.type != "assignment":
            return None
        left = node.child_by_field_name("left")
        if left is None or left.type != "identifier" or _text(left) != name:
            return None
        return _Python._assigned(node)

    @staticmethod
    def _assigned(node: Node) -> tuple[str, ...] | None:
        """What an assignment gives its target, as the chain a member of it starts with: its annotation's type
        (``_declared``), else the class it calls (``_made``)."""
        annotation = node.child_by_field_name("type")
        if annotation is not None:
            return _declared(annotation)
        return _Python._made(node.child_by_field_name("right"))

    @staticmethod
    def _bound(node: Node) -> Iterator[str]:
        """The plain names a binding statement assigns (not ``a.b = ...``, not ``a[i] = ...``)."""
        if node.type == "as_pattern":
            target = node.child_by_field_name("alias")
        else:
            target = node.child_by_field_name("left") or node.child_by_field_name("name")
        if target is None:
            return
        for n in _walk(target):
            if n.type == "identifier" and not _inside(n, target, "attribute", "subscript"):
                yield _text(n)

    @staticmethod
    def _is_reference(node: Node) -> bool:
        parent = node.parent
        if parent is None:
            return False
        ptype = parent.type
        if ptype in ("function_definition", "class_definition"):
            return parent.child_by_field_name("name") != node
        if ptype == "attribute":
            return parent.child_by_field_name("attribute") != node
        if ptype == "keyword_argument":
            return parent.child_by_field_name("name") != node
        if ptype in ("parameters", "lambda_parameters", "list_splat_pattern", "dictionary_splat_pattern"):
            return False
        if ptype in ("default_parameter", "typed_default_parameter"):
            return parent.child_by_field_name("name") != node
        if ptype == "typed_parameter":
            return parent.children[0] != node
        return True

    @staticmethod
    def _is_parameter_name(node: Node) -> bool:
        parent = node.parent
        if parent is None:
            return False
        if parent.type in ("parameters", "lambda_parameters", "list_splat_pattern", "dictionary_splat_pattern"):
            return True
        if parent.type in ("default_parameter", "typed_default_parameter"):
            return parent.child_by_field_name("name") == node
        if parent.type == "typed_parameter":
            return parent.children[0] == node
        return False

    def _annotation(self, node: Node, local: frozenset[str]) -> None:
        """A quoted annotation (``-> "Span"``, ``"Optional[Text]"``) names types like unquoted code."""
        line = _line(node)
        for match in _NAME_CHAIN.finditer(_text(node)[1:-1]):
            chain = tuple(match.group(0).split("."))
            self.references.append(Reference(line, chain, False, chain[0] in local))

    def _attribute(
        self,
        node: Node,
        local: frozenset[str],
        types: Mapping[str, tuple[str, ...]],
        fields: Mapping[str, tuple[str, ...]],
        decorated: bool,
    ) -> None:
        attr = node.child_by_field_name("attribute")
        if attr is None:
            return
        chain = _chain(node, "attribute", "object", "attribute", ("identifier",), _PY_LITERALS)
        if chain[0] == "self" and len(chain) >= 3 and chain[1] in fields:  # ``self.jar.clear``: of the field's type
            typed_field = (*fields[chain[1]], *chain[2:])
            self.references.append(Reference(_line(attr), typed_field, _is_called(node), False, decorated))
            return
        typed = types.get(chain[0])
        if typed is not None:  # ``stream.read`` with ``stream: t.IO``: a member of the local's type
            self.references.append(Reference(_line(attr), (*typed, *chain[1:]), _is_called(node), False, decorated))
            return
        self.references.append(Reference(_line(attr), chain, _is_called(node), chain[0] in local, decorated))

    def _class(self, node: Node) -> None:
        supers = node.child_by_field_name("superclasses")
        if supers is None:
            return
        for child in supers.named_children:
            # ``Protocol[T]``, ``Generic[T]``, ``Repository[Model]``: the class subscripted
            if child.type == "subscript":
                child = child.child_by_field_name("value") or child
            if child.type in ("identifier", "attribute"):
                chain = _chain(child, "attribute", "object", "attribute", ("identifier",))
                if UNKNOWN not in chain:
                    self.bases.append(Base(_line(node), _line(child), chain))

    def _import(self, node: Node) -> None:
        line = _line(node)
        if node.type == "import_statement":
            for child in node.children_by_field_name("name"):
                if child.type == "aliased_import":
                    module = _text(child.child_by_field_name("name"))
                    self.imports.append(Import(line, module, None, _text(child.child_by_field_name("alias"))))
                else:
                    module = _text(child)
                    # ``import a.b`` binds ``a``; ``a.b`` is reached through it
                    self.imports.append(Import(line, module.split(".")[0], None, module.split(".")[0]))
                    if "." in module:
                        self.imports.append(Import(line, module, None, ""))
            return
        module = _text(node.child_by_field_name("module_name")).replace(" ", "")
        names = node.children_by_field_name("name")
        if any(c.type == "wildcard_import" for c in node.children):
            self.imports.append(Import(line, module, "*", "*"))
        for child in names:
            if child.type == "aliased_import":
                name = _text(child.child_by_field_name("name"))
                alias = _text(child.child_by_field_name("alias"))
            else:
                name = alias = _text(child)
            self.imports.append(Import(_line(child), module, name, alias))


def _inside(node: Node, top: Node, *types: str) -> bool:
    """Whether ``node`` sits under a node of one of ``types`` below ``top``."""
    parent = node.parent
    while parent is not None and parent != top:
        if parent.type in types:
            return True
        parent = parent.parent
    return top.type in types and node != top


def _is_called(node: Node) -> bool:
    parent = node.parent
    if parent is None:
        return False
    if parent.type in ("call", "call_expression"):
        return parent.child_by_field_name("function") == node
    if parent.type == "new_expression":
        return parent.child_by_field_name("constructor") == node
    return False


def _names_assigned_function(node: Node) -> bool:
    """Whether a JavaScript member expression is the name a function is defined by (``Suite.prototype.addTest``
    in ``Suite.prototype.addTest = function (test) {}``, each target of ``req.get = req.header = function``): the
    definition's own name, no use of it (its object, ``Suite``, is read as a use still)."""
    parent = node.parent
    if parent is None or parent.type != "assignment_expression" or parent.child_by_field_name("left") != node:
        return False
    value = parent.child_by_field_name("right")
    while value is not None and value.type in ("assignment_expression", "parenthesized_expression"):
        if value.type == "assignment_expression":
            value = value.child_by_field_name("right")
        else:
            value = value.named_children[0] if value.named_children else None
    return value is not None and (value.type in _JS_FUNCTIONS or value.type == "class")


#: A Python literal's node type -> the built-in type of its value: ``", ".join(parts)`` is ``str.join``.
_PY_LITERALS: Mapping[str, str] = {
    "string": "str",
    "concatenated_string": "str",
    "integer": "int",
    "float": "float",
    "list": "list",
    "list_comprehension": "list",
    "dictionary": "dict",
    "dictionary_comprehension": "dict",
    "set": "set",
    "set_comprehension": "set",
    "tuple": "tuple",
}


#: A JavaScript or TypeScript literal's node type -> its built-in type: ``[a, b].join(",")`` is ``Array.join``.
_JS_LITERALS: Mapping[str, str] = {
    "string": "String",
    "template_string": "String",
    "number": "Number",
    "array": "Array",
    "regex": "RegExp",
}
#: Python annotations that say nothing of a value's type.
_PY_ANY = frozenset({"Any", "object"})


def _py_annotation(node: Node) -> tuple[str, ...] | None:
    """A Python annotation as the chain naming its type: ``Foo``, ``mod.Foo``, ``"Foo"``, ``Optional[Foo]`` and
    ``Foo | None`` are ``Foo``; ``List[Foo]`` is ``List`` (a member of the list is the container's); None for
    anything else (a union, ``Any``, a literal)."""
    current: Node | None = node.named_children[0] if node.type == "type" and node.named_children else node
    while current is not None:
        if current.type == "string":
            text = _string_value(current)
            chain = tuple(text.split(".")) if _NAME_CHAIN.fullmatch(text) else None
        elif current.type in ("identifier", "attribute"):
            chain = _chain(current, "attribute", "object", "attribute", ("identifier",))
        elif current.type == "subscript":
            value = current.child_by_field_name("value")
            args = current.children_by_field_name("subscript")
            if value is not None and _text(value).rsplit(".", 1)[-1] == "Optional" and len(args) == 1:
                current = args[0]
                continue
            current = value
            continue
        elif current.type == "binary_operator" and _text(current.child_by_field_name("operator")) == "|":
            sides = [current.child_by_field_name("left"), current.child_by_field_name("right")]
            kept = [side for side in sides if side is not None and side.type != "none"]
            current = kept[0] if len(kept) == 1 else None
            continue
        else:
            return None
        if chain is None or UNKNOWN in chain or chain[-1] in _PY_ANY:
            return None
        return chain
    return None


def _declared(annotation: Node | None) -> tuple[str, ...] | None:
    """``(*type, PY_DECLARED)`` for the type an annotation names (``_py_annotation``); None where it names none."""
    declared = _py_annotation(annotation) if annotation is not None else None
    return (*declared, PY_DECLARED) if declared else None


def _agree(seen: dict[str, tuple[str, ...] | None], name: str, typed: tuple[str, ...] | None) -> None:
    """Record that a binding gives ``name`` the type ``typed``: the name keeps a type only while every binding of it
    says the same one (None once two disagree, or one says nothing)."""
    seen[name] = typed if name not in seen or seen[name] == typed else None


def _chain(
    node: Node,
    member: str,
    obj_field: str,
    attr_field: str,
    names: tuple[str, ...],
    literals: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """``a.b.c`` as ``("a", "b", "c")``; a receiver that is a literal as its type's name (``literals``), one that is
    not a name chain as ``UNKNOWN``."""
    parts: list[str] = []
    current: Node | None = node
    while current is not None and current.type == member:
        parts.append(_text(current.child_by_field_name(attr_field)))
        current = current.child_by_field_name(obj_field)
    if current is None:
        parts.append(UNKNOWN)
    elif current.type in names:
        parts.append(_text(current))
    elif literals and current.type in literals:
        parts.append(literals[current.type])
    elif current.type in ("this", "self"):
        parts.append("this")
    elif current.type == "super" or (
        current.type == "call" and _text(current.child_by_field_name("function")) == "super"
    ):
        parts.append(SUPER)  # ``super().__init__()``, ``super.render()``
    else:
        parts.append(UNKNOWN)
    return tuple(reversed(parts))


# --- JavaScript / TypeScript ----------------------------------------------------------------------

_JS_DECLARATION_NAME = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "class_declaration",
        "abstract_class_declaration",
        "interface_declaration",
        "type_alias_declaration",
        "enum_declaration",
        "method_definition",
        "function_expression",
        "class",
        "function_signature",
        "method_signature",
        "abstract_method_signature",
    }
)
_JS_PARAMS = frozenset({"formal_parameters", "required_parameter", "optional_parameter", "rest_pattern"})
_JS_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
_JS_CLASSES = frozenset({"class_declaration", "class", "abstract_class_declaration"})
#: TypeScript's predefined types whose members no indexed code defines (``name.trim()`` on a ``string``).
_TS_NO_MEMBERS = frozenset(
    {"string", "number", "boolean", "void", "undefined", "null", "never", "symbol", "bigint", "object"}
)


def _type_path(node: Node) -> tuple[str, ...]:
    """A TypeScript type name as a chain: ``ns.Shape`` (a ``nested_type_identifier``) is ``("ns", "Shape")``."""
    return tuple(_text(n) for n in _walk(node) if n.type in ("identifier", "type_identifier"))


class _JavaScript:
    """JavaScript and TypeScript facts. A receiver's type is read where the source tells it: a parameter's,
    a local's or a class field's annotation (``constructor(private auth: AuthService)``: ``this.auth.check()``
    is ``("AuthService", "check")``), a local built by ``new`` (``const c = new Cache()``); a receiver of a
    primitive or array type is no indexed code's; elsewhere the chain is as written."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.imports: list[Import] = []
        self.references: list[Reference] = []
        self.bases: list[Base] = []
        self._top_functions: dict[str, int] | None = None

    def _inherits(self, call: Node) -> None:
        """``inherits(Dot, Base)`` (Node's ``util.inherits``, ``utils.inherits(Test, Runnable)``): the constructor
        function ``Dot`` of this file inherits from ``Base``, a base as a class's ``extends`` gives."""
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if function is None or arguments is None:
            return
        name = function.child_by_field_name("property") if function.type == "member_expression" else function
        args = arguments.named_children
        if name is None or _text(name) != "inherits" or len(args) < 2 or args[0].type != "identifier":
            return
        chain = _chain(args[1], "member_expression", "object", "property", ("identifier",))
        defined = self._constructors().get(_text(args[0]))
        if defined is not None and chain and chain[0] != UNKNOWN:
            self.bases.append(Base(defined, _line(call), chain))

    def _module_exports(self, assignment: Node) -> None:
        """``module.exports = Suite`` at the top of a file: a ``require`` of the file gives ``Suite``."""
        left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
        if left is not None and right is not None and right.type == "identifier" and _text(left) == "module.exports":
            self.imports.append(Import(_line(assignment), SELF_MODULE, _text(right), COMMONJS_EXPORT))

    def _constructors(self) -> dict[str, int]:
        """The file's top-level functions by name, the line each is defined on (``function Dot(runner) {``,
        ``var Dot = function (runner) {``)."""
        if self._top_functions is None:
            self._top_functions = {}
            for statement in self.root.named_children:
                if statement.type in ("function_declaration", "generator_function_declaration"):
                    name = statement.child_by_field_name("name")
                    if name is not None:
                        self._top_functions.setdefault(_text(name), _line(statement))
                elif statement.type in ("variable_declaration", "lexical_declaration"):
                    for declarator in statement.named_children:
                        name, value = declarator.child_by_field_name("name"), declarator.child_by_field_name("value")
                        functional = value is not None and value.type in _JS_FUNCTIONS
                        if name is not None and name.type == "identifier" and functional:
                            self._top_functions.setdefault(_text(name), _line(declarator))
        return self._top_functions

    def facts(self) -> FileFacts:
        # each node with the names whose type is known in scope: a variable -> its type chain (() none,
        # _UNTYPED unknown), "this.<field>" -> a class field's
        stack: list[tuple[Node, dict[str, tuple[str, ...]]]] = [(self.root, {})]
        while stack:
            node, env = stack.pop()
            kind = node.type
            if kind == "import_statement":
                self._import(node)
                continue
            if kind in ("comment", "string", "template_string", "regex"):
                continue
            if kind == "export_statement" and node.child_by_field_name("source") is not None:
                self._reexport(node)
                continue
            if kind == "export_statement":
                self._local_export(node)
            if kind == "variable_declarator":
                self._require(node)
            elif kind in _JS_CLASSES:
                self._class(node)
                env = {**env, **self._fields(node)}
            elif kind == "interface_declaration":
                self._interface(node)
            elif kind in _JS_FUNCTIONS:
                env = {**env, **self._scope(node)}
            elif kind == "call_expression":
                self._inherits(node)
            elif kind == "assignment_expression" and node.parent is not None and node.parent.parent == self.root:
                self._module_exports(node)
            elif kind == "member_expression":
                prop = node.child_by_field_name("property")
                if prop is not None and not _names_assigned_function(node):
                    chain = self._typed(
                        _chain(node, "member_expression", "object", "property", ("identifier",), _JS_LITERALS), env
                    )
                    if chain:
                        self.references.append(Reference(_line(prop), chain, _is_called(node)))
            elif kind in ("identifier", "type_identifier") and self._is_reference(node):
                self.references.append(Reference(_line(node), (_text(node),), _is_called(node)))
            elif kind == "shorthand_property_identifier":  # ``module.exports = { concat }``: ``concat: concat``
                self.references.append(Reference(_line(node), (_text(node),), False))
            stack.extend((c, env) for c in reversed(node.children))
        return FileFacts(tuple(self.imports), tuple(self.references), tuple(self.bases))

    @staticmethod
    def _typed(chain: tuple[str, ...], env: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        """``chain`` read through the known type of the variable or field it starts from; ``()`` when that
        type has no indexed members."""
        if chain[0] == "this" and len(chain) >= 3:
            key, rest = "this." + chain[1], chain[2:]
        elif len(chain) >= 2:
            key, rest = chain[0], chain[1:]
        else:
            return chain
        declared = env.get(key)
        if declared is None or declared == _UNTYPED:
            return chain
        return (*declared, *rest) if declared else ()

    @staticmethod
    def _type(node: Node | None) -> tuple[str, ...]:
        """A TypeScript type as a name chain (``AuthService``, ``ns.Thing``, ``Cache<T>``: ``("Cache",)``);
        ``()`` for a primitive or an array; ``_UNTYPED`` for anything else (``any``, a union, a literal)."""
        if node is not None and node.type == "type_annotation":
            node = node.named_children[0] if node.named_children else None
        if node is None:
            return _UNTYPED
        if node.type == "generic_type":
            node = node.child_by_field_name("name")
            if node is None:
                return _UNTYPED
        if node.type == "type_identifier":
            return (_text(node),)
        if node.type == "nested_type_identifier":
            return tuple(_text(c) for c in _walk(node) if c.type in ("identifier", "type_identifier"))
        if node.type == "predefined_type":
            return () if _text(node) in _TS_NO_MEMBERS else _UNTYPED
        if node.type == "array_type":
            return ()
        return _UNTYPED

    def _fields(self, node: Node) -> dict[str, tuple[str, ...]]:
        """A class's fields of known type, as ``this.<name>``: annotated fields and the constructor's
        parameter properties (``constructor(private auth: AuthService)``)."""
        out: dict[str, tuple[str, ...]] = {}
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else ():
            if member.type == "public_field_definition":
                name, typ = member.child_by_field_name("name"), member.child_by_field_name("type")
                value = member.child_by_field_name("value")
                if name is not None and name.type == "property_identifier":
                    out["this." + _text(name)] = self._type(typ) if typ is not None else self._built(value)
            elif member.type == "method_definition" and _text(member.child_by_field_name("name")) == "constructor":
                params = member.child_by_field_name("parameters")
                for param in params.named_children if params is not None else ():
                    if any(c.type in ("accessibility_modifier", "readonly") for c in param.children):
                        pattern = param.child_by_field_name("pattern")
                        if pattern is not None and pattern.type == "identifier":
                            out["this." + _text(pattern)] = self._type(param.child_by_field_name("type"))
        return out

    def _built(self, value: Node | None) -> tuple[str, ...]:
        """The class ``value`` constructs (``new Cache<string>()``: ``("Cache",)``); unknown otherwise."""
        if value is not None and value.type == "new_expression":
            made = value.child_by_field_name("constructor")
            if made is not None and made.type in ("identifier", "member_expression"):
                chain = _chain(made, "member_expression", "object", "property", ("identifier",))
                return chain if UNKNOWN not in chain and chain[0] != "this" else _UNTYPED
        return _UNTYPED

    def _scope(self, node: Node) -> dict[str, tuple[str, ...]]:
        """The names of a function whose type is known: annotated parameters, and locals annotated or built
        by ``new``; every other local is of unknown type (it hides an outer name of the same spelling)."""
        out: dict[str, tuple[str, ...]] = {}
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        if params is not None and params.type == "identifier":  # ``x => ...``
            out[_text(params)] = _UNTYPED
        for param in params.named_children if params is not None else ():
            pattern = param.child_by_field_name("pattern")
            if param.type in ("required_parameter", "optional_parameter") and pattern is not None:
                if pattern.type == "identifier":
                    out[_text(pattern)] = self._type(param.child_by_field_name("type"))
            elif param.type == "identifier":
                out[_text(param)] = _UNTYPED
        for sub in _own_nodes(node.child_by_field_name("body"), _JS_FUNCTIONS | _JS_CLASSES):
            if sub.type == "variable_declarator":
                name, typ = sub.child_by_field_name("name"), sub.child_by_field_name("type")
                if name is not None and name.type == "identifier":
                    built = self._type(typ) if typ is not None else self._built(sub.child_by_field_name("value"))
                    if built != _UNTYPED or _text(name) not in out:  # a known type is kept over an unknown
                        out[_text(name)] = built
        return out

    @staticmethod
    def _is_reference(node: Node) -> bool:
        parent = node.parent
        if parent is None:
            return False
        ptype = parent.type
        if ptype in _JS_DECLARATION_NAME:
            return parent.child_by_field_name("name") != node
        if ptype == "variable_declarator":
            return parent.child_by_field_name("name") != node
        if ptype in _JS_PARAMS:
            return parent.child_by_field_name("pattern") != node and ptype != "formal_parameters"
        if ptype in ("member_expression",):
            return parent.child_by_field_name("property") != node
        return ptype not in ("import_specifier", "export_specifier", "namespace_import", "import_clause")

    def _interface(self, node: Node) -> None:
        """``interface SchedulerLike extends TimestampProvider, Other<T>``: its bases (not their type arguments),
        so that a class implementing SchedulerLike implements TimestampProvider too."""
        for clause in node.named_children:
            if clause.type != "extends_type_clause":
                continue
            for base in clause.named_children:
                named = base.child_by_field_name("name") if base.type == "generic_type" else base
                if named is not None and named.type in ("type_identifier", "nested_type_identifier"):
                    self.bases.append(Base(_line(node), _line(base), _type_path(named)))

    def _class(self, node: Node) -> None:
        for child in node.children:
            if child.type != "class_heritage":
                continue
            named = sorted(_own_nodes(child, frozenset({"type_arguments"})), key=lambda n: n.start_byte)
            for sub in named:  # in order (the class it extends first); ``Base<Config>``: Config is no base
                if sub.type == "nested_type_identifier" and (sub.parent is None or sub.parent.type != sub.type):
                    self.bases.append(Base(_line(node), _line(sub), _type_path(sub)))  # ``implements ns.Shape``
                elif (
                    sub.type in ("identifier", "type_identifier", "member_expression")
                    and sub.parent is not None
                    and sub.parent.type not in ("member_expression", "nested_type_identifier")
                ):
                    chain = _chain(sub, "member_expression", "object", "property", ("identifier", "type_identifier"))
                    if UNKNOWN not in chain:
                        self.bases.append(Base(_line(node), _line(sub), chain))

    def _import(self, node: Node) -> None:
        source = node.child_by_field_name("source")
        if source is None:
            return
        module = _string_value(source)
        line = _line(node)
        found = False
        for clause in node.children:
            if clause.type != "import_clause":
                continue
            for child in clause.children:
                if child.type == "identifier":
                    self.imports.append(Import(line, module, "default", _text(child)))
                    found = True
                elif child.type == "namespace_import":
                    names = [c for c in child.children if c.type == "identifier"]
                    if names:
                        self.imports.append(Import(line, module, None, _text(names[0])))
                        found = True
                elif child.type == "named_imports":
                    for spec in child.children:
                        if spec.type == "import_specifier":
                            name = _text(spec.child_by_field_name("name"))
                            alias = _text(spec.child_by_field_name("alias")) or name
                            self.imports.append(Import(_line(spec), module, name, alias))
                            found = True
        if not found:  # a side-effect import: ``import "./polyfill"``
            self.imports.append(Import(line, module, None, ""))

    def _reexport(self, node: Node) -> None:
        module = _string_value(node.child_by_field_name("source"))  # type: ignore[arg-type]
        specs = [
            s for c in node.children if c.type == "export_clause" for s in c.children if s.type == "export_specifier"
        ]
        if not specs:
            self.imports.append(Import(_line(node), module, "*", "*"))
        for spec in specs:
            name = _text(spec.child_by_field_name("name"))
            alias = _text(spec.child_by_field_name("alias")) or name
            self.imports.append(Import(_line(spec), module, name, alias))

    def _local_export(self, node: Node) -> None:
        """``export default X``, ``export default function X``, ``export { x as y }``: a name of this
        file exported under another, bound as an import from the file itself (``SELF_MODULE``)."""
        if any(c.type == "default" for c in node.children):
            target = node.child_by_field_name("value")
            if target is None:
                declared = node.child_by_field_name("declaration")
                target = declared.child_by_field_name("name") if declared is not None else None
            if target is not None and target.type == "identifier":
                self.imports.append(Import(_line(node), SELF_MODULE, _text(target), "default"))
            return
        for clause in node.children:
            if clause.type != "export_clause":
                continue
            for spec in clause.children:
                if spec.type == "export_specifier":
                    name = _text(spec.child_by_field_name("name"))
                    alias = _text(spec.child_by_field_name("alias"))
                    if alias and alias != name:
                        self.imports.append(Import(_line(spec), SELF_MODULE, name, alias))

    def _require(self, node: Node) -> None:
        value = node.child_by_field_name("value")
        if value is None or value.type != "call_expression":
            return
        fn = value.child_by_field_name("function")
        args = value.child_by_field_name("arguments")
        if fn is None or _text(fn) != "require" or args is None:
            return
        strings = [a for a in args.named_children if a.type == "string"]
        if not strings:
            return
        module = _string_value(strings[0])
        name = node.child_by_field_name("name")
        line = _line(node)
        if name is None:
            return
        if name.type == "identifier":
            self.imports.append(Import(line, module, None, _text(name)))
        elif name.type == "object_pattern":
            for child in name.named_children:
                if child.type == "shorthand_property_identifier_pattern":
                    self.imports.append(Import(line, module, _text(child), _text(child)))
                elif child.type == "pair_pattern":
                    key, val = child.child_by_field_name("key"), child.child_by_field_name("value")
                    if val is not None and val.type == "identifier":
                        self.imports.append(Import(line, module, _text(key), _text(val)))


# --- Go ---------------------------------------------------------------------------------------------

_GO_DECLARATION_NAME = frozenset(
    {
        "function_declaration",
        "method_declaration",
        "type_spec",
        "type_alias",
        "parameter_declaration",
        "variadic_parameter_declaration",
        "const_spec",
        "var_spec",
        "field_declaration",
        "method_spec",
        "method_elem",
    }
)


#: Go's predeclared types: a method called on a parameter of one is no indexed code's.
_GO_PREDECLARED = frozenset(
    [
        "any",
        "bool",
        "byte",
        "comparable",
        "complex64",
        "complex128",
        "error",
        "float32",
        "float64",
        "int",
        "int8",
        "int16",
        "int32",
        "int64",
        "rune",
        "string",
        "uint",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "uintptr",
    ]
)


class _Go:
    def __init__(self, root: Node) -> None:
        self.root = root
        self.imports: list[Import] = []
        self.references: list[Reference] = []
        self.bases: list[Base] = []
        self.methods: list[GoMethod] = []
        self.package = ""

    def facts(self) -> FileFacts:
        stack = [self.root]
        while stack:
            node = stack.pop()
            kind = node.type
            if kind == "package_clause":
                names = [c for c in node.children if c.type == "package_identifier"]
                self.package = _text(names[0]) if names else ""
                continue
            if kind == "import_spec":
                self._import(node)
                continue
            if kind in ("comment", "interpreted_string_literal", "raw_string_literal"):
                continue
            if kind == "method_declaration":
                self._method(node)
            elif kind == "type_spec":
                self._embedding(node)
            elif kind == "qualified_type":
                pkg, name = node.child_by_field_name("package"), node.child_by_field_name("name")
                if pkg is not None and name is not None:
                    self.references.append(Reference(_line(name), (_text(pkg), _text(name)), False))
            elif kind == "selector_expression":
                field = node.child_by_field_name("field")
                if field is not None:
                    chain = self._typed(node, _chain(node, "selector_expression", "operand", "field", ("identifier",)))
                    if chain:
                        self.references.append(Reference(_line(field), chain, _is_called(node)))
            elif kind == "keyed_element" and (keyed := self._field_key(node)) is not None:
                key, typ = keyed
                if typ:  # ``&Mux{handler: h}`` sets Mux's field ``handler``
                    self.references.append(Reference(_line(key), (*typ, _text(key)), False))
                stack.extend(reversed(node.children[1:]))  # the key names a field, not what is in scope
                continue
            elif kind in ("identifier", "type_identifier") and self._is_reference(node):
                self.references.append(Reference(_line(node), (_text(node),), _is_called(node)))
            stack.extend(reversed(node.children))
        return FileFacts(
            tuple(self.imports), tuple(self.references), tuple(self.bases), tuple(self.methods), self.package
        )

    def _field_key(self, element: Node) -> tuple[Node, tuple[str, ...]] | None:
        """A struct literal's field name and the struct's type (``&Mux{handler: h}``: ``handler``, ``("Mux",)``;
        the type empty where it is not written as a name). None where the key is an expression: a map's
        (``map[string]int{key: 1}``), or a literal whose elements' type is not written (``[]T{{x: 1}}``) inside a
        map's type."""
        key = element.child_by_field_name("key")
        if key is None or key.type != "literal_element" or key.named_child_count != 1:
            return None
        name = key.named_children[0]
        if name.type != "identifier":
            return None
        literal = element.parent.parent if element.parent is not None else None
        if literal is None or literal.type != "composite_literal":  # an element of an elided type
            outer = literal
            while outer is not None and outer.type != "composite_literal":
                outer = outer.parent
            typ = outer.child_by_field_name("type") if outer is not None else None
            return None if typ is None or "map[" in _text(typ) else (name, ())
        typ = literal.child_by_field_name("type")
        if typ is None or typ.type == "map_type":
            return None
        return name, self._type_name(typ) or ()

    @staticmethod
    def _is_reference(node: Node) -> bool:
        parent = node.parent
        if parent is None:
            return False
        if parent.type in _GO_DECLARATION_NAME:
            return parent.child_by_field_name("name") != node
        if parent.type == "selector_expression":
            return parent.child_by_field_name("field") != node
        if parent.type == "qualified_type":  # pkg.Type: kept whole below
            return False
        if (
            parent.type == "expression_list"
            and parent.parent is not None
            and parent.parent.type == "short_var_declaration"
        ):
            return parent.parent.child_by_field_name("left") != parent
        return True

    def _typed(self, node: Node, chain: tuple[str, ...]) -> tuple[str, ...]:
        """``chain`` read through the declared type of the parameter it starts from: ``w.Write`` with
        ``w http.ResponseWriter`` is ``("http", "ResponseWriter", "Write")`` (resolved through the
        import, to nothing where the package is not indexed), ``m.Handle`` with ``m *Mux`` is
        ``("Mux", "Handle")``; past a call (``r.Context().Value``) the member is of an unknown type
        of that package, ``("http", "Request", UNKNOWN, "Value")``. Empty: a member of a predeclared
        type (``err.Error``), which no indexed code defines. Other chains as they are."""
        head = node
        while head.type in ("selector_expression", "call_expression"):
            inner = head.child_by_field_name("operand" if head.type == "selector_expression" else "function")
            if inner is None:
                return chain
            head = inner
        if head.type != "identifier":
            return chain
        declared = self._parameter_type(head)
        if declared is None:
            return chain
        if declared[-1] in _GO_PREDECLARED and len(declared) == 1:
            return ()
        if chain[0] == UNKNOWN:
            return (*declared, *chain)
        return (*declared, *chain[1:]) if chain[0] == _text(head) else chain

    def _parameter_type(self, name: Node) -> tuple[str, ...] | None:
        """The declared type of the parameter ``name`` refers to (the innermost function declaring it):
        ``("Mux",)`` for ``*Mux``, ``("http", "Request")`` for ``*http.Request``; None for anything
        else (not a parameter, a slice, map, function or generic type, a method's receiver)."""
        text = _text(name)
        scope = name.parent
        while scope is not None:
            params = (
                scope.child_by_field_name("parameters")
                if scope.type in ("function_declaration", "method_declaration", "func_literal")
                else None
            )
            for decl in params.named_children if params is not None else ():
                if decl.type == "parameter_declaration" and any(
                    c.type == "identifier" and _text(c) == text for c in decl.children
                ):
                    return self._type_name(decl.child_by_field_name("type"))
            scope = scope.parent
        return None

    @staticmethod
    def _type_name(typ: Node | None) -> tuple[str, ...] | None:
        """A declared type as a name chain, pointers dropped (``*http.Request`` -> ``("http", "Request")``,
        ``*Mux`` -> ``("Mux",)``); None for any other type (slice, map, function, generic)."""
        while typ is not None and typ.type in ("pointer_type", "parenthesized_type"):
            typ = typ.named_children[-1] if typ.named_children else None
        if typ is not None and typ.type == "type_identifier":
            return (_text(typ),)
        if typ is not None and typ.type == "qualified_type":
            pkg, name = typ.child_by_field_name("package"), typ.child_by_field_name("name")
            return (_text(pkg), _text(name)) if pkg is not None and name is not None else None
        return None

    def _import(self, node: Node) -> None:
        path = _string_value(node.child_by_field_name("path"))  # type: ignore[arg-type]
        name = node.child_by_field_name("name")
        alias = _text(name) if name is not None else path.rstrip("/").split("/")[-1]
        if alias in ("_", "."):
            alias = "" if alias == "_" else "."
        self.imports.append(Import(_line(node), path, None, alias))

    def _method(self, node: Node) -> None:
        receiver = node.child_by_field_name("receiver")
        if receiver is None:
            return
        params = [c for c in receiver.named_children if c.type == "parameter_declaration"]
        if not params:
            return
        var = _text(params[0].child_by_field_name("name"))
        type_names = [n for n in _walk(params[0]) if n.type == "type_identifier"]
        if type_names:
            self.methods.append(GoMethod(_line(node), var, _text(type_names[0])))

    def _embedding(self, node: Node) -> None:
        body = node.child_by_field_name("type")
        if body is None or body.type not in ("struct_type", "interface_type"):
            return
        for sub in _walk(body):
            if sub.type == "field_declaration" and sub.child_by_field_name("name") is None:
                typ = sub.child_by_field_name("type")
                if typ is not None:
                    names = [n for n in _walk(typ) if n.type == "type_identifier"]
                    if names:
                        self.bases.append(Base(_line(node), _line(sub), (_text(names[-1]),)))
            elif (
                sub.type in ("type_elem", "constraint_elem")
                and sub.parent is not None
                and sub.parent.type == "interface_type"
            ):
                names = [n for n in _walk(sub) if n.type == "type_identifier"]
                if names:
                    self.bases.append(Base(_line(node), _line(sub), (_text(names[-1]),)))


# --- Java -------------------------------------------------------------------------------------------

_JAVA_TYPES = frozenset(
    {
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "annotation_type_declaration",
    }
)
_JAVA_FUNCTIONS = frozenset(
    {"method_declaration", "constructor_declaration", "compact_constructor_declaration", "lambda_expression"}
)
#: The nodes holding a scope of their own inside a method (a local or anonymous class, a lambda).
_JAVA_SCOPES = _JAVA_TYPES | _JAVA_FUNCTIONS | {"class_body"}
_JAVA_SKIP = frozenset({"line_comment", "block_comment", "string_literal", "text_block", "character_literal"})
#: A declared type with no members any indexed code defines: the primitives (an array is ``ARRAY`` and its
#: element type, ``Java._type``).
_JAVA_NO_MEMBERS = frozenset({"integral_type", "floating_point_type", "boolean_type", "void_type"})


def _members_of(declared: tuple[str, ...]) -> tuple[str, ...]:
    """Where a variable of the ``declared`` type looks its members up: ``()`` for an array (``xs.length``,
    ``xs.clone()`` are the language's), else the type."""
    return () if declared[:1] == (ARRAY,) else declared


class _Packaged:
    """What a reader of a language of packages and declared types (Java, C#) gathers, and the facts it makes."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.imports: list[Import] = []
        self.references: list[Reference] = []
        self.bases: list[Base] = []
        self.package = ""
        self.returns: list[tuple[int, tuple[str, ...]]] = []

    def _facts(self) -> FileFacts:
        return FileFacts(
            tuple(self.imports), tuple(self.references), tuple(self.bases), (), self.package, tuple(self.returns)
        )

    #: The name of the language's truth-value type (``boolean``, ``bool``).
    _BOOLEAN = ""

    def _type(self, typ: Node | None, env: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        raise NotImplementedError  # each language reads its own type syntax

    def _literal(self, value: Node) -> str | None:
        """The type of ``value`` where it is a literal (``"x"``: ``String``); None where it is none."""
        raise NotImplementedError

    def _built_in(self, typ: Node) -> str | None:
        """The name of a built-in type written as ``typ`` (``int``, ``long``); None for any other type."""
        raise NotImplementedError

    def _value_type(self, value: Node, env: dict[str, tuple[str, ...]]) -> str:
        """The type an argument's source shows (a literal's, a comparison's, a declared name's, ``new T()``'s, a
        cast's), as the overloads' parameters are read (``resolve._java_parameters``, ``resolve._csharp_parameters``);
        "" where it shows none."""
        while value.type == "parenthesized_expression" and value.named_children:
            value = value.named_children[0]
        literal = self._literal(value)
        if literal is not None:
            return literal
        if _is_condition(value):
            return self._BOOLEAN
        if value.type == "identifier":
            return _type_shown(env.get(_text(value), ()))
        if value.type in ("object_creation_expression", "cast_expression"):
            typ = value.child_by_field_name("type")
            built_in = self._built_in(typ) if typ is not None else None
            return built_in if built_in is not None else _type_shown(self._type(typ, env))
        return ""


class _Java(_Packaged):
    """Java's facts. A receiver's declared type is read where the source writes it (a parameter, local,
    field or cast: ``Engine e; e.start()`` is ``("Engine", "start")``), a type parameter standing for its
    bound; a receiver of a primitive or array type is no indexed code's. A type written anywhere (a
    declaration, ``new``, ``extends``, an annotation) is a reference to it."""

    def facts(self) -> FileFacts:
        # each node with the names in scope: variable -> declared type chain (() none, _UNTYPED unknown),
        # and "<T>" -> a type parameter's bound
        stack: list[tuple[Node, dict[str, tuple[str, ...]]]] = [(self.root, {})]
        while stack:
            node, env = stack.pop()
            kind = node.type
            if kind in _JAVA_SKIP:
                continue
            if kind == "package_declaration":
                names = [c for c in node.named_children if c.type in ("scoped_identifier", "identifier")]
                self.package = _text(names[0]) if names else ""
                continue
            if kind == "import_declaration":
                self._import(node)
                continue
            if kind in _JAVA_TYPES:
                env = self._class_scope(node, env)
                self._bases(node, env)
            elif kind in _JAVA_FUNCTIONS:
                env = self._function_scope(node, env)
                if kind == "method_declaration":
                    self.returns.append((_line(node), self._type(node.child_by_field_name("type"), env)))
            elif kind == "method_invocation":
                self._call(node, env)
            elif kind == "method_reference":
                named = node.named_children
                if len(named) >= 2 and named[-1].type == "identifier":
                    head = self._receiver(named[0], env)
                    if head:
                        self.references.append(Reference(_line(named[-1]), (*head, _text(named[-1])), False))
            elif kind == "field_access" and self._outermost(node):
                head = self._receiver(node.child_by_field_name("object"), env)
                field = node.child_by_field_name("field")
                if head and field is not None:
                    self.references.append(Reference(_line(field), (*head, _text(field)), False, head == _UNTYPED))
                self._static_head(node, env)
            elif kind == "type_identifier" and self._type_use(node, env):
                self.references.append(Reference(_line(node), (_text(node),), self._constructed(node)))
            elif kind == "scoped_type_identifier" and (node.parent is None or node.parent.type != kind):
                chain = tuple(_text(c) for c in _walk(node) if c.type == "type_identifier")
                self.references.append(Reference(_line(node), chain, self._constructed(node)))
                continue
            elif kind in ("marker_annotation", "annotation"):
                name = node.child_by_field_name("name")
                if name is not None:
                    self.references.append(Reference(_line(name), tuple(_text(name).split(".")), False))
            stack.extend((c, env) for c in reversed(node.children))
        return self._facts()

    @staticmethod
    def _type_use(node: Node, env: dict[str, tuple[str, ...]]) -> bool:
        """Whether the type name ``node`` names a class (not a type parameter, ``var``, or a part of a
        qualified name, which is read whole)."""
        parent = node.parent
        text = _text(node)
        return (
            parent is not None
            and parent.type not in ("scoped_type_identifier", "type_parameter")
            and f"<{text}>" not in env
            and text != "var"
        )

    @staticmethod
    def _constructed(node: Node) -> bool:
        """Whether the type ``node`` is the one a ``new`` expression constructs."""
        parent = node.parent
        if parent is not None and parent.type == "generic_type":
            node, parent = parent, parent.parent
        return (
            parent is not None
            and parent.type == "object_creation_expression"
            and parent.child_by_field_name("type") == node
        )

    @staticmethod
    def _outermost(node: Node) -> bool:
        """Whether the member access ``node`` is read whole here (not the receiver of a longer chain)."""
        parent = node.parent
        if parent is None:
            return True
        if parent.type in ("field_access", "method_invocation"):
            return parent.child_by_field_name("object") != node
        return parent.type != "method_reference"

    def _import(self, node: Node) -> None:
        names = [c for c in node.named_children if c.type in ("scoped_identifier", "identifier")]
        if not names:
            return
        path = _text(names[0])
        line = _line(node)
        if any(c.type == "asterisk" for c in node.children):
            self.imports.append(Import(line, path, "*", "*"))
            return
        module, _, name = path.rpartition(".")
        if module:
            self.imports.append(Import(line, module, name, name))

    def _type(self, typ: Node | None, env: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        """A declared type as a name chain: ``("Engine",)``, ``("Map", "Entry")`` for ``Map.Entry<K, V>``,
        ``(ARRAY, "Engine")`` for ``Engine[]``; ``()`` for a primitive; ``_UNTYPED`` where it is not written
        (``var``)."""
        if typ is None:
            return _UNTYPED
        if typ.type == "generic_type" and typ.named_children:
            typ = typ.named_children[0]
        if typ.type in _JAVA_NO_MEMBERS:
            return ()
        if typ.type == "array_type":
            element = self._type(typ.child_by_field_name("element"), env)
            return (ARRAY, *element) if element != _UNTYPED else (ARRAY, UNKNOWN)  # (ARRAY,): of a primitive
        if typ.type == "type_identifier":
            text = _text(typ)
            if text == "var":
                return _UNTYPED
            return env.get(f"<{text}>", (text,))
        if typ.type == "scoped_type_identifier":
            return tuple(_text(c) for c in _walk(typ) if c.type == "type_identifier")
        return _UNTYPED

    def _type_parameters(self, node: Node, env: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        params = node.child_by_field_name("type_parameters")
        for param in params.named_children if params is not None else ():
            names = [c for c in param.named_children if c.type in ("type_identifier", "identifier")]
            if not names:
                continue
            bound = [c for c in param.named_children if c.type == "type_bound"]
            kinds = [c for c in bound[0].named_children] if bound else []
            out[f"<{_text(names[0])}>"] = self._type(kinds[0], env) if kinds else ()
        return out

    def _class_scope(self, node: Node, env: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        """``env`` inside a class: its type parameters and its fields' declared types."""
        env = {**env, **self._type_parameters(node, env)}
        body = node.child_by_field_name("body")
        fields: dict[str, tuple[str, ...]] = {}
        for member in body.named_children if body is not None else ():
            if member.type in ("field_declaration", "constant_declaration"):
                typ = self._type(member.child_by_field_name("type"), env)
                for declarator in member.children_by_field_name("declarator"):
                    name = declarator.child_by_field_name("name")
                    if name is not None:
                        fields[_text(name)] = typ
        params = node.child_by_field_name("parameters")  # a record's components
        for param in params.named_children if params is not None else ():
            name = param.child_by_field_name("name")
            if name is not None:
                fields[_text(name)] = self._type(param.child_by_field_name("type"), env)
        return {**env, **fields}

    def _function_scope(self, node: Node, env: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        """``env`` inside a method, constructor or lambda: its type parameters, parameters and locals (a
        local's block is not tracked: a name declared twice in one method takes the later type)."""
        env = {**env, **self._type_parameters(node, env)}
        scope: dict[str, tuple[str, ...]] = {}
        params = node.child_by_field_name("parameters")
        if params is not None and params.type == "identifier":  # ``x -> ...``
            scope[_text(params)] = _UNTYPED
        for param in params.named_children if params is not None else ():
            if param.type == "identifier":  # ``(a, b) -> ...``
                scope[_text(param)] = _UNTYPED
            elif param.type in ("formal_parameter", "spread_parameter"):
                name = param.child_by_field_name("name")
                if name is None:
                    declarators = [c for c in param.named_children if c.type == "variable_declarator"]
                    name = declarators[0].child_by_field_name("name") if declarators else None
                if name is not None:
                    types = [c for c in param.named_children if c.type not in ("modifiers", "variable_declarator")]
                    typ = param.child_by_field_name("type") or (types[0] if types else None)
                    scope[_text(name)] = () if param.type == "spread_parameter" else self._type(typ, env)
        for sub in _own_nodes(node.child_by_field_name("body"), _JAVA_SCOPES):
            if sub.type == "local_variable_declaration":
                declared = self._type(sub.child_by_field_name("type"), env)
                for declarator in sub.children_by_field_name("declarator"):
                    name = declarator.child_by_field_name("name")
                    if name is not None:
                        scope[_text(name)] = declared
            elif sub.type in ("enhanced_for_statement", "catch_formal_parameter", "resource"):
                name = sub.child_by_field_name("name")
                if name is not None:
                    typ = sub.child_by_field_name("type")
                    if sub.type == "catch_formal_parameter":
                        caught = [c for c in sub.named_children if c.type == "catch_type"]
                        named = caught[0].named_children if caught else []
                        typ = named[0] if len(named) == 1 else None  # ``catch (A | B e)``: either
                    scope[_text(name)] = self._type(typ, env)
        return {**env, **scope}

    def _receiver(self, node: Node | None, env: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        """The chain a member is looked up on: a variable's declared type, a class name, ``this``,
        ``super``; ``_UNTYPED`` for a variable of unwritten type, ``(UNKNOWN,)`` for a value of unknown
        type; ``()`` when no indexed code can define the member (a primitive or array)."""
        if node is None:
            return ()
        kind = node.type
        if kind == "identifier":
            return _members_of(env.get(_text(node), (_text(node),)))
        if kind == "this":
            return ("this",)
        if kind == "super":
            return (SUPER,)
        if kind == "field_access":
            head = self._receiver(node.child_by_field_name("object"), env)
            field = node.child_by_field_name("field")
            if not head or field is None:
                return ()
            if head == ("this",) and _text(field) in env:  # ``this.engine``: the field's declared type
                return _members_of(env[_text(field)])
            return (UNKNOWN,) if head[-1] == UNKNOWN and len(head) > 1 else (*head, _text(field))
        if kind == "array_access":  # ``rules[i].apply()``: the element type of a declared array
            inner = node.child_by_field_name("array")
            declared = self._declared(inner, env) if inner is not None else ()
            return declared[1:] if declared[:1] == (ARRAY,) else (UNKNOWN,)
        if kind == "method_invocation":  # ``a.b().c()``: read through b's declared return type
            name = node.child_by_field_name("name")
            obj = node.child_by_field_name("object")
            head = self._receiver(obj, env) if obj is not None else ()
            if name is None or (obj is not None and (not head or head[-1] == UNKNOWN)):
                return (UNKNOWN,)
            return (*head, _text(name), RETURNS)
        if kind in ("object_creation_expression", "cast_expression"):
            return self._type(node.child_by_field_name("type"), env)
        if kind == "parenthesized_expression" and node.named_children:
            return self._receiver(node.named_children[0], env)
        if kind in ("string_literal", "text_block"):
            return ("String",)
        return (UNKNOWN,)

    def _declared(self, node: Node, env: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        """The declared type of the variable or field ``node`` names (``xs``, ``this.xs``), arrays kept."""
        if node.type == "identifier":
            return env.get(_text(node), ())
        if node.type == "field_access":
            obj, field = node.child_by_field_name("object"), node.child_by_field_name("field")
            if obj is not None and obj.type == "this" and field is not None:
                return env.get(_text(field), ())
        return ()

    _BOOLEAN = "boolean"

    def _literal(self, value: Node) -> str | None:
        if value.type.endswith("_integer_literal"):
            return "long" if _text(value)[-1:] in ("l", "L") else "int"
        if value.type.endswith("_floating_point_literal"):
            return "float" if _text(value)[-1:] in ("f", "F") else "double"
        return _JAVA_LITERALS.get(value.type)

    def _built_in(self, typ: Node) -> str | None:
        return _text(typ) if typ.type in ("integral_type", "floating_point_type", "boolean_type") else None

    def _call(self, node: Node, env: dict[str, tuple[str, ...]]) -> None:
        name = node.child_by_field_name("name")
        if name is None:
            return
        arguments = node.child_by_field_name("arguments")
        values = [a for a in arguments.named_children if "comment" not in a.type] if arguments is not None else []
        arity = -1 if arguments is None else len(values)
        types = tuple(self._value_type(v, env) for v in values)
        types = types if any(types) else ()
        obj = node.child_by_field_name("object")
        if obj is None:
            self.references.append(Reference(_line(name), (_text(name),), True, False, False, arity, types))
            return
        head = self._receiver(obj, env)
        if head:
            self.references.append(
                Reference(_line(name), (*head, _text(name)), True, head == _UNTYPED, False, arity, types)
            )
        self._static_head(node, env)

    def _static_head(self, node: Node, env: dict[str, tuple[str, ...]]) -> None:
        """``Helpers.check(x)``, ``Color.RED``: the class named first is used too."""
        head = node.child_by_field_name("object")
        while head is not None and head.type == "field_access":
            head = head.child_by_field_name("object")
        if head is not None and head.type == "identifier":
            text = _text(head)
            if text[:1].isupper() and text not in env:
                self.references.append(Reference(_line(head), (text,), False))

    def _bases(self, node: Node, env: dict[str, tuple[str, ...]]) -> None:
        for child in node.named_children:
            if child.type not in ("superclass", "super_interfaces", "extends_interfaces"):
                continue
            for typ in _walk(child):
                if typ.parent is not None and typ.parent.type in ("superclass", "type_list"):
                    chain = self._type(typ, env)
                    if chain and chain != _UNTYPED:
                        self.bases.append(Base(_line(node), _line(typ), chain))


# --- C# ---------------------------------------------------------------------------------------------

_CS_TYPES = frozenset(
    {"class_declaration", "struct_declaration", "interface_declaration", "record_declaration", "enum_declaration"}
)
_CS_FUNCTIONS = frozenset(
    {
        "method_declaration",
        "constructor_declaration",
        "destructor_declaration",
        "operator_declaration",
        "conversion_operator_declaration",
        "indexer_declaration",
        "accessor_declaration",
        "local_function_statement",
        "lambda_expression",
        "anonymous_method_expression",
    }
)
#: The nodes holding a scope of their own inside a method (a local function, a lambda).
_CS_SCOPES = _CS_TYPES | _CS_FUNCTIONS


def _type_shown(chain: tuple[str, ...]) -> str:
    """The name of the type a Java or C# declared type chain shows (``("Signature",)``: ``Signature``), as an
    argument's type is compared with a parameter's; "" for an array, an unwritten or an unknown type."""
    return chain[-1] if chain and chain[0] not in (UNKNOWN, ARRAY) and chain != _UNTYPED else ""


#: The operators whose value is a truth value, in Java and C#.
_CONDITIONS = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||", "instanceof", "is"})


def _is_condition(value: Node) -> bool:
    """Whether a Java or C# expression is a comparison, a logical one or a negation (``x != null``, ``!done``,
    ``o instanceof T``): a ``boolean`` (``bool``) whatever its operands."""
    if value.type in ("binary_expression", "instanceof_expression", "is_expression", "is_pattern_expression"):
        operator = value.child_by_field_name("operator")
        return value.type != "binary_expression" or (operator is not None and _text(operator) in _CONDITIONS)
    if value.type in ("unary_expression", "prefix_unary_expression"):
        return any(c.type == "!" for c in value.children)
    return False


#: The type a Java literal has (numbers apart: ``_Java._literal``).
_JAVA_LITERALS = {
    "string_literal": "String",
    "text_block": "String",
    "true": "boolean",
    "false": "boolean",
    "character_literal": "char",
}
#: The type a C# literal has, spelled as ``cs_type_name`` spells a predefined type.
_CS_LITERALS = {
    "string_literal": "String",
    "verbatim_string_literal": "String",
    "raw_string_literal": "String",
    "interpolated_string_expression": "String",
    "integer_literal": "int",
    "real_literal": "double",
    "boolean_literal": "bool",
    "character_literal": "char",
}
#: C#'s predefined types under their framework names (``Int32 n`` is ``int n``), spelled one way.
_CS_PREDEFINED = {
    "string": "String",
    "Int32": "int",
    "Int64": "long",
    "Int16": "short",
    "UInt32": "uint",
    "UInt64": "ulong",
    "UInt16": "ushort",
    "Byte": "byte",
    "SByte": "sbyte",
    "Boolean": "bool",
    "Double": "double",
    "Single": "float",
    "Decimal": "decimal",
    "Char": "char",
    "Object": "object",
}


def cs_type_name(name: str) -> str:
    """A C# type's name as argument and parameter types are compared (``string`` and ``String``, ``Int32`` and
    ``int`` alike; ``System.String`` as ``String``; ``int?`` as ``int``)."""
    name = name.rstrip("?").rsplit(".", 1)[-1]
    return _CS_PREDEFINED.get(name, name)


_CS_SKIP = frozenset(
    {"comment", "string_literal", "verbatim_string_literal", "raw_string_literal", "character_literal"}
)
#: Where a type is written (these fields of these nodes): each is a reference to the type.
_CS_TYPE_FIELDS = {
    "variable_declaration": "type",
    "parameter": "type",
    "property_declaration": "type",
    "method_declaration": "returns",
    "local_function_statement": "type",
    "delegate_declaration": "type",
    "indexer_declaration": "type",
    "operator_declaration": "type",
    "event_declaration": "type",
    "cast_expression": "type",
    "typeof_expression": "type",
    "default_expression": "type",
    "array_creation_expression": "type",
    "foreach_statement": "type",
    "catch_declaration": "type",
    "declaration_expression": "type",
    "declaration_pattern": "type",
    "type_parameter_constraint": "type",
    "as_expression": "right",
    "is_expression": "right",
}
#: Nodes whose identifier children (but those in the named fields) are values: a local, a parameter, or a
#: member of the class the code is in (``Radius * 2``, ``Count(items)``), or a class named for a static member.
_CS_VALUE_PARENTS: dict[str, frozenset[str]] = {
    kind: frozenset(skip)
    for kind, skip in {
        "argument": ("name",),
        "assignment_expression": ("operator",),
        "binary_expression": ("operator",),
        "prefix_unary_expression": (),
        "postfix_unary_expression": (),
        "parenthesized_expression": (),
        "conditional_expression": (),
        "return_statement": (),
        "yield_statement": (),
        "throw_statement": (),
        "throw_expression": (),
        "expression_statement": (),
        "variable_declarator": ("name",),
        "equals_value_clause": (),
        "arrow_expression_clause": (),
        "interpolation": (),
        "element_access_expression": (),
        "member_access_expression": ("name",),
        "conditional_access_expression": (),
        "foreach_statement": ("type", "left", "body"),
        "if_statement": ("consequence", "alternative"),
        "while_statement": ("body",),
        "do_statement": ("body",),
        "switch_statement": ("body",),
        "switch_expression": (),
        "switch_expression_arm": (),
        "lambda_expression": ("parameters",),
        "initializer_expression": (),
        "is_pattern_expression": ("pattern",),
        "is_expression": ("right",),
        "as_expression": ("right",),
        "cast_expression": ("type",),
        "range_expression": (),
        "checked_expression": (),
        "lock_statement": ("body",),
        "await_expression": (),
        "ref_expression": (),
        "tuple_expression": (),
        "for_statement": ("body",),
    }.items()
}
#: The marker in a C# reader's environment that a name is a local or a parameter (``"$name"``), not a member.
_CS_LOCAL = "$"


class _CSharp(_Packaged):
    """C#'s facts, read as Java's are (``_Java``): a receiver's declared type where the source writes it (a
    parameter, local, field, property, cast, ``new``), a method's or property's declared type for the
    member read from its value (``RETURNS``; a field's or property's through ``returns``), a type written
    anywhere a reference to it. Besides, a bare name that is no local (``Radius * 2``) is a use of the
    member, or class, it names. ``using A.B;`` imports namespace ``A.B``'s types, ``using static A.B.C;``
    class ``C``'s members, ``using X = A.B.C;`` names ``C`` ``X``; the file's first namespace is its package."""

    def facts(self) -> FileFacts:
        stack: list[tuple[Node, dict[str, tuple[str, ...]]]] = [(self.root, {})]
        while stack:
            node, env = stack.pop()
            kind = node.type
            if kind in _CS_SKIP:
                continue
            if kind in ("namespace_declaration", "file_scoped_namespace_declaration"):
                if not self.package:
                    self.package = "".join(_text(node.child_by_field_name("name")).split())
            elif kind == "using_directive":
                self._using(node)
                continue
            elif kind in _CS_TYPES:
                env = self._class_scope(node, env)
                self._bases(node, env)
            elif kind in _CS_FUNCTIONS:
                env = self._function_scope(node, env)
                if kind == "method_declaration":
                    self.returns.append((_line(node), self._type(node.child_by_field_name("returns"), env)))
            elif kind == "property_declaration":
                self.returns.append((_line(node), self._type(node.child_by_field_name("type"), env)))
            elif kind == "field_declaration":
                declaration = _child_of_type(node, "variable_declaration")
                if declaration is not None:
                    self.returns.append((_line(node), self._type(declaration.child_by_field_name("type"), env)))
            elif kind == "invocation_expression":
                self._call(node, env)
            elif kind == "object_creation_expression":
                for line, chain in self._type_names(node.child_by_field_name("type"), env):
                    self.references.append(Reference(line, chain, True))
                self._initialized(node, env)
            elif kind in ("member_access_expression", "conditional_access_expression"):
                self._access(node, env)
            elif kind == "attribute":
                for line, chain in self._type_names(node.child_by_field_name("name"), env):
                    self.references.append(Reference(line, chain, False))
                    self.references.append(Reference(line, (*chain[:-1], chain[-1] + "Attribute"), False))
            if kind == "member_access_expression":
                obj = node.child_by_field_name("expression")
                name = node.child_by_field_name("name")
                if obj is not None and obj.type == "this" and name is not None:  # ``this.engine.Start()``
                    self.references.append(Reference(_line(name), ("this", _text(name)), False))
            field = _CS_TYPE_FIELDS.get(kind)
            if field is not None:
                for line, chain in self._type_names(node.child_by_field_name(field), env):
                    self.references.append(Reference(line, chain, False))
            skip = _CS_VALUE_PARENTS.get(kind)
            if skip is not None:
                self._values(node, skip, env)
            stack.extend((c, env) for c in reversed(node.children))
        return self._facts()

    def _values(self, node: Node, skip: frozenset[str], env: dict[str, tuple[str, ...]]) -> None:
        """The bare names among ``node``'s children that are no local: uses of a member or a class."""
        for i, child in enumerate(node.children):
            if child.type != "identifier" or node.field_name_for_child(i) in skip:
                continue
            text = _text(child)
            if _CS_LOCAL + text in env or f"<{text}>" in env:
                continue
            if node.type == "assignment_expression" and node.child_by_field_name("left") == child:
                parent = node.parent
                if parent is not None and parent.type == "initializer_expression":
                    continue  # ``new Circle { Radius = 2 }``: read by ``_initialized``
            if node.type == "argument" and text == "nameof":
                continue
            self.references.append(Reference(_line(child), (text,), False))

    def _initialized(self, node: Node, env: dict[str, tuple[str, ...]]) -> None:
        """``new Circle { Radius = 2 }``: ``Radius`` is the constructed class's member."""
        init = node.child_by_field_name("initializer")
        typ = self._type(node.child_by_field_name("type"), env)
        if init is None or not typ or typ == _UNTYPED:
            return
        for child in init.named_children:
            left = child.child_by_field_name("left") if child.type == "assignment_expression" else None
            if left is not None and left.type == "identifier":
                self.references.append(Reference(_line(left), (*typ, _text(left)), False))

    def _access(self, node: Node, env: dict[str, tuple[str, ...]]) -> None:
        """A member read: ``a.b`` read whole, or on the way to a longer chain (``c.Motor.Start()`` reads
        ``Motor``); not what a call calls (``_call``), nor ``this.engine`` of a field whose type is known."""
        parent = node.parent
        receiver = False
        if parent is not None and parent.type == "invocation_expression":
            if parent.child_by_field_name("function") == node:
                return
        elif parent is not None and parent.type == "member_access_expression":
            receiver = parent.child_by_field_name("expression") == node
        elif parent is not None and parent.type == "conditional_access_expression":
            receiver = parent.child_by_field_name("condition") == node
        head, name = self._member(node, env)
        if not head or name is None:
            return
        if receiver and ((head == ("this",) and _text(name) in env) or (head[-1] == UNKNOWN and len(head) > 1)):
            return
        self.references.append(Reference(_line(name), (*head, _text(name)), False, head == _UNTYPED))

    def _member(self, node: Node, env: dict[str, tuple[str, ...]]) -> tuple[tuple[str, ...], Node | None]:
        """The receiver chain and the member's name node of ``a.b``, ``a?.b``."""
        if node.type == "member_access_expression":
            name = node.child_by_field_name("name")
            if name is not None and name.type == "generic_name":
                name = _child_of_type(name, "identifier")
            return self._receiver(node.child_by_field_name("expression"), env), name
        binding = _child_of_type(node, "member_binding_expression")  # ``a?.b``
        name = binding.child_by_field_name("name") if binding is not None else None
        if name is not None and name.type == "generic_name":
            name = _child_of_type(name, "identifier")
        return self._receiver(node.child_by_field_name("condition"), env), name

    def _using(self, node: Node) -> None:
        names = [c for c in node.named_children if c.type in ("identifier", "qualified_name", "alias_qualified_name")]
        if not names:
            return
        target = "".join(_text(names[-1]).split()).removeprefix("global::")
        line = _line(node)
        if len(names) == 2:  # ``using X = A.B.C;``
            module, _, name = target.rpartition(".")
            if module:
                self.imports.append(Import(line, module, name, _text(names[0])))
            return
        self.imports.append(Import(line, target, "*", "*"))  # a namespace's types, or (static) a class's members

    def _type(self, typ: Node | None, env: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        """A declared type as a name chain: ``("Engine",)``, ``("Outer", "Inner")``, ``(ARRAY, "Engine")`` for
        ``Engine[]``; ``()`` for a built-in; ``_UNTYPED`` where it is not written (``var``) or not read here."""
        while typ is not None and typ.type in ("nullable_type", "ref_type", "scoped_type"):
            typ = typ.child_by_field_name("type") or (typ.named_children[0] if typ.named_children else None)
        if typ is None or typ.type == "implicit_type":
            return _UNTYPED
        kind = typ.type
        if kind == "predefined_type":
            return ("String",) if _text(typ) == "string" else ()
        if kind == "array_type":
            element = self._type(typ.child_by_field_name("type"), env)
            return (ARRAY, *element) if element != _UNTYPED else (ARRAY, UNKNOWN)
        if kind == "generic_name":
            return (_text(_child_of_type(typ, "identifier")),)
        if kind == "identifier":
            text = _text(typ)
            return env.get(f"<{text}>", (text,))
        if kind == "qualified_name":  # ``List<T>.Enumerator``: ("List", "Enumerator")
            parts = [c for c in _walk(typ) if c.type in ("identifier", "generic_name")]
            return tuple(
                _text(c) if c.type == "identifier" else _text(_child_of_type(c, "identifier"))
                for c in parts
                if c.parent is not None and c.parent.type == "qualified_name"
            )
        return _UNTYPED

    def _type_names(self, typ: Node | None, env: dict[str, tuple[str, ...]]) -> list[tuple[int, tuple[str, ...]]]:
        """Every class a written type names (``Dictionary<Key, List<Value>>``: three), each with its line, type
        parameters left out."""
        if typ is None:
            return []
        out: list[tuple[int, tuple[str, ...]]] = []
        stack = [typ]
        while stack:
            node = stack.pop()
            kind = node.type
            if kind in ("identifier", "qualified_name", "generic_name"):
                chain = self._type(node, env)
                text = _text(node)
                if chain and chain != _UNTYPED and f"<{text}>" not in env and text not in ("var", "dynamic", "nameof"):
                    out.append((_line(node), chain))
            if kind == "array_rank_specifier":
                continue
            if kind in ("qualified_name", "identifier", "predefined_type"):
                if kind == "qualified_name":  # its type arguments (``Outer<T>.Inner``)
                    stack.extend(c for c in _walk(node) if c.type == "type_argument_list")
                continue
            if kind == "generic_name":
                stack.extend(c for c in node.named_children if c.type == "type_argument_list")
                continue
            stack.extend(node.named_children)
        return out

    def _type_parameters(self, node: Node, env: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        params = _child_of_type(node, "type_parameter_list")
        for param in params.named_children if params is not None else ():
            name = param.child_by_field_name("name")
            if name is not None:
                out[f"<{_text(name)}>"] = ()
        for clause in node.named_children:  # ``where T : IShape``: the bound's members
            if clause.type != "type_parameter_constraints_clause" or not clause.named_children:
                continue
            key = f"<{_text(clause.named_children[0])}>"
            bounds = [c for c in clause.named_children if c.type == "type_parameter_constraint"]
            if key in out and bounds:
                typ = self._type(bounds[0].child_by_field_name("type"), env)
                out[key] = typ if typ != _UNTYPED else ()
        return out

    def _class_scope(self, node: Node, env: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        """``env`` inside a class: its type parameters, its fields' and properties' declared types (an outer
        function's locals are not this class's)."""
        env = {k: v for k, v in env.items() if not k.startswith(_CS_LOCAL) and _CS_LOCAL + k not in env}
        env.update(self._type_parameters(node, env))
        body = node.child_by_field_name("body")
        members: dict[str, tuple[str, ...]] = {}
        for member in body.named_children if body is not None else ():
            if member.type in ("field_declaration", "event_field_declaration"):
                declaration = _child_of_type(member, "variable_declaration")
                if declaration is None:
                    continue
                typ = self._type(declaration.child_by_field_name("type"), env)
                for declarator in declaration.named_children:
                    name = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" else None
                    if name is not None:
                        members[_text(name)] = typ
            elif member.type == "property_declaration":
                name = member.child_by_field_name("name")
                if name is not None:
                    members[_text(name)] = self._type(member.child_by_field_name("type"), env)
        params = node.child_by_field_name("parameters") or _child_of_type(node, "parameter_list")  # a record's
        for param in params.named_children if params is not None else ():
            name = param.child_by_field_name("name")
            if name is not None:
                members[_text(name)] = self._type(param.child_by_field_name("type"), env)
        return {**env, **members}

    def _function_scope(self, node: Node, env: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        """``env`` inside a method, accessor, local function or lambda: its type parameters, parameters and
        locals, each also marked local (``"$name"``). A setter's ``value`` is its property's type. A ``var`` is
        read last, in the order written, with every other name of the scope known (``var msg = call.Message``:
        ``Message`` of the parameter ``call``'s type)."""
        env = {**env, **self._type_parameters(node, env)}
        scope: dict[str, tuple[str, ...]] = {}

        def bind(name: Node | None, typ: tuple[str, ...]) -> None:
            if name is not None and name.type == "identifier":
                scope[_text(name)] = typ
                scope[_CS_LOCAL + _text(name)] = ()

        if node.type == "accessor_declaration":
            owner = node.parent.parent if node.parent is not None else None
            if owner is not None and owner.type == "property_declaration":
                scope["value"] = self._type(owner.child_by_field_name("type"), env)
                scope[_CS_LOCAL + "value"] = ()
        params = node.child_by_field_name("parameters")
        if params is not None and params.type in ("implicit_parameter", "identifier"):  # ``x => ...``
            bind(params, _UNTYPED)
        for i, param in enumerate(params.children if params is not None else ()):
            if param.type == "parameter":
                typ = param.child_by_field_name("type")
                bind(param.child_by_field_name("name"), self._type(typ, env) if typ is not None else _UNTYPED)
            elif param.type == "identifier" and params is not None and params.field_name_for_child(i) == "name":
                bind(param, ())  # ``params object[] rest``
        implicit: list[Node] = []  # ``var x = value``
        for sub in _own_nodes(node.child_by_field_name("body"), _CS_SCOPES):
            kind = sub.type
            if kind == "variable_declaration":
                declared = self._type(sub.child_by_field_name("type"), env)
                for declarator in sub.named_children:
                    if declarator.type == "variable_declarator":
                        bind(declarator.child_by_field_name("name"), declared)
                        if declared == _UNTYPED and declarator.named_children:
                            implicit.append(declarator)
            elif kind in ("foreach_statement", "catch_declaration", "declaration_expression", "declaration_pattern"):
                written = sub.child_by_field_name("type")
                bind(
                    sub.child_by_field_name("left" if kind == "foreach_statement" else "name"),
                    self._type(written, env) if written is not None else _UNTYPED,
                )
            elif kind in ("from_clause", "let_clause", "join_clause"):
                bind(sub.child_by_field_name("name") or _child_of_type(sub, "identifier"), _UNTYPED)
            elif kind == "local_function_statement":
                bind(sub.child_by_field_name("name"), ())
        inside = {**env, **scope}
        for declarator in sorted(implicit, key=lambda d: d.start_byte):
            name = declarator.child_by_field_name("name")
            if name is not None:
                inside[_text(name)] = self._constructed(declarator.named_children[-1], inside)
        return inside

    def _constructed(self, value: Node, env: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        """What ``var x = value`` makes ``x``: the type ``value`` writes (``new Foo()``, ``(Foo) o``, ``o as Foo``),
        or the chain its members are looked up on (``Circle.Unit()``: what ``Unit`` returns)."""
        if value.type == "as_expression":
            return self._type(value.child_by_field_name("right"), env)
        return self._receiver(value, env)

    def _receiver(self, node: Node | None, env: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        """The chain a member is looked up on (``_Java._receiver``): a variable's declared type, a class name,
        ``this``, ``base``; ``_UNTYPED`` for a variable of unwritten type, ``(UNKNOWN,)`` for a value of unknown
        type; ``()`` when no indexed code can define the member (a built-in's or an array's)."""
        if node is None:
            return ()
        kind = node.type
        if kind == "identifier":
            return _members_of(env.get(_text(node), (_text(node),)))
        if kind == "this":
            return ("this",)
        if kind == "base":
            return (SUPER,)
        if kind == "predefined_type":
            return ("String",) if _text(node) == "string" else ()
        if kind in ("generic_name", "qualified_name"):
            return self._type(node, env)
        if kind in ("member_access_expression", "conditional_access_expression"):
            head, name = self._member(node, env)
            if not head or name is None:
                return ()
            if head == ("this",) and _text(name) in env:  # ``this.engine``: the field's declared type
                return _members_of(env[_text(name)])
            return (UNKNOWN,) if head[-1] == UNKNOWN and len(head) > 1 else (*head, _text(name))
        if kind == "member_binding_expression":  # ``a?.b.c``: ``b`` of the condition's value
            owner = node.parent
            while owner is not None and owner.type != "conditional_access_expression":
                owner = owner.parent
            name = node.child_by_field_name("name")
            head = self._receiver(owner.child_by_field_name("condition"), env) if owner is not None else ()
            if not head or name is None:
                return ()
            return (UNKNOWN,) if head[-1] == UNKNOWN and len(head) > 1 else (*head, _text(name))
        if kind == "element_access_expression":  # ``rules[i].Apply()``: the element type of a declared array
            inner = node.child_by_field_name("expression")
            declared = env.get(_text(inner), ()) if inner is not None and inner.type == "identifier" else ()
            return declared[1:] if declared[:1] == (ARRAY,) else (UNKNOWN,)
        if kind == "invocation_expression":  # ``a.B().C()``: read through B's declared return type
            function = node.child_by_field_name("function")
            if function is None:
                return (UNKNOWN,)
            if function.type == "identifier":
                return (_text(function), RETURNS)
            if function.type == "generic_name":
                return (_text(_child_of_type(function, "identifier")), RETURNS)
            if function.type in ("member_access_expression", "conditional_access_expression"):
                head, name = self._member(function, env)
                if name is None or not head or head[-1] == UNKNOWN:
                    return (UNKNOWN,)
                return (*head, _text(name), RETURNS)
            return (UNKNOWN,)
        if kind in ("object_creation_expression", "cast_expression"):
            return self._type(node.child_by_field_name("type"), env)
        if kind == "parenthesized_expression" and node.named_children:
            return self._receiver(node.named_children[0], env)
        if kind in ("string_literal", "verbatim_string_literal", "interpolated_string_expression"):
            return ("String",)
        return (UNKNOWN,)

    _BOOLEAN = "bool"

    def _literal(self, value: Node) -> str | None:
        return _CS_LITERALS.get(value.type)

    def _built_in(self, typ: Node) -> str | None:
        return cs_type_name(_text(typ)) if typ.type == "predefined_type" else None

    def _argument_type(self, argument: Node, env: dict[str, tuple[str, ...]]) -> str:
        """An argument's ``_value_type``; "" for a named one, whose parameter is not the one at its place, and for
        ``ref``, ``out`` and ``in``."""
        if any(c.type in ("name_colon", ":") or _text(c) in ("ref", "out", "in") for c in argument.children):
            return ""
        return self._value_type(argument.named_children[-1], env) if argument.named_children else ""

    def _call(self, node: Node, env: dict[str, tuple[str, ...]]) -> None:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        arity = -1 if arguments is None else sum(a.type == "argument" for a in arguments.named_children)
        types = (
            tuple(self._argument_type(a, env) for a in arguments.named_children if a.type == "argument")
            if arguments is not None
            else ()
        )
        types = types if any(types) else ()
        if function is None:
            return
        if function.type == "generic_name":
            function = _child_of_type(function, "identifier")
        if function is None:
            return
        if function.type == "identifier":
            text = _text(function)
            if text != "nameof" and _CS_LOCAL + text not in env:  # a local delegate calls nothing named so
                self.references.append(Reference(_line(function), (text,), True, False, False, arity, types))
            return
        if function.type in ("member_access_expression", "conditional_access_expression"):
            head, name = self._member(function, env)
            if head and name is not None:
                self.references.append(
                    Reference(_line(name), (*head, _text(name)), True, head == _UNTYPED, False, arity, types)
                )

    def _bases(self, node: Node, env: dict[str, tuple[str, ...]]) -> None:
        bases = _child_of_type(node, "base_list")
        for typ in bases.named_children if bases is not None else ():
            if typ.type == "primary_constructor_base_type":
                typ = typ.named_children[0] if typ.named_children else typ
            chain = self._type(typ, env)
            if chain and chain != _UNTYPED:
                self.bases.append(Base(_line(node), _line(typ), chain))


# --- Rust -------------------------------------------------------------------------------------------

_RUST_SKIP = frozenset({"line_comment", "block_comment", "string_literal", "raw_string_literal", "char_literal"})
#: The scopes of a function's own names (a closure's parameters are its own; a nested fn sees none of them).
_RUST_FUNCTIONS = frozenset({"function_item", "closure_expression"})
_RUST_NESTED = frozenset({"function_item", "closure_expression", "impl_item", "mod_item", "trait_item"})
#: The items whose generic parameters a path inside them may start from (``impl<A: Array>``).
_RUST_GENERIC_ITEMS = frozenset({"impl_item", "function_item", "trait_item", "struct_item", "enum_item"})
#: Types whose members are the language's (``items.len()`` on a ``&[u8]``): no indexed code's.
_RUST_NO_MEMBERS = frozenset({"primitive_type", "array_type", "tuple_type", "unit_type", "function_type", "never_type"})
#: Smart pointers whose methods a call reaches through (``Box<Foo>`` calls ``Foo``'s): the type inside.
_RUST_POINTERS = frozenset({"Box", "Rc", "Arc"})
#: The tokens a path in a macro's arguments is made of (``crate::a::f(``).
_RUST_PATH_TOKENS = frozenset({"identifier", "crate", "super", "self"})


def _rust_path(node: Node | None) -> tuple[str, ...] | None:
    """A path as its names: ``crate::ast::Span`` -> ``("crate", "ast", "Span")``, a path's ``self``
    ``RUST_SELF``, a generic type's arguments left out (``Vec::<u8>::new`` -> ``("Vec", "new")``); None
    for what is not a path (``<T as Trait>::f``)."""
    if node is None:
        return None
    kind = node.type
    if kind in ("identifier", "type_identifier", "field_identifier", "crate", "super", "metavariable"):
        return (_text(node),)
    if kind == "self":
        return (RUST_SELF,)
    if kind == "generic_type":
        return _rust_path(node.child_by_field_name("type"))
    if kind in ("scoped_identifier", "scoped_type_identifier"):
        name = node.child_by_field_name("name")
        prefix = node.child_by_field_name("path")
        head = _rust_path(prefix) if prefix is not None else ()
        return None if head is None or name is None else (*head, _text(name))
    return None


def _rust_type(typ: Node | None) -> tuple[str, ...] | None:
    """A declared type as the path whose members a call on it reaches: references, pointers and
    ``Box``/``Rc``/``Arc`` looked through (``&mut Box<Parser>`` -> ``("Parser",)``), ``dyn Trait`` and
    ``impl Trait`` the trait; ``()`` for a primitive, an array or slice, a tuple (no indexed code's members);
    None for a type of another shape."""
    while typ is not None:
        kind = typ.type
        if kind in ("reference_type", "pointer_type"):
            typ = typ.child_by_field_name("type")
        elif kind in ("dynamic_type", "abstract_type"):
            typ = typ.child_by_field_name("trait")
        elif kind == "generic_type" and _text(typ.child_by_field_name("type")) in _RUST_POINTERS:
            args = typ.child_by_field_name("type_arguments")
            typ = args.named_children[0] if args is not None and args.named_children else None
        elif kind in _RUST_NO_MEMBERS:
            return ()
        else:
            return _rust_path(typ) if kind in ("type_identifier", "scoped_type_identifier", "generic_type") else None
    return None


def _child_of_type(node: Node, kind: str) -> Node | None:
    return next((c for c in node.named_children if c.type == kind), None)


def _rust_called(node: Node) -> bool:
    """Whether ``node`` is what a call calls (``f(x)``, ``f::<T>(x)``, ``a.m(x)``)."""
    parent = node.parent
    if parent is not None and parent.type == "generic_function" and parent.child_by_field_name("function") == node:
        node, parent = parent, parent.parent
    return parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node


def _rust_turbofish_start(kids: list[Node], j: int) -> int:
    """In a token tree, the index of the name a path part ending at ``kids[j]`` starts with: ``j`` itself, or
    for ``Name::<Args>`` ending at its ``>``, the index of ``Name``; -1 where there is none."""
    if j < 0 or kids[j].type != ">":
        return j
    depth = 0
    while j >= 0:
        depth += {">": 1, "<": -1}.get(kids[j].type, 0)
        if depth == 0:
            break
        j -= 1
    return j - 2 if j >= 2 and kids[j - 1].type == "::" else -1


class _Rust:
    """Rust: ``use`` declarations, paths (``crate::a::f``, ``Self::new``, ``Type::assoc``), method calls
    read through a receiver's declared type (a parameter's, a ``let``'s, ``let x = Type::new()``'s), the
    calls inside macros' token trees (``assert_eq!(parse(x), y)``) and ``impl Trait for Type`` (a base of
    the impl block). A file's modules nested in it (``mod tests { use super::*; }``) see the file's names."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.imports: list[Import] = []
        self.references: list[Reference] = []
        self.bases: list[Base] = []
        self._env: dict[int, dict[str, tuple[str, ...]]] = {}  # function node id -> its names' types
        self._fields: dict[str, dict[str, tuple[str, ...] | None]] = {}  # struct -> its fields' declared types

    def facts(self) -> FileFacts:
        for node in _walk(self.root):
            if node.type == "struct_item" and node.child_by_field_name("name") is not None:
                body = node.child_by_field_name("body")
                self._fields[_text(node.child_by_field_name("name"))] = {
                    _text(field.child_by_field_name("name")): _rust_type(field.child_by_field_name("type"))
                    for field in (body.named_children if body is not None else ())
                    if field.type == "field_declaration" and field.child_by_field_name("name") is not None
                }
        stack: list[tuple[Node, int]] = [(self.root, 0)]  # a node, and the inline modules around it
        while stack:
            node, depth = stack.pop()
            kind = node.type
            if kind in _RUST_SKIP or kind == "attribute_item":
                continue
            if kind == "use_declaration":
                self._use(node.child_by_field_name("argument"), (), depth, _line(node))
                continue
            if kind == "mod_item":
                body = node.child_by_field_name("body")
                if body is not None:
                    stack.append((body, depth + 1))
                continue
            if kind == "impl_item":
                trait = _rust_path(node.child_by_field_name("trait"))
                if trait:
                    self.bases.append(Base(_line(node), _line(node), trait))
            elif kind == "macro_invocation":
                self._token_tree(node)
                continue
            elif kind in ("scoped_identifier", "scoped_type_identifier"):
                chain = _rust_path(node)
                if chain and len(chain) > 1:
                    chain = self._bounded(node, chain)
                    name = node.child_by_field_name("name")
                    called = _rust_called(node) or (node.parent is not None and node.parent.type == "struct_expression")
                    self.references.append(Reference(_line(name or node), chain, called))
                continue
            elif kind == "field_expression":
                field = node.child_by_field_name("field")
                if field is not None and field.type == "field_identifier":
                    chain = _chain(node, "field_expression", "value", "field", ("identifier",))
                    chain, local = self._typed(node, chain)
                    if chain:
                        self.references.append(Reference(_line(field), chain, _rust_called(node), local))
            elif kind == "identifier" and self._is_reference(node):
                self.references.append(Reference(_line(node), (_text(node),), _rust_called(node)))
            elif kind == "type_identifier" and self._is_type_reference(node):
                called = node.parent is not None and node.parent.type == "struct_expression"
                self.references.append(Reference(_line(node), (_text(node),), called))
            stack.extend((c, depth) for c in reversed(node.children))
        return FileFacts(tuple(self.imports), tuple(self.references), tuple(self.bases))

    def _use(self, node: Node | None, prefix: tuple[str, ...], depth: int, line: int) -> None:
        """The imports of one ``use`` tree under ``prefix`` (``crate::ast::{self, Span as S, parse::*}``); a
        ``super`` of the file's own modules nested ``depth`` deep (``mod tests``) is the file."""
        if node is None:
            return
        kind = node.type
        if kind == "scoped_use_list":
            head = _rust_path(node.child_by_field_name("path")) if node.child_by_field_name("path") else ()
            for child in (node.child_by_field_name("list") or node).named_children:
                self._use(child, (*prefix, *(head or ())), depth, line)
            return
        if kind == "use_list":
            for child in node.named_children:
                self._use(child, prefix, depth, line)
            return
        if kind == "use_wildcard":
            path = _rust_path(node.named_children[0]) if node.named_children else ()
            self._import(line, (*prefix, *(path or ())), "*", "*", depth)
            return
        alias = None
        if kind == "use_as_clause":
            alias = _text(node.child_by_field_name("alias"))
            node = node.child_by_field_name("path")
        path = _rust_path(node)
        if not path:
            return
        full = (*prefix, *path)
        if full[-1] == RUST_SELF:  # ``use a::b::{self}``: the module ``b`` itself
            if len(full) > 1:
                self._import(line, full[:-1], None, alias or full[-2], depth)
            return
        self._import(line, full[:-1], full[-1], alias or full[-1], depth)

    def _import(self, line: int, module: tuple[str, ...], name: str | None, alias: str, depth: int) -> None:
        parts = list(module)
        while depth and parts[:1] == ["super"]:  # the nested module's parent: the file
            parts[0] = RUST_SELF
            depth -= 1
        if parts[:1] == [RUST_SELF] and len(parts) > 1 and parts[1] == "super":
            parts = parts[1:]
        if name is None and not parts:
            return
        self.imports.append(Import(line, "::".join(parts), name, alias if alias != "_" else ""))

    def _token_tree(self, node: Node) -> None:
        """The calls written in a macro's arguments, which the grammar leaves as tokens: ``f(``, ``a::f(``,
        ``x.m(`` (``x``'s declared type, as outside a macro), ``self.m(``."""
        stack = [c for c in node.children if c.type == "token_tree"]
        while stack:
            tree = stack.pop()
            kids = tree.children
            for i, tok in enumerate(kids):
                if tok.type == "token_tree":
                    stack.append(tok)
                    continue
                if tok.type not in ("identifier", "self"):
                    continue
                nxt = kids[i + 1] if i + 1 < len(kids) else None
                if nxt is None or nxt.type != "token_tree" or not _text(nxt).startswith("("):
                    continue
                # walk back over ``a::b::`` or ``x.`` to the start of the callee
                j, chain = i, [_text(tok)]
                while j >= 2 and kids[j - 1].type == "::":
                    k = _rust_turbofish_start(kids, j - 2)  # ``Vec::<u8>::new(``: past the type's arguments
                    if k < 0 or kids[k].type not in _RUST_PATH_TOKENS:
                        break
                    j = k
                    head = kids[j]
                    chain.insert(0, RUST_SELF if head.type == "self" else _text(head))
                dotted = j >= 2 and kids[j - 1].type == "." and kids[j - 2].type in ("identifier", "self")
                if dotted:
                    receiver = kids[j - 2]
                    if receiver.type == "self":
                        chain.insert(0, "this")
                        self.references.append(Reference(_line(tok), tuple(chain), True))
                    else:
                        name = _text(receiver)
                        typed, local = self._typed_name(receiver, name, (name, *chain))
                        if typed:
                            self.references.append(Reference(_line(tok), typed, True, local))
                    continue
                if j >= 1 and kids[j - 1].type == ".":
                    self.references.append(Reference(_line(tok), (UNKNOWN, *chain), True))
                    continue
                self.references.append(Reference(_line(tok), tuple(chain), True))

    def _is_reference(self, node: Node) -> bool:
        """A name used as a value: called (``f(x)``) or passed (``map(f)``), not a binding."""
        parent = node.parent
        if parent is None:
            return False
        if _rust_called(node):
            return True
        return parent.type == "arguments" and not self._local(node, _text(node))

    @staticmethod
    def _is_type_reference(node: Node) -> bool:
        """A type named where it is used (a parameter's, a field's, a return type, a struct literal), not
        where it is declared or its name is a generic parameter's."""
        parent = node.parent
        if parent is None or parent.type in ("type_parameter", "constrained_type_parameter"):
            return False
        if parent.type in ("struct_item", "enum_item", "union_item", "trait_item", "type_item"):
            return parent.child_by_field_name("name") != node
        return True

    @staticmethod
    def _bounded(node: Node, chain: tuple[str, ...]) -> tuple[str, ...]:
        """``chain`` from a generic parameter read through its first trait bound (``A::size()`` under
        ``impl<A: Array>`` is ``Array::size``), the bounds of the items around ``node``, ``where`` clauses too."""
        name = chain[0]
        scope = node.parent
        while scope is not None:
            if scope.type in _RUST_GENERIC_ITEMS:
                for holder in (scope.child_by_field_name("type_parameters"), _child_of_type(scope, "where_clause")):
                    for param in holder.named_children if holder is not None else ():
                        named = param.child_by_field_name("name") or param.child_by_field_name("left")
                        if named is None and param.named_children:
                            named = param.named_children[0]
                        if named is None or _text(named) != name:
                            continue
                        bounds = param.child_by_field_name("bounds") or _child_of_type(param, "trait_bounds")
                        for bound in bounds.named_children if bounds is not None else ():
                            path = _rust_path(bound)
                            if path:
                                return (*path, *chain[1:])
            scope = scope.parent
        return chain

    def _function(self, node: Node) -> Node | None:
        scope = node.parent
        while scope is not None and scope.type not in _RUST_FUNCTIONS:
            scope = scope.parent
        return scope

    def _environment(self, fn: Node) -> dict[str, tuple[str, ...]]:
        """The declared types of ``fn``'s parameters and ``let`` names (``_UNTYPED`` where none is written
        or can be read: ``let x = f()``), its closures' and nested functions' left out."""
        env = self._env.get(fn.id)
        if env is not None:
            return env
        env = {}
        params = fn.child_by_field_name("parameters")
        for param in params.named_children if params is not None else ():
            pattern = param.child_by_field_name("pattern")
            if param.type == "parameter" and pattern is not None and pattern.type == "identifier":
                declared = _rust_type(param.child_by_field_name("type"))
                env[_text(pattern)] = _UNTYPED if declared is None else declared
            elif param.type == "identifier":  # a closure's untyped parameter
                env[_text(param)] = _UNTYPED
        for sub in _own_nodes(fn.child_by_field_name("body"), _RUST_NESTED):
            if sub.type != "let_declaration":
                continue
            pattern = sub.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "mut_pattern" and pattern.named_children:
                pattern = pattern.named_children[-1]
            if pattern is None or pattern.type != "identifier":
                continue
            declared = _rust_type(sub.child_by_field_name("type"))
            if declared is None:
                declared = self._built(sub.child_by_field_name("value"))
            env.setdefault(_text(pattern), declared if declared is not None else _UNTYPED)
        self._env[fn.id] = env
        return env

    @staticmethod
    def _built(value: Node | None) -> tuple[str, ...] | None:
        """The type a ``let``'s value builds: ``Type { .. }``, ``Type::new(..)`` (an associated function of
        a type, read as returning it), ``Type::from(..)?``."""
        while value is not None and value.type in ("try_expression", "reference_expression"):
            value = value.named_children[-1] if value.named_children else None
        if value is None:
            return None
        if value.type == "struct_expression":
            return _rust_path(value.child_by_field_name("name"))
        if value.type == "call_expression":
            path = _rust_path(value.child_by_field_name("function"))
            if path and len(path) >= 2 and path[-2][:1].isupper() and path[-2] != "Self":
                return path[:-1]
        return None

    def _local(self, node: Node, name: str) -> tuple[str, ...] | None:
        """The declared type of the local ``name`` in the functions around ``node`` (``_UNTYPED``: a local
        of no known type), None where it is no local."""
        fn = self._function(node)
        while fn is not None:
            found = self._environment(fn).get(name)
            if found is not None:
                return found
            fn = self._function(fn) if fn.type == "closure_expression" else None
        return None

    def _typed(self, node: Node, chain: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
        """``chain`` read through its head's declared type, and whether the head is a local of unknown type;
        ``self.field.m`` through the field's type, where the struct is declared in this file."""
        if chain[:1] == ("this",) and len(chain) > 2:
            return self._through_field(node, chain), False
        head = node
        while head.type in ("field_expression", "call_expression", "generic_function"):
            inner = head.child_by_field_name("value" if head.type == "field_expression" else "function")
            if inner is None:
                return chain, False
            head = inner
        if head.type != "identifier":
            return chain, False
        return self._typed_name(head, _text(head), chain)

    def _through_field(self, node: Node, chain: tuple[str, ...]) -> tuple[str, ...]:
        """``("this", "text", "len")`` inside ``impl Parser`` as ``("String", "len")`` where this file declares
        ``struct Parser { text: String }``; ``()`` for a field of a primitive, array or tuple type."""
        impl = node.parent
        while impl is not None and impl.type != "impl_item":
            impl = impl.parent
        owner = _rust_path(impl.child_by_field_name("type")) if impl is not None else None
        fields = self._fields.get(owner[-1]) if owner else None
        if not fields or chain[1] not in fields:
            return chain
        declared = fields[chain[1]]
        if declared is None:
            return chain
        return self._bounded(node, (*declared, *chain[2:])) if declared else ()

    def _typed_name(self, node: Node, name: str, chain: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
        """``chain`` (``x.m``) read through the declared type of ``x``; a name bound by no parameter or
        ``let`` is a binding of a pattern (``for e in ..``, a ``match`` arm), of unknown type."""
        declared = self._local(node, name)
        if chain[:1] != (name,):
            return chain, False
        if declared is None:
            return chain, name[:1].islower()
        if declared == _UNTYPED:
            return chain, True
        if not declared:
            return (), False  # a primitive's members are the language's
        return self._bounded(node, (*declared, *chain[1:])), False


# --- C --------------------------------------------------------------------------------------------

#: Declarators that wrap the name they declare (``*p``, ``a[N]``, ``(*cmp)(int)``, ``x = 1``).
_C_WRAPPERS = frozenset(
    {
        "pointer_declarator",
        "array_declarator",
        "parenthesized_declarator",
        "function_declarator",
        "init_declarator",
        "attributed_declarator",
    }
)
#: What a declarator's name is declared by.
_C_DECLARING = frozenset(
    {"declaration", "parameter_declaration", "function_definition", "type_definition", "field_declaration"}
)
_C_SPECIFIERS = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})
#: Nodes with no name of the program in them (a macro's body is raw text: what it calls is not at the site).
_C_SKIP = frozenset({"comment", "string_literal", "char_literal", "system_lib_string", "preproc_arg"})


def _c_declared(
    node: Node,
    wrappers: frozenset[str] = _C_WRAPPERS,
    declaring: frozenset[str] = _C_DECLARING,
    specifiers: frozenset[str] = _C_SPECIFIERS,
) -> bool:
    """Whether ``node`` (an identifier or type name) is the name a declaration declares, not a use: a
    variable's, a parameter's, a function's, a typedef's, an enumerator's, a macro's or its parameters',
    or a ``struct``/``union``/``enum`` tag written with its body (C++ passes its own ``wrappers``,
    ``declaring`` and ``specifiers``: references, range-for variables, classes)."""
    current = node
    parent = current.parent
    if (
        parent is not None
        and parent.type == "ERROR"
        and parent.parent is not None
        and parent.parent.type == "function_declarator"
        and len(parent.named_children) == 1
    ):
        return True  # ``XXH_PUBLIC_API XXH_errorcode XXH32_update(..)``: the name behind an export macro
    if parent is not None and parent.type == "function_declarator":
        after = current.next_named_sibling
        if after is not None and after.type == "ERROR" and len(after.named_children) == 1:
            return False  # and ``XXH_errorcode`` there is its return type, a use
    while parent is not None and parent.type in wrappers:
        declarator = parent.child_by_field_name("declarator")
        if declarator is not None and declarator != current:
            return False  # an array's size, an initialiser's value
        current, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.type == "declaration" and current == parent.child_by_field_name("type"):
        return _c_prototype_macro(parent)  # ``local int inflateStateCheck OF((z_streamp strm));``
    if parent.type in declaring:  # ``int a, b = f(a);``: each declarator
        return current in parent.children_by_field_name("declarator")
    if parent.type in ("enumerator", "preproc_def", "preproc_function_def", "alias_declaration"):
        return parent.child_by_field_name("name") == current
    if parent.type in ("preproc_params", "type_parameter_declaration", "variadic_type_parameter_declaration"):
        return True
    if parent.type in ("optional_type_parameter_declaration", "namespace_alias_definition"):
        return parent.child_by_field_name("name") == current
    if parent.type in specifiers:
        return parent.child_by_field_name("body") is not None
    return False


_C_MACRO_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


def _field_receiver(node: Node) -> Node:
    """What ``a.b->c`` is read from: its innermost receiver (``a``, or a call or a subscript)."""
    while node.type == "field_expression":
        inner = node.child_by_field_name("argument")
        if inner is None:
            break
        node = inner
    return node


def _c_prototype_macro(declaration: Node) -> bool:
    """Whether a declaration is a prototype written through a compatibility macro (``gzerror OF((gzFile f))``,
    ``name __P((int))``), which a parser that does not expand macros reads as a declaration of the macro with
    the function's name for its type: that name is declared, not used."""
    declarator = declaration.child_by_field_name("declarator")
    if declarator is None or declarator.type != "function_declarator":
        return False
    name = declarator.child_by_field_name("declarator")
    return name is not None and name.type == "identifier" and bool(_C_MACRO_NAME.fullmatch(_text(name)))


class _C:
    """C: quoted ``#include``s, and every name a line uses (a call, a function passed as a value, a type, a
    global, a macro) with whether a parameter or local of the enclosing function shadows it; ``a->b.c`` is the
    chain ``("a", "b", "c")``. C's names are one namespace per program: resolution finds them by name
    (``resolve._c_name``)."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.imports: list[Import] = []
        self.references: list[Reference] = []

    def facts(self) -> FileFacts:
        stack: list[tuple[Node, frozenset[str]]] = [(self.root, frozenset())]
        while stack:
            node, local = stack.pop()
            kind = node.type
            if kind in _C_SKIP:
                continue
            if kind == "preproc_include":
                path = node.child_by_field_name("path")
                if path is not None and path.type == "string_literal":  # <stdio.h>: the system's
                    self.imports.append(Import(_line(node), _string_value(path), None, ""))
                continue
            if kind == "function_definition":
                local = self._locals(node)
            elif kind == "field_expression":
                chain = _chain(node, "field_expression", "argument", "field", ("identifier",))
                field = node.child_by_field_name("field")
                if field is not None:
                    self.references.append(Reference(_line(field), chain, _is_called(node), chain[0] in local))
                if chain[0] == UNKNOWN:  # a call's or a subscript's result: read what it is
                    stack.append((_field_receiver(node), local))
                continue  # else the receiver's name is in the chain
            elif kind in ("identifier", "type_identifier"):
                name = _text(node)
                if name and not _c_declared(node):  # (a name the parser had to make up is empty)
                    self.references.append(Reference(_line(node), (name,), _is_called(node), name in local))
                continue
            stack.extend((child, local) for child in reversed(node.named_children))
        return FileFacts(tuple(self.imports), tuple(self.references), ())

    @staticmethod
    def _locals(function: Node) -> frozenset[str]:
        """The names a function's parameters and body declare (not its own name: a recursive call is a use)."""
        own = function.child_by_field_name("declarator")
        while own is not None and own.type in _C_WRAPPERS:
            own = own.child_by_field_name("declarator")
        names = {
            _text(n)
            for n in _walk(function)
            if n.type == "identifier"
            and n != own
            and n.parent is not None
            and n.parent.type != "ERROR"  # the function's own name behind an export macro
            and _c_declared(n)
        }
        return frozenset(names)


# --- C++ ------------------------------------------------------------------------------------------

_CPP_WRAPPERS = _C_WRAPPERS | {"reference_declarator"}
_CPP_DECLARING = _C_DECLARING | {
    "optional_parameter_declaration",
    "variadic_parameter_declaration",
    "for_range_loop",
    "condition_clause",
}
_CPP_SPECIFIERS = _C_SPECIFIERS | {"class_specifier"}
_CPP_SKIP = _C_SKIP | {"raw_string_literal", "operator_name", "destructor_name", "concatenated_string"}
#: Where a type's name is written in C++ (a part of a qualified name is read with the whole).
_CPP_TYPES = frozenset({"type_identifier", "qualified_identifier", "template_type"})
#: Types whose ``->`` and ``*`` reach the type they hold (``std::unique_ptr<Engine> e; e->start()``).
CPP_HOLDERS = frozenset(
    {"unique_ptr", "shared_ptr", "weak_ptr", "optional", "reference_wrapper", "scoped_refptr", "Ptr", "RefPtr"}
)
#: Namespaces no project defines into: a name under them is the standard library's.
CPP_STD = frozenset({"std", "boost", "absl"})
#: What names a function's parameter or local with its declared type.
_CPP_LOCAL_DECLARATIONS = frozenset(
    {
        "parameter_declaration",
        "optional_parameter_declaration",
        "variadic_parameter_declaration",
        "declaration",
        "for_range_loop",
        "condition_clause",
    }
)


def _cpp_parts(node: Node | None) -> tuple[str, ...]:
    """The names a C++ name is written with (``geo::Circle``, ``Box<T>``, ``ns::make<T>``: template
    arguments left out); ``()`` where it is none (``::``, an operator)."""
    parts: list[str] = []
    while node is not None:
        if node.type == "qualified_identifier":
            scope = node.child_by_field_name("scope")
            parts.extend(_cpp_parts(scope) if scope is not None else ())
            node = node.child_by_field_name("name")
        elif node.type in ("template_type", "template_function", "template_method"):
            node = node.child_by_field_name("name")
        elif node.type in ("identifier", "type_identifier", "namespace_identifier", "field_identifier"):
            parts.append(_text(node))
            break
        else:
            return ()
    return tuple(parts)


def _cpp_type(node: Node | None) -> tuple[str, ...]:
    """The type a declaration writes, as a chain: ``()`` for a built-in or a standard library type (no
    indexed code's members), ``_UNTYPED`` for ``auto``; a holder (``std::unique_ptr<Engine>``) is what it
    holds."""
    if node is None or node.type == "placeholder_type_specifier":
        return _UNTYPED
    if node.type in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
        node = node.child_by_field_name("name")
    if node is None or node.type not in _CPP_TYPES:
        return ()  # int, unsigned long, decltype(..)
    parts = _cpp_parts(node)
    if parts and parts[-1] in CPP_HOLDERS:
        return _cpp_template_argument(node)
    if not parts or parts[0] in CPP_STD:
        return ()
    return parts


def _cpp_template_argument(node: Node | None) -> tuple[str, ...]:
    """The type a template's first argument writes (``std::unique_ptr<Engine>``, ``std::make_unique<Engine>``:
    ``("Engine",)``), as ``_cpp_type`` reads it."""
    while node is not None and node.type == "qualified_identifier":
        node = node.child_by_field_name("name")
    arguments = node.child_by_field_name("arguments") if node is not None else None
    held = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    return _cpp_type(held.child_by_field_name("type") if held is not None else None)


def _cpp_call(node: Node) -> tuple[bool, int]:
    """Whether the name ``node`` is called or constructed (``f(..)``, ``ns::f<T>(..)``, ``new T(..)``), and how many
    arguments it is passed (which of its overloads it can be; -1 where that is not known: ``new T{..}``)."""
    while node.parent is not None and node.parent.type in ("qualified_identifier", "template_function"):
        if node.parent.type == "qualified_identifier" and node.parent.child_by_field_name("name") != node:
            return False, -1  # the scope of a qualified name
        node = node.parent
    parent = node.parent
    if parent is None or parent.type not in ("call_expression", "new_expression"):
        return False, -1
    field = "function" if parent.type == "call_expression" else "type"
    if parent.child_by_field_name(field) != node:
        return False, -1
    arguments = parent.child_by_field_name("arguments")
    if arguments is None:
        return True, 0  # ``new T``
    if arguments.type != "argument_list":
        return True, -1  # ``new T{..}``: an initialiser list
    return True, sum(1 for c in arguments.named_children if c.type != "comment")


class _Cpp:
    """C++: C's includes and names, and classes. A qualified name is one chain (``geo::Circle::area`` is
    ``("geo", "Circle", "area")``); a receiver's declared type is read where the function writes it (a
    parameter or local: ``Circle& c; c.area()`` is ``("Circle", "area")``, a holder such as ``unique_ptr<T>``
    standing for its ``T``); a receiver of unknown type (``auto``) is a local; ``this->m`` is ``("this", "m")``.
    A class's ``: public Base`` are its bases. Resolution (``resolve._resolve_cpp``) finds a plain name as a
    member of the enclosing class, else as C finds it."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.imports: list[Import] = []
        self.references: list[Reference] = []
        self.bases: list[Base] = []
        self.hidden: list[tuple[int, int]] = []

    def facts(self) -> FileFacts:
        stack: list[tuple[Node, dict[str, tuple[str, ...]]]] = [(self.root, {})]
        while stack:
            node, env = stack.pop()
            kind = node.type
            if kind in _CPP_SKIP:
                continue
            if kind == "preproc_include":
                path = node.child_by_field_name("path")
                if path is not None and path.type == "string_literal":
                    self.imports.append(Import(_line(node), _string_value(path), None, ""))
                continue
            if kind == "function_definition":
                env = self._locals(node)
            elif kind == "namespace_definition" and node.child_by_field_name("name") is None:
                self.hidden.append((_line(node), node.end_point[0] + 1))
            elif kind in ("class_specifier", "struct_specifier") and node.child_by_field_name("body") is not None:
                self._bases(node)
            elif kind == "field_expression":
                self._member(node, env, stack)
                continue
            elif kind == "qualified_identifier":
                parent = node.parent
                if parent is not None and parent.type == "function_declarator":
                    continue  # ``double Circle::area() const {``: the definition's own name
                chain = _cpp_parts(node)
                if chain and chain[0] not in CPP_STD:
                    called, arity = _cpp_call(node)
                    self.references.append(Reference(_line(node), chain, called, arity=arity))
                # a template's arguments are names too (``std::vector<geo::Point>``)
                stack.extend((c, env) for c in reversed(list(_walk(node))) if c.type == "template_argument_list")
                continue
            elif kind in ("identifier", "type_identifier"):
                name = _text(node)
                if name and not _c_declared(node, _CPP_WRAPPERS, _CPP_DECLARING, _CPP_SPECIFIERS):
                    called, arity = _cpp_call(node)
                    self.references.append(Reference(_line(node), (name,), called, name in env, arity=arity))
                continue
            elif kind == "field_identifier":
                parent = node.parent
                if parent is not None and parent.type == "field_initializer":  # ``: r_(r)``, ``: Base(1)``
                    self.references.append(Reference(_line(node), (_text(node),), False))
                continue
            stack.extend((child, env) for child in reversed(node.named_children))
        return FileFacts(tuple(self.imports), tuple(self.references), tuple(self.bases), hidden=tuple(self.hidden))

    def _member(
        self, node: Node, env: dict[str, tuple[str, ...]], stack: list[tuple[Node, dict[str, tuple[str, ...]]]]
    ) -> None:
        """``a.b->c``: the chain from ``a``'s declared type, or from ``a`` (a member, a global, ``this``)."""
        chain = tuple(
            p.split("<", 1)[0] for p in _chain(node, "field_expression", "argument", "field", ("identifier",))
        )
        field = node.child_by_field_name("field")
        head = chain[0]
        local = False
        if head in env:
            declared = env[head]
            if declared == _UNTYPED:
                local = True
            elif not declared:
                chain = ()  # a built-in's or the standard library's members
            else:
                chain = (*declared, *chain[1:])
        if chain and field is not None:
            called, arity = _cpp_call(node)
            self.references.append(Reference(_line(field), chain, called, local, arity=arity))
        if head not in env and head != "this":
            # the receiver is a use too: a global's or a member's name, or a call's or a subscript's result
            stack.append((_field_receiver(node), env))

    def _bases(self, node: Node) -> None:
        clause = next((c for c in node.named_children if c.type == "base_class_clause"), None)
        if clause is None:
            return
        for base in clause.named_children:
            chain = _cpp_parts(base)
            if chain and chain[0] not in CPP_STD:
                self.bases.append(Base(_line(node), _line(base), chain))

    @staticmethod
    def _locals(function: Node) -> dict[str, tuple[str, ...]]:
        """A function's parameters and locals (its lambdas' too), each with the type its declaration writes."""
        env: dict[str, tuple[str, ...]] = {}
        for n in _walk(function):
            if n.type not in _CPP_LOCAL_DECLARATIONS or n == function:
                continue
            typ = _cpp_type(n.child_by_field_name("type"))
            for declarator in n.children_by_field_name("declarator"):
                value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
                name: Node | None = declarator
                while name is not None and name.type in _CPP_WRAPPERS:
                    inner = name.child_by_field_name("declarator")
                    if inner is None:  # ``Foo& a``: a reference declarator's name has no field
                        inner = next((c for c in name.named_children if c.type == "identifier"), None)
                    name = inner
                if name is None or name.type != "identifier":
                    continue
                declared = typ
                if declared == _UNTYPED and value is not None:
                    declared = _cpp_made(value)
                env[_text(name)] = declared
        return env


def _cpp_made(value: Node) -> tuple[str, ...]:
    """The type ``auto x = ..`` holds where the value says it: ``new T(..)``, ``std::make_unique<T>(..)``,
    ``std::make_shared<T>(..)``; ``_UNTYPED`` elsewhere."""
    if value.type == "new_expression":
        return _cpp_type(value.child_by_field_name("type")) or _UNTYPED
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        parts = _cpp_parts(function)
        if parts and parts[-1] in ("make_unique", "make_shared"):
            return _cpp_template_argument(function) or _UNTYPED
    return _UNTYPED
