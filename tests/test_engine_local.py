"""The whole engine without Ray: routing, ACL filtering, follow-up rounds, fusion and partial answers,
over shards loaded in this process (``LocalSearcher``) from a real index of three repositories.

The same engine code runs in a cluster with ``WorkerSearcher`` (tests/test_cluster.py,
tests/test_auth_acl.py and tests/test_graph_partitions.py cover that path through Ray and gRPC).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from inprocess import search_once as search

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine, missing_notes
from fourfold.coordinator.profiles import select_profiles, top_modalities
from fourfold.coordinator.searcher import LocalSearcher, ShardAnswer, ShardKey
from fourfold.errors import InvalidQuery, PermissionDenied, UnknownRepository
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins.types import ModalityQuery, ShardResult

FIXTURE = Path(__file__).parent / "fixtures" / "graph_multi"
REPOS = ("alpha", "beta", "gamma")
MODALITIES = ["text", "structural", "graph"]  # the semantic modality has its own tests; a model here is slow


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("engine-local") / "home"
    build_generation(IndexStore(home), [(FIXTURE / r, r) for r in REPOS], modalities=MODALITIES)
    return home


class Unserved(LocalSearcher):
    """Nothing serves ``gone``: as when no worker of a shard is up."""

    def __init__(self, store: IndexStore, gone: set[ShardKey]) -> None:
        super().__init__(store)
        self.gone = gone

    def available(self, generation: str) -> set[ShardKey]:
        return super().available(generation) - self.gone


class Failing(LocalSearcher):
    """``broken`` shards raise inside the plugin, as a shard with a damaged file would."""

    def __init__(self, store: IndexStore, broken: set[ShardKey]) -> None:
        super().__init__(store)
        self.broken = broken
        self.asked: list[ShardKey] = []

    def _run(self, generation: str, key: ShardKey, query: ModalityQuery) -> ShardResult:
        self.asked.append(key)
        if key in self.broken:
            raise OSError(f"{key[0]}/{key[1]}: damaged posting file")
        return super()._run(generation, key, query)

    async def search(
        self, generation: str, shards: Sequence[ShardKey], query: ModalityQuery, deadline: float
    ) -> list[ShardAnswer]:
        return await super().search(generation, shards, query, deadline)


def test_routes_by_intent_and_names_the_rule(home: Path) -> None:
    engine = Engine(IndexStore(home))
    plan = engine.plan(SearchParams("who calls fmt"))
    assert (plan.intent, plan.rule) == ("find_references", engine.plan(SearchParams("who calls fmt")).rule)
    assert plan.rule and plan.rule != "forced"
    a = search(engine, SearchParams("who calls fmt", k=20, options={"explain": "1"}))
    assert a.intent == "find_references" and not a.partial
    assert a.generation == IndexStore(home).live_generation()
    assert a.notes[0] == plan.describe() and f"rule {plan.rule}" in a.notes[0]
    assert ("beta", "service.py") in {(f.hit.repo, f.hit.path.rsplit("/", 1)[-1]) for f in a.hits}
    assert {"classify", "fanout", "fuse", "total"} <= set(a.timings)
    forced = engine.plan(SearchParams("who calls fmt", intent="find_definition"))
    assert (forced.intent, forced.rule, forced.confidence) == ("find_definition", "forced", 1.0)


def test_a_learned_route_without_sentence_vectors_says_it_read_the_words_alone(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fourfold.coordinator import intent_model

    vectors = intent_model._QueryVectors()
    vectors.unavailable = "the local embedder's model is not prepared"
    monkeypatch.setattr(intent_model, "query_vector", vectors)
    engine = Engine(IndexStore(home))
    plan = engine.plan(SearchParams("how does the code call all callbacks registered"))
    assert plan.rule == "learned"
    assert "rule learned from its words alone: the local embedder's model is not prepared)" in plan.describe()
    assert "words alone" not in engine.plan(SearchParams("who calls fmt")).describe()  # a rule's route


@pytest.mark.parametrize(
    ("prose", "intent", "code"),
    [
        # find_similar asks for code like an example; read into a web question that shows none
        ("python function that gives closest whole number", "find_similar", "similar to make_context"),
        # exact_match asks for a literal; a question with no quote and no code has none to find (CoSQA's, which
        # had lost its answer to a text-only search)
        ("match specifc string except other python", "exact_match", '"connection refused"'),
    ],
)
def test_a_similar_code_or_exact_string_question_that_shows_no_code_is_hedged_too(
    home: Path, prose: str, intent: str, code: str
) -> None:
    """Read by the learned layer into a query that names no code, similar-code and exact-string questions are
    hedged with understand_code as the entity intents are; one that shows code or quotes a string is not."""
    engine = Engine(IndexStore(home))
    vague = engine.plan(SearchParams(prose))
    assert (vague.intent, vague.rule, vague.hedged) == (intent, "learned", True)
    assert vague.fusion_intent == "understand_code" and vague.strategy == "fused"
    named = engine.plan(SearchParams(code))
    assert (named.intent, named.hedged) == (intent, False)


def test_a_question_in_prose_is_fused_however_sure_the_route(home: Path) -> None:
    """understand_code never goes down the direct path: a caller naming the intent (confidence 1.0)
    gets the fused answer of every modality its profile weighs, not the dominant one alone."""
    engine = Engine(IndexStore(home))
    forced = engine.plan(SearchParams("how are callbacks registered", intent="understand_code"))
    assert (forced.rule, forced.confidence, forced.strategy) == ("forced", 1.0, "fused")
    assert len(forced.weights) >= 2
    a = search(engine, SearchParams("how are callbacks registered", intent="understand_code"))
    assert a.fusion_strategy == "fused" and len(a.weights) >= 2
    definition = engine.plan(SearchParams("fmt", intent="find_definition"))
    assert definition.strategy == "direct"  # a sure entity question keeps its direct path


def test_an_entity_question_that_names_no_code_is_hedged_with_understand_code(home: Path) -> None:
    """The learned layer reads "call" as a callers question; a query that names nothing in code is
    fused half as that and half as a prose question, never answered by the graph alone."""
    engine = Engine(IndexStore(home))
    vague = engine.plan(SearchParams("how does the code call all callbacks registered"))
    assert (vague.intent, vague.rule, vague.strategy) == ("find_references", "learned", "fused")
    assert vague.confidence >= 0.85 and vague.hedged and vague.fusion_intent == "understand_code"
    assert "hedged with understand_code" in vague.describe()
    named = engine.plan(SearchParams("how does the code call all callbacks registered by register_callback"))
    assert (named.intent, named.strategy, named.hedged) == ("find_references", "direct", False)
    assert named.fusion_intent == "find_references"
    profiles = select_profiles("", engine.profiles)  # the default set, as plan() reads it
    refs, prose = profiles["find_references"], profiles["understand_code"]
    blend = {m: 0.5 * refs.get(m, 0.0) + 0.5 * prose.get(m, 0.0) for m in engine.plugins.modalities}
    top = top_modalities(blend, vague.preset.modalities)
    assert vague.weights == pytest.approx({m: blend[m] for m in top})
    a = search(engine, SearchParams("how does the code call all callbacks registered", options={"explain": "1"}))
    assert a.intent == "find_references" and a.fusion_strategy == "fused"
    assert a.notes[0] == vague.describe()
    chosen = engine.plan(SearchParams("how does the code call all callbacks registered", modalities=("graph",)))
    assert not chosen.hedged  # a caller's own choice of modalities stands


def test_fuses_several_modalities(home: Path) -> None:
    a = search(Engine(IndexStore(home)), SearchParams("normalize", modalities=("text", "structural"), k=10))
    assert a.fusion_strategy == "fused" and set(a.weights) == {"text", "structural"}
    assert a.hits and any(len(f.modalities) == 2 for f in a.hits)  # found by both, fused into one hit
    assert [f.score for f in a.hits] == sorted((f.score for f in a.hits), reverse=True)


def test_a_callee_answer_lists_each_function_called_not_one_a_file(home: Path) -> None:
    """``run`` calls ``helper`` and ``Badge.describe`` in its own file besides ``parse`` and beta's helper: each is
    an answer (one hit a file had kept one of the two and lost the other); "who calls" stays one hit a file."""
    a = search(Engine(IndexStore(home)), SearchParams("what does run call", repos=("gamma", "alpha", "beta"), k=20))
    called = {(f.hit.repo, f.hit.path, f.hit.symbol) for f in a.hits}
    assert {("gamma", "gamma/app.py", "helper"), ("gamma", "gamma/app.py", "describe")} <= called
    assert {("alpha", "alpha/core.py", "parse"), ("beta", "beta/service.py", "helper")} <= called
    called_by_tool = search(Engine(IndexStore(home)), SearchParams('get_callees(symbol="run")', k=20))
    assert {(f.hit.repo, f.hit.path, f.hit.symbol) for f in called_by_tool.hits} == called  # an agent's tool call
    callers = search(Engine(IndexStore(home)), SearchParams("who calls fmt", repos=("gamma", "alpha", "beta"), k=20))
    paths = [(f.hit.repo, f.hit.path) for f in callers.hits]
    assert ("alpha", "alpha/core.py") in paths and len(paths) == len(set(paths))


def test_follow_up_rounds_walk_the_partitioned_graph(home: Path) -> None:
    a = search(Engine(IndexStore(home)), SearchParams("impact of changing normalize", modalities=("graph",), k=20))
    run = [f.hit for f in a.hits if (f.hit.repo, f.hit.symbol) == ("gamma", "run")]
    assert run and run[0].match_lines == (23, 25)  # two repositories away: beta -> alpha -> gamma
    assert any(stage.startswith("follow_up:") for stage in a.timings)
    assert not a.partial


def test_a_restricted_caller_sees_only_its_repositories(home: Path) -> None:
    engine = Engine(IndexStore(home))
    impact = SearchParams("impact of changing normalize", modalities=("graph",), k=50)
    # normalize is defined in beta: to a caller reading only gamma it does not exist, exactly as if beta
    # (and alpha, which the walk to gamma passes through) were not indexed
    a = search(engine, impact, frozenset({"gamma"}))
    assert a.hits == () and any("no definition named 'normalize'" in n for n in a.notes), a.notes
    allowed = search(engine, impact, frozenset({"alpha", "beta", "gamma"}))
    assert {f.hit.repo for f in allowed.hits} >= {"gamma"}  # a caller reading the whole walk sees it
    helper = SearchParams("helper", modalities=("text", "structural"), k=50)
    assert {"beta", "gamma"} <= {f.hit.repo for f in search(engine, helper).hits}  # in several repositories...
    everything = search(engine, helper, frozenset({"gamma"}))
    assert {f.hit.repo for f in everything.hits} == {"gamma"}  # ...but this caller reads only gamma
    assert not any("alpha" in n or "beta" in n for n in everything.notes)
    with pytest.raises(PermissionDenied, match="not one you may search"):
        search(engine, SearchParams("normalize", repos=("alpha",)), frozenset({"gamma"}))
    with pytest.raises(UnknownRepository, match="unknown repository 'nope'"):
        search(engine, SearchParams("normalize", repos=("nope",)))
    nothing = search(engine, SearchParams("normalize"), frozenset())
    assert nothing.hits == () and not nothing.partial


def test_a_shard_nothing_serves_makes_a_partial_answer(home: Path) -> None:
    store = IndexStore(home)
    engine = Engine(store, Unserved(store, {("text", "beta")}))
    a = search(engine, SearchParams("normalize", modalities=("text",), k=50))
    assert a.partial and a.missing_shards == ("text/beta",)
    assert a.hits and "beta" not in {f.hit.repo for f in a.hits}


def test_a_lost_node_is_said_in_a_few_notes_however_many_shards_it_held() -> None:
    lost = [f"text/repo{n}" for n in range(500)]
    assert missing_notes({"DEADLINE_EXCEEDED": lost}) == [
        "text/repo0, text/repo1, text/repo2 and 497 more shards missing: DEADLINE_EXCEEDED"
    ]
    reasons = {f"actor {n} died": [f"graph/p{n}"] for n in range(10)}
    assert missing_notes({"unavailable": ["text/a", "text/b"], **reasons}) == [
        "text/a, text/b missing: unavailable",
        "graph/p0 missing: actor 0 died",
        "graph/p1 missing: actor 1 died",
        "8 more shards missing for 8 other reasons (see missing_shards)",
    ]
    hidden = ["text/(a shard outside your repositories)"] * 4  # each is counted, the label said once
    assert missing_notes({"unavailable": hidden}) == [
        "text/(a shard outside your repositories) and 3 more shards missing: unavailable"
    ]


def test_a_failing_shard_is_missing_with_its_reason_and_the_rest_answers(home: Path) -> None:
    store = IndexStore(home)
    searcher = Failing(store, {("text", "alpha")})
    a = search(Engine(store, searcher), SearchParams("normalize", modalities=("text",), k=50))
    assert a.partial and a.missing_shards == ("text/alpha",)
    assert any(n.startswith("text/alpha missing: OSError") for n in a.notes)
    assert {"beta", "gamma"} & {f.hit.repo for f in a.hits}
    # a partition outside a restricted caller's repositories is never asked (its answer is the one
    # the store would give without them), so its failure is not the caller's to see, not even unnamed
    searcher = Failing(store, {("graph", "alpha")})
    r = search(
        Engine(store, searcher),
        SearchParams("impact of changing normalize", modalities=("graph",), k=50),
        frozenset({"gamma"}),
    )
    assert searcher.asked == [("graph", "gamma")]
    assert r.missing_shards == () and not r.partial
    assert not any("alpha" in n or "outside your repositories" in n for n in r.notes)


def test_a_direct_path_that_finds_nothing_is_answered_by_fusion(home: Path) -> None:
    a = search(Engine(IndexStore(home)), SearchParams('"no file holds this sentence at all"', k=10))
    assert a.notes and a.notes[0].startswith("direct path (text) found nothing: answered by fusion"), a.notes
    assert a.fusion_strategy == "fused" and not a.partial


def test_a_direct_path_whose_shards_failed_is_partial_not_answered_by_fusion(home: Path) -> None:
    store = IndexStore(home)
    broken = {("text", r) for r in REPOS}
    a = search(Engine(store, Failing(store, broken)), SearchParams('"normalize"', k=10))
    # the dominant modality could not answer: that is not "nothing", and the answer says what is missing
    assert a.fusion_strategy == "direct" and a.partial
    assert a.missing_shards == tuple(sorted(f"text/{r}" for r in REPOS))
    assert not any("answered by fusion" in n for n in a.notes)


def test_a_query_the_shards_reject_is_the_callers_error(home: Path) -> None:
    with pytest.raises(InvalidQuery):
        search(Engine(IndexStore(home)), SearchParams("foo(", modalities=("text",), options={"mode": "regex"}))


def test_an_agents_tool_call_is_asked_as_the_call_says(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tool call pasted as the query: its tool's name gives the intent, its symbol argument the
    subject, and the answer is that search's, with a note saying how the query was read."""
    call = search(Engine(IndexStore(home)), SearchParams('find_callers(symbol="fmt", depth=1)', k=20))
    plain = search(Engine(IndexStore(home)), SearchParams("fmt", intent="find_references", k=20))
    assert call.intent == "find_references" and call.notes[0] == (
        "read as a tool call: find_callers asks find_references of 'fmt'"
    )
    assert [(f.hit.repo, f.hit.path) for f in call.hits] == [(f.hit.repo, f.hit.path) for f in plain.hits]
    assert ("beta", "beta/service.py") in {(f.hit.repo, f.hit.path) for f in call.hits}
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", '{"tool": "goto_definition", "symbol": "normalize"}']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["intent"] == "find_definition" and out["hits"][0]["symbol"] == "normalize"
    assert "read as a tool call: goto_definition asks find_definition of 'normalize'" in out["notes"]
    assert main(["search", "--in-process", "--json", "go doc service normalize"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hits"][0]["symbol"] == "normalize" and "read as a tool call: go doc asks" in out["notes"][0]
    # a search tool's kind of search says the intent; a call's one JSON object holds its arguments
    kind = search(Engine(IndexStore(home)), SearchParams('search_code(query="normalize", kind="symbol_def")', k=5))
    assert kind.intent == "find_definition" and kind.hits[0].hit.symbol == "normalize"
    assert "read as a tool call: search_code asks find_definition of 'normalize'" in kind.notes
    command = search(Engine(IndexStore(home)), SearchParams("cscope -dL1 normalize", k=5))
    assert command.intent == "find_definition" and command.hits[0].hit.symbol == "normalize"
    for shown in (
        "pydoc beta.service.normalize",
        'python -c "import inspect, beta; inspect.getsource(beta.normalize)"',
    ):
        doc = search(Engine(IndexStore(home)), SearchParams(shown, k=5))
        assert doc.intent == "find_definition" and doc.fusion_strategy == "direct", doc.notes
        assert (doc.hits[0].hit.path, doc.hits[0].hit.symbol) == ("beta/service.py", "normalize")
    explained = search(Engine(IndexStore(home)), SearchParams('codebase.explain({"target": "normalize"})', k=5))
    assert explained.intent == "understand_code" and explained.notes[0].startswith("read as a tool call: explain")
    # a tool whose name says no intent is searched as the words it is, and a literal listing is the text
    other = search(Engine(IndexStore(home)), SearchParams('search_code(query="fmt")', k=5))
    literal = search(Engine(IndexStore(home)), SearchParams("fmt(value)", k=5, options={"mode": "literal"}))
    for a in (other, literal):
        assert not [n for n in a.notes if n.startswith("read as a tool call")]
    listed = search(Engine(IndexStore(home)), SearchParams('find_callers(symbol="fmt")', options={"mode": "literal"}))
    assert not [n for n in listed.notes if n.startswith("read as a tool call")]  # the text as written


def test_cli_search_without_a_server_answers_in_process(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "--modality", "structural", "normalize"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hits"] and out["hits"][0]["symbol"] == "normalize"
    assert main(["search", "--in-process", "--repo", "nope", "normalize"]) == 2
    assert "unknown repository 'nope'" in capsys.readouterr().err


def test_an_engine_in_process_follows_the_live_generation(tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(FIXTURE / "alpha", "alpha")], modalities=["text"])
    engine = Engine(store)
    helper = SearchParams("helper", modalities=("text",), k=50)

    async def run() -> tuple[Answer, Answer]:
        try:
            first = await engine.search(helper)
            await asyncio.to_thread(build_generation, store, [(FIXTURE / "beta", "beta")], modalities=["text"])
            return first, await engine.search(helper)
        finally:
            await engine.stop()

    first, second = asyncio.run(run())
    assert first.generation != second.generation == store.live_generation()
    assert "beta" not in {f.hit.repo for f in first.hits} and "beta" in {f.hit.repo for f in second.hits}


def test_the_cli_says_when_the_coordinator_serves_another_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from types import SimpleNamespace

    from fourfold.coordinator.cli import _say_which_store

    home = tmp_path / "home"
    home.mkdir()
    (home / "LIVE").write_text("g000001\n")
    monkeypatch.setenv("FOURFOLD_HOME", str(home))

    def coordinator(generation: str) -> SimpleNamespace:
        return SimpleNamespace(address="127.0.0.1:50551", status=lambda: SimpleNamespace(generation=generation))

    _say_which_store(coordinator("g000001"), None)
    assert capsys.readouterr().err == ""  # the same index: nothing to say
    _say_which_store(coordinator("g000007"), "127.0.0.1:50551")
    assert capsys.readouterr().err == ""  # the caller named the coordinator
    _say_which_store(coordinator("g000007"), None)
    err = capsys.readouterr().err
    assert "coordinator at 127.0.0.1:50551 (generation g000007)" in err and f"{home} (generation g000001)" in err


def test_fuzzy_name_matching_runs_only_when_no_structural_shard_found_the_name(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Structural's costly fuzzy fallback is a follow-up round (``FollowUp.if_empty``): the shards
    that lack an exact name do not compute it when another shard has the name; a typo that no
    shard knows still gets its fuzzy answer, in one more round; a shard asked on its own (no
    ``fallback=defer``) still matches fuzzily by itself."""
    from fourfold.plugins.manager import get_registry
    from fourfold.plugins.structural.index import StructuralShard

    calls: list[str] = []
    real = StructuralShard._fuzzy

    def fuzzy(self: StructuralShard, symbol: Any, query: ModalityQuery, kinds: tuple[str, ...]) -> Any:
        calls.append(symbol.name)
        return real(self, symbol, query, kinds)

    monkeypatch.setattr(StructuralShard, "_fuzzy", fuzzy)
    engine = Engine(IndexStore(home))
    exact = search(engine, SearchParams("def normalize", k=10))
    assert exact.hits[0].hit.symbol == "normalize" and exact.hits[0].hit.repo == "beta"
    assert calls == []  # alpha's and gamma's shards lack it, yet matched nothing fuzzily
    typo = search(engine, SearchParams("def normalise", k=10))
    assert typo.hits and typo.hits[0].hit.symbol == "normalize"  # the fallback round found it
    assert sorted(calls) == ["normalise"] * 3 and any(s.startswith("follow_up:") for s in typo.timings)
    store = IndexStore(home)
    reader = store.require_live()
    shard = get_registry().modality("structural").load(reader.shard_dir(reader.shard("structural", "beta")))
    alone = shard.search(ModalityQuery("normalise", k=5))
    assert alone.hits and alone.hits[0].symbol == "normalize" and not alone.follow_ups


def test_a_prose_question_shares_text_and_semantic_by_its_lists(indexed_home: Path) -> None:
    """The fitted prose profile moves weight between text and semantic per query (``fusion.LexicalShare``),
    on a real index with the real embedder; the answer reports the weights it fused with."""
    from fourfold.coordinator.engine import LEXICAL_SHARE_OPTION
    from fourfold.coordinator.profiles import fitted_profiles

    profile = fitted_profiles()["understand_code"]
    question = "how does authentication open a session for the user"
    shared = search(Engine(IndexStore(indexed_home)), SearchParams(question, k=5, options={"explain": "1"}))
    assert shared.intent == "understand_code" and shared.fusion_strategy == "fused"
    assert shared.weights["text"] + shared.weights["semantic"] == pytest.approx(profile["text"] + profile["semantic"])
    assert shared.weights["text"] != pytest.approx(profile["text"])
    others = set(shared.weights) - {"text", "semantic"}  # the preset runs the profile's strongest modalities
    assert others and all(shared.weights[m] == profile[m] for m in others)
    assert any(n.startswith("fused with text") and "shared by this question's evidence" in n for n in shared.notes)
    off = search(Engine(IndexStore(indexed_home)), SearchParams(question, k=5, options={LEXICAL_SHARE_OPTION: "off"}))
    assert dict(off.weights) == {m: profile[m] for m in off.weights} and set(off.weights) == set(shared.weights)
    quoted = 'how does "ECONNREFUSED while sending" come about in the session'
    literal = search(Engine(IndexStore(indexed_home)), SearchParams(quoted, k=5))
    assert literal.intent == "understand_code", literal.intent  # a quote inside a question the model is sure of
    assert dict(literal.weights) == {m: profile[m] for m in literal.weights}  # literal matches, not BM25, in text
    with pytest.raises(InvalidQuery, match="option lexical_share must be 'on' or 'off', got 'no'"):
        search(Engine(IndexStore(indexed_home)), SearchParams(question, k=5, options={LEXICAL_SHARE_OPTION: "no"}))
    own = {"semantic": 0.5, "text": 0.5}
    asked = search(Engine(IndexStore(indexed_home)), SearchParams(question, k=5, weights=own))
    assert (asked.weights["text"], asked.weights["semantic"]) == (0.5, 0.5)  # weights the caller set stand


class Recording(LocalSearcher):
    """Every (modality, k) a search asks its shards, as they are asked."""

    def __init__(self, store: IndexStore) -> None:
        super().__init__(store)
        self.asked: list[tuple[str, int]] = []

    def _run(self, generation: str, key: ShardKey, query: ModalityQuery) -> ShardResult:
        self.asked.append((key[0], query.k))
        return super()._run(generation, key, query)


def test_a_relation_asks_deep_enough_that_one_segment_a_file_fills_the_page(home: Path) -> None:
    # click's "who calls invoke" at k = 5: the graph's 30 best uses lay in four files, and the page held four
    recording = Recording(IndexStore(home))
    engine = Engine(IndexStore(home), searcher=recording)
    search(engine, SearchParams("who calls fmt", k=5))
    assert ("graph", 100) in recording.asked and all(k >= 100 for m, k in recording.asked if m == "graph")
    recording.asked.clear()
    search(engine, SearchParams("where is fmt defined", k=5))
    assert recording.asked and all(k == 30 for _, k in recording.asked)
