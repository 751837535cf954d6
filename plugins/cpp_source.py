"""C++ source as a parser that does not expand macros should read it.

A library marks its exported classes with a macro between ``class`` and the name (leveldb's ``class
LEVELDB_EXPORT FilterPolicy {``, tinyxml2's ``class TINYXML2_LIB XMLElement : public XMLNode``, yaml-cpp's
``YAML_CPP_API``). tree-sitter, not knowing the macro expands to an attribute or to nothing, reads such a class
as a function named after the class whose body is the class's members written as statements: the class, its
methods and its bases are lost to every reader. ``readable`` blanks that macro (spaces of the same length, so
every byte offset and line stays where it was) and the class reads as the compiler sees it. Thread-safety
annotations (``GUARDED_BY(mu_)``) and macros invoked as statements outside functions (``DEFINE_FLAG(int, limit,
256 << 10, "...");``) are blanked alike.
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
#: GUARDED_BY(mutex_);``, ``void Compact() EXCLUSIVE_LOCKS_REQUIRED(mutex_);``, ``ABSL_GUARDED_BY``, and the older
#: ``void Lock() EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }``): read as written,
#: a field so marked is a method named ``GUARDED_BY``, and its type is lost.
_ANNOTATION = re.compile(
    rb"\b(?:[A-Z][A-Z0-9]*_)*(?:GUARDED_BY|LOCKS_REQUIRED|LOCKS_EXCLUDED|REQUIRES(?:_SHARED)?|EXCLUDES|ACQUIRED_AFTER"
    rb"|ACQUIRED_BEFORE|LOCK_RETURNED|NO_THREAD_SAFETY_ANALYSIS|(?:TRY_)?ACQUIRE(?:_SHARED)?|RELEASE(?:_SHARED)?"
    rb"|ASSERT_EXCLUSIVE_LOCK|ASSERT_SHARED_LOCK|RETURN_CAPABILITY|(?:TRY)?LOCK_FUNCTION|UNLOCK_FUNCTION)\b"
    rb"(?:[ \t]*\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))?"
)


#: A macro invoked as a statement of its own at the start of a line, outside any function (re2's ``DEFINE_FLAG(int,
#: regexp_stack_limit, 256 << 10, "...");``, ``DEFINE_HOOK(DFASearchFailure, dfa_search_failure)``, yaml-cpp's
#: ``YAML_DEFINE_CONVERT_STREAMABLE_SIGNED(int);``): an all-capitals name, its arguments (parentheses nested twice,
#: no statement or block inside), an optional ``;``, then the end of the line. Read as written, the first of them
#: is a function whose body runs on to the next ``}``, and every definition up to there is lost or nested in it.
#: Not when the next line opens a body (``TEST(Foo, Bar)`` above ``{``): that is a definition.
_STATEMENT_MACRO = re.compile(
    rb"^[A-Z][A-Z0-9_]*[A-Z0-9][ \t]*\((?:[^();{}]|\((?:[^();{}]|\([^();{}]*\))*\))*\)[ \t]*;?"
    rb"(?=[ \t]*(?://[^\n]*)?\r?\n(?![ \t\r\n]*[{:]))",
    re.MULTILINE,
)
#: How the code before a statement macro may end: a statement, a block, another such macro, or nothing.
_STATEMENT_END = (b";", b"{", b"}", b")")


def readable(source: bytes) -> bytes:
    """``source`` with each export macro between ``class`` and a class's name, each thread-safety annotation, and
    each macro invoked as a statement at the start of a line, blanked (same length)."""
    return _STATEMENT_MACRO.sub(_blank_statement, _ANNOTATION.sub(_blank_annotation, _EXPORT_MACRO.sub(_blank, source)))


def _blank_statement(match: re.Match[bytes]) -> bytes:
    """A statement macro blanked, where the line before it ends a statement or is a directive or a comment (after
    ``void`` alone on its line, ``FOO(int x);`` declares a function named FOO)."""
    source, end = match.string, match.start()
    while end > 0 and source[end - 1 : end].isspace():  # the end of the last line with code or a comment on it
        end -= 1
    last = source[source.rfind(b"\n", 0, end) + 1 : end].lstrip()
    if end and not (last.endswith(_STATEMENT_END) or last.startswith((b"#", b"//")) or last.endswith(b"*/")):
        return match.group(0)
    return re.sub(rb"[^\r\n]", b" ", match.group(0))


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
