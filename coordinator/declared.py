"""Where a name is declared, for a definition question whose name no extractor keeps as a definition.

Structural keeps a file's definitions: functions, classes, methods, fields, module-level variables. A name
declared inside a function (``const charMap = {…}`` in axios's ``encode``, ``var attrs`` in mocha's xunit
reporter), a property a constructor assigns (``this.interceptors = {…}``) or a Go local (``buf :=``) is none:
"where is charMap defined" was answered by the code that uses it, and "def interceptors" by a class whose name
begins so. Universal Ctags lists such names, and so do the suites it builds.

When a ``find_definition`` answer holds no structural definition of its name, text is asked where the name is
declared: ``const``/``let``/``var``/``val NAME``, ``this.NAME =`` or ``self.NAME =``, ``NAME :=`` — a regular
expression, case respected, in the caller's scope. Where that finds at most :data:`MOST` lines, their segments
(the function that declares a local, the constructor that assigns a property) lead the answer, and a note says
so, each file's first declaration alone (``this.x =`` in the constructor, not a later assignment). More than
that is a common local name (``options``, ``err``) declared everywhere: no declaration is more
the answer than another, and the answer stays as it was. ``options["declared"] = "off"`` leaves it out.
"""

from __future__ import annotations

from collections.abc import Sequence

from fourfold.coordinator.absent import last_part
from fourfold.coordinator.identifier import DEFINITION_SCORE, text_pattern
from fourfold.errors import InvalidQuery
from fourfold.plugins.structural import parse_symbol_query
from fourfold.plugins.types import Hit

__all__ = ["INTENTS", "MOST", "OPTION", "defined", "first_in_file", "name", "note", "pattern"]

#: ``options["declared"] = "off"``: no declaration lookup.
OPTION = "declared"
#: The intents whose answers name a definition.
INTENTS = frozenset({"find_definition"})
#: The most declarations that lead an answer; more is a common local name.
MOST = 3


def name(query: str) -> str | None:
    """The name a definition question asks about, as structural reads it (its last part: ``interceptors`` of
    ``def interceptors`` and of ``Axios.interceptors``); None for members of a type, or no name."""
    try:
        asked = parse_symbol_query(query)
    except InvalidQuery:
        return None
    if asked is None or asked.members or not asked.name.strip("_$"):
        return None
    return asked.name


def first_in_file(found: Sequence[Hit]) -> list[Hit]:
    """Each file's first declaration (``this.x =`` in the constructor, not its later assignments), in order."""
    first: dict[tuple[str, str], Hit] = {}
    for h in found:
        key = (h.repo, h.path)
        line = min(h.match_lines, default=h.start_line)
        kept = first.get(key)
        if kept is None or line < min(kept.match_lines, default=kept.start_line):
            first[key] = h
    return [h for h in found if first.get((h.repo, h.path)) is h]


def defined(word: str, structural: Sequence[Hit]) -> bool:
    """Whether structural's list defines ``word`` (an exact or qualified definition of that name)."""
    return any(h.score >= DEFINITION_SCORE and last_part(h.symbol or "") == word for h in structural)


def pattern(word: str) -> str:
    """The regular expression of the lines that declare ``word``."""
    w = text_pattern(word)
    return rf"(?:\b(?:const|let|var|val)\s+{w}|\b(?:this|self)\.{w}\s*=[^=]|{w}\s*:=)"


def note(word: str, n: int) -> str:
    return (
        f"no definition of {word!r} is indexed; where it is declared (const/let/var, this.{word} =, {word} :=) "
        f"leads the answer ({n} line{'s' if n != 1 else ''}; {OPTION}=off leaves it out)"
    )
