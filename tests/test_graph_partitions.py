"""The graph partitioned by repository answers exactly as the single graph does.

Three committed repositories (``tests/fixtures/graph_multi``) call across repository lines both
ways, in a cycle and through inheritance. Each is built once as the single graph and once as one
partition per repository; every relation about every definition is then asked of both, the
partitions through the coordinator's own follow-up rounds and merge, and the answers compared.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from fourfold.coordinator.engine import MAX_FOLLOW_UP_ROUNDS, absence_notes, follow_up_rounds
from fourfold.coordinator.fusion import merge_shards
from fourfold.coordinator.searcher import ShardAnswer
from fourfold.errors import InvalidQuery
from fourfold.index.ingest.segment import segment_file
from fourfold.plugins.graph.links import read_links
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.shard import PATH_OPTION, SEEDS_OPTION, GraphShard
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import Hit, ModalityQuery, Segment

FIXTURE = Path(__file__).parent / "fixtures" / "graph_multi"
REPOS = ("alpha", "beta", "gamma")


def fixture_segments() -> list[Segment]:
    out: list[Segment] = []
    for repo in REPOS:
        for path in sorted((FIXTURE / repo).rglob("*.py")):
            out.extend(
                segment_file(repo, path.relative_to(FIXTURE / repo).as_posix(), "python", path.read_bytes()).segments
            )
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[GraphShard, dict[str, GraphShard]]:
    """(the single graph, the partition of each repository)."""
    root = tmp_path_factory.mktemp("partitions")
    segments = fixture_segments()
    modality = GraphModality()
    modality.build(segments, root / "all", BuildContext(generation="g", shard="all", repos=()))
    for repo in REPOS:
        modality.build(segments, root / repo, BuildContext(generation="g", shard=repo, repos=(repo,)))
    return modality.load(root / "all"), {repo: modality.load(root / repo) for repo in REPOS}


def merged(
    parts: dict[str, GraphShard],
    query: ModalityQuery,
    repos_of: dict[str, tuple[str, ...]] | None = None,
    specs: dict[str, Any] | None = None,
) -> tuple[list[Hit], int, list[str], int]:
    """Ask every partition, then run the follow-up rounds and merge as the coordinator does:
    (hits, summed total_matches, notes in order without repeats, rounds). ``repos_of``: the
    repositories each shard owns (default: its name's); ``specs``: hosts ask through
    ``shard_query`` (a pack's dead repositories are named to it)."""
    from fourfold.index.compound import shard_query

    owners = repos_of or {shard: (shard,) for shard in parts}

    async def ask(modality: str, shard: str, q: ModalityQuery) -> ShardAnswer:
        asked = shard_query(specs[shard], q) if specs else q
        assert asked is not None
        return ShardAnswer(modality, shard, parts[shard].search(asked), 0.0)

    async def run() -> tuple[list[ShardAnswer], int]:
        first = [await ask("graph", shard, query) for shard in sorted(parts)]
        covering = {"graph": [(shard, owners[shard]) for shard in sorted(parts)]}
        more = await follow_up_rounds(first, query, covering, ask, time.monotonic() + 30)
        assert not more.exhausted
        return [*first, *more.answers], more.rounds

    answers, rounds = asyncio.run(run())
    results = [a.result for a in answers if a.result is not None]
    notes = list(dict.fromkeys([*(n for r in results for n in r.notes), *absence_notes(results)]))
    return as_merged([r.hits for r in results], query), sum(r.total_matches for r in results), notes, rounds


def as_merged(lists: list[tuple[Hit, ...]], query: ModalityQuery) -> list[Hit]:
    """The lists merged as the coordinator merges them: by score, then in the graph's own order among ties."""
    return merge_shards(lists, 10_000, functools.partial(GraphModality().order_merged, query=query))


def comparable(hits: list[Hit]) -> list[tuple[Any, ...]]:
    """What must agree: segment, score (so distance and confidence), lines, and an impact hit's distance."""
    return [
        (h.segment_id, h.score, h.match_lines, re.match(r"(distance \d+|path step \d+ of \d+)?", h.snippet)[0])
        for h in hits
    ]


def definitions(shard: GraphShard) -> list[str]:
    g = shard.graph
    names = {g.symbol[i] for i in range(g.size) if g.symbol[i] and not g.is_module(i)}
    qualified = {
        g.qualified_name[i] for i in range(g.size) if g.qualified_name[i] and "." in (g.qualified_name[i] or "")
    }
    return sorted(names | qualified)


def test_every_relation_of_every_definition_equals_the_single_graph(
    built: tuple[GraphShard, dict[str, GraphShard]],
) -> None:
    single, parts = built
    questions = [
        f"{relation} {name}"
        for name in definitions(single)
        for relation in ("who calls", "callees of", "references to", "where is")
    ]
    questions = [
        q.replace("where is ", "where is ") + (" defined" if q.startswith("where is") else "") for q in questions
    ]
    asked = 0
    for text in questions:
        query = ModalityQuery(text=text, k=1000)
        whole = single.search(query)
        hits, total, notes, rounds = merged(parts, query)
        assert comparable(hits) == comparable(as_merged([whole.hits], query)), text
        assert total == whole.total_matches, text
        assert rounds == 0, text  # one-round relations: each hit from the partition owning it
        assert set(notes) <= set(whole.notes), text
        asked += 1
    assert asked >= 80


def test_impact_at_every_depth_equals_the_single_graph(built: tuple[GraphShard, dict[str, GraphShard]]) -> None:
    single, parts = built
    most_rounds = 0
    for name, depth in product(definitions(single), ("1", "2", "3")):
        query = ModalityQuery(text=f"impact of changing {name}", k=1000, options={"depth": depth})
        whole = single.search(query)
        hits, _, _, rounds = merged(parts, query)
        assert comparable(hits) == comparable(as_merged([whole.hits], query)), (name, depth)
        assert len(hits) == whole.total_matches, (name, depth)  # a dependent reached twice counts once
        most_rounds = max(most_rounds, rounds)
    assert 2 <= most_rounds <= MAX_FOLLOW_UP_ROUNDS  # walks did cross repositories, more than once


def test_paths_between_every_pair_equal_the_single_graph(built: tuple[GraphShard, dict[str, GraphShard]]) -> None:
    single, parts = built
    names = [n for n in definitions(single) if "." not in n]
    g = single.graph
    # a start named in several repositories that do not import one another is searched from the
    # definitions the holding partition knows (see shard.py): compare starts with one definition
    starts = [n for n in names if sum(1 for i in g.by_name.get(n, ()) if not g.is_module(i)) == 1]
    found = 0
    for a, b in product(starts, names):
        query = ModalityQuery(text=f"path from {a} to {b}", k=10)
        whole = single.search(query)
        hits, total, notes, _ = merged(parts, query)
        assert [h.segment_id for h in hits] == [h.segment_id for h in as_merged([whole.hits], query)], (a, b)
        assert comparable(hits) == comparable(as_merged([whole.hits], query)), (a, b)
        assert total == whole.total_matches and notes == list(whole.notes), (a, b)
        found += bool(hits)
    assert found >= 20


def test_walks_cross_repositories(built: tuple[GraphShard, dict[str, GraphShard]]) -> None:
    _, parts = built
    hits, _, _, rounds = merged(parts, ModalityQuery(text="impact of changing normalize", k=50))
    by_symbol = {(h.repo, h.symbol): h for h in hits}
    assert by_symbol[("alpha", "parse")].snippet.startswith("distance 1")  # beta -> alpha
    assert by_symbol[("gamma", "run")].snippet.startswith("distance 2")  # then -> gamma, two repositories away
    assert rounds >= 2
    cycle, _, _, _ = merged(parts, ModalityQuery(text="impact of changing tick", k=50, options={"depth": "10"}))
    # round the cycle tick -> tock -> spin -> tick and stop: the target itself is never its own dependent
    assert {(h.repo, h.symbol) for h in cycle if h.symbol} == {("beta", "spin"), ("gamma", "tock")}
    path, _, notes, _ = merged(parts, ModalityQuery(text="path from main to fmt", k=10))
    # main -> run -> helper -> fmt: of the shortest paths, the first by segment ids (parse's route is as short)
    assert [h.repo for h in path] == ["gamma", "gamma", "gamma", "alpha"] and notes[-1].startswith("graph: path main")


def test_a_partition_stores_the_edges_leaving_its_code_and_the_stubs_they_reach(
    built: tuple[GraphShard, dict[str, GraphShard]], tmp_path: Path
) -> None:
    single, parts = built
    g = single.graph
    edges = {(g.ids[int(s)], g.ids[int(d)]) for s, d in zip(g.src, g.dst, strict=True)}
    cross = {(s, d) for s, d in edges if g.repo[g.ids.index(s)] != g.repo[g.ids.index(d)]}
    assert cross
    for repo, part in parts.items():
        p = part.graph
        assert p.partitioned and p.partition == (repo,)
        assert [p.repo[i] == repo for i in range(p.size)] == list(p.owned)
        stored = {(p.ids[int(s)], p.ids[int(d)]) for s, d in zip(p.src, p.dst, strict=True)}
        assert all(p.owned[int(s)] for s in p.src)  # an edge lives with the code that uses
        assert stored == {(s, d) for s, d in edges if g.repo[g.ids.index(s)] == repo}  # every one of them
        mine = {g.ids[i] for i in range(g.size) if g.repo[i] == repo}
        assert mine <= set(p.ids) and len(set(p.ids)) == p.size
        assert p.size < g.size or repo == "gamma"  # stubs: only what its edges reach
    assert not single.graph.partitioned
    # each partition was built from its repository and the repositories it imports
    modality = GraphModality()
    for repo, deps in (("beta", ["alpha"]), ("gamma", ["alpha", "beta"])):
        modality.build(fixture_segments(), tmp_path / repo, BuildContext(generation="g", shard=repo, repos=(repo,)))
        links = read_links(tmp_path / repo)
        assert links is not None and list(links.dependencies) == deps


def test_same_name_in_two_repositories_and_unknown_names(built: tuple[GraphShard, dict[str, GraphShard]]) -> None:
    single, parts = built
    hits, total, _, _ = merged(parts, ModalityQuery(text="where is helper defined", k=10))
    assert sorted(h.repo for h in hits) == ["beta", "gamma"] and total == 2
    _, _, notes, _ = merged(parts, ModalityQuery(text="who calls normalise", k=10))
    # no partition knows the name: the suggestion is said once, as the single graph says it
    assert len(notes) == 1 and "normalize" in notes[0]
    assert notes == list(single.search(ModalityQuery(text="who calls normalise", k=10)).notes)
    # a name one partition knows is never said to be missing by the others
    _, _, notes, _ = merged(parts, ModalityQuery(text="who calls Badge", k=10))
    assert not any("no definition" in n for n in notes)


def test_a_query_limited_to_some_repositories_learns_no_names_from_the_others(
    built: tuple[GraphShard, dict[str, GraphShard]],
) -> None:
    """A walk passes through repositories the query may not see (a restricted caller's query is
    limited to its own): hits, snippets, notes and suggestions then name nothing from them."""
    _, parts = built
    hits, _, _, _ = merged(parts, ModalityQuery(text="impact of changing normalize", k=50, repos=("gamma",)))
    run = next(h for h in hits if h.symbol == "run")
    assert {h.repo for h in hits} == {
        "gamma"
    } and run.snippet == "distance 2: uses (a definition in another repository)"
    open_hits, _, _, _ = merged(parts, ModalityQuery(text="impact of changing normalize", k=50))
    # run uses parse and beta's helper, both dependents at distance 1 with the same confidence: either is named
    # (partitions hand each on in its own round)
    assert next(h for h in open_hits if h.symbol == "run").snippet in (
        "distance 2: uses helper",
        "distance 2: uses parse",
    )
    _, _, notes, _ = merged(parts, ModalityQuery(text="who calls normalise", k=10, repos=("gamma",)))
    assert not any("normalize" in n for n in notes)  # beta's near name is not suggested to gamma
    _, _, notes, _ = merged(parts, ModalityQuery(text="path from main to fmt", k=10, repos=("gamma",)))
    assert (
        notes[-1] == "graph: path main -> run -> helper -> (a definition in another repository)"  # gamma's own helper
    )


@pytest.mark.parametrize(
    ("option", "value"),
    [
        (SEEDS_OPTION, "not json"),
        (SEEDS_OPTION, "[[0, 1]]"),
        (SEEDS_OPTION, "[[99999, 0, 1.0]]"),
        (SEEDS_OPTION, "[[0, 0, 1.5]]"),
        (PATH_OPTION, "{}"),
        (PATH_OPTION, '{"pending": [[0, 0, []]], "best": null, "done": []}'),
    ],
)
def test_malformed_follow_up_options_are_invalid_queries(
    built: tuple[GraphShard, dict[str, GraphShard]], option: str, value: str
) -> None:
    _, parts = built
    text = "impact of changing fmt" if option == SEEDS_OPTION else "path from main to fmt"
    with pytest.raises(InvalidQuery, match=re.escape(option)):
        parts["alpha"].search(ModalityQuery(text=text, options={option: value}))


def test_build_lays_out_one_partition_per_repository_or_the_single_graph(tmp_path: Path) -> None:
    from fourfold.errors import InvalidInput
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    repos = [(FIXTURE / repo, repo) for repo in REPOS]
    partitioned = IndexStore(tmp_path / "partitioned")
    build_generation(partitioned, repos, modalities=["graph"])
    reader = partitioned.require_live()
    assert [(s.shard, s.repos) for s in reader.shards("graph")] == [(r, (r,)) for r in REPOS]
    assert sum(s.segments for s in reader.shards("graph")) == sum(1 for s in fixture_segments())
    reader.close()
    single = IndexStore(tmp_path / "single")
    build_generation(single, repos, modalities=["graph"], settings={"graph.sharding": "global"})
    reader = single.require_live()
    assert [(s.shard, s.repos) for s in reader.shards("graph")] == [("all", REPOS)]
    reader.close()
    with pytest.raises(InvalidInput, match=r"graph\.sharding='repo'"):
        build_generation(IndexStore(tmp_path / "bad"), repos, modalities=["graph"], settings={"graph.sharding": "repo"})


@pytest.mark.cluster
@pytest.mark.slow
def test_partitions_end_to_end_through_ray_and_grpc(tmp_path: Path) -> None:
    """Real workers, one per partition, behind the coordinator's gRPC API."""
    import grpc

    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore
    from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc

    home = tmp_path / "home"
    build_generation(IndexStore(home), [(FIXTURE / repo, repo) for repo in REPOS], modalities=["graph"])
    with EmbeddedServer(home) as server, grpc.insecure_channel(server.address) as channel:
        stub = coordinator_pb2_grpc.CoordinatorStub(channel)
        status = stub.Status(coordinator_pb2.StatusRequest(), timeout=60)
        graph = sorted(
            sh.shard for sh in status.shards if sh.modality == "graph" and sh.generation == status.generation
        )
        assert graph == list(REPOS)  # one graph shard per repository

        def search(query: str, **kw: Any) -> coordinator_pb2.SearchResponse:
            return stub.Search(coordinator_pb2.SearchRequest(query=query, modalities=["graph"], k=20, **kw), timeout=60)

        callers = search("who calls fmt")
        assert ("beta", "service.py") in {
            (h.repo, h.path.rsplit("/", 1)[-1]) for h in callers.hits
        }  # another repository
        assert not callers.partial
        impact = search("impact of changing normalize")
        run = [h for h in impact.hits if (h.repo, h.symbol) == ("gamma", "run")]
        assert run and run[0].match_lines == [23, 25]  # two repositories away: beta -> alpha -> gamma
        assert any(t.stage.startswith("follow_up:") for t in impact.timings)
        only_gamma = search("impact of changing normalize", repos=["gamma"])
        assert {h.repo for h in only_gamma.hits} == {"gamma"} and "run" in {h.symbol for h in only_gamma.hits}


def _copy_fixture(root: Path) -> list[tuple[Path, str]]:
    import shutil

    out = []
    for repo in REPOS:
        shutil.copytree(FIXTURE / repo, root / repo)
        out.append((root / repo, repo))
    lone = root / "delta" / "delta"
    lone.mkdir(parents=True)
    (lone / "__init__.py").write_text("def lonely(x):\n    return x\n")
    out.append((root / "delta", "delta"))
    return out


def _graph_inodes(reader: Any) -> dict[str, int]:
    return {s.shard: (reader.shard_dir(s) / "edges.npz").stat().st_ino for s in reader.shards("graph")}


def test_an_update_rebuilds_the_changed_partition_and_those_that_import_it(tmp_path: Path) -> None:
    """Real builds: a partition is rebuilt when its repository changed or it imports one that did;
    every other partition is carried as hard links; the answers stay those of a fresh build."""
    import fourfold.plugins.graph.plugin as graph_plugin
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    repos = _copy_fixture(tmp_path / "src")
    store = IndexStore(tmp_path / "home")
    read: list[list[str]] = []
    real_graph_of = graph_plugin.graph_of

    def graph_of(segments: list[Segment], keep: bool) -> Any:
        if not keep:  # a partition's graph: which repositories it read
            read.append(sorted({s.repo for s in segments}))
        return real_graph_of(segments, keep=keep)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(graph_plugin, "graph_of", graph_of)
        build_generation(store, repos, modalities=["graph"])
    # each from its repository and those it imports: delta imports nothing, beta only alpha
    assert sorted(read) == [["alpha", "beta"], ["alpha", "beta", "gamma"], ["alpha", "beta", "gamma"], ["delta"]]
    first = _graph_inodes(store.require_live())
    # gamma is imported by alpha (tick -> tock); beta and delta import nothing of gamma's. Code added
    # at the end of a file moves none of the nodes alpha points at: alpha carries too
    app = tmp_path / "src" / "gamma" / "gamma" / "app.py"
    app.write_text(app.read_text() + "\n\ndef added(n):\n    return tock(n)\n")
    summary = build_generation(store, [], modalities=["graph"])
    second = _graph_inodes(store.require_live())
    assert summary.changed_repos == ["gamma"]
    assert {r for r in first if first[r] == second[r]} == {"alpha", "beta", "delta"}  # carried, not rewritten
    assert summary.carried_shards == 3
    # a line inserted above tock moves it (its id is its place): alpha, which calls it, is rebuilt
    app.write_text("# moved\n" + app.read_text())
    build_generation(store, [], modalities=["graph"])
    moved = _graph_inodes(store.require_live())
    assert {r for r in second if second[r] == moved[r]} == {"beta", "delta"}
    # alpha looks for a name gamma does not define; when gamma comes to define it, alpha is rebuilt
    core = tmp_path / "src" / "alpha" / "alpha" / "core.py"
    core.write_text(core.read_text() + "\n\ndef later(n):\n    from gamma.app import soon\n\n    return soon(n)\n")
    build_generation(store, [], modalities=["graph"])
    asked = _graph_inodes(store.require_live())
    app.write_text(app.read_text() + "\n\ndef soon(n):\n    return n\n")
    build_generation(store, [], modalities=["graph"])
    defined = _graph_inodes(store.require_live())
    assert {r for r in asked if asked[r] == defined[r]} == {"beta", "delta"}
    # a new repository that provides a name delta imports (and could not resolve) rebuilds delta
    (tmp_path / "src" / "delta" / "delta" / "__init__.py").write_text(
        "from epsilon import shout\n\n\ndef lonely(x):\n    return shout(x)\n"
    )
    build_generation(store, [], modalities=["graph"])
    third = _graph_inodes(store.require_live())
    eps = tmp_path / "src" / "epsilon" / "epsilon"
    eps.mkdir(parents=True)
    (eps / "__init__.py").write_text("def shout(x):\n    return str(x).upper()\n")
    build_generation(store, [(tmp_path / "src" / "epsilon", "epsilon")], modalities=["graph"])
    reader = store.require_live()
    fourth = _graph_inodes(reader)
    assert {r for r in third if third[r] == fourth[r]} == {"alpha", "beta", "gamma"}
    parts = {s.shard: GraphShard.open(reader.shard_dir(s)) for s in reader.shards("graph")}
    hits, _, _, _ = merged(parts, ModalityQuery(text="who calls shout", k=10))
    assert {h.repo for h in hits} == {"delta"} and "lonely" in {h.symbol for h in hits}  # and its import line
    # the carried partitions answer as a fresh build of the same files does
    fresh = IndexStore(tmp_path / "fresh")
    build_generation(fresh, [(tmp_path / "src" / r, r) for r in (*REPOS, "delta", "epsilon")], modalities=["graph"])
    fresh_reader = fresh.require_live()
    fresh_parts = {s.shard: GraphShard.open(fresh_reader.shard_dir(s)) for s in fresh_reader.shards("graph")}
    for text in ("impact of changing fmt", "who calls tock", "path from main to fmt", "callees of tick"):
        query = ModalityQuery(text=text, k=100, options={"depth": "3"})
        assert comparable(merged(parts, query)[0]) == comparable(merged(fresh_parts, query)[0]), text
    # a removed repository rebuilds its importers (alpha imports gamma's tock)
    store.unregister_repo("gamma")
    before = _graph_inodes(store.require_live())
    build_generation(store, [], modalities=["graph"])
    after = _graph_inodes(store.require_live())
    assert {r for r in after if before[r] == after[r]} == {"beta", "delta", "epsilon"}


def test_a_new_branch_of_a_library_neither_rebuilds_nor_doubles_its_importers(tmp_path: Path) -> None:
    """gamma@feature provides what gamma does, but code importing gamma reads gamma's default branch:
    alpha (which calls gamma's tock) is carried, and its calls reach gamma's tock alone."""
    import shutil

    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore
    from fourfold.plugins.graph.links import is_revision, read_links

    repos = _copy_fixture(tmp_path / "src")
    store = IndexStore(tmp_path / "home")
    build_generation(store, repos, modalities=["graph"])
    before = _graph_inodes(store.require_live())
    branch = tmp_path / "src" / "gamma@feature"
    shutil.copytree(tmp_path / "src" / "gamma", branch)
    app = branch / "gamma" / "app.py"
    app.write_text(app.read_text() + "\n\ndef feature_only(n):\n    return tock(n)\n")
    summary = build_generation(store, [(branch, "gamma@feature")], modalities=["graph"])
    reader = store.require_live()
    after = _graph_inodes(reader)
    assert {r for r in before if before[r] == after.get(r)} == set(before)  # every partition carried
    assert summary.carried_shards == len(before)
    links = read_links(reader.shard_dir(reader.shard("graph", "alpha")))
    assert links is not None and "gamma@feature" not in links.dependencies
    parts = {s.shard: GraphShard.open(reader.shard_dir(s)) for s in reader.shards("graph")}
    callers, _, _, _ = merged(parts, ModalityQuery(text="who calls tock", k=50))
    assert {"alpha", "gamma@feature"} <= {h.repo for h in callers}
    assert "feature_only" in {h.symbol for h in callers if h.repo == "gamma@feature"}
    callees, _, _, _ = merged(parts, ModalityQuery(text="callees of tick", k=50))
    assert {h.repo for h in callees if h.symbol == "tock"} == {"gamma"}  # not the branch's tock too
    assert is_revision("gamma@feature") and not is_revision("gamma")


def _chain_fleet(root: Path, n: int) -> list[tuple[Path, str]]:
    """``n`` small repositories, each calling the previous one's function: r00 <- r01 <- ..."""
    out = []
    for i in range(n):
        pkg = root / f"r{i:02d}" / f"r{i:02d}"
        pkg.mkdir(parents=True)
        if i == 0:
            body = "def f_00(x):\n    return x\n"
        else:
            body = f"from r{i - 1:02d} import f_{i - 1:02d}\n\n\ndef f_{i:02d}(x):\n    return f_{i - 1:02d}(x) + 1\n"
        (pkg / "__init__.py").write_text(body)
        out.append((root / f"r{i:02d}", f"r{i:02d}"))
    return out


def test_small_repositories_share_packed_partitions_that_answer_as_the_single_graph(tmp_path: Path) -> None:
    """Twenty small repositories: their graph is a handful of packed partitions (``~p-``), not twenty;
    the answers equal the single graph's; an edit rebuilds only the pack holding the edited one."""
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    repos = _chain_fleet(tmp_path / "src", 20)
    settings = {"compound.target": "300"}  # a few repositories a pack
    store = IndexStore(tmp_path / "home")
    build_generation(store, repos, modalities=["graph"], settings=settings)
    reader = store.require_live()
    specs = reader.shards("graph")
    assert 2 <= len(specs) <= 10 and all(s.shard.startswith("~p-") for s in specs)
    assert sorted(r for s in specs for r in s.repos) == [name for _, name in repos]
    single = IndexStore(tmp_path / "single")
    build_generation(single, repos, modalities=["graph"], settings={"graph.sharding": "global"})
    whole = GraphShard.open(single.require_live().shard_dir(single.require_live().shards("graph")[0]))

    def packed() -> dict[str, GraphShard]:
        live = store.require_live()
        return {s.shard: GraphShard.open(live.shard_dir(s)) for s in live.shards("graph")}

    def same(parts: dict[str, GraphShard]) -> None:
        for text in ("who calls f_05", "impact of changing f_03", "callees of f_10", "path from f_12 to f_08"):
            query = ModalityQuery(text=text, k=100, options={"depth": "4"})
            got = comparable(merged(parts, query, reader_specs(store))[0])
            assert got == comparable(as_merged([whole.search(query).hits], query)), text

    same(packed())
    before = {s.shard: (s.repos, (reader.shard_dir(s) / "edges.npz").stat().st_ino) for s in specs}
    (tmp_path / "src" / "r07" / "r07" / "__init__.py").write_text(
        "from r06 import f_06\n\n\ndef f_07(x):\n    return f_06(x) + 7\n\n\ndef g_07(y):\n    return f_07(y)\n"
    )
    summary = build_generation(store, [], modalities=["graph"], settings=settings)
    after_reader = store.require_live()
    after = {s.shard: s for s in after_reader.shards("graph")}
    assert summary.changed_repos == ["r07"] and after["r07"].repos == ("r07",)  # a partition of its own
    pack = next(s for s in after.values() if "r07" in s.dead)  # its pack: carried, r07 a tombstone
    assert (after_reader.shard_dir(pack) / "edges.npz").stat().st_ino == before[pack.shard][1]
    assert all(
        before[k][1] == (after_reader.shard_dir(s) / "edges.npz").stat().st_ino for k, s in after.items() if k != "r07"
    )
    # the answers are those of the single graph over the edited sources (the host names the dead)
    fresh = IndexStore(tmp_path / "fresh")
    build_generation(fresh, repos, modalities=["graph"], settings={"graph.sharding": "global"})
    whole = GraphShard.open(fresh.require_live().shard_dir(fresh.require_live().shards("graph")[0]))
    live = {k: GraphShard.open(after_reader.shard_dir(s)) for k, s in after.items()}
    for text in ("who calls f_07", "impact of changing f_05", "callees of g_07", "path from f_09 to f_06"):
        query = ModalityQuery(text=text, k=100, options={"depth": "4"})
        got = merged(live, query, {k: s.repos for k, s in after.items()}, after)[0]
        assert comparable(got) == comparable(as_merged([whole.search(query).hits], query)), text
    # a second edit of r07 rebuilds its own partition alone: its pack, which still lists it (dead),
    # says nothing of the names r07 defines now
    init = tmp_path / "src" / "r07" / "r07" / "__init__.py"
    init.write_text(init.read_text() + "\n\ndef h_07(z):\n    return z\n")
    again = build_generation(store, [], modalities=["graph"], settings=settings)
    assert again.carried_shards == again.shards - 1 and again.changed_repos == ["r07"]


def reader_specs(store: Any) -> dict[str, tuple[str, ...]]:
    return {s.shard: s.repos for s in store.require_live().shards("graph")}


def test_a_changed_repository_is_judged_by_its_own_partition_not_by_a_pack_that_lists_it_dead(
    tmp_path: Path,
) -> None:
    """``stale``: repository c has a partition of its own and is still listed (dead) in the pack it
    left. c's edit adds only ``z``; the pack {a, b}, which missed ``x`` long ago (c defined it
    already), must carry: what c newly defines is read against c's own previous names."""
    from fourfold.plugins.graph.links import Links, Surface, stale

    def write(name: str, links: Links) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        links.write(folder)
        return folder

    previous = {
        "c": write("c", Links("c", (), (), ("py:c",), ("x", "y"), {}, (), ("c",))),
        "~p-ab": write("ab", Links("a", ("c",), ("py:c",), ("py:a",), ("f",), {"c": ("id1",)}, ("x",), ("a", "b"))),
        "~p-cd": write("cd", Links("c", (), (), ("py:c", "py:d"), ("q",), {}, (), ("c", "d"))),
    }
    surface = Surface(frozenset({"id1", "id2"}), frozenset({"x", "y", "z"}))
    assert stale(frozenset({"c"}), previous, {"c": frozenset({"py:c"})}, {"c": surface}) == frozenset()
    # and a name it missed that c now defines makes it stale
    grown = Surface(frozenset({"id1"}), frozenset({"x", "y", "w"}))
    previous["~p-ab"] = write(
        "ab2", Links("a", ("c",), ("py:c",), ("py:a",), ("f",), {"c": ("id1",)}, ("w",), ("a", "b"))
    )
    assert stale(frozenset({"c"}), previous, {"c": frozenset({"py:c"})}, {"c": grown}) == frozenset({"~p-ab"})


def test_the_partitions_truncation_notes_of_one_name_are_said_once(
    built: tuple[GraphShard, dict[str, GraphShard]],
) -> None:
    """A name used in several partitions is truncated in each; the modality says so once, the partitions' counts
    summed (``partition_notes.merge``), never more than the single graph counts."""
    single, parts = built
    count = re.compile(r"graph: truncated: (\d+) segments (in (\d+) partitions|in \w+) use ")
    several = 0
    for name in definitions(single):
        query = ModalityQuery(text=f"who calls {name}", k=1, intent="find_references")
        whole = [
            int(m[1])
            for n in single.search(query).notes
            if (m := count.match(n) or re.match(r"graph: truncated: (\d+)", n))
        ]
        _, _, notes, _ = merged(parts, query)
        each = [int(m[1]) for n in notes if (m := count.match(n))]
        said = [m for n in GraphModality().merge_notes(notes) if (m := count.match(n))]
        if len(each) > 1:
            several += 1
            assert len(said) == 1 and said[0][3] == str(len(each)) and int(said[0][1]) == sum(each), notes
            assert int(said[0][1]) <= whole[0]
        else:
            assert [int(m[1]) for m in said] == each
    assert several, "some name is truncated in several partitions"
