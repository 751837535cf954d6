"""A file's tree as a parser that expands no macro and evaluates no ``#if`` should read it, for the structural
extractor and the graph's reader alike: C after its decoration and prototype macros (``c_source``), C++ past its
export macros, lock annotations and statement macros (``cpp_source``), C# as one build compiles each ``#if``
(``cs_source``), TypeScript's members that begin a line with ``<`` or ``(`` separated as its compiler separates
them (``typescript_members``); every other language as written. Each only blanks or replaces (same length), so every
offset and line stays.
"""

from __future__ import annotations

import re

from tree_sitter import Parser, Tree

from fourfold.plugins.c_source import count_errors
from fourfold.plugins.c_source import readable as c_readable
from fourfold.plugins.cpp_source import readable as cpp_readable
from fourfold.plugins.cs_source import readable as cs_readable

__all__ = ["readable_tree", "typescript_members"]

# a line that begins, after its indentation, a call or construct signature: ``<T>(fn: T): T``, ``(name: string): D``
_SIGNATURE_LINE = re.compile(rb"(?m)^([ \t]*)[ \t](?=[<(])")


def readable_tree(source: bytes, language: str, parser: Parser) -> tuple[bytes, Tree]:
    """The text to quote definitions from and the tree ``parser`` reads for ``language``: C's text as written (its
    readable form is found by parsing), C++'s and C#'s the blanked one, whose tree it is."""
    if language == "c":
        return source, c_readable(source, parser)[1]  # ``int ZEXPORT inflate(strm, flush)``
    if language == "cpp":
        source = cpp_readable(source)  # ``class LEVELDB_EXPORT DB : public Base {``: the class and its bases
    elif language == "csharp":
        source = cs_readable(source)  # an ``#if`` that cuts a statement in two leaves the file's tree broken
    tree = parser.parse(source)
    if language in ("typescript", "tsx") and tree.root_node.has_error:
        members = typescript_members(source)
        if members != source:
            separated = parser.parse(members)
            if count_errors(separated.root_node) < count_errors(tree.root_node):
                return members, separated
    return source, tree


def typescript_members(source: bytes) -> bytes:
    """``source`` with a ``;`` in the last column of the indentation of each line that begins with ``<`` or ``(``.

    In an interface, a member that begins a line ends the member before it, as the compiler reads it:
    ``<T>(fn: T): T`` then ``<T>(name: string, fn: T): T`` are two call signatures. tree-sitter reads the second
    line's ``<`` as the first one's type arguments and loses the interface and the rest of the file (mobx's
    ``IActionFactory``). Used only where it leaves fewer parse errors than the file as written."""
    return _SIGNATURE_LINE.sub(lambda m: m.group(1) + b";", source)
