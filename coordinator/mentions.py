"""Where the graph finds no callers of a name it was asked about: the places that write the name.

"who calls sendFile" in express: the graph resolves calls it can type (a module's function, a
class's method called on its class), and ``this.sendFile(...)``, a method of an object built at run
time, is none of them. Its direct path then found nothing, and the fused answer was whatever shared
the question's words: express's lower-case ``sendfile`` helper first, rxjs's ``isFile`` and ``send``
after. A user of grep or of a search-based code navigator expects the lines that write the name.

So a references or impact question whose direct path (the graph) found nothing, and which names
code (``absent.subject``), asks text for the name as a whole word, case-sensitive, every segment: the
answer is those segments, the ones inside a definition (the callers) before module-level lines and
comments, the name's own definitions left out, with the note that says what they are. Where text
finds nothing but the definitions, the search is fused as before (and ``absent`` says when no file
holds the name at all).

A question whose one word besides the relation's is plain ("who uses Override", "who calls retry":
``absent.lone_word``) is answered so only where the index defines that word, case as written: a
segment text finds is a definition of it. The graph follows Python, JavaScript, TypeScript, Go, Java, C#,
Rust, C and C++; in Kotlin (and C#, before the graph read it) a class's or a function's name is as often a
plain word, and "who uses Override" was fused from the segments that shared the word (the class's own block
first).

The places are read in the order a caller reads them (``uses``): those that write the name in code,
then those whose lines the snippet does not show, then those that write it only in strings, then only
in comments; within each, those inside a definition first, and those that call it (``name(``) before
the rest. A class's own lines hold the doc comments between its methods (a Rust ``impl`` block's, a C#
class's): "who calls matches" in glob answered ``impl Pattern`` (three doc lines) before any caller.
Over suites whose ground truth is a compiler's (rustc, javac, tsc, go/types, jedi), asked with the graph
left out, references s@1 rose by 0.05 to 0.08 in each language (``docs/quality.md``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from fourfold.api import Answer, FusedHit, SearchParams
from fourfold.coordinator.absent import Subject, last_part, lone_word, subject
from fourfold.coordinator.identifier import word_lookup
from fourfold.coordinator.notes import tidy_notes
from fourfold.plugins.doc_comments import comment_marker, hash_comments
from fourfold.plugins.vocabulary import asks_for_callees, asks_for_implementations

if TYPE_CHECKING:
    from fourfold.coordinator.engine import Engine, Plan

__all__ = ["CODE", "COMMENT", "INTENTS", "STRATEGY", "STRING", "UNSHOWN", "answer", "asked", "note", "uses", "written"]

#: The intents whose direct path (the graph) falls back to the name's mentions.
INTENTS = frozenset({"find_references", "impact_analysis"})
#: The answer's ``fusion_strategy``.
STRATEGY = "mentions"


def asked(p: SearchParams, plan: Plan) -> Subject | None:
    """The name whose mentions may answer ``p`` (its direct path found nothing), None when they may not:
    another intent, a caller's own modalities or weights, or neither a name with the shape of code nor one
    plain word (which ``answer`` takes only where the index defines it)."""
    if plan.intent not in INTENTS or p.modalities or p.weights or asks_for_callees(p.query):
        return None  # where a name is written are its callers, never what it calls
    # a plain word asked for its implementations is left to fusion: where it is written implements nothing
    return subject(p.query) or (None if asks_for_implementations(p.query) else lone_word(p.query))


#: How a hit writes the name (``written``), best first: in code; in lines its snippet does not show; only
#: inside string literals; only in comments.
CODE, UNSHOWN, STRING, COMMENT = 0, 1, 2, 3
#: After the name, what makes it a call: ``f(``, a macro's ``f!(``, a turbofish ``f::<T>(``.
_CALLED = re.compile(r"\s*(?:!|::<[^()]*>)?\s*\(")
#: Languages whose string literals may also be quoted with ``'`` (elsewhere a character or a lifetime).
_SINGLE_QUOTED = frozenset({"python", "javascript", "typescript", "tsx", "ruby", "php", "shell", "bash", "lua"})


def _occurrence(line: str, start: int, language: str) -> int:
    """Where the name written at ``start`` of ``line`` (not a comment line) stands: CODE, STRING or COMMENT."""
    before = line[:start]
    quotes = "\"'`" if language in _SINGLE_QUOTED else '"'
    marker = "#" if hash_comments(language) else "//"  # a comment at the line's end
    open_quote = ""
    i = 0
    while i < len(before):
        ch = before[i]
        if open_quote:
            if ch == "\\":
                i += 1
            elif ch == open_quote:
                open_quote = ""
        elif ch in quotes:
            open_quote = ch
        elif before.startswith(marker, i):
            return COMMENT
        i += 1
    return STRING if open_quote else CODE


def written(f: FusedHit, word: str) -> tuple[int, bool]:
    """How ``f`` writes ``word``, from the matching lines its snippet shows (the first few): CODE where a
    line writes it outside comments and strings, else UNSHOWN where the hit has lines the snippet leaves
    out (or cuts short), else STRING, else COMMENT; and whether a line of code calls it (``word(``)."""
    shown = f.hit.snippet.split("\n") if f.hit.snippet else []
    comment = comment_marker(f.hit.language)
    name = re.compile(rf"(?<![\w$]){re.escape(word)}(?![\w$])")
    kinds: set[int] = set()
    called = False
    for line in shown:
        if comment.match(line):
            kinds.add(COMMENT)
            continue
        found = list(name.finditer(line))
        if not found:
            kinds.add(UNSHOWN)  # the snippet cut the line before the name
        for m in found:
            kind = _occurrence(line, m.start(), f.hit.language)
            kinds.add(kind)
            called = called or (kind == CODE and bool(_CALLED.match(line, m.end())))
    if len(f.hit.match_lines) > len(shown) or not shown:
        kinds.add(UNSHOWN)
    return min(kinds), called


def uses(hits: Sequence[FusedHit], s: Subject) -> list[FusedHit]:
    """``hits`` without the name's own definitions, in the order a caller reads them (stable): those that
    write it in code before those whose lines may (beyond the snippet), then those that write it only in
    strings, then only in comments (a doc comment between two methods of an ``impl`` block, where Rust's
    ``///`` lines belong to the block); within each, those inside another definition first, then those that
    call it."""

    def own(f: FusedHit) -> bool:
        return bool(f.hit.symbol) and last_part(f.hit.symbol or "") == s.word

    def order(f: FusedHit) -> tuple[int, bool, bool]:
        where, called = written(f, s.word)
        return where, not f.hit.symbol, not called

    kept = [f for f in hits if not own(f)]
    return sorted(kept, key=order)


def note(s: Subject, n: int) -> str:
    return (
        f"the graph found no uses of {s.name!r} (it follows the calls and imports it can resolve): these are the "
        f"{n} place(s) that write {s.word!r} as a whole word (text, case-sensitive), definitions that "
        "use it first; some may be comments, strings or another thing of that name"
    )


async def answer(
    engine: Engine, p: SearchParams, plan: Plan, s: Subject, visible: frozenset[str] | None, left_ms: int
) -> Answer | None:
    """The answer of the name's mentions, None when text finds none but its definitions (or, for a plain
    word, no definition of it)."""
    t0 = time.perf_counter()
    depth = min(max(3 * p.k, 30), 300)
    lookup = word_lookup(p, s.word, depth)
    lookup = replace(lookup, deadline_ms=left_ms, case_sensitive=True, options={**lookup.options, "segments": "all"})
    found = await engine.search(lookup, visible)
    kept = uses(found.hits, s)
    if not kept or (not s.shaped and len(kept) == len(found.hits)):  # a plain word no segment found defines
        return None
    hits = tuple(replace(f, score=1.0 / (1 + rank)) for rank, f in enumerate(kept[: p.k]))
    notes = [note(s, len(kept))]
    if p.options.get("explain"):  # the lookup's own account (the pattern, files verified) only when asked
        notes = [plan.describe(), *notes, *found.notes]
    return replace(
        found,
        intent=plan.intent,
        confidence=plan.confidence,
        fusion_strategy=STRATEGY,
        hits=hits,
        total_candidates=len(kept),
        notes=tidy_notes(notes, p.query),
        confidences=(),
        timings={**found.timings, "mentions": (time.perf_counter() - t0) * 1000},
        weights={"text": 1.0},
        # a ranked answer, not a listing: no match counts or cursor
        total_matches=0,
        total_files=0,
        total_exact=False,
        complete=False,
        cursor="",
    )
