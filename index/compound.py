"""Compound shards: many small repositories in one shard, with tombstones and compaction.

Sharded one per repository, a fleet of a thousand small repositories would make every search fan
out to a thousand shards per modality. So, for a modality sharded ``repo``, the repositories
below ``COMPOUND_BELOW`` bytes are packed (by name, each shard filled up to ``COMPOUND_TARGET``
bytes) into compound shards named ``~c-<id>``: '~' starts no repository name, so a compound
shard's name never collides with a repository's.

A compound shard is never rewritten for one repository's change. The next generation carries it
as it is (hard links) with that repository moved from ``repos`` to ``dead`` (a tombstone), and
the changed repository gets a fresh single shard of its own. Whatever hosts a shard (a worker, the
in-process searcher) narrows each query to the shard's live repositories with :func:`shard_query`,
so a tombstoned repository's stale content is never answered for nor counted. Compaction re-packs
when small single shards pile up (``COMPACT_SINGLES`` of one modality) or when a compound shard
is more than half dead; a build without a previous generation to carry from packs every small
repository at once.

Only repositories without build settings of their own are packed: a shard is built under one set
of settings, so a repository with its own (an embedder) keeps a shard of its own.

Build settings override the thresholds: ``compound.below`` (bytes; 0 packs nothing),
``compound.target`` (bytes) and ``compound.compact`` (small single shards that trigger compaction).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from fourfold.errors import InvalidInput
from fourfold.index.store import ShardSpec
from fourfold.plugins.types import ModalityQuery, ShardResult

__all__ = [
    "COMPACT_SINGLES",
    "COMPOUND_BELOW",
    "COMPOUND_MAX_REPOS",
    "COMPOUND_PREFIX",
    "COMPOUND_TARGET",
    "PARTITION_PREFIX",
    "PARTITION_TARGET",
    "CompoundPolicy",
    "RepoShardPlan",
    "compound_policy",
    "compound_spec",
    "is_compound",
    "pack",
    "partition_spec",
    "plan_partitions",
    "plan_repo_shards",
    "shard_query",
    "skipped_result",
]

#: How a compound shard's name starts (no repository name may contain '~').
COMPOUND_PREFIX = "~c-"
#: A repository with fewer bytes of files than this is packed into a compound shard.
COMPOUND_BELOW = 1 << 20
#: Bytes a compound shard is filled up to (repositories by name; the last one may pass it).
COMPOUND_TARGET = 32 << 20
#: Repositories one compound shard holds at most: a query to it names its live repositories, and
#: a filter of thousands of names costs every search (SQLite also caps a statement's parameters).
COMPOUND_MAX_REPOS = 1024
#: Small single shards of one modality (changed repositories taken out of their compound) that
#: make a build re-pack them into compound shards.
COMPACT_SINGLES = 16


@dataclass(frozen=True, slots=True)
class CompoundPolicy:
    """When repositories are packed together and when packs are redone."""

    below: int = COMPOUND_BELOW
    target: int = COMPOUND_TARGET
    compact_singles: int = COMPACT_SINGLES


def compound_policy(settings: Mapping[str, str]) -> CompoundPolicy:
    """The build's policy: the defaults, overridden by ``compound.below``/``.target``/``.compact``.

    Raises ``InvalidInput`` for a value that is not a whole number of the right size.
    """
    values = {"below": COMPOUND_BELOW, "target": COMPOUND_TARGET, "compact": COMPACT_SINGLES}
    for key, default in values.items():
        raw = settings.get(f"compound.{key}", "").strip()
        if not raw:
            continue
        if not raw.isdigit() or (key != "below" and int(raw) < 1):
            low = 0 if key == "below" else 1
            raise InvalidInput(
                f"build setting compound.{key}={raw!r} is not a whole number >= {low}; e.g. compound.{key}={default}"
            )
        values[key] = int(raw)
    return CompoundPolicy(values["below"], values["target"], values["compact"])


def is_compound(spec: ShardSpec) -> bool:
    """Whether ``spec`` is a compound shard (several small repositories, maybe tombstones)."""
    return spec.shard.startswith(COMPOUND_PREFIX)


def compound_spec(modality: str, repos: Sequence[str]) -> ShardSpec:
    """The compound shard of ``repos``: its name is a digest of the names, so the same pack of the
    same repositories is named the same, and two packs of one generation (disjoint) never are."""
    names = tuple(sorted(repos))
    digest = hashlib.blake2b("\0".join(names).encode(), digest_size=6).hexdigest()
    shard = f"{COMPOUND_PREFIX}{digest}"
    return ShardSpec(modality, shard, f"{modality}/{shard}", names)


def pack(modality: str, sizes: Mapping[str, int], target: int) -> list[ShardSpec]:
    """Compound shards over ``sizes``' repositories: taken by name, each filled up to ``target`` bytes
    (and ``COMPOUND_MAX_REPOS`` repositories)."""
    packs: list[list[str]] = []
    current: list[str] = []
    current_bytes = 0
    for repo in sorted(sizes):
        if current and (current_bytes + sizes[repo] > target or len(current) >= COMPOUND_MAX_REPOS):
            packs.append(current)
            current, current_bytes = [], 0
        current.append(repo)
        current_bytes += sizes[repo]
    if current:
        packs.append(current)
    return [compound_spec(modality, names) for names in packs]


@dataclass(frozen=True, slots=True)
class RepoShardPlan:
    """One ``repo``-sharded modality's shards in the next generation."""

    carried: tuple[ShardSpec, ...]  # previous shards linked as they are (compound ones with new tombstones)
    compounds: tuple[ShardSpec, ...]  # compound shards to build
    singles: tuple[str, ...]  # repositories that get shards of their own, built anew


def plan_repo_shards(
    modality: str,
    sizes: Mapping[str, int],
    unchanged: Collection[str],
    packable: Collection[str],
    prev_specs: Sequence[ShardSpec],
    present: Callable[[ShardSpec], bool],
    policy: CompoundPolicy,
) -> RepoShardPlan:
    """Which shards of a modality carry, which compound shards are packed, which repositories get
    single shards.

    ``sizes``: bytes of each repository that wants the modality; ``unchanged``: those whose
    segments are the previous generation's; ``packable``: those that may share a shard (no build
    settings of their own); ``prev_specs``: the modality's shards in the previous generation (empty
    when nothing may be carried from it); ``present``: whether a previous shard's folder exists.
    """
    small = {r for r in sizes if r in packable and sizes[r] < policy.below}
    carried: list[ShardSpec] = []
    covered: set[str] = set()
    repack: set[str] = set()  # live repositories of compound shards that are re-packed now
    singles_before: dict[str, list[ShardSpec]] = {}
    for spec in prev_specs:
        if not is_compound(spec):
            singles_before.setdefault(spec.repos[0], []).append(spec)
            continue
        live = tuple(r for r in spec.repos if r in unchanged and r in small)
        dead = tuple(sorted({*spec.dead, *(r for r in spec.repos if r not in live)}))
        if live and present(spec) and 2 * len(dead) <= len(live) + len(dead):
            carried.append(replace(spec, repos=live, dead=dead))
            covered.update(live)
        else:  # gone, or more than half dead: its live repositories are packed again
            repack.update(live)
    single_carried: dict[str, list[ShardSpec]] = {}
    for repo, specs in singles_before.items():
        if repo in sizes and repo in unchanged and repo not in covered and all(present(s) for s in specs):
            single_carried[repo] = specs
    loose = [r for r in sorted(sizes) if r not in covered and r not in single_carried and r not in repack]
    loose_small = {r for r in loose if r in small}
    small_singles = {r for r in single_carried if r in small}
    if len(loose_small) + len(small_singles) >= policy.compact_singles:
        pool = repack | loose_small | small_singles  # compaction (a first build of a fleet: every small one)
    else:
        pool = set(repack)
    for repo, specs in sorted(single_carried.items()):
        if repo not in pool:
            carried.extend(specs)
    compounds = pack(modality, {r: sizes[r] for r in pool}, policy.target) if pool else []
    singles = tuple(r for r in loose if r not in pool)
    return RepoShardPlan(tuple(carried), tuple(compounds), singles)


#: How a packed partition's name starts (a partitioned modality's small repositories together).
PARTITION_PREFIX = "~p-"
#: Bytes a packed partition is filled up to. Smaller than a compound shard: a partition has no
#: tombstones (a walk through a dead repository's stale code would answer wrongly), so a change to
#: one of its repositories rebuilds it whole, and that must stay cheap.
PARTITION_TARGET = 4 << 20


def partition_spec(modality: str, repos: Sequence[str]) -> ShardSpec:
    """The packed partition of ``repos`` (a digest of the names, as ``compound_spec``)."""
    spec = compound_spec(modality, repos)
    shard = PARTITION_PREFIX + spec.shard[len(COMPOUND_PREFIX) :]
    return replace(spec, shard=shard, folder=f"{modality}/{shard}")


def plan_partitions(
    modality: str,
    sizes: Mapping[str, int],
    rebuild: Collection[str],
    packable: Collection[str],
    prev_specs: Sequence[ShardSpec],
    present: Callable[[ShardSpec], bool],
    policy: CompoundPolicy,
) -> tuple[tuple[ShardSpec, ...], tuple[ShardSpec, ...]]:
    """A partitioned modality's (carried, to build) partitions, small repositories packed together.

    ``sizes``: bytes of each repository that wants the modality; ``rebuild``: the previous
    partitions (by shard name) that must be built again (a repository of theirs changed, or the
    modality says a change made them stale). A packed partition carries whole or is rebuilt whole
    with its repositories still wanting it; small repositories on their own are packed once
    ``policy.compact_singles`` of them pile up (a first build: all of them), as compound shards are.
    """
    small = {r for r in sizes if r in packable and sizes[r] < policy.below}
    target = min(policy.target, PARTITION_TARGET)
    carried: list[ShardSpec] = []
    build: list[ShardSpec] = []
    placed: set[str] = set()
    singles: dict[str, ShardSpec] = {}
    for spec in prev_specs:
        if not spec.shard.startswith(PARTITION_PREFIX):
            if spec.repos and spec.repos[0] in sizes:
                singles[spec.repos[0]] = spec
            continue
        members = tuple(r for r in spec.repos if r in small)
        if not members:
            continue
        if members == spec.repos and spec.shard not in rebuild and present(spec):
            carried.append(spec)
        else:
            build.append(partition_spec(modality, members))
        placed.update(members)
    loose = [r for r in sorted(sizes) if r not in placed]
    loose_small = [r for r in loose if r in small]
    packed: set[str] = set()
    if len(loose_small) >= policy.compact_singles:
        groups: list[list[str]] = []
        current: list[str] = []
        current_bytes = 0
        for repo in loose_small:
            if current and (current_bytes + sizes[repo] > target or len(current) >= COMPOUND_MAX_REPOS):
                groups.append(current)
                current, current_bytes = [], 0
            current.append(repo)
            current_bytes += sizes[repo]
        if current:
            groups.append(current)
        build.extend(partition_spec(modality, g) for g in groups)
        packed = set(loose_small)
    for repo in loose:
        if repo in packed:
            continue
        before = singles.get(repo)
        if before is not None and before.shard not in rebuild and present(before):
            carried.append(before)
        else:
            build.append(ShardSpec(modality, repo, f"{modality}/{repo}", (repo,)))
    return tuple(carried), tuple(build)


def shard_query(spec: ShardSpec, query: ModalityQuery) -> ModalityQuery | None:
    """``query`` as shard ``spec`` must see it, or None when the shard holds nothing it asks for.

    A shard with tombstones still holds the dead repositories' files: "every repository" becomes
    its live ones, and a repository filter keeps only its live repositories, so neither a hit nor
    a count of a dead repository comes out. Other shards get the query as it is (a shard without
    tombstones holds exactly its ``repos``). Every host of shards calls this before ``search``.
    """
    if not spec.dead:
        return query
    if not query.repos:
        return replace(query, repos=spec.repos)
    live = set(spec.repos)
    wanted = tuple(r for r in query.repos if r in live)
    return replace(query, repos=wanted) if wanted else None


def skipped_result() -> ShardResult:
    """A shard's answer to a query none of whose repositories it holds alive: nothing."""
    return ShardResult(hits=(), total_matches=0)
