"""How the catalog's per-file cache (``file_cache.segments``) holds a file's segments.

The cache lets a file whose bytes were segmented before (in this repository or any other) skip
the segmenter. It is read only while the file's bytes are in hand, so a segment's ``content``
(its lines of the file), ``content_hash`` and the ``repo``, ``path`` and ``language`` of the
cache row are left out whenever they equal what the file and the row give back, and so is an ``id``
that is ``segment_id`` of its place (a ``parent_id`` that is another segment's id is that segment's
position, ``parent``: hex ids were half of typeshed's compressed cache); the rest is JSON,
zstd-compressed (a BLOB). Rows written before this (JSON text with every field) are read as they are.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from fourfold.index.ingest.segment import content_hash, place_id, split_lines
from fourfold.index.segdb import slice_lines
from fourfold.plugins.codec import compress, decompress
from fourfold.plugins.types import Segment

__all__ = ["decode_segments", "encode_segments"]

_LEVEL = 9  # contexts per thread: fourfold.plugins.codec


def encode_segments(segments: Sequence[Segment], repo: str, path: str, language: str, data: bytes) -> bytes:
    """The cache's value for ``segments`` of the file ``data`` at ``repo``/``path``."""
    lines = split_lines(data.decode("utf-8", "surrogateescape"))
    rows = []
    position = {s.id: i for i, s in enumerate(segments)}
    for s in segments:
        d = {f: getattr(s, f) for f in Segment.__slots__}
        if s.id == place_id(repo, path, s.start_line, s.end_line, s.qualified_name, s.symbol):
            del d["id"]
        if s.parent_id is not None and s.parent_id in position:
            d["parent"] = position[s.parent_id]
            del d["parent_id"]
        if s.content == slice_lines(lines, s.start_line, s.end_line):
            del d["content"]
            if s.content_hash == content_hash(s.content):
                del d["content_hash"]
        for key, value in (("repo", repo), ("path", path), ("language", language)):
            if d[key] == value:
                del d[key]
        rows.append({k: v for k, v in d.items() if v is not None or k in ("content", "content_hash")})
    return compress(json.dumps(rows, separators=(",", ":")).encode(), _LEVEL)


def decode_segments(value: bytes | str, repo: str, path: str, language: str, data: bytes) -> list[dict[str, Any]]:
    """The segments' fields (``Segment(**d)``) that ``encode_segments`` (or an older build) cached."""
    if isinstance(value, str):
        rows: list[dict[str, Any]] = json.loads(value)  # written before: every field
        return rows
    rows = json.loads(decompress(value))
    lines: list[str] | None = None
    out = []
    for d in rows:
        full: dict[str, Any] = {"repo": repo, "path": path, "language": language}
        full.update({f: None for f in ("symbol", "kind", "signature", "qualified_name", "parent_id")})
        full.update(d)
        if "content" not in d:
            if lines is None:
                lines = split_lines(data.decode("utf-8", "surrogateescape"))
            full["content"] = slice_lines(lines, d["start_line"], d["end_line"])
        if "content_hash" not in d:
            full["content_hash"] = content_hash(full["content"])
        if "id" not in d:
            full["id"] = place_id(repo, path, d["start_line"], d["end_line"], full["qualified_name"], full["symbol"])
        out.append(full)
    for full in out:
        if "parent" in full:
            full["parent_id"] = out[full.pop("parent")]["id"]
    return out
