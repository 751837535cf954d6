"""Read a graph question out of a raw query: which relation, about which symbol(s), how deep.

``parse_query`` is pure: "who calls parse_args" -> ``GraphQuestion("callers", "parse_args")``.
``options["relation"]`` forces the relation and ``options["depth"]`` sets the impact depth.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from fourfold.errors import InvalidQuery
from fourfold.plugins.vocabulary import (
    CALLEE_NAMED_INSIDE,
    CALLEE_PHRASES,
    CALLER_PHRASES,
    GO_TO_NAME,
    IMPACT_PHRASES,
    IMPLEMENTATION_PHRASES,
    NAME_THEN_NOUN,
    REFERENCE_PHRASES,
    alternation,
    looks_like_code,
    plain_receivers,
)

__all__ = ["DEFAULT_DEPTH", "MAX_DEPTH", "RELATIONS", "GraphQuestion", "clean_symbol", "parse_query"]

RELATIONS = ("callers", "callees", "references", "implementations", "impact", "path", "definition")
DEFAULT_DEPTH = 3
MAX_DEPTH = 10

#: A symbol as written: ``parse_args``, ``Session.send``, ``Session::send``, a C++ destructor ``~Session``, a JavaScript
#: private member ``#updateTimers``.
_S = r"[`'\"]?(?P<s>~?#?[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)~?[A-Za-z_$][\w$]*)*)(?:\(\))?[`'\"]?"
_T = _S.replace("?P<s>", "?P<t>")


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern.replace("{S}", _S).replace("{T}", _T), re.IGNORECASE)


# first match wins; each names the relation it asks for (the phrases shared with the intent
# classifier come from plugins/vocabulary.py)
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("path", _rx(r"\b(?:dependency\s+|call\s+)?path\s+(?:from|between)\s+{S}\s+(?:to|and)\s+{T}")),
    ("path", _rx(r"\bhow\s+does\s+{S}\s+(?:reach|call|depend\s+on|use|get\s+to)\s+{T}")),
    ("callees", _rx(r"\bwhat\s+(?:calls|functions)\s+does\s+{S}\s+(?:make|call|use)")),
    *(("callees", _rx(r"\b" + inside.replace("{name}", "{S}"))) for inside in CALLEE_NAMED_INSIDE),
    ("callees", _rx(r"\b" + alternation(CALLEE_PHRASES) + r"\s+{S}")),
    (
        "impact",
        _rx(
            r"\bwhat\s+(?:breaks|changes|is\s+affected)\s+if\s+(?:i|we|you|someone)\s+"
            r"(?:change|modify|remove|delete|rename|edit)\s+{S}"
        ),
    ),
    ("impact", _rx(r"\b" + alternation(IMPACT_PHRASES) + r"\s+(?:of\s+)?(?:changing\s+|modifying\s+|removing\s+)?{S}")),
    ("implementations", _rx(r"\b" + alternation(IMPLEMENTATION_PHRASES) + r"\s+(?:the\s+)?{S}")),
    ("callers", _rx(r"\b" + alternation(CALLER_PHRASES) + r"\s+{S}")),
    ("callers", _rx(r"\bwhere\s+is\s+{S}\s+called\b")),
    ("references", _rx(r"\b" + alternation(REFERENCE_PHRASES) + r"\s+{S}")),
    ("references", _rx(r"\bwhere\s+(?:is|are)\s+{S}\s+(?:used|referenced|imported)")),
    ("definition", _rx(r"\bwhere\s+(?:is|are)\s+{S}\s+(?:defined|declared|implemented)")),
    ("definition", _rx(r"^\s*(?:def|class|func|function|fn|type|interface|struct)\s+{S}")),
    # "retry usages", "fuse callees", "Context definition": the whole query a name and what is asked of it
    *((relation, _rx(template.replace("{name}", "{S}"))) for relation, template in NAME_THEN_NOUN.items()),
    ("definition", _rx(GO_TO_NAME.replace("{name}", "{S}"))),
)
_BARE = _rx(r"^\s*{S}\s*\??\s*$")
_TOKEN = re.compile(r"(?<![\w$./\\])([A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)*)(\(\))?(?![\w$/\\])")
#: A dotted token that ends like a file name is a path, not code.
_FILE_NAME = re.compile(
    r"\.(?:py|pyi|go|js|jsx|ts|tsx|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|md|rst|txt|json|ya?ml|toml)$"
)
_INTENT_RELATION = {"find_references": "references", "impact_analysis": "impact", "find_definition": "definition"}


@dataclass(frozen=True, slots=True)
class GraphQuestion:
    """What the graph is asked: ``relation`` of ``symbol`` (and ``target`` for a path)."""

    relation: str
    symbol: str
    target: str = ""
    depth: int = DEFAULT_DEPTH

    def __str__(self) -> str:
        if self.relation == "path":
            return f"path({self.symbol} -> {self.target})"
        if self.relation == "impact":
            return f"impact({self.symbol}, depth={self.depth})"
        return f"{self.relation}({self.symbol})"


def clean_symbol(text: str) -> str:
    """``Session::send``, ``Session#send``, ``Session->send`` all become ``Session.send``; a JavaScript private
    member's ``#`` (``#updateTimers``) is its name's."""
    name = text.strip().strip("`'\"")
    private = "#" if name.startswith("#") else ""
    return private + re.sub(r"::|#|->", ".", name.removeprefix(private)).removesuffix("()")


def _depth(options: Mapping[str, str]) -> int:
    raw = options.get("depth")
    if raw is None or raw == "":
        return DEFAULT_DEPTH
    try:
        depth = int(raw)
    except ValueError:
        raise InvalidQuery(f"graph option depth={raw!r} is not a whole number; give 1 to {MAX_DEPTH}") from None
    if not 1 <= depth <= MAX_DEPTH:
        raise InvalidQuery(f"graph option depth={depth} is out of range; give 1 to {MAX_DEPTH}")
    return depth


#: A type declared on a line of its own, as pasted above a question about it ("type Hook interface {",
#: "sealed interface Formatter", "defmodule Store do"): the name "which types implement this?" means.
_DECLARED = re.compile(
    r"^\s*(?:(?:public|private|protected|internal|sealed|abstract|open|data|export|pub|final|partial)\s+)*"
    r"(?:class|interface|trait|protocol|struct|type|enum|defmodule|defprotocol|object|record)\s+([A-Za-z_$][\w$.]*)",
    re.MULTILINE,
)
_PRONOUNS = frozenset({"it", "this", "that", "them", "these"})


def _plain_word(text: str, match: re.Match[str]) -> bool:
    """Whether the phrase's symbol is an unmarked word of prose (``callers`` in "callers of callers")."""
    start = match.start("s")
    marked = start > 0 and text[start - 1] in "`'\""
    return not marked and not looks_like_code(match.group("s")) and text[match.end("s") : match.end("s") + 2] != "()"


def _code_token(text: str) -> str | None:
    """The first token of ``text`` shaped like code (dotted, snake_case, camelCase, or called)."""
    for m in _TOKEN.finditer(text):
        if _FILE_NAME.search(m.group(1)):
            continue
        if looks_like_code(m.group(1)) or m.group(2):
            return clean_symbol(m.group(1))
    return None


def parse_query(text: str, intent: str, options: Mapping[str, str]) -> GraphQuestion | None:
    """The graph question in ``text``, or None when it asks none the graph can answer."""
    forced = options.get("relation", "").strip().lower() or None
    if forced is not None and forced not in RELATIONS:
        raise InvalidQuery(f"graph option relation={forced!r} is unknown; use one of {', '.join(RELATIONS)}")
    depth = _depth(options)
    text = plain_receivers(text)
    for relation, pattern in _PATTERNS:
        match = pattern.search(text)
        if match is None:
            continue
        symbol = clean_symbol(match.group("s"))
        target = clean_symbol(match.group("t")) if "t" in pattern.groupindex else ""
        if symbol.lower() in _PRONOUNS and (declared := _DECLARED.search(text)) is not None:
            symbol = clean_symbol(declared.group(1))  # "which types implement this?" under a pasted declaration
        elif not target and _plain_word(text, match):
            # "do callers of callers need changing if parse_config goes async": the phrase caught a word,
            # and the question names its code elsewhere
            symbol = _code_token(text) or symbol
        chosen = forced or relation
        if chosen == "path" and not target:
            raise InvalidQuery(f"graph relation=path needs two symbols, got {text!r}; ask 'path from A to B'")
        return GraphQuestion(chosen, symbol, target, depth)
    bare = _BARE.match(text)
    asked = forced or _INTENT_RELATION.get(intent)
    if bare is not None and asked is not None:
        if asked == "path":
            raise InvalidQuery(f"graph relation=path needs two symbols, got {text!r}; ask 'path from A to B'")
        return GraphQuestion(asked, clean_symbol(bare.group("s")), "", depth)
    if asked in ("references", "impact") and (token := _code_token(text)) is not None:
        # routed there, its code named in prose ("PR: segment_file only logs it now; which callers
        # would start failing?", "X gains a ctx param; which call chains must thread it through")
        return GraphQuestion(asked, token, "", depth)
    return None
