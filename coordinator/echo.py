"""A prose question is not answered by a file that quotes it.

"how does weighted rank fusion work", asked of a repository that keeps search queries as data (an
evaluation suite, a load test's query list, a demo's script, a prompt library): the segments holding
that very sentence in a string share every word of it, so BM25 ranks them first and, its best score
being high, the lexical share leans the fused answer to text. They are the question, not its answer.

``quoting`` finds them: segments with a string literal that is the whole question (opened and closed
by a quote, its words in order, any whitespace between, case aside). A docstring, comment or page that
asks the question and goes on to answer it is no string of its own and stays. Only a question of
``MIN_WORDS`` words or more is compared (a short phrase is a name or a term, rightly found where it is
written), and only for the prose intent
(``INTENTS``): an exact string is wanted wherever it is, and a definition or reference question is
answered by its name, not its words. The engine leaves such segments out of every modality's list
before the lists are weighed and fused, and notes how many.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["INTENTS", "MIN_WORDS", "OPTION", "asks_enough", "pattern", "quoting"]

#: The intents whose questions are prose, answered by what the code does rather than what it says.
INTENTS = frozenset({"understand_code"})
#: A question shorter than this is a phrase that may rightly be found where it is written.
MIN_WORDS = 4
#: ``options[OPTION] = "off"`` keeps the quoting segments (for comparisons).
OPTION = "echo"
#: A quote that opens or closes a string literal (a raw or formatted prefix before it is part of no word).
_QUOTE = "[\"'`]"


def _words(question: str) -> list[str]:
    return re.findall(r"[^\s\"'`]+", question.lower().rstrip("?.! \t\n"))


def asks_enough(question: str) -> bool:
    """Whether ``question`` is long enough that a string holding it whole quotes it."""
    return len(_words(question)) >= MIN_WORDS


def pattern(question: str) -> re.Pattern[str] | None:
    """The question as a string literal writes it: opened by a quote, its words in order with any
    whitespace between them, perhaps its question mark, closed by a quote; None when too short."""
    words = _words(question)
    if len(words) < MIN_WORDS:
        return None
    body = r"\s+".join(re.escape(w) for w in words)
    return re.compile(rf"{_QUOTE}\s*{body}\s*[?.!]?\s*{_QUOTE}", re.IGNORECASE)


def quoting(question: str, contents: Mapping[str, str]) -> set[str]:
    """The segment ids among ``contents`` (id -> text) that quote ``question`` whole in a string
    literal; none when the question is shorter than ``MIN_WORDS`` words."""
    found = pattern(question)
    if found is None:
        return set()
    return {sid for sid, text in contents.items() if found.search(text)}
