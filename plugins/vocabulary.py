"""The phrases a query uses to ask about a relation between pieces of code, said once.

The coordinator's intent classifier (``coordinator/intent.py``) reads them to route a query to
``find_references`` or ``impact_analysis``; the graph modality's query parser
(``plugins/graph/query.py``) reads the same phrases, followed by the symbol, to know which
relation to walk. Kept here, on the plugin side of the boundary, because the coordinator may
import a plugin's module but a plugin never imports the coordinator.

Each entry is a case-insensitive regular-expression fragment with no groups; join them with
:func:`alternation`. And :func:`looks_like_code`: whether a token of a query is a name of code
rather than a word of prose (the structural and graph parsers both read the name a question asks
about with it), and :func:`plain_receivers`, which both apply first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

__all__ = [
    "CALLER_PHRASES",
    "IMPACT_PHRASES",
    "IMPLEMENTATION_PHRASES",
    "IMPLEMENTS_QUESTION",
    "QUALIFIER_SEPARATORS",
    "REFERENCE_PHRASES",
    "alternation",
    "asks_for_implementations",
    "implementation_questions",
    "looks_like_code",
    "plain_receivers",
]

#: What joins the parts of a qualified name (``Session.send``, ``ns::f``, ``p->m``, ``Foo#bar``, ``A\B``):
#: a regular-expression fragment with no groups.
QUALIFIER_SEPARATORS = r"\.|::|->|#|\\"
_QUALIFIER = re.compile(QUALIFIER_SEPARATORS)
_CAMEL = re.compile(r"[a-z0-9][A-Z]|^[A-Z][a-z0-9]+[A-Z]")


def looks_like_code(token: str) -> bool:
    """CamelCase, snake_case or qualified (``Session.send``, ``ns::f``): a word no sentence would contain."""
    return bool(_QUALIFIER.search(token) or "_" in token.strip("_") or _CAMEL.search(token))


#: "who calls X": asking for the call sites of a symbol.
CALLER_PHRASES: tuple[str, ...] = (
    r"(?:who|what)\s+(?:calls|invokes)",
    r"(?:callers?|call\s+sites?|invocations)\s+(?:of|to|for)",
)

#: "usages of X": asking where a symbol is used, called or not.
REFERENCE_PHRASES: tuple[str, ...] = (
    r"(?:usages?|uses|references?)\s+(?:of|to|for)",
    r"(?:who|what)\s+(?:uses|imports|references)",
    r"(?:files|modules|packages)\s+(?:that\s+)?import(?:s|ing)?(?:\s+from)?",
    # "does anything still read X", "is anything else using X"
    r"(?:does|do)\s+anything\s+(?:else\s+)?(?:still\s+)?(?:read|use|call|import|reference)",
    r"is\s+anything\s+(?:else\s+)?(?:still\s+)?(?:reading|using|calling|importing|referencing)",
)

#: "who implements X": asking for the types that implement, satisfy, extend or subclass a symbol (an
#: interface, a base class). Not "implementations of X": that is as often code that does what X does.
IMPLEMENTATION_PHRASES: tuple[str, ...] = (
    r"(?:who|what|which\s+(?:types?|classes|structs?|objects?|records?|enums?))\s+[`'\"]?"
    r"(?:implements?|satisf(?:y|ies)|extends?|subclass(?:es)?|(?:inherits?|derives?)\s+from)",
    r"(?:who|what)(?:'s|s|\s+is|\s+are)\s+(?:implementing|extending|subclassing)",
    # types "with" the quoted clause they declare it by: `implements X`, `extends X`, C#'s `: X`, `impl X for`
    r"(?:with|has|have|having|containing|declaring)\s+[`'\"]\s*"
    r"(?:implements|extends|:|impl(?=\s+[\w$:]+(?:<[^`'\"]*>)?\s+for\b))",
    r"(?:implementors|implementers|subclasses|subtypes|derived\s+classes|implementing\s+types)\s+(?:of|for)",
    r"(?:types|classes|structs)\s+(?:that\s+)?(?:implement(?:s|ing)?|extend(?:s|ing)?|satisf(?:y|ies|ying)"
    r"|(?:inherit(?:s|ing)?|deriv(?:e|es|ing))\s+from)",
)

#: A question about the types implementing a name: a phrase above, then a name shaped like code or
#: capitalised (``who implements Formatter``; not ``what extends the lifetime of a lease``). Compile
#: without IGNORECASE: the phrase is case-insensitive inside, the name's shape is not.
IMPLEMENTS_QUESTION = (
    r"(?i:\b(?:" + "|".join(IMPLEMENTATION_PHRASES) + r"))\s+(?i:the\s+)?[`'\"]?"
    r"(?:[A-Z][\w$]*|[\w$]+(?:(?:\.|::)[\w$]+)+|[a-z][a-z0-9$]*(?:_[a-z0-9$]+)+|[a-z]+[A-Z][\w$]*)\b"
)
_IMPLEMENTS_QUESTION = re.compile(IMPLEMENTS_QUESTION)


def asks_for_implementations(text: str) -> bool:
    """Whether ``text`` asks which types implement or extend a named one (each type is its own answer)."""
    return _IMPLEMENTS_QUESTION.search(text) is not None


def implementation_questions(text: str) -> Iterator[re.Match[str]]:
    """Where ``text`` asks which types implement or extend a named one (``IMPLEMENTS_QUESTION``)."""
    return _IMPLEMENTS_QUESTION.finditer(text)


#: "impact of X": asking what a change to a symbol would reach (an "of" and "changing" may follow).
IMPACT_PHRASES: tuple[str, ...] = (
    r"(?:impact|blast\s+radius|ripple\s+effect)(?=\s+of\b)",
    r"(?:what|who)\s+depends\s+on",
    r"dependents\s+of",
)


#: ``(*T).`` or ``(T).`` not after a name or a call (``f(x).y`` is a call's member, not a receiver).
_GO_RECEIVER = re.compile(r"(?<![\w$)\]])\(\s*\*?\s*([A-Za-z_]\w*)(?:\[[^\]()]*\])?\s*\)\s*\.(?=[A-Za-z_])")
#: The import path before a package in a Go stack frame: ``github.com/spf13/`` of ``github.com/spf13/cobra.(*C).M``.
_GO_IMPORT_PATH = re.compile(r"(?<![\w/.\-])(?:[\w\-]+(?:\.[\w\-]+)*/)+(?=[A-Za-z_]\w*\.\()")


def plain_receivers(text: str) -> str:
    """Go's method expressions as qualified names: ``(*Engine).handleHTTPRequest`` and ``(Engine).Run``
    become ``Engine.handleHTTPRequest`` and ``Engine.Run`` (``cobra.(*Command).ExecuteC`` in a stack trace,
    ``cobra.Command.ExecuteC``), so that the parsers read the receiver's type as the name's qualifier."""
    return _GO_RECEIVER.sub(r"\1.", _GO_IMPORT_PATH.sub("", text)) if "(" in text else text


def alternation(phrases: Iterable[str]) -> str:
    """One non-capturing group matching any of ``phrases``."""
    return "(?:" + "|".join(phrases) + ")"
