"""Weighted Reciprocal Rank Fusion or z-score fusion, the centrality boost, demotions and per-file dedup.

    rrf:    contribution(m, h) = weight(m) / (k + rank_m(h) + 1) × min(1 + 0.3·ln(1 + centrality(h)), 1.5)
            score(h)           = Σ_m contribution(m, h) × demotion(h)
    zscore: contribution(m, h) = weight(m) × (score_m(h) − mean_m) / stdev_m     (0 where m did not list h)
            score(h)           = exp(Σ_m contribution(m, h)) × boost(h) × demotion(h)

    demotion(h) = DEMOTION if h's path is vendored/built/archived, × code_first.SECONDARY if it is
                  documentation, a test, an example or a benchmark of a kind in ``demote_kinds``,
                  × named_repo.OTHERS if ``prefer_repos`` is given and h's repository is not one of them

    lexical share (a profile's ``LexicalShare``, before fusing): text and semantic keep the sum of their
    weights, shared per query as  weight(text) = σ(a·(ln bm25₁ − c) − b·(cos₁ − d) + s_L) × (w_text + w_semantic),
    bm25₁ and cos₁ the best score of each list, a, b, c, d the profile's slopes and centres, s_L its shift for
    the language L of the best text hit (0 for most; ``share_weights``)

then only the best-scoring segment of each file is kept; with ``further`` = λ > 0 (prose questions), a file's
n-th best segment stays too, up to ``FILE_SEGMENTS``, at λⁿ of its score (a file holding two answers shows both,
below other files' comparable segments); when the best is a short value declaration (a constant whose doc
comment shares the question's words), the file's best function, method or class shows first in its place.
RRF sees only ranks: a modality's tenth hit counts the same whether it nearly ties the first or is far below it.
z-score fusion sees how far each hit stands above its own list (a lexical match that every other candidate lacks,
a semantic neighbour far closer than the rest), which is what lets a prose question take the better of semantic
and text per query instead of averaging them (measured in docs/quality.md).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from fourfold.api import FusedHit, ModalityRank
from fourfold.coordinator.code_first import SECONDARY, secondary_kind
from fourfold.coordinator.named_repo import OTHERS
from fourfold.plugins.types import Hit

__all__ = [
    "DEMOTION",
    "FILE_SEGMENTS",
    "FURTHER_SEGMENT",
    "LEAD_KINDS",
    "METHODS",
    "VALUE_KINDS",
    "VALUE_LINES",
    "FusedHit",
    "LexicalShare",
    "ModalityRank",
    "boost",
    "code_first_within",
    "fuse",
    "is_demoted",
    "listed",
    "merge_shards",
    "share_weights",
    "zscores",
]

#: Fusion methods: weighted reciprocal rank fusion, or the weighted sum of each list's z-scores.
METHODS = ("rrf", "zscore")

#: Most segments of one file a per-file answer shows when a file's further segments stay (``fuse(further=)``).
FILE_SEGMENTS = 3
#: What a prose question's answer keeps of a file's next segment's score, per segment before it (measured in
#: docs/quality.md: "A file that holds two answers shows both").
FURTHER_SEGMENT = 0.5
#: A prose question's file whose best segment is a value declaration (of these kinds, at most ``VALUE_LINES`` lines)
#: shows its best segment of ``LEAD_KINDS`` first (``code_first_within``; measured in docs/quality.md: "A prose
#: answer shows a file's code before its one-line constant").
VALUE_KINDS = frozenset({"constant", "variable", "field"})
VALUE_LINES = 3
LEAD_KINDS = frozenset({"function", "method", "class"})

#: Score multiplier for vendored, built and archived paths.
DEMOTION = 0.5

_DEMOTED = re.compile(
    r"(?:^|/)(?:vendor|vendors|third[_-]party|node_modules|bower_components|site-packages|dist|build|_build|"
    r"target|out|bin|obj|\.next|__pycache__|archive|archives|attic|deprecated|generated|gen)/"
    r"|\.min\.(?:js|css)$|\.(?:map|lock)$|(?:^|/)(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml)$",
    re.IGNORECASE,
)


def is_demoted(path: str) -> bool:
    return bool(_DEMOTED.search(path))


@dataclass(frozen=True, slots=True)
class LexicalShare:
    """How a prose question's text and semantic weight is shared, per query, by the evidence of each list.

    A question in the code's own words (rare terms the best segment holds several times: a high best BM25)
    is answered best by text; a question in general words ("python sort dict by value", where every
    term is common and the best BM25 is low) by semantic, the more so the closer its best neighbour.
    The text share is ``σ(bm25_slope·(ln bm25₁ − bm25_centre) − cosine_slope·(cos₁ − cosine_centre))``
    of the two weights' sum. The centres belong to BM25 over segments as the text modality scores it and
    to the default embedder; they were fitted on corpora of 550 to 3,600 segments (docs/quality.md): a
    far larger shard's larger IDFs move the share towards text. ``language_shift`` adds to the logit where the
    best text hit is in one of its languages: the embedder's neighbours are not as good in every language
    (JavaScript and TypeScript how-to questions: semantic alone 0.553 MRR@10 against text's 0.730).
    """

    bm25_centre: float
    bm25_slope: float
    cosine_centre: float
    cosine_slope: float
    language_shift: tuple[tuple[str, float], ...] = ()

    def shift(self, language: str | None) -> float:
        """What ``language_shift`` adds to the logit for a best text hit in ``language`` (0 for most)."""
        return next((shift for named, shift in self.language_shift if named == language), 0.0)

    def text_share(self, best_bm25: float, best_cosine: float, language: str | None = None) -> float:
        x = self.bm25_slope * (math.log(max(best_bm25, 1e-9)) - self.bm25_centre)
        x -= self.cosine_slope * (best_cosine - self.cosine_centre)
        x += self.shift(language)
        return 1.0 / (1.0 + math.exp(-min(max(x, -700.0), 700.0)))


def share_weights(
    ranked: Mapping[str, Sequence[Hit]], weights: Mapping[str, float], share: LexicalShare
) -> dict[str, float] | None:
    """``weights`` with text and semantic sharing their sum by ``share`` for these lists; None where
    either list is empty or neither has weight (nothing to share: the weights stand)."""
    text, semantic = ranked.get("text") or (), ranked.get("semantic") or ()
    both = weights.get("text", 0.0) + weights.get("semantic", 0.0)
    if not text or not semantic or both <= 0.0:
        return None
    best = max(text, key=lambda h: h.score)
    t = share.text_share(best.score, max(h.score for h in semantic), best.language)
    return {**weights, "text": t * both, "semantic": (1.0 - t) * both}


def boost(centrality: float, scale: float = 1.0) -> float:
    """The graph importance boost ``min(1 + 0.3·scale·ln(1 + c), 1.5)`` (scale 1: docs/design.md's formula)."""
    return min(1.0 + 0.3 * scale * math.log1p(max(centrality, 0.0)), 1.5)


def zscores(hits: Sequence[Hit]) -> list[float]:
    """Each hit's score as standard deviations above its list's mean; all 1 when the scores do not spread
    (one hit, or ties only: every listed hit is a match, none stands out)."""
    if not hits:
        return []
    scores = [h.score for h in hits]
    mean = statistics.fmean(scores)
    spread = statistics.pstdev(scores)
    if spread <= 1e-12 * max(1.0, abs(mean)):
        return [1.0] * len(hits)
    return [(x - mean) / spread for x in scores]


def merge_shards(
    results: Sequence[Sequence[Hit]], limit: int, order: Callable[[list[Hit]], list[Hit]] | None = None
) -> list[Hit]:
    """One modality's ranked list from its shards' lists: by score, ties by repo/path/line/id.

    A segment reached twice (a partitioned graph's walk arriving again in a later follow-up
    round, by a shorter path) counts once: its best-scored hit, carrying the match lines of every
    hit with that same score. ``order``: the modality's own order of the merged top ``limit``
    (``Modality.order_merged``), which may move hits but neither add nor drop one.
    """
    best: dict[str, Hit] = {}
    for hits in results:
        for h in hits:
            kept = best.get(h.segment_id)
            if kept is None or h.score > kept.score:
                best[h.segment_id] = h
            elif h.score == kept.score and not set(h.match_lines) <= set(kept.match_lines):
                best[h.segment_id] = replace(kept, match_lines=tuple(sorted({*kept.match_lines, *h.match_lines})))
    merged = sorted(best.values(), key=lambda h: (-h.score, h.repo, h.path, h.start_line, h.segment_id))[:limit]
    if order is None:
        return merged
    ordered = order(merged)
    if sorted(h.segment_id for h in ordered) != sorted(h.segment_id for h in merged):
        raise ValueError("a modality's order_merged must return the hits it was given, reordered")
    return ordered


def listed(hits: Sequence[Hit]) -> list[FusedHit]:
    """A literal/regex listing's merged hits as they are: no demotion or boost reorders them, so
    a deeper page's list extends a shallower one's (a cursor neither skips nor repeats a file)."""
    return [
        FusedHit(h, h.score, {"text": ModalityRank(rank, 1.0, h.score)}, is_demoted(h.path))
        for rank, h in enumerate(hits)
    ]


def fuse(
    ranked: Mapping[str, Sequence[Hit]],
    weights: Mapping[str, float],
    k: int,
    *,
    use_centrality: bool = True,
    per_file: bool = True,
    further: float = 0.0,
    centrality_scale: float = 1.0,
    method: str = "rrf",
    demote_kinds: frozenset[str] = frozenset(),
    prefer_repos: frozenset[str] = frozenset(),
    pinned: frozenset[str] = frozenset(),
) -> list[FusedHit]:
    """Fuse per-modality ranked lists; best first, one segment per file.

    ``use_centrality=False`` (the direct path) keeps the single modality's own order: a confident
    exact definition must not fall behind a central fuzzy match. With ``per_file`` the best segment
    of each file is kept and carries the match lines of the file's other segments; with ``further`` > 0 its next
    ``FILE_SEGMENTS - 1`` segments stay as well, the n-th after the best at ``further ** n`` of its own score, and a
    file whose best is a short value declaration shows its best code first (``code_first_within``; the file's scores
    stay in place, so no other file moves);
    ``per_file=False`` keeps every segment (impact analysis: each dependent is its own answer).
    ``centrality_scale`` scales the boost's 0.3 (a fitted profile may turn it down or off).
    ``method`` is ``rrf`` (ranks only; ``k`` is its constant) or ``zscore`` (each modality's own
    scores, standardised per list). ``demote_kinds`` names the secondary kinds (``code_first``: docs,
    tests, examples, benchmarks) whose files are demoted like vendored ones. With ``prefer_repos``, a
    hit of any other repository counts ``named_repo.OTHERS`` times its score. The ``pinned`` segment ids (the
    code a pasted snippet was copied from, ``copied.holders``) come first, in their fused order, each an answer of
    its own (two functions of one file holding the lines are two answers): each scores its own score plus the best
    score of the rest; their files show only them, the first carrying the file's other match lines.
    """
    if method not in METHODS:
        raise ValueError(f"unknown fusion method {method!r}; choose one of: {', '.join(METHODS)}")
    contributions: dict[str, dict[str, ModalityRank]] = {}
    exemplar: dict[str, Hit] = {}
    for modality, hits in ranked.items():
        w = weights.get(modality, 0.0)
        z = zscores(hits) if method == "zscore" else []
        for rank, h in enumerate(hits):
            key = h.segment_id
            if key in contributions and modality in contributions[key]:
                continue  # a segment counts once per modality, at its best rank
            if method == "zscore":
                c = w * z[rank]
            else:
                c = w / (k + rank + 1) * (boost(h.centrality, centrality_scale) if use_centrality else 1.0)
            contributions.setdefault(key, {})[modality] = ModalityRank(rank, c, h.score)
            exemplar[key] = _merge_hit(exemplar.get(key), h)
    fused: list[FusedHit] = []
    for key, per in contributions.items():
        h = exemplar[key]
        vendored = is_demoted(h.path)
        secondary = bool(demote_kinds) and secondary_kind(h.path) in demote_kinds
        factor = (DEMOTION if vendored else 1.0) * (SECONDARY if secondary else 1.0)
        if prefer_repos and h.repo not in prefer_repos:
            factor *= OTHERS
        total = sum(r.contribution for r in per.values())
        if method == "zscore":
            centrality = boost(h.centrality, centrality_scale) if use_centrality else 1.0
            total = math.exp(min(total, 700.0)) * centrality
        fused.append(FusedHit(h, total * factor, per, vendored or secondary))
    if pinned:
        above = max((f.score for f in fused if f.hit.segment_id not in pinned), default=0.0)
        fused = [replace(f, score=f.score + above) if f.hit.segment_id in pinned else f for f in fused]
    fused.sort(key=lambda f: (-f.score, f.hit.repo, f.hit.path, f.hit.start_line))
    if not per_file:
        return fused
    shown = FILE_SEGMENTS if further > 0 else 1
    files: dict[tuple[str, str], list[FusedHit]] = {}
    for f in fused:
        files.setdefault((f.hit.repo, f.hit.path), []).append(f)
    out: list[FusedHit] = []
    for segments in files.values():
        held = [f for f in segments if f.hit.segment_id in pinned]
        if held:  # every holder of the pasted lines is an answer of its own, and the file shows only them
            kept = held
            more = [line for f in segments if f.hit.segment_id not in pinned for line in f.hit.match_lines]
        else:
            scores = [f.score for f in segments]  # the file's scores stay in place, whichever segment shows first
            if further > 0:
                segments = code_first_within(segments)
            kept = [
                FusedHit(f.hit, scores[n] * further**n, f.modalities, f.demoted) for n, f in enumerate(segments[:shown])
            ]
            more = [line for f in segments[shown:] for line in f.hit.match_lines]
        if more:
            # the file's other matching lines (call sites, literal matches) stay visible on its first segment
            first = kept[0]
            lines = tuple(sorted({*first.hit.match_lines, *more}))
            kept[0] = FusedHit(replace(first.hit, match_lines=lines), first.score, first.modalities, first.demoted)
        out.extend(kept)
    return sorted(out, key=lambda f: (-f.score, f.hit.repo, f.hit.path, f.hit.start_line))


def code_first_within(segments: Sequence[FusedHit]) -> list[FusedHit]:
    """One file's fused segments, best first, with its best code segment first when the best is a short value
    declaration: "how does weighted rank fusion work" is answered by ``fuse``, not by the one-line ``METHODS``
    constant whose doc comment shares the question's words. The value stays, right after it."""
    first = segments[0].hit
    if first.kind not in VALUE_KINDS or first.end_line - first.start_line + 1 > VALUE_LINES:
        return list(segments)
    for n, f in enumerate(segments):
        if f.hit.kind in LEAD_KINDS:
            named = " ".join(x for x in (first.kind, first.symbol) if x)
            why = f"first of its file, which ranks by {named} (line {first.start_line})"
            lead = replace(f.hit, snippet="\n".join(x for x in (f.hit.snippet, why) if x))
            return [FusedHit(lead, f.score, f.modalities, f.demoted), *segments[:n], *segments[n + 1 :]]
    return list(segments)


def _merge_hit(prev: Hit | None, new: Hit) -> Hit:
    """Keep the richest description of one segment seen across modalities."""
    if prev is None:
        return new
    return Hit(
        segment_id=new.segment_id,
        repo=new.repo,
        path=new.path,
        start_line=new.start_line,
        end_line=new.end_line,
        score=new.score,
        symbol=new.symbol or prev.symbol,
        kind=new.kind or prev.kind,
        language=new.language or prev.language,
        match_lines=tuple(sorted(set(prev.match_lines) | set(new.match_lines))),
        centrality=max(prev.centrality, new.centrality),
        snippet="\n".join(dict.fromkeys(x for x in (prev.snippet, new.snippet) if x)),  # every modality's explanation
    )
