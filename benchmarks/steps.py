"""Run one step of a benchmark in a fresh Python process and read back its JSON result.

A benchmark script calls itself as ``SCRIPT _child KIND PARAMS_JSON``; the child prints one JSON
object as its last line. A fresh process per step keeps one step's imports, caches and peak RSS
out of the next one's measurement.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_step(
    script: str, kind: str, params: dict[str, Any], code: Path, home: str, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """``script``'s step ``kind`` with ``params``, run against the checkout ``code`` and store ``home``."""
    proc = subprocess.run(
        [sys.executable, script, "_child", kind, json.dumps(params)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(code), "FOURFOLD_HOME": home, **(env or {})},
        timeout=7200,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{kind} with {code} failed:\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result
