"""The fleet file (``fourfold.yaml``): which repositories and revisions to index, and how.

Validated against ``fleet.schema.json`` (shipped in the package); every error names the file,
the line and the field. A repository is a git URL (``file://``, ``ssh://``, ``https://``:
mirrored and checked out per revision by ``fourfold sync``) or a local ``path`` (indexed as it
is). Each (repository, revision) pair is indexed under its own name: the repository's name for
its default branch, ``NAME@REVISION`` for the others ('/' in a revision written as '+').
Labels group repositories for token grants (``group:<label>``).

    version: 1
    defaults: {max_file_size: 1M, exclude: ["**/vendor/**"]}
    repositories:
      - name: payments
        url: https://git.example.com/payments.git
        revisions: [main, "release/*"]
        labels: [payments]
      - name: scratch
        path: ~/src/scratch
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from fourfold.errors import InvalidInput

__all__ = [
    "DEFAULT_MAX_FILE_SIZE",
    "Fleet",
    "RepoSpec",
    "index_name",
    "load_fleet",
    "parse_fleet",
    "revision_name",
    "schema",
    "split_index_name",
]

SCHEMA_FILE = Path(__file__).with_name("fleet.schema.json")
DEFAULT_MAX_FILE_SIZE = 1 << 20
_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "m": 1 << 20, "mb": 1 << 20, "g": 1 << 30, "gb": 1 << 30}


@dataclass(frozen=True, slots=True)
class RepoSpec:
    """One repository of the fleet, defaults applied."""

    name: str
    url: str | None = None
    path: str | None = None
    revisions: tuple[str, ...] = ()  # branch/tag globs; empty: the default branch
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    modalities: tuple[str, ...] = ()  # empty: every loaded modality
    embedder: str | None = None
    labels: tuple[str, ...] = ()

    def wants(self, rel: str) -> bool:
        """Whether the path ``rel`` ('/'-separated, relative to the repository) is indexed."""
        p = PurePosixPath(rel)
        if self.include and not any(_match(p, g) for g in self.include):
            return False
        return not any(_match(p, g) for g in self.exclude)


@dataclass(frozen=True, slots=True)
class Fleet:
    """A parsed, validated fleet file."""

    source: str
    repos: tuple[RepoSpec, ...]

    def repo(self, name: str) -> RepoSpec:
        for r in self.repos:
            if r.name == name:
                return r
        known = ", ".join(r.name for r in self.repos) or "none"
        raise InvalidInput(f"no repository {name!r} in {self.source}; it lists: {known}")

    def groups(self) -> dict[str, tuple[str, ...]]:
        """label -> names of the repositories that carry it (what ``group:<label>`` grants)."""
        out: dict[str, list[str]] = {}
        for r in self.repos:
            for label in r.labels:
                out.setdefault(label, []).append(r.name)
        return {k: tuple(v) for k, v in sorted(out.items())}


def _match(path: PurePosixPath, glob: str) -> bool:
    """``**`` spans folders; a glob without '/' matches a file name at any depth."""
    text = str(path)
    if "/" not in glob:
        return fnmatch.fnmatchcase(path.name, glob)
    if fnmatch.fnmatchcase(text, glob):
        return True
    return glob.startswith("**/") and fnmatch.fnmatchcase(text, glob[3:])


def schema() -> dict[str, Any]:
    """The fleet file's JSON Schema (``fourfold/index/fleet.schema.json``)."""
    loaded: dict[str, Any] = json.loads(SCHEMA_FILE.read_text())
    return loaded


def index_name(repo: str, revision: str | None) -> str:
    """The name (repository, revision) is indexed under: ``repo`` for the default branch, else ``repo@rev``."""
    return repo if not revision else f"{repo}@{revision.replace('/', '+')}"


def revision_name(repo: str) -> str:
    """A repository as a user writes it (``pay@release/1.0``) -> the name it is indexed under."""
    base, sep, rev = repo.partition("@")
    return index_name(base, rev) if sep and rev else repo


def split_index_name(name: str) -> tuple[str, str | None]:
    """``repo@rev`` -> (repo, rev with '/' restored); a plain name -> (name, None)."""
    repo, sep, rev = name.partition("@")
    return (repo, rev.replace("+", "/")) if sep else (name, None)


def _size(value: int | str) -> int:
    if isinstance(value, int):
        return value
    m = re.fullmatch(r"([0-9]+) ?([A-Za-z]*)", value.strip())
    assert m is not None  # the schema's pattern let it through
    return int(m.group(1)) * _UNITS[m.group(2).lower()]


def load_fleet(path: Path) -> Fleet:
    """Read and validate a fleet file; InvalidInput names the line and the field of every problem."""
    path = Path(path).expanduser()
    try:
        text = path.read_text()
    except OSError as exc:
        raise InvalidInput(f"cannot read the fleet file {str(path)!r}: {exc.strerror or exc}") from None
    return parse_fleet(text, str(path))


def parse_fleet(text: str, source: str = "fourfold.yaml") -> Fleet:
    """Parse a fleet file's text (YAML; JSON is YAML too)."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark is not None else source
        raise InvalidInput(f"{where}: not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    if data is None:
        data = {}
    _validate(data, node, source)
    defaults: Mapping[str, Any] = data.get("defaults", {})
    repos: list[RepoSpec] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(data["repositories"]):
        entry = {**defaults, **raw}
        name = entry["name"]
        line = _line_of(node, ["repositories", i, "name"])
        if name in seen:
            raise InvalidInput(
                f"{source}:{line}: repositories[{i}].name: {name!r} is listed twice (first at line {seen[name]}); "
                "give every repository its own name"
            )
        seen[name] = line
        if "path" in raw:
            for key in ("revisions", "include", "exclude", "max_file_size"):
                if key in raw:
                    raise InvalidInput(
                        f"{source}:{_line_of(node, ['repositories', i, key])}: repositories[{i}].{key}: applies to "
                        "git repositories (url:), which sync checks out; a path is indexed as it is"
                    )
        repos.append(
            RepoSpec(
                name=name,
                url=entry.get("url"),
                path=str(Path(entry["path"]).expanduser()) if "path" in entry else None,
                revisions=tuple(entry.get("revisions", ())) if "url" in entry else (),
                include=tuple(entry.get("include", ())) if "url" in entry else (),
                exclude=tuple(entry.get("exclude", ())) if "url" in entry else (),
                max_file_size=_size(entry.get("max_file_size", DEFAULT_MAX_FILE_SIZE)),
                modalities=tuple(entry.get("modalities", ())),
                embedder=entry.get("embedder"),
                labels=tuple(entry.get("labels", ())),
            )
        )
    return Fleet(source, tuple(repos))


def _validate(data: Any, node: Any, source: str) -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: (_line_of(node, list(e.absolute_path)), e.path))
    if not errors:
        return
    lines = []
    for err in errors[:10]:
        where = list(err.absolute_path)
        field = _field(where) or "(top level)"
        lines.append(f"{source}:{_line_of(node, where)}: {field}: {_message(err)}")
    more = f"\n  ... and {len(errors) - 10} more" if len(errors) > 10 else ""
    raise InvalidInput("invalid fleet file:\n  " + "\n  ".join(lines) + more)


def _message(err: Any) -> str:
    if err.validator == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        return f"{err.message}; allowed: {', '.join(allowed)}"
    if err.validator == "oneOf" and isinstance(err.instance, dict) and "name" in err.instance:
        return "give exactly one of url (a git repository) or path (a local folder)"
    if err.validator == "pattern" and err.schema.get("description"):
        return f"{err.instance!r} is not allowed: {err.schema['description']}"
    return str(err.message)


def _field(where: Sequence[Any]) -> str:
    out = ""
    for part in where:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _line_of(node: Any, where: Sequence[Any]) -> int:
    """1-based line of the YAML node at ``where`` (the nearest existing parent when it is missing)."""
    import yaml

    line = node.start_mark.line + 1 if node is not None else 1
    for part in where:
        if isinstance(node, yaml.MappingNode):
            found = next(((k, v) for k, v in node.value if k.value == part), None)
            if found is None:
                break
            line = found[0].start_mark.line + 1
            node = found[1]
            if not isinstance(node, yaml.MappingNode | yaml.SequenceNode):
                break
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line
