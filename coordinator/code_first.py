"""Implementing code before its documentation, tests, examples and benchmarks, unless the query asks for them.

A question such as "how does routing work" is answered best by the code that routes; the guide that
describes routing, the test that exercises it and the benchmark that times it share its words and
crowd it out. Fusion multiplies the score of such a *secondary* file by ``SECONDARY`` (like the
vendored-path demotion), kind by kind, and leaves a kind alone when the query names it: "where are
the tests for the router" still lists tests first, "routing docs" the documentation.

    kinds = demoted_kinds("how does routing work")      # every kind: docs, tests, examples, benchmarks
    secondary_kind("docs/routing.md")                    # "docs"

Only the prose intents use it (``INTENTS``): a reference or a dependent in a test is an answer in its
own right, and an exact string is wanted wherever it is.
"""

from __future__ import annotations

import re

__all__ = ["INTENTS", "KINDS", "OPTION", "SECONDARY", "asked_kinds", "demoted_kinds", "secondary_kind"]

#: Score multiplier of a secondary file the query did not ask for (measured in docs/quality.md).
SECONDARY = 0.3

#: The intents whose fused answers prefer implementing code.
INTENTS = frozenset({"understand_code", "find_similar"})

#: ``options[OPTION] = "off"`` answers without the preference (for comparisons).
OPTION = "code_first"

_PATHS: dict[str, re.Pattern[str]] = {
    "docs": re.compile(
        r"(?:^|/)(?:docs?|documentation|man|website)/|\.(?:md|markdown|rst|txt|adoc|asciidoc|rdoc|texi)$"
        r"|(?:^|/)(?:README|CHANGES|CHANGELOG|HISTORY|NEWS|CONTRIBUTING|AUTHORS|CITATION|PKG-INFO)(?:\.[^/]*)?$"
        # a licence's text, however it is named (Rust crates ship LICENSE-APACHE and LICENSE-MIT), in capitals
        # or capitalised without an extension as such files are (``license.rs`` and ``Notice.java`` are code)
        r"|(?:^|/)(?-i:(?:UN)?(?:LICEN[CS]E|COPYING|COPYRIGHT|NOTICE)(?:[-_.][^/]*)?|(?:Un)?(?:Licen[cs]e|Copying|Notice))$"
        r"|(?:^|/)licen[cs]e$"
        r"|\.egg-info/",
        re.IGNORECASE,
    ),
    "tests": re.compile(
        r"(?:^|/)(?:tests?|testing|__tests__|spec|specs|testdata|fixtures)/|(?:^|/)(?:test_[^/]*|conftest\.py)$"
        r"|(?:_test|_spec|\.test|\.spec|Test|Tests)\.[A-Za-z]+$",
    ),
    "examples": re.compile(r"(?:^|/)(?:examples?|samples?|demos?|_examples|example_\w+)/", re.IGNORECASE),
    # a benchmark's code and what it measured (``bench-results/``: a JSON file of the questions it asked shares every
    # word of a how-to question)
    "benchmarks": re.compile(
        r"(?:^|/)(?:benchmarks?|bench|perf|asv_bench|bench[-_]results?|benchmark[-_]results?)/"
        r"|(?:^|/)bench_[^/]*$|_bench\.\w+$"
    ),
}

#: Words that ask for a kind. "test files", "test discovery", "testing" and "fixtures" name a test runner's
#: own subject (its implementing code), not a request for the project's tests.
_ASKS: dict[str, re.Pattern[str]] = {
    "docs": re.compile(
        r"\b(?:docs?|documentation|documented|readme|guide|tutorial|manual|changelog|release notes)\b", re.IGNORECASE
    ),
    "tests": re.compile(
        r"\b(?:tests|tested|unit ?tests?|test (?:for|of|that|which|cases?|suites?)|conftest)\b",
        re.IGNORECASE,
    ),
    "examples": re.compile(r"\b(?:examples?|samples?|demos?|usages?|snippets?)\b", re.IGNORECASE),
    "benchmarks": re.compile(r"\b(?:bench(?:mark)?s?|benchmarking|benchmarked|perf tests?)\b", re.IGNORECASE),
}

KINDS = frozenset(_PATHS)


def secondary_kind(path: str) -> str | None:
    """The kind of secondary file ``path`` is (``docs``, ``tests``, ``examples``, ``benchmarks``), else None."""
    for kind, pattern in _PATHS.items():
        if pattern.search(path):
            return kind
    return None


def asked_kinds(query: str) -> frozenset[str]:
    """The secondary kinds ``query`` asks for by name."""
    return frozenset(kind for kind, pattern in _ASKS.items() if pattern.search(query))


def demoted_kinds(query: str) -> frozenset[str]:
    """The secondary kinds to demote for ``query``: every kind it does not ask for."""
    return KINDS - asked_kinds(query)
