"""A prose question that names one of the searched repositories asks about that repository's code.

"how does jinja2 compile a template to python code", asked of an index that holds jinja2 and starlette,
was answered first by starlette's ``Jinja2Templates`` (its name holds two of the question's words). An
agent working across an enterprise's repositories names the project in its words far more often than
in ``repos``. So a prose question (``INTENTS``) asked of no particular repositories, whose
words name some of the repositories it may search but not all of them, keeps every hit and demotes
the others' (``OTHERS``, like a vendored file); the notes say so, and how to search those alone.

A repository is named by its name as a word (``axios``, ``jinja2``, ``org/api``'s ``api`` too) or by its
project's (``sympy`` for a release ``sympy-1.1.1``), case aside; a path (``lib/axios.js``) names a
file, not a repository. ``options["named_repo"] = "off"`` answers without the preference.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection

__all__ = ["INTENTS", "OPTION", "OTHERS", "named", "note"]

#: Score multiplier of a hit from a repository the question does not name (measured in docs/quality.md).
OTHERS = 0.3
#: The intents whose fused answers prefer a named repository's code: prose questions (a pasted snippet,
#: ``find_similar``, names what it imports, not where to look).
INTENTS = frozenset({"understand_code"})
#: ``options[OPTION] = "off"`` answers without the preference (for comparisons).
OPTION = "named_repo"

_VERSION = re.compile(r"[-_]v?\d+(?:\.\d+)*(?:(?:rc|a|b|post|dev)\d*)?$")


def _names(repo: str) -> set[str]:
    """How a question may name ``repo``: its name, the last part of a path-like name, the project's
    name without a release's version."""
    last = repo.rsplit("/", 1)[-1]
    out = {repo.lower(), last.lower(), _VERSION.sub("", last).lower()}
    return {n for n in out if len(n) >= 2}


def named(query: str, repos: frozenset[str]) -> frozenset[str]:
    """The repositories of ``repos`` whose name ``query`` writes as a word (not inside a path)."""
    pattern, by_name = _matcher(repos)
    if pattern is None:
        return frozenset()
    return frozenset(r for m in pattern.finditer(query.lower()) for r in by_name[m.group(1)])


@functools.lru_cache(maxsize=64)
def _matcher(repos: frozenset[str]) -> tuple[re.Pattern[str] | None, dict[str, frozenset[str]]]:
    """One pattern for every name of ``repos`` (longest first), and the repositories each name names:
    a store of thousands of repositories costs one search of the question, not one per repository."""
    by_name: dict[str, set[str]] = {}
    for repo in repos:
        for name in _names(repo):
            by_name.setdefault(name, set()).add(repo)
    if not by_name:
        return None, {}
    names = "|".join(re.escape(n) for n in sorted(by_name, key=lambda n: (-len(n), n)))
    pattern = re.compile(rf"(?<![\w./\\-])({names})(?![\w/\\-])")
    return pattern, {n: frozenset(r) for n, r in by_name.items()}


def note(names: Collection[str]) -> str:
    listed = ", ".join(sorted(names))
    return (
        f"the question names repository {listed}: its code first, other repositories' demoted "
        f"(scope the search to it to ask it alone; option {OPTION}=off weighs every repository alike)"
    )
