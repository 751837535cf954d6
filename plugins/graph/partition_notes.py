"""A partitioned graph's truncation notes, said once for the index.

Each partition that holds more users of a name than it was asked for notes it: "graph: truncated: 194 segments
in cobra use cobra.Command.Use, showing 100". A name a fleet's repositories all use (a shared library's function)
is truncated in each of them, and the answer would say so once a repository. ``merge`` sums such notes that
differ only in their count and their partition into one, naming how many partitions it covers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from fourfold.plugins.counted_notes import Counted, summed

__all__ = ["merge"]

_TRUNCATED = re.compile(
    r"graph: truncated: (?P<n>\d+) (?P<kind>segments|classes|callees|dependents)"
    r"(?P<scope> in \d+ repositories| in [^ ,]+(?:, (?!showing )[^ ,]+)*| elsewhere)?(?P<rest>[ ,].*)"
)


def merge(notes: Sequence[str]) -> list[str]:
    """``notes`` in order, each once; truncation notes that differ only in count and partition summed into the
    first's place ("graph: truncated: 2345 segments in 12 partitions use X, showing 100")."""
    return summed(notes, _truncated)


def _truncated(note: str) -> Counted | None:
    m = _TRUNCATED.fullmatch(note)
    if m is None or not m["scope"]:
        return None  # the single graph's, or another note
    kind, rest = m["kind"], m["rest"]
    return (kind, rest), [int(m["n"])], lambda n, parts: f"graph: truncated: {n[0]} {kind} in {parts} partitions{rest}"
