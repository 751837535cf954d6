"""``fourfold sync``: fetch every repository of the fleet file and index what moved.

    $FOURFOLD_HOME/
      mirrors/<name>.git        a bare mirror of each git repository (``git clone --mirror``, then ``git fetch``)
      checkouts/<index name>/   the files of one (repository, revision) at its commit, filtered
      fleet-state.json          per repository: ok or stale (with the error), the commit of each revision

A sync fetches each repository (one failing fetch marks that repository stale and keeps its last
good checkout and index serving; it never stops the others), resolves its revision globs to
commits, checks out only the (repository, revision) pairs whose commit moved, unregisters the
pairs that left the fleet file, and then builds one generation: the builder carries every shard
of what did not move (``fourfold.index.generation``), so the cost is that of what changed.
"""

from __future__ import annotations

import contextlib
import fcntl
import fnmatch
import json
import logging
import os
import shutil
import subprocess
import tarfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fourfold.api import IndexProgress
from fourfold.errors import GitError, IndexLocked
from fourfold.index.fleet import Fleet, RepoSpec, index_name
from fourfold.index.generation import IndexSummary, RepoOptions
from fourfold.index.git import run_git
from fourfold.index.progress import Progress
from fourfold.index.store import IndexStore

__all__ = ["SyncReport", "fleet_state", "sync"]

log = logging.getLogger(__name__)
STATE_FILE = "fleet-state.json"
#: What a build is: (repositories to add as (path, name), per-repository build options) -> summary.
Build = Callable[[list[tuple[Path, str]], dict[str, RepoOptions]], IndexSummary]


@dataclass
class SyncReport:
    """What one sync did, per repository."""

    fetched: list[str] = field(default_factory=list)
    stale: dict[str, str] = field(default_factory=dict)  # repository -> why its fetch failed
    moved: dict[str, str] = field(default_factory=dict)  # index name -> commit now checked out
    removed: list[str] = field(default_factory=list)  # index names that left the fleet file
    unchanged: list[str] = field(default_factory=list)
    summary: IndexSummary | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "fetched": self.fetched,
            "stale": self.stale,
            "moved": self.moved,
            "removed": self.removed,
            "unchanged": self.unchanged,
            "summary": self.summary.as_dict() if self.summary else None,
        }


def fleet_state(store: IndexStore) -> dict[str, Any]:
    """The last sync's record: {"repos": {name: {"status", "error", "fetched_at", "revisions": {name: commit}}}}."""
    try:
        loaded: dict[str, Any] = json.loads((store.home / STATE_FILE).read_text())
        return loaded
    except (OSError, json.JSONDecodeError):
        return {"repos": {}}


def _write_state(store: IndexStore, state: dict[str, Any]) -> None:
    tmp = store.home / f".{STATE_FILE}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True))
    os.replace(tmp, store.home / STATE_FILE)


@contextlib.contextmanager
def _sync_lock(store: IndexStore) -> Iterator[None]:
    store.ensure()
    fd = os.open(store.home / "sync.lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise IndexLocked(f"another sync holds {str(store.home / 'sync.lock')!r}; wait for it to finish") from None
        yield
    finally:
        os.close(fd)


def _fetch(spec: RepoSpec, mirror: Path) -> str:
    """Clone the mirror the first time, fetch (pruning deleted refs) after; a mirror that cannot
    fetch is cloned afresh beside it and swapped in when that works (a damaged mirror heals
    itself; an upstream that is gone or refuses stays an error). Returns a note when it healed."""
    url = spec.url
    assert url is not None
    if (mirror / "HEAD").exists():
        try:
            run_git(spec.name, "fetch", url, "remote", "set-url", "origin", url, cwd=mirror)
            refspec = "+refs/heads/*:refs/heads/*"
            run_git(spec.name, "fetch", url, "fetch", "--prune", "--tags", "--force", "origin", refspec, cwd=mirror)
            return ""
        except GitError as exc:
            failure = exc
    else:
        failure = None
    tmp = mirror.with_name(mirror.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    mirror.parent.mkdir(parents=True, exist_ok=True)
    try:
        run_git(spec.name, "clone", url, "clone", "--mirror", "--quiet", url, str(tmp))
    except GitError:
        shutil.rmtree(tmp, ignore_errors=True)
        if failure is not None:
            raise failure from None  # the fetch's own error says more than the clone's
        raise
    old = mirror.with_name(mirror.name + ".old")
    if mirror.exists():
        shutil.rmtree(old, ignore_errors=True)
        os.replace(mirror, old)
    os.replace(tmp, mirror)
    shutil.rmtree(old, ignore_errors=True)
    return f"mirror cloned again after: {failure.detail}" if failure is not None else ""


def _revisions(spec: RepoSpec, mirror: Path) -> dict[str, str]:
    """Index name -> commit for each branch or tag the repository's globs match (default: the default branch)."""
    refs: dict[str, str] = {}
    fields = "--format=%(refname)%09%(objectname)%09%(*objectname)"
    out = run_git(
        spec.name, "list the branches and tags", None, "for-each-ref", fields, "refs/heads", "refs/tags", cwd=mirror
    )
    for line in out.splitlines():
        ref, obj, peeled = [*line.split("\t"), "", ""][:3]
        short = ref.removeprefix("refs/heads/").removeprefix("refs/tags/")
        refs.setdefault(short, peeled or obj)  # a branch wins over a tag of the same name
    try:
        default = run_git(
            spec.name, "read the default branch", None, "symbolic-ref", "--short", "HEAD", cwd=mirror
        ).strip()
    except GitError:
        default = ""
    if not spec.revisions:
        if default not in refs:
            raise GitError(
                f"the default branch {default or '(none)'!r} has no commit; push a commit to it, "
                "or name the branches to index under revisions in the fleet file",
                repo=spec.name,
            )
        return {index_name(spec.name, None): refs[default]}
    out_map: dict[str, str] = {}
    for glob in spec.revisions:
        hits = sorted(r for r in refs if fnmatch.fnmatchcase(r, glob))
        for rev in hits:
            out_map[index_name(spec.name, None if rev == default else rev)] = refs[rev]
    if not out_map:
        raise GitError(
            f"no branch or tag matches {list(spec.revisions)}; it has {', '.join(sorted(refs)[:10])}; "
            "correct the revisions in the fleet file",
            repo=spec.name,
        )
    for commit in sorted(set(out_map.values())):
        _readable(spec, mirror, commit)
    return out_map


def _readable(spec: RepoSpec, mirror: Path, commit: str) -> None:
    """Raise unless the commit and its root tree can be read (a corrupt pack fails here, not mid-build)."""
    try:
        run_git(spec.name, "read a commit", None, "cat-file", "-e", f"{commit}^{{tree}}", cwd=mirror)
    except GitError as exc:
        raise GitError(
            f"the mirror is damaged: commit {commit[:12]} cannot be read; remove {mirror} to clone again",
            repo=spec.name,
            purpose="read a commit",
            stderr=exc.stderr,
        ) from None


def _commit_marker(dest: Path) -> Path:
    """Where the commit a checkout holds is recorded (beside it: nothing inside a checkout is ours)."""
    return dest.with_name(f".{dest.name}.commit")


def _checkout(spec: RepoSpec, mirror: Path, commit: str, dest: Path) -> int:
    """Write the files of ``commit`` that ``spec`` indexes into ``dest`` (replaced whole); the file count.

    Streams ``git archive`` (never the whole tar in memory); files over the size limit or outside
    the include/exclude globs are not written.
    """
    tmp = dest.with_name(f".{dest.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    root = tmp.resolve()
    n = 0
    with subprocess.Popen(
        ["git", "archive", "--format=tar", commit], cwd=mirror, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
                for member in tar:
                    if not member.isfile() or member.size > spec.max_file_size or not spec.wants(member.name):
                        continue
                    target = tmp / member.name
                    if not target.resolve().is_relative_to(root):
                        continue  # a path escaping the checkout
                    target.parent.mkdir(parents=True, exist_ok=True)
                    src = tar.extractfile(member)
                    if src is not None:
                        with open(target, "wb") as out:
                            shutil.copyfileobj(src, out)
                        n += 1
        except tarfile.TarError as exc:
            proc.kill()
            raise GitError(
                f"git archive {commit[:12]}: unreadable output ({exc}); remove {mirror} to clone again",
                repo=spec.name,
                purpose="check out",
            ) from None
        err = proc.stderr.read().decode(errors="replace").strip()
    if proc.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        first = next((line for line in err.splitlines() if line.strip()), f"exit status {proc.returncode}")
        raise GitError(
            f"git archive {commit[:12]} failed: {first}; remove {mirror} to clone again",
            repo=spec.name,
            purpose="check out",
            stderr=first,
        )
    old = dest.with_name(f".{dest.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if dest.exists():
        os.replace(dest, old)
    os.replace(tmp, dest)
    _commit_marker(dest).write_text(commit + "\n")
    shutil.rmtree(old, ignore_errors=True)
    return n


def sync(
    store: IndexStore,
    fleet: Fleet,
    build: Build,
    *,
    only: Sequence[str] = (),
    progress: Progress | None = None,
) -> SyncReport:
    """Fetch the fleet's repositories (``only`` these when given), check out what moved, build once.

    ``build`` builds and publishes a generation (in-process, or through a serving coordinator so
    its workers roll). A repository whose fetch or checkout fails is marked stale and keeps the
    checkout and index it had; the others go on.
    """
    for name in only:
        fleet.repo(name)  # raises InvalidInput naming the fleet's repositories
    report = SyncReport()
    with _sync_lock(store):
        state = fleet_state(store)
        repos_state: dict[str, Any] = state.setdefault("repos", {})
        wanted = [r for r in fleet.repos if not only or r.name in only]

        def say(spec: RepoSpec, done: int, message: str) -> None:
            if progress is not None:
                stage = f"sync:{spec.name}"
                progress(IndexProgress(stage, done, len(wanted), message, unit="repositories", repo=spec.name))

        adds: list[tuple[Path, str]] = []
        registered = {r.name for r in store.repos()}
        for i, spec in enumerate(wanted, start=1):
            entry = repos_state.setdefault(spec.name, {"revisions": {}})
            say(spec, i - 1, f"{spec.name}: fetching")
            try:
                targets = _sync_one(store, spec)
            except (GitError, OSError) as exc:
                why = exc.detail if isinstance(exc, GitError) else str(exc)  # kept per repository: no name again
                entry.update(status="stale", error=why, failed_at=time.time())
                report.stale[spec.name] = why
                say(spec, i, f"{spec.name}: STALE ({why}); its last good index keeps serving")
                continue
            report.fetched.append(spec.name)
            entry.update(status="ok", error="", fetched_at=time.time())
            before: dict[str, str] = entry.get("revisions", {})
            for name, (path, commit) in targets.items():
                if name not in registered or before.get(name) != commit:
                    if commit:
                        report.moved[name] = commit
                    adds.append((path, name))
                else:
                    report.unchanged.append(name)
            for gone in sorted(set(before) - set(targets)):
                _forget(store, gone, registered)
                report.removed.append(gone)
            entry["revisions"] = {n: c for n, (_, c) in targets.items()}
            moved = [n for n in targets if n in report.moved]
            say(spec, i, f"{spec.name}: {', '.join(f'{n} -> {report.moved[n][:12]}' for n in moved) or 'up to date'}")
        if not only:  # repositories that left the fleet file
            for name in sorted(set(repos_state) - {r.name for r in fleet.repos}):
                for gone in sorted(repos_state[name].get("revisions", {})):
                    _forget(store, gone, registered)
                    report.removed.append(gone)
                shutil.rmtree(store.home / "mirrors" / f"{name}.git", ignore_errors=True)
                del repos_state[name]
        options: dict[str, RepoOptions] = {}
        for spec in fleet.repos:  # options of every pair (carried ones too) for the build
            settings = {"embedder": spec.embedder} if spec.embedder else {}
            for name, commit in repos_state.get(spec.name, {}).get("revisions", {}).items():
                options[name] = RepoOptions(spec.modalities, settings, commit)
        if adds or report.removed or not store.live_generation():
            remaining = registered - set(report.removed) | {n for _, n in adds}
            if remaining:
                report.summary = build(adds, options)
            else:
                store.retire_live()
        _write_state(store, state)
        return report


def _sync_one(store: IndexStore, spec: RepoSpec) -> dict[str, tuple[Path, str]]:
    """Fetch one repository and check out its moved revisions: index name -> (folder, commit)."""
    if spec.path is not None:
        folder = Path(spec.path)
        if not folder.is_dir():
            raise GitError(f"path {spec.path!r} is not a folder; correct it in the fleet file", repo=spec.name)
        return {index_name(spec.name, None): (folder.resolve(), "")}
    mirror = store.home / "mirrors" / f"{spec.name}.git"
    healed = _fetch(spec, mirror)
    if healed:
        log.warning("%s: %s", spec.name, healed)
    out: dict[str, tuple[Path, str]] = {}
    for name, commit in _revisions(spec, mirror).items():
        dest = store.home / "checkouts" / name
        marker = _commit_marker(dest)
        current = marker.read_text().strip() if marker.exists() and dest.is_dir() else ""
        if current != commit:
            _checkout(spec, mirror, commit, dest)
        out[name] = (dest, commit)
    return out


def _forget(store: IndexStore, name: str, registered: set[str]) -> None:
    if name in registered:
        store.unregister_repo(name)
    shutil.rmtree(store.home / "checkouts" / name, ignore_errors=True)
    _commit_marker(store.home / "checkouts" / name).unlink(missing_ok=True)
