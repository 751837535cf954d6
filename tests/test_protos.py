"""The checked-in gRPC stubs match the .proto files, and every field is commented."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_stubs_are_fresh() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_protos.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_every_field_is_commented() -> None:
    for proto in (ROOT / "protos" / "fourfold" / "v1").glob("*.proto"):
        lines = proto.read_text().splitlines()
        for i, line in enumerate(lines):
            if re.match(r"\s+(repeated\s+|map<[^>]+>\s+)?[\w.]+\s+\w+\s*=\s*\d+;", line):
                assert lines[i - 1].strip().startswith("//"), f"{proto.name}:{i + 1} has no comment: {line.strip()}"


def test_round_trip_hit() -> None:
    from fourfold.plugins.types import Hit
    from fourfold.wire import hit_from_pb, hit_to_pb

    h = Hit("id1", "repo", "a/b.py", 3, 9, 1.5, "f", "function", "python", (4, 5), 0.25, "def f(): ...")
    assert hit_from_pb(hit_to_pb(h)) == h
