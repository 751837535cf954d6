"""C# source as a parser that does not evaluate ``#if`` should read it.

A C# library builds for several frameworks from one source, and its ``#if`` sections cut through statements,
base lists and type parameters (Json.NET's ``if (value is BigInteger) { ... } else`` under ``#if !(NET20 ||
NET35)``, then the ``{ ... }`` every build shares; ``class JObject : JContainer`` with ``, ICustomTypeDescriptor``
under another ``#if``). tree-sitter reads the directives as lines of their own between statements, so such a cut
leaves a broken tree, and the methods after it lose their definitions and their calls: 73 of the 769 files of four
Debian C# libraries (``benchmarks/cs_suites.sh``). ``readable`` keeps what one build compiles, the first branch of
each ``#if`` (the section itself when it has no ``#else``), and blanks the directives and the other branches
(spaces of the same length, so every byte offset and line stays where it was): 4 of the 769 files stay broken.
"""

from __future__ import annotations

import re

__all__ = ["readable"]

#: A conditional directive at a line's start (after a byte order mark, on a file's first line).
_CONDITIONAL = re.compile(rb"(?:\xef\xbb\xbf)?[ \t]*#[ \t]*(if|elif|else|endif)\b")


def readable(source: bytes) -> bytes:
    """``source`` with each ``#if``'s first branch kept and its directives and other branches blanked."""
    if b"#" not in source:
        return source
    lines = source.split(b"\n")
    past_first: list[bool] = []  # per open ``#if``: whether its first branch has ended
    for i, line in enumerate(lines):
        match = _CONDITIONAL.match(line)
        if match is not None:
            word = match.group(1)
            if word == b"if":
                past_first.append(False)
            elif word in (b"elif", b"else") and past_first:
                past_first[-1] = True
            elif word == b"endif" and past_first:
                past_first.pop()
            start = 3 if line.startswith(b"\xef\xbb\xbf") else 0
            lines[i] = line[:start] + b" " * (len(line) - start)
        elif any(past_first):
            lines[i] = b" " * len(line)
    return b"\n".join(lines)
