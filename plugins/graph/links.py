"""Which repositories a partition of the graph is built from, and which partitions a change makes stale.

A partition of repository R is built from R's segments and those of the repositories R imports
(its *dependencies*), never from the whole fleet: its cost is that of R and what R uses, the
same in a fleet of ten repositories or of a thousand. R's dependencies are the repositories that
*provide* a name R imports and does not provide itself:

- Python: the top-level package or module of an absolute import (``requests`` for
  ``from requests.adapters import HTTPAdapter``); a repository provides the names of its
  top-level folders and ``.py`` files, at its root and under ``src/`` or ``lib/``;
- JavaScript and TypeScript: a bare specifier's package (``lodash``, ``@scope/pkg``); a
  repository with such files provides its own name, and the names of the ``package.json`` files
  it holds are read from them by the resolver once it is loaded;
- Go: a path component of the import past the host (``gin`` for
  ``github.com/gin-gonic/gin/render``); a Go repository provides its own name.

Both sides are over-approximations read from file paths alone (no file of a peer is opened): a
repository that provides a name by accident costs a little more build time, never a lost edge.

Each partition writes ``links.json`` beside its graph: the repository, its dependencies, the
names it imports from elsewhere and the names it provides. When repositories are added, changed
or removed, a partition is stale when one of them is among its dependencies or provides (before
or after the change) a name it imports; every other partition carries over as it is.
"""

from __future__ import annotations

import json
import posixpath
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from fourfold.plugins.graph.parse import parse_file, supported
from fourfold.plugins.types import Segment

__all__ = ["LINKS_FILE", "Links", "dependencies", "import_names", "provided_names", "read_links", "stale"]

LINKS_FILE = "links.json"
_JS = frozenset({"javascript", "typescript", "tsx", "jsx"})
_PY_ROOTS = ("", "src/", "lib/")


@dataclass(frozen=True, slots=True)
class Links:
    """What one partition was built from and what ties it to other repositories."""

    repo: str
    dependencies: tuple[str, ...]
    imports: tuple[str, ...]  # names imported from outside the repository ("py:requests", "js:lodash")
    provides: tuple[str, ...]

    def write(self, shard_dir: Path) -> None:
        payload = {
            "repo": self.repo,
            "dependencies": list(self.dependencies),
            "imports": list(self.imports),
            "provides": list(self.provides),
        }
        (shard_dir / LINKS_FILE).write_text(json.dumps(payload, separators=(",", ":")))


def read_links(shard_dir: Path) -> Links | None:
    """The partition's links; None when it has none (built by an older version: rebuild it)."""
    try:
        raw = json.loads((shard_dir / LINKS_FILE).read_text())
        return Links(raw["repo"], tuple(raw["dependencies"]), tuple(raw["imports"]), tuple(raw["provides"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _base_name(repo: str) -> str:
    """A repository's name without its revision (``gin@v2`` -> ``gin``)."""
    return repo.split("@", 1)[0]


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
) -> frozenset[str]:
    """The previous partitions (repository -> folder) a change to ``changed`` makes stale.

    ``provided``: the names each changed repository provides now (absent: removed). A partition
    is stale when it has no links (an older build), depends on a changed repository, or imports a
    name a changed repository provides now or provided before.
    """
    before = {r: frozenset(links.provides) for r in changed if r in previous and (links := read_links(previous[r]))}
    names: set[str] = set()
    for repo in changed:
        names |= provided.get(repo, frozenset()) | before.get(repo, frozenset())
    out = set()
    for repo, folder in previous.items():
        if repo in changed:
            continue
        links = read_links(folder)
        if links is None or changed.intersection(links.dependencies) or names.intersection(links.imports):
            out.add(repo)
    return frozenset(out)
