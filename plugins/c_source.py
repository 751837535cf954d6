"""C source as a parser that does not expand macros should read it.

C written to build on old and odd compilers decorates its declarations with macros that expand to nothing
or to a keyword: zlib's ``int ZEXPORT inflate(strm, flush)``, ``struct inflate_state FAR *state;``, and its
prototypes ``ZEXTERN int ZEXPORT inflate OF((z_streamp strm, int flush));`` (``OF(args)`` is ``args``, or
``()`` for a compiler without prototypes; BSD spells it ``__P``, GNU ``PARAMS``). It defines its functions
in the old style as well, the parameters' types declared between the list and the body. tree-sitter reads
each decoration as an error, its recovery loses the rest of a file (24 of zlib's 228 functions, every one
after ``inflate``), a prototype's parameters become globals, and an old-style function that returns a
pointer (``const char * ZEXPORT zError(err) int err; {``) is a declaration followed by a block of code that
belongs to nobody: the grammar reads the old style only where the declarator is the function's own.

``readable`` returns the source as the compiler sees it after its macros (spaces of the same length in
place of what is blanked, so every byte offset and line stays where it was), and its tree:

* a prototype macro after a declarator (``inflate OF((z_streamp strm, int flush));``) is unwrapped to its
  argument, the parameter list;
* where the file does not parse, a conditional that cuts a statement (``s->status =`` then ``#ifdef GZIP``,
  a branch that opens a block another closes) keeps its first branch, as one build compiles it, when that
  leaves fewer errors;
* a macro the parser's errors show between a type and a declarator (``int ZEXPORT inflate(``, ``struct s FAR
  *p``) or before a type (``local void braid(``, ``UTIL_STATIC U64 f(``) is blanked wherever it decorates a
  declaration, outside directives, when that leaves fewer errors; a name the file uses as a type never is;
* the ``*`` of an old-style definition that returns a pointer is blanked, so the definition reads as one.

On zlib, Lua, lz4 and cJSON (137 files) the parse errors fall from 1,891 to 328 and Universal Ctags'
functions missing from the definitions from 43 to 0 (the corpora of ``benchmarks/c_suites.sh``, docs/quality.md);
it costs a second parse of a file that has errors, about twice the time of reading C.
"""

from __future__ import annotations

import bisect
import itertools
import re
from functools import cache

from tree_sitter import Node, Parser, Query, QueryCursor, Tree
from tree_sitter_language_pack import get_language

__all__ = ["count_errors", "readable"]

#: A prototype macro: an all-capitals name called with one parenthesized list (``OF((int a, char *b))``,
#: ``Z_ARG((...))``, ``__P((...))``) right after a declarator's name, or after the ``)`` of a typedef's
#: ``(*alloc_func)``.
_PROTOTYPE_MACRO = re.compile(rb"\b([A-Z_][A-Z0-9_]*)[ \t]*\((?=[ \t]*\()")
#: What follows a prototype's parameter list: the declaration's end, or the next parameter's.
_PROTOTYPE_END = re.compile(rb"[ \t\r\n]*[;,)]")
#: Words after which an all-capitals call is an expression's, not a prototype's (``return MAX((a), b);``).
_EXPRESSION_WORDS = frozenset(b"return case sizeof else do goto typeof defined".split())
#: A name of capitals, digits and underscores, two characters at least, with a capital in it.
_CAPITALS = re.compile(rb"_*[A-Z][A-Z0-9_]*[A-Z0-9]")
#: The words of C's types and declarations' specifiers.
_TYPE_WORDS = frozenset(
    b"void char short int long float double signed unsigned const volatile static extern inline register struct"
    b" union enum".split()
)
#: A conditional directive at a line's start.
_CONDITIONAL = re.compile(rb"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")
#: A preprocessor directive, its ``\\`` continuations included.
_DIRECTIVE = re.compile(rb"^[ \t]*#(?:[^\n]*\\\r?\n)*[^\n]*", re.MULTILINE)
#: A comment, a string, a character literal or a directive: blanked before reading where statements end.
_COMMENT_STRING_OR_DIRECTIVE = re.compile(
    rb'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|' + _DIRECTIVE.pattern, re.DOTALL | re.MULTILINE
)
#: A conditional whose first branch only C++ compiles.
_CPLUSPLUS = re.compile(rb"[ \t]*#[ \t]*(?:ifdef[ \t]+__cplusplus\b|if[ \t]+(?:defined[ \t]*\(?[ \t]*)?__cplusplus\b)")
#: What the parser reads as a type that no macro can be.
_TYPES = frozenset({"primitive_type", "sized_type_specifier", "struct_specifier", "union_specifier", "enum_specifier"})
#: C's keywords: never a macro to blank.
_KEYWORDS_OF_C = frozenset(
    b"auto break case char const continue default do double else enum extern float for goto if inline int long"
    b" register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while"
    b" _Bool _Complex _Atomic _Noreturn _Static_assert _Thread_local".split()
)
#: The longest conditional read as cutting a statement; a longer one is a section of the file.
_CUT_LINES = 40
#: A directive that defines: its branch is not blanked.
_DEFINITION_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*(?:define|undef|include)\b")
#: How many rounds of blanking: each may reveal a decoration the previous error hid (``ZEXTERN`` after ``ZEXPORT``).
_ROUNDS = 3


def readable(source: bytes, parser: Parser) -> tuple[bytes, Tree]:
    """``source`` with its prototype macros unwrapped, its decoration macros blanked and its old-style
    definitions' return ``*`` blanked (same length), and the tree ``parser`` reads from it."""
    source = _unwrap_prototypes(source)
    tree = parser.parse(source)
    errors = count_errors(tree.root_node)
    if errors and b"#" in source:
        cut = _first_branches(source)
        if cut != source:
            retry = parser.parse(cut)
            fewer = count_errors(retry.root_node)
            if fewer < errors:
                source, tree, errors = cut, retry, fewer
    for _ in range(_ROUNDS):
        if not errors:
            break
        names = _decorations(tree.root_node, source)
        if not names:
            break
        blanked = _blank_words(source, names)
        retry = parser.parse(blanked)
        fewer = count_errors(retry.root_node)
        if fewer >= errors:
            break
        source, tree, errors = blanked, retry, fewer
    stars = [span for node in tree.root_node.children for span in _old_style_stars(node, source)]
    if stars:
        blanked = _blank_spans(source, stars)
        retry = parser.parse(blanked)
        if count_errors(retry.root_node) <= errors:
            source, tree = blanked, retry
    return source, tree


def _unwrap_prototypes(source: bytes) -> bytes:
    """Each ``NAME((...))`` after a declarator and before ``;`` becomes `` (...) `` (same length)."""
    if b"((" not in source:
        return source
    out = bytearray(source)
    for match in _PROTOTYPE_MACRO.finditer(source):
        line_start = source.rfind(b"\n", 0, match.start()) + 1
        line = source[line_start : match.start()].strip()
        if not line or not (line[-1:].isalnum() or line[-1:] in b"_)"):
            continue  # after a declarator's name or ``)`` only
        if line.startswith(b"#"):
            continue  # a directive: ``#define OF(args) args`` is the macro itself
        if line.endswith(b")") and not line.startswith(b"typedef"):
            continue  # ``if (verbose) DPRINTF(("%d", n));`` is a call
        word = re.search(rb"\w+$", line)
        if word is not None and word.group(0) in _EXPRESSION_WORDS:
            continue
        close = _closing(source, match.end() - 1)
        if close is None or _PROTOTYPE_END.match(source, close + 1) is None:
            continue
        out[match.start() : match.end()] = b" " * (match.end() - match.start())
        out[close] = ord(" ")
    return bytes(out)


def _closing(source: bytes, opening: int) -> int | None:
    """The offset of the ``)`` that closes the ``(`` at ``opening``, on the next few lines; None if none."""
    depth = 0
    for i in range(opening, min(len(source), opening + 2000)):
        byte = source[i]
        if byte == 0x28:  # (
            depth += 1
        elif byte == 0x29:  # )
            depth -= 1
            if depth == 0:
                return i
        elif byte in (0x3B, 0x7B, 0x7D):  # ; { }: no parameter list holds one
            return None
    return None


def _first_branches(source: bytes) -> bytes:
    """``source`` with each conditional that cuts a statement (``s->status =`` then ``#ifdef GZIP``, a branch that
    opens a block another closes, or ends in ``if (x)``) reduced to its first branch: the directives and the
    other branches blanked, as one build compiles it (``#ifdef __cplusplus``: the other branches, as a C
    compiler does). A conditional of whole statements, of directives only, of more than ``_CUT_LINES`` lines,
    or one that would blank a ``#define``, is kept, every branch of it read."""
    lines = source.split(b"\n")
    code = [line.rstrip() for line in _COMMENT_STRING_OR_DIRECTIVE.sub(_spaces, source).split(b"\n")]
    open_groups: list[list[int]] = []
    blank: set[int] = set()
    last = b""  # the last line of code before the current one
    before: dict[int, bytes] = {}  # an ``#if`` line's number -> the last line of code before it
    for number, line in enumerate(lines):
        if code[number]:
            last = code[number]
        match = _CONDITIONAL.match(line)
        if match is None:
            continue
        word = match.group(1)
        if word in (b"if", b"ifdef", b"ifndef"):
            open_groups.append([number])
            before[number] = last
        elif word in (b"elif", b"else") and open_groups:
            open_groups[-1].append(number)
        elif word == b"endif" and open_groups:
            group = [*open_groups.pop(), number]
            branches = [code[start + 1 : end] for start, end in itertools.pairwise(group)]
            if number - group[0] > _CUT_LINES or not any(map(_last, branches)):
                continue  # a section of a file, or of directives only: the parser reads those
            if not (_open(before[group[0]]) or any(_open(_last(branch)) or _unbalanced(branch) for branch in branches)):
                continue
            cplusplus = _CPLUSPLUS.match(lines[group[0]]) is not None  # ``#ifdef __cplusplus`` ``extern "C" {``
            dropped = range(group[0], group[1] + 1) if cplusplus else range(group[1], number + 1)
            if any(_DEFINITION_DIRECTIVE.match(lines[n]) for n in dropped):
                continue  # a macro defined in a branch is a definition to keep
            blank.update(dropped)
            blank.update((group[0], number))
    if not blank:
        return source
    return b"\n".join(re.sub(rb"[^\r]", b" ", line) if n in blank else line for n, line in enumerate(lines))


def _spaces(match: re.Match[bytes]) -> bytes:
    """A comment or a string as spaces, its line ends kept."""
    return b"\n".join(b" " * len(part) for part in match.group(0).split(b"\n"))


def _last(code: list[bytes]) -> bytes:
    """The last line with code among ``code``; empty if none."""
    return next((line for line in reversed(code) if line), b"")


def _open(code: bytes) -> bool:
    """Whether a line of code leaves a statement open: it ends in none of ``;``, ``{``, ``}``."""
    return bool(code) and not code.endswith((b";", b"{", b"}"))


def _unbalanced(code: list[bytes]) -> bool:
    """Whether the lines open more blocks than they close, or close more."""
    return sum(line.count(b"{") - line.count(b"}") for line in code) != 0


def _decorations(root: Node, source: bytes) -> set[bytes]:
    """The macros the parser did not expand, as its errors show them: an all-capitals name standing alone in an
    error after a type (``int ZEXPORT inflate(``, ``struct inflate_state FAR *state``, ``char * ZEXPORT f(``),
    or the name before a type that stands alone in one (``local void braid(``, ``ZEXTERN int``, ``UTIL_STATIC U64
    f(``: no type follows another). Of two names where one must be a macro, the one the file never uses as a
    type."""
    types: set[bytes] | None = None
    names: set[bytes] = set()
    pending = [root]
    while pending:
        node = pending.pop()
        if node.is_error:
            named = node.named_children
            if len(named) == 1 and named[0].type in ("identifier", "type_identifier", "primitive_type"):
                text = source[named[0].start_byte : named[0].end_byte]
                if text not in _TYPE_WORDS and not _CAPITALS.fullmatch(text):
                    continue
                if types is None:
                    types = _types(root, source)
                macro = _decoration(node, text, source, types)
                if macro and macro not in _KEYWORDS_OF_C:
                    names.add(macro)
        elif node.type == "declaration" and any(child.is_missing for child in node.children):
            declarator = node.child_by_field_name("declarator")  # ``int CJSON_CDECL main(void)``: ``;`` missing
            kind = node.child_by_field_name("type")
            text = source[declarator.start_byte : declarator.end_byte] if declarator is not None else b""
            if (
                declarator is not None
                and declarator.type == "identifier"
                and kind is not None
                and kind.type in _TYPES
                and _CAPITALS.fullmatch(text)
            ):
                names.add(text)
        pending.extend(child for child in node.children if child.has_error or child.is_missing)
    return names


def _decoration(error: Node, text: bytes, source: bytes, types: set[bytes]) -> bytes:
    """Which name an error standing for ``text`` shows to be a macro; empty when it shows none."""
    before = error.prev_sibling
    if before is None:
        return b""
    previous = source[before.start_byte : before.end_byte]
    if before.type == "type_identifier":
        if text in _TYPE_WORDS or text in types:
            return previous if previous not in types else b""  # ``UTIL_STATIC U64 f(``: the first is the macro
        return text if previous in types else b""  # ``gzFile ZEXPORT gzopen(``: the second
    if text not in _TYPE_WORDS and text not in types and (before.type in _TYPES or before.type == "*"):
        return text  # ``int ZEXPORT inflate(``, ``struct s FAR *p``, ``char * ZEXPORT zError(``
    return b""


def _types(root: Node, source: bytes) -> set[bytes]:
    """The names the file uses as types where it parsed cleanly (a declaration that starts its line, a named
    parameter of a sound list), and those it defines with ``typedef``."""
    found: set[bytes] = set()
    for nodes in QueryCursor(_type_query()).captures(root).values():
        for node in nodes:
            parent = node.parent
            if parent is None or parent.has_error:
                continue
            if parent.type == "parameter_declaration":
                if parent.child_by_field_name("declarator") is None or parent.parent is None or parent.parent.has_error:
                    continue  # ``f(strm, check)``: an old-style list's names read as types
            elif parent.type != "type_definition":
                line_start = source.rfind(b"\n", 0, parent.start_byte) + 1
                if source[line_start : parent.start_byte].strip():
                    continue  # ``z_const unsigned char FAR *next;`` read as an error and ``FAR *next;``
            found.add(source[node.start_byte : node.end_byte])
    return found


@cache
def _type_query() -> Query:
    return Query(
        get_language("c"),
        "(declaration type: (type_identifier) @type) (parameter_declaration type: (type_identifier) @type)"
        " (field_declaration type: (type_identifier) @type) (type_definition declarator: (type_identifier) @type)",
    )


def _blank_words(source: bytes, names: set[bytes]) -> bytes:
    """``source`` with each word in ``names`` blanked where it decorates a declaration (before a name, a type
    or a ``*``), outside directives."""
    pattern = re.compile(
        rb"\b(?:" + b"|".join(re.escape(name) for name in sorted(names)) + rb")\b(?=[ \t\r\n]*\*|[ \t\r\n]+[A-Za-z_])"
    )
    directives = [(match.start(), match.end()) for match in _DIRECTIVE.finditer(source)]
    starts = [start for start, _ in directives]

    def blank(match: re.Match[bytes]) -> bytes:
        at = bisect.bisect_right(starts, match.start()) - 1
        if at >= 0 and match.start() < directives[at][1]:
            return match.group(0)  # ``#define ZEXPORT`` is the macro itself
        return b" " * (match.end() - match.start())

    return pattern.sub(blank, source)


def _old_style_stars(node: Node, source: bytes) -> list[tuple[int, int]]:
    """The ``*`` spans of an old-style definition returning a pointer, read by the parser as a declaration
    (``char *name(a, b)``, the parameters' declarations, then a block); inside a directive's section too."""
    if node.type in ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"):
        return [span for child in node.children for span in _old_style_stars(child, source)]
    if node.type != "declaration":
        return []
    declarator = node.child_by_field_name("declarator")
    stars: list[tuple[int, int]] = []
    while declarator is not None and declarator.type == "pointer_declarator":
        stars.extend((c.start_byte, c.end_byte) for c in declarator.children if c.type == "*")
        declarator = declarator.child_by_field_name("declarator")
    if not stars or declarator is None or declarator.type != "function_declarator":
        return []
    parameters = declarator.child_by_field_name("parameters")
    if parameters is None or not all(_bare_name(p) for p in parameters.named_children):
        return []
    after = node.next_named_sibling
    while after is not None and after.type in ("declaration", "comment"):
        after = after.next_named_sibling
    if after is None or after.type != "compound_statement":
        return []
    return stars


def _bare_name(parameter: Node) -> bool:
    """A parameter written as a name alone, as old-style lists are (``(file, errnum)``)."""
    return parameter.type == "identifier" or (
        parameter.type == "parameter_declaration"
        and parameter.named_child_count == 1
        and parameter.named_children[0].type in ("type_identifier", "identifier")
    )


def _blank_spans(source: bytes, spans: list[tuple[int, int]]) -> bytes:
    out = bytearray(source)
    for start, end in spans:
        out[start:end] = b" " * (end - start)
    return bytes(out)


def count_errors(root: Node) -> int:
    """ERROR and MISSING nodes, visiting only subtrees that contain one."""
    if not root.has_error:
        return 0
    count = 0
    pending = [root]
    while pending:
        node = pending.pop()
        if node.is_error or node.is_missing:
            count += 1
        pending.extend(child for child in node.children if child.has_error or child.is_missing)
    return count
