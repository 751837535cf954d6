"""The identifier strategy and the index's evidence, end to end in a real in-process engine.

A bare name is asked of structural and text first: where they agree the answer is the definitions
then the other occurrences, noted; where they disagree or find nothing it is fused, noted. A lone
lowercase word is an identifier only when the index defines it — in the caller's repositories
only, so a restricted caller's answer is the one a store without the hidden repository gives.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from fourfold.api import Answer, SearchParams
from fourfold.coordinator import identifier
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.intent import Classification, classify
from fourfold.coordinator.searcher import LocalSearcher, ShardKey
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins.types import ModalityQuery, ShardResult

MODALITIES = ["text", "structural", "graph"]  # fusion's other inputs; the semantic modality has its own tests

LIB = {
    "lib/fixtures.py": '''"""Fixture lookup."""


class FixtureRequest:
    def getfixturevalue(self, argname):
        """The value of the fixture named argname."""
        return self._lookup(argname)

    def _lookup(self, argname):
        return argname


class HTTPAdapter:
    def send(self, request):
        return request


class FixtureLookupError(LookupError):
    """No fixture of that name."""


def parse_config(path):
    if not path:
        raise ValueError("no path")
    return {"path": path}
''',
    "lib/use.py": """from lib.fixtures import FixtureRequest, HTTPAdapter, parse_config


def run(path):
    request = FixtureRequest()
    adapter = HTTPAdapter()
    value = request.getfixturevalue("tmp")
    if value is None:
        raise FixtureLookupError("tmp")
    return adapter.send(parse_config(path)), value, ShouldBindJSON(value)
""",
    "lib/notes.md": "Call getfixturevalue to read a fixture; retry when the network fails.\n",
}
SECRET = {
    "secret/vault.py": """def hiddenvaultopener(code):
    return code * 2


def open_vault_door(code):
    return hiddenvaultopener(code)
""",
    "secret/more.py": """from secret.vault import hiddenvaultopener


def twice(code):
    return hiddenvaultopener(hiddenvaultopener(code))
""",
}
# alpha's text mentions the secret's names, so the text modality alone would tell of nothing hidden
PUBLIC = {
    "public/readme.md": "Nothing here calls hiddenvaultopener or open_vault_door; they are not ours.\n",
}


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def repos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("identifier-repos")
    return {name: _write(base / name, files) for name, files in (("lib", LIB), ("secret", SECRET), ("public", PUBLIC))}


def _store(tmp_path_factory: pytest.TempPathFactory, repos: dict[str, Path], names: tuple[str, ...]) -> IndexStore:
    home = tmp_path_factory.mktemp("identifier-" + "-".join(names)) / "home"
    build_generation(IndexStore(home), [(repos[n], n) for n in names], modalities=MODALITIES)
    return IndexStore(home)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, repos: dict[str, Path]) -> IndexStore:
    return _store(tmp_path_factory, repos, ("lib", "secret", "public"))


@pytest.fixture(scope="module")
def store_without_secret(tmp_path_factory: pytest.TempPathFactory, repos: dict[str, Path]) -> IndexStore:
    return _store(tmp_path_factory, repos, ("lib", "public"))


def search(
    store: IndexStore, p: SearchParams, visible: frozenset[str] | None = None, searcher: LocalSearcher | None = None
) -> Answer:
    async def run() -> Answer:
        engine = Engine(store, searcher)
        try:
            return await engine.search(p, visible)
        finally:
            await engine.stop()

    return asyncio.run(run())


def where(a: Answer) -> list[tuple[str, str, str | None]]:
    return [(f.hit.repo, f.hit.path, f.hit.symbol) for f in a.hits]


# -- classification ----------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["ShouldBindJSON", "parse_config", "Session.send", "HTTPAdapter", "SSLError"])
def test_a_shaped_name_is_an_identifier_with_or_without_evidence(query: str) -> None:
    rule = classify(query)
    assert identifier.candidate(query, rule) == identifier.Candidate(query, query.rsplit(".", 1)[-1], shaped=True)
    for known in (False, True):
        assert identifier.classify_with_evidence(query, rule, known) == rule
    if query == "SSLError":  # an exception class's name: the error keyword rule's, asked as a name
        assert (rule.intent, rule.rule) == ("exact_match", "error-token")
    else:
        assert (rule.intent, rule.confidence, rule.rule) == ("find_definition", 0.80, "lone-identifier")


@pytest.mark.parametrize("query", ["getfixturevalue", "retry", "Session"])
def test_a_lone_word_is_an_identifier_only_when_the_index_defines_it(query: str) -> None:
    rule = classify(query)
    assert rule.rule in ("fallback", "learned") and rule.confidence < 0.85
    unknown = identifier.classify_with_evidence(query, rule, known_symbol=False)
    known = identifier.classify_with_evidence(query, rule, known_symbol=True)
    assert unknown == rule
    assert known == Classification("find_definition", 0.80, identifier.KNOWN_SYMBOL_RULE)


@pytest.mark.parametrize(
    "query",
    ["how does retry work", "ECONNREFUSED", "Exception", "ValueError: no path", "impact", '"retry"', "who calls x_y"],
)
def test_prose_keyword_forms_and_phrases_are_never_candidates(query: str) -> None:
    rule = classify(query)
    assert identifier.candidate(query, rule) is None
    assert identifier.classify_with_evidence(query, rule, known_symbol=True) == rule


def test_the_text_pattern_is_word_bounded_where_a_word_character_allows() -> None:
    assert identifier.text_pattern("parse_config") == r"\bparse_config\b"
    assert identifier.text_pattern("$el") == r"\$el\b"


# -- the strategy, end to end ------------------------------------------------------------------


def test_agreement_answers_directly_with_the_definition_first(store: IndexStore) -> None:
    a = search(store, SearchParams("HTTPAdapter", k=10, options={"explain": "1"}))
    assert (a.intent, a.fusion_strategy, a.confidence) == ("find_definition", "identifier", 0.80)
    assert where(a)[0] == ("lib", "lib/fixtures.py", "HTTPAdapter")
    assert ("lib", "lib/use.py") in {(r, p) for r, p, _ in where(a)}  # then the other occurrences
    assert "routing: intent find_definition (0.80, rule lone-identifier), identifier" in a.notes[0]
    assert "identifier: structural and text agree" in a.notes
    assert set(a.weights) == {"structural", "text"} and not a.partial
    assert [f.score for f in a.hits] == sorted((f.score for f in a.hits), reverse=True)


def test_an_exception_class_is_asked_as_a_name_and_an_undefined_one_as_before(store: IndexStore) -> None:
    a = search(store, SearchParams("FixtureLookupError", k=10))
    assert (a.intent, a.fusion_strategy) == ("find_definition", "identifier")
    assert where(a)[0] == ("lib", "lib/fixtures.py", "FixtureLookupError")
    assert ("lib", "lib/use.py") in {(r, p) for r, p, _ in where(a)}  # where it is raised
    # a builtin nothing here defines: answered the exact-match way it was before, and the note says so
    builtin = search(store, SearchParams("ValueError", k=10))
    before = search(store, SearchParams("ValueError", k=10, options={"identifier": "off"}))
    assert (
        (builtin.intent, builtin.fusion_strategy)
        == (before.intent, before.fusion_strategy)
        == ("exact_match", "direct")
    )
    assert where(builtin) == where(before) and ("lib", "lib/fixtures.py") in {(r, p) for r, p, _ in where(builtin)}
    assert (
        builtin.notes[0]
        == "identifier: structural found no definition of 'ValueError': answered by the direct path (text)"
    )


def test_a_lone_word_the_index_defines_is_answered_as_an_identifier(store: IndexStore) -> None:
    a = search(store, SearchParams("getfixturevalue", k=10))
    assert (a.intent, a.fusion_strategy) == ("find_definition", "identifier")
    assert where(a)[0] == ("lib", "lib/fixtures.py", "getfixturevalue")
    files = {(r, p) for r, p, _ in where(a)}
    assert {("lib", "lib/use.py"), ("lib", "lib/notes.md")} <= files


def test_a_lone_word_nothing_defines_is_routed_as_classified(store: IndexStore) -> None:
    a = search(store, SearchParams("retry", k=10, options={"explain": "1"}))
    assert a.intent == classify("retry").intent and a.fusion_strategy != "identifier"
    assert any("no definition named 'retry'" in n for n in a.notes), a.notes


def test_a_name_nothing_defines_is_fused_and_says_why(store: IndexStore) -> None:
    a = search(store, SearchParams("ShouldBindJSON", k=10))
    assert (a.intent, a.fusion_strategy) == ("find_definition", "fused")
    assert a.notes[0] == "identifier: structural found no definition of 'ShouldBindJSON': answered by fusion"
    assert ("lib", "lib/use.py") in {(r, p) for r, p, _ in where(a)}


class TextFails(LocalSearcher):
    """The text shard of ``repo`` fails, as one with a damaged file would: text cannot see that repository."""

    def __init__(self, store: IndexStore, repo: str) -> None:
        super().__init__(store)
        self.repo = repo

    def _run(self, generation: str, key: ShardKey, query: ModalityQuery) -> ShardResult:
        if key == ("text", self.repo):
            raise OSError(f"text/{self.repo}: damaged posting file")
        return super()._run(generation, key, query)


def test_disagreement_is_fused_and_says_why(store: IndexStore) -> None:
    # text lists public/readme.md but not secret/vault.py, the file structural says defines the name
    a = search(store, SearchParams("hiddenvaultopener", k=10), searcher=TextFails(store, "secret"))
    assert (a.intent, a.fusion_strategy) == ("find_definition", "fused")
    assert a.notes[0] == (
        "identifier: structural and text disagree (text does not list secret:secret/vault.py, a definition's file)"
        ": answered by fusion"
    ), a.notes
    assert a.partial and a.missing_shards == ("text/secret",)
    assert where(a)[0] == ("secret", "secret/vault.py", "hiddenvaultopener")  # fusion still finds it
    # text finds nothing at all (its one shard holding the word is down): fused too
    b = search(store, SearchParams("HTTPAdapter", k=10), searcher=TextFails(store, "lib"))
    assert b.fusion_strategy == "fused" and b.notes[0].startswith("identifier: text found no word 'HTTPAdapter'")


def test_the_strategy_can_be_turned_off_and_stays_out_of_chosen_routes(store: IndexStore) -> None:
    off = search(store, SearchParams("HTTPAdapter", k=10, options={"identifier": "off"}))
    assert off.fusion_strategy == "fused" and not any(n.startswith("identifier") for n in off.notes)
    forced = search(store, SearchParams("HTTPAdapter", k=10, modalities=("structural",)))
    assert forced.fusion_strategy == "direct"


def test_a_restricted_caller_gets_the_answer_of_a_store_without_the_hidden_repository(
    store: IndexStore, store_without_secret: IndexStore
) -> None:
    for query in ("hiddenvaultopener", "open_vault_door", "getfixturevalue", "HTTPAdapter"):
        p = SearchParams(query, k=10, options={"explain": "1"})
        restricted = search(store, p, frozenset({"lib", "public"}))
        without = search(store_without_secret, p)
        assert (restricted.intent, restricted.fusion_strategy, restricted.confidence) == (
            without.intent,
            without.fusion_strategy,
            without.confidence,
        ), query
        assert where(restricted) == where(without) and restricted.notes == without.notes, query
        assert "secret" not in {f.hit.repo for f in restricted.hits}
    # and the store that holds it answers the hidden name as an identifier
    assert search(store, SearchParams("hiddenvaultopener", k=10)).fusion_strategy == "identifier"


def test_cli_json_reports_the_strategy(
    store: IndexStore, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(store.home))
    assert main(["search", "--in-process", "--json", "HTTPAdapter"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fusion_strategy"] == "identifier" and out["hits"][0]["symbol"] == "HTTPAdapter"
    assert "identifier: structural and text agree" in out["notes"]


def test_metrics_count_the_answer_once_not_its_inner_asks(store: IndexStore) -> None:
    from prometheus_client import REGISTRY

    def count(strategy: str) -> float:
        labels = {"intent": "find_definition", "strategy": strategy, "outcome": "ok"}
        return REGISTRY.get_sample_value("fourfold_search_requests_total", labels) or 0.0

    before = {s: count(s) for s in ("identifier", "direct", "fused")}
    assert search(store, SearchParams("HTTPAdapter", k=10)).fusion_strategy == "identifier"
    after = {s: count(s) for s in ("identifier", "direct", "fused")}
    assert after == {**before, "identifier": before["identifier"] + 1}


def test_a_dotted_name_asks_text_for_its_last_part(store: IndexStore) -> None:
    a = search(store, SearchParams("HTTPAdapter.send", k=10))
    assert (a.intent, a.fusion_strategy) == ("find_definition", "identifier")
    assert where(a)[0] == ("lib", "lib/fixtures.py", "send")
    assert ("lib", "lib/use.py") in {(r, p) for r, p, _ in where(a)}  # adapter.send(...)
