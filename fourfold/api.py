"""The values a caller of fourfold sends and receives: a search, its answer, an index's progress and
summary, a status.

They are what the public client returns, what the engine computes and what the wire carries
(:mod:`fourfold.wire` converts them to and from protobuf). This module imports nothing heavier
than the standard library and :mod:`fourfold.plugins.types` (for :class:`Hit`), so a client that
only talks to a coordinator never loads the engine, Ray, NumPy or a model runtime.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fourfold.plugins.types import Hit

__all__ = [
    "DEFAULT_DEADLINE_MS",
    "DEFAULT_K",
    "Answer",
    "FileSymbol",
    "FileText",
    "FusedHit",
    "Hit",
    "IndexProgress",
    "IndexSummary",
    "ModalityRank",
    "RepoInfo",
    "SearchParams",
    "ShardInfo",
    "Status",
    "totals_text",
]

DEFAULT_K = 10
DEFAULT_DEADLINE_MS = 5_000


@dataclass(frozen=True, slots=True)
class SearchParams:
    """One search as a caller asks it (every field but ``query`` has a default)."""

    query: str
    k: int = DEFAULT_K
    repos: tuple[str, ...] = ()
    intent: str = ""
    preset: str = "default"
    modalities: tuple[str, ...] = ()
    weights: Mapping[str, float] = field(default_factory=dict)
    deadline_ms: int = DEFAULT_DEADLINE_MS
    path_glob: str = ""
    languages: tuple[str, ...] = ()
    case_sensitive: bool = False
    options: Mapping[str, str] = field(default_factory=dict)
    with_snippets: bool = False
    cursor: str = ""  # a literal/regex listing's next page (Answer.cursor of the previous one)


@dataclass(frozen=True, slots=True)
class ModalityRank:
    """Where one modality ranked a fused hit, what that rank contributed, and the modality's own score."""

    rank: int
    contribution: float
    score: float


@dataclass(frozen=True, slots=True)
class FusedHit:
    """A hit after fusion: its fused score and each contributing modality's rank."""

    hit: Hit
    score: float
    modalities: Mapping[str, ModalityRank] = field(default_factory=dict)
    demoted: bool = False


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer to a search: the plan it ran (intent, strategy, weights), the hits and how complete it is."""

    intent: str
    confidence: float
    fusion_strategy: str
    preset: str
    partial: bool
    missing_shards: tuple[str, ...]
    hits: tuple[FusedHit, ...]
    total_candidates: int
    timings: Mapping[str, float]
    generation: str
    notes: tuple[str, ...]
    weights: Mapping[str, float]
    rerank: str = ""  # "<reranker>" when it reordered the candidates, "skipped (<reason>)", "" when not asked
    no_confident_match: bool = False
    confidences: tuple[float | None, ...] = ()  # per hit (rerank / 10, else semantic similarity)
    # literal and regex search: matching lines and files in all, whether those are exact (not lower
    # bounds), whether the hits are every match, and the next page's cursor ("" on the last page); a
    # path listing (mode paths) counts files only
    total_matches: int = 0
    total_files: int = 0
    total_exact: bool = False
    complete: bool = False
    cursor: str = ""

    def totals(self) -> str:
        """The listing's totals in words (:func:`totals_text`)."""
        return totals_text(self.total_matches, self.total_files, self.total_exact)


def totals_text(lines: int, files: int, exact: bool) -> str:
    """A listing's totals in words ("at least 40 matching lines in 12 files"; "7 matching files" for a path
    listing, which counts no lines); "" where the search counted none."""
    if not (files or lines):
        return ""
    bound = "" if exact else "at least "
    if not lines:
        return f"{bound}{files} matching files"
    return f"{bound}{lines} matching lines in {bound}{files} files"


@dataclass(frozen=True, slots=True)
class IndexProgress:
    """One report of an index build or a fleet sync, for a progress bar and for a log.

    ``done`` of ``total`` ``unit`` (files, shards, windows, repositories, steps) in ``stage``
    (``segment``, ``centrality``, ``carry``, ``build:<modality>``, ``switch``, ``deploy``,
    ``sync:<repository>``); ``repo`` names the repository when the stage goes repository by
    repository, ``shard`` (``modality/shard``) the shard when the report counts inside one shard's
    build (its windows). For one (stage, unit, repo, shard), ``total`` stays and ``done`` only
    grows. ``rate`` (units a second) and ``eta_s`` (seconds left) are None until measured.
    ``message`` is the same report as one line of text.
    """

    stage: str
    done: int = 0
    total: int = 0
    message: str = ""
    unit: str = ""
    repo: str = ""
    rate: float | None = None
    eta_s: float | None = None
    shard: str = ""

    @property
    def fraction(self) -> float | None:
        """How far the stage is, from 0 to 1; None when its total is unknown."""
        return min(self.done / self.total, 1.0) if self.total > 0 else None


@dataclass
class IndexSummary:
    """What an index build did (filled in as the build runs, hence not frozen)."""

    generation: str = ""
    files: int = 0
    segments: int = 0
    bytes: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    reused_files: int = 0
    parse_errors: int = 0
    unsupported_languages: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    shards: int = 0
    #: ``modality/shard: error`` of each shard whose build failed (the rest was published).
    failed_shards: list[str] = field(default_factory=list)
    carried_shards: int = 0  # shards linked from the previous generation, not rebuilt
    changed_repos: list[str] = field(default_factory=list)  # repositories whose shards were rebuilt
    live_seconds: float = 0.0  # from the start until the new generation was live (before the clean-up)
    #: stage -> {"seconds", "cpu_seconds"}: where the build's time went (see ``index.progress.StageClock``)
    stages: dict[str, dict[str, float]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "generation": self.generation,
            "files": self.files,
            "segments": self.segments,
            "bytes": self.bytes,
            "skipped": dict(self.skipped),
            "reused_files": self.reused_files,
            "parse_errors": self.parse_errors,
            "unsupported_languages": dict(self.unsupported_languages),
            "seconds": round(self.seconds, 3),
            "shards": self.shards,
            "failed_shards": list(self.failed_shards),
            "carried_shards": self.carried_shards,
            "changed_repos": list(self.changed_repos),
            "live_seconds": round(self.live_seconds, 3),
            "stages": dict(self.stages),
        }


@dataclass(frozen=True, slots=True)
class RepoInfo:
    """A repository the caller may read (``path`` only for admin tokens)."""

    name: str
    path: str
    files: int
    segments: int


@dataclass(frozen=True, slots=True)
class ShardInfo:
    """A serving worker (``address`` only for admin tokens)."""

    modality: str
    shard: str
    replica: int
    generation: str
    health: str
    address: str


@dataclass(frozen=True, slots=True)
class Status:
    """What the coordinator serves, as far as the caller may see."""

    generation: str
    repos: tuple[RepoInfo, ...]
    shards: tuple[ShardInfo, ...]
    modalities: tuple[str, ...]
    version: str
    nodes: int
    #: The latest report of a build the coordinator is running (None when none is): a page's bar.
    building: IndexProgress | None = None


@dataclass(frozen=True, slots=True)
class FileSymbol:
    """A definition in a file."""

    symbol: str
    kind: str
    start_line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class FileText:
    """Lines ``start_line``..``end_line`` of a file as indexed, with its definitions (what ReadFile answers)."""

    repo: str
    path: str
    language: str
    generation: str
    start_line: int
    end_line: int
    total_lines: int
    content: str
    symbols: tuple[FileSymbol, ...]

    def numbered(self, max_chars: int = 0) -> tuple[str, int]:
        """The lines as a reader shows them, each after its number, under a header naming the file and the lines
        shown (``pay:src/api.py:1-40 of 120 lines · python``); with ``max_chars``, only the lines that fit. Also the
        line to read on from: 0 where the file's last line is shown."""
        rows = self.content.split("\n")
        width = len(str(self.end_line))
        shown: list[str] = []
        size = 80 + len(self.repo) + len(self.path)  # the header's
        for n, row in enumerate(rows, self.start_line):
            line = f"{n:>{width}}  {row}"
            if max_chars and shown and size + len(line) + 1 > max_chars:
                break
            shown.append(line)
            size += len(line) + 1
        last = self.start_line + len(shown) - 1
        head = f"{self.repo}:{self.path}:{self.start_line}-{last} of {self.total_lines} lines · {self.language}"
        return "\n".join([head, *shown]), (last + 1 if last < self.total_lines else 0)
