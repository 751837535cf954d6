"""A failing git command says which repository, what for, which URL (password hidden), what git
said and what to do: with real git against local and unreachable upstreams, with a stand-in git
for what a real server would answer, and through a real gRPC server's Sync and Status."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import grpc
import pytest
from inprocess import coordinator_in_process

from fourfold.errors import FourfoldError, GitError
from fourfold.index.fleet import parse_fleet
from fourfold.index.generation import build_generation
from fourfold.index.git import redact_url, run_git
from fourfold.index.store import IndexStore
from fourfold.index.sync import fleet_state, sync
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
from fourfold.workers.servicer import status_for

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t"}
GIT_ENV["GIT_COMMITTER_EMAIL"] = "t@example.com"


def upstream(root: Path, name: str) -> Path:
    """A bare repository with one commit on main, as a fleet file's url would name it."""
    work, bare = root / f"{name}-work", root / f"{name}.git"
    work.mkdir(parents=True)
    (work / f"{name}.py").write_text(f"def {name}_core():\n    return 1\n")
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "first"]):
        subprocess.run(["git", *args], cwd=work, check=True, capture_output=True, env=env)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True, capture_output=True, env=env)
    return bare


def fleet_of(path: Path, repos: dict[str, str]) -> Path:
    path.write_text("version: 1\nrepositories:\n" + "".join(f"  - name: {n}\n    url: {u}\n" for n, u in repos.items()))
    return path


def text_only(store: IndexStore):  # type: ignore[no-untyped-def]
    return lambda adds, options: build_generation(store, adds, modalities=["text"], repo_options=options)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://ci:s3cret@git.example.com/payments.git", "https://ci:***@git.example.com/payments.git"),
        ("https://ghp_token123@git.example.com/p.git", "https://***@git.example.com/p.git"),
        ("ssh://git@git.example.com/p.git", "ssh://git@git.example.com/p.git"),
        ("ssh://git:pw@git.example.com:2222/p.git", "ssh://git:***@git.example.com:2222/p.git"),
        ("git@git.example.com:team/p.git", "git@git.example.com:team/p.git"),
        ("file:///srv/git/p.git", "file:///srv/git/p.git"),
    ],
)
def test_urls_lose_their_passwords(url: str, shown: str) -> None:
    assert redact_url(url) == shown


def test_git_error_is_a_fourfold_error_with_its_own_status() -> None:
    err = GitError("git fetch failed", repo="r", purpose="fetch", stderr="fatal: x")
    assert isinstance(err, FourfoldError) and err.code == "git_error"
    assert status_for(err) == grpc.StatusCode.FAILED_PRECONDITION  # retrying does not help until someone fixes it
    assert (err.repo, err.purpose, err.stderr, err.detail) == ("r", "fetch", "fatal: x", "git fetch failed")
    assert str(err) == "r: git fetch failed"  # the error names its repository


def test_an_upstream_that_does_not_exist(tmp_path: Path) -> None:
    missing = (tmp_path / "nowhere.git").as_uri()
    with pytest.raises(GitError) as info:
        run_git("payments", "clone", missing, "clone", "--mirror", "--quiet", missing, str(tmp_path / "m"))
    message = str(info.value)
    assert message.startswith(f"payments: git clone failed for {missing}: fatal: ")
    assert "check the repository's url in the fleet file" in message
    assert info.value.stderr.startswith("fatal: ") and "\n" not in info.value.stderr


def test_a_password_in_the_url_reaches_no_message_and_no_state_file(tmp_path: Path) -> None:
    """A real git against a loopback port nothing listens on (refused at once, no network needed)."""
    store = IndexStore(tmp_path / "home")
    url = "http://ci:s3cret@127.0.0.1:9/payments.git"
    fleet = parse_fleet(fleet_of(tmp_path / "fourfold.yaml", {"payments": url}).read_text())
    report = sync(store, fleet, text_only(store))
    why = report.stale["payments"]
    assert why.startswith("git clone failed for http://ci:***@127.0.0.1:9/payments.git: fatal: ")  # kept per repository
    assert "check that this machine reaches the host" in why
    assert "s3cret" not in why and "s3cret" not in (store.home / "fleet-state.json").read_text()
    assert fleet_state(store)["repos"]["payments"]["error"] == why


def test_what_git_itself_prints_is_redacted_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in git that answers as a server refusing the token would (and quotes the URL)."""
    fake = tmp_path / "bin" / "git"
    fake.parent.mkdir()
    fake.write_text(
        "#!/bin/sh\n"
        "echo \"fatal: unable to access 'https://ci:s3cret@git.example.com/p.git/': "
        'The requested URL returned error: 403" >&2\n'
        "echo 'second line' >&2\n"
        "exit 128\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    url = "https://ci:s3cret@git.example.com/p.git"
    with pytest.raises(GitError) as info:
        run_git("payments", "fetch", url, "fetch", "origin")
    assert str(info.value) == (
        "payments: git fetch failed for https://ci:***@git.example.com/p.git: fatal: unable to access "
        "'https://ci:***@git.example.com/p.git/': The requested URL returned error: 403; check the credentials "
        "for this URL (a token in the URL, an SSH key or a credential helper for the user running fourfold)"
    )


def test_no_git_on_the_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(
        GitError, match=r"^payments: git is not installed \(needed to fetch git repositories\); install"
    ):
        run_git("payments", "fetch", "file:///x.git", "fetch")


def test_a_deleted_upstream_through_sync_and_status(tmp_path: Path) -> None:
    """Over gRPC: the Sync stream and an admin's Status name the repository, the fetch, the URL, git's line."""
    bare = upstream(tmp_path / "up", "ledger")
    fleet = fleet_of(tmp_path / "fourfold.yaml", {"ledger": bare.as_uri()})
    with coordinator_in_process(tmp_path / "home", fleet=fleet) as address, grpc.insecure_channel(address) as ch:
        stub = coordinator_pb2_grpc.CoordinatorStub(ch)
        first = list(stub.Sync(coordinator_pb2.SyncRequest(), timeout=120))
        assert first[-1].summary.generation == "g000001"
        shutil.rmtree(bare)
        again = list(stub.Sync(coordinator_pb2.SyncRequest(), timeout=120))
        status = stub.Status(coordinator_pb2.StatusRequest(), timeout=30)
    expected = f"git fetch failed for {bare.as_uri()}: fatal: '{bare}' does not appear to be a git repository"
    assert f"ledger STALE ({expected}" in again[-1].message
    (repo,) = status.repos
    assert repo.sync_status == "stale" and repo.sync_error.startswith(expected)
    assert repo.sync_error.endswith("check the repository's url in the fleet file: the upstream is gone or has moved")
    assert json.loads((tmp_path / "home" / "fleet-state.json").read_text())["repos"]["ledger"]["status"] == "stale"
