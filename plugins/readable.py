"""A file's tree as a parser that expands no macro and evaluates no ``#if`` should read it, for the structural
extractor and the graph's reader alike: C after its decoration and prototype macros (``c_source``), C++ past its
export macros, lock annotations and statement macros (``cpp_source``), C# as one build compiles each ``#if``
(``cs_source``); every other language as written. Each only blanks (same length), so every offset and line stays.
"""

from __future__ import annotations

from tree_sitter import Parser, Tree

from fourfold.plugins.c_source import readable as c_readable
from fourfold.plugins.cpp_source import readable as cpp_readable
from fourfold.plugins.cs_source import readable as cs_readable

__all__ = ["readable_tree"]


def readable_tree(source: bytes, language: str, parser: Parser) -> tuple[bytes, Tree]:
    """The text to quote definitions from and the tree ``parser`` reads for ``language``: C's text as written (its
    readable form is found by parsing), C++'s and C#'s the blanked one, whose tree it is."""
    if language == "c":
        return source, c_readable(source, parser)[1]  # ``int ZEXPORT inflate(strm, flush)``
    if language == "cpp":
        source = cpp_readable(source)  # ``class LEVELDB_EXPORT DB : public Base {``: the class and its bases
    elif language == "csharp":
        source = cs_readable(source)  # an ``#if`` that cuts a statement in two leaves the file's tree broken
    return source, parser.parse(source)
