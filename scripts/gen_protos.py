"""Regenerate the gRPC stubs in protos/ from the .proto files: ``python scripts/gen_protos.py``.

``--check`` regenerates into a temporary folder and exits 1 if the checked-in stubs differ.
"""

from __future__ import annotations

import filecmp
import shutil
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
PACKAGE = Path("fourfold") / "v1"
SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")


def generate(out: Path) -> list[Path]:
    include = Path(protoc.__file__).parent / "_proto"
    sources = sorted((PROTOS / PACKAGE).glob("*.proto"))
    args = [
        "protoc",
        f"-I{PROTOS}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *[str(s.relative_to(PROTOS)) for s in sources],
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    return sorted(p for p in (out / PACKAGE).iterdir() if p.name.endswith(SUFFIXES))


def main(argv: list[str]) -> int:
    if "--check" in argv:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = generate(Path(tmp))
            stale = [p.name for p in fresh if not filecmp.cmp(p, PROTOS / PACKAGE / p.name, shallow=False)]
            checked_in = {p.name for p in (PROTOS / PACKAGE).iterdir() if p.name.endswith(SUFFIXES)}
            missing = sorted({p.name for p in fresh} ^ checked_in)
            if stale or missing:
                print(f"stale stubs: {stale + missing}; run: python scripts/gen_protos.py", file=sys.stderr)
                return 1
            return 0
    with tempfile.TemporaryDirectory() as tmp:
        for p in generate(Path(tmp)):
            shutil.copyfile(p, PROTOS / PACKAGE / p.name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
