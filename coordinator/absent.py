"""A name the question asks about that no file holds: the answer says so instead of passing off look-alikes.

"who calls Engine.explode", "where is parse_confg defined", "what breaks if I change
compute_share_weights": an agent's question often names code that does not exist (a name it
guessed, a typo, code of another branch). The graph finds no definition, structural only fuzzy
neighbours, and the fused answer is whatever shares the question's *words* ("who", "calls",
"share") — ranked and returned as if it answered. Zoekt or grep would say "no match"; so does this,
without hiding the neighbours (a misspelt name's nearest definitions are what the asker wants next).

``subject`` reads the name a definition, references or impact question asks about: the first token
with the shape of code (``vocabulary.looks_like_code``: snake_case, CamelCase, qualified), paths
left out. ``evidenced`` says whether the answer's own lists already show the name exists — a
definition structural matched by name or qualified suffix, any graph hit (the graph answers only for
a name it resolved), a hit that is the name — so the check costs nothing on a good answer. Otherwise
the engine asks the text modality for the name's last part as a whole word, and where no file
searched holds it the answer is ``no_confident_match`` with :func:`note`. A references or impact
question that names nothing at all ("who calls", "what breaks if I change it") is one too, with
``UNNAMED_NOTE`` (:func:`names_nothing`): its hits share the question's filler words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fourfold.api import FusedHit
from fourfold.coordinator import file_subject
from fourfold.coordinator.identifier import DEFINITION_SCORE
from fourfold.index.ingest.languages import detect_language
from fourfold.plugins.types import Hit
from fourfold.plugins.vocabulary import QUALIFIER_SEPARATORS, looks_like_code

__all__ = [
    "INTENTS",
    "RELATION_INTENTS",
    "UNNAMED_NOTE",
    "Subject",
    "evidenced",
    "last_part",
    "names_nothing",
    "note",
    "subject",
]

#: The intents whose questions name code that must exist to be answered.
INTENTS = frozenset({"find_definition", "find_references", "impact_analysis"})
#: A name as a question writes it: identifiers joined by qualifiers (``Session.send``, ``ns::f``).
_NAME = re.compile(rf"[A-Za-z_$][\w$]*(?:(?:{QUALIFIER_SEPARATORS})[A-Za-z_$][\w$]*)*")
_LAST_PART = re.compile(QUALIFIER_SEPARATORS)
#: The intents whose questions ask for a relation to code they must name ("who calls", "what breaks").
RELATION_INTENTS = frozenset({"find_references", "impact_analysis"})
#: Words of a relation question that name nothing: the relation itself (calls, breaks, implements), pronouns,
#: fillers.
_EMPTY_WORDS = frozenset(
    {
        "a",
        "all",
        "an",
        "and",
        "any",
        "are",
        "be",
        "blast",
        "break",
        "breaks",
        "broke",
        "call",
        "called",
        "caller",
        "callers",
        "calls",
        "can",
        "change",
        "changed",
        "changes",
        "changing",
        "classes",
        "code",
        "depend",
        "dependents",
        "depending",
        "depends",
        "derive",
        "derives",
        "did",
        "do",
        "does",
        "effect",
        "every",
        "everything",
        "extend",
        "extending",
        "extends",
        "file",
        "files",
        "find",
        "for",
        "from",
        "function",
        "give",
        "here",
        "i",
        "if",
        "impact",
        "implement",
        "implementation",
        "implementations",
        "implemented",
        "implementers",
        "implementing",
        "implementors",
        "implements",
        "import",
        "imported",
        "imports",
        "in",
        "inherit",
        "inherits",
        "invoke",
        "invokes",
        "is",
        "it",
        "its",
        "list",
        "me",
        "method",
        "modify",
        "my",
        "of",
        "on",
        "one",
        "please",
        "radius",
        "referenced",
        "references",
        "referencing",
        "ripple",
        "satisfies",
        "satisfy",
        "show",
        "site",
        "sites",
        "something",
        "structs",
        "subclass",
        "subclasses",
        "tell",
        "that",
        "the",
        "them",
        "these",
        "thing",
        "this",
        "those",
        "to",
        "types",
        "usage",
        "usages",
        "use",
        "used",
        "uses",
        "we",
        "what",
        "where",
        "which",
        "who",
        "whom",
        "would",
        "you",
    }
)
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
#: Words that say the relation asked ("who calls", "callers of", "uses of")
_RELATION_WORDS = frozenset(
    {"call", "called", "caller", "callers", "calls", "invokes", "references", "referencing", "uses", "usage", "usages"}
)
#: Relation words that are also common names of functions: the subject where the relation is said before them
_NAMEABLE = frozenset({"call", "extend", "find", "import", "invoke", "list", "show", "use"})

UNNAMED_NOTE = (
    "the question asks for a relation but names no code: say which, e.g. 'who calls parseConfig' or "
    "'what breaks if I change Session.send'; the hits below only share its words"
)


@dataclass(frozen=True, slots=True)
class Subject:
    """The name a question asks about, and its last part (what a file writes: ``explode`` of ``Engine.explode``)."""

    name: str
    word: str
    #: the name has the shape of code; else it is a question's one plain word (``lone_word``), which is
    #: a name only where the index defines it
    shaped: bool = True


def lone_word(query: str) -> Subject | None:
    """The one plain word a relation question asks about when it writes no name with the shape of code
    ("who uses Override", "who calls retry"): the only word that is not the relation's own or a filler;
    None when there is none or more than one."""
    words = _other_words(query)
    if len(words) != 1 or not words[0].strip("_$"):
        return None
    return Subject(words[0], words[0], shaped=False)


def subject(query: str) -> Subject | None:
    """The first name with the shape of code in ``query`` (a path it writes, with folders or a source
    file's extension, is no name; ``Engine.explode`` is), None when none."""
    text = query
    for path in reversed(file_subject.mentions(query)):
        if "/" in path.path or detect_language(path.path) != "text":
            text = text[: path.start] + " " * (path.end - path.start) + text[path.end :]
    for found in _NAME.finditer(text):
        name = found.group()
        if looks_like_code(name):
            word = last_part(name)
            return Subject(name, word) if word.strip("_$") else None
    return None


def evidenced(s: Subject, ranked: Mapping[str, Sequence[Hit]], hits: Sequence[FusedHit]) -> bool:
    """Whether the lists an answer was fused from show that ``s`` exists: structural defines it by
    name or qualified suffix (``identifier.DEFINITION_SCORE``), the graph resolved it (any graph hit),
    or a hit is it."""
    word = s.word.lower()
    if any(h.score >= DEFINITION_SCORE for h in ranked.get("structural", ())) or ranked.get("graph"):
        return True
    return any(f.hit.symbol and last_part(f.hit.symbol).lower() == word for f in hits)


def last_part(name: str) -> str:
    """What a file writes of a qualified name: ``explode`` of ``Engine.explode``, ``f`` of ``ns::f``."""
    return _LAST_PART.split(name)[-1]


def names_nothing(query: str) -> bool:
    """Whether ``query`` ("who calls", "what breaks if I change this?") holds no word but the relation's
    own and fillers: no name, no word a name could be."""
    return not _other_words(query)


def _other_words(query: str) -> list[str]:
    """The words of a relation question besides the relation's own and fillers (``_EMPTY_WORDS``); a last word
    that names a relation after the question has named one is its subject ("who calls invoke", "callers of
    find": a function named so)."""
    words = _WORD.findall(query)
    other = [w for w in words if w.lower() not in _EMPTY_WORDS]
    if (
        not other
        and len(words) > 1
        and words[-1].lower() in _NAMEABLE
        and any(w.lower() in _RELATION_WORDS for w in words[:-1])
    ):
        return [words[-1]]
    return other


def note(s: Subject) -> str:
    """What an answer says when no file searched holds the name."""
    word = "" if s.word == s.name else f" (nor {s.word!r} as a word)"
    return (
        f"{s.name!r} is in no file searched{word}: the hits are near names and shared words, not it; "
        "check the spelling, or the repositories and branch asked"
    )
