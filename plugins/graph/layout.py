"""How a repository maps import names to files, read from its build files as they were indexed.

An import names a module the way the project is *built*, not the way its files lie: setuptools'
``package_dir`` puts package ``pkg`` in ``lib/``, a Go module ``example.com/acme/svc`` is the
folder holding ``go.mod``, an npm package ``@acme/util`` is the folder of its ``package.json``
whose ``exports`` say which file ``@acme/util/fmt`` is, and tsconfig ``paths`` rewrite ``@app/*``.
The graph sees only segments, so this module reads those build files from the segments that
ingestion made of them (every file is ingested; a config file is a run of line windows):

- ``pyproject.toml`` (``[tool.setuptools.package-dir]``, hatch ``sources``), ``setup.cfg``
  (``[options] package_dir``) and ``setup.py`` (a literal ``package_dir={...}``);
- ``go.mod`` (the ``module`` line);
- ``package.json`` (``name``, ``exports``, ``main``/``module``/``source``/``types``);
- ``tsconfig.json`` / ``jsconfig.json`` (``compilerOptions.baseUrl`` and ``paths``);
- ``Cargo.toml`` (``[package] name``, ``[lib] name`` and ``path``): the crate a Rust ``use name::...`` names.

A file that cannot be read (bad syntax) is skipped with a note, never an error: the graph then
resolves by file paths alone, as before.
"""

from __future__ import annotations

import ast
import configparser
import json
import posixpath
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CONFIG_NAMES", "JsPackage", "Layout", "PythonRoot", "TsPaths", "read_layout"]

#: Base names of the files this module reads.
CONFIG_NAMES = frozenset(
    {
        "pyproject.toml",
        "setup.cfg",
        "setup.py",
        "go.mod",
        "package.json",
        "tsconfig.json",
        "jsconfig.json",
        "Cargo.toml",
    }
)

#: Conditions of a package.json ``exports`` entry, in the order a source index prefers them.
_CONDITIONS = ("source", "development", "import", "module", "require", "node", "default", "types", "browser")


@dataclass(frozen=True, slots=True)
class PythonRoot:
    """Package ``prefix`` (dotted; ``""`` for the top level) lives in ``folder`` of ``repo``."""

    repo: str
    prefix: str
    folder: str


@dataclass(frozen=True, slots=True)
class JsPackage:
    """An npm package: its folder, and ``exports`` as (subpath, target) pairs (``.``, ``./fmt``, ``./*``)."""

    repo: str
    name: str
    folder: str
    exports: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class TsPaths:
    """A tsconfig's ``paths`` (pattern -> targets, relative to ``base``), for files under ``folder``."""

    repo: str
    folder: str
    base: str
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass
class Layout:
    """Everything read from one shard's build files."""

    python_roots: list[PythonRoot] = field(default_factory=list)
    python_packages: dict[str, set[str]] = field(default_factory=dict)  # repo -> declared top-level names
    go_modules: dict[str, tuple[str, str]] = field(default_factory=dict)  # module path -> (repo, folder)
    js_packages: dict[str, JsPackage] = field(default_factory=dict)
    ts_paths: list[TsPaths] = field(default_factory=list)
    rust_crates: dict[str, tuple[str, str]] = field(default_factory=dict)  # crate name -> (repo, its root folder)
    notes: list[str] = field(default_factory=list)


def _join(folder: str, rel: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, rel)) if rel else folder
    return "" if joined == "." else joined.lstrip("/")


def _strip_json_comments(text: str) -> str:
    """JSON with ``//`` and ``/* */`` comments and trailing commas (tsconfig) as plain JSON."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i + 2)
            i = n if i < 0 else i + 2
        else:
            out.append(c)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def _package_dir(layout: Layout, repo: str, folder: str, mapping: Mapping[str, Any]) -> None:
    for prefix, target in mapping.items():
        if isinstance(prefix, str) and isinstance(target, str):
            layout.python_roots.append(PythonRoot(repo, prefix.strip("."), _join(folder, target)))
            if prefix:
                layout.python_packages.setdefault(repo, set()).add(prefix.split(".")[0])


def _pyproject(layout: Layout, repo: str, folder: str, text: str) -> None:
    data = tomllib.loads(text)
    tool = data.get("tool", {})
    setuptools = tool.get("setuptools", {})
    if isinstance(setuptools.get("package-dir"), dict):
        _package_dir(layout, repo, folder, setuptools["package-dir"])
    wheel = tool.get("hatch", {}).get("build", {}).get("targets", {}).get("wheel", {})
    sources = wheel.get("sources")
    if isinstance(sources, dict):  # hatch: {"src" = ""} or {"lib" = "pkg"}: folder -> package path
        _package_dir(layout, repo, folder, {str(v).replace("/", "."): k for k, v in sources.items()})
    name = data.get("project", {}).get("name")
    if isinstance(name, str):
        layout.python_packages.setdefault(repo, set()).add(re.sub(r"[-.]+", "_", name).lower())


def _setup_cfg(layout: Layout, repo: str, folder: str, text: str) -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    value = parser.get("options", "package_dir", fallback="")
    mapping: dict[str, str] = {}
    for line in value.replace(",", "\n").splitlines():
        if "=" in line:
            prefix, _, target = line.partition("=")
            mapping[prefix.strip()] = target.strip()
    _package_dir(layout, repo, folder, mapping)


def _setup_py(layout: Layout, repo: str, folder: str, text: str) -> None:
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "package_dir":
                    try:
                        mapping = ast.literal_eval(keyword.value)
                    except ValueError:
                        continue  # computed at run time: nothing to read
                    if isinstance(mapping, dict):
                        _package_dir(layout, repo, folder, mapping)


def _go_mod(layout: Layout, repo: str, folder: str, text: str) -> None:
    for line in text.splitlines():
        parts = line.split()
        if len(parts) > 1 and parts[0] == "module":
            layout.go_modules[parts[1].strip('"')] = (repo, folder)


def _targets(value: Any) -> tuple[str, ...]:
    """The file targets of an ``exports`` value (a string, a condition object, an array), preferred first."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(t for v in value for t in _targets(v))
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: _CONDITIONS.index(k) if k in _CONDITIONS else len(_CONDITIONS))
        return tuple(t for k in keys for t in _targets(value[k]))
    return ()


def _package_json(layout: Layout, repo: str, folder: str, text: str) -> None:
    data = json.loads(text)
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name:
        return
    exports = data.get("exports")
    pairs: list[tuple[str, tuple[str, ...]]] = []
    if isinstance(exports, dict) and any(k.startswith(".") for k in exports):
        pairs = [(k, _targets(v)) for k, v in exports.items() if k.startswith(".")]
    elif exports is not None:  # "exports": "./index.js" or a condition object for "."
        pairs = [(".", _targets(exports))]
    main = tuple(data[k] for k in ("source", "module", "main", "types") if isinstance(data.get(k), str))
    if main and not any(k == "." for k, _ in pairs):
        pairs.append((".", main))
    layout.js_packages.setdefault(name, JsPackage(repo, name, folder, tuple(pairs)))


def _tsconfig(layout: Layout, repo: str, folder: str, text: str) -> None:
    data = json.loads(_strip_json_comments(text))
    options = data.get("compilerOptions", {}) if isinstance(data, dict) else {}
    paths = options.get("paths") if isinstance(options, dict) else None
    base_url = options.get("baseUrl") if isinstance(options, dict) else None
    if not isinstance(paths, dict) and not isinstance(base_url, str):
        return
    base = _join(folder, base_url if isinstance(base_url, str) else ".")
    pairs = tuple(
        (k, tuple(t for t in v if isinstance(t, str)))
        for k, v in (paths or {}).items()
        if isinstance(k, str) and isinstance(v, list)
    )
    if isinstance(base_url, str):
        pairs += (("*", ("*",)),)  # a baseUrl alone makes ``src/util`` resolve from it
    layout.ts_paths.append(TsPaths(repo, folder, base, pairs))


def _cargo_toml(layout: Layout, repo: str, folder: str, text: str) -> None:
    data = tomllib.loads(text)
    lib = data.get("lib", {})
    name = lib.get("name") or data.get("package", {}).get("name")
    if not isinstance(name, str) or not name:
        return  # a workspace's manifest: its members have their own
    path = lib.get("path") if isinstance(lib.get("path"), str) else "src/lib.rs"
    # the crate's root module is the folder of its lib.rs (``use tiny::ast`` is ``<root>/ast.rs``)
    layout.rust_crates.setdefault(name.replace("-", "_"), (repo, _join(folder, posixpath.dirname(path))))


_READERS = {
    "pyproject.toml": _pyproject,
    "setup.cfg": _setup_cfg,
    "setup.py": _setup_py,
    "go.mod": _go_mod,
    "package.json": _package_json,
    "tsconfig.json": _tsconfig,
    "jsconfig.json": _tsconfig,
    "Cargo.toml": _cargo_toml,
}


def read_layout(files: Mapping[tuple[str, str], str]) -> Layout:
    """The layout of the build files among ``files`` ((repo, path) -> text); other files are ignored."""
    layout = Layout()
    for (repo, path), text in sorted(files.items()):
        reader = _READERS.get(posixpath.basename(path))
        if reader is None:
            continue
        if "node_modules/" in path:
            continue  # a vendored dependency's manifest says nothing about this project's imports
        try:
            reader(layout, repo, posixpath.dirname(path), text)
        except (ValueError, SyntaxError, configparser.Error, AttributeError, TypeError, tomllib.TOMLDecodeError) as exc:
            layout.notes.append(f"{repo}/{path}: not read for import resolution ({type(exc).__name__}: {exc})")
    layout.ts_paths.sort(key=lambda t: -len(t.folder))  # the nearest tsconfig first
    return layout
