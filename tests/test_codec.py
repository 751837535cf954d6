"""zstd contexts are kept per thread: the stores' compressed parts read and write correctly from
many threads at once (one context shared by threads crashed the process or read a sound shard
as corrupt)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from fourfold.index.filecache import decode_segments, encode_segments
from fourfold.index.ingest.segment import segment_file
from fourfold.index.segdb import FileText, encode_file_text
from fourfold.plugins.codec import compress, compressor, decompress, decompressor
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.structural.plugin import StructuralModality

SOURCES = sorted((Path(__file__).resolve().parents[1] / "plugins" / "structural").glob("*.py"))
THREADS = 8


def _hammer(work: Callable[[], Any], rounds: int = 25) -> list[Any]:
    """``work`` run ``rounds`` times on each of ``THREADS`` threads started together."""
    start = threading.Barrier(THREADS)

    def run() -> list[Any]:
        start.wait()
        return [work() for _ in range(rounds)]

    with ThreadPoolExecutor(THREADS) as pool:
        return [r for f in [pool.submit(run) for _ in range(THREADS)] for r in f.result()]


def test_each_thread_has_its_own_contexts() -> None:
    mine = (compressor(9), compressor(3), decompressor())
    assert compressor(9) is mine[0] and decompressor() is mine[2] and mine[0] is not mine[1]
    with ThreadPoolExecutor(1) as pool:
        theirs = pool.submit(lambda: (compressor(9), decompressor())).result()
    assert theirs[0] is not mine[0] and theirs[1] is not mine[2]
    assert decompress(compress(b"abc" * 1000, 9)) == b"abc" * 1000


def test_segment_texts_compress_and_read_back_from_many_threads() -> None:
    files = [p.read_bytes() for p in SOURCES]
    stored = [encode_file_text(data, block_bytes=1024) for data in files]
    assert _hammer(lambda: [encode_file_text(data, block_bytes=1024) for data in files], rounds=5) == [stored] * (
        THREADS * 5
    )

    def read_all() -> list[str]:  # fresh objects: every block is decompressed again
        return [
            FileText(blob, blocks).content(1, data.count(b"\n") + 1)
            for (blob, blocks), data in zip(stored, files, strict=True)
        ]

    expected = read_all()
    assert expected[0].splitlines() == files[0].decode().splitlines()
    assert all(texts == expected for texts in _hammer(read_all))


def test_cached_segments_decode_from_many_threads() -> None:
    cases = []
    for p in SOURCES:
        data = p.read_bytes()
        segments = segment_file("r", p.name, "python", data).segments
        cases.append((encode_segments(segments, "r", p.name, "python", data), p.name, data))
    expected = [decode_segments(value, "r", name, "python", data) for value, name, data in cases]
    assert all(
        got == expected
        for got in _hammer(lambda: [decode_segments(value, "r", name, "python", data) for value, name, data in cases])
    )


def test_a_structural_shard_reads_its_signatures_from_many_threads(tmp_path: Path) -> None:
    segments = [s for p in SOURCES for s in segment_file("r", p.name, "python", p.read_bytes()).segments]
    StructuralModality().build(segments, tmp_path, BuildContext("g1", "r", ("r",)))
    shard = StructuralModality().load(tmp_path)
    files = [row[0] for row in shard._db().execute("SELECT id FROM files WHERE signatures IS NOT NULL")]
    assert files
    expected = [shard._read_signatures(f) for f in files]
    assert all(got == expected for got in _hammer(lambda: [shard._read_signatures(f) for f in files]))


def test_graph_facts_parse_alike_from_many_threads() -> None:
    """Each thread parses with its own tree-sitter parser (a shared one is not thread-safe)."""
    from fourfold.plugins.graph import parse

    sources = [p.read_bytes() for p in SOURCES]
    expected = [parse._parse(s, "python") for s in sources]  # the parse itself, not the facts caches
    assert all(got == expected for got in _hammer(lambda: [parse._parse(s, "python") for s in sources], rounds=3))


def test_per_thread_objects_are_made_once_per_thread_and_key() -> None:
    from fourfold.plugins.per_thread import PerThread

    made: list[tuple[int, str]] = []
    kept: PerThread[str, object] = PerThread(lambda key: made.append((threading.get_ident(), key)) or object())
    here = kept.get("a")
    assert kept.get("a") is here and kept.get("b") is not here
    with ThreadPoolExecutor(1) as pool:
        there = pool.submit(kept.get, "a").result()
    assert there is not here
    assert len(made) == 3 and len({ident for ident, _ in made}) == 2


@pytest.mark.parametrize("block_bytes", [4, 1 << 16])
def test_a_files_line_count_is_its_lines_as_sed_numbers_them(block_bytes: int) -> None:
    for data, lines in ((b"a\nb\n", 2), (b"a\nb\n\n\n", 4), (b"a\nb", 2), (b"a\r\nb\r\n\r\n", 3), (b"", 0)):
        stored = FileText(*encode_file_text(data, block_bytes=block_bytes))
        assert stored.line_count() == lines == len(data.splitlines()), data
        assert stored.ends_in_newline() is (not data or data.endswith(b"\n")), data  # wc -l counts the newlines


def test_a_files_count_and_its_last_newline_decompress_its_last_block_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from fourfold.index import segdb

    calls: list[int] = []
    real = segdb.decompress
    monkeypatch.setattr(segdb, "decompress", lambda part: calls.append(len(part)) or real(part))
    for data in (b"retry()\n" * 5000, b"retry()\n" * 5000 + b"end"):
        for count_first in (True, False):  # either question asked first
            calls.clear()
            stored = FileText(*encode_file_text(data))
            if count_first:
                assert stored.line_count() == len(data.splitlines())
            assert stored.ends_in_newline() is data.endswith(b"\n")
            assert stored.line_count() == len(data.splitlines())
            assert len(calls) == 1, (count_first, calls)  # one compressed block, decompressed once
