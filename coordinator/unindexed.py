"""The files a repository holds that the index does not: named where an answer would have listed or read them.

A build indexes text files (UTF-8, up to its size limit); a binary file, one too large, one not UTF-8 and a symbolic
link are left out, and each repository's segment database names them with why (``GenerationReader.unheld``; its
manifest record counts them). A path listing (``find``, ``fd``, ``git ls-files``, ``rg --files``, ``ls``, a ``Glob``
call) answers with indexed files alone: its note names the others it would have listed, so that a listing never
says a file is absent that the repository has. A read of one (``cat logo.png``) says why it shows nothing.

    listed(files, ["api"], {"api": 1}, query)   # [("api", "assets/logo.png", "binary")]
    note([("api", "assets/logo.png", "binary")])
    # "1 file here is not indexed, so not listed: assets/logo.png (binary); fourfold indexes text files alone"
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from fourfold.coordinator.file_subject import FileIndex
from fourfold.coordinator.search_command import LINKS_OPTION, SIZE_OPTION, sizes_test
from fourfold.index.ingest.languages import detect_language
from fourfold.plugins.text.shard import lists_path
from fourfold.plugins.types import HOLDING_OPTION, ModalityQuery

__all__ = ["MAX_NAMED", "WHY", "listed", "named", "note", "unread"]

#: Why a file is not indexed, in words (the reasons a build records).
WHY = {
    "binary": "binary",
    "too_large": "too large",
    "invalid_utf8": "not UTF-8",
    "unreadable": "unreadable",
    "symlink": "a symbolic link",
}
#: The files a note names at most; it counts the rest.
MAX_NAMED = 10

Found = tuple[str, str, str]  # (repository, path, why)


def _of(files: FileIndex, repos: Iterable[str], counts: Mapping[str, int]) -> Iterable[tuple[str, str, str, int]]:
    """Each file of ``repos`` not indexed, with its size; a repository whose record counts none is not opened."""
    for repo in sorted(repos):
        if counts.get(repo):
            for path, why, size in files.unheld(repo):
                yield repo, path, why, size


def listed(files: FileIndex, repos: Iterable[str], counts: Mapping[str, int], query: ModalityQuery) -> list[Found]:
    """The files not indexed that the path listing ``query`` (``mode=paths``) would list: by their paths, as the text
    modality lists an indexed file (``lists_path``), of the language asked where one is, of the sizes asked (``find
    -size +1M``: ``SIZE_OPTION``), no link where it lists none (``find -type f``: ``LINKS_OPTION``); none where the
    listing keeps files by what they hold (``grep -l X | xargs …``: an unindexed file's text is unknown)."""
    if query.options.get(HOLDING_OPTION):
        return []
    lists: Callable[[str], bool] = lists_path(query)
    languages = set(query.languages)
    sized = sizes_test(query.options.get(SIZE_OPTION, "").split("\n"))
    links = query.options.get(LINKS_OPTION) != "no"
    return [
        (repo, path, why)
        for repo, path, why, size in _of(files, repos, counts)
        if lists(path)
        and (not languages or detect_language(path) in languages)
        and (sized is None or (size >= 0 and sized(size)))
        and (links or why != "symlink")
    ]


def named(files: FileIndex, repos: Iterable[str], counts: Mapping[str, int], path: str) -> list[Found]:
    """The files not indexed at ``path`` (``coordinator/model.npz``), or named so in any folder (``model.npz``)."""
    wanted = path.strip().removeprefix("./").strip("/")
    if not wanted:
        return []
    return [(r, p, why) for r, p, why, _ in _of(files, repos, counts) if p == wanted or p.endswith(f"/{wanted}")]


def note(found: list[Found], verb: str = "listed", several: bool = False) -> str:
    """A listing's (or a read's) note naming ``found``: how many, the first :data:`MAX_NAMED` with why, each with its
    repository where there are ``several`` (or they are of several); "" for none."""
    if not found:
        return ""
    several = several or len({repo for repo, _, _ in found}) > 1
    shown = ", ".join(
        f"{f'{repo}:' if several else ''}{path} ({WHY.get(why, why)})" for repo, path, why in found[:MAX_NAMED]
    )
    more = f" and {len(found) - MAX_NAMED} more" if len(found) > MAX_NAMED else ""
    count = "1 file here is" if len(found) == 1 else f"{len(found)} files here are"
    return f"{count} not indexed, so not {verb}: {shown}{more}; {_INDEXES}"


def unread(found: list[Found]) -> str:
    """Why a read of ``found`` (a path naming files not indexed) shows no line."""
    if len(found) != 1:
        return note(found, "shown")
    repo, path, why = found[0]
    return f"{path} is in {repo} but not indexed ({WHY.get(why, why)}), so it has no lines to show; {_INDEXES}"


_INDEXES = "fourfold indexes text files alone (UTF-8, not too large; no symbolic links)"
