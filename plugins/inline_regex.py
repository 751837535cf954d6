"""A regular expression written inside a query, as code search users write one.

Delimited by slashes, as Sourcegraph and GitHub code search read it (``/retry_\\w+\\(/``), or after a
word that names one: ``regex save_\\w+\\(``, ``regexp: retry_.*_budget``, ``lines matching
^import\\s+os``, ``grep -E 'def _?secondary'``. Only a pattern that holds regular-expression syntax
(an escape, ``.*``, ``|``, a class, an anchor, a group or a repetition) is read as one: ``/api/v1/``
and "grep for the retry budget" are words.

    find("regex open_valve\\(\\s*\\) with nothing passed")   # "open_valve\\(\\s*\\)", the rest "with nothing passed"

The text modality runs the pattern over every line (``TextShard``'s automatic mode); the intent
classifier reads the same shape as an exact-match question (``coordinator/intent.py``, rule
``regex-pattern``). Kept here, on the plugin side of the boundary, for both to read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["REGEX_WORDS", "REQUEST", "InlineRegex", "find"]

#: Words that name a regular expression (or a tool running one) before it. Not "pattern": "code following
#: the pattern vec.iter().map(|x| x * 2)" asks for similar code.
REGEX_WORDS = r"regexp?|regular\s+expressions?|grep|egrep|rg|ripgrep|matching"

_NAMED = re.compile(
    r"(?:^|(?<=\s))(?:" + REGEX_WORDS + r")\b(?:[ \t]+-[A-Za-z]+)*(?:[ \t]+for\b)?[ \t]*[:=]?[ \t]*"
    r"(?:(?P<quote>['\"`])(?P<quoted>(?:\\.|(?!(?P=quote)).)+)(?P=quote)|(?P<bare>[^\s'\"`]\S*))",
    re.IGNORECASE,
)
_SLASHED = re.compile(r"(?:^|(?<=\s))/(?P<slashed>(?:\\.|[^/\s\\])(?:\\.|[^/\\])*?(?<!\s))/(?=[\s,.;:?!)]|$)")
#: Either shape, syntax or not (case-insensitive): where :func:`find` may find a pattern.
REQUEST = _NAMED.pattern + "|" + _SLASHED.pattern
#: Regular-expression syntax a pattern must hold to be read as one.
_SYNTAX = re.compile(
    r"\\[A-Za-z.()\[\]{}|+*?^$/\\]|\.[*+?]|\||^\^|\$$|\[[^\]]+\]|\(\?|\{\d+(?:,\d*)?\}|\)[*+?]|[\w\]][*+?](?=[\w(\[\\])"
)


@dataclass(frozen=True, slots=True)
class InlineRegex:
    """A pattern found in a query, and where: ``start``/``end`` span it with its word or delimiters."""

    pattern: str
    start: int
    end: int

    def rest(self, query: str) -> str:
        """``query`` without the pattern and its word or delimiters: the words to rank its matches by."""
        return f"{query[: self.start]} {query[self.end :]}"


def find(query: str) -> InlineRegex | None:
    """The first regular expression ``query`` writes inline (slashed, or after a word naming one), or None."""
    found: list[InlineRegex] = []
    for m in _SLASHED.finditer(query):
        found.append(InlineRegex(m.group("slashed"), m.start(), m.end()))
    for m in _NAMED.finditer(query):
        pattern = m.group("quoted") if m.group("quote") else m.group("bare")
        found.append(InlineRegex(pattern, m.start(), m.end()))
    usable = [f for f in found if _SYNTAX.search(f.pattern)]
    return min(usable, key=lambda f: f.start) if usable else None
