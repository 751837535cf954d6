"""Filters written in the query, as users of Zoekt, Sourcegraph, Sourcebot and GitHub write them.

``lang:go -file:_test\\.go$ who calls Render`` asks "who calls Render" of the Go files that are not
tests. Each filter is a word ``key:value`` (the value may be quoted: ``file:"my dir/"``), anywhere in a
one-line query and outside its quotes:

=============================  ==============================================================
``repo:`` ``r:``               the repositories whose name holds it (a regular expression, case
                               ignored; an exact name is that repository alone); several: any
``file:`` ``f:`` ``path:``     the paths that hold it: a fragment (``core.py``, ``src/api/``),
                               a regular expression's anchors (``^src/``, ``_test\\.go$``) or a
                               glob as ``--path`` takes it (``*.go``, ``src/**/*.ts``)
``ext:``                       the files of that extension (``ext:kt``); several: any
``lang:`` ``l:``               the files of a language (``go``, ``golang``, ``ts``, ``c++``…);
                               several: any
``case:yes`` / ``case:no``     literal and regex matches respect case, or not
``rev:`` ``branch:`` ``b:``    the repositories as indexed at that branch or tag
``sym:`` ``symbol:``           the definition of that name (intent find_definition)
``content:``                   the lines holding that string as written (a literal listing)
``patterntype:``               ``literal`` or ``regexp``: the rest is listed as such
``context:global``             every repository (the only search context there is)
``type:symbol`` ``type:path``  the definition of the rest; the files whose path holds the rest
``select:symbol``              as ``type:symbol`` (``select:file``, ``select:content``: the usual
                               answer, one file a hit)
``count:N`` ``count:all``      the hits asked (at most the search's limit)
``timeout:10s``                the deadline (``500ms``, ``1m``)
``fork:`` ``archived:``        noted: no such marks of a repository are kept
``visibility:``
=============================  ==============================================================

A query of filters alone that narrows files (``file:core.py``, ``lang:go repo:api``) lists the files they
allow (``mode=paths``). ``type:``, ``count:``, ``timeout:`` and the marks are words of code too: a filter only
with a value of the filter's shape (``type:int`` stays a word).

``-repo:``, ``-file:`` and ``-lang:`` leave out what they match. A filter combines with the search's
own parameters (``--repo``, ``--lang``): the answer comes from what both allow. ``file:line`` (a
request for locations) and ``server.go:12`` (a location) are words, not filters. A pasted trace, a
report or any query of several lines is read as written, and so is every query where
``options["filters"] == "off"``. A value that cannot be read (an unknown language, a repository the
caller may not search) is an error that names it and says what to write.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from fourfold.api import SearchParams
from fourfold.errors import InvalidQuery, PermissionDenied, UnknownRepository
from fourfold.index.fleet import revision_name, split_index_name
from fourfold.index.ingest.languages import KNOWN_LANGUAGES
from fourfold.plugins.globs import excluding

__all__ = ["FILTERS_OPTION", "Filters", "apply", "file_glob", "language", "narrowed", "read"]

#: ``options["filters"] = "off"``: the query is searched as written, its ``key:value`` words too.
FILTERS_OPTION = "filters"

_KEYS: Mapping[str, str] = {
    "repo": "repo",
    "r": "repo",
    "file": "file",
    "f": "file",
    "path": "file",
    "lang": "lang",
    "l": "lang",
    "language": "lang",
    "case": "case",
    "rev": "rev",
    "revision": "rev",
    "branch": "rev",
    "b": "rev",
    "sym": "sym",
    "symbol": "sym",
    "content": "content",
    "ext": "ext",
    "extension": "ext",
    "patterntype": "patterntype",
    "context": "context",
    "type": "type",
    "select": "select",
    "count": "count",
    "timeout": "timeout",
    "fork": "repo_mark",
    "archived": "repo_mark",
    "visibility": "repo_mark",
}
_NEGATABLE = frozenset({"repo", "file", "lang"})
# Sourcegraph's select: values as the result type they ask (a file's matches are its content's)
_SELECTED: Mapping[str, str] = {
    "file": "file",
    "content": "file",
    "repo": "repo",
    "commit": "commit",
    "symbol": "symbol",
}
# keys that are common words of code too: a filter only with a value of the filter's shape
_SHAPED: Mapping[str, re.Pattern[str]] = {
    "type": re.compile(r"(?i)file|path|symbol|repo|diff|commit"),
    "select": re.compile(r"(?i)(?:file|content|repo|commit|symbol)(?:\.[\w.]+)?"),
    "count": re.compile(r"(?i)\d+|all"),
    "timeout": re.compile(r"(?i)\d+(?:\.\d+)?(?:ms|s|m)"),
    "repo_mark": re.compile(r"(?i)yes|no|only|any|public|private"),
}

# a word ``[-]key:value`` at the start or after a space; the value quoted or up to the next space, and not a
# qualified name's ``::`` (``Context::Registry``)
_FILTER = re.compile(r'(?<!\S)(-?)([A-Za-z]+):("(?:[^"\\]|\\.)*"|[^\s":]\S*)(?!\S)')
# the spans a quote holds: a filter's word inside one is the text to find, not a filter
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"|`[^`\n]*`')
# ``server.go:12`` in a pasted log line is a location, and "return file:line" asks for one: no path filter
_LOCATION = re.compile(r":\d+(?::\d+)?$|^(?:line|lines|lineno|line_?number|ln|col|column|line:col)\W*$", re.IGNORECASE)

_ALIASES: Mapping[str, tuple[str, ...]] = {
    "golang": ("go",),
    "py": ("python",),
    "python3": ("python",),
    "js": ("javascript",),
    "jsx": ("javascript",),
    "node": ("javascript",),
    "ts": ("typescript", "tsx"),
    "typescript": ("typescript", "tsx"),
    "c++": ("cpp",),
    "cxx": ("cpp",),
    "cc": ("cpp",),
    "c#": ("csharp",),
    "cs": ("csharp",),
    "rs": ("rust",),
    "rb": ("ruby",),
    "kt": ("kotlin",),
    "sh": ("bash",),
    "shell": ("bash",),
    "yml": ("yaml",),
    "md": ("markdown",),
    "terraform": ("hcl",),
    "tf": ("hcl",),
}
_SHOWN = 12  # names an error lists before "and N more"
# Sourcegraph's pattern types -> the text modality's listing mode ("": the search as usual)
_PATTERN_TYPES: Mapping[str, str] = {
    "literal": "literal",
    "regexp": "regex",
    "regex": "regex",
    "keyword": "",
    "standard": "",
}


@dataclass(frozen=True, slots=True)
class Filters:
    """The filters a query writes (values as written, quotes removed), the words they were, and the rest."""

    rest: str
    written: tuple[str, ...]
    repos: tuple[str, ...] = ()
    not_repos: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    not_files: tuple[str, ...] = ()
    langs: tuple[str, ...] = ()
    not_langs: tuple[str, ...] = ()
    case: tuple[str, ...] = ()
    revs: tuple[str, ...] = ()
    syms: tuple[str, ...] = ()
    contents: tuple[str, ...] = ()
    exts: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    contexts: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    counts: tuple[str, ...] = ()
    timeouts: tuple[str, ...] = ()
    repo_marks: tuple[str, ...] = ()


def read(query: str) -> Filters | None:
    """The filters ``query`` writes and the query without them; None where it writes none, or is more
    than one line (a paste is searched as written)."""
    if "\n" in query.strip() or ":" not in query:
        return None
    quoted = [m.span() for m in _QUOTED.finditer(query)]
    found: dict[str, list[str]] = {}
    written: list[str] = []
    spans: list[tuple[int, int]] = []
    for m in _FILTER.finditer(query):
        negated, key, value = m.group(1) == "-", _KEYS.get(m.group(2).lower()), m.group(3)
        if key is None or any(a <= m.start() < b for a, b in quoted):
            continue
        if negated and key not in _NEGATABLE:
            continue
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        if not value or (key == "file" and _LOCATION.search(value)):
            continue
        if key in _SHAPED and _SHAPED[key].fullmatch(value) is None:
            continue  # ``type:int``, ``count:n``: a word of code, not the filter
        if key == "select":  # Sourcegraph's result type by another name: select:symbol.function is type:symbol
            key, value = "type", _SELECTED[value.split(".")[0].lower()]
        found.setdefault(("not_" if negated else "") + key, []).append(value)
        written.append(m.group(0))
        spans.append(m.span())
    if not written:
        return None
    rest, last = [], 0
    for a, b in spans:
        rest.append(query[last:a])
        last = b
    rest.append(query[last:])
    return Filters(
        rest=" ".join(piece.strip() for piece in rest if piece.strip()),
        written=tuple(written),
        repos=tuple(found.get("repo", ())),
        not_repos=tuple(found.get("not_repo", ())),
        files=tuple(found.get("file", ())),
        not_files=tuple(found.get("not_file", ())),
        langs=tuple(found.get("lang", ())),
        not_langs=tuple(found.get("not_lang", ())),
        case=tuple(found.get("case", ())),
        revs=tuple(found.get("rev", ())),
        syms=tuple(found.get("sym", ())),
        contents=tuple(found.get("content", ())),
        exts=tuple(found.get("ext", ())),
        patterns=tuple(found.get("patterntype", ())),
        contexts=tuple(found.get("context", ())),
        types=tuple(found.get("type", ())),
        counts=tuple(found.get("count", ())),
        timeouts=tuple(found.get("timeout", ())),
        repo_marks=tuple(w for w in written if _KEYS.get(w.split(":", 1)[0].lower()) == "repo_mark"),
    )


def file_glob(value: str) -> str:
    """The path glob a ``file:`` value means: a glob as written (``*.go``, ``src/**/*.ts``), else the
    paths holding it, a regular expression's ``^``, ``$``, ``\\.`` and ``.*`` read as such."""
    if any(c in value for c in "(|)"):
        raise InvalidQuery(
            f"file:{value} holds a regular expression's group or alternation, which a path filter does not "
            "take: write a fragment (file:core.py), anchors (file:^src/, file:_test\\.go$) or a glob (file:*.{go,py})"
        )
    regex_like = value.startswith("^") or value.endswith("$") or "\\" in value or ".*" in value or ".+" in value
    if not regex_like and any(c in value for c in "*?["):
        return value  # a glob, as --path takes it
    start, end = value.startswith("^"), value.endswith("$") and not value.endswith("\\$")
    body = value[1 if start else 0 : len(value) - 1 if end else len(value)]
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(_literal(body[i + 1]))
            i += 2
        elif body.startswith(".*", i):
            out.append("**")
            i += 2
        elif body.startswith(".+", i):
            out.append("?**")
            i += 2
        else:
            out.append(_literal(c) if c in "*?[]{}" else c)
            i += 1
    glob = "".join(out)
    if not glob.strip("*"):
        raise InvalidQuery(f"file:{value} selects every path; leave it out, or give part of a path (file:src/)")
    return ("" if start else "**") + glob + ("" if end else "**")


def _literal(c: str) -> str:
    return f"[{c}]" if c in "*?[{}" else c


def language(value: str) -> tuple[str, ...]:
    """The languages a ``lang:`` value names (an alias such as ``golang`` or ``ts`` too)."""
    v = value.lower()
    if v in _ALIASES:
        return _ALIASES[v]
    if v in KNOWN_LANGUAGES:
        return (v,)
    raise InvalidQuery(
        f"lang:{value} is no language fourfold reads; write one of: {', '.join(sorted(KNOWN_LANGUAGES))} "
        "(or golang, js, ts, py, c++, c#, rs)"
    )


def apply(
    p: SearchParams, f: Filters, searchable: frozenset[str], restricted: bool, max_k: int
) -> tuple[SearchParams, tuple[str, ...]]:
    """``p`` searched as its filters say, and notes on words it left out; ``searchable``: the
    repositories the caller may search (``restricted``: a grant narrows them, so an error never
    names others); ``max_k``: the most hits a search may ask (``count:``)."""
    options = dict(p.options)
    query, intent, notes = f.rest, p.intent, []
    whole = [("sym", v) for v in f.syms] + [("content", v) for v in f.contents]
    if len(whole) > 1:
        raise InvalidQuery(
            f"the query holds {len(whole)} of sym: and content: ({', '.join(k + ':' + v for k, v in whole)}); "
            "each is the whole search: give one"
        )
    if whole:
        key, value = whole[0]
        if f.rest:
            notes.append(f"{f.rest[:80]!r} left out: {key}:{value} is the whole search")
        query = value
        if key == "sym":
            if p.intent and p.intent != "find_definition":
                raise InvalidQuery(f"sym:{value} asks for a definition, and the search forces intent {p.intent}")
            intent = "find_definition"
        else:
            options["mode"] = "literal"
    for value in f.contexts:
        if value.lower() != "global":
            raise InvalidQuery(
                f"context:{value} names a search context, which fourfold does not keep: "
                "name the repositories with repo: (or --repo), or write context:global for all of them"
            )
    for value in f.patterns:
        mode = _PATTERN_TYPES.get(value.lower())
        if mode is None:
            raise InvalidQuery(f"patterntype:{value} is no pattern type: write literal, regexp or keyword")
        if mode:
            options["mode"] = mode
            if mode == "literal" and len(query) > 1 and query[0] == query[-1] == '"':
                query = query[1:-1]  # the string the quotes hold, quotes inside it too
    kind = _type(f)
    if kind == "symbol" and not whole:
        if p.intent and p.intent != "find_definition":
            raise InvalidQuery(f"type:symbol asks for a definition, and the search forces intent {p.intent}")
        intent = "find_definition"
    if kind == "path" or (not query and not whole and (f.files or f.exts or f.langs or f.not_langs or f.repos)):
        if whole:
            raise InvalidQuery(
                f"type:path lists files by their paths, and {whole[0][0]}: searches their text: give one"
            )
        options["mode"], query = "paths", query or "*"
    if not query:
        raise InvalidQuery(
            f"the query holds only filters ({' '.join(f.written)}): add what to search for, "
            "a name, a quoted string or a question (file:core.py invoke)"
        )
    notes.extend(
        f"{w}: no fork, archive or visibility marks are kept; every indexed repository was searched"
        for w in f.repo_marks
    )
    case = p.case_sensitive
    for value in f.case:
        if value.lower() not in ("yes", "no", "auto"):
            raise InvalidQuery(f"case:{value} is no setting: write case:yes (respect case) or case:no")
        case = {"yes": True, "no": False}.get(value.lower(), case)
    return (
        replace(
            p,
            query=query,
            intent=intent,
            repos=_repos(p.repos, f, searchable, restricted),
            path_glob=_path_glob(p.path_glob, f),
            languages=_languages(p.languages, f),
            case_sensitive=case,
            options=_left_out(options, f),
            k=_count(p.k, f, max_k, notes),
            deadline_ms=_timeout(p.deadline_ms, f),
        ),
        tuple(notes),
    )


def _type(f: Filters) -> str:
    """The result type ``type:`` asks for ("" for file contents, the usual search)."""
    kinds = {v.lower() for v in f.types}
    if len(kinds) > 1:
        raise InvalidQuery(f"the query asks for {len(kinds)} result types (type:{' type:'.join(f.types)}): give one")
    kind = next(iter(kinds), "")
    if kind in ("repo", "diff", "commit"):
        raise InvalidQuery(
            f"type:{kind}: fourfold searches the files of each indexed repository and branch, not repository names, "
            "commits or diffs: leave it out and search the code (rev:BRANCH for a branch; `fourfold status` lists "
            "the repositories)"
        )
    return "" if kind == "file" else kind


def _count(given: int, f: Filters, max_k: int, notes: list[str]) -> int:
    """The hits ``count:`` asks for (``count:all``: as many as a search may), else ``given``."""
    if not f.counts:
        return given
    value = f.counts[-1].lower()
    if value != "all" and int(value) == 0:
        raise InvalidQuery(f"count:{f.counts[-1]} asks for no results: write count:50 or count:all")
    wanted = max_k if value == "all" else int(value)
    if wanted > max_k:
        notes.append(f"count:{value}: an answer holds at most {max_k} hits (a listing's cursor pages on)")
    return min(wanted, max_k)


_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m)")


def _timeout(given: int, f: Filters) -> int:
    """The deadline ``timeout:`` sets in milliseconds (``timeout:500ms``, ``timeout:10s``, ``timeout:1m``)."""
    if not f.timeouts:
        return given
    m = _DURATION.fullmatch(f.timeouts[-1].lower())
    if m is None or float(m.group(1)) <= 0:  # read() keeps only durations
        raise InvalidQuery(
            f"timeout:{f.timeouts[-1]} leaves no time to search: write timeout:500ms, timeout:10s or timeout:1m"
        )
    return max(1, round(float(m.group(1)) * {"ms": 1, "s": 1000, "m": 60_000}[m.group(2)]))


def _path_glob(given: str, f: Filters) -> str:
    globs = [file_glob(v) for v in f.files]
    if f.exts:
        names = [v.lstrip(".").lstrip("*").lstrip(".") for v in f.exts]
        if not all(names) or any(c in n for n in names for c in "*?[]{},/"):
            raise InvalidQuery(f"ext:{' ext:'.join(f.exts)}: give an extension as a name: ext:go, ext:.tsx")
        globs.append(f"*.{names[0]}" if len(names) == 1 else "*.{" + ",".join(names) + "}")
    if not globs:
        return given
    if len(globs) > 1 or given:
        written = [*f.files, *(f"ext:{v}" for v in f.exts), *([given] if given else [])]
        raise InvalidQuery(
            f"the search filters paths {len(written)} ways ({', '.join(written)}); a search takes one path filter: "
            "join them in one glob (file:src/**/*.go) and leave paths out with -file:"
        )
    return globs[0]


def _left_out(options: dict[str, str], f: Filters) -> dict[str, str]:
    return excluding(options, [file_glob(v) for v in f.not_files]) if f.not_files else options


def narrowed(given: tuple[str, ...], wanted: set[str], unwanted: set[str]) -> tuple[str, ...]:
    """The languages a search keeps: ``wanted`` (else ``given``, else every one) within ``given``, less ``unwanted``;
    empty where none is left (the caller's error says which of its words did it)."""
    chosen = set(wanted) or set(given) or set(KNOWN_LANGUAGES)
    if given and wanted:
        chosen &= set(given)
    return tuple(sorted(chosen - unwanted))


def _languages(given: tuple[str, ...], f: Filters) -> tuple[str, ...]:
    if not (f.langs or f.not_langs):
        return given
    chosen = narrowed(
        given, {lang for v in f.langs for lang in language(v)}, {lang for v in f.not_langs for lang in language(v)}
    )
    if not chosen:
        raise InvalidQuery(
            f"the languages asked for ({', '.join([*given, *f.langs, *('-' + v for v in f.not_langs)])}) "
            "leave none to search: drop a lang: filter"
        )
    return chosen


def _repos(given: tuple[str, ...], f: Filters, searchable: frozenset[str], restricted: bool) -> tuple[str, ...]:
    if not (f.repos or f.not_repos or f.revs):
        return given
    pool = {revision_name(r) for r in given} & searchable if given else set(searchable)
    chosen: set[str] = set()
    for pattern in f.repos:
        matched = _matching(pattern, pool)
        if not matched:
            raise _no_repository(f"repo:{pattern}", searchable, restricted)
        chosen |= matched
    if not f.repos:
        chosen = set(pool)
    for rev in f.revs:
        at = {revision_name(f"{base}@{rev}") for base in {split_index_name(r)[0] for r in chosen}} & searchable
        if not at:
            raise _no_repository(f"rev:{rev}", searchable, restricted, " at that revision")
        chosen = at
    for pattern in f.not_repos:
        chosen -= _matching(pattern, chosen)
    if not chosen:
        raise InvalidQuery(f"the repository filters ({' '.join(f.written)}) leave no repository to search")
    return tuple(sorted(chosen))


def _matching(pattern: str, names: set[str]) -> set[str]:
    """The names ``pattern`` selects: itself where it is one; else those whose name holds it (a regular
    expression, case ignored), at their default branch where it has one."""
    if pattern in names or revision_name(pattern) in names:
        return {revision_name(pattern)}
    try:
        rx = re.compile(pattern, re.IGNORECASE)
    except re.error:
        rx = re.compile(re.escape(pattern), re.IGNORECASE)
    matched = {r for r in names if rx.search(split_index_name(r)[0])}
    plain = {r for r in matched if split_index_name(r)[1] is None}
    bases = {split_index_name(r)[0] for r in plain}
    return plain | {r for r in matched if split_index_name(r)[0] not in bases}


def _no_repository(written: str, searchable: frozenset[str], restricted: bool, where: str = "") -> Exception:
    names = sorted(searchable)
    shown = ", ".join(names[:_SHOWN]) + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")
    if restricted:
        return PermissionDenied(f"{written} matches no repository you may search{where}; yours: {shown or 'none'}")
    return UnknownRepository(f"{written} matches no indexed repository{where}; indexed: {shown or 'none'}")
