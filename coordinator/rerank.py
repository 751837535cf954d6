"""The optional rerank stage: a model reorders the top fused candidates by 0-10 relevance.

Fusion ranks by agreement between modalities; a reranker reads the query and each candidate's
code together and scores relevance directly. It only ever reorders the first ``RERANK_DEPTH``
candidates (the rest keep their fused order after them), and it may never cost an answer: if it
fails, answers malformed scores or misses its deadline, the fused order stands and the answer's
status says ``rerank: skipped (<reason>)``.

Rerankers come from ``fourfold_register_rerankers`` plugins; the built-in one is ``voyage``
(:mod:`fourfold.plugins.rerankers`: Voyage AI's ``rerank-2.5``). No local reranker ships:
no package on PyPI installs a cross-encoder's weights without a model-hub download at first use
(``flashrank``, ``flash-rerank`` and the sentence-transformers wrappers all fetch them).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from fourfold.errors import InvalidQuery

__all__ = [
    "DEFAULT_RERANK_DEADLINE_S",
    "RERANK_DEPTH",
    "Reranked",
    "Reranker",
    "document_for",
    "make_reranker",
    "rerank_candidates",
]

#: How many fused candidates the reranker reads.
RERANK_DEPTH = 20
#: The reranker's own deadline; the search's remaining deadline caps it further.
DEFAULT_RERANK_DEADLINE_S = 2.0
#: A candidate's text as the reranker sees it: its path, then at most this many characters of code.
DOCUMENT_CHARS = 2_000
MAX_SCORE = 10.0


class Reranker(Protocol):
    """What ``fourfold_register_rerankers`` factories return."""

    def rerank(self, query: str, documents: list[str]) -> list[float]:
        """Relevance of each document to ``query``, 0 (unrelated) to 10 (answers it), in input order."""
        ...


@dataclass(frozen=True, slots=True)
class Reranked:
    """The stage's outcome: the new order of the candidates and each one's score (None: not read)."""

    order: tuple[int, ...]
    scores: tuple[float | None, ...]
    status: str  # "<name>" when it ran, "skipped (<reason>)" otherwise

    @property
    def ran(self) -> bool:
        return not self.status.startswith("skipped")


def document_for(path: str, content: str) -> str:
    """The text a reranker reads for one candidate: the path locates it, the code explains it."""
    return f"{path}\n{content[:DOCUMENT_CHARS]}"


def _skipped(n: int, reason: str) -> Reranked:
    return Reranked(tuple(range(n)), (None,) * n, f"skipped ({reason})")


def _checked(scores: Any, n: int) -> list[float]:
    """The reranker's answer as ``n`` finite scores in 0..10, or ValueError naming what is wrong."""
    values = [float(s) for s in scores]
    if len(values) != n:
        raise ValueError(f"{len(values)} scores for {n} documents")
    bad = [s for s in values if not math.isfinite(s) or not 0.0 <= s <= MAX_SCORE]
    if bad:
        raise ValueError(f"score {bad[0]!r} outside 0-10")
    return values


async def rerank_candidates(
    reranker: Reranker,
    name: str,
    query: str,
    documents: Sequence[str],
    *,
    deadline_s: float = DEFAULT_RERANK_DEADLINE_S,
    depth: int = RERANK_DEPTH,
) -> Reranked:
    """Rerank the first ``depth`` of ``documents`` (fused order); never raises.

    The model runs in a worker thread; on timeout the thread is abandoned (its late answer is
    ignored) and the fused order is returned.
    """
    n = len(documents)
    top = list(documents[:depth])
    if not top:
        return Reranked((), (), name)
    if deadline_s <= 0:
        return _skipped(n, "no time left before the search deadline")
    try:
        raw = await asyncio.wait_for(asyncio.to_thread(reranker.rerank, query, top), timeout=deadline_s)
        scores = _checked(raw, len(top))
    except TimeoutError:
        return _skipped(n, f"{name} exceeded its deadline of {deadline_s * 1000:.0f} ms")
    except Exception as exc:  # noqa: BLE001 - any reranker failure leaves the fused order, named
        return _skipped(n, f"{name} failed: {type(exc).__name__}: {str(exc)[:200]}")
    ranked = sorted(range(len(top)), key=lambda i: (-scores[i], i))  # ties keep the fused order
    order = (*ranked, *range(len(top), n))
    return Reranked(order, (*scores, *(None,) * (n - len(top))), name)


def make_reranker(
    name: str, registered: Mapping[str, Callable[..., Any]], settings: Mapping[str, str] | None = None
) -> Reranker:
    """Build the reranker ``name`` registered through ``fourfold_register_rerankers``.

    An unknown name is the caller's error."""
    factories = dict(registered)
    try:
        factory = factories[name]
    except KeyError:
        raise InvalidQuery(f"unknown reranker {name!r}; available: {', '.join(sorted(factories))}") from None
    return factory(**dict(settings or {}))
