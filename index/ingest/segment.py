"""Cut a file into segments: one per definition (nested ones too), line windows where none.

Definitions come from the structural extractor. Lines that no top-level definition covers are
grouped into windows of at most ``WINDOW_LINES`` lines; blank-only windows are dropped. Every
non-blank line of a file therefore belongs to exactly one innermost segment.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from fourfold.plugins.types import Definition, Extraction, Segment, segment_id

__all__ = [
    "SEGMENTER_VERSION",
    "WINDOW_LINES",
    "SegmentedFile",
    "content_hash",
    "owner_of_line",
    "segment_file",
    "split_lines",
]

log = logging.getLogger(__name__)

WINDOW_LINES = 50


def _segmenter_version() -> str:
    """Changes whenever cached segments must be recut (window size, extractor version)."""
    try:
        from fourfold.plugins.structural.extract import EXTRACTOR_VERSION
    except ImportError:
        EXTRACTOR_VERSION = "none"  # noqa: N806 - mirrors the imported constant
    return f"w{WINDOW_LINES}-x{EXTRACTOR_VERSION}"


#: Part of the per-file cache key: bump it (or the extractor's) to recut every file.
SEGMENTER_VERSION = _segmenter_version()


@dataclass(frozen=True, slots=True)
class SegmentedFile:
    segments: tuple[Segment, ...]
    extraction: Extraction
    lines: int


def content_hash(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def split_lines(text: str) -> list[str]:
    """Lines as ripgrep sees them: split on '\\n' only (a '\\r' stays on its line); no phantom last line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _extract(source: bytes, language: str) -> Extraction:
    try:
        from fourfold.plugins.structural.extract import extract
    except ImportError:  # the extractor is an optional module of the structural plugin
        return Extraction(definitions=(), parse_errors=0, supported=False)
    try:
        return extract(source, language)
    except Exception:  # an extractor bug must not stop the build: the file is indexed as windows
        log.exception("structural extractor failed on a %s file; indexing it as line windows", language)
        return Extraction(definitions=(), parse_errors=1, supported=True)


def segment_file(
    repo: str, path: str, language: str, source: bytes, extraction: Extraction | None = None
) -> SegmentedFile:
    """Segments of one file, in line order (parents before their children)."""
    text = source.decode("utf-8", "surrogateescape")
    lines = split_lines(text)
    n = len(lines)
    ex = extraction if extraction is not None else _extract(source, language)

    def make(start: int, end: int, d: Definition | None, parent: str | None) -> Segment:
        body = "\n".join(lines[start - 1 : end])
        symbol = d.name if d else None
        return Segment(
            id=segment_id(repo, path, start, end, d.qualified_name or d.name if d else None),
            repo=repo,
            path=path,
            language=language,
            start_line=start,
            end_line=end,
            content=body,
            content_hash=content_hash(body),
            symbol=symbol,
            kind=d.kind if d else None,
            signature=(d.signature or None) if d else None,
            qualified_name=(d.qualified_name or d.name) if d else None,
            parent_id=parent,
        )

    defs = sorted(
        (d for d in ex.definitions if 1 <= d.start_line <= max(n, 1)),
        key=lambda d: (d.start_line, -d.end_line),
    )
    out: list[Segment] = []
    stack: list[Segment] = []
    covered = [False] * (n + 2)
    seen: set[str] = set()
    for d in defs:
        end = min(max(d.end_line, d.start_line), n)
        while stack and not (stack[-1].start_line <= d.start_line and end <= stack[-1].end_line):
            stack.pop()
        seg = make(d.start_line, end, d, stack[-1].id if stack else None)
        if seg.id in seen:
            continue
        seen.add(seg.id)
        out.append(seg)
        stack.append(seg)
        if seg.parent_id is None:
            for i in range(seg.start_line, seg.end_line + 1):
                covered[i] = True
    # windows over the uncovered runs
    i = 1
    while i <= n:
        if covered[i]:
            i += 1
            continue
        j = i
        while j <= n and not covered[j] and j - i < WINDOW_LINES:
            j += 1
        start, end = i, j - 1
        if any(lines[k - 1].strip() for k in range(start, end + 1)):
            # trim blank lines at both ends so windows point at code
            while not lines[start - 1].strip():
                start += 1
            while not lines[end - 1].strip():
                end -= 1
            out.append(make(start, end, None, None))
        i = j
    out.sort(key=lambda s: (s.start_line, -s.end_line))
    return SegmentedFile(tuple(out), ex, n)


def owner_of_line(segments: list[Segment] | tuple[Segment, ...], line: int) -> Segment | None:
    """The innermost segment covering ``line`` (the shortest range that holds it)."""
    best: Segment | None = None
    for s in segments:
        if s.start_line <= line <= s.end_line and (
            best is None or s.end_line - s.start_line < best.end_line - best.start_line
        ):
            best = s
    return best
