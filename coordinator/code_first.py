"""Implementing code before its documentation, tests, examples and benchmarks, unless the query asks for them.

A question such as "how does routing work" is answered best by the code that routes; the guide that
describes routing, the test that exercises it and the benchmark that times it share its words and
crowd it out. Fusion multiplies the score of such a *secondary* file by ``SECONDARY`` (like the
vendored-path demotion), kind by kind, and leaves a kind alone when the query names it: "where are
the tests for the router" still lists tests first, "routing docs" the documentation.

    kinds = demoted_kinds("how does routing work")      # every kind: docs, tests, examples, benchmarks
    secondary_kind("docs/routing.md")                    # "docs"

Only the prose intents use it (``INTENTS``): a reference or a dependent in a test is an answer in its
own right, and an exact string is wanted wherever it is. Those are ordered more gently: among uses of equal
evidence the graph lists the shipped code's first (``plugins.types.CODE_FIRST_OPTION``), and the fused answer keeps
that order (``shipped_first``), unless the question asks for such files (``asks_for_auxiliary``: "which tests
call X").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from fourfold.api import FusedHit
from fourfold.plugins.paths import is_auxiliary
from fourfold.plugins.types import CODE_FIRST_OPTION

__all__ = [
    "INTENTS",
    "KINDS",
    "OPTION",
    "RELATION_INTENTS",
    "SECONDARY",
    "asked_first",
    "asked_kinds",
    "asks_for_auxiliary",
    "auxiliary_asked",
    "demoted_kinds",
    "secondary_kind",
    "shipped_first",
]

#: Score multiplier of a secondary file the query did not ask for (measured in docs/quality.md).
SECONDARY = 0.3

#: The intents whose fused answers prefer implementing code.
INTENTS = frozenset({"understand_code", "find_similar"})
#: The intents that list the uses of a name: their answers keep the shipped code's before the tests' where the
#: modality that finds uses ranked it so (``shipped_first``).
RELATION_INTENTS = frozenset({"find_references", "impact_analysis"})

#: ``options[OPTION] = "off"`` answers without the preference (for comparisons), the graph's order among equal
#: evidence included.
OPTION = CODE_FIRST_OPTION

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

#: "usages" asks for examples in prose ("usage examples"), and names the uses themselves in a relation ("usages of X").
_USAGES = re.compile(r"\busages?\b", re.IGNORECASE)


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


def auxiliary_asked(query: str) -> frozenset[str]:
    """The secondary kinds a question of who uses a name asks for ("which tests call X": tests; "what examples use
    X": examples); its "usages" are the uses it asks for ("show usages of X": none)."""
    return asked_kinds(_USAGES.sub(" ", query))


def asks_for_auxiliary(query: str) -> bool:
    """Whether a question of who uses a name asks for its tests, examples, documentation or benchmarks."""
    return bool(auxiliary_asked(query))


def asked_first(fused: Sequence[FusedHit], kinds: frozenset[str]) -> list[FusedHit]:
    """``fused`` with the hits in files of the ``kinds`` asked for first ("which tests call X": the tests that call
    it, then the shipped code's callers), each group in its order; a hit moved down keeps no score above the one
    before it."""
    if not kinds:  # every relation question passes here: most ask for no kind
        return list(fused)
    wanted = [secondary_kind(f.hit.path) in kinds for f in fused]
    if all(wanted) or not any(wanted):
        return list(fused)
    out = [f for f, w in zip(fused, wanted, strict=True) if w]
    for f, w in zip(fused, wanted, strict=True):
        if not w:
            out.append(replace(f, score=min(f.score, out[-1].score)))
    return out


def shipped_first(fused: Sequence[FusedHit], modality: str) -> list[FusedHit]:
    """``fused`` with no hit of a test, an example, documentation or a script (``paths.is_auxiliary``) above a hit
    of the shipped code that ``modality`` (the graph, for who uses a name) ranked before it. The graph lists the
    shipped code's uses first among equal evidence; text's word counts (a test names what it calls again and again)
    must not undo that in the fused answer: "who calls segment_file" is answered by the indexer that calls it, then
    by the tests' helpers. A test the graph ranked first (the only certain caller) stays first. A held hit goes
    right after the last shipped hit that held it, its score capped at the one above it; any other order stands."""
    ranks = {i: f.modalities[modality].rank for i, f in enumerate(fused) if modality in f.modalities}
    auxiliary = [is_auxiliary(f.hit.path) for f in fused]
    shipped = sorted(r for i, r in ranks.items() if not auxiliary[i])  # the shipped ranks not yet placed
    if not shipped or not any(auxiliary):
        return list(fused)

    def held(i: int) -> bool:
        return auxiliary[i] and i in ranks and bool(shipped) and shipped[0] < ranks[i]

    out: list[FusedHit] = []
    waiting: list[int] = []
    for i, f in enumerate(fused):
        if held(i):
            waiting.append(i)
            continue
        out.append(f)
        if not auxiliary[i] and i in ranks:
            shipped.remove(ranks[i])
            free = [j for j in waiting if not held(j)]
            waiting = [j for j in waiting if held(j)]
            for j in free:
                out.append(replace(fused[j], score=min(fused[j].score, out[-1].score)))
    out.extend(replace(fused[j], score=min(fused[j].score, out[-1].score)) for j in waiting)
    return out
