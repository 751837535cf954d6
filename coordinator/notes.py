"""The notes of an answer, tidied: each said once, and a long query never echoed in full.

Modalities echo the query in their notes ("no identifier in '...'"), which is right for a short
query and useless for a pasted 5,000-character one: it buries the other notes and bloats every
answer (MCP callers pay for it in tokens). Echoes of a long query are cut to its head and its
length; any note is cut to ``MAX_NOTE_CHARS`` (a listing whose answer is a note, the folders of an ``ls`` or a
``find -type d``, to ``MAX_LISTING_NOTE_CHARS``); equal notes appear once.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["MAX_LISTING_NOTE_CHARS", "MAX_NOTE_CHARS", "QUERY_ECHO_CHARS", "tidy_notes"]

#: A query longer than this is echoed as its first ``QUERY_ECHO_CHARS`` characters and its length.
QUERY_ECHO_CHARS = 80
#: No note is longer than this ...
MAX_NOTE_CHARS = 400
#: ... but for a listing whose answer is its note (the folders an ``ls`` or ``find -type d`` names, which the text
#: modality bounds itself and ends with how many it left out).
MAX_LISTING_NOTE_CHARS = 2000


def tidy_notes(notes: Iterable[str], query: str, listing: bool = False) -> tuple[str, ...]:
    """``notes`` in order, each once, with echoes of a long ``query`` shortened; ``listing``: the answer is a
    listing of folders, whose notes may be as long as ``MAX_LISTING_NOTE_CHARS``."""
    most = MAX_LISTING_NOTE_CHARS if listing else MAX_NOTE_CHARS
    short = f"{query[:QUERY_ECHO_CHARS]}… ({len(query):,} characters)"
    echoes = [(repr(query), repr(short)), (query, short)] if len(query) > QUERY_ECHO_CHARS else []
    stripped = query.strip()
    if stripped != query and len(stripped) > QUERY_ECHO_CHARS:
        echoes += [(repr(stripped), repr(short)), (stripped, short)]
    out: list[str] = []
    for note in notes:
        for echo, replacement in echoes:
            if echo in note:
                note = note.replace(echo, replacement)
        if len(note) > most:
            note = note[: most - 1] + "…"
        if note not in out:
            out.append(note)
    return tuple(out)
