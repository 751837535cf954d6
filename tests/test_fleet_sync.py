"""The fleet file and ``fourfold sync`` against real git repositories (bare, over file:// URLs).

Real git (clone --mirror, fetch, archive), real SQLite, the real text/structural builders.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from fourfold.errors import InvalidInput
from fourfold.index.fleet import index_name, parse_fleet, split_index_name
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.index.sync import fleet_state, sync

MODALITIES = ["structural", "text"]
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
}


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env={**os.environ, **GIT_ENV}
    ).stdout


class Upstream:
    """A work repository and the bare repository it pushes to (what sync fetches, by file:// URL)."""

    def __init__(self, root: Path, name: str) -> None:
        self.work = root / f"{name}-work"
        self.bare = root / f"{name}.git"
        self.work.mkdir(parents=True)
        git("init", "-q", "-b", "main", cwd=self.work)
        self.commit({"README.md": f"# {name}\n", f"{name}/core.py": f"def {name}_core():\n    return 1\n"})
        git("clone", "-q", "--bare", str(self.work), str(self.bare), cwd=root)
        git("remote", "add", "origin", str(self.bare), cwd=self.work)

    @property
    def url(self) -> str:
        return self.bare.as_uri()

    def commit(self, files: dict[str, str]) -> None:
        for rel, text in files.items():
            (self.work / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.work / rel).write_text(text)
        git("add", "-A", cwd=self.work)
        git("commit", "-q", "-m", f"change {sorted(files)}", cwd=self.work)

    def push(self, branch: str = "main") -> None:
        git("push", "-q", "origin", branch, cwd=self.work)


def build(store: IndexStore):  # type: ignore[no-untyped-def]
    return lambda adds, options: build_generation(store, adds, modalities=MODALITIES, repo_options=options)


def write_fleet(path: Path, entries: list[str]) -> Path:
    path.write_text("version: 1\nrepositories:\n" + "".join(entries))
    return path


# -- the fleet file --------------------------------------------------------------------------------


def test_fleet_file_parses_with_defaults_and_groups() -> None:
    fleet = parse_fleet(
        "defaults:\n  max_file_size: 512K\n  exclude: ['**/vendor/**']\n"
        "repositories:\n"
        "  - name: payments\n    url: file:///srv/payments.git\n    revisions: [main, 'release/*']\n"
        "    labels: [payments, core]\n"
        "  - name: ledger\n    url: ssh://git@example.com/ledger.git\n    labels: [payments]\n"
        "    modalities: [text]\n"
    )
    pay, ledger = fleet.repos
    assert pay.max_file_size == 512 * 1024 and pay.revisions == ("main", "release/*")
    assert ledger.modalities == ("text",) and ledger.revisions == ()
    assert fleet.groups() == {"core": ("payments",), "payments": ("payments", "ledger")}
    assert pay.wants("src/app.py") and not pay.wants("src/vendor/lib.py")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "repositories:\n  - name: a\n    url: file:///x\n    colour: red\n",
            r"fourfold.yaml:2: repositories\[0\]:.*colour",
        ),
        (
            "repositories:\n  - name: a\n    url: file:///x\n  - name: b/c\n    path: /tmp\n",
            r":4: repositories\[1\].name",
        ),
        (
            "repositories:\n  - name: a\n    url: file:///x\n    max_file_size: lots\n",
            r":4: repositories\[0\].max_file",
        ),
        ("repositories:\n  - name: a\n", r":2: repositories\[0\]: give exactly one of url"),
        ("repositories:\n  - name: a\n    path: /x\n  - name: a\n    path: /y\n", r":4: .*'a' is listed twice"),
        ("repositories:\n  - name: a\n    path: /x\n    revisions: [main]\n", r":4: repositories\[0\].revisions"),
        ("repositories: [\n", r"fourfold.yaml:\d+: not valid YAML"),
        ("repos: []\n", r":1: \(top level\)"),
    ],
)
def test_fleet_file_errors_name_the_line_and_the_field(text: str, expected: str) -> None:
    with pytest.raises(InvalidInput, match=expected):
        parse_fleet(text)


def test_index_names_of_revisions_round_trip() -> None:
    assert index_name("pay", None) == "pay" and split_index_name("pay") == ("pay", None)
    assert index_name("pay", "release/1.0") == "pay@release+1.0"
    assert split_index_name("pay@release+1.0") == ("pay", "release/1.0")


# -- sync --------------------------------------------------------------------------------------------


@pytest.fixture
def upstreams(tmp_path: Path) -> dict[str, Upstream]:
    return {name: Upstream(tmp_path / "up", name) for name in ("alpha", "beta")}


def test_sync_indexes_what_moved_only_and_survives_a_broken_upstream(
    upstreams: dict[str, Upstream], tmp_path: Path
) -> None:
    store = IndexStore(tmp_path / "home")
    entries = [f"  - name: {n}\n    url: {u.url}\n" for n, u in upstreams.items()]
    fleet = parse_fleet(write_fleet(tmp_path / "fourfold.yaml", entries).read_text())
    first = sync(store, fleet, build(store))
    assert sorted(first.moved) == ["alpha", "beta"] and first.summary is not None
    assert {r.name for r in store.repos()} == {"alpha", "beta"}
    assert "alpha_core" in {s.symbol for s in store.require_live().segments(repos=["alpha"])}

    again = sync(store, fleet, build(store))
    assert again.moved == {} and again.summary is None and sorted(again.unchanged) == ["alpha", "beta"]

    upstreams["beta"].commit({"beta/extra.py": "def beta_extra():\n    return 2\n"})
    upstreams["beta"].push()
    moved = sync(store, fleet, build(store))
    assert list(moved.moved) == ["beta"] and moved.summary is not None
    assert moved.summary.changed_repos == ["beta"] and moved.summary.carried_shards == 2
    assert "beta_extra" in {s.symbol for s in store.require_live().segments(repos=["beta"])}

    # the upstream is deleted: beta goes stale, keeps serving its last index; alpha still syncs
    shutil.rmtree(upstreams["beta"].bare)
    upstreams["alpha"].commit({"alpha/more.py": "def alpha_more():\n    return 3\n"})
    upstreams["alpha"].push()
    broken = sync(store, fleet, build(store))
    assert list(broken.stale) == ["beta"] and "git fetch failed" in broken.stale["beta"]
    assert list(broken.moved) == ["alpha"]
    live = store.require_live()
    assert "beta_extra" in {s.symbol for s in live.segments(repos=["beta"])}
    assert "alpha_more" in {s.symbol for s in live.segments(repos=["alpha"])}
    state = fleet_state(store)["repos"]
    assert state["beta"]["status"] == "stale" and state["alpha"]["status"] == "ok"


def test_a_repository_whose_commit_did_not_move_is_carried_without_walking_its_files(
    upstreams: dict[str, Upstream], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fleet update costs what moved: alpha's checkout is at the commit it was indexed at, so the
    build neither walks nor stats its files (its file list comes from its segment database)."""
    import fourfold.index.generation as generation

    store = IndexStore(tmp_path / "home")
    entries = [f"  - name: {n}\n    url: {u.url}\n" for n, u in upstreams.items()]
    fleet = parse_fleet(write_fleet(tmp_path / "fourfold.yaml", entries).read_text())
    sync(store, fleet, build(store))
    walked: list[str] = []
    real_walk = generation.walk_repository
    monkeypatch.setattr(generation, "walk_repository", lambda path: walked.append(path.name) or real_walk(path))
    upstreams["beta"].commit({"beta/extra.py": "def beta_extra():\n    return 2\n"})
    upstreams["beta"].push()
    moved = sync(store, fleet, build(store))
    assert list(moved.moved) == ["beta"] and moved.summary is not None
    assert "alpha" not in walked and "beta" in walked  # alpha: carried from its segment database
    assert moved.summary.changed_repos == ["beta"] and moved.summary.carried_shards == 2
    assert 0 < moved.summary.live_seconds <= moved.summary.seconds + 60
    live = store.require_live()
    assert "alpha_core" in {s.symbol for s in live.segments(repos=["alpha"])}
    assert "beta_extra" in {s.symbol for s in live.segments(repos=["beta"])}
    record = live.manifest["repos"]["alpha"]
    assert record["files"] == 2 and record["commit"] in fleet_state(store)["repos"]["alpha"]["revisions"].values()


def test_a_damaged_mirror_heals_and_a_corrupt_upstream_goes_stale(
    upstreams: dict[str, Upstream], tmp_path: Path
) -> None:
    store = IndexStore(tmp_path / "home")
    entries = [f"  - name: {n}\n    url: {u.url}\n" for n, u in upstreams.items()]
    fleet = parse_fleet(write_fleet(tmp_path / "f.yaml", entries).read_text())
    sync(store, fleet, build(store))
    live = store.live_generation()
    (store.home / "mirrors" / "alpha.git" / "HEAD").write_text("garbage\n")  # not a repository any more
    (store.home / "mirrors" / "alpha.git" / "config").write_text("[broken\n")
    healed = sync(store, fleet, build(store))
    assert healed.stale == {} and healed.summary is None and store.live_generation() == live

    up = upstreams["alpha"]
    up.commit({"alpha/new.py": "def alpha_new():\n    return 4\n"})
    up.push()
    for f in (up.bare / "objects").rglob("*"):
        if f.is_file():
            f.chmod(0o644)
            f.write_bytes(b"garbage")  # the upstream's packs and objects are corrupt
    report = sync(store, fleet, build(store))
    assert list(report.stale) == ["alpha"] and report.summary is None and store.live_generation() == live
    assert fleet_state(store)["repos"]["alpha"]["status"] == "stale"
    assert fleet_state(store)["repos"]["beta"]["status"] == "ok"


def test_sync_branches_globs_and_removal(upstreams: dict[str, Upstream], tmp_path: Path) -> None:
    up = upstreams["alpha"]
    git("checkout", "-q", "-b", "release/1.0", cwd=up.work)
    up.commit({"alpha/release.py": "def alpha_release():\n    return 10\n"})
    git("push", "-q", "origin", "release/1.0", cwd=up.work)
    store = IndexStore(tmp_path / "home")
    path = write_fleet(
        tmp_path / "f.yaml",
        [
            f"  - name: alpha\n    url: {up.url}\n    revisions: [main, 'release/*']\n    exclude: ['*.md']\n",
            f"  - name: beta\n    url: {upstreams['beta'].url}\n",
        ],
    )
    report = sync(store, parse_fleet(path.read_text()), build(store))
    assert sorted(report.moved) == ["alpha", "alpha@release+1.0", "beta"]
    live = store.require_live()
    release = {s.symbol for s in live.segments(repos=["alpha@release+1.0"])}
    assert "alpha_release" in release and "alpha_release" not in {s.symbol for s in live.segments(repos=["alpha"])}
    assert not any(s.path.endswith(".md") for s in live.segments(repos=["alpha"]))  # excluded
    assert report.summary is not None and report.summary.reused_files >= 1  # the branch's shared file, by content

    # beta leaves the fleet file: unregistered, its checkout gone, not in the next generation
    write_fleet(path, [f"  - name: alpha\n    url: {up.url}\n    revisions: [main, 'release/*']\n"])
    gone = sync(store, parse_fleet(path.read_text()), build(store))
    assert gone.removed == ["beta"] and "beta" not in store.require_live().manifest["repos"]
    assert not (store.home / "checkouts" / "beta").exists() and "beta" not in {r.name for r in store.repos()}


def test_sync_command_end_to_end(upstreams: dict[str, Upstream], tmp_path: Path) -> None:
    """`fourfold sync --repo NAME` from the CLI, in its own process; a bad URL exits 1 naming it."""
    import sys

    path = write_fleet(
        tmp_path / "fourfold.yaml",
        [
            f"  - name: alpha\n    url: {upstreams['alpha'].url}\n    modalities: [text]\n",
            f"  - name: nowhere\n    url: {(tmp_path / 'missing.git').as_uri()}\n",
        ],
    )
    env = {**os.environ, "FOURFOLD_HOME": str(tmp_path / "home"), "FOURFOLD_FLEET": str(path)}
    run = subprocess.run(
        [sys.executable, "-m", "fourfold", "sync", "--json"], capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 1, run.stderr[-2000:]
    out = json.loads(run.stdout)
    assert list(out["moved"]) == ["alpha"] and list(out["stale"]) == ["nowhere"]
    live = IndexStore(tmp_path / "home").require_live()
    assert {s.modality for s in live.shards()} == {"text"}  # the fleet file gives alpha the text modality only
    one = subprocess.run(
        [sys.executable, "-m", "fourfold", "sync", "--repo", "alpha"], capture_output=True, text=True, env=env
    )
    assert one.returncode == 0 and "nothing moved" in one.stdout, one.stdout + one.stderr
    status = subprocess.run([sys.executable, "-m", "fourfold", "status"], capture_output=True, text=True, env=env)
    assert "STALE nowhere: git clone failed" in status.stdout, status.stdout + status.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "fourfold", "sync", "--repo", "gamma"], capture_output=True, text=True, env=env
    )
    assert bad.returncode != 0 and "no repository 'gamma'" in bad.stderr and "Traceback" not in bad.stderr
