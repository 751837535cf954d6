"""The identifier strategy: a bare name is asked of structural and text first, fused only when they disagree.

A query that is one identifier (``ShouldBindJSON``, ``parse_config``, ``Session.send``,
``HTTPAdapter``) asks "where is this defined, and where is it used". Two cheap, exact modalities
answer that: structural's definition lookup (an index range scan) and text's word-bounded match of
the name (a trigram lookup). When both agree — structural finds the definition(s) and every
definition's file is among the files text finds the name in — the answer is those definitions
first, then text's other files, noted ``identifier: structural and text agree``. When they disagree,
or either finds nothing, the search is fused as before (semantic included), within the same
deadline, and the notes say why.

**Index evidence.** A lone word without an identifier's shape (``getfixturevalue``, ``retry``,
``Session``) reads as prose to the rules. Whether the index defines it decides: structural's exact
lookup is asked first (milliseconds), and a word it finds defined is an identifier query
(``find_definition`` 0.80, rule ``known-symbol``); a word it does not know is routed as classified.
The evidence is that lookup itself, asked through :meth:`Engine.search` with the caller's
``visible`` repositories, so a restricted caller's evidence comes only from its repositories and
its answer is the one a store without the others would give (no route tells of a hidden symbol).
Why a lookup and not a name set held by the coordinator: ``benchmarks/identifier.py`` measures
both (the set costs memory per generation and a load on every switch; the lookup a few ms).

Every sub-search carries ``options["identifier"] = "off"``, so it is planned as before; a caller
can pass the same to turn the strategy off.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from fourfold.api import DEFAULT_DEADLINE_MS, Answer, FusedHit, SearchParams
from fourfold.coordinator import metrics
from fourfold.coordinator.intent import Classification
from fourfold.coordinator.notes import tidy_notes
from fourfold.plugins.paths import is_auxiliary
from fourfold.plugins.vocabulary import IMPLEMENTATION_PHRASES

if TYPE_CHECKING:
    from fourfold.coordinator.engine import Engine, Plan

__all__ = [
    "DEFINITION_SCORE",
    "IDENTIFIER_OPTION",
    "INNER",
    "KNOWN_SYMBOL_RULE",
    "KNOWN_TYPE_RULE",
    "STRATEGY",
    "Candidate",
    "answer",
    "applies",
    "candidate",
    "classify_with_evidence",
    "defines_type",
    "implementations_named",
    "implemented_word",
    "inner_options",
    "is_definition",
    "text_pattern",
    "word_lookup",
]

#: ``options["identifier"] = "off"`` plans the search as if this strategy did not exist.
IDENTIFIER_OPTION = "identifier"
#: The value the strategy's own structural and text asks carry: planned as before, and not counted
#: as requests in the metrics (the answer they make up is counted once).
INNER = "inner"
#: The ``fusion_strategy`` of an answer structural and text agreed on.
STRATEGY = "identifier"
#: The rule name of a lone word the index defines.
KNOWN_SYMBOL_RULE = "known-symbol"
#: The confidence of an identifier query (the seed's lone-identifier rule's).
IDENTIFIER_CONFIDENCE = 0.80
#: The rules whose reading a lone word's index evidence may overrule (guesses, not keyword forms).
_GUESSING_RULES = ("fallback", "learned")
#: The rule name of an implementations question about a plain word the index defines as a type ("who
#: implements setter": Go's unexported interfaces are lower-case words, which the rules take for prose).
KNOWN_TYPE_RULE = "implements-known-type"
#: Its confidence: a sure reading, as a quoted name's, so the graph answers it directly.
KNOWN_TYPE_CONFIDENCE = 0.85
#: The kinds of definition that something implements, extends or satisfies.
IMPLEMENTABLE_KINDS = frozenset({"interface", "trait", "protocol", "class", "mixin"})
#: The whole question: an implementations phrase (after "what", "list", "show me"… where it starts with the
#: types: "what types satisfy"), then one plain lower-case word (a shaped name is the implements rule's already),
#: perhaps quoted, perhaps with the kind after it.
_IMPLEMENTED_WORD = re.compile(
    r"^\s*(?:(?:what|which|list|show(?:\s+me)?|find)\s+(?:all\s+)?(?:the\s+)?)?"
    r"(?:" + "|".join(IMPLEMENTATION_PHRASES) + r")\s+(?:the\s+)?[`'\"]?((?-i:[a-z][a-z0-9]*))[`'\"]?"
    r"(?:\s+(?:interface|trait|protocol|class|type))?\s*[?.!]?\s*$",
    re.IGNORECASE,
)
#: "implementations of Formatter", "show all impls of Display", "Shard implementations": the noun without a
#: wh-word, which also asks for code that does what a function does ("implementations of quicksort"). Read as
#: the types implementing a name only where the graph finds some (:meth:`Engine._known_type`). A qualifier
#: ("other", "alternative", "duplicate") is never matched: that asks for similar code.
_IMPLEMENTATIONS_NOUN = r"(?:implementations|impls|implementors|implementers)"
_TYPE_NAME = r"[`'\"]?([A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*)[`'\"]?"
_TYPE_KIND = r"(?:\s+(?:interface|trait|protocol|abstract\s+class|base\s+class|class|type))?"
#: The readings "implementations of X" may overrule: the guesses, and a shaped name's weak definition reading (the
#: rule that reads "show all implementations of the BindingBody interface" as find_definition 0.60).
_NOUN_READERS = (*_GUESSING_RULES, "inner-identifier")
_IMPLEMENTATIONS_OF = re.compile(
    r"^\s*(?:(?:find|show(?:\s+me)?|list|get|give\s+me|go\s+to)\s+)?(?:all\s+)?(?:the\s+)?"
    rf"{_IMPLEMENTATIONS_NOUN}\s+(?:of|for)\s+(?:the\s+)?{_TYPE_NAME}{_TYPE_KIND}\s*[?.!]?\s*$"
    rf"|^\s*(?:(?:find|show(?:\s+me)?|list)\s+)?(?:all\s+)?(?:the\s+)?{_TYPE_NAME}{_TYPE_KIND}"
    rf"\s+(?:{_IMPLEMENTATIONS_NOUN}|subclasses)\s*[?.!]?\s*$",
    re.IGNORECASE,
)
#: Structural's score classes: exact name 4.x, qualified suffix 3.x, prefix 2.x, fuzzy 1.x
#: (``plugins/structural/index.py``). A definition *of this name* is an exact or qualified one.
DEFINITION_SCORE = 3.0
#: Options of the caller's that the sub-searches do not carry (the strategy answers them itself).
_NOT_CARRIED = ("explain", "rerank", "mode", "group", "segments")

#: An exception class's name (``SSLError``, ``ClickException``): the error keyword rule reads it as a
#: search for the message, yet alone it asks where the class is defined and raised.
_ERROR_CLASS = re.compile(r"^(?:[\w$]+\.)*[A-Z][A-Za-z0-9]*(?:Error|Exception)$")
_BARE = re.compile(r"^\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?:\(\))?\s*$")


@dataclass(frozen=True, slots=True)
class Candidate:
    """A query that may be an identifier: the ``name`` asked, the last dotted part ``word`` text
    looks for, and whether its shape alone says so (``shaped``) or the index must (a lone word)."""

    name: str
    word: str
    shaped: bool


def candidate(query: str, rule: Classification) -> Candidate | None:
    """The identifier ``query`` may be under the rules' reading ``rule`` (None: not one).

    Shaped: the rules read it as a lone identifier, or as an error token that is an exception class's
    name. Unshaped: one word the rules only guessed at (fallback, learned); the index decides. A
    keyword form (``impact``, ``ECONNREFUSED``) is never one.
    """
    m = _BARE.match(query)
    if m is None:
        return None
    name = m.group(1)
    word = name.rsplit(".", 1)[-1]
    if rule.rule == "lone-identifier" or (rule.rule == "error-token" and _ERROR_CLASS.match(name)):
        return Candidate(name, word, shaped=True)
    if rule.rule in _GUESSING_RULES:
        return Candidate(name, word, shaped=False)
    return None


def classify_with_evidence(query: str, rule: Classification, known_symbol: bool) -> Classification:
    """``rule`` read with the index's evidence: a lone word the index defines is an identifier query."""
    c = candidate(query, rule)
    if c is None or c.shaped or not known_symbol:
        return rule
    return Classification("find_definition", IDENTIFIER_CONFIDENCE, KNOWN_SYMBOL_RULE)


def implemented_word(p: SearchParams, plan: Plan) -> re.Match[str] | None:
    """Where an implementations question names the plain word it asks about (group 1) when only a guessing rule
    read it ("who implements setter", "which types implement the binder interface"), the caller having chosen no
    intent, modality or weight; None otherwise. Whether the index defines it as a type decides the question
    (:func:`defines_type`)."""
    if p.intent or p.modalities or p.weights or plan.rule not in _GUESSING_RULES:
        return None
    return _IMPLEMENTED_WORD.match(p.query)


def implementations_named(p: SearchParams, plan: Plan) -> str | None:
    """The name an "implementations of X" question asks about, as written ("implementations of io.Writer":
    ``io.Writer``), when only a guess or a shaped name's weak reading read it and the caller chose no intent,
    modality or weight; None otherwise. The index decides what it asks (:meth:`Engine._known_type`)."""
    if p.intent or p.modalities or p.weights or plan.rule not in _NOUN_READERS:
        return None
    m = _IMPLEMENTATIONS_OF.match(p.query)
    return None if m is None else m.group(1) or m.group(2)


def defines_type(hits: Sequence[FusedHit], word: str) -> FusedHit | None:
    """Structural's definition of ``word`` as a type that can be implemented or extended, among ``hits``: one
    named as written, else one named in another case (``Modality`` for "modality"); the shipped code's before a
    test's (a test's stub of the name)."""
    types = [f for f in hits if is_definition(f) and f.hit.kind in IMPLEMENTABLE_KINDS and f.hit.symbol]
    types.sort(key=lambda f: is_auxiliary(f.hit.path))
    exact = next((f for f in types if f.hit.symbol == word), None)
    return exact or next((f for f in types if (f.hit.symbol or "").lower() == word.lower()), None)


def text_pattern(word: str) -> str:
    r"""The word-bounded regex text looks for (``\b`` only beside a word character: ``$el`` has none before)."""
    before = r"\b" if re.match(r"\w", word) else ""
    after = r"\b" if re.search(r"\w$", word) else ""
    return f"{before}{re.escape(word)}{after}"


def is_definition(hit: FusedHit) -> bool:
    """Whether a structural hit defines the asked name (exact or qualified), not a prefix or a fuzzy neighbour."""
    rank = hit.modalities.get("structural")
    return rank is not None and rank.score >= DEFINITION_SCORE


def applies(p: SearchParams, plan: Plan, modalities: Mapping[str, object]) -> Candidate | None:
    """The candidate this search is, when the strategy may answer it: the caller chose no intent,
    modality, weight, preset or text mode, and both structural and text are loaded."""
    if (
        p.intent
        or p.modalities
        or p.weights
        or p.cursor
        or plan.preset.name != "default"
        or p.options.get(IDENTIFIER_OPTION, "on") != "on"
        or any(p.options.get(o) for o in ("mode", "rerank", "segments"))
        or not {"structural", "text"} <= set(modalities)
    ):
        return None
    return candidate(p.query, Classification(plan.intent, plan.confidence, plan.rule))


def word_lookup(p: SearchParams, word: str, k: int) -> SearchParams:
    """``p`` as text's search for ``word`` as a whole word (a regex; the caller's scope, no weights):
    where, in the repositories ``p`` may search, the name is written."""
    return replace(
        p,
        query=text_pattern(word),
        k=k,
        intent="exact_match",
        modalities=("text",),
        weights={},
        options={**inner_options(p), "mode": "regex"},
    )


def inner_options(p: SearchParams) -> dict[str, str]:
    """The caller's options a sub-search of its answer carries: none the strategy answers itself, and
    ``INNER`` (planned as before, counted once)."""
    return {**{k: v for k, v in p.options.items() if k not in _NOT_CARRIED}, IDENTIFIER_OPTION: INNER}


async def answer(engine: Engine, p: SearchParams, plan: Plan, c: Candidate, visible: frozenset[str] | None) -> Answer:
    """Answer ``p`` by the identifier strategy (see the module docstring)."""
    from fourfold.coordinator.engine import Plan

    t0 = time.perf_counter()
    budget_ms = p.deadline_ms or DEFAULT_DEADLINE_MS
    deadline = time.monotonic() + budget_ms / 1000.0
    depth = min(max(3 * p.k, 30), 300)
    structural_p = replace(
        p, query=c.name, k=depth, intent="find_definition", modalities=("structural",), options=inner_options(p)
    )
    text_p = word_lookup(p, c.word, depth)
    if c.shaped:
        structural, text = await asyncio.gather(engine.search(structural_p, visible), engine.search(text_p, visible))
    else:
        # a lone word: the definition lookup is the evidence; text is asked only for a known symbol
        structural = await engine.search(structural_p, visible)
        if not any(is_definition(f) for f in structural.hits):
            left = max(_left_ms(deadline), 1)  # what is left of the caller's deadline
            routed = await engine.search(
                replace(p, deadline_ms=left, options={**p.options, IDENTIFIER_OPTION: "off"}), visible
            )
            if p.options.get("explain"):
                note = f"identifier: no definition named {c.name!r} in your repositories: routed as classified"
                routed = replace(routed, notes=(note, *routed.notes))
            return routed
        left = _left_ms(deadline)
        text = await engine.search(replace(text_p, deadline_ms=left), visible) if left > 0 else structural
    t_asked = time.perf_counter()
    rule = Classification("find_definition", IDENTIFIER_CONFIDENCE, plan.rule if c.shaped else KNOWN_SYMBOL_RULE)
    profile = engine.profiles.get("find_definition", {})
    weights = {m: profile.get(m, 0.0) for m in ("structural", "text")}
    mine = Plan(rule.intent, rule.confidence, rule.rule, STRATEGY, weights, plan.preset)
    definitions = [f for f in structural.hits if is_definition(f)]
    text_files = {(f.hit.repo, f.hit.path) for f in text.hits} if text is not structural else set()
    verdict = _verdict(c, definitions, text_files, text.hits if text is not structural else ())
    stage_ms = {"identifier": (t_asked - t0) * 1000}
    if verdict:
        left = _left_ms(deadline)
        if left > 0:
            return await _fused(engine, p, plan, mine, c, verdict, visible, left, stage_ms, t0)
        verdict = f"{verdict}; no time left to fuse: structural and text's answers as found"
    return _agreed(p, mine, structural, text, definitions, verdict, stage_ms, t0)


def _left_ms(deadline: float) -> int:
    return int((deadline - time.monotonic()) * 1000)


def _verdict(
    c: Candidate, definitions: Sequence[FusedHit], text_files: set[tuple[str, str]], text_hits: Sequence[FusedHit]
) -> str:
    """Why structural and text disagree ("" when they agree)."""
    if not definitions:
        return f"identifier: structural found no definition of {c.name!r}"
    if not text_hits:
        return f"identifier: text found no word {c.word!r}"
    outside = sorted({(f.hit.repo, f.hit.path) for f in definitions} - text_files)
    if outside:
        repo, path = outside[0]
        return f"identifier: structural and text disagree (text does not list {repo}:{path}, a definition's file)"
    return ""


async def _fused(
    engine: Engine,
    p: SearchParams,
    plan: Plan,
    mine: Plan,
    c: Candidate,
    verdict: str,
    visible: frozenset[str] | None,
    left_ms: int,
    stage_ms: dict[str, float],
    t0: float,
) -> Answer:
    """The answer the search had before this strategy (fused for a lone identifier; an exception
    class's name goes the exact-match way it went), in the time left; a known symbol is fused as a
    definition query."""
    fallback = replace(p, deadline_ms=left_ms, options={**p.options, IDENTIFIER_OPTION: "off"})
    if not c.shaped:
        profile = engine.profiles.get("find_definition", {})
        fallback = replace(fallback, weights={m: w for m, w in profile.items() if m in engine.plugins.modalities})
    fused = await engine.search(fallback, visible)
    how = (
        "fusion"
        if fused.fusion_strategy == "fused"
        else f"the {fused.fusion_strategy} path ({', '.join(fused.weights)})"
    )
    notes = [f"{verdict}: answered by {how}"]
    if p.options.get("explain"):
        notes.insert(0, mine.describe())
    timings = {**fused.timings, **stage_ms, "total": (time.perf_counter() - t0) * 1000}
    if not c.shaped:  # the evidence made it a definition query: the answer says so, not the prose reading
        fused = replace(fused, intent=mine.intent, confidence=mine.confidence)
    return replace(fused, notes=tidy_notes([*notes, *fused.notes], p.query), timings=timings)


def _agreed(
    p: SearchParams,
    mine: Plan,
    structural: Answer,
    text: Answer,
    definitions: Sequence[FusedHit],
    verdict: str,
    stage_ms: dict[str, float],
    t0: float,
) -> Answer:
    """Definitions first, then text's other files (each once), best first."""
    def_files = {(f.hit.repo, f.hit.path) for f in definitions}
    seen: set[tuple[str, str, int]] = set()
    ordered: list[FusedHit] = []
    confidences: list[float | None] = []
    sources = [(structural, definitions)]
    if text is not structural:
        sources.append((text, [f for f in text.hits if (f.hit.repo, f.hit.path) not in def_files]))
    for source, hits in sources:
        by_id = {id(f): i for i, f in enumerate(source.hits)}
        for f in hits:
            key = (f.hit.repo, f.hit.path, f.hit.start_line)
            if key in seen:
                continue
            seen.add(key)
            ordered.append(f)
            i = by_id[id(f)]
            confidences.append(source.confidences[i] if i < len(source.confidences) else None)
    hits = tuple(replace(f, score=1.0 / (1 + rank)) for rank, f in enumerate(ordered[: p.k]))
    notes = [verdict or "identifier: structural and text agree", *structural.notes]
    notes += [n for n in text.notes if text is not structural]
    if p.options.get("explain"):
        notes.insert(0, mine.describe())
    missing = tuple(sorted({*structural.missing_shards, *text.missing_shards}))
    timings = {
        **{m: ms for a in (structural, text) for m, ms in a.timings.items() if m.startswith("modality:")},
        **stage_ms,
        "total": (time.perf_counter() - t0) * 1000,
    }
    metrics.observe(mine.intent, mine.strategy, timings, bool(missing))
    return Answer(
        intent=mine.intent,
        confidence=mine.confidence,
        fusion_strategy=mine.strategy,
        preset=mine.preset.name,
        partial=bool(missing),
        missing_shards=missing,
        hits=hits,
        total_candidates=len(ordered),
        timings=timings,
        generation=structural.generation,
        notes=tidy_notes(notes, p.query),
        weights=mine.weights,
        confidences=tuple(confidences[: p.k]),
    )
