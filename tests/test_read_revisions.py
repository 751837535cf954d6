"""ReadFile of ``NAME@release/1.0`` (a branch with a slash, indexed as ``NAME@release+1.0``), as
search takes it, grants included: through the Python client against a real gRPC server in this
process, and through the web API's /api/v1/files route in front of it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import write_sample_repo
from inprocess import coordinator_in_process
from starlette.testclient import TestClient

import fourfold
from fourfold.coordinator.auth import TokenStore, hash_token, new_token
from fourfold.errors import NotFound
from fourfold.index.fleet import index_name
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.web import create_app
from fourfold.web.app import split_file_address

RELEASE = index_name("pay", "release/1.0")  # pay@release+1.0
SLASHED, FILE = "pay@release/1.0", "app/config.py"
#: release/1.0 written with a slash in a grant; the whole repository; another revision only.
RELEASE_TEAM, PAY_TEAM, DEV_TEAM = new_token(), new_token(), new_token()


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base = tmp_path_factory.mktemp("revisions")
    main, release = write_sample_repo(base / "main"), write_sample_repo(base / "release")
    (release / FILE).write_text((release / FILE).read_text() + "\nRELEASE_MARKER = 1\n")
    store = IndexStore(base / "home")
    build_generation(store, [(main, "pay"), (release, RELEASE)], modalities=["text"])
    grants = {
        "tokens": [
            {"name": "release", "sha256": hash_token(RELEASE_TEAM), "repos": [SLASHED]},
            {"name": "pay", "sha256": hash_token(PAY_TEAM), "repos": ["pay"]},
            {"name": "dev", "sha256": hash_token(DEV_TEAM), "repos": ["pay@dev"]},
        ]
    }
    with coordinator_in_process(store.home, tokens=TokenStore.parse(json.dumps(grants), "test")) as served:
        yield served


@pytest.mark.parametrize("token", [RELEASE_TEAM, PAY_TEAM])
@pytest.mark.parametrize("name", [SLASHED, RELEASE])
def test_a_revision_reads_by_either_name(address: str, token: str, name: str) -> None:
    with fourfold.Client(address, token=token) as client:
        f = client.read_file(name, FILE)
        part = client.read_file(name, FILE, 1, 2)
    assert f.repo == RELEASE and "RELEASE_MARKER = 1" in f.content
    assert (part.start_line, part.end_line) == (1, 2) and f.content.startswith(part.content)


def test_grants_apply_to_the_normalised_name(address: str) -> None:
    with (
        fourfold.Client(address, token=RELEASE_TEAM) as client,
        pytest.raises(NotFound, match=r"no file 'app/config.py' in repository 'pay'"),
    ):
        client.read_file("pay", FILE)  # the grant is release/1.0 only
    with fourfold.Client(address, token=DEV_TEAM) as client:
        for name in (SLASHED, RELEASE):  # refused alike, in the words of a missing file, naming what was asked
            with pytest.raises(NotFound, match=re.escape(f"no file 'app/config.py' in repository '{name}'") + "$"):
                client.read_file(name, FILE)
    with fourfold.Client(address, token=PAY_TEAM) as client:
        assert "RELEASE_MARKER" not in client.read_file("pay", FILE).content  # the default branch is another file
        with pytest.raises(NotFound):
            client.read_file("pay@release/2.0", FILE)
        # search takes the same name the same way
        hits = client.search("RELEASE_MARKER", repos=[SLASHED], k=5).hits
        assert hits and {h.hit.repo for h in hits} == {RELEASE}


def test_the_web_api_reads_a_revision_with_a_slash(address: str) -> None:
    with TestClient(create_app(address, secret="test-secret")) as web:
        headers = {"Authorization": f"Bearer {RELEASE_TEAM}"}
        for url in (
            f"/api/v1/files/{SLASHED}/{FILE}",  # the slash as written
            f"/api/v1/files/pay@release%2F1.0/{FILE}",  # encoded
            f"/api/v1/files/{RELEASE}/{FILE}",  # as hits name it
        ):
            r = web.get(url, params={"lines": "1-2"}, headers=headers)
            assert r.status_code == 200, (url, r.text)
            assert (r.json()["repo"], r.json()["path"], r.json()["start_line"]) == (RELEASE, FILE, 1)
        r = web.get(f"/api/v1/files/{SLASHED}/{FILE}", headers={"Authorization": f"Bearer {DEV_TEAM}"})
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        page = web.get(f"/file/{SLASHED}/{FILE}", headers=headers)
        assert page.status_code == 200 and "RELEASE_MARKER" in page.text


def test_file_addresses_split_after_the_longest_revision() -> None:
    names = ["pay", "pay@release+1.0", "pay@release+1.0+hotfix", "web@main"]
    assert split_file_address("pay@release", "1.0/app/a.py", names) == ("pay@release/1.0", "app/a.py")
    assert split_file_address("pay@release", "1.0/hotfix/a.py", names) == ("pay@release/1.0/hotfix", "a.py")
    assert split_file_address("pay@release+1.0", "app/a.py", names) == ("pay@release+1.0", "app/a.py")
    assert split_file_address("pay@dev", "app/a.py", names) == ("pay@dev", "app/a.py")  # unknown: as given


def test_fourfold_show_reads_through_the_coordinator_as_the_token_may(
    address: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fourfold.coordinator.cli import main

    monkeypatch.setenv("FOURFOLD_TOKEN", RELEASE_TEAM)
    assert main(["show", "--address", address, f"{SLASHED}:{FILE}:1-2"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[0].startswith(f"{RELEASE}:{FILE}:1-2 of ") and out.out.splitlines()[1].startswith("1  ")
    assert main(["show", "--address", address, "--json", f"{SLASHED}:{FILE}"]) == 0
    assert "RELEASE_MARKER" in json.loads(capsys.readouterr().out)["content"]
    monkeypatch.setenv("FOURFOLD_TOKEN", DEV_TEAM)  # a revision it may not read reads as a missing file
    assert main(["show", "--address", address, f"{SLASHED}:{FILE}"]) == 2
    assert "no file 'app/config.py' in repository" in capsys.readouterr().err


def test_fourfold_show_reads_the_store_in_process(
    indexed_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fourfold.coordinator.cli import file_location, main

    monkeypatch.setenv("FOURFOLD_HOME", str(indexed_home))
    assert main(["show", "--in-process", "sample:app/config.py:8-9"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("sample:app/config.py:8-9 of ") and lines[1] == "8  def parse_config(path):"
    assert main(["show", "--in-process", "sample:app/config.py:8"]) == 0  # from line 8 to the end
    assert capsys.readouterr().out.splitlines()[1].lstrip() == "8  def parse_config(path):"  # numbers right-aligned
    assert file_location("pay@release+1.0:src/a:b.py:3-4") == ("pay@release+1.0", "src/a:b.py", 3, 4)
    for bad, says in (
        ("sample", "give REPO:PATH"),
        ("sample:app/config.py:9-3", "1 <= START <= END"),
        ("sample:app/missing.py", "no file 'app/missing.py'"),
        ("sample:app/config.py:900", "past the end"),
    ):
        assert main(["show", "--in-process", bad]) == 2
        assert says in capsys.readouterr().err
