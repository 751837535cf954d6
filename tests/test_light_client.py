"""The public client is light: importing it loads grpc and protobuf, never the engine or its dependencies.

Each check runs in a fresh interpreter, since this test process has long since imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What a process that only asks a coordinator questions must never pay for.
FORBIDDEN = ("ray", "numpy", "faiss", "onnxruntime", "fourfold.coordinator.engine", "fourfold.index.store")


def _loaded_after(statement: str) -> list[str]:
    """The forbidden modules in ``sys.modules`` after running ``statement`` in a fresh interpreter."""
    probe = f"import json, sys\n{statement}\nprint(json.dumps([m for m in {FORBIDDEN!r} if m in sys.modules]))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True, cwd=ROOT)
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "statement",
    [
        "from fourfold import Client, AsyncClient",
        "import fourfold.client, fourfold.api, fourfold.wire, fourfold.connection",
        "import fourfold.coordinator.cli",
    ],
)
def test_client_imports_no_server_module(statement: str) -> None:
    assert _loaded_after(statement) == []


def test_probe_sees_a_heavy_import() -> None:
    """The probe itself works: importing the engine loads the index store."""
    assert "fourfold.index.store" in _loaded_after("import fourfold.coordinator.engine")
