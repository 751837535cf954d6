"""Table-driven tests of the intent classifier: every rule and confidence of the architecture page."""

from __future__ import annotations

import pytest

from fourfold.coordinator.intent import classify

CASES = [
    # definition keywords, 0.95
    ("def parse_config", "find_definition", 0.95, "definition-keyword"),
    ("class Session", "find_definition", 0.95, "definition-keyword"),
    ("func ServeHTTP", "find_definition", 0.95, "definition-keyword"),
    ("import requests.adapters", "find_definition", 0.95, "definition-keyword"),
    ("fn main", "find_definition", 0.95, "definition-keyword"),
    ("interface Handler", "find_definition", 0.95, "definition-keyword"),
    # references, 0.90
    ("who calls retry_request", "find_references", 0.90, "references-phrase"),
    ("usages of Session.send", "find_references", 0.90, "references-phrase"),
    ("references to parseConfig", "find_references", 0.90, "references-phrase"),
    ("callers of make_context", "find_references", 0.90, "references-phrase"),
    ("where is get_current_context used", "find_references", 0.90, "references-phrase"),
    # impact, 0.90
    ("impact of changing Context.JSON", "impact_analysis", 0.90, "impact-phrase"),
    ("blast radius of Session.send", "impact_analysis", 0.90, "impact-phrase"),
    ("what depends on parse_config", "impact_analysis", 0.90, "impact-phrase"),
    ("what breaks if I change Session.send", "impact_analysis", 0.90, "impact-phrase"),
    # exact match: quoted 0.90, error token 0.85
    ('"ECONNREFUSED"', "exact_match", 0.90, "quoted-string"),
    ("'connection reset by peer'", "exact_match", 0.90, "quoted-string"),
    ("Traceback most recent call last", "exact_match", 0.85, "error-token"),
    ("ECONNREFUSED", "exact_match", 0.85, "error-token"),
    ("KeyError in the config loader", "exact_match", 0.85, "error-token"),
    # find_similar
    ("similar to make_context", "find_similar", 0.80, "similar-phrase"),
    ("for x in items:\n    total += price(x);", "find_similar", 0.75, "code-shape"),
    ("if (err != nil) { return err; }", "find_similar", 0.75, "code-shape"),
    # identifiers: lone 0.80, inside words 0.60
    ("parseConfig", "find_definition", 0.80, "lone-identifier"),
    ("parse_config", "find_definition", 0.80, "lone-identifier"),
    ("Session.send", "find_definition", 0.80, "lone-identifier"),
    ("HTTPServer", "find_definition", 0.80, "lone-identifier"),
    ("where is parseConfig defined", "find_definition", 0.60, "inner-identifier"),
    ("the retry_request helper", "find_definition", 0.60, "inner-identifier"),
    # understand, 0.75; fallback 0.40
    ("how does authentication work", "understand_code", 0.75, "understand-phrase"),
    ("why are sessions pooled", "understand_code", 0.75, "understand-phrase"),
    ("explain the request lifecycle", "understand_code", 0.75, "understand-phrase"),
    ("architecture overview", "understand_code", 0.75, "understand-phrase"),
    ("split a string into lines", "understand_code", 0.40, "fallback"),
    ("session", "understand_code", 0.40, "fallback"),
]


@pytest.mark.parametrize(("query", "intent", "confidence", "rule"), CASES)
def test_rule_table(query: str, intent: str, confidence: float, rule: str) -> None:
    c = classify(query)
    assert (c.intent, c.confidence, c.rule) == (intent, confidence, rule)


def test_first_match_wins() -> None:
    # a definition keyword beats the quoted string that follows it
    assert classify('class Foo "bar"').intent == "find_definition"
    # a references phrase beats an identifier
    assert classify("who calls parse_config").intent == "find_references"


def test_plugin_rules_come_after_keywords_and_before_identifiers() -> None:
    import re

    from fourfold.coordinator.intent import IntentRule

    history = IntentRule("plugin:history", "history", 0.8, re.compile(r"\bwhen was\b", re.IGNORECASE))
    assert classify("when was parse_config changed", [history]).intent == "history"
    assert classify("who calls parse_config", [history]).intent == "find_references"


@pytest.mark.parametrize(
    "query",
    [
        "callers of parse_config",
        "what breaks if I change Session",
        "who uses HTTPServer",
        "where is `retry` used",
        "who calls 'retry'",
        "what depends on client.send",
        "callers of send()",
        "impact of Foo::bar",
    ],
)
def test_a_query_that_names_code_says_so(query: str) -> None:
    from fourfold.coordinator.intent import names_code

    assert names_code(query)


@pytest.mark.parametrize(
    "query",
    [
        "python change encoding stdout",
        "how does the code call all callbacks registered",
        "who calls retry",  # a lone word: only the index knows it is a name (identifier.py)
        "I think the ordering of results is off",
        "which part reads and give back the call content",
    ],
)
def test_a_query_of_plain_words_names_no_code(query: str) -> None:
    from fourfold.coordinator.intent import names_code

    assert not names_code(query)


def test_a_member_of_an_error_class_names_code_not_an_error() -> None:
    """``FourfoldError.default_profiles`` is a method, asked about like any other; the error name alone,
    or at a sentence's end, is still an error search."""
    from fourfold.coordinator.intent import classify_rules

    assert classify_rules("what depends on FourfoldError.default_profiles").rule == "impact-phrase"
    assert classify_rules("callers of ConfigError.from_path").rule != "error-token"
    assert classify_rules("the loader raised KeyError.").rule == "error-token"
    assert classify_rules("errno.ENOENT when opening the index").rule == "error-token"


@pytest.mark.parametrize(
    "query",
    [
        "python get memory usage of an object",
        "get the memory usage of a process",
        "cpu usage of a process python",
        "find the usage of disk space python??",
    ],
)
def test_a_resources_usage_is_a_measure_not_references(query: str) -> None:
    """ "memory usage of X" asks how to measure something, not where code is used; "usages of X" still is."""
    assert classify(query).intent == "understand_code"
    assert classify("usage of Session.send").intent == "find_references"
