"""Transport defaults: a coordinator refuses to serve everything to the network by accident — no
tokens on a non-loopback address, or tokens over plaintext there — unless the operator opts in,
and what it logs says what it really does (``0.0.0.0`` is not "loopback only")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fourfold.coordinator.exposure import exposure, is_loopback
from fourfold.errors import InvalidInput


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("[::1]", True), ("0.0.0.0", False),
     ("[::]", False), ("", False), ("10.1.2.3", False), ("example.org", False)],
)  # fmt: skip
def test_loopback_is_told_from_reachable_addresses(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_serving_everything_to_the_network_needs_an_explicit_opt_in() -> None:
    with pytest.raises(InvalidInput, match=r"without authentication on 0\.0\.0\.0:50551.*--allow-unauthenticated"):
        exposure("0.0.0.0:50551", tokens=False, tls=False)
    with pytest.raises(InvalidInput, match=r"tokens over plaintext on 10\.0\.0\.5:1.*--tls-cert.*--allow-plaintext"):
        exposure("10.0.0.5:1", tokens=True, tls=False)
    opened = exposure("0.0.0.0:50551", tokens=False, tls=False, allow_unauthenticated=True)
    assert opened.warning and "WITHOUT AUTHENTICATION" in opened.message and "loopback only" not in opened.message
    plain = exposure("0.0.0.0:1", tokens=True, tls=False, allow_plaintext_tokens=True)
    assert plain.warning and "PLAINTEXT" in plain.message
    assert not exposure("0.0.0.0:1", tokens=True, tls=True).warning
    local = exposure("127.0.0.1:0", tokens=False, tls=False)
    assert local.warning and "loopback only" in local.message
    assert not exposure("127.0.0.1:0", tokens=True, tls=False).warning


@pytest.mark.slow
@pytest.mark.parametrize("with_tokens", [False, True])
def test_serve_refuses_at_once_with_one_clear_line(tmp_path: Path, with_tokens: bool) -> None:
    args = [sys.executable, "-m", "fourfold", "serve", "--address", "0.0.0.0:0"]
    if with_tokens:
        grants = tmp_path / "grants.json"
        grants.write_text(json.dumps({"tokens": [{"name": "a", "sha256": "0" * 64, "repos": ["*"]}]}))
        args += ["--auth-tokens", str(grants)]
    env = {**os.environ, "FOURFOLD_HOME": str(tmp_path / "home")}
    env.pop("FOURFOLD_AUTH_TOKENS", None)
    r = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("fourfold: refusing to ") and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert ("--allow-plaintext-tokens" if with_tokens else "--allow-unauthenticated") in r.stderr


@pytest.mark.parametrize(
    ("nodes", "bound"),
    [(["10.0.0.5"], "127.0.0.1"), (["10.0.0.5", "10.0.0.5"], "127.0.0.1"), (["10.0.0.5", "10.0.0.6"], "10.0.0.5")],
)
def test_worker_ports_bind_only_where_the_coordinator_reaches_them(
    monkeypatch: pytest.MonkeyPatch, nodes: list[str], bound: str
) -> None:
    """One machine: loopback; several: this node's own address — never every interface."""
    import ray

    from fourfold.workers import servicer

    monkeypatch.delenv("FOURFOLD_WORKER_HOST", raising=False)
    monkeypatch.setattr(ray.util, "get_node_ip_address", lambda: nodes[0])
    monkeypatch.setattr(ray, "nodes", lambda: [{"Alive": True, "NodeManagerAddress": ip} for ip in nodes])
    assert servicer._node_ip() == bound != "0.0.0.0"
