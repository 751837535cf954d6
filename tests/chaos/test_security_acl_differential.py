"""The ACL differential: a caller whose token reads only ``alpha`` gets, for every query, exactly the
answer a store WITHOUT the hidden repository ``beta`` gives — same hits, notes, missing shards,
``partial`` and ``no_confident_match`` (timings aside). Anything else is an oracle: a restricted
token could tell which names, strings or shards exist in repositories it cannot read.

Two coordinators on the session's Ray cluster: one over alpha + beta with tokens, one over alpha
alone. ``beta`` defines names alpha uses (cross-repository edges), uses alpha's names (hidden
dependents), holds a canary string and names that exist nowhere else; ~500 queries of every intent
(definitions, callers, callees, references, impact, paths, exact strings, regexes, natural
language) mix those with alpha's names and names that exist nowhere.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from fourfold.coordinator.auth import hash_token, new_token
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

ALICE = new_token()

ALPHA = {
    "alpha_app/service.py": '''"""The alpha service."""

from beta_lib.canary import LeakyCanaryFunction, beta_format


def alpha_main(items):
    """Run the alpha service over items."""
    total = alpha_helper(items)
    return LeakyCanaryFunction(total) + beta_format(total) + shared_name(total)


def alpha_helper(items):
    return sum(len(i) for i in items)


def shared_name(value):
    return str(value)


class AlphaStore:
    """Keeps alpha records."""

    def save(self, record):
        return alpha_main([record])

    def load(self, key):
        return alpha_helper([key])
''',
    "alpha_app/cli.py": """from alpha_app.service import AlphaStore, alpha_main


def alpha_cli(argv):
    store = AlphaStore()
    store.save(argv)
    return alpha_main(argv)
""",
}

BETA = {
    "beta_lib/canary.py": '''"""Beta's canary module."""

from alpha_app.service import alpha_helper, alpha_main

BETA_CANARY = "canary-7f3e-beta-only-string"


def LeakyCanaryFunction(value):
    """Only beta defines this."""
    return beta_inner(value) + alpha_helper([value])


def beta_inner(value):
    return value * 2


def beta_format(value):
    return f"{value}!"


def shared_name(value):
    return repr(value)


def beta_uses_alpha(items):
    return alpha_main(items) + beta_inner(1)


class BetaVault:
    """Keeps beta secrets."""

    def open(self, key):
        return LeakyCanaryFunction(key)
''',
}

ALPHA_NAMES = ["alpha_main", "alpha_helper", "AlphaStore", "AlphaStore.save", "alpha_cli", "shared_name"]
BETA_NAMES = ["LeakyCanaryFunction", "beta_inner", "beta_format", "beta_uses_alpha", "BetaVault", "BetaVault.open"]
NOWHERE = ["NoSuchFunctionAnywhere", "gamma_missing", "LeakyCanaryFunctionX"]


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@dataclass(frozen=True, slots=True)
class Pair:
    restricted: str  # alpha + beta, alice's token reads alpha
    reduced: str  # alpha alone, no tokens


@pytest.fixture(scope="module")
def pair(cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    from fourfold.coordinator.auth import TokenStore
    from fourfold.coordinator.serving import start_server
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    base = tmp_path_factory.mktemp("differential")
    alpha, beta = write(base / "alpha", ALPHA), write(base / "beta", BETA)
    full, reduced = IndexStore(base / "full"), IndexStore(base / "reduced")
    for store, repos in ((full, [(alpha, "alpha"), (beta, "beta")]), (reduced, [(alpha, "alpha")])):
        store.ensure()
        build_generation(store, repos)
    grants = {"tokens": [{"name": "alice", "sha256": hash_token(ALICE), "repos": ["alpha"]}]}
    loop = cluster._loop
    servers = [
        asyncio.run_coroutine_threadsafe(
            start_server(store.home, "127.0.0.1:0", role="all", tokens=tokens), loop
        ).result(timeout=300)
        for store, tokens in ((full, TokenStore.parse(json.dumps(grants), "test")), (reduced, None))
    ]
    try:
        yield Pair(servers[0].address, servers[1].address)
    finally:
        for running, store in zip(servers, (full, reduced), strict=True):
            asyncio.run_coroutine_threadsafe(running.stop(), loop).result(timeout=30)
            assert running.engine is not None and running.engine.launcher is not None
            running.engine.launcher.retire(store.live_generation() or "")


def queries(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` Search requests of every intent over alpha's, beta's and nobody's names."""
    rng = random.Random(seed)
    names = ALPHA_NAMES + BETA_NAMES + NOWHERE
    out: list[dict[str, Any]] = []
    while len(out) < n:
        a, b = rng.choice(names), rng.choice(names)
        form = rng.randrange(16)
        req: dict[str, Any]
        if form == 0:
            req = {"query": f"def {a}"}
        elif form == 1:
            req = {"query": f"who calls {a}"}
        elif form == 2:
            req = {"query": f"what does {a} call"}
        elif form == 3:
            req = {"query": f"impact of changing {a}"}
        elif form == 4:
            req = {"query": f"where is {a} used"}
        elif form == 5:
            req = {"query": f"path from {a} to {b}"}
        elif form == 6:
            req = {"query": f'"{rng.choice(["canary-7f3e-beta-only-string", "alpha service", "keeps", a])}"'}
        elif form == 7:
            req = {
                "query": rng.choice([r"canary-\w+", r"def \w+\(", r"Leaky\w+", r"alpha_\w+", r"class \w+"]),
                "options": {"mode": "regex"},
            }
        elif form == 8:
            req = {"query": rng.choice(["how are records kept", "where are secrets kept", "run the service"])}
        elif form == 9:
            req = {"query": a, "intent": rng.choice(["find_definition", "find_references", "impact_analysis"])}
        elif form == 10:
            req = {"query": f"who calls {a}", "modalities": ["graph"]}
        elif form == 11:
            req = {"query": f"impact of changing {a}", "modalities": ["graph"], "options": {"depth": "4"}}
        elif form == 12:
            req = {"query": a, "modalities": [rng.choice(["text", "structural", "semantic"])]}
        elif form == 13:
            req = {"query": f"where is {a} defined", "preset": rng.choice(["quick", "default", "thorough"])}
        elif form == 14:
            req = {"query": f"who calls {a}", "deadline_ms": 1}
        else:
            req = {"query": a, "path_glob": rng.choice(["alpha_app/*", "beta_lib/*", "*"])}
        req["k"] = rng.choice([5, 10, 50])
        out.append(req)
    return out


def leak_relevant(r: coordinator_pb2.SearchResponse) -> dict[str, Any]:
    """The fields an answer must not let differ (timings and generation names excluded)."""
    return {
        "hits": [(h.repo, h.path, h.start_line, h.end_line, h.symbol, h.kind) for h in r.hits],
        "notes": sorted(r.notes),
        "missing": sorted(r.missing_shards),
        "partial": r.partial,
        "no_confident_match": r.no_confident_match,
        "intent": r.intent,
        "strategy": r.fusion_strategy,
    }


def ask(stub: coordinator_pb2_grpc.CoordinatorStub, req: dict[str, Any], token: str | None) -> dict[str, Any]:
    metadata = (("authorization", f"Bearer {token}"),) if token else ()
    try:
        return leak_relevant(stub.Search(coordinator_pb2.SearchRequest(**req), metadata=metadata, timeout=60))
    except grpc.RpcError as exc:
        return {"error": (exc.code(), exc.details())}


def test_a_restricted_answer_is_the_answer_without_the_hidden_repository(pair: Pair) -> None:
    differ: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = []
    with grpc.insecure_channel(pair.restricted) as a, grpc.insecure_channel(pair.reduced) as b:
        restricted, reduced = coordinator_pb2_grpc.CoordinatorStub(a), coordinator_pb2_grpc.CoordinatorStub(b)
        # the restricted store does hold beta (the test has teeth): its admin view would differ
        batch = queries(500, 16)
        for req in batch:
            if req.get("deadline_ms") == 1:
                continue  # compared below: which shards miss a 1 ms deadline is timing, not content
            got, want = ask(restricted, req, ALICE), ask(reduced, req, None)
            if got != want:
                differ.append((req, got, want))
        for req in (r for r in batch if r.get("deadline_ms") == 1):
            got = ask(restricted, req, ALICE)
            told = [m for m in got.get("missing", []) if "outside your repositories" in m or "beta" in m]
            if told:
                differ.append((req, got, {"missing": "no hidden shard"}))
    shown = "\n".join(f"{req}\n  restricted: {got}\n  without beta: {want}" for req, got, want in differ[:40])
    assert not differ, f"{len(differ)} of {len(batch)} answers differ from the store without beta:\n{shown}"
