"""Implementing code before documentation, tests, examples and benchmarks; z-score fusion; the default profile.

Unit tests of the path kinds, the query words and the fusion arithmetic, then the whole engine in
process on a real index (text, structural and graph shards on disk): "how does routing work"
answers with the router, not the guide, the test or the benchmark that mention routing more often.
"""

from __future__ import annotations

import asyncio
import math

import pytest

from fourfold.api import Answer, FusedHit, ModalityRank, SearchParams
from fourfold.coordinator import code_first
from fourfold.coordinator.code_first import SECONDARY, asked_kinds, demoted_kinds, secondary_kind
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.fusion import fuse, zscores
from fourfold.coordinator.profiles import (
    DEFAULT_PROFILE,
    centrality_scale,
    default_profiles,
    fitted_profiles,
    fusion_method,
    select_profiles,
)
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins.types import Hit


def hit(seg: str, path: str, score: float = 0.0, centrality: float = 0.0) -> Hit:
    return Hit(seg, "r", path, 1, 5, score, centrality=centrality)


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("docs/routing.md", "docs"),
        ("doc/api.rst", "docs"),
        ("README.md", "docs"),
        ("pkg/CHANGES.rst", "docs"),
        ("notes.txt", "docs"),
        ("PKG-INFO", "docs"),
        ("LICENSE", "docs"),
        ("LICENSE-APACHE", "docs"),
        ("vendor/x/LICENSE_MIT.txt", "docs"),
        ("COPYING.LESSER", "docs"),
        ("NOTICE", "docs"),
        ("UNLICENSE", "docs"),
        ("src/license.rs", None),  # code about licences is code
        ("src/Notice.java", None),
        ("pkg/notices.go", None),
        ("src/pkg.egg-info/SOURCES.txt", "docs"),
        ("tests/test_router.py", "tests"),
        ("testing/python/collect.py", "tests"),
        ("src/app/test_helpers.py", "tests"),
        ("router_test.go", "tests"),
        ("lib/router.test.js", "tests"),
        ("src/test/java/RouterTest.java", "tests"),
        ("examples/basic/main.go", "examples"),
        ("benchmarks/bench_router.py", "benchmarks"),
        ("bench/route.go", "benchmarks"),
        ("tree_bench.go", "benchmarks"),
        ("bench-results/fusion_check.json", "benchmarks"),  # what a benchmark measured
        ("router.go", None),
        ("src/benchmarking.py", None),
        ("src/_pytest/python.py", None),
        ("src/click/testing.py", None),  # a module about testing is implementing code
        ("httpx/_models.py", None),
        ("lib/latest/contest.py", None),
    ],
)
def test_secondary_kinds_of_paths(path: str, kind: str | None) -> None:
    assert secondary_kind(path) == kind


@pytest.mark.parametrize(
    ("query", "asked"),
    [
        ("how does routing work", set()),
        ("how does pytest discover test files", set()),  # the subject, not a request for tests
        ("how are fixtures resolved", set()),
        ("how does the testing runner isolate the environment", set()),
        ("routing docs", {"docs"}),
        ("where is the documentation of the router", {"docs"}),
        ("where are the tests for the router", {"tests"}),
        ("unit test of parse_config", {"tests"}),
        ("an example of a middleware", {"examples"}),
        ("benchmark for json encoding", {"benchmarks"}),
        ("readme and examples", {"docs", "examples"}),
    ],
)
def test_words_that_ask_for_a_secondary_kind(query: str, asked: set[str]) -> None:
    assert asked_kinds(query) == frozenset(asked)
    assert demoted_kinds(query) == code_first.KINDS - frozenset(asked)


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("who calls segment_file", False),
        ("what breaks if I change Session.send", False),
        ("show usages of parse_config", False),  # the uses themselves, not examples
        ("which tests call segment_file", True),
        ("where is retry used in tests", True),
        ("find usage examples of parse", True),
        ("which benchmarks use encode", True),
    ],
)
def test_a_question_of_who_uses_a_name_may_ask_for_the_tests(query: str, asks: bool) -> None:
    assert code_first.asks_for_auxiliary(query) is asks


def fused_hit(seg: str, path: str, score: float, graph: int | None) -> FusedHit:
    ranks = {"text": ModalityRank(2, 0.001, 3.0)}
    if graph is not None:
        ranks["graph"] = ModalityRank(graph, 0.001, 1.0)
    return FusedHit(hit(seg, path), score, ranks)


def test_the_kind_asked_for_comes_first() -> None:
    fused = [
        fused_hit("a", "src/app.py", 0.9, 0),
        fused_hit("b", "tests/test_app.py", 0.5, 1),
        fused_hit("c", "src/cli.py", 0.4, 2),
        fused_hit("d", "tests/test_cli.py", 0.3, 3),
    ]
    out = code_first.asked_first(fused, frozenset({"tests"}))
    assert [f.hit.segment_id for f in out] == ["b", "d", "a", "c"]
    assert [f.score for f in out] == [0.5, 0.3, 0.3, 0.3]
    assert code_first.asked_first(fused, frozenset()) == fused
    assert code_first.auxiliary_asked("which tests call segment_file") == {"tests"}
    assert code_first.auxiliary_asked("show usages of parse_config") == frozenset()


def test_the_uses_keep_the_shipped_code_the_graph_ranked_first_before_the_tests() -> None:
    """Text's word counts put a test's helper above the shipped caller the graph ranked before it: the helper goes
    right after that caller, its score capped there. A test the graph ranked first, a test the graph did not list
    and code only text found stay where fusion put them."""
    fused = [
        fused_hit("T0", "tests/test_b.py", 0.020, graph=0),  # the graph's first: the only certain caller
        fused_hit("T1", "tests/test_a.py", 0.012, graph=4),
        fused_hit("C1", "app/x.py", 0.011, graph=1),
        fused_hit("X", "app/y.py", 0.009, graph=None),
        fused_hit("T2", "tests/test_c.py", 0.0085, graph=None),
        fused_hit("T3", "tests/test_d.py", 0.0084, graph=7),
        fused_hit("C2", "app/z.py", 0.008, graph=6),
    ]
    out = code_first.shipped_first(fused, "graph")
    assert [f.hit.segment_id for f in out] == ["T0", "C1", "T1", "X", "T2", "C2", "T3"]
    scores = [f.score for f in out]
    assert scores == sorted(scores, reverse=True) and scores[2] == 0.011 and scores[-1] == 0.008
    assert code_first.shipped_first(fused[:2], "graph") == fused[:2]  # no shipped code: as fused
    assert code_first.shipped_first(fused, "structural") == fused  # listed by no modality named


def test_a_secondary_file_is_demoted_unless_its_kind_is_asked_for() -> None:
    ranked = {"text": [hit("D", "docs/routing.md"), hit("C", "router.py"), hit("T", "tests/test_router.py")]}
    plain = fuse(ranked, {"text": 1.0}, 40)
    assert [f.hit.segment_id for f in plain] == ["D", "C", "T"] and not any(f.demoted for f in plain)
    demoted = fuse(ranked, {"text": 1.0}, 40, demote_kinds=demoted_kinds("how does routing work"))
    assert [f.hit.segment_id for f in demoted] == ["C", "D", "T"]
    by_id = {f.hit.segment_id: f for f in demoted}
    assert by_id["D"].demoted and by_id["T"].demoted and not by_id["C"].demoted
    assert by_id["D"].score == pytest.approx(SECONDARY / 41)
    asked = fuse(ranked, {"text": 1.0}, 40, demote_kinds=demoted_kinds("routing docs"))
    assert [f.hit.segment_id for f in asked] == ["D", "C", "T"]  # docs asked for: only the test is demoted


def test_zscores() -> None:
    assert zscores([]) == []
    assert zscores([hit("A", "a.py", 3.0)]) == [1.0]  # one hit: a match, nothing to compare it with
    assert zscores([hit("A", "a.py", 2.0), hit("B", "b.py", 2.0)]) == [1.0, 1.0]
    z = zscores([hit("A", "a.py", 3.0), hit("B", "b.py", 1.0)])
    assert z == pytest.approx([1.0, -1.0])


def test_zscore_fusion_follows_the_modality_whose_top_stands_out() -> None:
    # semantic barely prefers A; text's B stands far above the rest of its list
    ranked = {
        "semantic": [hit("A", "a.py", 0.71), hit("B", "b.py", 0.70), hit("C", "c.py", 0.69), hit("E", "e.py", 0.40)],
        "text": [hit("B", "b.py", 40.0), hit("A", "a.py", 5.0), hit("C", "c.py", 4.5), hit("E", "e.py", 4.0)],
    }
    weights = {"semantic": 0.6, "text": 0.4}
    rrf = fuse(ranked, weights, 40, use_centrality=False)
    assert rrf[0].hit.segment_id == "A"  # ranks only: semantic's weight wins
    zs = fuse(ranked, weights, 40, use_centrality=False, method="zscore")
    assert zs[0].hit.segment_id == "B"
    b = zs[0]
    assert b.score == pytest.approx(math.exp(sum(r.contribution for r in b.modalities.values())))
    with pytest.raises(ValueError, match="unknown fusion method 'combmnz'"):
        fuse(ranked, weights, 40, method="combmnz")


def test_zscore_fusion_keeps_one_modality_s_order_and_demotes() -> None:
    ranked = {"semantic": [hit("D", "docs/a.md", 0.9), hit("C", "c.py", 0.8), hit("E", "e.py", 0.1)]}
    order = fuse(ranked, {"semantic": 1.0}, 40, use_centrality=False, method="zscore")
    assert [f.hit.segment_id for f in order] == ["D", "C", "E"]
    demoted = fuse(ranked, {"semantic": 1.0}, 40, use_centrality=False, method="zscore", demote_kinds={"docs"})
    assert [f.hit.segment_id for f in demoted] == ["C", "D", "E"]


# -- profiles -------------------------------------------------------------------------------------


def test_the_fitted_profiles_are_the_default_and_hand_stays_reachable() -> None:
    hand = default_profiles()
    assert DEFAULT_PROFILE == "fitted"
    assert select_profiles("", hand) == select_profiles("fitted", hand) == {**hand, **fitted_profiles()}
    assert select_profiles("hand", hand) is hand
    for intent in hand:
        assert centrality_scale("", intent) == centrality_scale("fitted", intent)
        assert fusion_method("", intent) == fusion_method("fitted", intent)
        assert centrality_scale("hand", intent) == 1.0 and fusion_method("hand", intent) == "rrf"
    assert fusion_method("", "understand_code") == "zscore"  # measured better on prose (docs/quality.md)


def test_a_plugin_s_changes_to_a_profile_survive_the_fitted_default() -> None:
    hand = default_profiles()
    hand["understand_code"]["todo"] = 0.05  # a plugin's modality joins a built-in intent
    hand["find_references"]["graph"] = 0.9  # a plugin re-weights a built-in modality
    hand["triage"] = {"text": 1.0}  # a plugin's own intent
    chosen = select_profiles("", hand)
    assert chosen["understand_code"] == {**fitted_profiles()["understand_code"], "todo": 0.05}
    assert chosen["find_references"] is hand["find_references"]
    assert chosen["triage"] == {"text": 1.0}
    assert chosen["find_definition"] == fitted_profiles()["find_definition"]


# -- end to end: a real index, the engine in process ------------------------------------------------

ROUTER = '''"""The router."""


def match_route(routes, path):
    """Routing: walk the route table and pick the handler whose pattern fits the path."""
    for pattern, handler in routes:
        if pattern == path:
            return handler
    return None
'''

GUIDE = """# Routing

Routing maps a path to a handler. Routing is configured with a table; routing tries each route in
order, and routing stops at the first route that fits. See the routing tests for routing examples.
"""

TEST = '''from router import match_route


def test_routing_picks_the_route():
    """Routing: routing a path to its route."""
    assert match_route([("/a", 1)], "/a") == 1  # routing works
'''

APP = "from router import match_route\n\n\ndef dispatch(table, path):\n    return match_route(table, path)\n"

BENCH = '''from router import match_route


def bench_routing():
    """Time routing: routing a path through a long route table."""
    routes = [(f"/r{i}", i) for i in range(1000)]  # routing worst case
    return match_route(routes, "/r999")
'''


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> IndexStore:
    base = tmp_path_factory.mktemp("code-first")
    repo = base / "web"
    for rel, text in {
        "router.py": ROUTER,
        "app.py": APP,
        "docs/routing.md": GUIDE,
        "tests/test_router.py": TEST,
        "benchmarks/bench_router.py": BENCH,
    }.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    home = base / "home"
    build_generation(IndexStore(home), [(repo, "web")], modalities=["text", "structural", "graph"])
    return IndexStore(home)


def search(store: IndexStore, p: SearchParams) -> Answer:
    async def run() -> Answer:
        engine = Engine(store)
        try:
            return await engine.search(p)
        finally:
            await engine.stop()

    return asyncio.run(run())


def paths(a: Answer) -> list[str]:
    return [f.hit.path for f in a.hits]


def test_a_how_question_is_answered_by_the_implementing_code(store: IndexStore) -> None:
    off = search(store, SearchParams("how does routing work", k=10, options={code_first.OPTION: "off"}))
    assert off.intent == "understand_code" and off.fusion_strategy == "fused"
    assert paths(off)[0] != "router.py"  # the pages that say "routing" most come first without the preference
    assert not any(f.demoted for f in off.hits)
    on = search(store, SearchParams("how does routing work", k=10))
    assert paths(on)[0] == "router.py", paths(on)
    assert {f.hit.path for f in on.hits if f.demoted} == set(paths(on)) - {"router.py"}


def test_a_question_that_asks_for_docs_or_tests_gets_them(store: IndexStore) -> None:
    docs = search(store, SearchParams("routing docs: how is routing configured", k=10))
    assert docs.intent == "understand_code"
    assert not next(f for f in docs.hits if f.hit.path == "docs/routing.md").demoted
    assert next(f for f in docs.hits if f.hit.path == "tests/test_router.py").demoted
    tests = search(store, SearchParams("where are the tests for routing", k=10))
    if tests.intent in code_first.INTENTS:
        assert not next(f for f in tests.hits if f.hit.path == "tests/test_router.py").demoted
    else:  # read as another intent (references...): no demotion at all there
        assert not any(f.demoted for f in tests.hits)


def test_references_keep_their_tests(store: IndexStore) -> None:
    a = search(store, SearchParams("who calls match_route", k=10))
    assert a.intent == "find_references"
    assert "tests/test_router.py" in paths(a) and not any(f.demoted for f in a.hits)


def test_which_tests_call_a_name_is_answered_by_the_tests_first(store: IndexStore) -> None:
    """The tests asked for come before the shipped code's callers, then the others; no score rises down the list.
    ``code_first=off`` keeps the answer's own order."""
    a = search(store, SearchParams("which tests call match_route", k=10))
    assert a.intent == "find_references"
    assert paths(a)[0] == "tests/test_router.py" and "app.py" in paths(a), paths(a)
    assert [f.score for f in a.hits] == sorted((f.score for f in a.hits), reverse=True)
    off = search(store, SearchParams("which tests call match_route", k=10, options={code_first.OPTION: "off"}))
    assert paths(off)[0] == "app.py", paths(off)
    assert paths(search(store, SearchParams("who calls match_route", k=10)))[0] == "app.py"


def test_the_hand_profile_is_asked_by_name(store: IndexStore) -> None:
    hand = search(store, SearchParams("how does routing work", k=10, options={"profile": "hand"}))
    fitted = search(store, SearchParams("how does routing work", k=10))
    assert hand.weights != fitted.weights
    assert fitted.weights == {m: w for m, w in fitted_profiles()["understand_code"].items() if m in fitted.weights}
