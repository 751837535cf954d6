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
    "CALLEE_NAMED_INSIDE",
    "CALLEE_PHRASES",
    "CALLER_PHRASES",
    "GO_TO_NAME",
    "IMPACT_PHRASES",
    "IMPLEMENTATION_PHRASES",
    "IMPLEMENTS_QUESTION",
    "MEASURED_RESOURCES",
    "NAME_THEN_NOUN",
    "QUALIFIER_SEPARATORS",
    "REFERENCE_PHRASES",
    "alternation",
    "asks_for_callees",
    "asks_for_implementations",
    "implementation_questions",
    "looks_like_code",
    "plain_receivers",
    "unless_measured",
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

#: "callees of X", "which functions are called by X", "calls made inside X": asking what a symbol calls, its name
#: after the phrase. Not "calls of X" or "calls to X": those are its call sites.
_CALLABLES = r"(?:functions?|methods?|helpers?|apis?|routines?)"
CALLEE_PHRASES: tuple[str, ...] = (
    rf"(?:callees?(?:\s+list)?|dependencies|outgoing\s+calls|calls\s+made|{_CALLABLES}\s+(?:used|invoked|called))"
    r"\s+(?:of|by|from\s+within|from|in|inside|within|for)",
    r"calls\s+(?:from\s+within|from|inside|within)",  # not "in": "when an officer calls in sick"
    rf"(?:what|what's|which|{_CALLABLES})(?:\s+(?:{_CALLABLES[3:-1]}|code))?"
    r"\s+(?:(?:that\s+)?(?:is|are|gets?|get)\s+)?(?:called|invoked|used)\s+(?:by|from\s+within|from|inside|within|in)",
    r"callees\s*:",
    # "the call tree under X", "functions reachable from X", "downstream calls of X"
    rf"(?:call\s+(?:tree|graph|chain|hierarchy)|{_CALLABLES})\s+(?:under|below|beneath|reach(?:ed|able)\s+from)",
    r"downstream\s+calls\s+(?:of|from|in)",
)
#: "what does X call", "which methods does X invoke", "what does the function X end up calling", "everything X
#: calls": the name inside the phrase, as a regular-expression template whose ``{name}`` is the name's pattern.
CALLEE_NAMED_INSIDE: tuple[str, ...] = (
    rf"(?:what|which)(?:\s+(?:other\s+)?(?:{_CALLABLES[3:-1]}|code|else|calls|callees))?\s+(?:does|do|did|will|would|can)\s+"
    r"(?:the\s+(?:function|method)\s+)?{name}\s+(?:end\s+up\s+)?"
    r"(?:call|invoke|use|depend\s+on|rely\s+on|lean\s+on|delegate\s+to|calling|invoking|using)\b",
    # "X's callees", "which callees does X have"
    r"{name}'s\s+callees",
    r"(?:what|which)\s+callees\s+(?:does|do|did)\s+{name}\s+have\b",
    # "what is X calling", "does X call any helpers"
    r"what\s+(?:is|are)\s+{name}\s+(?:calling|invoking|using)\b",
    r"(?:does|do|did)\s+{name}\s+(?:call|invoke|use)\s+(?:any|other)\b",
    # "inside X, which functions are called"
    rf"(?:inside|within|in)\s+{{name}}\s*,\s*(?:what|which)(?:\s+{_CALLABLES})?\s+(?:are|is|gets?|get)\s+(?:called|invoked)",
    # "which functions get called when X runs"
    rf"(?:what|which)(?:\s+{_CALLABLES})?\s+(?:gets?|get|are|is)\s+(?:called|invoked|run)\s+when\s+{{name}}\s+(?:runs|is\s+called)",
    # "what parse_args calls?", "everything handle_request calls", at a clause's end: not "what code calls into X"
    rf"(?:what|everything|all|whatever|(?:the\s+)?{_CALLABLES})\s+(?:that\s+)?{{name}}\s+(?:calls|invokes|uses)"
    r"(?=\s*(?:[?.!,;:]|$))",
)
_CALLEE_QUESTION = re.compile(
    r"\b(?:"
    + "|".join(
        [
            *(inside.replace("{name}", r"\S+") for inside in CALLEE_NAMED_INSIDE),
            *(phrase + r"\s+\S" for phrase in CALLEE_PHRASES),
        ]
    )
    + ")",
    re.IGNORECASE,
)


def asks_for_callees(text: str) -> bool:
    """Whether ``text`` asks what a named piece of code calls (not who calls it)."""
    return _CALLEE_QUESTION.search(text) is not None or _CALLEES_AFTER_NAME.match(text) is not None


#: "memory usage of an object", "cpu usage of a process", "the usage of disk space": a resource's usage is a measure,
#: not the places code is used (``unless_measured``).
MEASURED_RESOURCES = ("memory", "cpu", "disk", "ram", "gpu", "heap", "network", "bandwidth", "storage", "battery")
_NOT_AFTER_A_RESOURCE = "".join(rf"(?<!\b{word}\s)" for word in MEASURED_RESOURCES)
_NOT_BEFORE_A_RESOURCE = rf"(?!\s+(?:the\s+|this\s+|my\s+|our\s+)?(?:{'|'.join(MEASURED_RESOURCES)})\b)"


def unless_measured(phrase: str) -> str:
    """``phrase`` (a "usage of" pattern) where no resource's name stands right before it ("memory usage of") or
    right after it ("usage of disk space")."""
    return f"{_NOT_AFTER_A_RESOURCE}{phrase}{_NOT_BEFORE_A_RESOURCE}"


#: A name, then what is asked of it, as the whole query: "retry usages", "Session.send callers", "fuse callees",
#: "parse_config dependents", "Context definition" (an IDE's and an agent's terse form). Per relation a template
#: whose ``{name}`` is the name's pattern; a resource's name is a measure ("memory usages", as ``unless_measured``).
NAME_THEN_NOUN: dict[str, str] = {
    relation: rf"^\s*(?!(?:{'|'.join(MEASURED_RESOURCES)})\b){{name}}\s+(?:{nouns})\s*\??\s*$"
    for relation, nouns in (
        ("callers", r"callers|call\s+sites|invocations"),
        ("references", r"usages|uses|references|refs|importers"),
        ("callees", r"callees"),
        ("impact", r"dependents"),
        ("definition", r"definition|def|declaration"),
    )
}
#: "go to X", "jump to X", "goto definition of X": an editor's command, the whole query; a template whose ``{name}``
#: is the name's pattern.
GO_TO_NAME = r"^\s*(?:go\s*to|jump\s+to)\s+(?:(?:the\s+)?(?:definition|declaration)\s+(?:of\s+)?)?{name}\s*\??\s*$"
_CALLEES_AFTER_NAME = re.compile(NAME_THEN_NOUN["callees"].replace("{name}", r"\S+"), re.IGNORECASE)

#: "usages of X": asking where a symbol is used, called or not.
REFERENCE_PHRASES: tuple[str, ...] = (
    unless_measured(r"(?:usages?|uses|references?)\s+(?:of|to|for)"),
    r"(?:who|what)\s+(?:uses|imports|references)",
    r"(?:files|modules|packages)\s+(?:that\s+)?import(?:s|ing)?(?:\s+from)?",
    # "does anything still read X", "is anything else using X"
    r"(?:does|do)\s+anything\s+(?:else\s+)?(?:still\s+)?(?:read|use|call|import|reference)",
    r"is\s+anything\s+(?:else\s+)?(?:still\s+)?(?:reading|using|calling|importing|referencing)",
    # "which tests call X", "what examples use X", "which tests exercise X": its uses of one kind (``code_first``)
    r"(?:which|what)\s+(?:unit\s+)?(?:tests?|test\s+cases|specs?|examples?|benchmarks?)\s+"
    r"(?:call|use|invoke|exercise|cover|hit)",
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
