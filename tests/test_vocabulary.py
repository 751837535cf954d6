"""The intent classifier and the graph's query parser read one vocabulary, so they agree on every form."""

from __future__ import annotations

import pytest

from fourfold.coordinator.intent import classify, classify_rules
from fourfold.plugins.graph.query import parse_query
from fourfold.plugins.vocabulary import asks_for_callees

AGREE = [
    # what it calls (the graph's callees; three sets of phrasings written apart, docs/quality.md)
    ("what does parse_config call", "find_references", "callees"),
    ("what does `parse_config` end up invoking", "find_references", "callees"),
    ("which functions are called by parse_config", "find_references", "callees"),
    ("which methods does parse_config invoke?", "find_references", "callees"),
    ("callees of parse_config", "find_references", "callees"),
    ("callees: parse_config", "find_references", "callees"),
    ("what do parse_config's callees look like", "find_references", "callees"),
    ("the call graph below parse_config", "find_references", "callees"),
    ("what does parse_config depend on internally", "find_references", "callees"),
    ("show calls made from within parse_config", "find_references", "callees"),
    ("everything parse_config calls", "find_references", "callees"),
    ("what is parse_config calling", "find_references", "callees"),
    ("inside parse_config, which functions are called", "find_references", "callees"),
    ("who calls parse_config", "find_references", "callers"),
    ("who invokes parse_config", "find_references", "callers"),
    ("what calls parse_config", "find_references", "callers"),
    ("call sites of parse_config", "find_references", "callers"),
    ("callers for parse_config", "find_references", "callers"),
    ("invocations of parse_config", "find_references", "callers"),
    ("usages of parse_config", "find_references", "references"),
    ("uses of parse_config", "find_references", "references"),
    ("what imports parse_config", "find_references", "references"),
    ("modules importing from parse_config", "find_references", "references"),
    ("files that import parse_config", "find_references", "references"),
    ("does anything still read parse_config or can i stop worrying", "find_references", "references"),
    ("is anything else still using parse_config", "find_references", "references"),
    ("impact of changing parse_config", "impact_analysis", "impact"),
    ("ripple effect of parse_config", "impact_analysis", "impact"),
    ("blast radius of parse_config", "impact_analysis", "impact"),
    ("who depends on parse_config", "impact_analysis", "impact"),
    ("what depends on parse_config", "impact_analysis", "impact"),
    ("dependents of parse_config", "impact_analysis", "impact"),
    ("who implements parse_config", "find_references", "implementations"),
    ("which structs satisfy parse_config", "find_references", "implementations"),
    ("which classes extend parse_config", "find_references", "implementations"),
    ("subclasses of parse_config", "find_references", "implementations"),
    ("implementors of parse_config", "find_references", "implementations"),
    ("types implementing parse_config", "find_references", "implementations"),
    ("classes that inherit from parse_config", "find_references", "implementations"),
    ("whats implementing parse_config rn", "find_references", "implementations"),
    ("who is extending parse_config these days", "find_references", "implementations"),
    ("Java: who `extends parse_config`? the whole subclass tree", "find_references", "implementations"),
    ("every class declared with `implements parse_config` under src/", "find_references", "implementations"),
    ("C#: types with `: parse_config` in their declaration", "find_references", "implementations"),
    ("structs having `impl parse_config for` blocks", "find_references", "implementations"),
    # a name, then what is asked of it: an IDE's and an agent's terse form
    ("parse_config callers", "find_references", "callers"),
    ("`parse_config` call sites?", "find_references", "callers"),
    ("parse_config usages", "find_references", "references"),
    ("parse_config refs", "find_references", "references"),
    ("parse_config callees", "find_references", "callees"),
    ("parse_config dependents", "impact_analysis", "impact"),
    # an editor's command: where it is defined
    ("parse_config definition", "find_definition", "definition"),
    ("go to parse_config", "find_definition", "definition"),
    ("jump to the definition of `parse_config`", "find_definition", "definition"),
]


@pytest.mark.parametrize(
    "query",
    [
        "what extends the lifetime of a lease",
        "alternative implementations of parse_config",
        "who implements this?",
        "grep `implements parse_config` in the vendored code",  # a quote asked for as it is, not "with" it
        "files with `impl parse_config` in them",  # an inherent impl block, no trait: not a relation
    ],
)
def test_an_implements_phrase_before_prose_is_no_question_about_types(query: str) -> None:
    assert classify_rules(query).rule != "implements-phrase"
    # "who implements this?" names nothing: the learned layer may guess references (0.46), which the engine
    # answers "names no code"; a quote asked for as it is may be read as references by the model, as it reads it
    if query.startswith(("what extends", "alternative")):
        assert classify(query).intent != "find_references"


@pytest.mark.parametrize(("query", "intent", "relation"), AGREE)
def test_classifier_and_graph_parser_agree(query: str, intent: str, relation: str) -> None:
    assert classify(query).intent == intent
    question = parse_query(query, intent, {})
    assert question is not None
    assert (question.relation, question.symbol) == (relation, "parse_config")


@pytest.mark.parametrize("query", ["memory usages", "cpu uses?", "the parse_config usages in this file", "usages"])
def test_a_measure_or_a_longer_question_is_no_name_then_noun(query: str) -> None:
    """A resource's usage is a measure; a name and a noun inside a longer question is the learned layer's."""
    assert not classify_rules(query).rule.startswith("name-then")
    if query.startswith(("memory", "cpu")):
        assert parse_query(query, "find_references", {}) is None
    assert not asks_for_callees(query)
    assert asks_for_callees("parse_config callees") and asks_for_callees("`Session.send` callees?")


def test_an_editors_command_is_a_sure_definition_question() -> None:
    """The learned layer read "go to lock" as a question about locking and hedged "Slug definition" as prose."""
    for query in ("go to lock", "Slug definition", "goto Session.send", "parse_config def"):
        c = classify(query)
        assert (c.intent, c.confidence, c.rule) == ("find_definition", 0.85, "definition-command"), query
    assert classify("usages: Definition").intent == "find_references"  # a label, then a word


def test_a_callee_question_may_name_a_destructor() -> None:
    """A question asking what C++'s destructor ``~DFA`` calls ("what does ~DFA invoke") is read so by the rule and
    by the graph's parser alike (it was read as prose, and fused)."""
    for query in ("what does ~DFA invoke", "functions called by ~PosixMmapReadableFile"):
        assert classify(query).intent == "find_references"
        question = parse_query(query, "find_references", {})
        assert question is not None and question.relation == "callees" and question.symbol.startswith("~")


@pytest.mark.parametrize(
    "query",
    [
        "what code calls into parse_config",  # its callers
        "what else do I have to touch when I change parse_config",  # its impact
        "sequence of steps the system goes through when a first officer calls in sick",
        "search for every block that does what the code below does",
    ],
)
def test_a_callee_phrase_needs_its_name_where_a_name_stands(query: str) -> None:
    """Near misses of the callee phrases (from the routing sets): none asks what a name calls."""
    assert not asks_for_callees(query)
    assert classify(query).rule != "callees-phrase"
