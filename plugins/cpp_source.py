"""C++ source as a parser that does not expand macros should read it.

A library marks its exported classes with a macro between ``class`` and the name (leveldb's ``class
LEVELDB_EXPORT FilterPolicy {``, tinyxml2's ``class TINYXML2_LIB XMLElement : public XMLNode``, yaml-cpp's
``YAML_CPP_API``). tree-sitter, not knowing the macro expands to an attribute or to nothing, reads such a class
as a function named after the class whose body is the class's members written as statements: the class, its
methods and its bases are lost to every reader. ``readable`` blanks that macro (spaces of the same length, so
every byte offset and line stays where it was) and the class reads as the compiler sees it.
"""

from __future__ import annotations

import re

__all__ = ["readable"]

#: ``class``/``struct``/``union``, an all-capitals name (with its arguments, ``ALIGNED(16)``), then the class's name
#: and what follows a class's name: a base clause, its body, ``final``, or the ``;`` of a declaration.
_EXPORT_MACRO = re.compile(
    rb"\b(?:class|struct|union)[ \t]+([A-Z][A-Z0-9_]*[A-Z0-9_](?:[ \t]*\([^()\n]*\))?)[ \t]+"
    rb"(?=[A-Za-z_]\w*[ \t\r\n]*(?:final\b[ \t\r\n]*)?(?:[:{;]))"
)


def readable(source: bytes) -> bytes:
    """``source`` with each export macro between ``class`` and a class's name blanked (same length)."""
    if b"class" not in source and b"struct" not in source:
        return source
    return _EXPORT_MACRO.sub(_blank, source)


def _blank(match: re.Match[bytes]) -> bytes:
    start, end = match.start(1) - match.start(0), match.end(1) - match.start(0)
    whole = match.group(0)
    return whole[:start] + b" " * (end - start) + whole[end:]
