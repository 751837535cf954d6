"""Pasted code is answered first by the code it was copied from.

An agent or an engineer pastes lines it has in hand (from a diff, a log, a review) and asks for code like
them (``find_similar``). Every list ranks by its own evidence: BM25 favours any short segment sharing a few of
the words, the embeddings any code of the same shape, and a function that holds the very lines is one
candidate among them, sometimes not even its file's best segment. ``holders`` finds the segments that hold
every pasted line (``lines``: two or more, stripped of indentation, each found within its own line of the
segment, in order; a single line of code, a line of the segment that opens with it), and the engine fuses them
first (``fusion.fuse(pinned=)``), in their fused order, each an answer of its own (two methods of one file holding
the lines are two places the code lives), then everything else as before. A string that quotes the
snippet (a demo's script, a test's data) holds its lines on one line, or inside one, so it is no source; a copy of
a copy is, and both show. The engine also asks text for the paste's longest line as a literal (``LOOKUP_K``
segments): the source may be in no list at all. A class that holds a method holding the lines holds them only
through it: the innermost holder is the source (``innermost``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = [
    "INTENTS",
    "LOOKUP_K",
    "MIN_CHARS",
    "MIN_LINES",
    "ONE_LINE_CHARS",
    "ONE_LINE_INTENTS",
    "OPTION",
    "holders",
    "innermost",
    "lines",
]

#: The intents whose queries may be pasted code.
INTENTS = frozenset(
    {"find_similar", "exact_match", "find_definition", "find_references", "impact_analysis", "understand_code"}
)
#: A pasted line shorter than this (``}``, ``else:``, ``return x``) is in too many places to tell anything.
MIN_CHARS = 8
#: A paste of one line is found by text search as it is; two or more in order are a source's.
MIN_LINES = 2
#: One pasted line is a source's when a line of it opens with the paste (a string quoting it does not), the paste
#: is at least this long and has code's punctuation, and the question is one of these (a graph question's
#: "who calls x.y" is its own kind of question, however it is worded).
ONE_LINE_CHARS = 16
ONE_LINE_INTENTS = frozenset({"find_similar", "find_definition", "understand_code", "exact_match"})
_CODE = re.compile(r"[()\[\]{}=;]|\w\.\w|:\s*$")
_QUOTED = re.compile(r"^([\"'`]).*\1$")
#: How many segments text's literal search for the paste's longest line adds as candidates.
LOOKUP_K = 30
#: ``options[OPTION] = "off"`` fuses without pinning (for comparisons).
OPTION = "copied"


def lines(query: str, intent: str = "find_similar") -> list[str]:
    """The query's lines worth finding, stripped of indentation, in order: two or more (``MIN_LINES``), or one
    line of code (``ONE_LINE_CHARS`` long, with code's punctuation) asked as one of ``ONE_LINE_INTENTS``."""
    kept = [line.strip() for line in query.splitlines() if len(line.strip()) >= MIN_CHARS]
    if len(kept) >= MIN_LINES:
        return kept
    if (
        len(kept) == 1
        and intent in ONE_LINE_INTENTS
        and len(kept[0]) >= ONE_LINE_CHARS
        and _CODE.search(kept[0])
        and not _QUOTED.match(kept[0])  # a quoted string is asked as text: its literal search finds it
    ):
        return kept
    return []


def _holds(wanted: list[str], content: str) -> bool:
    """Each of ``wanted`` within a line of ``content`` of its own, in order; a single line opens one."""
    at = 0
    own = [line.strip() for line in content.splitlines()]
    for line in wanted:
        while at < len(own) and (not own[at].startswith(line) if len(wanted) == 1 else line not in own[at]):
            at += 1
        if at == len(own):
            return False
        at += 1
    return True


def holders(wanted: list[str], contents: Mapping[str, str]) -> set[str]:
    """The segment ids among ``contents`` (id -> text) that hold the pasted lines ``wanted`` (``lines``), each within
    a line of its own, in order (a single line opens one); none when it is empty."""
    if not wanted:
        return set()
    return {sid for sid, text in contents.items() if _holds(wanted, text)}


def innermost(held: set[str], spans: Mapping[str, tuple[str, str, int, int]]) -> set[str]:
    """The holders among ``held`` that hold no other: a segment (``spans``: id -> repo, path, first and last line)
    that encloses another holder of its file (a class around the method the lines were copied from) holds the
    lines only through it."""
    placed = [(sid, spans[sid]) for sid in held if sid in spans]
    return {
        sid
        for sid, (repo, path, start, end) in placed
        if not any(
            other != sid and (r, p) == (repo, path) and start <= s and e <= end and (s, e) != (start, end)
            for other, (r, p, s, e) in placed
        )
    } | {sid for sid in held if sid not in spans}
