"""Line matchers: a compiled RE2 program plus the trigram query that narrows its candidates.

Matching follows ripgrep: per line (a match never spans '\\n'; RE2's ``never_nl``), ``^`` and
``$`` at line boundaries, a '\\r' kept on its line. Case-insensitive matching uses RE2's Unicode
simple case folding, as ripgrep's ``-i`` does.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import re2

from fourfold.errors import InvalidQuery
from fourfold.plugins.text.fold import case_flags, case_patterns, encode, fold_bytes, trigram_positions
from fourfold.plugins.text.trigram_query import Query, exact_strings, for_literal, for_regex

__all__ = ["ANY_CASE", "Gram", "Matcher", "find_lines", "literal_matcher", "multiline_matcher", "regex_matcher"]

#: A trigram of a literal: (folded key, byte offset in the folded literal, the case patterns a
#: match may show it with: bit ``p`` for pattern ``p`` of ``fold.case_patterns``).
Gram = tuple[int, int, int]
#: Any case pattern: a case-insensitive search, or one whose case cannot be told.
ANY_CASE = 0xFF


@dataclass(frozen=True, slots=True)
class Matcher:
    """Finds the lines of a file that match; ``trigrams`` must hold for any file with a match."""

    description: str
    program: re2._Regexp
    trigrams: Query
    #: For a literal: its UTF-8 bytes (lower-cased when case-insensitive and ASCII), for ``bytes.find``.
    needle: bytes | None = None
    case_sensitive: bool = True
    #: The strings the text of every match is one of (one for a literal; a regex's when it
    #: matches only a few fixed strings), each as its trigrams (``Gram``), so that the index's
    #: position masks and case patterns can rule out blocks where no string's trigrams line up
    #: in its case. Empty: not known, or some string is shorter than a trigram.
    strings: tuple[tuple[Gram, ...], ...] = ()
    #: For a regex whose every match's text is one of a few strings (in their own case): byte
    #: strings one of which every match holds (the strings' longest common part, else each of
    #: them). A match lies on one line, so RE2 runs only on the lines where one of them occurs:
    #: ``bytes.find`` skips the rest of a block several times faster than RE2 scans it.
    starts: tuple[bytes, ...] = ()
    #: Whether a match may span lines (``rg -U``): ``lines`` is then given a whole file's text, and lists every line
    #: each match spans.
    multiline: bool = False
    #: How notes name the matcher (formatted once: every shard's answer repeats it).
    label: str = field(default="", compare=False)
    #: ``first(data, pos, endpos)``: where the first match in ``data[pos:endpos]`` starts, -1 if none.
    first: Callable[[bytes, int, int], int] = field(default=lambda data, pos, endpos: -1, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", f"{self.description} [{self.trigrams}]")
        object.__setattr__(self, "first", _first_match(self.program))

    def __str__(self) -> str:
        return self.label

    def lines(self, data: bytes, spans: list[tuple[int, int]] | None = None, want: int = 0) -> list[int]:
        """The 0-based indices of the lines of ``data`` (lines joined by '\\n') that match.

        ``spans``: filled with the (start, end) byte offsets of the first ``want`` matching lines
        (a snippet's), found from the matches rather than by splitting ``data`` again.
        """
        if self.multiline:
            return self._spanned_lines(data)
        if self.needle is not None:
            if self.case_sensitive:
                return find_lines(data, self.needle, spans, want)
            if data.isascii():  # ASCII folding is then exactly Unicode simple folding
                return find_lines(data.lower(), self.needle, spans, want)
        if self.starts:
            return self._lines_from_starts(data, spans, want)
        out: list[int] = []
        first = self.first
        size = len(data)
        pos = line = 0
        while (start := first(data, pos, size)) >= 0:
            line += data.count(b"\n", pos, start)
            out.append(line)
            end = data.find(b"\n", start)
            if spans is not None and len(spans) < want:
                spans.append((data.rfind(b"\n", 0, start) + 1, len(data) if end < 0 else end))
            if end < 0:
                break
            pos = end + 1
            line += 1
        return out

    def _spanned_lines(self, data: bytes) -> list[int]:
        """``lines`` of a multi-line matcher: every line of ``data`` (a whole file) some match spans, in order (a
        match that ends with a newline ends on that newline's line; an empty match is on its own line)."""
        out: list[int] = []
        pos = line = 0
        last = -1  # the last line listed
        size = len(data)
        while pos <= size:
            m = self.program.search(data, pos, size)
            if m is None:
                break
            start, end = m.start(), m.end()
            line += data.count(b"\n", pos, start)
            through = line + data.count(b"\n", start, max(end - 1, start))
            out.extend(range(max(line, last + 1), through + 1))
            last = max(last, through)
            line = through
            pos = max(end, start + 1)
            line += data.count(b"\n", max(end - 1, start), pos) if pos > max(end - 1, start) else 0
        if data.endswith(b"\n"):  # an empty match after the last newline is on no line of the file
            lines = data.count(b"\n")
            while out and out[-1] >= lines:
                out.pop()
        return out

    def _lines_from_starts(self, data: bytes, spans: list[tuple[int, int]] | None, want: int) -> list[int]:
        """``lines`` for a regex with ``starts``: RE2 searches each line where one of them occurs
        (a line without one cannot match), and nothing else."""
        out: list[int] = []
        first = self.first
        needles = self.starts
        nxt = [data.find(n) for n in needles]
        pos = line = 0
        while True:
            at = nxt[0] if len(nxt) == 1 else min((q for q in nxt if q >= 0), default=-1)
            if at < 0:
                break
            lo = data.rfind(b"\n", pos, at) + 1 or pos
            end = data.find(b"\n", at)
            hi = len(data) if end < 0 else end
            if first(data, lo, hi) >= 0:
                line += data.count(b"\n", pos, lo)
                out.append(line)
                if spans is not None and len(spans) < want:
                    spans.append((lo, hi))
                line += 1
            else:
                line += data.count(b"\n", pos, lo) + 1
            if end < 0:
                break
            pos = end + 1
            for i, q in enumerate(nxt):
                if 0 <= q < pos:
                    nxt[i] = data.find(needles[i], pos)
        return out

    def matches(self, text: str) -> bool:
        """Whether ``text`` (a symbol name, one line) holds a match."""
        return self.program.search(encode(text)) is not None


def _first_match(program: re2._Regexp) -> Callable[[bytes, int, int], int]:
    """``Matcher.first`` for ``program``: RE2's match call itself where the binding exposes it (the
    public ``search`` wraps it in a generator and a match object, over half the cost of a short
    search), else ``search``."""
    regexp = getattr(program, "_regexp", None)
    unanchored = getattr(getattr(re2, "_Anchor", None), "UNANCHORED", None)
    if regexp is None or unanchored is None or not hasattr(regexp, "Match"):

        def first(data: bytes, pos: int, endpos: int) -> int:
            m = program.search(data, pos, endpos)
            return -1 if m is None else int(m.start())

        return first
    match = regexp.Match

    def first_raw(data: bytes, pos: int, endpos: int) -> int:
        return int(match(unanchored, data, pos, endpos)[0][0])

    return first_raw


def find_lines(data: bytes, needle: bytes, spans: list[tuple[int, int]] | None = None, want: int = 0) -> list[int]:
    """``Matcher.lines`` for a plain byte string, with ``bytes.find``."""
    out: list[int] = []
    pos = line = 0
    while (start := data.find(needle, pos)) >= 0:
        line += data.count(b"\n", pos, start)
        out.append(line)
        end = data.find(b"\n", start)
        if spans is not None and len(spans) < want:
            spans.append((data.rfind(b"\n", 0, start) + 1, len(data) if end < 0 else end))
        if end < 0:
            break
        pos = end + 1
        line += 1
    return out


def _options(case_sensitive: bool, literal: bool) -> re2.Options:
    opts = re2.Options()
    opts.case_sensitive = case_sensitive
    opts.literal = literal
    opts.never_nl = True
    opts.log_errors = False
    return opts


@functools.lru_cache(maxsize=256)
def literal_matcher(text: str, case_sensitive: bool) -> Matcher:
    """Lines holding ``text`` as a substring (one or two characters work too: every file is scanned)."""
    program = re2.compile(encode(text), _options(case_sensitive, literal=True))
    needle: bytes | None = None
    if "\n" not in text and (case_sensitive or text.isascii()):
        needle = encode(text if case_sensitive else text.lower())
    grams = _grams(text, case_sensitive)
    strings = (grams,) if grams else ()
    return Matcher(f"literal {text!r}", program, for_literal(text), needle, case_sensitive, strings)


def _grams(text: str, case_sensitive: bool) -> tuple[Gram, ...]:
    """The trigrams of the literal ``text`` at their offsets, with the case each must show."""
    folded = fold_bytes(text)
    keys, offsets = trigram_positions(folded)
    flags = case_flags(text, folded) if case_sensitive else None
    patterns = case_patterns(flags, offsets).astype(np.int64) if flags is not None else None
    cases = [ANY_CASE] * keys.size if patterns is None else (1 << patterns).tolist()
    return tuple(zip(keys.tolist(), offsets.tolist(), cases, strict=True))


def _strings_grams(strings: frozenset[str] | None, case_sensitive: bool) -> tuple[tuple[Gram, ...], ...]:
    """``_grams`` of each string, in a fixed order; empty when one has no trigram (it rules nothing out)."""
    if not strings:
        return ()
    out = tuple(_grams(s, case_sensitive) for s in sorted(strings))
    return out if all(out) else ()


@functools.lru_cache(maxsize=256)
def regex_matcher(pattern: str, case_sensitive: bool) -> Matcher:
    """Lines matching the RE2 ``pattern``; raises InvalidQuery naming where the pattern is wrong."""
    try:
        re2.compile(encode(pattern), _options(case_sensitive=True, literal=False))
    except re2.error as exc:
        raise InvalidQuery(_regex_error(pattern, exc)) from None
    program = re2.compile(encode("(?m)" + pattern), _options(case_sensitive, literal=False))
    exact = exact_strings(pattern, exact_case=True) if case_sensitive else None
    starts: tuple[bytes, ...] = ()
    if exact is not None:
        strings = _strings_grams(exact, case_sensitive=True)
        starts = _needles(exact)
    else:  # case-insensitive, or (?i) inside: the folded strings, in any case
        strings = _strings_grams(exact_strings(pattern, exact_case=False), case_sensitive=False)
    return Matcher(f"regex {pattern!r}", program, for_regex(pattern), strings=strings, starts=starts)


@functools.lru_cache(maxsize=64)
def multiline_matcher(pattern: str, case_sensitive: bool, dotall: bool = False) -> Matcher:
    """Lines a match of the RE2 ``pattern`` spans, a match free to cross lines (``\\n``, ``\\s``; ``dotall``:
    ``.`` too), as ``rg -U`` (``--multiline-dotall``) finds them; raises InvalidQuery naming where it is wrong. Its
    trigrams are those of the pattern's parts between newlines: no indexed trigram holds one."""
    options = _options(case_sensitive, literal=False)
    options.never_nl = False
    options.dot_nl = dotall
    try:
        program = re2.compile(encode("(?m)" + pattern), options)
    except re2.error as exc:
        raise InvalidQuery(_regex_error(pattern, exc)) from None
    within_lines = re.sub(r"(?<!\\)((?:\\\\)*)\\n|\n", lambda m: (m[1] or "") + ".", pattern)  # a newline: any
    trigrams = for_regex(within_lines)  # ALL where its parser cannot tell: every file verified
    said = " --multiline-dotall" if dotall else ""
    return Matcher(f"regex {pattern!r} (-U{said})", program, trigrams, multiline=True)


def _needles(strings: frozenset[str]) -> tuple[bytes, ...]:
    """Byte strings one of which each of ``strings`` holds: their longest common part, else each
    of them; none when that leaves one under three bytes (too common to skip much)."""
    encoded = sorted({encode(s) for s in strings}, key=lambda e: (len(e), e))
    if not encoded or any(b"\n" in e for e in encoded):
        return ()
    shortest = encoded[0]
    for size in range(len(shortest), 2, -1):
        for i in range(len(shortest) - size + 1):
            part = shortest[i : i + size]
            if all(part in e for e in encoded[1:]):
                return (part,)
    return tuple(encoded) if len(shortest) >= 3 else ()


def _regex_error(pattern: str, exc: re2.error) -> str:
    """A message with RE2's reason and the position of the offending text."""
    raw = exc.args[0] if exc.args else b""
    reason = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    what, _, fragment = reason.partition(": ")
    position = pattern.rfind(fragment) if fragment else -1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            re.compile(pattern)
        except re.error as py_exc:  # Python's parser pinpoints most of the same mistakes
            if py_exc.pos is not None:
                position = py_exc.pos
    where = f"at position {position}" if position >= 0 else f"near {fragment!r}"
    return (
        f"invalid regex {pattern!r}: {what} {where} (RE2 syntax); "
        "fix the pattern, or search with mode=literal for the exact text"
    )
