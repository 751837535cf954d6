"""Shared fixtures: a small real repository on disk, an index of it, and one real local cluster."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("RAY_DEDUP_LOGS", "0")
# A raylet on a busy 2-core machine can take longer than Ray's default wait to register.
os.environ.setdefault("RAY_raylet_start_wait_time_s", "120")

SAMPLE_FILES = {
    "app/config.py": '''"""Configuration loading."""

import os

DEFAULT_TIMEOUT = 30


def parse_config(path):
    """Parse the configuration file at path."""
    with open(path) as f:
        return load_lines(f.read())


def load_lines(text):
    return [line.strip() for line in text.splitlines() if line.strip()]
''',
    "app/session.py": '''from app.config import parse_config


class Session:
    """An authenticated session with retries."""

    def __init__(self, path):
        self.config = parse_config(path)

    def send(self, request):
        return self.retry_request(request, attempts=3)

    def retry_request(self, request, attempts):
        for _ in range(attempts):
            try:
                return request()
            except ConnectionError:
                raise RuntimeError("ECONNREFUSED while sending")
''',
    "app/auth.py": '''from app.session import Session


def authenticate(user, password):
    """Check the password and open a session for the user."""
    session = Session("/etc/app.conf")
    return session.send(lambda: (user, password))
''',
    "web/server.js": """const http = require("http");

function startServer(port) {
  return http.createServer(handleRequest).listen(port);
}

function handleRequest(req, res) {
  res.end("ok");
}

module.exports = { startServer };
""",
    "vendor/lib/helper.py": """def parse_config(path):
    return {}
""",
    "ignored/secret.py": "API_KEY = 'do-not-index'\n",
    ".gitignore": "ignored/\n*.log\n",
    "debug.log": "ECONNREFUSED in a log that is ignored\n",
}


def write_sample_repo(root: Path, git: bool = False) -> Path:
    for rel, text in SAMPLE_FILES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    (root / "assets").mkdir(exist_ok=True)
    (root / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00binary")
    (root / "big.min.js").write_text("x" * (2 << 20))
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def load_benchmark(name: str) -> types.ModuleType:
    """A script of ``benchmarks/`` as a module (``benchmarks/NAME.py``; the folder is not a package)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parents[1] / f"benchmarks/{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses of the module look themselves up here
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def sample_repo(tmp_path: Path) -> Path:
    return write_sample_repo(tmp_path / "sample")


@pytest.fixture(scope="session")
def indexed_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A FOURFOLD_HOME with the sample repository indexed (real plugins, real embedder)."""
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    base = tmp_path_factory.mktemp("spine")
    repo = write_sample_repo(base / "sample")
    home = base / "home"
    build_generation(IndexStore(home), [(repo, "sample")])
    return home


@pytest.fixture(scope="session")
def cluster(indexed_home: Path) -> Iterator[object]:
    """One real local Ray cluster with the workers and the coordinator's gRPC server, for the session."""
    from fourfold.coordinator.serving import EmbeddedServer

    with EmbeddedServer(indexed_home) as server:
        yield server


@pytest.fixture(scope="session")
def multi_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A FOURFOLD_HOME with ``fixtures/graph_multi``'s three repositories (alpha, beta, gamma) indexed by every
    modality, the semantic one with the hash embedder: it ranks every segment, as the local model does, in no
    time. Tests only read it."""
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    fixture = Path(__file__).parent / "fixtures" / "graph_multi"
    home = tmp_path_factory.mktemp("graph-multi") / "home"
    build_generation(
        IndexStore(home),
        [(fixture / r, r) for r in ("alpha", "beta", "gamma")],
        modalities=["text", "structural", "graph", "semantic"],
        settings={"embedder": "hash"},
    )
    return home
