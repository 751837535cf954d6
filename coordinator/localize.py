"""The ``localize`` plan: from a pasted bug report to the files (and functions) to look at.

A bug report is not one query but many: its prose ranks files by their words, its frames and paths
name files outright, its identifiers name definitions, its error messages are spelled somewhere in
a ``raise``. The plan asks each of these as an ordinary search of the engine, all at once and
within the search's deadline, over the modalities the store has:

=========================  =====================================================  ==========
evidence                   how it is asked                                         weight
=========================  =====================================================  ==========
the prose                  text BM25 over the report (the first 8,000 chars)       base
the title                  text BM25 over the title and the top identifiers        base
the title, by meaning      semantic over the title (where the store has it)        base
the words, by meaning      semantic over the title and prose, code left out        base
an identifier              structural definition of the name                       strong
an error message           text literal of its longest fixed fragment              strong
a frame or a path          text BM25 within that path (does the file exist?)       strongest
a module name              no search: a found file's folder or stem is the word    a hint
=========================  =====================================================  ==========

and then combines the evidence per FILE: a ranked list gives a file ``weight / (1 + rank / 4)``,
its rank by the scores of its matching segments (each further segment counting ``SEGMENT_DECAY``
of the one before); a definition of an identifier gives ``weight * sqrt(salience / the top
salience) / sqrt(files defining it)`` (a name defined once is strong evidence, one defined in more
than ``MAX_DEFINING_FILES`` none); a literal gives ``weight / sqrt(files spelling it)``, a code
file counting only the code's files (a message raised in one place and translated in twenty
catalogs is strong evidence for that place); a frame or path gives its weight to the file it names
(a bare name found in many files gives nothing);
a word of the report that names a folder or a file's stem among the files found (``napoleon`` ->
``sphinx/ext/napoleon/docstring.py``) gives ``weight / sqrt(files so named)`` to each, unless more
than ``MAX_MODULE_FILES`` are so named (``core``, ``util``: no evidence).
Tests, documentation, vendored files, message catalogs and the project's records keep
``SUPPORT_FACTOR`` of their evidence unless a frame or path names them, prose that is no code
(a changelog, a page of the manual) ``RECORD_FACTOR``. Each file is answered
once, with the segment that drew the most evidence (a frame's or a definition's counting double;
a ranked list's value shared among the file's segments as they ranked it), a class's method or
function that drew some before the class, any function or method that drew some before a variable,
a constant, a field or lines outside every definition; the notes say what evidence was used. Any
evidence found gives an answer: the plan never answers with nothing when one of its searches found something. Weights
and factors were chosen on 47 SWE-bench Lite issues and checked on 29 others, and on 36 more once
(``docs/quality.md``).
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from fourfold.api import Answer, FusedHit, ModalityRank, SearchParams
from fourfold.coordinator.evidence import ANALYSED_CHARS, Evidence, extract, without_code
from fourfold.coordinator.notes import tidy_notes
from fourfold.errors import FourfoldError
from fourfold.plugins.types import Hit

if TYPE_CHECKING:
    from fourfold.coordinator.engine import Plan

__all__ = [
    "LOCALIZE",
    "MAX_DEFINITIONS",
    "MAX_LITERALS",
    "MAX_MODULE_FILES",
    "MAX_PATHS",
    "RECORD_FACTOR",
    "SUPPORT_FACTOR",
    "WEIGHTS",
    "Combined",
    "SubSearch",
    "combine",
    "localize",
    "sub_searches",
]

LOCALIZE = "localize"
#: Most identifiers whose definitions are looked up, messages searched literally, paths checked.
MAX_DEFINITIONS = 12
MAX_LITERALS = 4
MAX_PATHS = 8
#: Hits each ranked sub-search returns (files are ranked from these).
RANKED_DEPTH = 200
#: A definition looked up for an identifier counts only when few files define it.
MAX_DEFINING_FILES = 8
#: How much a file's next matching segment adds to its rank in a ranked list (see ``combine``).
SEGMENT_DECAY = 0.5
#: A module name (a folder's or a file's stem) naming more of the files found than this is no evidence.
MAX_MODULE_FILES = 8
#: A bare file name (``conf.py``) found in more files than this is the reporter's own, not evidence.
MAX_NAMED_FILES = 2
#: Tests, documentation, examples, benchmarks, vendored files and the project's records: a bug is
#: fixed in the code they exercise or describe, so
#: their evidence counts this much (unless a frame or a path of the report names the file).
SUPPORT_FACTOR = 0.2
#: ... and of those, the prose that is no code at all (a changelog, a README, a page of the manual,
#: the project's records: CHANGES, AUTHORS, a Makefile or any file without an extension): it repeats
#: a report's words most (a changelog names every feature the report does) and is never where the
#: fix goes, so it keeps less still (dev file s@5 0.766 -> 0.787, held out unchanged; ``docs/quality.md``)
RECORD_FACTOR = 0.05
_RECORD_PATTERN = r"\.(?:rst|md|txt|ipynb)$|(?:^|/)(?:CHANGES|CHANGELOG|HISTORY|NEWS|AUTHORS)[^/]*$|(?:^|/)[^/.]+$"
_RECORD = re.compile(_RECORD_PATTERN)
_SUPPORT = re.compile(
    r"(?:^|/)(?:tests?|testing|__tests__|docs?|doc_src|examples?|benchmarks?|asv_bench)/"
    r"|(?:^|/)(?:test_[^/]*|[^/]*_test\.\w+|[^/]*\.test\.\w+|conftest\.py)$"
    r"|\.(?:min\.js|po|pot)$"  # ... and message catalogs (translations of the code's strings)
    r"|(?:^|/)(?:static|vendor|vendored|third_party|node_modules|dist|build)/"  # vendored and built files
    r"|" + _RECORD_PATTERN
)
#: The kinds of segment a file is best answered with (see ``_best_segment``).
_FUNCTIONS = frozenset({"function", "method"})
#: The evidence weights (see the module docstring).
WEIGHTS = {
    "bm25": 0.8,
    "title": 1.0,
    "semantic": 1.0,
    "definition": 1.2,
    "literal": 1.5,
    "frame": 2.0,
    "path": 1.5,
    "module": 0.3,
}

#: ``search(params)``: the engine's own search (a sub-search never routes back here: its intent is forced).
Search = Callable[[SearchParams], Awaitable[Answer]]


@dataclass(frozen=True, slots=True)
class SubSearch:
    """One search the plan asks: which evidence it stands for, the params, and what it carries
    (the identifier's salience, the frame's position)."""

    kind: str  # a key of WEIGHTS
    params: SearchParams
    label: str
    salience: float = 1.0


@dataclass(slots=True)
class Combined:
    """A file's evidence: its score, its best segment, and each evidence kind's contribution."""

    repo: str
    path: str
    score: float = 0.0
    best: Hit | None = None
    best_score: float = -1.0
    #: each segment's hit and the evidence it drew, preferred kinds counted double (see ``_best_segment``)
    segments: dict[tuple[int, int, str | None], tuple[Hit, float]] = field(default_factory=dict)
    by_kind: dict[str, float] = field(default_factory=dict)
    modalities: dict[str, ModalityRank] = field(default_factory=dict)


def _glob_for(path: str) -> str:
    """A glob that finds a report's path in the repository: its file and folder, anywhere (a
    frame's path is the reporter's: ``/home/u/env/site-packages/xarray/core/dataset.py``)."""
    parts = [p for p in path.replace("\\", "/").split("/") if p and p not in (".", "..")]
    if len(parts) == 1:
        return "**/" + parts[0]  # a bare name: that file in any folder (not myconf.py for conf.py)
    return "**" + "/".join(parts[-2:])  # "**/x/y.py" would miss a folder at the repository's root


def sub_searches(ev: Evidence, p: SearchParams, modalities: Sequence[str]) -> list[SubSearch]:
    """The searches that ask for ``ev``, over ``modalities`` (the ones the store has and the caller allows)."""
    base = {k: v for k, v in p.options.items() if k not in ("mode", "explain", "segments")}
    out: list[SubSearch] = []

    def ask(
        kind: str,
        label: str,
        query: str,
        intent: str,
        modality: str,
        k: int,
        salience: float = 1.0,
        *,
        options: Mapping[str, str] | None = None,
        path_glob: str | None = None,
    ) -> None:
        params = replace(
            p,
            query=query,
            intent=intent,
            modalities=(modality,),
            weights={},
            k=k,
            options={**base, **(options or {})},
            with_snippets=False,
            cursor="",
            path_glob=p.path_glob if path_glob is None else path_glob,
        )
        out.append(SubSearch(kind, params, label, salience))

    names = [i.name for i in ev.identifiers[:6]]
    every_segment = {"mode": "bm25", "segments": "all"}  # ranked segments, several a file (see ``combine``)
    if "text" in modalities:
        ask(
            "bm25",
            "text BM25 over the report",
            ev.prose,
            "understand_code",
            "text",
            RANKED_DEPTH,
            options=every_segment,
        )
        title = " ".join([ev.title, *names])
        if title.strip():
            ask(
                "title",
                "text BM25 over the title",
                title,
                "understand_code",
                "text",
                RANKED_DEPTH,
                options=every_segment,
            )
        for msg in ev.messages[:MAX_LITERALS]:
            ask("literal", f"literal {msg!r}", msg, "exact_match", "text", 50, options={"mode": "literal"})
        seen: set[str] = set()
        located = [(f.path, 1.0 + i / max(len(ev.frames), 1)) for i, f in enumerate(ev.frames)]
        for path, salience in [*located, *((q, 1.0) for q in ev.paths)]:
            glob = _glob_for(path)
            if glob in seen or len(seen) >= MAX_PATHS or path.startswith("<"):
                continue
            seen.add(glob)
            kind = "frame" if any(f.path == path for f in ev.frames) else "path"
            query = " ".join([*(f.function for f in ev.frames if f.path == path and f.function), *names]) or ev.title
            if not query.strip():
                continue
            ask(
                kind,
                f"{kind} {path}",
                query,
                "understand_code",
                "text",
                5,
                salience,
                options={"mode": "bm25"},
                path_glob=glob,
            )
    if "structural" in modalities:
        for ident in ev.identifiers[:MAX_DEFINITIONS]:
            ask(
                "definition",
                f"definition of {ident.name}",
                ident.name,
                "find_definition",
                "structural",
                20,
                ident.salience,
            )
    if "semantic" in modalities:
        # the model reads a short window (256 tokens): the title alone, and the title with the
        # report's words, its code left out (which a report's first 1,500 characters are mostly)
        if ev.title.strip():
            ask("semantic", "semantic over the title", ev.title, "understand_code", "semantic", RANKED_DEPTH)
        words = "\n".join([ev.title, without_code(ev.prose)[:1_500]])
        ask("semantic", "semantic over the report's words", words, "understand_code", "semantic", RANKED_DEPTH)
    return out


def _credit_module_names(files: Mapping[tuple[str, str], Combined], names: Collection[str]) -> None:
    """Give each found file named by one of ``names`` (a folder on its path, or its stem) its share
    of the ``module`` weight; tests, docs and the like are not credited (they are named after the
    module they exercise or describe)."""
    named: dict[str, list[Combined]] = {}
    for c in files.values():
        if _SUPPORT.search(c.path):
            continue
        parts = c.path.split("/")
        stem = parts[-1].rsplit(".", 1)[0]
        for part in {*parts[:-1], stem} - {"__init__"}:
            if part in names:
                named.setdefault(part, []).append(c)
    for group in named.values():
        if len(group) > MAX_MODULE_FILES:
            continue
        value = WEIGHTS["module"] / math.sqrt(len(group))
        for c in group:
            c.score += value
            c.by_kind["module"] = c.by_kind.get("module", 0.0) + value


def _best_segment(c: Combined) -> tuple[Hit | None, float]:
    """The segment a file is answered with: the one that drew the most evidence (a definition or a
    frame counting double); a class's method or function that drew some is more precise than the
    class (``bell`` named in the report, ``bell.eval`` matching its words: the answer is ``eval``),
    and any function or method that drew some is a better answer than a variable, a constant, a
    field or lines outside every definition (a fix changes code that runs: function success@5
    0.304 -> 0.348 on the dev issues, 0.250 -> 0.286 held out)."""
    if not c.segments:
        return None, -1.0
    ranked = sorted(c.segments.values(), key=lambda t: (-t[1], t[0].start_line))
    best, score = ranked[0]
    if best.kind in _FUNCTIONS:
        return best, score
    if best.kind == "class":
        inner = next(
            (t for t in ranked if t[0].kind in _FUNCTIONS and best.start_line <= t[0].start_line <= best.end_line), None
        )
        if inner is not None:
            return inner
    return next((t for t in ranked if t[0].kind in _FUNCTIONS), (best, score))


def combine(
    results: Sequence[tuple[SubSearch, Answer | None]], max_salience: float, module_names: Collection[str] = ()
) -> list[Combined]:
    """Files ranked by their weighted evidence (see the module docstring); ``module_names``: the
    report's words that may name a folder or a file (``Evidence.module_names``)."""
    files: dict[tuple[str, str], Combined] = {}

    def credit(
        kind: str, modality: str, hit: Hit, value: float, rank: int, shares: Sequence[tuple[Hit, float]] = ()
    ) -> None:
        c = files.setdefault((hit.repo, hit.path), Combined(hit.repo, hit.path))
        c.score += value
        c.by_kind[kind] = c.by_kind.get(kind, 0.0) + value
        prior = c.modalities.get(modality)
        c.modalities[modality] = ModalityRank(
            min(rank, prior.rank) if prior else rank, (prior.contribution if prior else 0.0) + value, hit.score
        )
        preference = value * (2.0 if kind in ("definition", "frame") else 1.0)
        for segment, share in shares or ((hit, 1.0),):
            key = (segment.start_line, segment.end_line, segment.symbol)
            prior_segment = c.segments.get(key)
            c.segments[key] = (segment, preference * share + (prior_segment[1] if prior_segment else 0.0))

    for sub, answer in results:
        if answer is None or not answer.hits:
            continue
        weight = WEIGHTS[sub.kind]
        modality = next(iter(sub.params.modalities))
        by_file: dict[tuple[str, str], FusedHit] = {}
        for f in answer.hits:
            by_file.setdefault((f.hit.repo, f.hit.path), f)
        n = len(by_file)
        if sub.kind == "definition":
            if n > MAX_DEFINING_FILES:
                continue
            value = weight * (sub.salience / max_salience) ** 0.5 / math.sqrt(n)
            for rank, f in enumerate(by_file.values()):
                credit(sub.kind, modality, f.hit, value, rank)
        elif sub.kind == "literal":
            # a message spelled in the code and translated in twenty catalogs is raised in one
            # place: the files that share the evidence are the code's (the others, if all are not)
            code = sum(1 for key in by_file if not _SUPPORT.search(key[1]))
            for rank, (key, f) in enumerate(by_file.items()):
                shared = code if code and not _SUPPORT.search(key[1]) else n
                credit(sub.kind, modality, f.hit, weight / math.sqrt(shared), rank)
        elif sub.kind in ("frame", "path"):
            # the glob may match a few files of that name: the best-ranked one is meant; a name in
            # many files (conf.py, __init__.py) is the reporter's file, not one of the repository's
            if sub.kind == "path" and n > MAX_NAMED_FILES:
                continue
            for rank, f in enumerate(list(by_file.values())[:2]):
                credit(sub.kind, modality, f.hit, weight * sub.salience / (1 + rank), rank)
        else:
            # a file is ranked by its segments' scores, each further one counting half the one before
            # (a file many of whose functions match the report ranks above one with a single match)
            totals: dict[tuple[str, str], float] = {}
            parts: dict[tuple[str, str], list[tuple[Hit, float]]] = {}
            for f in answer.hits:
                key = (f.hit.repo, f.hit.path)
                part = f.hit.score * SEGMENT_DECAY ** len(parts.setdefault(key, []))
                parts[key].append((f.hit, part))
                totals[key] = totals.get(key, 0.0) + part
            order = sorted(by_file, key=lambda key: -totals[key])
            for rank, key in enumerate(order):
                # the file's value is shared among its matching segments as they added to its rank
                total = totals[key] or 1.0
                shares = [(h, part / total if totals[key] else 1.0 / len(parts[key])) for h, part in parts[key]]
                credit(sub.kind, modality, by_file[key].hit, weight / (1.0 + rank / 4.0), rank, shares)
    if module_names:
        _credit_module_names(files, frozenset(module_names))
    for c in files.values():
        if _SUPPORT.search(c.path) and not {"frame", "path"} & set(c.by_kind):
            c.score *= RECORD_FACTOR if _RECORD.search(c.path) else SUPPORT_FACTOR
        c.best, c.best_score = _best_segment(c)
    return sorted(files.values(), key=lambda c: (-c.score, c.repo, c.path))


async def localize(search: Search, p: SearchParams, plan: Plan, modalities: Sequence[str], generation: str) -> Answer:
    """Answer the bug report ``p.query`` with files (see the module docstring).

    ``search``: the engine's search (each sub-search is an ordinary, forced-intent search, so
    scoping, ACLs and deadlines hold as for any other); ``modalities``: those the live generation
    has (narrowed to ``p.modalities`` when the caller named some).
    """
    t0 = time.perf_counter()
    ev = extract(p.query, ANALYSED_CHARS)
    allowed = [m for m in modalities if not p.modalities or m in p.modalities]
    subs = sub_searches(ev, p, allowed)
    deadline = time.monotonic() + p.deadline_ms / 1000.0 if p.deadline_ms else None

    async def run(sub: SubSearch) -> tuple[SubSearch, Answer | None, str]:
        params = sub.params
        if deadline is not None:
            left = int((deadline - time.monotonic()) * 1000)
            if left <= 0:
                return sub, None, f"{sub.label}: no time left"
            params = replace(params, deadline_ms=left)
        try:
            return sub, await search(params), ""
        except FourfoldError as exc:
            return sub, None, f"{sub.label}: {exc}"

    t_plan = time.perf_counter()
    done = await asyncio.gather(*(run(s) for s in subs))
    t_search = time.perf_counter()
    max_salience = max((i.salience for i in ev.identifiers), default=1.0)
    ranked = combine([(s, a) for s, a, _ in done], max_salience, ev.module_names)
    hits: list[FusedHit] = []
    for c in ranked[: p.k]:
        best = c.best
        assert best is not None  # a file is credited through one of its hits
        hits.append(FusedHit(best, round(c.score, 6), dict(c.modalities)))
    used: dict[str, int] = {}
    named = sum(1 for c in ranked if "module" in c.by_kind)
    for s, a, _ in done:
        if a is not None and a.hits:
            used[s.kind] = used.get(s.kind, 0) + 1
    asked = sorted({s.kind for s in subs} | ({"module"} if ev.module_names and subs else set()))
    asked_modalities = sorted({m for s in subs for m in s.params.modalities})
    notes = [
        ev.summary(),
        "localize: ranked files by "
        + (", ".join(f"{k} ({n} search{'es' if n > 1 else ''})" for k, n in sorted(used.items())) or "no evidence")
        + (f", module names ({named} file{'s' if named > 1 else ''})" if named else "")
        + (f"; modalities {', '.join(asked_modalities)}" if asked_modalities else "; no modality to ask"),
    ]
    if not subs:
        notes.append(
            "localize: nothing to ask (" + ("no text, structural or semantic index" if not asked else "") + ")"
        )
    failures = [why for _, _, why in done if why]
    missing = sorted({m for _, a, _ in done if a is not None for m in a.missing_shards})
    notes += failures[:3]
    for _, a, _ in done:
        if a is not None:
            notes += [n for n in a.notes if "missing" in n or "no " in n[:3]][:1]
    t_end = time.perf_counter()
    return Answer(
        intent=LOCALIZE,
        confidence=plan.confidence,
        fusion_strategy=LOCALIZE,
        preset=plan.preset.name,
        partial=bool(missing),
        missing_shards=tuple(missing),
        hits=tuple(hits),
        total_candidates=len(ranked),
        timings={
            "plan": (t_plan - t0) * 1000,
            "fanout": (t_search - t_plan) * 1000,
            "fuse": (t_end - t_search) * 1000,
            "total": (t_end - t0) * 1000,
        },
        generation=generation,
        notes=tidy_notes(notes, p.query),
        weights={k: WEIGHTS[k] for k in asked},
    )
