"""Notes that many shards write alike, said once: their counts summed.

A shard notes its own work ("…; 4 of 38 files verified", "graph: truncated: 194 segments in cobra use X"), and a
fleet has thousands of shards. A modality's ``merge_notes`` reads which of its notes are of one kind and what they
count; ``summed`` adds those counts into the first such note's place and lets the modality write the sum.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

__all__ = ["Counted", "summed"]

#: What a note counts: its kind (notes of one kind are summed), its counts, and how the sum is written given the
#: summed counts and how many notes were summed.
Counted = tuple[Hashable, list[int], Callable[[list[int], int], str]]


def summed(notes: Sequence[str], read: Callable[[str], Counted | None]) -> list[str]:
    """``notes`` in order, each once; those ``read`` counts, one note a kind, in the first's place: as it was where
    it is its kind's only one, else as its writer writes the counts summed."""
    out: list[str] = []
    sums: dict[Hashable, tuple[int, list[int], int, Callable[[list[int], int], str]]] = {}
    for note in notes:
        counted = read(note)
        if counted is None:
            if note not in out:
                out.append(note)
            continue
        kind, counts, write = counted
        if kind in sums:
            place, total, shards, _ = sums[kind]
            sums[kind] = (place, [a + b for a, b in zip(total, counts, strict=True)], shards + 1, write)
        else:
            sums[kind] = (len(out), counts, 1, write)
            out.append(note)
    for place, total, shards, write in sums.values():
        if shards > 1:
            out[place] = write(total, shards)
    return out
