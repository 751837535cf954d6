"""Path globs as users of ripgrep and Zoekt write them: ``*.py``, ``src/**/test_*.go``, ``*.{js,ts}``.

``*`` and ``?`` stay within one path component, ``**`` crosses them, ``[...]`` is a character
class (``[!...]`` negated), ``{a,b}`` an alternation. A glob without ``/`` matches the file name
in any folder.

Every modality and the host read a query's path glob and its left-out globs
(:data:`~fourfold.plugins.types.EXCLUDE_OPTION`) through :func:`path_filter`, so one glob selects the
same files whichever modality answers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from fourfold.errors import InvalidQuery
from fourfold.plugins.types import EXCLUDE_OPTION, ModalityQuery

__all__ = ["compile_glob", "excluded_globs", "path_filter"]


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
            end = glob.find("}", i)
            if end < 0:
                raise InvalidQuery(f"path glob {glob!r}: '{{' at position {i} is never closed; close it")
            out.append("(?:" + "|".join(_translate(alt) for alt in glob[i + 1 : end].split(",")) + ")")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


@functools.lru_cache(maxsize=128)
def compile_glob(glob: str) -> re.Pattern[str]:
    """A regex that fully matches the repository-relative paths ``glob`` selects."""
    pattern = glob.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    pattern = pattern.lstrip("/")
    if not pattern:
        raise InvalidQuery(f"path glob {glob!r} is empty; give one such as '*.py' or 'src/**'")
    body = _translate(pattern)
    if "/" not in pattern:
        body = "(?:.*/)?" + body
    try:
        return re.compile(body + r"\Z", re.DOTALL)
    except re.error as exc:
        raise InvalidQuery(f"path glob {glob!r} is malformed ({exc}); fix its [...] class") from None


def excluded_globs(query: ModalityQuery) -> tuple[str, ...]:
    """The globs whose paths ``query`` leaves out (:data:`~fourfold.plugins.types.EXCLUDE_OPTION`)."""
    value = query.options.get(EXCLUDE_OPTION, "")
    return tuple(g for g in value.split("\n") if g.strip())


def path_filter(query: ModalityQuery) -> Callable[[str], bool] | None:
    """Whether a repository-relative path passes ``query``'s path glob and none of its left-out globs;
    None when the query filters no path. A malformed glob raises :class:`InvalidQuery`."""
    wanted = compile_glob(query.path_glob) if query.path_glob else None
    left_out = [compile_glob(g) for g in excluded_globs(query)]
    if wanted is None and not left_out:
        return None

    def passes(path: str) -> bool:
        if wanted is not None and wanted.match(path) is None:
            return False
        return not any(rx.match(path) is not None for rx in left_out)

    return passes
