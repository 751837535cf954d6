"""Frozen value types shared by ingestion, the modalities, the workers and the coordinator."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = [
    "CONTEXT_OPTION",
    "FOLDER_TREE_OPTION",
    "HOLDING_OPTION",
    "INTENTS",
    "LINE_FILTERS_OPTION",
    "MAX_CONTEXT_LINES",
    "MAX_COUNT_OPTION",
    "MULTILINE_OPTION",
    "ORDER_OPTION",
    "PATH_SHOWN",
    "SCOPE_OPTION",
    "Definition",
    "Extraction",
    "FollowUp",
    "Hit",
    "IntentRule",
    "LineFilter",
    "ModalityQuery",
    "Segment",
    "ShardResult",
    "context_lines",
    "line_filters",
    "max_count",
    "multiline",
    "order",
    "segment_id",
]

#: The intents the built-in classifier knows. Plugins may add more through hooks.
INTENTS = (
    "find_definition",
    "find_references",
    "understand_code",
    "find_similar",
    "impact_analysis",
    "exact_match",
    "localize",  # a pasted bug report -> the files to look at (coordinator/localize.py)
)


def segment_id(repo: str, path: str, start_line: int, end_line: int, symbol: str | None) -> str:
    """A stable id: the same definition at the same place gets the same id in every generation."""
    key = f"{repo}\0{path}\0{start_line}\0{end_line}\0{symbol or ''}"
    return hashlib.blake2b(key.encode(), digest_size=10).hexdigest()


def order(options: Mapping[str, str]) -> str:
    """How ``options[ORDER_OPTION]`` ranks a listing's files: "" (as usual), "matches" (most matching lines first) or
    "path" (by path). Raises ValueError, naming the value, where it is none of those."""
    value = options.get(ORDER_OPTION, "").strip().lower()
    if value in ("", "rank", "relevance"):
        return ""
    if value in ("matches", "count"):
        return "matches"
    if value == "path":
        return "path"
    raise ValueError(
        f"invalid order {value!r}: give 'matches' (the files with most matching lines first), 'path' or 'rank'"
    )


@dataclass(frozen=True, slots=True)
class Definition:
    """A definition found by the structural extractor (1-based, inclusive lines)."""

    name: str
    kind: str  # function, method, class, struct, interface, enum, type, constant, variable, module, ...
    start_line: int
    end_line: int
    qualified_name: str = ""
    signature: str = ""
    parent: str = ""  # qualified name of the enclosing definition, "" at top level


@dataclass(frozen=True, slots=True)
class Extraction:
    """What the structural extractor found in one file."""

    definitions: tuple[Definition, ...]
    parse_errors: int = 0
    supported: bool = True  # False: no grammar or query for this language (reported, never silent)


@dataclass(frozen=True, slots=True)
class Segment:
    """The unit of retrieval: a definition, or a window of lines no definition covers.

    Lines are 1-based and inclusive. Definition segments may nest (a method inside its class);
    ``parent_id`` then names the enclosing segment. ``content`` is the text of the lines.
    """

    id: str
    repo: str
    path: str
    language: str
    start_line: int
    end_line: int
    content: str
    content_hash: str
    symbol: str | None = None
    kind: str | None = None
    signature: str | None = None
    qualified_name: str | None = None
    parent_id: str | None = None

    @property
    def is_definition(self) -> bool:
        return self.symbol is not None


#: ``options[SCOPE_OPTION] == "only"``: the caller may read ``repos`` and nothing else, so a shard
#: answers as if no other repository were indexed — it resolves no name to, walks through, counts
#: or mentions anything outside ``repos`` (else a restricted caller learns what exists elsewhere).
#: Without it, ``repos`` is a filter on hits only: a walk may pass through other repositories.
SCOPE_OPTION = "scope"

#: Set by the host on a query to a partition that packs several repositories: the comma-separated
#: repositories whose content in it is stale (changed since it was built, and rebuilt elsewhere).
#: The partition treats their nodes as stubs: never a hit, never walked from inside it.
DEAD_OPTION = "dead"

#: Set by the host on a query to a shard whose files of some paths are superseded (a revision's
#: delta shard asks its base's shard, ``fourfold.index.delta``): the newline-separated paths to
#: hide. The shard answers as if those files were not in it: no hit, no count, no total. Only a
#: modality that declares ``masks_paths = True`` is asked so.
MASK_OPTION = "masked"

#: Newline-separated path globs (``**/test_*``, ``vendor/**``) whose files are no hit: a query's
#: ``-file:`` filters. Read with the path glob through ``fourfold.plugins.globs.path_filter``; a
#: modality that ignores it still leaves those files out of the answer, since the host drops them
#: from every list, but then fills fewer of its k places.
EXCLUDE_OPTION = "exclude_paths"

#: Set on a path listing (``mode=paths``) to a folder (``src/api``; ``.`` for the top) to list it as ``ls`` does:
#: the files directly in it are the hits, and the folders directly in it are named in a note with the files each
#: holds (``text: folders in src/api/: handlers/ (12 files), …``). The query's path glob selects beneath it.
FOLDERS_OPTION = "folders"

#: Set beside :data:`FOLDERS_OPTION` to ``DEPTH:GLOB`` (``0:*test*``; ``2:``) to list folders as ``find -type d`` and
#: ``tree -d`` do: no file is a hit, and the note names every folder beneath the folder, to ``DEPTH`` levels (0: any),
#: whose own name ``GLOB`` matches (empty: any), by its path from the folder, with the files beneath each.
FOLDER_TREE_OPTION = "folder_tree"

#: Set to ``defer`` by a host that runs ``FollowUp(if_empty=True)`` rounds: a shard may then leave a
#: costly fallback (structural's fuzzy name matching) to such a round, which runs only when no
#: shard of the modality found anything. Without it a shard does its fallback itself, as a single
#: shard must.
FALLBACK_OPTION = "fallback"

#: ``options[CODE_FIRST_OPTION] == "off"``: rank a project's tests, examples, documentation, benchmarks and scripts
#: (``paths.is_auxiliary``) with its shipped code. Without it a modality may put the shipped code first among
#: equal evidence (the graph's callers and dependents); the coordinator sets it when a question asks for such
#: files ("which tests call X"), and a caller may to compare.
CODE_FIRST_OPTION = "code_first"

#: ``options[CONTEXT_OPTION] = "B,A"`` (or ``"N"``, both ways): a literal or regex listing's snippet shows its matching
#: lines as ``grep -n -B B -A A`` prints them: each matching line after its number and ``:``, the B lines before and A
#: after it after their numbers and ``-``, ``--`` between groups that do not touch. At most
#: :data:`MAX_CONTEXT_LINES` each way; read with :func:`context_lines`.
CONTEXT_OPTION = "context"
MAX_CONTEXT_LINES = 10
#: ``options[MAX_COUNT_OPTION] = "N"``: a literal or regex listing keeps each file's first N matching lines, as ``grep
#: -m N`` stops reading a file (before any grep it is piped to), so its totals count those; read with
#: :func:`max_count`.
MAX_COUNT_OPTION = "max_count"
#: ``options[MULTILINE_OPTION]``: a regex listing's matches may span lines, as ``rg -U`` finds them (``"on"``: ``.``
#: still stops at a newline, which ``\n`` and ``\s`` match; ``"dotall"``: ``.`` matches it too, as ``rg -U
#: --multiline-dotall``), each line a match spans listed; read with :func:`multiline`.
MULTILINE_OPTION = "multiline"
#: ``options[ORDER_OPTION] = "matches"``: a literal or regex listing ranks its files by how many of their lines match,
#: most first, ties by path (``rg -c X | sort -t: -k2 -rn``: the files that use X most); ``"path"``: a listing (a path
#: listing too) in the order of its paths, as ``rg --sort path`` and ``find … | sort`` print them; "" ranks them as
#: usual (a definition of the name, then more lines). Every candidate file is verified. Read with :func:`order`.
ORDER_OPTION = "order"

#: ``options[LINE_FILTERS_OPTION]``: the greps a listing's output is piped to (``rg -n X | grep -v _test``), as a JSON
#: list of ``{"pattern", "regex", "case_sensitive", "invert", "shown"}``. A literal or regex listing keeps a matching
#: line only where each keeps it, seen as the command piped to it printed it (``path:line:text``), so its totals count
#: the lines kept; a path listing (``mode=paths``: ``find . -name '*.go' | grep -v _test``) keeps a file, or a folder
#: of :data:`FOLDER_TREE_OPTION`'s, where each keeps its path (shown ``path`` or ``./path``: :data:`PATH_SHOWN`).
#: Read with :func:`line_filters`.
LINE_FILTERS_OPTION = "line_filters"
#: ``options[HOLDING_OPTION]``: patterns (as :data:`LINE_FILTERS_OPTION` writes them; read with ``line_filters(options,
#: HOLDING_OPTION)``) a file must hold somewhere to be listed at all, as ``grep -l X | xargs grep Y`` lists Y's lines
#: in the files holding X; ``invert``: must not hold anywhere (``grep -L X``).
HOLDING_OPTION = "holding"
#: How a grep prints each matching line to a pipe, as a :class:`LineFilter` sees it (``./``: the folder searched was
#: ``.``; no ``line`` without ``-n``; no ``path`` where one file is searched); ``path`` alone: a file's path, as
#: ``grep -l`` prints a matching file's and ``find``, ``git ls-files`` or ``rg --files`` each file (or folder) they
#: list.
LINE_SHOWN = (
    "path:line:text",
    "./path:line:text",
    "path:text",
    "./path:text",
    "line:text",
    "text",
    "path",
    "./path",
    "name",
)
#: The layouts of :data:`LINE_SHOWN` that show a path alone (the lines of a listing of paths); ``name``: its last
#: part, as ``ls`` prints a folder's files and folders.
PATH_SHOWN = ("path", "./path", "name")


@dataclass(frozen=True, slots=True)
class ModalityQuery:
    """A search as one shard of one modality sees it.

    ``options`` carries modality-specific switches as strings (``mode=regex``, ``kind=function``);
    a modality ignores the options it does not know. See :data:`SCOPE_OPTION` for ``repos``.
    """

    text: str
    k: int = 10
    intent: str = "understand_code"
    repos: tuple[str, ...] = ()
    path_glob: str | None = None
    languages: tuple[str, ...] = ()
    case_sensitive: bool = False
    options: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Hit:
    """One ranked result from one shard of one modality."""

    segment_id: str
    repo: str
    path: str
    start_line: int
    end_line: int
    score: float
    symbol: str | None = None
    kind: str | None = None
    language: str = ""
    match_lines: tuple[int, ...] = ()
    centrality: float = 0.0
    snippet: str = ""


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A request for another round: "ask this modality's shards that cover ``repos`` the same query
    again, with ``options`` added to its options".

    A modality whose answer spans shards (the partitioned graph's multi-hop walks) hands the work
    it cannot finish to the shards that can. ``repos`` empty: every shard of the modality the
    search may ask (the graph's impact walk: only the partitions of code that uses a node know
    it). The coordinator knows nothing of what the options mean: it runs the rounds, appends the
    answers to the modality's lists and merges them.
    """

    repos: tuple[str, ...]
    options: Mapping[str, str] = field(default_factory=dict)
    #: A fallback: run only if no shard of the modality has found anything (see ``FALLBACK_OPTION``).
    if_empty: bool = False


@dataclass(frozen=True, slots=True)
class ShardResult:
    """The ranked hits of one shard, the count of all matches even when k cut the list, and notes.

    ``follow_ups``: further rounds this answer needs (see ``FollowUp``); empty for almost every shard.
    ``line_counts``: ``total_matches`` counts matching lines and ``total_files`` the files holding
    them (literal and regex search), so a caller can tell whether it holds every match;
    ``total_lower_bound``: the shard stopped counting early and the totals are lower bounds.
    ``absence_notes``: what this shard's part does not hold ("no definition named X"), which only
    holds for the index when no shard of the modality found anything and every one said so (a
    partition cannot know that no other defines a name); the coordinator says them only then.
    """

    hits: tuple[Hit, ...]
    total_matches: int = 0
    notes: tuple[str, ...] = ()
    follow_ups: tuple[FollowUp, ...] = ()
    total_files: int = 0
    line_counts: bool = False
    total_lower_bound: bool = False
    absence_notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class IntentRule:
    """One rule of the intent classifier: a query ``pattern`` matches has ``intent``, with ``confidence``.

    The built-in rules are the coordinator's (``coordinator/intent.py``); a plugin's come through
    ``fourfold_register_intents`` with the ``weights`` of the new intent's profile and the name of
    the ``plugin`` that registered it (``name`` is then ``plugin:<plugin>``).
    """

    name: str
    intent: str
    confidence: float
    pattern: re.Pattern[str]
    weights: Mapping[str, float] = field(default_factory=dict)
    plugin: str = ""  # "" for a built-in rule


def context_lines(options: Mapping[str, str]) -> tuple[int, int]:
    """The lines before and after each matching line ``options[CONTEXT_OPTION]`` asks for (``(0, 0)``: none).
    Raises ValueError, naming the value, where it is not ``N`` or ``B,A`` with each 0 to ``MAX_CONTEXT_LINES``."""
    value = options.get(CONTEXT_OPTION, "").strip()
    if not value:
        return 0, 0
    parts = [x.strip() for x in value.split(",")]
    if len(parts) > 2 or not all(re.fullmatch(r"[0-9]{1,3}", x) and int(x) <= MAX_CONTEXT_LINES for x in parts):
        raise ValueError(
            f"invalid context {value!r}: give the lines to show around each match as N, or B,A (before, after), "
            f"each 0 to {MAX_CONTEXT_LINES}"
        )
    before, after = int(parts[0]), int(parts[-1])
    return before, after


def max_count(options: Mapping[str, str]) -> int:
    """How many matching lines of each file ``options[MAX_COUNT_OPTION]`` keeps (0: every one). Raises ValueError,
    naming the value, where it is not a whole number from 1."""
    value = options.get(MAX_COUNT_OPTION, "").strip()
    if not value:
        return 0
    if not re.fullmatch(r"[0-9]{1,9}", value) or int(value) < 1:
        raise ValueError(f"invalid max_count {value!r}: give the matching lines to keep of each file, from 1")
    return int(value)


def multiline(options: Mapping[str, str]) -> str:
    """How ``options[MULTILINE_OPTION]`` lets a regex's matches span lines: "" (each within a line), "on" or "dotall".
    Raises ValueError, naming the value, where it is none of those."""
    value = options.get(MULTILINE_OPTION, "").strip().lower()
    if value in ("", "off", "no", "false", "0"):
        return ""
    if value in ("on", "yes", "true", "1"):
        return "on"
    if value == "dotall":
        return "dotall"
    raise ValueError(f"invalid multiline {value!r}: give 'on' (rg -U), 'dotall' (rg -U --multiline-dotall) or 'off'")


@dataclass(frozen=True, slots=True)
class LineFilter:
    """A grep the output of a listing is piped to: it keeps the lines ``pattern`` matches (``invert``: does not)."""

    pattern: str
    regex: bool = False
    case_sensitive: bool = True
    invert: bool = False
    #: how the command piped to it printed each line: one of :data:`LINE_SHOWN` (``grep -rn X .``: ``./path:line:text``)
    shown: str = "path:line:text"
    #: the folder the command ran in (``cd render && grep -rn X .``): each path is printed from there (``""``: the top)
    under: str = ""

    def seen(self, path: str, line: int, text: str) -> str:
        """The line as this grep reads it from the pipe."""
        if self.under:
            path = path.removeprefix(self.under.rstrip("/") + "/")
        if self.shown == "name":
            return path.rstrip("/").rsplit("/", 1)[-1]
        path = ("./" if self.shown.startswith("./") else "") + path
        if self.shown in PATH_SHOWN:
            return path
        head = f"{path}:" if "path" in self.shown else ""
        return f"{head}{line}:{text}" if "line" in self.shown else f"{head}{text}"

    def as_json(self) -> dict[str, object]:
        return {
            "pattern": self.pattern,
            "regex": self.regex,
            "case_sensitive": self.case_sensitive,
            "invert": self.invert,
            "shown": self.shown,
            **({"under": self.under} if self.under else {}),
        }


def line_filters(options: Mapping[str, str], key: str = LINE_FILTERS_OPTION) -> tuple[LineFilter, ...]:
    """The filters ``options[key]`` holds (``LINE_FILTERS_OPTION``, or ``HOLDING_OPTION``'s patterns; each as the text
    modality reads a literal or an RE2 regex, and it says which does not compile). Raises ValueError, naming the
    value, where it is not a JSON list of filters."""
    value = options.get(key, "")
    if not value:
        return ()
    try:
        rows = json.loads(value)
        if not isinstance(rows, list) or len(rows) > 8:
            raise TypeError
        filters = [
            LineFilter(
                str(r["pattern"]),
                r.get("regex") is True,
                r.get("case_sensitive") is not False,
                r.get("invert") is True,
                str(r.get("shown", "path:line:text")),
                str(r.get("under", "")),
            )
            for r in rows
        ]
        if any(f.shown not in LINE_SHOWN for f in filters):
            raise TypeError
    except (ValueError, TypeError, KeyError, AttributeError):
        raise ValueError(
            f"invalid {key} {value[:200]!r}: give a JSON list of at most 8 filters, each "
            '{"pattern": "...", "regex": false, "case_sensitive": true, "invert": false, "shown": "path:line:text"} '
            f"(shown one of {', '.join(LINE_SHOWN)})"
        ) from None
    return tuple(filters)
