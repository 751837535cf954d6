"""The indexed text of one file, rebuilt from its segments (what ``ReadFile`` answers).

The live generation holds every line of every indexed file inside its segments (definitions, and
line windows for what no definition covers), so a file reads back exactly as it was indexed — the
same text the hits point into — without the coordinator touching the repository's working tree.
"""

from __future__ import annotations

from fourfold.api import FileSymbol, FileText
from fourfold.errors import InvalidInput, NotFound
from fourfold.index.store import GenerationReader

__all__ = ["MAX_FILE_LINES", "FileSymbol", "FileText", "read_file"]

#: Most lines one ReadFile answers (a larger file is read in ranges).
MAX_FILE_LINES = 20_000


def read_file(reader: GenerationReader, repo: str, path: str, start_line: int = 0, end_line: int = 0) -> FileText:
    """The file's lines from the generation ``reader`` reads; ``0`` bounds mean the file's own.

    Raises :class:`NotFound` when the generation has no such file (the caller's ACL check must run
    first and answer the same way for a repository it may not read) and :class:`InvalidInput` for
    a range that is not one.
    """
    if start_line < 0 or end_line < 0 or (end_line and start_line > end_line):
        raise InvalidInput(f"invalid line range {start_line}-{end_line}: give 1 <= start <= end (0 for the file's own)")
    segments = list(reader.segments(files=[f"{repo}\0{path}"]))
    if not segments:
        raise NotFound(f"no file {path!r} in repository {repo!r} in generation {reader.name}")
    lines: dict[int, str] = {}
    for s in sorted(segments, key=lambda s: s.end_line - s.start_line, reverse=True):
        for i, text in enumerate(s.content.split("\n")[: s.end_line - s.start_line + 1]):
            lines.setdefault(s.start_line + i, text)
    total = max(s.end_line for s in segments)
    first = max(start_line, 1)
    last = min(end_line or total, total)
    if first > total:
        raise InvalidInput(f"line {start_line} is past the end of {path!r} ({total} lines)")
    if last - first + 1 > MAX_FILE_LINES:
        last = first + MAX_FILE_LINES - 1
    symbols = tuple(
        FileSymbol(s.symbol, s.kind or "", s.start_line, s.end_line)
        for s in sorted(segments, key=lambda s: (s.start_line, -s.end_line))
        if s.symbol
    )
    return FileText(
        repo=repo,
        path=path,
        language=segments[0].language,
        generation=reader.name,
        start_line=first,
        end_line=last,
        total_lines=total,
        content="\n".join(lines.get(i, "") for i in range(first, last + 1)),
        symbols=symbols,
    )
