"""Cut a file into segments: one per definition (nested ones too), line windows where none.

Segmentation is the host's; which lines are definitions comes from the definition extractor a
plugin registered (``fourfold_register_extractors``; the structural plugin's tree-sitter extractor
unless another plugin refines it, see ``PluginRegistry.extractor``). Lines that no top-level
definition covers are grouped into windows of at most ``WINDOW_LINES`` lines; blank-only windows
are dropped. Every non-blank line of a file therefore belongs to exactly one innermost segment.
A file with no line of text (an empty ``__init__.py``, ``py.typed``) has one segment, its lines
(none, or blank ones), so that it is a file of the index as ``find`` and ``ls`` list it. With no
extractor registered, a file is windows only.

The extractor is chosen once, through the plugin registry, by the caller (the indexer, or
:func:`segment_file` by default); worker processes get its :class:`ExtractorSpec` and import only
the function it names, so that they never build the registry.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from fourfold.plugins.extractor import ExtractorSpec, load_extractor
from fourfold.plugins.types import Definition, Extraction, Segment, segment_id

__all__ = [
    "WINDOW_LINES",
    "SegmentedFile",
    "content_hash",
    "current_extractor",
    "extract_definitions",
    "owner_of_line",
    "place_id",
    "segment_file",
    "segmenter_version",
    "split_lines",
]

log = logging.getLogger(__name__)

WINDOW_LINES = 50


def segmenter_version(extractor: ExtractorSpec | None) -> str:
    """Part of the per-file cache key: changes whenever cached segments must be recut.

    It names the window size and the extractor (name and version; ``none`` without one), so a
    new extractor version, another plugin's extractor or none at all recuts every file.
    """
    # "-e": a file with no line of text has one empty segment (its path is listed, as find and ls list it)
    return f"w{WINDOW_LINES}-x{extractor.name}-{extractor.version}-e" if extractor else f"w{WINDOW_LINES}-xnone-e"


def current_extractor() -> ExtractorSpec | None:
    """The extractor the plugin registry chose (builds the registry on first use in this process)."""
    from fourfold.plugins.manager import get_registry  # not at import: pool workers never build it

    return get_registry().extractor


@dataclass(frozen=True, slots=True)
class SegmentedFile:
    segments: tuple[Segment, ...]
    extraction: Extraction
    lines: int


def content_hash(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def place_id(
    repo: str, path: str, start_line: int, end_line: int, qualified_name: str | None, symbol: str | None
) -> str:
    """The id ingestion gives the segment at this place: ``segment_id`` of its qualified name, else
    its symbol. A segment re-stamped for another repository or path takes this id at its new place."""
    return segment_id(repo, path, start_line, end_line, qualified_name or symbol)


def split_lines(text: str) -> list[str]:
    """Lines as ripgrep sees them: split on '\\n' only (a '\\r' stays on its line); no phantom last line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def extract_definitions(source: bytes, language: str, extractor: ExtractorSpec | None) -> Extraction:
    """The definitions ``extractor`` finds in one file; none (``supported=False``) without an extractor.

    An extractor that raises does not stop the build: the file is indexed as line windows.
    """
    if extractor is None:
        return Extraction(definitions=(), parse_errors=0, supported=False)
    extract = load_extractor(extractor.reference)
    try:
        return extract(source, language)
    except Exception:
        log.exception(
            "extractor %s of plugin %s failed on a %s file; indexing it as line windows",
            extractor.name,
            extractor.plugin,
            language,
        )
        return Extraction(definitions=(), parse_errors=1, supported=True)


def segment_file(
    repo: str, path: str, language: str, source: bytes, extraction: Extraction | None = None
) -> SegmentedFile:
    """Segments of one file, in line order (parents before their children).

    ``extraction``: the file's definitions when the caller has them; by default the registry's
    extractor finds them (:func:`current_extractor`).
    """
    text = source.decode("utf-8", "surrogateescape")
    lines = split_lines(text)
    n = len(lines)
    ex = extraction if extraction is not None else extract_definitions(source, language, current_extractor())

    def make(start: int, end: int, d: Definition | None, parent: str | None) -> Segment:
        body = "\n".join(lines[start - 1 : end])
        symbol = d.name if d else None
        qualified = (d.qualified_name or d.name) if d else None
        return Segment(
            id=place_id(repo, path, start, end, qualified, symbol),
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
            qualified_name=qualified,
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
    if not out:  # an empty file (__init__.py, py.typed), or blank lines alone: one segment names it
        out.append(make(1, max(n, 1), None, None))
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
