"""zstd with its compression and decompression contexts kept per thread.

python-zstandard's ``ZstdCompressor`` and ``ZstdDecompressor`` are not thread-safe: one instance
shared by threads (a worker's query threads, a build's shard threads, the coordinator's snippet
reads) crashed the process with a segmentation fault, or failed with "Data corruption detected"
on a sound structural shard, when four threads decompressed through one. Creating a context per
call is safe but costs an allocation each time (a level-9 compression context is megabytes);
these helpers keep one per thread instead.

    from fourfold.plugins.codec import compress, decompress
    packed = compress(data, level=9)       # frame with the content size, no checksum
    data = decompress(packed)
"""

from __future__ import annotations

import zstandard

from fourfold.plugins.per_thread import PerThread

__all__ = ["compress", "compressor", "decompress", "decompressor"]

_compressors: PerThread[int, zstandard.ZstdCompressor] = PerThread(
    lambda level: zstandard.ZstdCompressor(level=level, write_content_size=True, write_checksum=False)
)
_decompressors: PerThread[None, zstandard.ZstdDecompressor] = PerThread(lambda _: zstandard.ZstdDecompressor())


def compressor(level: int) -> zstandard.ZstdCompressor:
    """This thread's compression context for ``level`` (the frame records the content size, no checksum)."""
    return _compressors.get(level)


def decompressor() -> zstandard.ZstdDecompressor:
    """This thread's decompression context."""
    return _decompressors.get(None)


def compress(data: bytes, level: int) -> bytes:
    return compressor(level).compress(data)


def decompress(data: bytes) -> bytes:
    return decompressor().decompress(data)
