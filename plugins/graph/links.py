"""Which repositories a partition of the graph is built from, and which partitions a change makes stale.

A partition of repository R is built from R's segments and those of the repositories R imports
(its *dependencies*), never from the whole fleet: its cost is that of R and what R uses, the
same in a fleet of ten repositories or of a thousand. R's dependencies are the repositories that
*provide* a name R imports and does not provide itself (default branches only: see ``is_revision``):

- Python: the top-level package or module of an absolute import (``requests`` for
  ``from requests.adapters import HTTPAdapter``); a repository provides the names of its
  top-level folders and ``.py`` files, at its root and under ``src/`` or ``lib/``;
- JavaScript and TypeScript: a bare specifier's package (``lodash``, ``@scope/pkg``); a
  repository with such files provides its own name, and the names of the ``package.json`` files
  it holds are read from them by the resolver once it is loaded;
- Go: a path component of the import past the host (``gin`` for
  ``github.com/gin-gonic/gin/render``); a Go repository provides its own name;
- Java: the imported package (``com.acme.core`` for ``import com.acme.core.Engine``, and for a static
  import ``com.acme.core.Helpers`` and its package); a repository provides every trailing run of
  each folder of its ``.java`` files (``src/main/java/com/acme/core``: ``com.acme.core``, ``acme.core``...);
- C#: the namespace a ``using`` names (and for ``using static A.B.Helpers``, ``A.B`` too), case aside; a
  repository provides its own name and every trailing run of each folder of its ``.cs`` files, alone and after
  the repository's name (``src/Shapes/Tools`` of ``demo``: ``shapes.tools``, ``demo.shapes.tools``...), as a
  project's root namespace is often its name and its folders the rest;
- Rust: the crate a ``use`` names (``serde`` for ``use serde::de::Visitor``; not ``crate``, ``self``,
  ``super`` or the standard library's); a repository provides its own name and the name of each folder
  holding a ``Cargo.toml``, a ``-`` read as ``_``.

Both sides are over-approximations read from file paths alone (no file of a peer is opened): a
repository that provides a name by accident costs a little more build time, never a lost edge.

Each partition writes ``links.json`` beside its graph: the repository, its dependencies, the
names it imports from elsewhere and those it provides, the names it defines, the ids of the stubs
it holds and the names it looked for in a dependency and missed. An update rebuilds the changed
repositories' partitions and only those of the others it can change (see ``stale``): an edit to
a library leaves an importer as it is unless a node the importer points at moved or disappeared,
or the library now defines a name the importer looked for.
"""

from __future__ import annotations

import json
import posixpath
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from fourfold.plugins.graph.parse import RUST_SELF, parse_file, supported
from fourfold.plugins.types import Segment

__all__ = [
    "LINKS_FILE",
    "Links",
    "Surface",
    "dependencies",
    "import_names",
    "is_revision",
    "provided_names",
    "read_links",
    "stale",
    "surface_of",
]

LINKS_FILE = "links.json"
_JS = frozenset({"javascript", "typescript", "tsx", "jsx"})
_PY_ROOTS = ("", "src/", "lib/")
#: A Rust path's first names that are this crate's or the standard library's, never another repository's.
_RUST_LOCAL = frozenset({"crate", "self", "super", RUST_SELF, "std", "core", "alloc"})


@dataclass(frozen=True, slots=True)
class Links:
    """What one partition was built from and what ties it to other repositories.

    ``names``: the names the repository defines (and its module files' names), so that an update
    can tell which names appeared; ``stubs``: per dependency, the ids of its nodes this partition
    holds; ``misses``: names this repository's code looked up in a dependency and did not find.
    """

    repo: str
    dependencies: tuple[str, ...]
    imports: tuple[str, ...]  # names imported from outside the repository ("py:requests", "js:lodash")
    provides: tuple[str, ...]
    names: tuple[str, ...] = ()
    stubs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    misses: tuple[str, ...] = ()
    repos: tuple[str, ...] = ()  # every repository the partition owns (several small ones packed together)

    @property
    def owned(self) -> tuple[str, ...]:
        return self.repos or (self.repo,)

    def write(self, shard_dir: Path) -> None:
        payload = {
            "repo": self.repo,
            "repos": list(self.owned),
            "dependencies": list(self.dependencies),
            "imports": list(self.imports),
            "provides": list(self.provides),
            "names": list(self.names),
            "stubs": {r: list(ids) for r, ids in sorted(self.stubs.items())},
            "misses": list(self.misses),
        }
        (shard_dir / LINKS_FILE).write_text(json.dumps(payload, separators=(",", ":")))


@dataclass(frozen=True, slots=True)
class Surface:
    """What importers can see of a repository: its node ids and the names it defines."""

    ids: frozenset[str]
    names: frozenset[str]


def surface_of(repo: str, segments: Iterable[Segment]) -> Surface:
    """``repo``'s surface from its segments (module nodes are named as the resolver names them)."""
    ids: set[str] = set()
    names: set[str] = set()
    for seg in segments:
        ids.add(seg.id)
        if seg.symbol:
            names.add(seg.symbol)
        if seg.language in ("go", "java", "csharp"):  # a package node is named after (its first) folder
            ids.add(f"module:{repo}:{posixpath.dirname(seg.path) or '.'}")
        else:
            ids.add(f"module:{repo}:{seg.path}")
        stem = posixpath.splitext(posixpath.basename(seg.path))[0]
        names.add(posixpath.basename(posixpath.dirname(seg.path)) if stem in ("__init__", "index") else stem)
    return Surface(frozenset(ids), frozenset(names))


def read_links(shard_dir: Path) -> Links | None:
    """The partition's links; None when it has none (built by an older version: rebuild it)."""
    try:
        raw = json.loads((shard_dir / LINKS_FILE).read_text())
        return Links(
            raw["repo"],
            tuple(raw["dependencies"]),
            tuple(raw["imports"]),
            tuple(raw["provides"]),
            tuple(raw["names"]),
            {r: tuple(ids) for r, ids in raw["stubs"].items()},
            tuple(raw["misses"]),
            tuple(raw.get("repos", ())),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _base_name(repo: str) -> str:
    """A repository's name without its revision (``gin@v2`` -> ``gin``)."""
    return repo.split("@", 1)[0]


def is_revision(repo: str) -> bool:
    """Whether ``repo`` is a revision other than the default branch (``gin@v2``).

    A revision is never another repository's dependency: code that imports ``gin`` is read
    against ``gin``'s default branch, so a new branch neither doubles the importers' edges nor
    makes their partitions stale. Its own imports resolve as its default branch's do.
    """
    return "@" in repo


def provided_names(repo: str, paths: Iterable[str]) -> frozenset[str]:
    """The names ``repo`` provides to importers, read from its file paths (see the module docstring)."""
    out: set[str] = set()
    for path in paths:
        if path.endswith(".py"):
            for root in _PY_ROOTS:
                if root and not path.startswith(root):
                    continue
                rest = path[len(root) :]
                head = rest.split("/", 1)[0]
                out.add("py:" + (head[:-3] if head.endswith(".py") else head))
        elif posixpath.splitext(path)[1] in (".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs"):
            out.add("js:" + _base_name(repo))
        elif path.endswith(".go"):
            out.add("go:" + _base_name(repo))
        elif posixpath.basename(path) == "Cargo.toml":
            folder = posixpath.basename(posixpath.dirname(path)) or _base_name(repo)
            out.update({"rust:" + folder.replace("-", "_"), "rust:" + _base_name(repo).replace("-", "_")})
        elif path.endswith(".java"):  # a package is its folder's trailing parts: every tail of the folder
            parts = posixpath.dirname(path).split("/")
            out.update("java:" + ".".join(parts[i:]) for i in range(len(parts)) if parts[i:] != [""])
        elif path.endswith(".cs"):
            parts = [p for p in posixpath.dirname(path).lower().split("/") if p]
            name = _base_name(repo).lower()
            out.add("cs:" + name)
            for i in range(len(parts)):
                out.update({"cs:" + ".".join(parts[i:]), f"cs:{name}." + ".".join(parts[i:])})
    return frozenset(out)


def _import_name(language: str, spec: str) -> list[str]:
    if not spec or spec.startswith((".", "/")):
        return []  # relative: inside the repository
    if language == "python":
        return ["py:" + spec.split(".", 1)[0]]
    if language in _JS:
        parts = spec.split("/")
        return ["js:" + ("/".join(parts[:2]) if spec.startswith("@") else parts[0])]
    if language == "go":
        parts = spec.split("/")
        return ["go:" + p for p in (parts[1:] if "." in parts[0] else parts)]
    if language == "java":  # ``a.b.C`` of ``import static a.b.C.m`` is class C of package ``a.b``
        package, _, last = spec.rpartition(".")
        return ["java:" + spec] + (["java:" + package] if package and last[:1].isupper() else [])
    if language == "csharp":  # ``A.B.Helpers`` of ``using static A.B.Helpers`` is class Helpers of ``A.B``
        namespace, _, last = spec.rpartition(".")
        return ["cs:" + spec.lower()] + (["cs:" + namespace.lower()] if namespace and last[:1].isupper() else [])
    if language == "rust":
        head = spec.split("::", 1)[0]
        return [] if head in _RUST_LOCAL else ["rust:" + head]
    return []


def import_names(segments: Sequence[Segment]) -> frozenset[str]:
    """The names the files of ``segments`` import (their files are parsed; facts are cached by content)."""
    by_file: dict[tuple[str, str], list[Segment]] = defaultdict(list)
    for seg in segments:
        if supported(seg.language):
            by_file[(seg.repo, seg.path)].append(seg)
    out: set[str] = set()
    for segs in by_file.values():
        size = max(s.end_line for s in segs)
        lines = [""] * size
        for seg in sorted(segs, key=lambda s: s.start_line - s.end_line):
            for offset, text in enumerate(seg.content.split("\n")[: seg.end_line - seg.start_line + 1]):
                lines[seg.start_line - 1 + offset] = text
        language = segs[0].language
        facts = parse_file("\n".join(lines).encode("utf-8", "surrogateescape"), language)
        for imp in facts.imports:
            out.update(_import_name(language, imp.module))
    return frozenset(out)


def dependencies(imports: frozenset[str], provided: Mapping[str, frozenset[str]]) -> tuple[str, ...]:
    """The repositories (of ``provided``: repository -> names) that provide one of ``imports``."""
    return tuple(sorted(repo for repo, names in provided.items() if names & imports))


def stale(
    changed: frozenset[str],
    previous: Mapping[str, Path],
    provided: Mapping[str, frozenset[str]],
    surfaces: Mapping[str, Surface],
) -> frozenset[str]:
    """The previous partitions (partition -> folder) a change to ``changed`` makes stale.

    ``provided`` and ``surfaces``: each changed repository's names and surface now (absent:
    removed, or a revision, which no partition depends on). A partition is stale when it has no
    links (an older build); when it depends on a changed repository that was removed, no longer
    has a node it holds as a stub (an edit above it moved its lines), or now defines a name it
    looked for there and missed; or when a changed repository it does not depend on provides a
    name it imports. An edit that adds code at the end of a file, or changes bodies without moving
    definitions, leaves its importers as they are.
    """
    read = {key: read_links(folder) for key, folder in previous.items()}
    before: dict[str, Links] = {}  # the changed repositories' previous partitions
    for found in read.values():
        for repo in found.owned if found is not None else ():
            # a repository's own partition wins over a pack that still lists it (dead there)
            if repo in changed and found is not None and (repo not in before or len(found.owned) == 1):
                before[repo] = found

    def names_before(repo: str) -> frozenset[str]:
        was = before.get(repo)  # a packed partition's names are its repositories' together: unknown
        return frozenset(was.names) if was is not None and len(was.owned) == 1 else frozenset()

    added = {r: surfaces[r].names - names_before(r) for r in surfaces}
    out = set()
    for key, links in read.items():
        if links is None:
            out.add(key)
            continue
        if changed.intersection(links.owned) and len(links.owned) == 1:
            continue  # rebuilt anyway (a pack is carried with the changed repository dead)
        repo = key
        misses = set(links.misses)
        for dep in changed.intersection({*links.dependencies, *links.stubs}):
            surface = surfaces.get(dep)
            if surface is None or not surface.ids.issuperset(links.stubs.get(dep, ())) or added[dep] & misses:
                out.add(repo)
                break
        else:
            names = set(links.imports)
            for other in changed.difference(links.dependencies):
                if is_revision(other):
                    continue  # never a dependency of another repository
                prior = before.get(other)  # a packed partition's provides are its repositories' together
                was = frozenset(prior.provides) if prior is not None and len(prior.owned) == 1 else frozenset()
                if names & (provided.get(other, frozenset()) | was):
                    out.add(repo)
                    break
    return frozenset(out)
