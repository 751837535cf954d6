"""The phrases a query uses to ask about a relation between pieces of code, said once.

The coordinator's intent classifier (``coordinator/intent.py``) reads them to route a query to
``find_references`` or ``impact_analysis``; the graph modality's query parser
(``plugins/graph/query.py``) reads the same phrases, followed by the symbol, to know which
relation to walk. Kept here, on the plugin side of the boundary, because the coordinator may
import a plugin's module but a plugin never imports the coordinator.

Each entry is a case-insensitive regular-expression fragment with no groups; join them with
:func:`alternation`.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CALLER_PHRASES", "IMPACT_PHRASES", "REFERENCE_PHRASES", "alternation"]

#: "who calls X": asking for the call sites of a symbol.
CALLER_PHRASES: tuple[str, ...] = (
    r"(?:who|what)\s+(?:calls|invokes)",
    r"(?:callers?|call\s+sites?|invocations)\s+(?:of|to|for)",
)

#: "usages of X": asking where a symbol is used, called or not.
REFERENCE_PHRASES: tuple[str, ...] = (
    r"(?:usages?|uses|references?)\s+(?:of|to|for)",
    r"(?:who|what)\s+(?:uses|imports|references)",
)

#: "impact of X": asking what a change to a symbol would reach (an "of" and "changing" may follow).
IMPACT_PHRASES: tuple[str, ...] = (
    r"(?:impact|blast\s+radius|ripple\s+effect)(?=\s+of\b)",
    r"(?:what|who)\s+depends\s+on",
    r"dependents\s+of",
)


def alternation(phrases: Iterable[str]) -> str:
    """One non-capturing group matching any of ``phrases``."""
    return "(?:" + "|".join(phrases) + ")"
