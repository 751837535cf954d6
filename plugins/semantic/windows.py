"""What the embedder reads for each segment: its context header plus its text, in model-sized windows.

A segment is embedded with its path, kind, qualified name and signature in front of its code,
so "where is the retry policy configured" can match ``class RetryPolicy`` in ``http/config.py``
even when the body never says "retry policy". A segment longer than the model's window is split
on line boundaries into windows that each fit (header included); the segment is hit when any of
its windows is, and scores as its best window.

A documented definition gets one more window: its header and its documentation alone (a Python
docstring, or the comment block right above the definition in any language). The whole body
dilutes what the documentation says in words, and in most languages the comment above a function
is not in the function's segment at all. "how does the client pick the proxy for a URL" is a
paraphrase of a docstring far more often than of a body.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from fourfold.plugins.doc_comments import clean, comment_above
from fourfold.plugins.semantic.cache import text_key
from fourfold.plugins.types import Segment

__all__ = ["Docs", "Window", "context_header", "doc_window", "embed_key", "read_docs", "segment_text", "split_windows"]

#: Never split finer than this many lines, so a window carries some context even for dense code.
_MIN_LINES = 1
#: The line that opens a Python definition (below its decorators, which may span lines).
_PY_DEFINITION = re.compile(r"^[ \t]*(?:async[ \t]+)?(?:def|class)\b", re.M)
#: The end of a Python definition's header: the first colon that ends a line (the header may span lines).
_PY_HEADER_END = re.compile(r":[ \t]*(?:#[^\n]*)?\n")
#: A string right after the header: the docstring (only there; a string later in the body is not one).
_PY_DOCSTRING = re.compile(r"(?:[ \t]*\n)*[ \t]*[rRuU]?(\"\"\"|\'\'\'|\"|\')(.*?)\1", re.S)
#: Documentation longer than this many characters is cut (the model reads 256 tokens at most).
_DOC_CHARS = 2000


@dataclass(frozen=True, slots=True)
class Window:
    """One text to embed: ``segment`` is the row of the segment it belongs to; lines are 1-based."""

    segment: int
    start_line: int
    end_line: int
    text: str


def context_header(segment: Segment) -> str:
    """``path``, then ``kind name`` and the signature when the segment is a definition."""
    lines = [segment.path]
    if segment.symbol:
        name = segment.qualified_name or segment.symbol
        lines.append(f"{segment.kind or 'definition'} {name}")
        if segment.signature and segment.signature not in lines[-1]:
            lines.append(segment.signature)
    return "\n".join(lines) + "\n"


def segment_text(segment: Segment) -> str:
    """The whole text of a segment as the embedder would read it in one window."""
    return context_header(segment) + segment.content


def embed_key(segment: Segment, doc: str = "") -> str:
    """What decides a segment's vectors: its content, its header and its documentation window's
    text (none: the key of a segment without one). Equal keys reuse vectors."""
    key = f"{context_header(segment)}\0{segment.content_hash}" + (f"\0doc\0{doc}" if doc else "")
    # source is decoded with surrogateescape: a comment with a stray byte must hash, not raise
    return hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def split_windows(
    row: int,
    segment: Segment,
    max_tokens: int,
    count_tokens: Callable[[list[str]], list[int]],
    whole_tokens: int | None = None,
) -> list[Window]:
    """The windows of one segment, each within ``max_tokens`` by ``count_tokens``' measure.

    Lines are packed greedily; a single line longer than the window is kept alone (the embedder
    truncates it) rather than cut mid-token. ``whole_tokens``, when the caller counted the
    header and content together already (in one batch for many segments), skips a recount.
    """
    header = context_header(segment)
    lines = segment.content.splitlines() or [""]
    whole = segment_text(segment)
    if (whole_tokens if whole_tokens is not None else count_tokens([whole])[0]) <= max_tokens:
        return [Window(row, segment.start_line, segment.end_line, whole)]
    header_tokens, *line_tokens = count_tokens([header, *lines])
    # Each line was counted with its own [CLS]/[SEP]-style overhead; that only makes windows smaller.
    budget = max(max_tokens - header_tokens, 1)
    windows: list[Window] = []
    start, used = 0, 0
    for i, n in enumerate(line_tokens):
        if i - start >= _MIN_LINES and used + n > budget:
            windows.append(_window(row, segment, header, lines, start, i))
            start, used = i, 0
        used += n
    windows.append(_window(row, segment, header, lines, start, len(lines)))
    return windows


def _window(row: int, segment: Segment, header: str, lines: Sequence[str], start: int, end: int) -> Window:
    text = header + "\n".join(lines[start:end])
    return Window(row, segment.start_line + start, segment.start_line + end - 1, text)


@dataclass(frozen=True, slots=True)
class Docs:
    """The documentation of a shard's definitions, and the segments to embed in place of others.

    ``text``: row -> a documented definition's documentation. ``trimmed``: row -> a segment outside
    any definition (a gap) without the doc comments at its end, which belong to the definitions
    below them; an empty gap gets no window.
    """

    text: Mapping[int, str]
    trimmed: Mapping[int, Segment]


def read_docs(segments: Sequence[Segment]) -> Docs:
    """The documentation of each documented definition among ``segments`` (see :class:`Docs`).

    ``segments`` are a shard's segments in file order, so a file's lines can be read back from them;
    a definition's documentation is its Python docstring and the comment block right above it
    (decorators, annotations and attributes may stand between), comment markers removed.
    """
    lines_of: dict[tuple[str, str], dict[int, str]] = {}
    for s in segments:
        lines = lines_of.setdefault((s.repo, s.path), {})
        for offset, line in enumerate(s.content.split("\n")):
            lines.setdefault(s.start_line + offset, line)
    text: dict[int, str] = {}
    comment_lines: set[tuple[str, str, int]] = set()
    for row, s in enumerate(segments):
        if not s.symbol:
            continue
        first, above = comment_above(lines_of[(s.repo, s.path)], s.start_line, s.language)
        comment_lines.update((s.repo, s.path, n) for n in range(first, first + len(above)))
        parts = [clean(above)]
        if s.language == "python":
            parts.append(_python_docstring(s.content))
        doc = "\n".join(p for p in parts if p)
        if doc:
            text[row] = doc[:_DOC_CHARS]
    trimmed: dict[int, Segment] = {}
    for row, s in enumerate(segments):
        if s.symbol or (s.repo, s.path, s.end_line) not in comment_lines:
            continue
        kept = s.content.split("\n")
        while kept and (s.repo, s.path, s.start_line + len(kept) - 1) in comment_lines:
            kept.pop()
        content = "\n".join(kept) if any(line.strip() for line in kept) else ""
        end = s.start_line + max(len(kept), 1) - 1
        trimmed[row] = replace(s, content=content, end_line=end, content_hash=text_key(content))
    return Docs(text, trimmed)


def _python_docstring(content: str) -> str:
    """The docstring of a Python definition's ``content`` ("" without one), lines stripped."""
    opening = _PY_DEFINITION.search(content)
    header = _PY_HEADER_END.search(content, opening.end()) if opening else None
    found = _PY_DOCSTRING.match(content, header.end()) if header else None
    return clean(found.group(2).split("\n")) if found else ""


def doc_window(row: int, segment: Segment, doc: str) -> Window:
    """The window of a documented definition's header and documentation; a hit on it is the whole segment."""
    return Window(row, segment.start_line, segment.end_line, context_header(segment) + doc)
