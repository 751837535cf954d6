"""Trigram queries: which files can possibly match, decided from the index alone.

A query is a small immutable tree (``ALL``, ``Tri``, ``And``, ``Or``) with a readable ``str``.
``for_literal`` and ``for_regex`` derive one from a search; the shard evaluates it against its
posting lists and verifies only the files that survive. The derivation must never be stricter
than the search itself: where the analysis is unsure it answers ``ALL`` (scan every file).

``for_regex`` follows Russ Cox's codesearch method in a reduced form: each sub-expression is
summarised by the exact set of (folded) strings it can match when that set is small, and
otherwise by a trigram query every match must satisfy; concatenation multiplies exact sets,
alternation unions them, repetition and wide classes give up exactness.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass

from fourfold.plugins.text.fold import fold, trigrams_of

__all__ = ["ALL", "All", "And", "Or", "Query", "Tri", "exact_strings", "for_literal", "for_regex", "for_strings"]

#: Largest exact string set kept before it becomes a trigram query.
MAX_EXACT = 16


@dataclass(frozen=True, slots=True)
class All:
    """Matches every file: nothing constrains the search."""

    def __str__(self) -> str:
        return "ALL"


@dataclass(frozen=True, slots=True)
class Tri:
    """Files whose folded content holds this trigram key."""

    key: int

    def __str__(self) -> str:
        raw = self.key.to_bytes(3, "big")
        return repr(raw.decode("utf-8", "backslashreplace"))


@dataclass(frozen=True, slots=True)
class And:
    children: tuple[Query, ...]

    def __str__(self) -> str:
        return "(" + " AND ".join(map(str, self.children)) + ")"


@dataclass(frozen=True, slots=True)
class Or:
    children: tuple[Query, ...]

    def __str__(self) -> str:
        return "(" + " OR ".join(map(str, self.children)) + ")"


Query = All | Tri | And | Or

ALL = All()


def and_(parts: Iterable[Query]) -> Query:
    """Conjunction, flattened; ``ALL`` parts drop out."""
    out: list[Query] = []
    for p in parts:
        if isinstance(p, All):
            continue
        out.extend(p.children if isinstance(p, And) else (p,))
    uniq = tuple(dict.fromkeys(out))
    if not uniq:
        return ALL
    return uniq[0] if len(uniq) == 1 else And(uniq)


def or_(parts: Iterable[Query]) -> Query:
    """Disjunction, flattened; one ``ALL`` part makes it ``ALL``."""
    out: list[Query] = []
    for p in parts:
        if isinstance(p, All):
            return ALL
        out.extend(p.children if isinstance(p, Or) else (p,))
    uniq = tuple(dict.fromkeys(out))
    if not uniq:
        return ALL
    return uniq[0] if len(uniq) == 1 else Or(uniq)


def for_literal(text: str) -> Query:
    """The trigrams every line holding ``text`` contains (``ALL`` when shorter than three bytes)."""
    return and_(Tri(k) for k in trigrams_of(text))


def for_strings(strings: Iterable[str]) -> Query:
    """A match is one of ``strings``: an OR of each string's trigram conjunction."""
    return or_(for_literal(s) for s in strings)


# --- regex analysis -------------------------------------------------------------------------


class _Unsupported(Exception):
    """Syntax the analysis does not model; the caller falls back to ``ALL``."""


@dataclass(frozen=True, slots=True)
class _Info:
    """What a sub-expression tells about its matches: an exact folded set, or a required query."""

    exact: frozenset[str] | None
    required: Query = ALL

    def query(self) -> Query:
        return for_strings(self.exact) if self.exact is not None else self.required


_ANY = _Info(None, ALL)
_EMPTY = _Info(frozenset({""}))

_ESCAPED_CHARS = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}
_ZERO_WIDTH_ESCAPES = set("bBAz")
_CLASS_ESCAPES = set("dDwWsSpPC")


def _concat(a: _Info, b: _Info) -> _Info:
    if a.exact is not None and b.exact is not None and len(a.exact) * len(b.exact) <= MAX_EXACT:
        return _Info(frozenset(x + y for x in a.exact for y in b.exact))
    return _Info(None, and_((a.query(), b.query())))


def _alternate(infos: list[_Info]) -> _Info:
    if all(i.exact is not None for i in infos):
        union = frozenset().union(*(i.exact for i in infos if i.exact is not None))
        if len(union) <= MAX_EXACT:
            return _Info(union)
    return _Info(None, or_(i.query() for i in infos))


def _same(text: str) -> str:
    return text


class _Parser:
    """A conservative reader of RE2 syntax (the pattern has already compiled under RE2).

    ``exact_case``: strings keep their case (no folding), and a case-insensitive flag (``(?i)``)
    is refused, since the strings would then stand for every casing of themselves.
    """

    def __init__(self, pattern: str, exact_case: bool = False) -> None:
        self.p = pattern
        self.i = 0
        self.exact_case = exact_case
        self.fold = _same if exact_case else fold

    def peek(self) -> str:
        return self.p[self.i] if self.i < len(self.p) else ""

    def take(self) -> str:
        if self.i >= len(self.p):
            raise _Unsupported("unexpected end")
        c = self.p[self.i]
        self.i += 1
        return c

    def parse(self) -> _Info:
        info = self.alternation()
        if self.i != len(self.p):
            raise _Unsupported(f"stray {self.peek()!r}")
        return info

    def alternation(self) -> _Info:
        branches = [self.concatenation()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.concatenation())
        return branches[0] if len(branches) == 1 else _alternate(branches)

    def concatenation(self) -> _Info:
        """Runs of exact pieces multiply into one exact set; each run and inexact piece is required."""
        required: list[Query] = []
        run = _EMPTY
        exact = True
        while self.peek() not in ("", "|", ")"):
            piece = self.repetition()
            if piece.exact is None:
                exact = False
                required += [run.query(), piece.query()]
                run = _EMPTY
                continue
            joined = _concat(run, piece)
            if joined.exact is None:
                exact = False
                required.append(run.query())
                joined = piece
            run = joined
        if exact:
            return run
        return _Info(None, and_([*required, run.query()]))

    def repetition(self) -> _Info:
        info = self.atom()
        while True:
            c = self.peek()
            if c in ("*", "+", "?"):
                self.i += 1
                low = 1 if c == "+" else 0
            elif c == "{" and (bounds := self.bounds()) is not None:
                low = bounds
            else:
                return info
            if self.peek() == "?":  # non-greedy: same language
                self.i += 1
            if c == "?" and info.exact is not None:
                info = _Info(info.exact | {""})
            elif low == 0:
                info = _ANY
            else:
                info = _Info(None, info.query())

    def bounds(self) -> int | None:
        """At ``{``: the lower bound of a valid ``{n}``, ``{n,}``, ``{n,m}``; None if ``{`` is literal."""
        end = self.p.find("}", self.i)
        if end < 0:
            return None
        body = self.p[self.i + 1 : end]
        low, _, high = body.partition(",")
        if not low.isdigit() or (high and not high.isdigit()):
            return None
        self.i = end + 1
        return int(low)

    def atom(self) -> _Info:
        c = self.take()
        if c == "(":
            return self.group()
        if c == "[":
            return self.char_class()
        if c == "\\":
            return self.escape()
        if c == ".":
            return _ANY
        if c in "^$":
            return _EMPTY
        return _Info(frozenset({self.fold(c)}))

    def group(self) -> _Info:
        if self.peek() == "?":
            self.i += 1
            if self.p.startswith("P<", self.i) or self.peek() == "<":
                end = self.p.find(">", self.i)
                if end < 0:
                    raise _Unsupported("group name")
                self.i = end + 1
            else:
                while self.peek() not in (":", ")"):
                    if self.peek() not in "imsU-" or (self.exact_case and self.peek() == "i"):
                        raise _Unsupported("group flag")
                    self.i += 1
                if self.take() == ")":  # a flag setting such as (?i): matches the empty string
                    return _EMPTY
        info = self.alternation()
        if self.take() != ")":
            raise _Unsupported("unclosed group")
        return info

    def escape(self) -> _Info:
        c = self.take()
        if c == "Q":
            end = self.p.find("\\E", self.i)
            text = self.p[self.i :] if end < 0 else self.p[self.i : end]
            self.i = len(self.p) if end < 0 else end + 2
            return _Info(frozenset({self.fold(text)}))
        if c in _ZERO_WIDTH_ESCAPES:
            return _EMPTY
        if c in _CLASS_ESCAPES:
            if c in "pP":
                self.skip_unicode_class_name()
            return _ANY
        if c == "x":
            return _Info(frozenset({self.fold(self.hex_char())}))
        if c in _ESCAPED_CHARS:
            return _Info(frozenset({_ESCAPED_CHARS[c]}))
        if c in string.punctuation:
            return _Info(frozenset({c}))
        raise _Unsupported(f"escape \\{c}")

    def skip_unicode_class_name(self) -> None:
        if self.peek() == "{":
            end = self.p.find("}", self.i)
            if end < 0:
                raise _Unsupported("class name")
            self.i = end + 1
        else:
            self.take()

    def hex_char(self) -> str:
        if self.peek() == "{":
            end = self.p.find("}", self.i)
            digits = self.p[self.i + 1 : end]
            self.i = end + 1
        else:
            digits = self.p[self.i : self.i + 2]
            self.i += 2
        try:
            return chr(int(digits, 16))
        except ValueError as exc:
            raise _Unsupported("hex escape") from exc

    def char_class(self) -> _Info:
        """``[...]``: an exact set when it lists a few plain characters, else any character."""
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        chars: set[str] = set()
        exact = not negated
        first = True
        while True:
            c = self.take()
            if c == "]" and not first:
                break
            first = False
            if c == "[" and self.peek() == ":":
                end = self.p.find(":]", self.i)
                if end < 0:
                    raise _Unsupported("posix class")
                self.i = end + 2
                exact = False
                continue
            if c == "\\":
                e = self.take()
                if e in _CLASS_ESCAPES:
                    if e in "pP":
                        self.skip_unicode_class_name()
                    exact = False
                    continue
                if e == "x":
                    c = self.hex_char()
                elif e in _ESCAPED_CHARS:
                    c = _ESCAPED_CHARS[e]
                elif e in string.punctuation:
                    c = e
                else:
                    raise _Unsupported(f"class escape \\{e}")
            if self.peek() == "-" and self.p[self.i + 1 : self.i + 2] not in ("]", ""):
                self.i += 1
                hi = self.take()
                if hi == "\\":
                    e = self.take()
                    if e == "x":
                        hi = self.hex_char()
                    elif e in _ESCAPED_CHARS:
                        hi = _ESCAPED_CHARS[e]
                    elif e in string.punctuation:
                        hi = e
                    else:
                        raise _Unsupported(f"class range escape \\{e}")
                if ord(hi) - ord(c) >= MAX_EXACT:
                    exact = False
                else:
                    chars.update(chr(x) for x in range(ord(c), ord(hi) + 1))
                continue
            chars.add(c)
        folded = frozenset(self.fold(c) for c in chars)
        if not exact or not folded or len(folded) > MAX_EXACT:
            return _ANY
        return _Info(folded)


def exact_strings(pattern: str, exact_case: bool) -> frozenset[str] | None:
    """The strings (at most ``MAX_EXACT``) that the text of every match of the RE2 ``pattern`` is
    one of: in their own case with ``exact_case`` (None if the pattern turns case-insensitive
    matching on), else folded. None when unknown."""
    try:
        return _Parser(pattern, exact_case=exact_case).parse().exact
    except (_Unsupported, IndexError):
        return None


def for_regex(pattern: str) -> Query:
    """The trigram query every line matching the RE2 ``pattern`` satisfies (``ALL`` if unknown)."""
    try:
        return _Parser(pattern).parse().query()
    except (_Unsupported, IndexError):
        return ALL
