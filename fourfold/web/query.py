"""A search as the page and the API take it: GET parameters in, the client's keywords out.

The parameters mirror ``fourfold search``'s flags one for one (``q``, ``repo``, ``intent``,
``preset``, ``profile``, ``modality``, ``weight``, ``k``, ``path``, ``lang``, ``case``, ``regex``,
``paths``, ``cursor``, ``context``, ``max_count``, ``multiline``, ``deadline_ms``), so a page URL and an API URL
hold the whole query and can be shared. Bad input raises :class:`~fourfold.errors.InvalidInput` naming the
parameter and the offending value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from fourfold.errors import InvalidInput
from fourfold.plugins.types import INTENTS, MAX_CONTEXT_LINES

__all__ = ["INTENT_LABELS", "PRESETS", "SearchForm", "parse_form"]

#: The chip's short names for the engine's intents (only intents the engine knows are offered).
INTENT_LABELS: dict[str, str] = {
    "find_definition": "definition",
    "find_references": "references",
    "impact_analysis": "impact",
    "exact_match": "exact",
    "find_similar": "similar",
    "understand_code": "understand",
    "localize": "localize",
}
#: Search presets (latency against depth).
PRESETS = ("quick", "default", "thorough")
MAX_K = 1000
_TRUE = ("1", "true", "on", "yes")
_FALSE = ("", "0", "false", "off", "no")


@dataclass(frozen=True, slots=True)
class SearchForm:
    """One search's parameters, validated."""

    q: str = ""
    repos: tuple[str, ...] = ()
    intent: str = ""
    preset: str = "default"
    profile: str = ""
    modalities: tuple[str, ...] = ()
    weights: Mapping[str, float] = field(default_factory=dict)
    k: int = 10
    path: str = ""
    langs: tuple[str, ...] = ()
    case: bool = False
    regex: bool = False
    paths: bool = False  # list the files whose path holds the query (``--paths``)
    cursor: str = ""  # a listing's next page (the previous answer's cursor)
    context: int = 0  # lines shown around each matching line (``search -C``)
    max_count: int = 0  # each file's first N matching lines (``search -m``; 0: all)
    multiline: str = ""  # a regex whose matches span lines: "on" (``search -U``), "dotall" (``--multiline-dotall``)
    deadline_ms: int = 5000

    def client_kwargs(self, *, snippets: bool = False) -> dict[str, Any]:
        """Keywords for ``AsyncClient.search`` (after the query)."""
        options = {"profile": self.profile} if self.profile else {}
        if self.paths:
            options["mode"] = "paths"
        return {
            "k": self.k,
            "repos": self.repos,
            "intent": self.intent,
            "preset": self.preset,
            "modalities": self.modalities,
            "weights": dict(self.weights),
            "path_glob": self.path,
            "languages": self.langs,
            "case_sensitive": self.case,
            "regex": self.regex,
            "options": options,
            "snippets": snippets,
            "deadline_ms": self.deadline_ms,
            "cursor": self.cursor,
            "context": self.context,
            "max_count": self.max_count,
            "multiline": self.multiline or False,
        }

    def params(self, **override: Any) -> list[tuple[str, str]]:
        """The GET parameters that give this search back (defaults left out), with overrides."""
        values: dict[str, Any] = {
            "q": self.q,
            "repo": list(self.repos),
            "intent": self.intent,
            "preset": "" if self.preset == "default" else self.preset,
            "profile": self.profile,
            "modality": list(self.modalities),
            "weight": [f"{m}={w:g}" for m, w in self.weights.items()],
            "k": "" if self.k == 10 else str(self.k),
            "path": self.path,
            "lang": list(self.langs),
            "case": "1" if self.case else "",
            "regex": "1" if self.regex else "",
            "paths": "1" if self.paths else "",
            "cursor": self.cursor,
            "context": str(self.context) if self.context else "",
            "max_count": str(self.max_count) if self.max_count else "",
            "multiline": self.multiline,
            "deadline_ms": "" if self.deadline_ms == 5000 else str(self.deadline_ms),
        }
        values.update(override)
        out: list[tuple[str, str]] = []
        for key, value in values.items():
            for v in value if isinstance(value, list | tuple) else [value]:
                if v not in ("", None):
                    out.append((key, str(v)))
        return out

    def url(self, base: str = "/", **override: Any) -> str:
        return f"{base}?{urlencode(self.params(**override))}"


def _bool(name: str, value: str) -> bool:
    v = value.strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise InvalidInput(f"invalid {name}={value!r}: give 1/true/on or 0/false/off")


def _multiline(value: str) -> str:
    """``multiline=``: "" (off), "on" (1/true/on) or "dotall"."""
    v = value.strip().lower()
    if v == "dotall":
        return v
    try:
        return "on" if _bool("multiline", v) else ""
    except InvalidInput:
        raise InvalidInput(
            f"invalid multiline={value!r}: give on (rg -U), dotall (. matching newlines too) or off"
        ) from None


def _int(name: str, value: str, lo: int, hi: int) -> int:
    try:
        n = int(value)
    except ValueError:
        raise InvalidInput(f"invalid {name}={value!r}: give a whole number from {lo} to {hi}") from None
    if not lo <= n <= hi:
        raise InvalidInput(f"invalid {name}={value!r}: give a whole number from {lo} to {hi}")
    return n


def _weights(values: Sequence[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for item in values:
        name, eq, w = item.partition("=")
        try:
            out[name.strip()] = float(w)
        except ValueError:
            eq = ""
        if not eq or not name.strip():
            raise InvalidInput(f"invalid weight={item!r}: give MODALITY=NUMBER, for example text=2")
    return out


def parse_form(get: Any, *, require_query: bool = False) -> SearchForm:
    """A :class:`SearchForm` from a multi-valued mapping (Starlette's ``request.query_params``)."""

    def one(name: str) -> str:
        return str(get.get(name) or "")

    def many(name: str) -> tuple[str, ...]:
        out: list[str] = []
        for v in get.getlist(name):  # "a,b" and repeated parameters both work
            out.extend(x.strip() for x in str(v).split(",") if x.strip())
        return tuple(out)

    q = one("q")
    if require_query and not q.strip():
        raise InvalidInput("missing q: give the query, for example q=parse_config")
    intent = one("intent").strip()
    if intent in INTENT_LABELS.values():
        intent = next(k for k, v in INTENT_LABELS.items() if v == intent)
    if intent in ("auto",):
        intent = ""
    if intent and intent not in INTENTS:
        raise InvalidInput(
            f"invalid intent={intent!r}: give one of {', '.join(INTENTS)} (or {', '.join(INTENT_LABELS.values())})"
        )
    regex, paths = _bool("regex", one("regex")), _bool("paths", one("paths"))
    if regex and paths:
        raise InvalidInput("regex=1 and paths=1 exclude each other: a query is a pattern or a path")
    multiline = _multiline(one("multiline"))
    if multiline and paths:
        raise InvalidInput(f"multiline={multiline} and paths=1 exclude each other: a multi-line match is a regex's")
    preset = one("preset").strip() or "default"
    if preset not in PRESETS:
        raise InvalidInput(f"invalid preset={preset!r}: give one of {', '.join(PRESETS)}")
    return SearchForm(
        q=q,
        repos=many("repo"),
        intent=intent,
        preset=preset,
        profile=one("profile").strip(),
        modalities=many("modality"),
        weights=_weights(get.getlist("weight")),
        k=_int("k", one("k"), 1, MAX_K) if one("k") else 10,
        path=one("path").strip(),
        langs=many("lang"),
        case=_bool("case", one("case")),
        regex=regex,
        paths=paths,
        cursor=one("cursor").strip(),
        context=_int("context", one("context"), 0, MAX_CONTEXT_LINES) if one("context") else 0,
        max_count=_int("max_count", one("max_count"), 1, 1_000_000) if one("max_count") else 0,
        multiline=multiline,
        deadline_ms=_int("deadline_ms", one("deadline_ms"), 1, 60_000) if one("deadline_ms") else 5000,
    )
