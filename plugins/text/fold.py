"""Case folding and trigram keys: the one definition shared by index builds and queries.

The index is case-folded so that one posting list serves both case-sensitive and
case-insensitive searches; the exact case check happens when candidates are verified. Folding
must map every pair of characters that ripgrep (and RE2) treat as equal under ``-i`` (Unicode
simple case folding) to the same character, or the index would wrongly rule a file out. It is
per character and length-preserving in characters, so ``fold(a + b) == fold(a) + fold(b)``.

A trigram key is three consecutive bytes of the folded UTF-8 text packed into a ``uint32``.
Trigrams that contain a newline are never indexed: matches are per line, like ripgrep's.

Offsets are byte offsets in the folded text. Folding is per character, so a case-insensitive match
of a literal is, in the folded text, an occurrence of the folded literal's bytes: a trigram at
offset ``i`` of the folded literal sits at ``P + i`` in the folded file for a match at ``P``.

Case flags (``case_flags``) say, per byte of the folded text, whether the character it starts was
an ASCII capital letter before folding. A trigram's *case pattern* is its three flags as a number
0-7 (``case_patterns``); an exact-case match of a literal puts, at ``P + i``, the literal's own
folded trigram with the literal's own case pattern, which the index records per block
(``tri_case.bin``) beside the folded trigram, as ``cindex``'s case-sensitive trigrams would.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

__all__ = [
    "NEWLINE",
    "case_flags",
    "case_patterns",
    "encode",
    "fold",
    "fold_bytes",
    "trigram_keys",
    "trigram_positions",
    "trigrams_of",
]

NEWLINE = 0x0A

#: Code points beyond the last cased script (Adlam, U+1E900..U+1E95F) have no case.
_LAST_CASED = 0x1E960


@functools.cache
def _fold_table() -> dict[int, str]:
    """Code point -> its folded form, for every code point that folding changes.

    ``str.casefold`` where it yields one character (it joins ``K``/``k``/KELVIN SIGN, ``s``/``ſ``,
    the Greek sigmas), else ``str.lower`` where that yields one character (``ẞ`` -> ``ß``).
    """
    table: dict[int, str] = {}
    for cp in range(_LAST_CASED):
        c = chr(cp)
        folded = c.casefold()
        if len(folded) != 1:
            folded = c.lower()
            if len(folded) != 1:
                continue
        if folded != c:
            table[cp] = folded
    return table


def fold(text: str) -> str:
    """Case-fold ``text`` character by character (see the module docstring)."""
    if text.isascii():
        return text.lower()
    return text.translate(_fold_table())


def encode(text: str) -> bytes:
    """UTF-8 bytes of ``text``; lone surrogates (from undecodable input) are kept, not refused."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def fold_bytes(text: str) -> bytes:
    """The folded UTF-8 bytes that trigram keys are taken from."""
    return encode(fold(text))


def trigram_keys(data: bytes) -> npt.NDArray[np.uint32]:
    """Every trigram key of ``data`` (already folded) that holds no newline, in text order, with repeats."""
    return trigram_positions(data)[0]


def trigram_positions(data: bytes) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.int64]]:
    """``trigram_keys(data)`` and the byte offset in ``data`` where each starts."""
    a = np.frombuffer(data, dtype=np.uint8)
    if a.size < 3:
        return np.empty(0, dtype=np.uint32), np.empty(0, dtype=np.int64)
    keys = ((a[:-2].astype(np.uint32) << 16) | (a[1:-1].astype(np.uint32) << 8) | a[2:].astype(np.uint32)).astype(
        np.uint32, copy=False
    )
    positions = np.arange(keys.size, dtype=np.int64)
    nl = a == NEWLINE
    if nl.any():
        keep = ~(nl[:-2] | nl[1:-1] | nl[2:])
        keys, positions = keys[keep], positions[keep]
    return keys, positions


def trigrams_of(text: str) -> tuple[int, ...]:
    """The distinct trigram keys a match of the literal ``text`` must contain (empty: too short to tell)."""
    return tuple(sorted(set(trigram_keys(fold_bytes(text)).tolist())))


def case_flags(text: str, folded: bytes, folded_text: str | None = None) -> npt.NDArray[np.uint8] | None:
    """Per byte of ``folded`` (``fold_bytes(text)``; ``folded_text``: ``fold(text)`` when in hand):
    1 where it starts a character that was an ASCII capital (A-Z) in ``text``, else 0. None when
    the folded bytes cannot be lined up with the characters (lone surrogates): the caller then
    assumes any case."""
    if text.isascii():
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        return ((raw >= 0x41) & (raw <= 0x5A)).astype(np.uint8)
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    folded_text = fold(text) if folded_text is None else folded_text
    folded_points = np.frombuffer(folded_text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    # UTF-8 length of each folded character (per character, so the same count as ``points``)
    widths = 1 + (folded_points >= 0x80) + (folded_points >= 0x800) + (folded_points >= 0x10000)
    if points.size != folded_points.size or int(widths.sum()) != len(folded):
        return None  # a lone surrogate written as one byte (surrogateescape): no per-character map
    starts = np.cumsum(widths) - widths
    flags = np.zeros(len(folded), dtype=np.uint8)
    flags[starts[(points >= 0x41) & (points <= 0x5A)]] = 1
    return flags


def case_patterns(flags: npt.NDArray[np.uint8], positions: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
    """The case pattern (0-7: the three case flags, first highest) of the trigram at each position."""
    f = flags.astype(np.uint8, copy=False)
    every = (f[:-2] << 2) | (f[1:-1] << 1) | f[2:]  # of the trigram starting at each byte
    return every[positions].astype(np.uint8, copy=False)
