"""C++ source as a parser that does not expand macros should read it.

A library marks its exported classes with a macro between ``class`` and the name (leveldb's ``class
LEVELDB_EXPORT FilterPolicy {``, tinyxml2's ``class TINYXML2_LIB XMLElement : public XMLNode``, yaml-cpp's
``YAML_CPP_API``). tree-sitter, not knowing the macro expands to an attribute or to nothing, reads such a class
as a function named after the class whose body is the class's members written as statements: the class, its
methods and its bases are lost to every reader. ``readable`` blanks that macro (spaces of the same length, so
every byte offset and line stays where it was) and the class reads as the compiler sees it. Thread-safety
annotations (``GUARDED_BY(mu_)``) are blanked alike.
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


#: Clang's thread-safety annotations as the Google style spells them (``VersionSet* const versions_
#: GUARDED_BY(mutex_);``, ``void Compact() EXCLUSIVE_LOCKS_REQUIRED(mutex_);``, ``ABSL_GUARDED_BY``): read as written,
#: a field so marked is a method named ``GUARDED_BY``, and its type is lost.
_ANNOTATION = re.compile(
    rb"\b(?:[A-Z][A-Z0-9]*_)*(?:GUARDED_BY|LOCKS_REQUIRED|LOCKS_EXCLUDED|REQUIRES(?:_SHARED)?|EXCLUDES|ACQUIRED_AFTER"
    rb"|ACQUIRED_BEFORE|LOCK_RETURNED|NO_THREAD_SAFETY_ANALYSIS|(?:TRY_)?ACQUIRE(?:_SHARED)?|RELEASE(?:_SHARED)?"
    rb"|ASSERT_EXCLUSIVE_LOCK|ASSERT_SHARED_LOCK|RETURN_CAPABILITY)\b(?:[ \t]*\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))?"
)


def readable(source: bytes) -> bytes:
    """``source`` with each export macro between ``class`` and a class's name, and each thread-safety annotation,
    blanked (same length)."""
    return _ANNOTATION.sub(_blank_annotation, _EXPORT_MACRO.sub(_blank, source))


def _blank_annotation(match: re.Match[bytes]) -> bytes:
    """An annotation blanked; the name of a ``#define`` of one kept (``#define GUARDED_BY(x) ..``)."""
    line_start = match.string.rfind(b"\n", 0, match.start()) + 1
    if match.string[line_start : match.start()].lstrip().startswith(b"#"):
        return match.group(0)
    return b" " * (match.end() - match.start())


def _blank(match: re.Match[bytes]) -> bytes:
    start, end = match.start(1) - match.start(0), match.end(1) - match.start(0)
    whole = match.group(0)
    return whole[:start] + b" " * (end - start) + whole[end:]
