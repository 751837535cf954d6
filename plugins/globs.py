"""Path globs as users of ripgrep and Zoekt write them: ``*.py``, ``src/**/test_*.go``, ``*.{js,ts}``.

``*`` and ``?`` stay within one path component, ``**`` crosses them, ``[...]`` is a character
class (``[!...]`` negated), ``{a,b}`` an alternation. A glob without ``/`` matches the file name
in any folder; one that starts with ``/`` is matched from the repository's top (``/*.py``: its top folder's).

Every modality and the host read a query's path glob and its left-out globs
(:data:`~fourfold.plugins.types.EXCLUDE_OPTION`) through :func:`path_filter`, so one glob selects the
same files whichever modality answers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping

from fourfold.errors import InvalidQuery
from fourfold.plugins.types import EXCLUDE_OPTION, ModalityQuery

__all__ = ["GLOB_CHARS", "any_case", "brace_group", "compile_glob", "excluded_globs", "excluding", "path_filter"]

#: A path pattern holding one of these is a glob; one without them is a fragment of a path.
GLOB_CHARS = "*?[{"


def _translate(glob: str) -> str:
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = glob.find("]", i + 2)
            if end < 0:
                raise InvalidQuery(f"path glob {glob!r}: '[' at position {i} is never closed; close it or escape it")
            body = glob[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        elif c == "{":
            group = brace_group(glob, i)
            if group is None:
                raise InvalidQuery(f"path glob {glob!r}: '{{' at position {i} is never closed; close it")
            end, alternatives = group
            out.append("(?:" + "|".join(_translate(alt) for alt in alternatives) + ")")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def brace_group(text: str, start: int) -> tuple[int, list[str]] | None:
    """The ``{a,b}`` group opening at ``start`` in ``text``: where it closes, and what its top-level commas part
    (each part may hold a group); None where it never closes."""
    depth, parts, last = 0, list[str](), start + 1
    for i in range(start + 1, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}" and depth:
            depth -= 1
        elif text[i] == "}":
            return i, [*parts, text[last:i]]
        elif text[i] == "," and not depth:
            parts.append(text[last:i])
            last = i + 1
    return None


def any_case(glob: str) -> str:
    """``glob`` matching its letters in either case (find's ``-iname``): each letter outside a ``[...]`` class is
    the class of both (``*.MD`` -> ``*.[mM][dD]``); a class is kept as written."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        c = glob[i]
        end = glob.find("]", i + 2) if c == "[" else -1
        if end > 0:
            out.append(glob[i : end + 1])
            i = end + 1
            continue
        lower, upper = c.lower(), c.upper()
        out.append(f"[{lower}{upper}]" if lower != upper and len(lower) == len(upper) == 1 else c)
        i += 1
    return "".join(out)


@functools.lru_cache(maxsize=128)
def compile_glob(glob: str) -> re.Pattern[str]:
    """A regex that fully matches the repository-relative paths ``glob`` selects."""
    pattern = glob.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    anchored = pattern.startswith("/")
    pattern = pattern.lstrip("/")
    if not pattern:
        raise InvalidQuery(f"path glob {glob!r} is empty; give one such as '*.py' or 'src/**'")
    body = _translate(pattern)
    if "/" not in pattern and not anchored:
        body = "(?:.*/)?" + body
    try:
        return re.compile(body + r"\Z", re.DOTALL)
    except re.error as exc:
        raise InvalidQuery(f"path glob {glob!r} is malformed ({exc}); fix its [...] class") from None


def excluded_globs(query: ModalityQuery) -> tuple[str, ...]:
    """The globs whose paths ``query`` leaves out (:data:`~fourfold.plugins.types.EXCLUDE_OPTION`)."""
    return _split(query.options.get(EXCLUDE_OPTION, ""))


def excluding(options: Mapping[str, str], globs: Iterable[str]) -> dict[str, str]:
    """``options`` with ``globs`` added to the paths they leave out, as :func:`excluded_globs` reads them."""
    return {**options, EXCLUDE_OPTION: "\n".join([*_split(options.get(EXCLUDE_OPTION, "")), *globs])}


def path_filter(query: ModalityQuery) -> Callable[[str], bool] | None:
    """Whether a repository-relative path passes ``query``'s path glob and none of its left-out globs;
    None when the query filters no path. A malformed glob raises :class:`InvalidQuery`. Cheap to call
    again (the graph asks it of every node it may answer with): one filter per glob and left-out globs."""
    return _path_filter(query.path_glob or "", query.options.get(EXCLUDE_OPTION, ""))


def _split(left_out: str) -> tuple[str, ...]:
    return tuple(g for g in left_out.split("\n") if g.strip())


@functools.lru_cache(maxsize=128)
def _path_filter(glob: str, left_out: str) -> Callable[[str], bool] | None:
    wanted = compile_glob(glob) if glob else None
    excluded = [compile_glob(g) for g in _split(left_out)]
    if wanted is None and not excluded:
        return None

    def passes(path: str) -> bool:
        if wanted is not None and wanted.match(path) is None:
            return False
        return not any(rx.match(path) is not None for rx in excluded)

    return passes
