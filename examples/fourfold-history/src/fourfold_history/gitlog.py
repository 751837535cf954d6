"""Read a repository's history: ``git log -p --unified=0`` parsed into commits, files and hunks.

Only git itself is run (a subprocess, streamed line by line, so a long history is never held as
one string). Merge commits are skipped (their diffs repeat their parents'); renames are detected
(``-M``) so a change made before a file moved still reaches the file where it lives now.
"""

from __future__ import annotations

import codecs
import io
import re
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Commit", "FileChange", "GitError", "Hunk", "is_git_repository", "parse_log", "read_history"]

_RS, _US = "\x1e", "\x1f"
#: Ends a commit's header: a message may hold any byte, even 0x1f or 0x1e, but not this run of them.
_END = f"{_US}{_RS}{_RS}{_US}"
#: One header per commit: sha, author, e-mail, author time (unix), raw message; fields split by 0x1f.
_FORMAT = f"--format={_RS}%H{_US}%an{_US}%ae{_US}%at{_US}%B{_END}"
#: The line that starts a commit's header (a line of a file or a message may also start with 0x1e).
_HEADER = re.compile(f"^{_RS}[0-9a-f]{{40,64}}{_US}")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class GitError(RuntimeError):
    """git could not read the history (not a repository, no commits, git missing)."""


@dataclass(frozen=True, slots=True)
class Hunk:
    """One changed region: ``old_count`` lines from ``old_start`` became ``new_count`` from ``new_start``.

    A count of 0 means a pure insertion (old) or deletion (new); the start then names the line
    just before the change, as in unified diffs.
    """

    old_start: int
    old_count: int
    new_start: int
    new_count: int


@dataclass(frozen=True, slots=True)
class FileChange:
    """What one commit did to one file; ``old_path`` is None when added, ``new_path`` None when deleted."""

    old_path: str | None
    new_path: str | None
    hunks: tuple[Hunk, ...]


@dataclass(frozen=True, slots=True)
class Commit:
    sha: str
    author: str
    email: str
    time: int  # author time, seconds since the epoch
    message: str
    changes: tuple[FileChange, ...]

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0].strip()


def is_git_repository(path: Path) -> bool:
    """True when ``path`` is the top of a git work tree with at least one commit."""
    try:
        out = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--show-toplevel", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    if out.returncode != 0:
        return False
    top = out.stdout.splitlines()[0] if out.stdout else ""
    return Path(top).resolve() == Path(path).resolve()


def read_history(path: Path, max_commits: int = 0) -> Iterator[Commit]:
    """Commits reachable from HEAD, newest first (``max_commits`` > 0 caps how many).

    Raises ``GitError`` naming the repository when git fails.
    """
    cmd = [
        "git",
        "-C",
        str(path),
        "-c",
        "core.quotePath=false",
        "log",
        "-p",
        "--unified=0",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--no-merges",
        "-M",
        _FORMAT,
    ]
    if max_commits > 0:
        cmd.append(f"--max-count={max_commits}")
    cmd.append("HEAD")
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as exc:
        raise GitError(f"cannot run git for {str(path)!r}: {exc}; install git to index history") from None
    assert proc.stdout is not None and proc.stderr is not None
    # Lines end at "\n" only: a file with "\r" in it must not cut a diff line in two.
    stdout = io.TextIOWrapper(proc.stdout, encoding="utf-8", errors="replace", newline="\n")
    try:
        yield from parse_log(stdout)
    finally:
        stdout.close()
        err = proc.stderr.read().decode("utf-8", "replace")
        proc.stderr.close()
        code = proc.wait()
    if code != 0:
        raise GitError(f"git log failed in {str(path)!r} (exit {code}): {err.strip()[:300]}")


def parse_log(lines: Iterable[str]) -> Iterator[Commit]:
    """Parse the output of ``git log -p --unified=0`` in ``_FORMAT`` (kept separate for tests)."""
    it = iter(lines)
    header: str | None = None
    changes: list[FileChange] = []
    current: _FileBuilder | None = None
    skip_minus = skip_plus = 0
    for line in it:
        if line.startswith(_RS) and _HEADER.match(line):
            if header is not None:
                if current:
                    changes.append(current.done())
                yield _commit(header, changes)
            header, changes, current = line[1:], [], None
            skip_minus = skip_plus = 0
            while _END not in header:
                more = next(it, None)
                if more is None:
                    break
                header += more
            continue
        line = line.rstrip("\n")
        if skip_minus or skip_plus:  # body lines of a hunk: counted, so "--- x" in a body is not a header
            if line.startswith("-") and skip_minus:
                skip_minus -= 1
                continue
            if line.startswith("+") and skip_plus:
                skip_plus -= 1
                continue
            if line.startswith("\\"):
                continue
            skip_minus = skip_plus = 0
        if line.startswith("diff --git "):
            if current:
                changes.append(current.done())
            current = _FileBuilder(*_diff_git_paths(line[len("diff --git ") :]))
        elif current is None:
            continue
        elif line.startswith("@@ "):
            m = _HUNK.match(line)
            if m:
                old_count = int(m.group(2)) if m.group(2) is not None else 1
                new_count = int(m.group(4)) if m.group(4) is not None else 1
                current.hunks.append(Hunk(int(m.group(1)), old_count, int(m.group(3)), new_count))
                skip_minus, skip_plus = old_count, new_count
        elif line.startswith("--- "):
            current.old_path = _side_path(line[4:], "a/")
        elif line.startswith("+++ "):
            current.new_path = _side_path(line[4:], "b/")
        elif line.startswith("rename from "):
            current.old_path = _unquote(line[len("rename from ") :])
        elif line.startswith("rename to "):
            current.new_path = _unquote(line[len("rename to ") :])
        elif line.startswith("new file mode"):
            current.old_path = None
        elif line.startswith("deleted file mode"):
            current.new_path = None
    if header is not None:
        if current:
            changes.append(current.done())
        yield _commit(header, changes)


class _FileBuilder:
    __slots__ = ("hunks", "new_path", "old_path")

    def __init__(self, old_path: str | None, new_path: str | None) -> None:
        self.old_path = old_path
        self.new_path = new_path
        self.hunks: list[Hunk] = []

    def done(self) -> FileChange:
        return FileChange(self.old_path, self.new_path, tuple(sorted(self.hunks, key=lambda h: h.old_start)))


def _commit(header: str, changes: list[FileChange]) -> Commit:
    """A commit from its header; a field that is not what the format promises is kept as best it can be
    (a time that is not a number becomes 0) rather than failing the whole history."""
    fields = header.split(_END, 1)[0].split(_US, 4)
    fields += [""] * (5 - len(fields))
    sha, author, email, when, message = fields
    when = when.strip()
    return Commit(sha.strip(), author, email, int(when) if when.isdigit() else 0, message.strip(), tuple(changes))


def _unquote(name: str) -> str:
    """git's C-style quoting of unusual file names (``"dir/na\\303\\257ve.py"``)."""
    if len(name) >= 2 and name[0] == name[-1] == '"':
        raw = codecs.escape_decode(name[1:-1].encode("utf-8"))[0]
        return bytes(raw).decode("utf-8", "replace")
    return name


def _side_path(value: str, prefix: str) -> str | None:
    value = _unquote(value.rstrip("\t"))
    if value == "/dev/null":
        return None
    return value[len(prefix) :] if value.startswith(prefix) else value


def _diff_git_paths(rest: str) -> tuple[str | None, str | None]:
    """``a/X b/Y`` from a ``diff --git`` line; exact when X == Y, else refined by later header lines."""
    if rest.startswith('"'):
        end = rest.find('" ', 1)
        old, new = rest[: end + 1], rest[end + 2 :]
        return _side_path(old, "a/"), _side_path(new, "b/")
    half = (len(rest) - 1) // 2
    if rest[half] == " " and rest[2:half] == rest[half + 3 :]:
        return rest[2:half], rest[half + 3 :]
    old, _, new = rest.partition(" b/")
    return _side_path(old, "a/"), new
