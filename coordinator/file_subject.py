"""A question about one file, named by its path: answered from that file.

"what does coordinator/fusion.py do", "explain ingest/parallel.py", an agent's
``{"tool": "describe_module", "path": "coordinator/fusion.py"}``: the asker wants that file, its
module docstring and top-level definitions best first. Searched as prose, the path is a few words
(``coordinator``, ``fusion``, ``py``) that any file may hold more of.

``mentions`` finds the paths a question writes; :class:`FileIndex` resolves one against the files of
a generation's repositories (the whole repository-relative path, a suffix of whole folders such as
``fusion.py`` or ``ingest/parallel.py``, the repository's name before it, or a dotted module such as
``coordinator.fusion``); ``named`` says which files the question (or a tool call's ``path``) names
and what to ask of them: its other words, else the file's own name's. The engine asks an explain
question of the one file it names (``Engine.search``), and no other intent: "who calls fuse in
fusion.py" stays a search for callers everywhere.

Nothing here raises on what a query holds: odd characters, or a path thousands of characters long,
name no file.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from fourfold.api import FusedHit
from fourfold.coordinator.shell_words import glob_regex, is_glob
from fourfold.coordinator.tool_call import ToolCall
from fourfold.index.ingest.languages import detect_language

__all__ = [
    "MAX_CANDIDATES_NOTED",
    "OVERVIEW_DEPTH",
    "OVERVIEW_NOTE",
    "FileIndex",
    "Named",
    "checkout_name",
    "is_path_alone",
    "mentions",
    "name_words",
    "named",
    "overview_order",
    "path_glob",
]

#: The most paths of one query looked up (a pasted listing names many; a question one or two).
MAX_MENTIONS = 8
#: A longer path names no file worth looking up.
MAX_PATH_CHARS = 512
#: Files an ambiguous path's note lists.
MAX_CANDIDATES_NOTED = 3
#: What a glob reads as more than itself, in one dialect or another (``{a,b}`` in the text modality's only).
_GLOB_SYNTAX = frozenset("*?[]{}")
#: A file's name reads as its folder's when it says nothing itself (``ingest/__init__.py``: ingest).
_GENERIC_STEMS = frozenset({"__init__", "__main__", "index", "main", "mod", "lib", "init"})

#: What may wrap a path in prose: quotes, brackets, and the punctuation that ends a clause.
_WRAPPING = "\"'`()[]{}<>,;!?*"
#: A path as written: folders and a file name, perhaps after ``./`` and before a line (``a.py:12``).
_PATH = re.compile(r"(?:\./)*/?(?P<path>[\w@+.-]+(?:/[\w@+.-]+)*)(?::\d+(?:-\d+)?){0,2}")
#: A file name's extension: a letter, then a few word characters (``1.2.3`` is a version, no file).
_EXTENSION = re.compile(r"\.[A-Za-z][\w+-]{0,9}$")
#: A dotted module (``coordinator.fusion``): identifiers and dots, nothing else.
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
#: Words that ask about a file without saying what about it ("what does X do", "give me an overview of X").
_ASKING_WORDS = """a about an and any are as at be by can could contents describe describes description did do does
doing entire explain explained explaining file for give go goes i in inside is it its job me module my of on outline
overview please purpose role say says show source summarise summarize summary tell that the there this through to us
walk we what what's whats whole why with you"""
_ASKING = frozenset(_ASKING_WORDS.split())
#: Words left dangling at the end of a question once its path is taken out ("how do retries work in").
_DANGLING = re.compile(r"(?:\s+(?:in|of|for|from|about|at|on|inside|within|to|by))+$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Mention:
    """A path a query writes, and where (``start``, ``end``) it stands in the query."""

    path: str
    start: int
    end: int


def mentions(text: str) -> list[Mention]:
    """The paths ``text`` writes, in order: words with a folder (``a/b``) or an extension (``b.py``),
    freed of the quotes, brackets and punctuation around them and of a line number after them."""
    out: list[Mention] = []
    for word in re.finditer(r"\S+", text):
        raw = word.group()
        inner = raw.strip(_WRAPPING)
        lead = raw.find(inner) if inner else 0
        inner = inner.rstrip(".:")
        if not inner or len(inner) > MAX_PATH_CHARS:
            continue
        found = _PATH.fullmatch(inner)
        if found is None:
            continue
        path = found.group("path")
        if "/" not in path and not _EXTENSION.search(path):
            continue  # a word, not a file
        start = word.start() + lead
        out.append(Mention(path, start, start + len(inner)))
        if len(out) == MAX_MENTIONS:
            break
    return out


class FileIndex:
    """One generation's files by name, for resolving the paths queries write.

    Built a repository at a time on first use, from the paths the generation's segment databases list
    (``GenerationReader.paths``: no walk of the repositories' trees); kept while the engine serves the
    generation. Safe to share between threads.
    """

    def __init__(
        self,
        generation: str,
        paths: Callable[[str], Sequence[str]],
        unheld: Callable[[str], Sequence[tuple[str, str, int]]] = lambda _: (),
    ) -> None:
        self.generation = generation
        self._paths = paths
        self._unheld_of = unheld
        self._unheld: dict[str, tuple[tuple[str, str, int], ...]] = {}  # repo -> its files not indexed
        self._names: dict[str, dict[str, tuple[str, ...]]] = {}  # repo -> file name -> paths
        self._entries: dict[str, frozenset[str]] = {}  # repo -> its paths and every folder above one
        self._folders: dict[str, frozenset[str]] = {}  # repo -> every folder above one of its paths
        self._lock = threading.Lock()

    def _by_name(self, repo: str) -> dict[str, tuple[str, ...]]:
        with self._lock:
            names = self._names.get(repo)
            if names is None:
                grouped: dict[str, list[str]] = {}
                for path in self._paths(repo):
                    grouped.setdefault(path.rsplit("/", 1)[-1], []).append(path)
                names = self._names[repo] = {name: tuple(paths) for name, paths in grouped.items()}
            return names

    def relative(self, path: str, repos: Iterable[str]) -> str | None:
        """The index's path an absolute one names (a checkout's, ``/home/me/api/src/core``): its longest ending that
        is a folder or a file of ``repos``; None where no ending is."""
        parts = [part for part in path.strip().lstrip("~").split("/") if part and part != "."]
        if not parts or ".." in parts or len(path) > MAX_PATH_CHARS:
            return None
        entries = [self._entries_of(repo) for repo in repos]
        for i in range(len(parts)):
            ending = "/".join(parts[i:])
            if any(ending in held for held in entries):
                return ending
        return None

    def holds(self, path: str, repos: Iterable[str]) -> bool:
        """Whether ``path`` is a file or a folder of one of ``repos``."""
        return any(path.strip("/") in self._entries_of(repo) for repo in repos)

    def ending(self, path: str, repos: Iterable[str], most: int = 3) -> list[str]:
        """Up to ``most`` files and folders of ``repos`` whose paths end with ``path`` after a folder (``web`` ->
        ``fourfold/web``), shortest first."""
        tail = "/" + path.strip("/")
        found = {entry for repo in repos for entry in self._entries_of(repo) if entry.endswith(tail)}
        return sorted(found, key=lambda e: (len(e), e))[:most]

    def unheld(self, repo: str) -> tuple[tuple[str, str, int], ...]:
        """(path, why, size) of ``repo``'s files the generation does not index (binary, too large, a link), by path."""
        with self._lock:
            found = self._unheld.get(repo)
        if found is None:
            found = tuple(self._unheld_of(repo))
            with self._lock:
                self._unheld[repo] = found
        return found

    def files_in(self, folder: str, repos: Iterable[str]) -> list[tuple[str, str]]:
        """(repository, path) of the files directly in ``folder`` (``plugins/text``) of each of ``repos``, by path."""
        name = folder.strip("/")
        out: list[tuple[str, str]] = []
        for repo in repos:
            folders = self._folders_of(repo)  # the lists read once, kept: no read of the segment databases again
            if name in folders:
                beneath = (e for e in self._entries_of(repo) if e.startswith(f"{name}/") and e not in folders)
                out.extend((repo, path) for path in sorted(beneath) if "/" not in path[len(name) + 1 :])
        return out

    def is_folder(self, path: str, repos: Iterable[str]) -> bool:
        """Whether ``path`` (``vendor/github.com``, ``v1.2``) is a folder of one of ``repos``."""
        return any(path.strip("/") in self._folders_of(repo) for repo in repos)

    def _folders_of(self, repo: str) -> frozenset[str]:
        self._entries_of(repo)  # builds both
        return self._folders[repo]

    def _entries_of(self, repo: str) -> frozenset[str]:
        with self._lock:
            held = self._entries.get(repo)
            if held is None:
                paths = self._paths(repo)
                folders = self._folders[repo] = frozenset(
                    path[:i] for path in paths for i, ch in enumerate(path) if ch == "/"
                )
                held = self._entries[repo] = frozenset({*paths, *folders})
            return held

    def resolve(self, path: str, repos: Iterable[str], globstar: bool = False) -> list[tuple[str, str]]:
        """(repository, path) of every file of ``repos`` that ``path`` names: the whole path, a suffix
        of whole folders (``fusion.py``, ``ingest/parallel.py``), or the repository's name and its path;
        when none, the file a dotted module (``coordinator.fusion``) names; for an absolute path (a checkout's:
        ``/home/me/api/src/app.py``), the files whose path ends it, the longest such; for a glob, the files it
        expands to (:meth:`expand`; ``globstar``: ``**`` any folders); ``REPO:PATH`` (as hits name a file), PATH in
        REPO alone. Sorted."""
        if is_glob(path):
            return self.expand(path, repos, globstar)
        repos = list(repos)
        named = re.fullmatch(r"([\w.@+/-]+):([^:\s]+)", path.strip())
        if named is not None and named[1] in repos:  # gin:render/json.go, as hits and `fourfold show` name a file
            return self.resolve(named[2], [named[1]])
        absolute = path.strip().startswith(("/", "~/"))
        path = path.strip().lstrip("~").lstrip("/")
        if not path or len(path) > MAX_PATH_CHARS:
            return []
        found = self._resolve(path, repos)
        if not found and _DOTTED.fullmatch(path):
            module = path.replace(".", "/")
            found = self._resolve(f"{module}.py", repos) or self._resolve(f"{module}/__init__.py", repos)
        if not found and absolute:  # where the checkout lies is the agent's: the index's path ends the written one
            name = path.rsplit("/", 1)[-1]
            ending = [
                (repo, c) for repo in repos for c in self._by_name(repo).get(name, ()) if f"/{path}".endswith(f"/{c}")
            ]
            # a checkout named as its repository (/home/me/gin/README.md): that repository's file
            checked_out = [(repo, c) for repo, c in ending if f"/{path}".endswith(f"/{checkout_name(repo)}/{c}")]
            ending = checked_out or ending
            longest = max((len(c) for _, c in ending), default=0)
            found = sorted((repo, c) for repo, c in ending if len(c) == longest)
        return found

    def expand(self, glob: str, repos: Iterable[str], globstar: bool = False) -> list[tuple[str, str]]:
        """(repository, path) of every file of ``repos`` a pathname glob expands to (``render/*.go``, as a shell in
        the repository's folder expands it: ``shell_words.glob_matches``), sorted; where none, the files whose path
        ends in folders it expands to, as :meth:`resolve` reads a path (``json/*.go``: ``render/json/a.go``). An
        absolute glob (a checkout's, ``/home/me/gin/render/*.go``): the files of its longest ending that expands to
        any, of the repository the folder above it names where one does."""
        absolute = glob.strip().startswith(("/", "~/"))
        parts = [part for part in glob.strip().lstrip("~").split("/") if part and part != "."]
        if not parts or ".." in parts or len(glob) > MAX_PATH_CHARS:
            return []
        repos = list(repos)
        files = [(repo, path) for repo in repos for paths in self._by_name(repo).values() for path in paths]
        for i in range(len(parts)) if absolute else (0,):
            rx = glob_regex("/".join(parts[i:]), globstar)
            found = sorted((repo, path) for repo, path in files if rx.fullmatch(path))
            # a checkout named as its repository (/home/me/gin/*.go): that repository's files
            checked_out = [(repo, path) for repo, path in found if i and checkout_name(repo) == parts[i - 1]]
            if found:
                return checked_out or found
        if absolute:
            return []
        beneath = re.compile(r"(?s:.*/)" + glob_regex("/".join(parts), globstar).pattern)  # in a folder beneath
        return sorted((repo, path) for repo, path in files if beneath.fullmatch(path))

    def _resolve(self, path: str, repos: Sequence[str]) -> list[tuple[str, str]]:
        name = path.rsplit("/", 1)[-1]
        found = []
        for repo in repos:
            for candidate in self._by_name(repo).get(name, ()):
                if candidate == path or candidate.endswith(f"/{path}") or f"{repo}/{candidate}" == path:
                    found.append((repo, candidate))
        return sorted(found)


def checkout_name(repo: str) -> str:
    """The folder a checkout of ``repo`` is usually in: its name's last part, without a revision (``gin@v2`` ->
    ``gin``, ``org/api`` -> ``api``)."""
    return repo.split("@", 1)[0].rsplit("/", 1)[-1]


@dataclass(frozen=True, slots=True)
class Named:
    """The files a question names (one, or the several an ambiguous suffix fits), the path as it wrote
    it, and what to ask of the file: its other words, or the file's own name's when it has none
    (``whole``: the question asks of the whole file, "what does X do")."""

    files: tuple[tuple[str, str], ...]
    written: str
    ask: str
    whole: bool = False

    def ambiguity(self) -> str:
        """The note for a path that fits several files (the first ``MAX_CANDIDATES_NOTED`` named)."""
        shown = ", ".join(f"{repo}:{path}" for repo, path in self.files[:MAX_CANDIDATES_NOTED])
        more = f" and {len(self.files) - MAX_CANDIDATES_NOTED} more" if len(self.files) > MAX_CANDIDATES_NOTED else ""
        return f"{self.written[:80]!r} fits several files ({shown}{more}): give more of its path to ask of one"


def is_path_alone(text: str, written: str) -> bool:
    """Whether ``text`` is the path ``written`` and nothing else (quotes aside), written as a file's path: with a
    folder or a language's extension (``coordinator/fusion.py``, ``README.md``). A dotted name (``Vec.write``,
    ``click.core``) may be a definition's as well, and is left to the classifier."""
    if text.strip().strip("`'\"") != written:
        return False
    return "/" in written or detect_language(written) not in ("", "text")


def path_glob(path: str) -> str | None:
    """The path glob that selects exactly ``path`` in every modality, None when ``path`` holds glob syntax
    (the modalities' dialects escape it differently, or not at all: such a file is not asked alone)."""
    return None if _GLOB_SYNTAX.intersection(path) else path


def name_words(path: str) -> str:
    """What a file's name says (``intent_model.py``: intent model); a generic name says its folder's."""
    folders, _, name = path.rpartition("/")
    stem = name.split(".", 1)[0] or name
    if stem.lower() in _GENERIC_STEMS and folders:
        stem = f"{folders.rsplit('/', 1)[-1]} {stem}"
    words = [w.lower() for w in _NAME_WORD.findall(stem)]
    return " ".join(words) or stem


def _says_more(text: str) -> bool:
    """Whether ``text`` asks something beyond "what is this file" (a word not in ``_ASKING``)."""
    return any(w.lower() not in _ASKING for w in _WORD.findall(text))


def named(text: str, call: ToolCall | None, resolve: Callable[[str], list[tuple[str, str]]]) -> Named | None:
    """The file(s) ``text`` (a question, or a tool call's subject) names, by ``resolve``; a tool
    call's ``path`` argument names it instead when it has one. None when it names no file, or
    different paths name different files ("compare fusion.py and rerank.py")."""
    if call is not None and call.path:
        files = resolve(call.path)
        if not files:
            return None
        whole = not _says_more(text)
        return Named(tuple(files), call.path, name_words(files[0][1]) if whole else text, whole)
    found = [(m, resolve(m.path)) for m in mentions(text)]
    found = [(m, files) for m, files in found if files]
    if not found or len({tuple(files) for _, files in found}) > 1:
        return None
    files = found[0][1]
    rest = text
    for m, _ in sorted(found, key=lambda item: -item[0].start):
        rest = rest[: m.start] + " " + rest[m.end :]
    rest = _DANGLING.sub("", " ".join(rest.split()).strip(_WRAPPING + ".: "))
    whole = not _says_more(rest)
    return Named(tuple(files), found[0][0].path, name_words(files[0][1]) if whole else rest, whole)


#: The most segments of one file an overview orders before it gives the first ``k``.
OVERVIEW_DEPTH = 60
#: The note of an answer in an overview's order (``overview_order``); scores are the ranking's, not the order's.
OVERVIEW_NOTE = (
    "an overview of the whole file: its own account first, then its public functions and types, "
    "then methods and private helpers, then values"
)
#: Kinds of definition that hold a value, not behaviour: an overview lists them after the functions and types.
_VALUE_KINDS = frozenset({"variable", "constant", "field", "property", "assignment"})
#: Kinds of definition inside another: an overview lists them after the file's own top-level ones.
_INNER_KINDS = frozenset({"method", "constructor"})
#: What opens a file's own account of itself: a docstring or a comment (a licence is no account).
_ACCOUNT = re.compile(r"\s*(?:[rRuUbB]?(?:\"\"\"|\'\'\')|/\*|//|#(?!!)|--|;;)")
_LICENCE = re.compile(r"copyright|licen[cs]e|spdx", re.IGNORECASE)


def overview_order(hits: Sequence[FusedHit], opening_text: Callable[[FusedHit], str]) -> list[int]:
    """The order (indices into ``hits``) an overview reads a whole file's segments in: its opening
    account of itself (the module docstring or header comment, by ``opening_text`` of the file's
    first top-level segment among ``hits``; a licence is none), then its public functions and types,
    then its methods and private helpers, then its values (``__all__``, constants, fields, loose
    top-level statements), each group in ranked order."""
    top = [i for i, h in enumerate(hits) if h.hit.symbol is None]
    opening = min(top, key=lambda i: hits[i].hit.start_line, default=None)
    if opening is not None:
        text = opening_text(hits[opening])
        if not _ACCOUNT.match(text) or _LICENCE.search(text[:400]):
            opening = None

    def group(i: int) -> int:
        if i == opening:
            return 0
        hit = hits[i].hit
        if hit.symbol is None or (hit.kind or "") in _VALUE_KINDS:  # loose statements go with the values
            return 3
        inner = hit.kind in _INNER_KINDS or (hit.symbol or "").rsplit(".", 1)[-1].startswith("_")
        return 2 if inner else 1

    return sorted(range(len(hits)), key=group)
