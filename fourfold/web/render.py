"""Server-side rendering helpers: Pygments highlighting and the grouping of hits by file.

Code reaches the page only as the HTML of Pygments' :class:`HtmlFormatter`, which escapes every
character of the source; everything else goes through Jinja2's autoescape.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.lexers.special import TextLexer
from pygments.util import ClassNotFound

__all__ = ["Excerpt", "FileGroup", "group_hits", "highlight_lines", "parse_range", "stylesheet"]

_FORMATTER = HtmlFormatter(nowrap=True)


@lru_cache(maxsize=256)
def _lexer(language: str, path: str) -> Lexer:
    for make in (lambda: get_lexer_by_name(language), lambda: get_lexer_for_filename(path)):
        try:
            return make()
        except (ClassNotFound, ValueError):
            continue
    return TextLexer()


def highlight_lines(text: str, language: str, path: str) -> list[Markup]:
    """One safe HTML string per line of ``text`` (Pygments closes its spans at every line end)."""
    if not text:
        return [Markup("")]
    html = highlight(text, _lexer(language, path), _FORMATTER)
    lines = html.split("\n")
    want = text.count("\n") + 1
    if len(lines) > want:  # highlight() appends a final newline
        lines = lines[:want]
    lines += [""] * (want - len(lines))
    # Pygments' HtmlFormatter escaped every character of the source.
    return [Markup(line) for line in lines]


def stylesheet() -> str:
    """Pygments' token colours, light and dark."""

    def defs(style: str) -> str:  # token colours only: the page draws its own backgrounds
        lines = HtmlFormatter(style=style).get_style_defs(".code").splitlines()
        return "\n".join(
            x for x in lines if not x.startswith((".code { background", ".code .hll", "pre {", "td.", "span."))
        )

    light, dark = defs("friendly"), defs("github-dark")
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"


def parse_range(value: str) -> tuple[int, int] | None:
    """``"120-140"`` or ``"120"`` (also ``L120-L140``) as a line range; None when it is not one."""
    a, _, b = value.replace("L", "").partition("-")
    try:
        lo, hi = int(a), int(b or a)
    except ValueError:
        return None
    return (lo, hi) if 1 <= lo <= hi else None


@dataclass(frozen=True, slots=True)
class Excerpt:
    """A run of numbered, highlighted lines of one hit; ``marked`` are the matching lines."""

    lines: tuple[tuple[int, Markup], ...]
    marked: frozenset[int]


@dataclass
class FileGroup:
    """The hits of one file, in rank order (``first`` is the best rank among them, 1-based)."""

    repo: str
    path: str
    language: str
    first: int
    hits: list[dict[str, Any]] = field(default_factory=list)


def excerpt_range(start: int, end: int, match_lines: Sequence[int], context: int = 0, most: int = 8) -> tuple[int, int]:
    """The lines of a hit worth showing: around its matching lines (a line each side, within the hit), else its first
    lines. With ``context`` lines asked for (``search -C``): that many each side of its matching lines, wherever they
    lie in the file, up to ``most`` lines and the context's."""
    if match_lines and context:
        lo = max(1, min(match_lines) - context)
        return lo, min(max(match_lines) + context, lo + most + 2 * context - 1)
    if match_lines:
        lo = max(start, min(match_lines) - 1)
        hi = min(end, max(match_lines) + 1)
    else:
        lo, hi = start, end
    return lo, min(hi, lo + most - 1)


#: An ``ls`` answer's note of the folders in the folder listed (``plugins/text/shard_notes.py`` writes it).
_FOLDERS_NOTE = re.compile(r"text: folders in (?P<where>.+?/): (?P<listed>.+)")
_FOLDER_ENTRY = re.compile(r"(?:^|, )(?P<name>[^,]+?)/ \((?P<files>\d+) files?\)")


@dataclass(frozen=True, slots=True)
class Folder:
    """A folder an ``ls`` answer names: its path (to list it in turn), its name and the files beneath it."""

    path: str
    name: str
    files: int


def folders_of(note: str) -> tuple[str, list[Folder], str] | None:
    """The folder an ``ls`` note lists, the folders it names, and what it says of the rest ("and 12 more folders");
    None for any other note."""
    m = _FOLDERS_NOTE.fullmatch(note)
    if m is None:
        return None
    where = "" if m["where"] == "./" else m["where"]
    named = [Folder(f"{where}{e['name']}", e["name"], int(e["files"])) for e in _FOLDER_ENTRY.finditer(m["listed"])]
    rest = re.search(r"and \d+ more folders$", m["listed"])
    return m["where"], named, rest.group(0) if rest else ""


def group_hits(hits: Sequence[Any]) -> list[FileGroup]:
    """Hits (``FusedHit``) grouped by file, files in the order of their best hit."""
    groups: dict[tuple[str, str], FileGroup] = {}
    for rank, f in enumerate(hits, 1):
        h = f.hit
        key = (h.repo, h.path)
        if key not in groups:
            groups[key] = FileGroup(h.repo, h.path, h.language, rank)
        groups[key].hits.append({"rank": rank, "fused": f, "hit": h})
    return list(groups.values())
