"""The intent classifier: ordered regex rules, first match wins, each with a confidence.

The original rules and confidences (``docs/design.md``, "Intent", says where they come from):

    starts with def/class/func/import…          find_definition  0.95
    "who calls", "usages of", "references to"   find_references  0.90
      (+ "callers of", "who uses", "where is X used")
    "impact", "blast radius", "what depends on" impact_analysis  0.90
      (+ "what breaks", "dependents of")
    a quoted "string"                           exact_match      0.90
    an error token (traceback, exception…)      exact_match      0.85
    "similar to …"                              find_similar     0.80
    a query that is itself code                 find_similar     0.75
    a lone CamelCase/snake_case/dotted name     find_definition  0.80
    such a name inside other words              find_definition  0.60
    "how", "why", "explain", "architecture"     understand_code  0.75
    anything else                               understand_code  0.40

Rules added from measured routing on the development suites (``docs/quality.md``), each placed so
that no original form changes intent or confidence:

    "where is X defined" / "definition of X"     find_definition  as the identifier rule says
      (an identifier X keeps the original 0.80/0.60; "NetworkError" is no longer read as an
      error search; a plain word gets 0.60, so the answer is fused)
    "what calls X", "where is X called", "call sites of X"      find_references  0.90
    "what would break", "affected by changing X", "if I rename X"  impact_analysis  0.85
    a pasted stack trace (frames "at f (file:12:3)", "goroutine 1 [")  exact_match  0.85
    "error: …" / "fatal: …" at the start        exact_match      0.85
    "verbatim: …", "exact string: …", or an Android log line "E/Tag: …"  exact_match  0.85
    "eli5 X", "tldr X", "walk me through X", "explain …: <code>" (opening the query)  understand_code  0.85
    an unquoted message ("Could not open file") exact_match      0.65 (fused: a guess)
    a definition keyword followed by an English word ("function to parse a date", "from where is X
      called", "type of X") is prose: the keyword rule does not apply
    the quoted-string rule does not read inside a fenced block (``` … ```): its string literals and
      backticks are code, not a string to find

The phrases for callers, references and impact that the graph modality also parses live once, in
``plugins/vocabulary.py``: the seed's rules keep their own forms, and the measured
``callers-phrase`` and the ``impact-phrase`` add the vocabulary's ("who invokes", "ripple effect
of", "who depends on", "uses of"...).

A pasted bug report is read first, before every keyword rule (its quotes, error names and frames
would otherwise send it down the exact-match path as the AND of every quoted fragment):

    a bug report (see ``looks_like_report``)    localize         0.90

Before it, an agent's tool call pasted as the query (``find_callers(symbol="retry")``, a JSON
``{"tool": "goto_definition", ...}``, an LSP ``"method": "textDocument/references"``) whose tool name
says an intent (``tool_call.read_tool_call``):

    a tool call ("tool-call")                   its tool's      0.85

Plugins add rules (``fourfold_register_intents``); theirs are tried after the keyword rules and
before the identifier and fallback rules, so they never override the original forms.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from fourfold.coordinator.tool_call import read_tool_call
from fourfold.plugins import inline_regex
from fourfold.plugins.types import IntentRule
from fourfold.plugins.vocabulary import (
    CALLEE_NAMED_INSIDE,
    CALLEE_PHRASES,
    CALLER_PHRASES,
    GO_TO_NAME,
    IMPACT_PHRASES,
    IMPLEMENTS_QUESTION,
    NAME_THEN_NOUN,
    REFERENCE_PHRASES,
    implementation_questions,
    unless_measured,
)

__all__ = [
    "BUILTIN_RULES",
    "ENTITY_INTENTS",
    "REPORT_MIN_LINES",
    "REPORT_MIN_PROSE_WORDS",
    "TOOL_CALL_CONFIDENCE",
    "Classification",
    "IntentRule",
    "classify",
    "classify_rules",
    "is_pasted_output",
    "is_short_paste",
    "looks_like_report",
    "names_code",
    "rule_match",
    "unfenced",
    "vectors_unavailable",
]

#: An agent's tool call whose name says its intent: sure enough for the direct path (``tool_call``).
TOOL_CALL_CONFIDENCE = 0.85

#: A bug report has at least this many non-blank lines (a question or a name is one line; a
#: pasted error message two; a title and one paragraph of prose is read by its words alone) ...
REPORT_MIN_LINES = 3
#: ... at least this many words of prose outside its code and frames (a pasted stack trace or
#: snippet alone has none, and stays exact_match / find_similar) ...
REPORT_MIN_PROSE_WORDS = 8
#: (with a frame, a code block or an error line, a title's worth of prose is enough)
REPORT_MIN_TITLE_WORDS = 5
#: ... and evidence: a frame, a code block or backticked code, an error line, or this many
#: code-looking identifiers (or called names); or, without any of those, this many prose words.
REPORT_MIN_IDENTIFIERS = 2
REPORT_PROSE_ALONE_WORDS = 40
#: A "report" with no fenced block and at most this many prose words is a short paste (a snippet
#: and a line asking about it), which a sure model may read as another intent (``intent_model``).
SHORT_PASTE_WORDS = 20


@dataclass(frozen=True, slots=True)
class Classification:
    intent: str
    confidence: float
    rule: str  # the name of the rule that matched, for explanations and routing reports


def _rule(name: str, intent: str, confidence: float, pattern: str, flags: int = re.IGNORECASE) -> IntentRule:
    return IntentRule(name, intent, confidence, re.compile(pattern, flags))


_DEFINITION_KEYWORDS = r"def|class|func|function|fn|import|from|interface|struct|type|trait|enum|impl|module|package"
#: SQL's definitions: ``CREATE [OR REPLACE] FUNCTION name(...)``, a procedure, table, view, trigger or type
#: (the learned layer's definition-syntax flag reads the same).
SQL_CREATE = r"create\s+(?:or\s+replace\s+)?(?:function|procedure|table|view|trigger|type)"
#: Words that follow a definition keyword in a sentence, never in code ("function to parse a date",
#: "from where is X called", "type of X"): the keyword is then English and the rule does not apply.
_PROSE_AFTER_KEYWORD = (
    r"to|where|that|which|for|of|is|are|was|does|do|did|the|and|or|in|with|what|how|should|can|would|will"
    r"|between|on|at|used|called|calls|that's|like"
)

#: Words asking to understand something: "I want to understand under which conditions X throws it", "help me
#: understand how A and B relate", "what does X buy us here". An error's name before them is the topic, not a
#: message to find.
UNDERSTAND_ASK = (
    r"\b(?:(?:I|we)\s+(?:want|need|would\s+like|'d\s+like)\s+to\s+understand|help\s+me\s+understand"
    r"|under\s+(?:which|what)\s+(?:conditions|circumstances)"
    # "what does decltype(auto) buy us here?": what the code gains by it
    r"|what\s+(?:does|do|would)\s+[^?\n]{1,40}?\s+buy\s+(?:us|me|you|them)\b)"
)

#: A name shaped like code or an error's (``HiveSwarmError``, ``hive.swarm``, ``swarm_alert``, ``hiveSwarm``), not
#: a word of prose ("logging").
_CODE_NAME = (
    r"(?-i:[\w$.:]*(?:Error|Exception)|[A-Za-z_$][\w$]*(?:(?:\.|::|_)[\w$]+)+|[a-z_$][\w$]*[A-Z][\w$]*"
    r"|[A-Z][a-z0-9]+[A-Z][\w$]*)"
)
#: One name a callee question asks about (``parse_args``, ``Context.invoke``, ```render```, a C++ destructor ``~DFA``,
#: a JavaScript private method ``#updateTimers``),
#: not a pronoun or an article ("what does it call" under a paste, "functions called by the scheduler": the learned
#: layer's).
_CALLEE_NAME = (
    r"[`'\"]?(?!(?:it|this|that|them|these|those|the|a|an|our|my|your|its|i|we|you|they)\b)~?#?[A-Za-z_$][\w$]*"
    r"(?:(?:\.|::|#|->)~?[A-Za-z_$][\w$]*)*[`'\"]?(?:\(\))?"
)
#: "what does parse_args call", "callees of Context.invoke", "which functions are called by resolve_command": what a
#: name calls, which the graph answers (its ``callees`` relation, ``plugins/graph/query.py``).
CALLEE_QUESTION = (
    r"\b(?:"
    + "|".join(
        [
            *(inside.replace("{name}", _CALLEE_NAME) for inside in CALLEE_NAMED_INSIDE),
            *(phrase + r"\s+" + _CALLEE_NAME for phrase in CALLEE_PHRASES),
        ]
    )
    + r")(?![\w$])"
)
#: Where an error is handled: "where is HiveSwarmError caught", "where do we catch it", "who catches it", "who
#: handles the PaymentDeclinedException". Its handlers are its references, not the error's text to find.
HANDLERS_QUESTION = (
    rf"\b(?:where\s+(?:is|are)\s+(?:the\s+)?{_CODE_NAME}s?\s+(?:caught|handled|rescued)"
    rf"|where\s+(?:do|does|did)\s+(?:we|you|they|anything|anyone|the\s+code)\s+(?:catch|handle|rescue)\s+(?:the\s+|an?\s+)?"
    rf"{_CODE_NAME}"
    r"|(?:who|what)\s+(?:catches|rescues)|(?:who|what)\s+handles\s+(?:the\s+|an?\s+)?[\w$.:]*(?:Error|Exception)s?)\b"
)
#: "which file the function is really written in", "what file read_level is defined in", "which .cpp is supposed
#: to define fit_staple", and "Where is X defined?" as a sentence after another: where it is declared (not
#: "which file the message is written in": a text to find).
DEFINED_IN_FILE = (
    r"\b(?:which|what)\s+file\s+(?!(?:the\s+|this\s+|that\s+)?(?:string|text|message|literal|error|log|word|phrase)s?\b)"
    r"(?:[\w$.:]+\s+){0,2}(?:is|was|'s)\s+(?:really\s+|actually\s+)?(?:written|defined|declared|implemented)\s+in\b"
    r"|\b(?:which|what)\s+(?:file|module|package|source\s+file|\.\w{1,5})\s+(?:is\s+supposed\s+to\s+|should\s+|ought\s+to\s+)?"
    rf"defines?\s+[`'\"]?{_CODE_NAME}"
    rf"|(?<=[.!?]\s)where\s+(?:is|are)\s+[`'\"]?{_CODE_NAME}[`'\"]?\s+(?:defined|declared)\b"
)
#: "where is the error code HWK-4410 defined as a string?", "every place it is hardcoded as a string literal",
#: "which files mention RINK-5520 word for word?", "where does the code contain the token E_ANNEAL_RAMP?".
LITERAL_ASK = (
    r"\b(?:defined|declared|written|spelled|spelt|hard-?coded|kept|stored)\s+as\s+(?:a\s+)?(?:plain\s+|raw\s+)?"
    r"(?:string(?:\s+literal)?|literal)\b|\bword[\s-]+for[\s-]+word\b|\bcontains?\s+the\s+(?:token|string|literal)\b"
)

#: Tried first, in order.
KEYWORD_RULES: tuple[IntentRule, ...] = (
    _rule(
        "definition-keyword",
        "find_definition",
        0.95,
        rf"^\s*(?:{_DEFINITION_KEYWORDS}|{SQL_CREATE})\s+(?!(?:{_PROSE_AFTER_KEYWORD})\b)[A-Za-z_$][\w$.:]*",
    ),
    _rule(
        "references-phrase",
        "find_references",
        0.90,
        r"\b(?:who\s+calls|"
        + unless_measured(r"usages?\s+of")
        + r"|references?\s+to|callers?\s+of|who\s+uses|where\s+is\s+\S+\s+used)\b",
    ),
    _rule(
        "impact-phrase",
        "impact_analysis",
        0.90,
        # the seed's phrases, then the vocabulary the graph modality also parses
        r"\b(?:impact|blast\s+radius|what\s+depends\s+on|what\s+breaks|dependents\s+of|"
        + "|".join(IMPACT_PHRASES)
        + r")\b",
    ),
    # Measured after the seed's: "what does parse_args call", "callees of `Context.invoke`": the graph's callees (no
    # training phrasing asked them); before a quoted name is read as a string to find
    _rule("callees-phrase", "find_references", 0.90, CALLEE_QUESTION),
    # "retry usages", "Session.send callers", "fuse callees", "parse_config dependents": a name, then what is asked
    # of it, as the whole query (no labelled phrasing of this shape asks anything else)
    _rule(
        "name-then-noun",
        "find_references",
        0.90,
        "|".join(NAME_THEN_NOUN[r].replace("{name}", _CALLEE_NAME) for r in ("callers", "references", "callees")),
    ),
    _rule("name-then-dependents", "impact_analysis", 0.90, NAME_THEN_NOUN["impact"].replace("{name}", _CALLEE_NAME)),
    # a single quote opens and closes outside a word: "can't tell ... where it's defined" quotes nothing
    _rule("quoted-string", "exact_match", 0.90, r"\"[^\"]+\"|(?<!\w)'[^']{2,}'(?!\w)|`[^`]+`"),
    _rule(
        "error-token",
        "exact_match",
        0.85,
        # not a member of an error class ("what depends on FourfoldError.default_profiles"): that names code
        r"\b(?:(?i:traceback|exception|stack\s*trace|segfault|panic:|errno)|E[A-Z]{3,}|[A-Z]\w*(?:Error|Exception))\b"
        r"(?!\.\w)",
        0,
    ),
    _rule("similar-phrase", "find_similar", 0.80, r"\b(?:similar\s+to|code\s+like|like\s+this)\b"),
    # Measured additions (see the module docstring); after the original ones, so they never override them.
    _rule(
        "callers-phrase",
        "find_references",
        0.90,
        # not "what calls what": a question about a flow, naming nothing to find the callers of
        r"\b(?:" + "|".join((*CALLER_PHRASES, *REFERENCE_PHRASES)) + r"|where\s+(?:is|are)\s+[\w$.:]+\s+called"
        # "enumerate its remaining usages", "the when-expressions that match on AnnealerRamp"
        r"|(?:its|their)\s+(?:remaining\s+|other\s+|current\s+)?usages"
        rf"|(?:that|which)\s+(?:match|switch)(?:es)?\s+on\s+{_CODE_NAME}"
        r")\b(?!\s+(?:what|who|whom)\b)",
    ),
    # "where is HiveSwarmError caught", "who catches it", "who handles PaymentDeclinedException": the places that
    # handle an error are its references (the error rule yields to it)
    _rule("handlers-phrase", "find_references", 0.90, HANDLERS_QUESTION),
    # "which file the function is really written in": where it is defined, whatever else the question names
    _rule("definition-phrase", "find_definition", 0.85, DEFINED_IN_FILE),
    # "where is the error code HWK-4410 defined as a string?": the text as it is written
    _rule("literal-ask", "exact_match", 0.85, LITERAL_ASK),
    # "who implements Formatter", "which classes extend BaseTransport": the types deriving from or satisfying
    # a name; only before a name ("what extends the lifetime of a lease" is prose)
    _rule(
        "implements-phrase",
        "find_references",
        0.90,
        IMPLEMENTS_QUESTION,
        0,
    ),
    _rule(
        "change-phrase",
        "impact_analysis",
        0.85,
        r"\b(?:what\s+(?:would|will|could|might)\s+break|affected\s+by\s+(?:changing|renaming|removing|deleting)"
        r"|what\s+happens\s+if\s+I\s+(?:change|rename|remove|delete|modify)|if\s+I\s+(?:change|rename|remove|delete|modify)\s+[\w$.:]+\s*,?\s*what"
        # "what would that take down with it?", "every job that would behave differently or need updating"
        r"|what\s+(?:would|will|could|might)\s+(?:that|this|it)\s+(?:break|affect|take\s+down|drag\s+down)"
        r"|(?:would|will|could|might)\s+(?:then\s+)?behave\s+differently|needs?\s+updating\s+because"
        # "what would stop working?", "dropping the const from this virtual, which overrides and callers are hit?"
        r"|what\s+(?:would|will|could|might)\s+stop\s+working"
        r"|(?:which|what)\s+(?:[\w-]+\s+){0,3}?(?:callers|call\s?sites|overrides|subclasses|functions|methods"
        r"|modules|files|tests|services|packages|classes|consumers|dependents|jobs|endpoints|handlers)"
        r"\s+(?:are|get|would\s+be)\s+hit"
        # "we're turning this panic into an error value; which callers then have to handle it?", "... need to start
        # handling it?"
        r"|(?:which|what)\s+(?:callers|call\s?sites|functions|methods)\s+(?:(?:would|will)\s+)?(?:then\s+)?"
        r"(?:have\s+to|must|need\s+to)\s+(?:start\s+)?(?:handl(?:e|ing)|catch(?:ing)?)\s+"
        r"(?:it|this|that|them|the\s+(?:new\s+)?(?:error|exception|failure|err)s?)"
        r")\b",
    ),
    _rule(
        "stack-frame",
        "exact_match",
        0.85,
        r"^\s*at\s+\S.*\(\S+:\d+(?::\d+)?\)\s*$|^goroutine\s+\d+\s+\[|^\s*File\s+\S+,\s+line\s+\d+",
        re.MULTILINE,
    ),
    _rule("error-prefix", "exact_match", 0.85, r"^\s*(?:error|fatal|warning|panic)\s*(?:\[\w+\])?:\s*\S"),
    # text the query says to find as it is ("verbatim: sensor did not ack"), or a pasted Android log
    # line ("E/DrawerPocket: billing cycle closed"): the words after the colon are the string to find
    _rule(
        "literal-prefix",
        "exact_match",
        0.85,
        r"^\s*(?:(?:find|search|grep)\s+(?:for\s+)?)?(?:verbatim|literal(?:ly)?|exact(?:ly)?(?:\s+(?:this|string|text|phrase|message|line))?"
        r"|the\s+exact\s+(?:string|text|phrase|message|line))\s*:\s*\S"
        # a few words, then the ask, then the colon: "look for this code fragment verbatim: if rx.cyl == 0 {"
        r"|^\s*(?:[\w'-]+\s+){1,6}(?:verbatim|literally|exactly|as[\s-]+(?:written|typed)"
        r"|(?:character|char|byte|word)[\s-]+for[\s-]+(?:character|char|byte|word))\s*:\s*\S"
        r"|^\s*[VDIWEF]/[\w.$-]+(?:\(\s*\d+\s*\))?:\s*\S",
        0,
    ),
    # "grep E_DATUM_MISSING evrywhere", "rg -w ORCH-518": an upper-case code after a search tool's name
    _rule(
        "grep-code",
        "exact_match",
        0.85,
        r"^\s*(?:grep|rg|ripgrep|ack|ag)\s+(?:-[\w-]+\s+)*(?-i:[A-Z][A-Z0-9]*(?:[_-][A-Z0-9]+)+)(?![\w-])",
    ),
    # a regular expression written in the query (``plugins/inline_regex.py``: "regex save_\w+\(", "lines matching
    # ^import\s+os", "grep -E 'retry(_count)?\s*='", "/TODO\(\w+\)/"), which the text modality runs as one
    _rule("regex-pattern", "exact_match", 0.85, inline_regex.REQUEST),
    # shorthand for "explain" opening the query ("eli5 LeagueNight", "walk me through the scheduler"),
    # or "explain" and a colon before what to explain ("explain line by line:\n<code>"): a name or code
    # after it is the topic, not a definition or code to find ("tldr: who calls X" is a summary's prefix)
    _rule(
        "explain-shorthand",
        "understand_code",
        0.85,
        r"^\s*(?:(?:eli5|explain\s+like\s+i'?m\s+(?:five|5)|tl;?dr|walk\s+me\s+through)\b(?!\s*:)"
        r"|explain(?:\s+[a-z]+){0,4}\s*:\s*\S"
        # a name and the word for an explanation of it: "read_tide_level walkthrough pls", "Ledger.post rundown?"
        r"|^\s*[\w$.:]+(?:\(\))?\s+(?:walk-?\s?through|rundown|explainer)(?:\s+(?:pls|plz|please))?\s*[?!.]*\s*$)",
    ),
    # "X keeps showing up ... I want to understand under which conditions f throws it" (the error rule yields)
    _rule("understand-ask", "understand_code", 0.85, UNDERSTAND_ASK),
)

#: The keyword rules by name (each name is one rule's).
KEYWORD_RULES_BY_NAME: dict[str, IntentRule] = {rule.name: rule for rule in KEYWORD_RULES}

_UNDERSTAND_ASK = re.compile(UNDERSTAND_ASK, re.IGNORECASE)
_HANDLERS_QUESTION = re.compile(HANDLERS_QUESTION, re.IGNORECASE)

#: "where is X defined": read by the identifier rule, so neither an error-like name nor a plain word misroutes.
_WHERE_DEFINED = re.compile(
    r"^\s*(?:where\s+(?:is|are)\s+(?:the\s+)?[\w$.:]+\s+(?:defined|declared|implemented)|(?:the\s+)?definition\s+of\s+[\w$.:]+)\s*\??\s*$",
    re.IGNORECASE,
)
#: An editor's command as the whole query, "go to X", "jump to the definition of X", "X definition": where X is
#: defined, surely (the learned layer read "go to lock" as a question about locking, and hedged "Slug definition"
#: as prose, text's ``dbGetArticleBySlug`` before the field ``Slug``).
_DEFINITION_COMMAND = re.compile(
    "|".join(
        template.replace("{name}", r"[`'\"]?[\w$]+(?:(?:\.|::)[\w$]+)*[`'\"]?")
        for template in (NAME_THEN_NOUN["definition"], GO_TO_NAME)
    ),
    re.IGNORECASE,
)
#: Its confidence: as sure as "which file X is written in" (``definition-phrase``).
DEFINITION_COMMAND_CONFIDENCE = 0.85
#: An unquoted message: capitalised words with a failure phrase, or a whole sentence ending in a
#: full stop, and no question word. A guess, so its confidence keeps the answer fused.
_MESSAGE = re.compile(r"^\s*[A-Z][\w'-]*(?:\s+\S+){1,14}\s*$")
_SENTENCE = re.compile(r"^\s*[A-Z][\w'-]*(?:\s+\S+){2,14}\.\s*$")
_FAILURE_PHRASE = re.compile(
    r"\b(?:could\s+not|cannot|can't|couldn't|unable\s+to|failed\s+to|no\s+such|not\s+found|does\s+not\s+exist|is\s+not\s+(?:a|an|allowed|supported|valid)"
    r"|must\s+be|requires?\s+(?:an?\s+)?\w+\s+arguments?|invalid|unexpected|missing|denied|refused|timed\s+out)\b",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"^\s*(?:how|why|what|where|which|who|when|does|do|is|are|can|should|python|find|show|list|get)\b|\?\s*$",
    re.IGNORECASE,
)

_CODE_SHAPE = re.compile(r"[;{}]|=>|->|\)\s*:|^\s*(?:return|if|for|while)\b.*[(:]|\w+\([^)]*\)\s*[{;:]", re.MULTILINE)
_IDENTIFIER = (
    r"(?:[A-Z]{2,}[a-z]\w*"  # HTTPServer
    r"|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+"  # dotted.name
    r"|[a-z_$][a-z0-9$]*(?:_[a-z0-9$]+)+"  # snake_case
    r"|_[A-Za-z_]\w*"  # _private
    r"|[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+"  # camelCase, PascalCase
    r"|[A-Z]+[a-z]+[A-Z]\w*)"  # XMLHttpRequest
)
_LONE_IDENTIFIER = re.compile(rf"^\s*{_IDENTIFIER}(?:\(\))?\s*$")
_INNER_IDENTIFIER = re.compile(rf"(?<![\w$.]){_IDENTIFIER}(?![\w$])")
_CAMEL_OR_SNAKE = re.compile(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]|[A-Z]{2}[a-z]|\w_\w|\w\.\w")
_UNDERSTAND = re.compile(r"\b(?:how|why|explain|architecture)\b", re.IGNORECASE)


def _is_code(query: str) -> bool:
    lines = [ln for ln in query.splitlines() if ln.strip()]
    hits = len(_CODE_SHAPE.findall(query))
    return hits >= 2 or (len(lines) >= 2 and hits >= 1)


def _identifier_rule(query: str) -> Classification | None:
    if _LONE_IDENTIFIER.match(query) and _CAMEL_OR_SNAKE.search(query.strip()):
        return Classification("find_definition", 0.80, "lone-identifier")
    if _has_shaped_identifier(query):
        return Classification("find_definition", 0.60, "inner-identifier")
    return None


def _has_shaped_identifier(query: str) -> bool:
    """Whether ``query`` holds a name with an identifier's shape (camelCase, snake_case, dotted...)."""
    return any(_CAMEL_OR_SNAKE.search(m.group(0)) for m in _INNER_IDENTIFIER.finditer(query))


#: Marks of code inside a sentence: quoted or backticked text, a call ``f()``, ``a::b``, ``A#m``, ``->``,
#: a dotted name.
_CODE_MARK = re.compile(r"`[^`]+`|'[^'\s][^']*'|\"[^\"]+\"|\w\(\)|::|\w#\w|->|\w\.\w")
#: A capitalised word after the first (``who calls Session``); "I" is English.
_CAPITALISED = re.compile(r"(?<=\s)(?!I\b)[A-Z][A-Za-z0-9]*")
#: Intents that ask about one named definition, or code like a given example: the query must name
#: it or show it ("python function that gives closest whole number" read as find_similar shows none).
ENTITY_INTENTS = frozenset({"find_definition", "find_references", "impact_analysis", "find_similar"})


def names_code(query: str) -> bool:
    """Whether ``query`` names something in code: an identifier's shape (``parse_config``,
    ``HTTPServer``, ``a.b``), quoted or backticked text, call or path syntax, or a capitalised word
    after the first. "python change encoding stdout" and "how does the code call all callbacks"
    name nothing; "who calls retry" names ``retry`` only to a reader who knows the code (the
    index's evidence decides a lone word, ``identifier.py``)."""
    return _has_shaped_identifier(query) or bool(_CODE_MARK.search(query) or _CAPITALISED.search(query.strip()))


_PROSE_WORD = re.compile(r"(?<![\w./`'\"])[A-Za-z][a-z]+(?:'[a-z]+)?(?![\w./`'\"(])")
#: Lines that are not prose even when worded: frames, a traceback's head, and its error line
#: (``KeyError: no such key``, Node's ``Error: ...``: a pasted trace alone is an exact search, not a report),
#: also after a runtime's prefix (``Uncaught (in promise)``, .NET's ``Unhandled exception.``, Java's
#: ``Exception in thread "main"``), a Rust panic's head (``thread 'main' panicked at src/x.rs:3:5:``), a
#: runtime's ``note:``, pytest's failure lines (``E       KeyError: ...``), PHPUnit's numbered failures
#: (``1) KilnTest::test_fire``), a line that opens with a source location (``kiln/door.py:41:
#: KeyError``, a compiler's ``door.c:41:5: error: ...``, ``app.ts(12,5): error TS2304: ...``), and a compiler's
#: diagnostics: Rust's ``error[E0425]: ...`` with its ``  --> src/x.rs:36:5`` and ``= note:`` lines,
#: ``error TS2304:`` / ``error CS0103:``, a warning; Java's ``Caused by: X``, ``Suppressed: X``, ``... 12 more``;
#: Go's ``fatal error: all goroutines are asleep - deadlock!`` and a frame's ``\tpath/x.go:19 +0x88``.
_FRAME_LINE = re.compile(
    r"^\s*(?:File \"|at\s|goroutine\s|\S+\.go:\d+|Traceback\b|E {3,}\S|[\w./\\-]+\.\w+(?::\d+|\(\d+,\s*\d+\)):"
    r"|\d+\)\s+[\w\\]+::\w+|-->\s*\S+:\d+|=\s*(?:note|help):|(?:Caused by|Suppressed):\s|\.\.\.\s+\d+\s+more\b"
    r"|(?:Uncaught(?: \(in promise\))?\s+|Unhandled exception\.\s+|Exception in thread \"[^\"\n]*\"\s+)?"
    r"(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning)\b"
    r"|(?i:panic|error|fatal(?:\s+error)?|note|warning)(?:\[\w+\]|\s+[A-Z]{1,4}\d{3,5})?\s*:"
    r"|thread\s+'[^']*'\s+panicked\b|\S+:\d+\s+\+0x[0-9a-f]+\s*$).*$",
    re.MULTILINE,
)
_FENCED = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)


#: Code on a line, however worded: braces, comparisons, an assignment (to one name or several, or a
#: declared one: ``obj, incomplete = resolve(ctx)``, ``var msg = 'no callback: ' + type``), a return
#: type's arrow, a signature's closing ``):`` (``def handicap(avg: int, basis: int = 220) -> int:``),
#: or a loop over a call or opening a block (``for name, command in visible_commands(ctx)``).
_CODE_PUNCTUATION = re.compile(
    r"[{};]|!=|==|:=|=>|->|\)\s*:\s*$|^\s*(?:(?:var|let|const|val)\s+)?[\w.$]+(?:\s*,\s*[\w.$]+)*\s*=\s*\S"
    r"|^\s*(?:async\s+)?for\s+[\w.]+(?:\s*,\s*[\w.]+)*\s+in\s+(?:.*\w\(|.*:\s*$)"
)
#: A semicolon between two words: a sentence's ("fail hard from now on; what would that break?").
_SENTENCE_SEMICOLON = re.compile(r"(?<=[A-Za-z]);(?=\s+[A-Za-z])")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
#: "code like this: ..." asks for similar code, however many lines the snippet has.
_SIMILAR_HEAD = re.compile(
    r"^\s*(?:(?:find|show|more|other)\b.{0,40}\b(?:similar|like|resembling|pattern)|like this|anything resembling)",
    re.IGNORECASE,
)


def _prose_line_words(line: str, *, semicolons: bool = False) -> int:
    """The words of ``line`` if it reads as prose (not indented, no code punctuation, mostly plain words), else 0;
    with ``semicolons``, a semicolon between two words is a sentence's, not code's."""
    if not line.strip() or (line[:1] in (" ", "\t", ">") and not line.lstrip().startswith(("- ", "* "))):
        return 0
    if semicolons:
        line = _SENTENCE_SEMICOLON.sub(",", line)
    if _CODE_PUNCTUATION.search(_INLINE_CODE.sub(" ", line)):  # `code` inside a sentence is fine
        return 0
    words = len(_PROSE_WORD.findall(line))
    return words if words >= 3 and words >= 0.5 * len(line.split()) else 0


def _prose_lines(text: str) -> list[int]:
    """The words of each line that reads as prose (``_prose_line_words``)."""
    return [words for words in map(_prose_line_words, text.splitlines()) if words]


def _prose_words(text: str) -> int:
    """Words on lines that read as prose (``_prose_lines``)."""
    return sum(_prose_lines(text))


def looks_like_report(query: str) -> bool:
    """Whether ``query`` is a pasted bug report: several lines, prose words outside its code and
    frames, and evidence of code (a frame, code, an error line, or identifiers). Thresholds: a
    one-line query never is one, and a two-line one only as a paragraph of prose, so short
    searches keep their routing."""
    if "\n" not in query.strip() or _SIMILAR_HEAD.match(query):
        return False
    from fourfold.coordinator.evidence import report_signals

    s = report_signals(query)
    prose = _FRAME_LINE.sub(" ", _FENCED.sub(" ", query[:8_000]))
    words = _prose_words(prose)
    if s.lines < REPORT_MIN_LINES:  # a title and a paragraph
        return words >= REPORT_PROSE_ALONE_WORDS
    if s.frames >= 2 and s.code_blocks:  # an issue's template: a traceback in a fenced block, headings
        return words >= 2
    if s.frames or s.code_blocks or s.error_lines:  # code or a traceback, and a title's worth of prose
        return words >= REPORT_MIN_TITLE_WORDS
    if s.identifiers >= REPORT_MIN_IDENTIFIERS:
        return words >= REPORT_MIN_PROSE_WORDS
    return words >= REPORT_PROSE_ALONE_WORDS


#: A line of an interactive session (Python's ``>>>``, IPython's ``In [3]:``): what the reporter ran.
_SESSION_PROMPT = re.compile(r"^\s*(?:>>>|In \[\d+\]:)\s", re.MULTILINE)


def is_short_paste(query: str) -> bool:
    """Whether ``query`` is a paste with a line of words about it: no fenced block, and at most
    ``SHORT_PASTE_WORDS`` words of prose outside its code and frames (an issue has a title and
    paragraphs, or fences its code)."""
    if "```" in query or _SESSION_PROMPT.search(query):
        return False  # fenced, or an interactive session: a report's reproduction
    return _prose_words(_FRAME_LINE.sub(" ", query[:8_000])) <= SHORT_PASTE_WORDS


_BLANK_LINES = re.compile(r"\n[ \t]*\n")


def is_pasted_output(query: str) -> bool:
    """Whether ``query`` is a program's output pasted with at most a line about it (a trace, a build
    log, a panic and its note): a short paste whose words stand in its last paragraph, where a report
    sets its title and paragraphs apart above the output with blank lines, however few their words.
    The output's own blank lines (a Go panic's before ``goroutine 1 [running]:``, pytest's between its
    failure and its location) set nothing apart."""
    if not is_short_paste(query):
        return False
    paragraphs = _BLANK_LINES.split(query[:8_000].strip())
    return not any(_prose_words(_FRAME_LINE.sub(" ", paragraph)) for paragraph in paragraphs[:-1])


#: At most this many words of prose beside a snippet asked about in a line (``is_snippet_request``).
SNIPPET_REQUEST_WORDS = 40


#: A line a program writes: a timestamp or a log level opening it ("2024-03-14T06:31:44Z ERROR ...").
_LOG_LINE = re.compile(
    r"^\s*\[?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\d{2}:\d{2}:\d{2}|(?:ERROR|WARN(?:ING)?|INFO|DEBUG|FATAL|TRACE)\b)"
    # a program's own name for what failed: "UnhandledPromiseRejection: ..."
    r"|^\s*(?:[a-z]\w*\.)*[A-Z][a-z]+[A-Z]\w*:\s"
    # a linker's: "undefined reference to `f'", "collect2: error: ld returned 1 exit status"
    r"|^\s*(?:\S+:\s*)?(?:\([^)\n]*\):\s*)?undefined\s+(?:reference|symbol)\b|^\s*(?:collect2|ld|lld|ld\.lld)(?:\.exe)?:\s"
    # glog's and klog's: severity, month and day, time, thread, file:line] ("E0612 04:21:55.090  311 a.cc:5] ...")
    r"|^\s*[IWEF]\d{4}\s+\d{2}:\d{2}:\d{2}(?:\.\d+)?\s+\d+\s+[\w./\\-]+:\d+\]"
)
#: At most this many words of prose inside pasted output, after its first frame or log line: the message a
#: panic prints on its own line ("called `Option::unwrap()` on a `None` value").
OUTPUT_MESSAGE_WORDS = 15
#: Where a request may open: a line's start, after a sentence's end or a colon ("kotlin. open ...", "c#: go
#: to ..."), or after a spaced dash.
_CLAUSE_START = r"(?:^|[.;:!]\s+|\s(?:--|\u2014)\s+)\s*"
#: Words under a paste asking for something without a question's words: "find all the places that call X",
#: "open the file where X is declared", "not after the file -- I want to understand what leads here".
_REQUEST_OPENING = re.compile(
    _CLAUSE_START + r"(?:(?:please|pls)\s+)?(?:find|list|show|give|get|grep|search|locate|open"
    r"|trace|pull\s+up|every|all|explain|enumerate|(?:I|we)\s+(?:want|need|would\s+like|'d\s+like)|help\s+me"
    r"|(?:walk|talk)\s+me\s+through|tell\s+me)\b",
    re.IGNORECASE | re.MULTILINE,
)


#: A declaration as its language opens one, on a line of its own ("sealed interface X", "defmodule X do",
#: "public interface X {"): code, though its words read like prose.
_DECLARATION_LINE = re.compile(
    r"^\s*(?:(?:public|private|protected|internal|sealed|abstract|open|data|export|pub|final|static|virtual|async"
    r"|partial|default)\s+)*(?:class|interface|trait|protocol|struct|enum|type|def|func|fun|fn|function|module"
    r"|defmodule|defprotocol|object|record|impl|typealias|newtype)\s+[A-Za-z_$][\w$.:<>]*\b"
)
#: A clause after a comma that opens as a question does: "if X returns a Result instead, which call sites
#: have to handle it".
_CLAUSE_QUESTION = re.compile(r",\s*(?:which|what|who|where|how|why|is|are|does|do|can)\b", re.IGNORECASE)


def _is_printed(line: str) -> bool:
    """Whether ``line`` of a paste is what a program printed or a declaration, whatever its words read like."""
    return bool(_FRAME_LINE.search(line) or _LOG_LINE.match(line) or _DECLARATION_LINE.match(line))


#: Words under a pasted declaration asking for the types that implement it: "which classes extend this one?",
#: "swift -- which types conform to this protocol?", "every class that implements this interface, please".
_IMPLEMENTS_PASTED = re.compile(
    r"\b(?:which|what|who|every|all|any)\b(?:\s+[\w-]+){0,2}?\s+(?:implements?|implementing|extends?|extending"
    r"|conforms?\s+to|conforming\s+to|adopts?|derives?\s+from|deriving\s+from|inherits?\s+from|inheriting\s+from"
    r"|satisf(?:y|ies|ying)|subclass(?:es)?|impl)\s+(?:it|this|that|them|these)\b"
    # "dart: which widgets mix this in?", "scala: what mixes this trait in?"
    r"|\b(?:which|what|who|every|all|any)\b(?:\s+[\w-]+){0,2}?\s+mix(?:es)?\s+(?:it|this|that|them)(?:\s+[\w-]+)?"
    r"\s+in\b"
    # "rust: list every impl of this trait in the workspace", "list the impls of LanternWickTrim"
    r"|\b(?:(?:which|every|all|any)\s+(?:impls?|implementations?)|the\s+(?:impls|implementations))\s+of\s+"
    r"(?:it|this|that|these|(?-i:[A-Z])\w*(?:::\w+)*)\b"
    # "elixir: where is this protocol implemented? looking for every defimpl"
    r"|\bwhere\s+(?:is|are)\s+(?:this|that|these)\s+(?:protocol|interface|trait|typeclass|behaviou?r|mixin)s?\s+"
    r"(?:implemented|adopted|conformed\s+to)\b|\b(?:every|all|each|any)\s+(?:defimpl|impl\s+block)s?\b",
    re.IGNORECASE,
)


#: Words under a paste asking why it happens or what causes it: "what in log_weighing causes this?", "explain why
#: the borrow checker rejects X here", "java: why does this throw?". An explanation of the code, not its text.
_WHY_PASTED = re.compile(
    r"^\s*(?:[\w#+.-]+\s*:\s*)?(?:(?:please|pls|can\s+you|could\s+you)\s+)?"
    r"(?:explain\b|why\b|what\s+(?:in\s+\S+\s+)?(?:causes|caused|triggers|leads\s+to)\b)",
    re.IGNORECASE,
)


def asks_why_of_paste(asked: str) -> bool:
    """Whether the words under a paste (``question_under_output``) ask why it happens or what causes it."""
    return _WHY_PASTED.search(asked) is not None


def asks_for_implementations_of_paste(asked: str) -> bool:
    """Whether the words under a paste (``question_under_output``) ask which types implement what was pasted."""
    return _IMPLEMENTS_PASTED.search(asked) is not None


#: A line asking a question in fewer words than a prose line has, not indented: "where's checkUnderKeelClearance
#: declared?".
_SHORT_QUESTION = re.compile(r"^(?:what|why|how|who|where|which|when|is|are|does|do|can)\b[^\n?]*\?\s*$", re.IGNORECASE)


def question_under_output(query: str) -> str:
    """The lines of words under pasted output or code where they ask something: "that path is generated code.
    where is X really defined?" under a panic, "find all the places that call X" under a Node stack, "which
    file declares the X type this log line names?" under a log line. The paste's words stand after every line
    of output, and no line of the output reads as prose but a frame or a log line (a title or a
    paragraph above it makes a report), at most ``SNIPPET_REQUEST_WORDS`` of them; a line of words in a paragraph
    that holds output (a panic's message under its head) is the output's, and a question too short for prose
    ("where's X declared?") asks all the same. Empty where ``query`` is no such paste."""
    lines: list[str] = []
    paragraphs: list[int] = []  # each line's paragraph: blank lines set them apart
    blank = False
    for line in query[:8_000].strip().splitlines():
        if line.strip():
            paragraphs.append(paragraphs[-1] + blank if paragraphs else 0)
            lines.append(line)
        blank = not line.strip()
    printed = [_is_printed(line) for line in lines]
    output_paragraphs = {number for number, is_printed in zip(paragraphs, printed, strict=True) if is_printed}
    # a printed line's words are never counted below, so a short question need not be asked whether it is printed
    words = [_prose_line_words(line, semicolons=True) or int(bool(_SHORT_QUESTION.match(line))) for line in lines]
    split = len(lines)  # the words asking: the lines of prose after the last line of output or code
    while split and words[split - 1] and not printed[split - 1]:
        above = paragraphs[split - 1]
        if split < len(lines) and above != paragraphs[split] and above in output_paragraphs:
            break  # a paragraph of output above: its message ("called `Result::unwrap()` on an `Err` value") is output
        split -= 1
    if split in (0, len(lines)):
        return ""  # words alone (a question, not output with a question under it), or no words under the output
    first = printed.index(True) if True in printed[:split] else split
    if any(words[:first]):
        return ""  # words above the output: a report's title or paragraph
    if sum(n for n, is_printed in zip(words[first:split], printed[first:split], strict=True) if not is_printed) > (
        OUTPUT_MESSAGE_WORDS
    ):
        return ""  # paragraphs inside the output: a report
    text = "\n".join(lines[split:])
    asks = asks_question(text) or _REQUEST_OPENING.search(text) or _CLAUSE_QUESTION.search(text)
    if sum(words[split:]) > SNIPPET_REQUEST_WORDS or not asks:
        return ""
    return text


#: A markdown heading outside code (``### Bug description``): an issue template's.
_MARKDOWN_HEADING = re.compile(r"^#{1,6}\s+\S", re.MULTILINE)


def is_snippet_request(query: str) -> bool:
    """Whether ``query`` is code, fenced or not, with one line of words about it ("we have this helper
    in two services already, find the other copies"): no interactive session, frame, error line or
    heading, at most ``SNIPPET_REQUEST_WORDS`` words of prose, four fifths of them on one line. An
    issue has a title and a paragraph or a template's headings, or shows what it ran and what failed."""
    from fourfold.coordinator.evidence import report_signals

    outside_code = _FENCED.sub(" ", query[:8_000])
    if _SESSION_PROMPT.search(query) or _MARKDOWN_HEADING.search(outside_code):
        return False
    signals = report_signals(query)
    if signals.frames or signals.error_lines:
        return False
    lines = _prose_lines(_FRAME_LINE.sub(" ", outside_code))
    words = sum(lines)
    return 0 < words <= SNIPPET_REQUEST_WORDS and max(lines) >= 0.8 * words


#: A line, or a clause after a spaced "--", em dash or semicolon (" -- ", " — ", " ; "), that opens as a
#: question does, with or without its question mark ("what is this doing and why is it written this way",
#: "who is affected by this", "that path is from an old build -- where is X defined now").
_QUESTION_OPENING = re.compile(
    r"(?:^\s*|\s(?:--|\u2014|;)\s*)"
    r"(?:what|why|how|who|whom|whose|where|which|when|is|are|does|do|did|can|could|would|should|will)\b",
    re.IGNORECASE | re.MULTILINE,
)


#: A line (or a sentence after another, or a clause after a spaced dash) that asks to be taken to code, as a
#: question would ask where it is: "jump me to wherever this impl block lives", "take me to it", "show me
#: where this is declared", "point me at the file", "kotlin. open the file where X is declared".
_NAVIGATION_OPENING = re.compile(
    _CLAUSE_START + r"(?:(?:please|pls|can\s+you|could\s+you)\s+)?"
    r"(?:(?:jump|take|bring|point|send|navigate|go)\s+(?:me\s+)?(?:to|at|into)|(?:show|tell)\s+me\s+where"
    r"|(?:find|locate)\s+where|open\s+(?:up\s+)?(?:the\s+)?(?:file|definition|declaration|source)\b)\b",
    re.IGNORECASE | re.MULTILINE,
)


def asks_question(query: str) -> bool:
    """Whether ``query``'s words outside its fenced code ask a question: a question mark, a line (or a
    clause after a spaced dash or semicolon) opening with a question word, or a line asking to be taken
    to the code (``_NAVIGATION_OPENING``)."""
    outside = _FENCED.sub(" ", query)
    return "?" in outside or bool(_QUESTION_OPENING.search(outside) or _NAVIGATION_OPENING.search(outside))


def rule_match(rule: IntentRule, query: str) -> re.Match[str] | None:
    """Where a keyword rule matches ``query``. The quoted-string rule does not read inside a fenced
    block: a string literal or a backtick there is code, not a string to find (the fence is blanked
    out, so the match's offsets are the query's own)."""
    if rule.name == "quoted-string":
        if "```" in query:
            query = _FENCED.sub(lambda m: " " * len(m.group()), query)
        if _asks_implementations_outside_quotes(query, rule.pattern):
            return None  # "who implements X? every class with `implements X`": the quote repeats the name
    if rule.name == "error-token" and (
        _UNDERSTAND_ASK.search(query) or _HANDLERS_QUESTION.search(query) or _implements_question(query)
    ):
        # an error named as the topic of a question about when or why it happens, who handles it, or which
        # classes extend it ("which classes extend Exception": the project's own errors)
        return None
    if rule.name == "regex-pattern" and inline_regex.find(query) is None:
        return None  # the shape of one without its syntax: "grep for the retry budget"
    if rule.name == "definition-keyword" and "\n" in query.strip():
        return None  # a keyword opening a pasted body: code to match, not a name to look up
    return rule.pattern.search(query)


def _implements_question(query: str) -> bool:
    """Whether ``query`` asks which types implement or extend a name (``IMPLEMENTS_QUESTION``)."""
    return next(implementation_questions(query), None) is not None


def _asks_implementations_outside_quotes(query: str, quotes: re.Pattern[str]) -> bool:
    """Whether ``query`` asks which types implement a name (``IMPLEMENTS_QUESTION``) in words outside its
    quotes: the implements rule, later in the table, then answers it. A quoted phrase (``grep for "classes
    that extend Base"``) is a string to find."""
    spans = [m.span() for m in quotes.finditer(query)]
    return any(not any(start <= m.start() < end for start, end in spans) for m in implementation_questions(query))


_FENCE_MARKS = re.compile(r"^[ \t]*```[\w+.#-]*[ \t]*$\n?", re.MULTILINE)


def unfenced(query: str) -> str:
    """``query`` with its code fences' marker lines taken out and the code they hold kept: what the
    learned layer reads (it learned pasted code bare, and reads backticks as quotes)."""
    return _FENCE_MARKS.sub("", query) if "```" in query else query


def classify(query: str, extra_rules: Sequence[IntentRule] = (), *, reports: bool = True) -> Classification:
    """Classify ``query``: the rules, then the learned layer where a rule only guessed (``intent_model``).
    ``reports=False`` reads a bug report as if the localize intent did not exist (the routing before it)."""
    from fourfold.coordinator.intent_model import consult  # numpy: loaded on the first query, not at import

    return consult(query, classify_rules(query, extra_rules, reports=reports))


def vectors_unavailable() -> str:
    """Why the learned layer cannot read sentence vectors in this process ("" while it can)."""
    from fourfold.coordinator.intent_model import query_vector

    return query_vector.unavailable


def classify_rules(
    query: str, extra_rules: Sequence[IntentRule] = (), *, reports: bool = True, skip: frozenset[str] = frozenset()
) -> Classification:
    """Classify ``query`` by the rules alone; ``extra_rules`` come from plugins; the keyword rules named in ``skip``
    are passed over (the words under a paste name an error as their topic, not as a string to find).

    The order, first match wins: an agent's tool call whose name says its intent (``tool_call``); a
    bug report (``looks_like_report``, unless ``reports`` is False); "where is X defined" /
    "definition of X" (a whole-query form, read by the identifier rule, so an error-like name such as
    ``NetworkError`` is not taken by the error keyword rule); the keyword rules; the plugins' rules; a
    query that is itself code; a lone or embedded identifier; an unquoted message; the understand
    phrases; the fallback.
    """
    call = read_tool_call(query)
    if call is not None:
        return Classification(call.intent, TOOL_CALL_CONFIDENCE, "tool-call")
    if reports and looks_like_report(query):
        return Classification("localize", 0.90, "bug-report")
    if _DEFINITION_COMMAND.match(query):
        return Classification("find_definition", DEFINITION_COMMAND_CONFIDENCE, "definition-command")
    where = _WHERE_DEFINED.match(query)
    if where:
        return _identifier_rule(query) or Classification("find_definition", 0.60, "where-defined")
    for rule in KEYWORD_RULES:
        if rule.name not in skip and rule_match(rule, query):
            return Classification(rule.intent, rule.confidence, rule.name)
    for rule in extra_rules:
        if rule.pattern.search(query):
            return Classification(rule.intent, rule.confidence, rule.name)
    if _is_code(query):
        return Classification("find_similar", 0.75, "code-shape")
    ident = _identifier_rule(query)
    if ident is not None:
        return ident
    if (
        _MESSAGE.match(query)
        and (_FAILURE_PHRASE.search(query) or _SENTENCE.match(query))
        and not _QUESTION.search(query)
    ):
        return Classification("exact_match", 0.65, "unquoted-message")
    if _UNDERSTAND.search(query):
        return Classification("understand_code", 0.75, "understand-phrase")
    return Classification("understand_code", 0.40, "fallback")


BUILTIN_RULES = KEYWORD_RULES
