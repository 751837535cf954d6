"""What the embedder reads for each segment: its context header plus its text, in model-sized windows.

A segment is embedded with its path, kind, qualified name and signature in front of its code,
so "where is the retry policy configured" can match ``class RetryPolicy`` in ``http/config.py``
even when the body never says "retry policy". A segment longer than the model's window is split
on line boundaries into windows that each fit (header included); the segment is hit when any of
its windows is, and scores as its best window.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fourfold.plugins.types import Segment

__all__ = ["Window", "context_header", "embed_key", "segment_text", "split_windows"]

#: Never split finer than this many lines, so a window carries some context even for dense code.
_MIN_LINES = 1


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


def embed_key(segment: Segment) -> str:
    """What decides a segment's vectors: its content and its header. Equal keys reuse vectors."""
    key = f"{context_header(segment)}\0{segment.content_hash}"
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()


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
