"""Carry a commit's changed lines forward to the lines of the current checkout.

A commit's hunk names lines of the file as that commit left it. Later commits insert and delete
lines above it, rename the file, or delete it. Walking the history newest first, each file keeps
the hunks of the commits after the one being read (``FileTrack.later``); a range is mapped
through them oldest first. Lines that a later commit rewrote map onto the lines that replaced
them, as ``git log -L`` follows a function through rewrites.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from fourfold_history.gitlog import Commit, Hunk

__all__ = ["FileTrack", "HistoryWalker", "forward_line", "forward_range"]


def forward_line(line: int, hunks: Sequence[Hunk], low: bool) -> int:
    """Where ``line`` of the old side of ``hunks`` (sorted by ``old_start``) lands on the new side.

    A line inside a rewritten region maps to the first (``low``) or last line of its replacement;
    a deleted region maps to the line just before the deletion.
    """
    shift = 0
    for h in hunks:
        if h.old_count == 0:  # insertion after old line old_start
            if line > h.old_start:
                shift += h.new_count
                continue
            break
        if line < h.old_start:
            break
        old_end = h.old_start + h.old_count - 1
        if line > old_end:
            shift += h.new_count - h.old_count
            continue
        if h.new_count == 0:
            return max(h.new_start, 1)
        return h.new_start if low else h.new_start + h.new_count - 1
    return line + shift


def forward_range(start: int, end: int, later: Sequence[Sequence[Hunk]]) -> tuple[int, int]:
    """Map ``start..end`` through ``later`` (each commit's hunks, oldest commit first)."""
    for hunks in later:
        start, end = forward_line(start, hunks, True), forward_line(end, hunks, False)
    return start, max(start, end)


@dataclass
class FileTrack:
    """A file as the walk currently sees it: where it lives now, and the hunks of later commits.

    ``later`` is kept newest first (the walk's order) and reversed when mapping.
    """

    current_path: str
    later: list[tuple[Hunk, ...]] = field(default_factory=list)


class HistoryWalker:
    """Maps each commit's changed ranges (newest commit first) onto paths and lines of today.

    ``current_paths`` are the files of the checkout; changes to files that no longer exist, or to a
    path's earlier life before it was deleted and added again, map to nothing.
    """

    def __init__(self, current_paths: set[str]) -> None:
        self._current = current_paths
        self._tracks: dict[str, FileTrack | None] = {}

    def _track(self, path: str) -> FileTrack | None:
        if path not in self._tracks:
            self._tracks[path] = FileTrack(path) if path in self._current else None
        return self._tracks[path]

    def walk(self, commit: Commit) -> Iterator[tuple[str, int, int]]:
        """Yield ``(current path, start, end)`` for each changed range of ``commit`` that still exists.

        Call with commits newest first; each call also records the commit for the older ones.
        """
        updates: dict[str, FileTrack | None] = {}
        for change in commit.changes:
            if change.new_path is None:  # deleted: nothing of it lives now, nor of its earlier life
                if change.old_path is not None:
                    updates[change.old_path] = None
                continue
            track = self._track(change.new_path)
            if track is not None:
                later = list(reversed(track.later))
                for h in change.hunks:
                    first = h.new_start if h.new_count else max(h.new_start, 1)
                    last = h.new_start + h.new_count - 1 if h.new_count else first
                    start, end = forward_range(first, last, later)
                    yield track.current_path, start, end
            if change.old_path is None:  # added here: before this commit the path was something else
                updates.setdefault(change.new_path, None)
                continue
            carried = FileTrack(track.current_path, [*track.later, change.hunks]) if track is not None else None
            if change.old_path != change.new_path:
                updates.setdefault(change.new_path, None)
            updates[change.old_path] = carried
        self._tracks.update(updates)
