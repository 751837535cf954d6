"""Compact on-disk structures: posting lists and string tables, memory-mapped on load.

Posting lists are sorted keys, offsets, and delta-coded ids of 1, 2 or 4 bytes.

Each list stores the gaps between its sorted ids (the first gap is the first id) in the narrowest
little-endian width that holds its largest gap, so dense lists of common keys cost a byte per id.
Decoding one list is a ``frombuffer`` and a ``cumsum``. The ids are a ``.bin`` file, memory-mapped
on load; the keys, byte offsets and widths (one each per list) are one zstd-packed table
(``write_arrays``: the sorted keys and offsets as gaps, each in its narrowest type), read whole
into memory. Lists written before that kept them as ``.npy`` files, still read.

String tables are either a plain UTF-8 blob plus offsets (``write_strings``) or, packed, one zstd
frame holding the count, each string's length and the blob (``write_packed_strings``): names and
sorted terms compress several times over, and a table is read whole into memory on load anyway.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from fourfold.plugins.codec import compress, decompress

__all__ = [
    "PostingLists",
    "SparseBytes",
    "StringTable",
    "narrowest",
    "read_arrays",
    "write_arrays",
    "write_packed_strings",
    "write_postings",
    "write_sparse_bytes",
    "write_strings",
]

_DTYPES: dict[int, np.dtype[np.unsignedinteger[Any]]] = {1: np.dtype("<u1"), 2: np.dtype("<u2"), 4: np.dtype("<u4")}
#: The largest key an unsigned key table of each item size holds.
_KEY_MAX = {n: (1 << (8 * n)) - 1 for n in (1, 2, 4, 8)}


def _offset_dtype(total: int) -> np.dtype[np.unsignedinteger]:
    """The narrowest offset type for ``total`` bytes: most shards fit 32 bits."""
    return np.dtype(np.uint32) if total < 1 << 32 else np.dtype(np.uint64)


def write_postings(
    directory: Path,
    name: str,
    keys: npt.NDArray[np.uint64],
    ids: npt.NDArray[np.uint32],
    key_dtype: npt.DTypeLike = np.uint32,
    dense_keys: bool = False,
) -> int:
    """Write the lists of (key, id) pairs sorted by key then id, ids unique per key; bytes written.

    With ``dense_keys`` the keys are exactly 0..n-1 (one list each) and are not stored.
    """
    n = keys.size
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if n else np.empty(0, dtype=np.int64)
    gaps = ids.astype(np.int64)
    gaps[1:] -= ids[:-1].astype(np.int64)
    gaps[starts] = ids[starts]
    lengths = np.diff(np.r_[starts, n])
    list_max = np.maximum.reduceat(gaps, starts) if n else np.empty(0, dtype=np.int64)
    width = np.where(list_max < 1 << 8, 1, np.where(list_max < 1 << 16, 2, 4)).astype(np.uint8)
    byte_len = lengths * width
    offsets = np.zeros(starts.size + 1, dtype=np.int64)
    np.cumsum(byte_len, out=offsets[1:])
    offsets = offsets.astype(_offset_dtype(int(offsets[-1])))
    data = np.zeros(int(offsets[-1]), dtype=np.uint8)
    # each element sits at its list's byte offset plus its index within the list times the width
    elem_width = np.repeat(width, lengths).astype(np.int64)
    within = np.arange(n, dtype=np.int64) - np.repeat(starts, lengths)
    elem_pos = np.repeat(offsets[:-1].astype(np.int64), lengths) + within * elem_width
    for w in (1, 2, 4):
        sel = elem_width == w
        if not sel.any():
            continue
        vals = gaps[sel].astype(np.uint32)
        pos = elem_pos[sel]
        for b in range(w):
            data[pos + b] = (vals >> (8 * b)) & 0xFF
    list_keys = (keys[starts] if n else np.empty(0, dtype=np.uint64)).astype(key_dtype)
    if dense_keys:
        if not np.array_equal(list_keys, np.arange(list_keys.size)):
            raise ValueError(f"{name}: dense_keys given, but the keys are not 0..n-1")
        list_keys = list_keys[:0]
    index = write_arrays(
        directory / f"{name}_index.zst",
        {"keys": list_keys, "offsets": offsets, "width": width},
        sorted_=("keys", "offsets"),
    )
    data.tofile(directory / f"{name}_data.bin")
    return index + int(data.nbytes)


@dataclass(frozen=True, slots=True)
class PostingLists:
    """Memory-mapped posting lists written by ``write_postings``; safe to read from many threads."""

    keys: npt.NDArray[np.unsignedinteger]  # empty when the keys are dense (0..n-1)
    offsets: npt.NDArray[np.unsignedinteger]
    width: npt.NDArray[np.uint8]
    data: npt.NDArray[np.uint8]

    @classmethod
    def load(cls, directory: Path, name: str) -> PostingLists:
        data_path = directory / f"{name}_data.bin"
        # plain ndarray views of the maps: np.memmap's subclass hooks cost microseconds per slice
        data = (
            np.memmap(data_path, dtype=np.uint8, mode="r").view(np.ndarray)
            if data_path.stat().st_size
            else np.empty(0, dtype=np.uint8)
        )
        index = directory / f"{name}_index.zst"
        if index.exists():
            tables = read_arrays(index)
            offsets = tables["offsets"]
            return cls(
                keys=narrowest(tables["keys"]),
                offsets=offsets.astype(_offset_dtype(int(offsets[-1]) if offsets.size else 0)),
                width=tables["width"].astype(np.uint8),
                data=data,
            )
        return cls(  # written before the packed index
            # the key table is read by a binary search on every lookup: kept in memory (4 bytes a
            # key), since a search in a memory map costs page-ins and a dtype cast per call
            keys=np.load(directory / f"{name}_keys.npy"),
            offsets=np.load(directory / f"{name}_offsets.npy", mmap_mode="r").view(np.ndarray),
            width=np.load(directory / f"{name}_width.npy", mmap_mode="r").view(np.ndarray),
            data=data,
        )

    def find(self, key: int) -> int:
        """The list index of ``key``, or -1."""
        if self.keys.size == 0:
            return key if 0 <= key < self.width.size else -1
        if not 0 <= key <= _KEY_MAX.get(self.keys.dtype.itemsize, 0):
            return -1
        i = int(self.keys.searchsorted(self.keys.dtype.type(key)))
        return i if i < self.keys.size and int(self.keys[i]) == key else -1

    def size(self, index: int) -> int:
        """How many ids list ``index`` holds (without decoding it)."""
        return int(self.offsets[index + 1] - self.offsets[index]) // int(self.width[index])

    def starts(self) -> npt.NDArray[np.int64]:
        """Where each list starts, counted in ids (not bytes), and the total last: the index into
        an array kept beside the lists with one value per id (term frequencies, position masks)."""
        sizes = np.diff(self.offsets.astype(np.int64)) // np.maximum(self.width.astype(np.int64), 1)
        return np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)

    def ids(self, index: int) -> npt.NDArray[np.int64]:
        """The sorted ids of list ``index``."""
        lo, hi = int(self.offsets[index]), int(self.offsets[index + 1])
        raw = self.data[lo:hi].view(_DTYPES[int(self.width[index])])
        return np.cumsum(raw, dtype=np.int64)

    def get(self, key: int) -> npt.NDArray[np.int64]:
        """The sorted ids for ``key`` (empty when the key is absent)."""
        i = self.find(key)
        return self.ids(i) if i >= 0 else np.empty(0, dtype=np.int64)


def write_strings(directory: Path, name: str, strings: list[str]) -> int:
    """Write ``strings`` as one UTF-8 blob plus offsets; bytes written."""
    encoded = [s.encode("utf-8", "surrogatepass") for s in strings]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    offsets = offsets.astype(_offset_dtype(int(offsets[-1])))
    blob = b"".join(encoded)
    (directory / f"{name}.bin").write_bytes(blob)
    np.save(directory / f"{name}_offsets.npy", offsets)
    return len(blob) + int(offsets.nbytes)


#: zstd level of packed string tables: small, written once per build, read whole on load.
_PACK_LEVEL = 9


def write_packed_strings(directory: Path, name: str, strings: list[str]) -> int:
    """Write ``strings`` as one zstd frame (``name.zst``): the count and each string's UTF-8 length
    (little-endian uint32), then the strings joined; bytes written."""
    encoded = [s.encode("utf-8", "surrogatepass") for s in strings]
    lengths = np.array([len(b) for b in encoded], dtype="<u4")
    raw = np.array([len(encoded)], dtype="<u4").tobytes() + lengths.tobytes() + b"".join(encoded)
    packed = compress(raw, _PACK_LEVEL)
    (directory / f"{name}.zst").write_bytes(packed)
    return len(packed)


def narrowest(values: npt.ArrayLike) -> npt.NDArray[np.unsignedinteger[Any]]:
    """Non-negative integers in the narrowest unsigned type that holds them (on disk; widen on load)."""
    arr = np.asarray(values, dtype=np.int64)
    top = int(arr.max()) if arr.size else 0
    if arr.size and int(arr.min()) < 0:
        raise ValueError("narrowest: negative values")
    for dtype in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dtype).max:
            return arr.astype(dtype)
    return arr.astype(np.uint64)


def write_arrays(path: Path, arrays: Mapping[str, npt.ArrayLike], sorted_: Collection[str] = ()) -> int:
    """Write non-negative integer arrays as one zstd frame (an ``.npz`` inside), each in its
    narrowest type; those named in ``sorted_`` (non-decreasing) as their gaps, which compress far
    better. Bytes written; ``read_arrays`` gives them back as they were (``int64`` for the sorted)."""
    parts: dict[str, npt.NDArray[np.unsignedinteger[Any]]] = {}
    for name, values in arrays.items():
        arr = np.asarray(values, dtype=np.int64)
        if name in sorted_:
            parts[f"{name}.gaps"] = narrowest(np.diff(arr, prepend=0))
        else:
            parts[name] = narrowest(arr)
    buf = io.BytesIO()
    np.savez(buf, **parts)  # type: ignore[arg-type]
    packed = compress(buf.getvalue(), _PACK_LEVEL)
    path.write_bytes(packed)
    return len(packed)


def read_arrays(path: Path) -> dict[str, npt.NDArray[Any]]:
    """The arrays ``write_arrays`` wrote to ``path``, in memory."""
    raw = decompress(path.read_bytes())
    out: dict[str, npt.NDArray[Any]] = {}
    with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
        for key in npz.files:
            if key.endswith(".gaps"):
                out[key.removesuffix(".gaps")] = np.cumsum(npz[key], dtype=np.int64)
            else:
                out[key] = npz[key]
    return out


@dataclass(frozen=True, slots=True)
class StringTable:
    """A list of strings written by ``write_strings``, decoded one at a time."""

    blob: bytes
    offsets: npt.NDArray[np.unsignedinteger]

    @classmethod
    def load(cls, directory: Path, name: str) -> StringTable:
        blob = (directory / f"{name}.bin").read_bytes()  # small; bytes slice faster than a memmap
        return cls(blob=blob, offsets=np.load(directory / f"{name}_offsets.npy"))

    @classmethod
    def load_packed(cls, directory: Path, name: str) -> StringTable:
        """A table written by ``write_packed_strings``."""
        raw = decompress((directory / f"{name}.zst").read_bytes())
        n = int(np.frombuffer(raw, dtype="<u4", count=1)[0]) if raw else 0
        lengths = np.frombuffer(raw, dtype="<u4", count=n, offset=4)
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        blob = raw[4 + 4 * n :]
        if len(blob) != int(offsets[-1]):
            raise ValueError(f"{name}.zst holds {len(blob)} bytes of strings, its lengths say {int(offsets[-1])}")
        return cls(blob=blob, offsets=offsets.astype(_offset_dtype(int(offsets[-1]))))

    def __len__(self) -> int:
        return int(self.offsets.size) - 1

    def __getitem__(self, index: int) -> str:
        lo, hi = int(self.offsets[index]), int(self.offsets[index + 1])
        return self.blob[lo:hi].decode("utf-8", "surrogatepass")

    def equal(self, value: str) -> npt.NDArray[np.bool_]:
        """Which entries are ``value``, for the whole table at once (no entry decoded)."""
        want = np.frombuffer(value.encode("utf-8", "surrogatepass"), dtype=np.uint8)
        offsets = np.asarray(self.offsets, dtype=np.int64)
        starts = offsets[:-1]
        found = np.flatnonzero(offsets[1:] - starts == want.size)
        blob = np.frombuffer(self.blob, dtype=np.uint8)
        for i, byte in enumerate(want):
            found = found[blob[starts[found] + i] == byte]
        out = np.zeros(len(self), dtype=bool)
        out[found] = True
        return out

    def bisect(self, value: str) -> int:
        """Index of ``value`` in a sorted table, or -1."""
        lo, hi = 0, len(self)
        while lo < hi:
            mid = (lo + hi) // 2
            if self[mid] < value:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(self) and self[lo] == value else -1


def write_sparse_bytes(path: Path, values: npt.NDArray[np.uint8], common: int) -> int:
    """Write one byte per item, most of them ``common``, for random access (``SparseBytes``):
    a bitmap of the items that differ (little-endian 64-bit words), per word the count of them
    before it (uint32), then their values. Bytes written."""
    n = values.size
    words = (n + 63) // 64
    differ = np.zeros(words * 64, dtype=bool)
    differ[:n] = values != common
    bitmap = np.packbits(differ, bitorder="little").view("<u8")
    per_word = differ.reshape(words, 64).sum(axis=1, dtype=np.int64)
    before = (np.cumsum(per_word) - per_word).astype("<u4")
    rare = values[differ[:n]].astype(np.uint8)
    with path.open("wb") as fh:
        fh.write(bitmap.tobytes())
        fh.write(before.tobytes())
        fh.write(rare.tobytes())
    return int(bitmap.nbytes + before.nbytes + rare.nbytes)


@dataclass(frozen=True, slots=True)
class SparseBytes:
    """The bytes ``write_sparse_bytes`` wrote, memory-mapped; ``take`` reads any of them."""

    bitmap: npt.NDArray[np.uint64]
    before: npt.NDArray[np.uint32]
    rare: npt.NDArray[np.uint8]
    common: int

    @classmethod
    def load(cls, path: Path, n: int, common: int) -> SparseBytes:
        """The ``n`` bytes at ``path``; ValueError when the file does not hold ``n``."""
        words = (n + 63) // 64
        size = path.stat().st_size
        if size < 12 * words:
            raise ValueError(f"{path.name} has {size} bytes, too few for {n} items")
        raw = np.memmap(path, dtype=np.uint8, mode="r").view(np.ndarray) if size else np.empty(0, dtype=np.uint8)
        bitmap = raw[: 8 * words].view("<u8")
        before = raw[8 * words : 12 * words].view("<u4")
        rare = raw[12 * words :]
        expected = int(before[-1]) + int(np.bitwise_count(bitmap[-1])) if words else 0
        if rare.size != expected:
            raise ValueError(f"{path.name} holds {rare.size} differing bytes, its bitmap says {expected}")
        return cls(bitmap=bitmap, before=before, rare=rare, common=common)

    def take(self, index: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
        """The bytes at ``index``."""
        word = self.bitmap[index >> 6]
        bit = (index & 63).astype(np.uint64)
        held = ((word >> bit) & np.uint64(1)).astype(bool)
        out = np.full(index.size, self.common, dtype=np.uint8)
        if held.any():
            below = word[held] & ((np.uint64(1) << bit[held]) - np.uint64(1))
            rank = self.before[index[held] >> 6].astype(np.int64) + np.bitwise_count(below).astype(np.int64)
            out[held] = self.rare[rank]
        return out
