"""Continuation tokens for literal and regex listings: where the next page of files starts.

A cursor is opaque to callers: the offset of the next file in the listing's order, the generation
that answered and a digest of the query and its filters. A page asked with a cursor from another
query or another generation is refused with a clear error rather than answered from the wrong
place (files would be skipped or repeated without anyone noticing).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fourfold.errors import InvalidQuery

__all__ = ["Cursor", "decode_cursor", "encode_cursor", "query_digest"]


@dataclass(frozen=True, slots=True)
class Cursor:
    """The next page: ``offset`` files of the listing already returned, in ``generation``."""

    offset: int
    generation: str
    digest: str


def query_digest(
    query: str,
    repos: Sequence[str],
    path_glob: str,
    languages: Sequence[str],
    case_sensitive: bool,
    options: Mapping[str, str],
) -> str:
    """A short digest of what decides a listing's order (the cursor and k themselves excluded)."""
    key = json.dumps(
        [query, sorted(repos), path_glob, sorted(languages), case_sensitive, sorted(options.items())],
        separators=(",", ":"),
    )
    return hashlib.blake2b(key.encode(), digest_size=8).hexdigest()


def encode_cursor(c: Cursor) -> str:
    raw = json.dumps({"o": c.offset, "g": c.generation, "q": c.digest}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(token: str, generation: str, digest: str) -> Cursor:
    """The cursor ``token`` names, checked against the generation served and the query asked."""
    try:
        raw = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        c = Cursor(int(raw["o"]), str(raw["g"]), str(raw["q"]))
    except (ValueError, KeyError, TypeError):
        raise InvalidQuery(
            f"invalid cursor {token[:40]!r}: pass the `cursor` of the previous page's answer unchanged"
        ) from None
    if c.offset < 0:
        raise InvalidQuery(f"invalid cursor {token[:40]!r}: negative offset; start again without a cursor")
    if c.digest != digest:
        raise InvalidQuery(
            "the cursor belongs to another query or other filters; ask the same query and filters, "
            "or start again without a cursor"
        )
    if c.generation != generation:
        raise InvalidQuery(
            f"the cursor belongs to index generation {c.generation} but {generation} is served now: "
            "the index changed, so search again without a cursor"
        )
    return c
