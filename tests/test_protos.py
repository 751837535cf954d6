"""The checked-in gRPC stubs match the .proto files, and every field is commented."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from google.protobuf.descriptor import Descriptor

ROOT = Path(__file__).resolve().parent.parent


def test_stubs_are_fresh() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_protos.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


FIELD = re.compile(r"\s+(?:repeated\s+|optional\s+)?(?:map<[^>]+>|[\w.]+)\s+(\w+)\s*=\s*\d+\s*;")


def _declared_fields(message: Descriptor) -> Iterator[str]:
    """Every field written in the .proto for ``message`` and its nested messages (not map entries)."""
    if message.GetOptions().map_entry:
        return
    for field in message.fields:
        yield f"{message.full_name}.{field.name}"
    for nested in message.nested_types:
        yield from _declared_fields(nested)


def test_every_field_is_commented() -> None:
    from fourfold.v1 import common_pb2, coordinator_pb2, worker_pb2

    for module in (common_pb2, coordinator_pb2, worker_pb2):
        proto = ROOT / "protos" / module.DESCRIPTOR.name
        lines = proto.read_text().splitlines()
        checked = []
        for i, line in enumerate(lines):
            match = FIELD.match(line)
            if match is not None:
                assert lines[i - 1].strip().startswith("//"), f"{proto.name}:{i + 1} has no comment: {line.strip()}"
                checked.append(match.group(1))
        declared = [f for m in module.DESCRIPTOR.message_types_by_name.values() for f in _declared_fields(m)]
        # the pattern must have seen every field the compiler did, or some went unchecked
        assert sorted(checked) == sorted(name.rsplit(".", 1)[1] for name in declared), proto.name


def test_round_trip_hit() -> None:
    from fourfold.plugins.types import Hit
    from fourfold.wire import hit_from_pb, hit_to_pb

    h = Hit("id1", "repo", "a/b.py", 3, 9, 1.5, "f", "function", "python", (4, 5), 0.25, "def f(): ...")
    assert hit_from_pb(hit_to_pb(h)) == h
