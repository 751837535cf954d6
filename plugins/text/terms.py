"""Terms for BM25: identifiers split at snake_case and camelCase boundaries, lower-cased.

``parseConfig`` yields ``parse``, ``config`` and the whole ``parseconfig``; ``HTTPServer``
yields ``http``, ``server`` and ``httpserver``. Index builds and queries use the same function,
so a query for either the whole identifier or one of its parts finds it.
"""

from __future__ import annotations

import functools
import re
from collections import Counter

__all__ = ["QUESTION_WORDS", "content_terms", "count_terms", "query_terms", "split_identifier"]

_WORD = re.compile(r"[^\W_]\w*|_\w*[^\W_]\w*")


def _parts(word: str) -> list[str]:
    """Split at underscores, letter/digit changes, ``aB`` and the end of an acronym (``HTTPServer``)."""
    parts: list[str] = []
    start = 0
    n = len(word)
    for i in range(1, n + 1):
        if i < n:
            a, b = word[i - 1], word[i]
            cut = (
                a == "_"
                or b == "_"
                or a.isdigit() != b.isdigit()
                or (a.islower() and b.isupper())
                or (a.isupper() and b.isupper() and i + 1 < n and word[i + 1].islower())
            )
            if not cut:
                continue
        piece = word[start:i]
        if piece.strip("_"):
            parts.append(piece)
        start = i
    return parts


@functools.lru_cache(maxsize=1 << 16)
def split_identifier(word: str) -> tuple[str, ...]:
    """The terms of one identifier: its lower-cased parts, then the whole when it has several."""
    parts = [p.lower() for p in _parts(word)]
    whole = word.lower()
    if len(parts) != 1 or parts[0] != whole:
        parts.append(whole)
    return tuple(p for p in parts if len(p) > 1 or p.isdigit())


def count_terms(text: str) -> Counter[str]:
    """Term frequencies of a piece of source text."""
    counts: Counter[str] = Counter()
    for word, n in Counter(_WORD.findall(text)).items():
        for term in split_identifier(word):
            counts[term] += n
    return counts


def query_terms(text: str) -> tuple[str, ...]:
    """The distinct terms of a query, in the order they appear."""
    out: dict[str, None] = {}
    for word in _WORD.findall(text):
        for term in split_identifier(word):
            out.setdefault(term, None)
    return tuple(out)


#: The words that frame a question, not what it asks about ("where do we retry a request": retry, request). Code and
#: its documentation rarely spell them, so BM25 weighs them high, and they draw what a question's frame is written
#: in (string constants of questions, a FAQ, SQL's ``WHERE``) over the code it asks about. Articles, prepositions
#: and "is" stay: a docstring says them too, and a question that paraphrases it shares them.
QUESTION_WORDS = frozenset(
    {"did", "do", "does", "how", "i", "me", "my", "our", "please", "tell", "us", "we", "what", "whats", "when"}
    | {"where", "which", "who", "whom", "whose", "why", "you", "your"}
)


def content_terms(terms: tuple[str, ...]) -> tuple[str, ...]:
    """``terms`` without ``QUESTION_WORDS``; all of them when nothing else is left ("how do we")."""
    kept = tuple(t for t in terms if t not in QUESTION_WORDS)
    return kept or terms
