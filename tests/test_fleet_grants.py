"""Grants by fleet-file label (``group:<label>``) and by revision (``name@branch``)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from fourfold.coordinator.auth import Principal, TokenStore, hash_token, set_groups
from fourfold.index.fleet import parse_fleet, revision_name

FLEET = """
repositories:
  - {name: payments, url: "file:///srv/payments.git", labels: [payments]}
  - {name: ledger, url: "file:///srv/ledger.git", labels: [payments, core]}
  - {name: web, url: "file:///srv/web.git"}
"""


@pytest.fixture
def groups() -> Iterator[None]:
    set_groups(parse_fleet(FLEET).groups())
    yield
    set_groups({})


def test_group_grant_covers_every_labelled_repository_and_its_revisions(groups: None) -> None:
    team = Principal("team", frozenset({"group:payments"}))
    registered = ["payments", "payments@release+1.0", "ledger", "web", "web@dev"]
    assert team.readable(registered) == frozenset({"payments", "payments@release+1.0", "ledger"})
    assert not team.may_read("web") and not team.may_read("group:payments")


def test_revision_grants_are_exact_and_name_grants_cover_revisions() -> None:
    one = Principal("one", frozenset({"web@dev"}))
    assert one.may_read("web@dev") and not one.may_read("web") and not one.may_read("web@main")
    every = Principal("every", frozenset({"web"}))
    assert every.may_read("web@dev") and every.may_read("web") and not every.may_read("webshop")
    assert Principal("all", None).readable(["x"]) is None


def test_relabelled_fleet_takes_effect_and_unknown_group_grants_nothing(groups: None) -> None:
    team = Principal("team", frozenset({"group:payments", "group:nobody"}))
    assert team.may_read("ledger")
    set_groups(parse_fleet(FLEET.replace("labels: [payments, core]", "labels: [core]")).groups())
    assert not team.may_read("ledger") and team.may_read("payments")


def test_token_file_accepts_group_grants() -> None:
    doc = {"tokens": [{"name": "pay-team", "sha256": hash_token("s3cret"), "repos": ["group:payments", "web@dev"]}]}
    store = TokenStore.parse(json.dumps(doc), "tokens.json")
    principal = store.authenticate("s3cret")
    assert principal is not None and principal.repos == frozenset({"group:payments", "web@dev"})


def test_revision_names_as_users_write_them() -> None:
    assert revision_name("pay@release/1.0") == "pay@release+1.0"
    assert revision_name("pay") == "pay" and revision_name("pay@dev") == "pay@dev"
