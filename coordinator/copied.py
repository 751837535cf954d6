"""Pasted code is answered first by the code it was copied from.

An agent or an engineer pastes lines it has in hand (from a diff, a log, a review) and asks for code like
them (``find_similar``). Every list ranks by its own evidence: BM25 favours any short segment sharing a few of
the words, the embeddings any code of the same shape, and a function that holds the very lines is one
candidate among them, sometimes not even its file's best segment. ``holding`` finds the segments that hold
every pasted line (``lines``: two or more, stripped of indentation, each found within its own line of the
segment, in order), and the engine fuses them first (``fusion.fuse(pinned=)``), in their fused order, then
everything else as before. A string that quotes the snippet (a demo's script, a test's data) holds its lines
on one line, so it is no source; a copy of a copy is, and both show.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["INTENTS", "MIN_CHARS", "MIN_LINES", "OPTION", "holding", "lines"]

#: The intents whose queries may be pasted code.
INTENTS = frozenset(
    {"find_similar", "exact_match", "find_definition", "find_references", "impact_analysis", "understand_code"}
)
#: A pasted line shorter than this (``}``, ``else:``, ``return x``) is in too many places to tell anything.
MIN_CHARS = 8
#: A paste of one line is found by text search as it is; two or more in order are a source's.
MIN_LINES = 2
#: ``options[OPTION] = "off"`` fuses without pinning (for comparisons).
OPTION = "copied"


def lines(query: str) -> list[str]:
    """The query's lines worth finding, stripped of indentation, in order (none when fewer than ``MIN_LINES``)."""
    kept = [line.strip() for line in query.splitlines() if len(line.strip()) >= MIN_CHARS]
    return kept if len(kept) >= MIN_LINES else []


def _holds(wanted: list[str], content: str) -> bool:
    at = 0
    own = content.splitlines()
    for line in wanted:
        while at < len(own) and line not in own[at]:
            at += 1
        if at == len(own):
            return False
        at += 1
    return True


def holding(query: str, contents: Mapping[str, str]) -> set[str]:
    """The segment ids among ``contents`` (id -> text) that hold every line of the pasted ``query``, each
    within a line of its own, in order; none when the query is not a paste of ``MIN_LINES`` lines or more."""
    wanted = lines(query)
    if not wanted:
        return set()
    return {sid for sid, text in contents.items() if _holds(wanted, text)}
