"""The on-disk form of a semantic shard, and its checks at load.

    manifest.json        format, embedder (name, options, identity), dimensions, index kind,
                         nlist, counts, and the sha256 and size of every file below
    index.faissbin       the FAISS binary index over window codes (IndexBinaryFlat or IndexBinaryIVF)
    codes.npy            uint8 [windows, dimensions/8]: the packed sign bits (kept to reuse and rebuild)
    vectors.npy          float16 [windows, dimensions]: unit vectors to rescore the Hamming top-N
                         (absent when the embedder is binary: there is nothing finer to rescore with)
    windows.npy          int32 [windows, 3]: segment row, first line, last line
    segments.json        one record per segment: id, repo, path, language, lines, symbol, kind,
                         snippet, embed key

Everything is numpy, JSON or FAISS's own format, never pickled objects. A missing file, a wrong
checksum or a shape that disagrees with the manifest raises ``CorruptIndex``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fourfold.errors import CorruptIndex

__all__ = ["FORMAT", "SegmentRecord", "ShardFiles", "read_shard", "sha256_file", "write_manifest"]

FORMAT = "fourfold-semantic/1"
INDEX_FILE = "index.faissbin"
CODES_FILE = "codes.npy"
VECTORS_FILE = "vectors.npy"
WINDOWS_FILE = "windows.npy"
SEGMENTS_FILE = "segments.json"
MANIFEST_FILE = "manifest.json"


@dataclass(frozen=True, slots=True)
class SegmentRecord:
    """What a hit needs to say about a segment, without the catalog."""

    id: str
    repo: str
    path: str
    language: str
    start_line: int
    end_line: int
    symbol: str | None
    kind: str | None
    snippet: str
    embed_key: str


@dataclass(frozen=True, slots=True)
class ShardFiles:
    """A shard read back and checked."""

    manifest: dict[str, Any]
    index: Any  # faiss.IndexBinary
    codes: np.ndarray
    vectors: np.ndarray | None
    windows: np.ndarray
    segments: tuple[SegmentRecord, ...]


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_manifest(shard_dir: Path, manifest: dict[str, Any], files: list[str]) -> int:
    """Record checksums of ``files`` and write the manifest last; returns the shard's bytes on disk."""
    sizes = {name: (shard_dir / name).stat().st_size for name in files}
    entries = {name: {"sha256": sha256_file(shard_dir / name), "bytes": sizes[name]} for name in files}
    manifest = {**manifest, "format": FORMAT, "files": entries}
    (shard_dir / MANIFEST_FILE).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    return sum(sizes.values()) + (shard_dir / MANIFEST_FILE).stat().st_size


def _corrupt(shard_dir: Path, what: str) -> CorruptIndex:
    return CorruptIndex(f"semantic shard {shard_dir}: {what}; rebuild the index (fourfold index) to replace it")


def read_shard(shard_dir: Path, *, verify: bool = True) -> ShardFiles:
    """Read and check a shard; every inconsistency is a ``CorruptIndex`` naming the file."""
    import faiss

    try:
        manifest = json.loads((shard_dir / MANIFEST_FILE).read_text())
    except FileNotFoundError:
        raise _corrupt(shard_dir, f"{MANIFEST_FILE} is missing") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise _corrupt(shard_dir, f"{MANIFEST_FILE} is not valid JSON ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _corrupt(
            shard_dir, f"unknown format {manifest.get('format') if isinstance(manifest, dict) else manifest!r}"
        )
    try:
        files: dict[str, dict[str, Any]] = manifest["files"]
        dims = int(manifest["dimensions"])
        n_windows = int(manifest["windows"])
        n_segments = int(manifest["segments"])
    except (KeyError, TypeError, ValueError) as exc:
        raise _corrupt(shard_dir, f"{MANIFEST_FILE} lacks a field ({exc})") from None
    for name, entry in files.items():
        path = shard_dir / name
        if not path.exists():
            raise _corrupt(shard_dir, f"{name} is missing")
        if path.stat().st_size != entry["bytes"]:
            raise _corrupt(shard_dir, f"{name} has {path.stat().st_size} bytes, the manifest says {entry['bytes']}")
        if verify and sha256_file(path) != entry["sha256"]:
            raise _corrupt(shard_dir, f"{name} does not match its checksum")

    try:
        index = faiss.read_index_binary(str(shard_dir / INDEX_FILE))
        codes = np.load(shard_dir / CODES_FILE, mmap_mode="r", allow_pickle=False)
        windows = np.load(shard_dir / WINDOWS_FILE, allow_pickle=False)
        vectors = (
            np.load(shard_dir / VECTORS_FILE, mmap_mode="r", allow_pickle=False) if VECTORS_FILE in files else None
        )
        raw_segments = json.loads((shard_dir / SEGMENTS_FILE).read_text())
        segments = tuple(SegmentRecord(**r) for r in raw_segments)
    except (RuntimeError, ValueError, OSError, TypeError, json.JSONDecodeError) as exc:
        raise _corrupt(shard_dir, f"a file could not be read ({type(exc).__name__}: {exc})") from None

    checks: list[tuple[bool, str]] = [
        (index.d == dims, f"{INDEX_FILE} has {index.d} dimensions, the manifest says {dims}"),
        (index.ntotal == n_windows, f"{INDEX_FILE} holds {index.ntotal} codes, the manifest says {n_windows}"),
        (codes.shape == (n_windows, dims // 8) and codes.dtype == np.uint8, f"{CODES_FILE} has shape {codes.shape}"),
        (windows.shape == (n_windows, 3), f"{WINDOWS_FILE} has shape {windows.shape}"),
        (len(segments) == n_segments, f"{SEGMENTS_FILE} has {len(segments)} segments, the manifest says {n_segments}"),
        (
            vectors is None or vectors.shape == (n_windows, dims),
            f"{VECTORS_FILE} has shape {getattr(vectors, 'shape', None)}",
        ),
        (
            n_windows == 0 or (int(windows[:, 0].min()) >= 0 and int(windows[:, 0].max()) < n_segments),
            f"{WINDOWS_FILE} points outside the segments",
        ),
    ]
    for ok, what in checks:
        if not ok:
            raise _corrupt(shard_dir, what)
    return ShardFiles(manifest, index, codes, vectors, windows, segments)
