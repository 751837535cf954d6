"""Segments for tests and benchmarks, without the structural extractor.

``segments_for_file`` cuts a file the way ingestion does, but covers every line (blank ones
too), so that a text search over its segments must agree with ripgrep over the file itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from fourfold.plugins.types import Definition, Segment, segment_id

__all__ = ["segments_for_file", "split_lines"]


def split_lines(text: str) -> list[str]:
    """Lines as ripgrep sees them: split on '\\n' only, no phantom line after a final '\\n'."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def segments_for_file(
    repo: str,
    path: str,
    language: str,
    text: str,
    definitions: Sequence[Definition] = (),
    window: int = 50,
) -> list[Segment]:
    """Definition segments (nested by containment) plus windows of at most ``window`` lines elsewhere."""
    lines = split_lines(text)
    n = len(lines)

    def make(start: int, end: int, d: Definition | None, parent: str | None) -> Segment:
        body = "\n".join(lines[start - 1 : end])
        return Segment(
            id=segment_id(repo, path, start, end, d.name if d else None),
            repo=repo,
            path=path,
            language=language,
            start_line=start,
            end_line=end,
            content=body,
            content_hash=str(hash(body)),
            symbol=d.name if d else None,
            kind=d.kind if d else None,
            qualified_name=d.qualified_name or d.name if d else None,
            parent_id=parent,
        )

    out: list[Segment] = []
    stack: list[Segment] = []
    covered = [False] * (n + 1)
    for d in sorted(definitions, key=lambda d: (d.start_line, -d.end_line)):
        while stack and not (stack[-1].start_line <= d.start_line and d.end_line <= stack[-1].end_line):
            stack.pop()
        seg = make(d.start_line, min(d.end_line, n), d, stack[-1].id if stack else None)
        out.append(seg)
        stack.append(seg)
        for i in range(seg.start_line, seg.end_line + 1):
            covered[i] = True
    i = 1
    while i <= n:
        if covered[i]:
            i += 1
            continue
        j = i
        while j <= n and not covered[j] and j - i < window:
            j += 1
        out.append(make(i, j - 1, None, None))
        i = j
    return out
