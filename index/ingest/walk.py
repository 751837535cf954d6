"""Walk a repository the way git sees it, and read files with the reasons some are skipped.

Inside a git work tree the file list is ``git ls-files --cached --others --exclude-standard``
(tracked plus untracked-but-not-ignored). A plain folder is walked with its ``.gitignore`` files
honoured (nested ones too) through ``pathspec``. Skipped files are counted by reason, never
dropped silently.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from fourfold.errors import InvalidPath

__all__ = ["DEFAULT_MAX_FILE_BYTES", "SourceFile", "WalkResult", "read_source", "source_size", "walk_repository"]

#: Files larger than this are skipped as ``too_large`` (generated bundles, data dumps).
DEFAULT_MAX_FILE_BYTES = 1 << 20
_BINARY_SNIFF = 8192
_ALWAYS_SKIP_DIRS = {".git", ".hg", ".svn"}


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to index: ``path`` relative to the repository root, '/'-separated."""

    path: str
    abspath: Path


@dataclass
class WalkResult:
    files: list[SourceFile] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    #: (path, reason, size in bytes) of each file git lists that is not read: "symlink" (a link is not followed)
    left_out: list[tuple[str, str, int]] = field(default_factory=list)


def _maybe_git(root: Path) -> bool:
    """Whether git could see a work tree at ``root``: a ``.git`` in it or a folder above, or git
    told where by the environment. A fleet of plain folders then costs no git process per folder."""
    if os.environ.get("GIT_DIR") or os.environ.get("GIT_WORK_TREE"):
        return True
    here = root.resolve()
    return any((folder / ".git").exists() for folder in (here, *here.parents))


def _git_files(root: Path) -> list[str] | None:
    if not _maybe_git(root):
        return None
    try:
        inside = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--is-inside-work-tree"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if inside.returncode != 0 or inside.stdout.strip() != "true":
        return None
    out = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."],
        capture_output=True,
        timeout=300,
        check=False,
    )
    if out.returncode != 0:
        return None
    return sorted({p for p in out.stdout.decode("utf-8", "surrogateescape").split("\0") if p})


def _walk_plain(root: Path) -> Iterator[str]:
    """os.walk honouring every .gitignore on the way down (patterns relative to their folder)."""
    specs: list[tuple[str, pathspec.PathSpec]] = []

    def ignored(rel: str, is_dir: bool) -> bool:
        for base, spec in specs:
            if base and not rel.startswith(base + "/"):
                continue
            sub = rel[len(base) + 1 :] if base else rel
            if spec.match_file(sub + ("/" if is_dir else "")):
                return True
        return False

    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        gitignore = Path(dirpath) / ".gitignore"
        if gitignore.is_file():
            try:
                lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
                specs.append((rel_dir, pathspec.GitIgnoreSpec.from_lines(lines)))
            except OSError:
                pass
        keep = []
        for d in sorted(dirnames):
            rel = f"{rel_dir}/{d}" if rel_dir else d
            if d not in _ALWAYS_SKIP_DIRS and not ignored(rel, True):
                keep.append(d)
        dirnames[:] = keep
        for f in sorted(filenames):
            rel = f"{rel_dir}/{f}" if rel_dir else f
            if not ignored(rel, False):
                yield rel


def walk_repository(root: Path) -> WalkResult:
    """List the files of ``root`` as git would; raises InvalidPath for a missing or unreadable root."""
    root = Path(root)
    if not root.exists():
        raise InvalidPath(f"repository path does not exist: {str(root)!r}; check the path and try again")
    if not root.is_dir():
        raise InvalidPath(f"repository path is not a folder: {str(root)!r}; pass the repository's root folder")
    if not os.access(root, os.R_OK | os.X_OK):
        raise InvalidPath(f"repository path is not readable: {str(root)!r}; check its permissions")
    result = WalkResult()
    rels = _git_files(root)
    for rel in rels if rels is not None else _walk_plain(root):
        abspath = root / rel
        if abspath.is_symlink():
            result.skipped["symlink"] += 1
            result.left_out.append((rel, "symlink", _size(abspath)))
            continue
        if not abspath.is_file():  # deleted in the work tree, or a submodule folder
            result.skipped["not_a_file"] += 1
            continue
        result.files.append(SourceFile(rel, abspath))
    return result


def _size(path: Path) -> int:
    """The size of ``path`` itself (a link's, not its target's), as find and fd see it; -1 where it cannot be read."""
    try:
        return path.lstat().st_size
    except OSError:
        return -1


def source_size(file: SourceFile) -> int:
    """A file's size in bytes (-1 where it cannot be read): what a file not indexed is sized by."""
    return _size(file.abspath)


def read_source(file: SourceFile, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> tuple[bytes | None, str | None]:
    """(content, None) for an indexable file, else (None, reason): too_large, unreadable, binary, invalid_utf8."""
    try:
        size = file.abspath.stat().st_size
        if size > max_bytes:
            return None, "too_large"
        data = file.abspath.read_bytes()
    except OSError:
        return None, "unreadable"
    if b"\0" in data[:_BINARY_SNIFF]:
        return None, "binary"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None, "invalid_utf8"
    return data, None
