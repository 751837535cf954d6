"""What a plugin author needs to test a modality or a hook without Ray, gRPC or an index store.

    from fourfold.plugins.testing import run_modality, segments_from_files

    segments = segments_from_files("demo", {"app/auth.py": "def login(user):\\n    return user\\n"})
    result = run_modality(MyModality(), segments, "login")
    assert result.hits[0].symbol == "login"

``run_modality`` drives the same lifecycle the workers do (``build`` into a fresh folder, ``load``,
``search``, ``close``) and checks the contract on the way: the build's stats, the loaded shard's
methods, and that every hit names a segment that was built. ``EveryHookPlugin`` implements every
hook, records the calls, and is what fourfold's own tests register to prove the hook plumbing.
``line_definitions`` is a toy definition extractor (``fourfold_register_extractors``) for tests of
segmentation that must see definitions other than the structural extractor's.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fourfold.errors import PluginError
from fourfold.index.ingest.languages import detect_language
from fourfold.index.ingest.segment import segment_file
from fourfold.plugins.hookspecs import hookimpl
from fourfold.plugins.modality import BuildContext, BuildStats, Modality, Shard
from fourfold.plugins.types import Definition, Extraction, Hit, ModalityQuery, Segment, ShardResult

__all__ = [
    "LINE_DEFINITIONS_REFERENCE",
    "EveryHookPlugin",
    "FakeModality",
    "ModalityRun",
    "build_and_load",
    "line_definitions",
    "run_modality",
    "segments_from_files",
]

_DEF_LINE = re.compile(rb"^[ \t]*(?:async[ \t]+)?(def|class|fn|func|function)[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
_KINDS = {b"def": "function", b"class": "class", b"fn": "function", b"func": "function", b"function": "function"}

#: How a plugin registers :func:`line_definitions`: ``register("lines", "1", LINE_DEFINITIONS_REFERENCE)``.
LINE_DEFINITIONS_REFERENCE = "fourfold.plugins.testing:line_definitions"


def line_definitions(source: bytes, language: str) -> Extraction:
    """A toy extractor: every line that starts ``def``/``class``/``fn``/``func``/``function NAME`` is a
    one-line definition ``NAME``, in any language. Its segments differ visibly from the structural
    extractor's (whose definitions span their bodies), which is what tests of the hook need.
    """
    defs = []
    for match in _DEF_LINE.finditer(source):
        line = source.count(b"\n", 0, match.start()) + 1
        name = match.group(2).decode()
        defs.append(Definition(name=name, kind=_KINDS[match.group(1)], start_line=line, end_line=line))
    return Extraction(definitions=tuple(defs))


def segments_from_files(repo: str, files: Mapping[str, str]) -> list[Segment]:
    """Segment ``files`` (path -> text) exactly as fourfold's ingestion does, language from the path."""
    out: list[Segment] = []
    for path, text in sorted(files.items()):
        data = text.encode()
        out.extend(segment_file(repo, path, detect_language(path, data[:128]), data).segments)
    return out


@dataclass
class ModalityRun:
    """A built and loaded shard in a temporary folder; ``search`` checks each result's hits."""

    modality: Modality
    shard: Shard
    stats: BuildStats
    shard_dir: Path
    segment_ids: frozenset[str]
    _tmp: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)

    def search(self, query: ModalityQuery | str, **kw: Any) -> ShardResult:
        q = query if isinstance(query, ModalityQuery) else ModalityQuery(text=query, **kw)
        result = self.shard.search(q)
        _check_result(self.modality.name, result, q, self.segment_ids)
        return result

    def close(self) -> None:
        self.shard.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> ModalityRun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_and_load(
    modality: Modality,
    segments: Sequence[Segment],
    *,
    settings: Mapping[str, str] | None = None,
    repo_paths: Mapping[str, Path] | None = None,
    shard_dir: Path | None = None,
    previous_dir: Path | None = None,
) -> ModalityRun:
    """Build one shard of ``modality`` from ``segments`` and load it (a temporary folder unless ``shard_dir``).

    ``repo_paths`` become ``repo_path.<name>`` settings, as the indexer passes them.
    """
    tmp = None
    if shard_dir is None:
        tmp = tempfile.TemporaryDirectory(prefix=f"fourfold-{modality.name}-")
        shard_dir = Path(tmp.name)
    repos = tuple(sorted({s.repo for s in segments} | set(repo_paths or {})))
    all_settings = {**(settings or {}), **{f"repo_path.{r}": str(p) for r, p in (repo_paths or {}).items()}}
    ctx = BuildContext(
        generation="g000001",
        shard=repos[0] if len(repos) == 1 else "all",
        repos=repos,
        previous_dir=previous_dir,
        settings=all_settings,
    )
    stats = modality.build(list(segments), shard_dir, ctx)
    if not isinstance(stats, BuildStats):
        raise PluginError(f"modality {modality.name!r}: build() returned {type(stats).__name__}, not BuildStats")
    shard = modality.load(shard_dir)
    if not isinstance(shard, Shard):
        raise PluginError(
            f"modality {modality.name!r}: load() returned {type(shard).__name__}, which lacks search()/close()"
        )
    return ModalityRun(modality, shard, stats, shard_dir, frozenset(s.id for s in segments), tmp)


def run_modality(
    modality: Modality,
    segments: Sequence[Segment],
    query: ModalityQuery | str,
    *,
    settings: Mapping[str, str] | None = None,
    repo_paths: Mapping[str, Path] | None = None,
) -> ShardResult:
    """Build, load and search once in a temporary folder; the contract is checked along the way."""
    with build_and_load(modality, segments, settings=settings, repo_paths=repo_paths) as run:
        return run.search(query)


def _check_result(name: str, result: ShardResult, query: ModalityQuery, built: frozenset[str]) -> None:
    if not isinstance(result, ShardResult):
        raise PluginError(f"modality {name!r}: search() returned {type(result).__name__}, not ShardResult")
    if len(result.hits) > query.k:
        raise PluginError(f"modality {name!r}: {len(result.hits)} hits for k={query.k}")
    scores = [h.score for h in result.hits]
    if scores != sorted(scores, reverse=True):
        raise PluginError(f"modality {name!r}: hits are not ranked best first: scores {scores}")
    for h in result.hits:
        if not isinstance(h, Hit) or h.segment_id not in built:
            raise PluginError(f"modality {name!r}: hit {h!r} does not name a segment of the shard")


class _FakeShard:
    def __init__(self, segments: list[Segment]) -> None:
        self.segments = segments

    def search(self, query: ModalityQuery) -> ShardResult:
        words = query.text.lower().split()
        found = [s for s in self.segments if any(w in s.content.lower() for w in words)]
        hits = tuple(
            Hit(s.id, s.repo, s.path, s.start_line, s.end_line, 1.0 / (i + 1), s.symbol, s.kind, s.language)
            for i, s in enumerate(found[: query.k])
        )
        return ShardResult(hits, total_matches=len(found))

    def close(self) -> None:
        self.segments = []


@dataclass
class FakeModality:
    """A tiny modality: a segment matches when its text contains a query word.

    ``build`` writes the segments as JSON and ``load`` reads them back from the folder alone, as a
    real modality must. For tests of hosting, hooks and fusion that need a modality other than the
    built-ins.
    """

    name: str = "fake"
    sharding: str = "repo"

    def build(self, segments: Iterable[Segment], shard_dir: Path, context: BuildContext) -> BuildStats:
        rows = [{f: getattr(s, f) for f in Segment.__slots__} for s in segments]
        path = shard_dir / "segments.json"
        path.write_text(json.dumps(rows))
        return BuildStats(segments=len(rows), bytes_on_disk=path.stat().st_size)

    def load(self, shard_dir: Path) -> _FakeShard:
        rows = json.loads((shard_dir / "segments.json").read_text())
        return _FakeShard([Segment(**r) for r in rows])


class EveryHookPlugin:
    """A plugin implementing every hook in ``fourfold.plugins.hookspecs``; ``calls`` records them.

    Registers a ``FakeModality`` named ``fake``, an embedder and a reranker named ``fake``, the
    ``line_definitions`` extractor named ``fake``, an intent ``fake_intent`` (queries starting
    ``fake:``), adds itself to ``understand_code`` and gives every segment a centrality of 1.
    """

    def __init__(self, name: str = "fake") -> None:
        self.name = name
        self.calls: list[str] = []

    @hookimpl
    def fourfold_register_modalities(self, register: Callable[[Any], None]) -> None:
        self.calls.append("fourfold_register_modalities")
        register(FakeModality(self.name))

    @hookimpl
    def fourfold_register_embedders(self, register: Callable[[str, Callable[..., Any]], None]) -> None:
        self.calls.append("fourfold_register_embedders")
        register(self.name, lambda **settings: None)

    @hookimpl
    def fourfold_register_rerankers(self, register: Callable[[str, Callable[..., Any]], None]) -> None:
        self.calls.append("fourfold_register_rerankers")
        register(self.name, lambda **settings: None)

    @hookimpl
    def fourfold_register_extractors(self, register: Callable[[str, str, str], None]) -> None:
        self.calls.append("fourfold_register_extractors")
        register(self.name, "1", LINE_DEFINITIONS_REFERENCE)

    @hookimpl
    def fourfold_register_intents(self, register: Callable[..., None]) -> None:
        self.calls.append("fourfold_register_intents")
        register(f"{self.name}_intent", rf"^{self.name}:", 0.9, {self.name: 1.0})

    @hookimpl
    def fourfold_adjust_profiles(self, profiles: dict[str, dict[str, float]]) -> None:
        self.calls.append("fourfold_adjust_profiles")
        if "understand_code" in profiles:
            profiles["understand_code"][self.name] = 0.05

    @hookimpl
    def fourfold_compute_centrality(self, segments: Sequence[Segment]) -> Mapping[str, float] | None:
        self.calls.append("fourfold_compute_centrality")
        return {s.id: 1.0 for s in segments}
