"""What a text shard says of its work, and those sayings of many shards said once.

Each shard of a literal, regex or path listing notes how many of its files it verified (or listed),
and whether it stopped early. A fleet has thousands of shards: the answer would repeat one line a
shard. ``merge`` sums the counts of the notes that differ only in them, so the answer says each
once, for the whole index, and how many shards it covers. The notes are written and read here only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from fourfold.plugins.counted_notes import Counted, summed

__all__ = ["FOLDERS_SHOWN_CHARS", "folders_note", "merge", "paths_note", "stopped_note", "verified_note"]

#: A merged note of folders names folders up to about this many characters, then counts the rest (a folder tree,
#: ``find -type d``, names a few dozen).
FOLDERS_SHOWN_CHARS = 1500


def verified_note(labels: str, candidates: int, files: int, verified: int, blocks: int) -> str:
    """A grep's work in one shard: ``candidates`` of its ``files`` verified, ``verified`` of its ``blocks``."""
    return f"text: {labels}; {candidates} of {files} files verified ({verified} of {blocks} blocks)"


def paths_note(pattern: str, listed: int, files: int) -> str:
    """A path listing in one shard: ``listed`` of its ``files`` selected."""
    return f"text: paths {pattern!r}; {listed} of {files} files"


def folders_note(folder: str, beneath: dict[str, int], files: int) -> str:
    """The folders directly in ``folder`` (``.``: the top), each with the files beneath it, by name; ``files``: the
    files directly in it (none, and no folder: nothing of it is indexed)."""
    where = folder.strip("/") + "/" if folder.strip("/") not in ("", ".") else "./"
    if not beneath:
        return f"text: no folders in {where}" if files else f"text: nothing indexed in {where}"
    return f"text: folders in {where}: " + ", ".join(_folder(n, beneath[n]) for n in sorted(beneath))


def _folder(name: str, files: int) -> str:
    return f"{name}/ ({files} file{'s' if files != 1 else ''})"


def stopped_note(stopped_at: int, candidates: int, k: int, lines: int, matched: int) -> str:
    """A grep that stopped after ``stopped_at`` of its ``candidates`` files, holding ``k`` matching ones, with
    the estimate of the whole by the share it verified."""
    share = stopped_at / candidates
    about_lines, about_files = round(lines / share), round(matched / share)
    return (
        f"text: stopped after {stopped_at} of {candidates} candidate files, holding k={k} matching files: at least "
        f"{lines} lines in {matched} files (about {about_lines} lines in {about_files} files by the share verified); "
        "ask for the next page for more"
    )


_N = r"(\d+)"
_VERIFIED = re.compile(rf"(?P<head>text: .*); {_N} of {_N} files verified \({_N} of {_N} blocks\)")
_PATHS = re.compile(rf"(?P<head>text: paths .*); {_N} of {_N} files")
_STOPPED = re.compile(
    rf"text: stopped after {_N} of {_N} candidate files, holding k=(?P<head>\d+) matching files: at least {_N} lines "
    rf"in {_N} files \(about {_N} lines in {_N} files by the share verified\); ask for the next page for more"
)


def _verified(head: str, n: Sequence[int], shards: int) -> str:
    return f"{head}; {n[0]} of {n[1]} files verified ({n[2]} of {n[3]} blocks) in {shards} shards"


def _paths(head: str, n: Sequence[int], shards: int) -> str:
    return f"{head}; {n[0]} of {n[1]} files in {shards} shards"


def _stopped(head: str, n: Sequence[int], shards: int) -> str:
    return (
        f"text: {shards} shards stopped after {n[0]} of {n[1]} candidate files, each holding k={head} matching "
        f"files: at least {n[2]} lines in {n[3]} files (about {n[4]} lines in {n[5]} files by the share verified); "
        "ask for the next page for more"
    )


_FOLDERS = re.compile(
    r"text: (?:nothing indexed in (?P<empty>.+)|no folders in (?P<none>.+)|folders in (?P<where>.+?/): (?P<listed>.+))"
)
_FOLDER = re.compile(r"(?P<name>.+?)/ \((?P<files>\d+) files?\)(?:, |$)")


def _folders(notes: Sequence[str]) -> tuple[list[str], dict[str, dict[str, int]], set[str]]:
    """The notes that are not of folders, the folders of those that are (folder -> name -> files), and the
    folders some shard holds files in."""
    rest: list[str] = []
    folders: dict[str, dict[str, int]] = {}
    held: set[str] = set()
    for note in notes:
        m = _FOLDERS.fullmatch(note)
        if m is None:
            rest.append(note)
            continue
        where = m.group("empty") or m.group("none") or m.group("where")
        rest.append(f"\0{where}")  # its place
        counts = folders.setdefault(where, {})
        if not m.group("empty"):
            held.add(where)
        for entry in _FOLDER.finditer(m.group("listed") or ""):
            counts[entry["name"]] = counts.get(entry["name"], 0) + int(entry["files"])
    return rest, folders, held


def _folders_said(where: str, counts: dict[str, int], held: bool) -> str:
    if not counts:
        return f"text: no folders in {where}" if held else f"text: nothing indexed in {where}"
    said = f"text: folders in {where}: "
    names = sorted(counts)
    for n, name in enumerate(names):
        entry = _folder(name, counts[name])
        if n and len(said) + len(entry) > FOLDERS_SHOWN_CHARS:
            return f"{said}and {len(names) - n} more folders"
        said += entry + ", "
    return said[:-2]


_FORMS: tuple[tuple[re.Pattern[str], Callable[[str, Sequence[int], int], str]], ...] = (
    (_VERIFIED, _verified),
    (_PATHS, _paths),
    (_STOPPED, _stopped),
)


def merge(notes: Sequence[str]) -> list[str]:
    """The shards' ``notes`` in order, each once: notes that differ only in their counts summed into the first's
    place, with the number of shards they cover (one shard's note stays as it was). The folders an ``ls`` names
    are said once, each with the files beneath it summed over the shards, as many as fit ``FOLDERS_SHOWN_CHARS``."""
    notes, folders, held = _folders(notes)
    out = summed(notes, _counted)
    return [_folders_said(n[1:], folders[n[1:]], n[1:] in held) if n.startswith("\0") else n for n in out]


def _counted(note: str) -> Counted | None:
    """What a shard's note of its work counts (``_FORMS``), None for any other note."""
    for form, (rx, write) in enumerate(_FORMS):
        m = rx.fullmatch(note)
        if m is not None:
            head = m.group("head")
            counts = [int(g) for i, g in enumerate(m.groups(), 1) if i != rx.groupindex["head"]]
            return (form, head), counts, lambda n, shards, write=write, head=head: write(head, n, shards)
    return None
