"""Shard-file integrity: every file's size and checksum, recorded when a generation is built and checked
where a worker loads a shard, before each search (sizes) and after a failed read (checksums).

A shard file cut short under a memory map kills its process with SIGBUS on the next read, and a
flipped byte surfaces as a decompressor's error deep in a modality; both are reported instead as
the shard's plain reason (``text/alpha is damaged: content.bin is 0 bytes, the manifest says
831 …``), so the worker lives and the coordinator names the shard missing.

The manifest of a generation holds ``integrity: {algorithm, shards: {folder: {file: [size, digest]}}}``.
Checksums are xxHash3 (64-bit): a few GB/s, so a full check at load costs about what reading the
files costs. A generation built before these records has none, and nothing is checked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import xxhash

__all__ = [
    "ALGORITHM",
    "check",
    "check_sizes",
    "damage_message",
    "expected_files",
    "record",
    "record_shards",
    "size_checker",
]

ALGORITHM = "xxh3_64"
_CHUNK = 1 << 20

#: file (relative to the shard folder) -> (size in bytes, hex digest)
Files = Mapping[str, tuple[int, str]]


def _digest(path: Path) -> str:
    h = xxhash.xxh3_64()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def record(shard_dir: Path) -> dict[str, list[int | str]]:
    """Size and checksum of every file under ``shard_dir`` (built and closed)."""
    out: dict[str, list[int | str]] = {}
    for path in sorted(p for p in Path(shard_dir).rglob("*") if p.is_file()):
        out[path.relative_to(shard_dir).as_posix()] = [path.stat().st_size, _digest(path)]
    return out


def record_shards(generation_dir: Path, folders: Iterable[str]) -> dict[str, Any]:
    """The manifest's ``integrity`` entry for the shards in ``folders`` of a generation being built."""
    return {"algorithm": ALGORITHM, "shards": {f: record(Path(generation_dir) / f) for f in sorted(set(folders))}}


def expected_files(manifest: Mapping[str, Any], folder: str) -> Files | None:
    """What the manifest recorded for the shard in ``folder`` (None: nothing recorded, check nothing)."""
    entry = manifest.get("integrity")
    if not isinstance(entry, Mapping) or entry.get("algorithm") != ALGORITHM:
        return None
    files = entry.get("shards", {}).get(folder)
    if files is None:
        return None
    return {name: (int(v[0]), str(v[1])) for name, v in files.items()}


def check_sizes(shard_dir: Path, expected: Files | None) -> str | None:
    """What is wrong with the files' sizes (None: all present at their recorded size). A stat per file."""
    for name, (size, _) in (expected or {}).items():
        try:
            actual = os.stat(Path(shard_dir) / name).st_size
        except FileNotFoundError:
            return f"{name} is missing"
        if actual != size:
            return f"{name} is {actual} bytes, the manifest says {size}"
    return None


def size_checker(shard_dir: Path, expected: Files | None) -> Callable[[], str | None]:
    """``check_sizes`` with the paths joined once: for a check before every search (a stat per file)."""
    files = [(os.path.join(shard_dir, name), name, size) for name, (size, _) in (expected or {}).items()]

    def check_now() -> str | None:
        for path, name, size in files:
            try:
                actual = os.stat(path).st_size
            except FileNotFoundError:
                return f"{name} is missing"
            if actual != size:
                return f"{name} is {actual} bytes, the manifest says {size}"
        return None

    return check_now


def check(shard_dir: Path, expected: Files | None) -> str | None:
    """``check_sizes``, then every file's checksum (reads every file)."""
    problem = check_sizes(shard_dir, expected)
    if problem is not None:
        return problem
    for name, (_size, digest) in (expected or {}).items():
        if _digest(Path(shard_dir) / name) != digest:
            return f"{name} does not match its recorded checksum ({ALGORITHM})"
    return None


def damage_message(modality: str, shard: str, generation: str, problem: str) -> str:
    """The reason a damaged shard is reported missing with: what, where, and what to do."""
    return (
        f"shard {modality}/{shard} of generation {generation} is damaged: {problem}; rebuild it with `fourfold index`"
    )
