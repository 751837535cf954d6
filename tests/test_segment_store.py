"""The segment databases keep each file's text once and segments as line ranges
(``fourfold.index.segdb``), and the catalog's file cache keeps no segment text
(``fourfold.index.filecache``): every reader must still see exactly the ``Segment`` values the
segmenter made, which the format-1 layout stored verbatim.

Differential: real fixture repositories are indexed (real SQLite, the registry's tree-sitter
extractor, the centrality hook), and what the generation answers is compared with the segments
``segment_file`` cuts from the files directly, on a fresh build, on a rebuild from the file
cache, on a fork reusing another repository's segments, and on a generation whose databases are
in the format-1 layout.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import write_sample_repo
from hypothesis import given, settings
from hypothesis import strategies as st

from fourfold.errors import CorruptIndex
from fourfold.index import segdb
from fourfold.index.filecache import decode_segments, encode_segments
from fourfold.index.generation import build_generation
from fourfold.index.ingest.languages import detect_language
from fourfold.index.ingest.segment import content_hash, segment_file, split_lines
from fourfold.index.ingest.walk import read_source, walk_repository
from fourfold.index.segdb import FileText, SegmentWriter, encode_file_text, open_segment_db, slice_lines
from fourfold.index.store import GenerationReader, IndexStore
from fourfold.plugins.manager import get_registry
from fourfold.plugins.types import Segment

FIXTURES = Path(__file__).parent / "fixtures"


def _repos(tmp_path: Path) -> list[tuple[Path, str]]:
    """Real code with nested definitions (classes and their methods), several languages, stubs-like files."""
    out = []
    for name, src in (("pyapp", FIXTURES / "graph" / "pyapp"), ("structural", FIXTURES / "structural")):
        dest = tmp_path / "src" / name
        shutil.copytree(src, dest)
        out.append((dest, name))
    out.append((write_sample_repo(tmp_path / "src" / "sample"), "sample"))
    return out


def _expected(root: Path, repo: str) -> list[Segment]:
    """What the segmenter cuts from the repository's files, in the readers' order (path, start, longest first)."""
    out: list[Segment] = []
    for f in walk_repository(root).files:
        data, _ = read_source(f)
        if data is None:
            continue
        out.extend(segment_file(repo, f.path, detect_language(f.path, data[:128]), data).segments)
    return sorted(out, key=lambda s: (s.path, s.start_line, -s.end_line))


def _ordered(segments: Iterable[Segment]) -> list[Segment]:
    return sorted(segments, key=lambda s: (s.path, s.start_line, -s.end_line, s.id))


def _check_reads_exactly(reader: GenerationReader, repo: str, expected: list[Segment]) -> None:
    """Every read path of ``reader`` answers ``expected`` for ``repo``: streamed, per file, by id, paths."""
    streamed = list(reader.segments(repos=[repo]))
    assert _ordered(streamed) == _ordered(expected)
    assert [(s.path, s.start_line, -s.end_line) for s in streamed] == sorted(
        (s.path, s.start_line, -s.end_line) for s in expected
    )
    by_file: dict[str, list[Segment]] = {}
    for s in expected:
        by_file.setdefault(s.path, []).append(s)
    for path, segs in by_file.items():
        assert _ordered(reader.segments(files=[f"{repo}\0{path}"])) == _ordered(segs)
    assert reader.paths(repo) == sorted(by_file)
    rows = reader.segment_rows([s.id for s in expected], repos=[repo])
    assert rows == {s.id: s for s in expected}
    centrality = get_registry().pm.hook.fourfold_compute_centrality(segments=expected, settings={}) or {}
    assert reader.centrality([s.id for s in expected], repos=[repo]) == {
        s.id: pytest.approx(float(centrality.get(s.id, 0.0))) for s in expected
    }


@pytest.mark.parametrize("kept", [(64, 4 << 20), (2, 4 << 20), (64, 4)], ids=["kept", "two-files", "too-big"])
def test_every_read_path_answers_the_segmenters_segments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: tuple[int, int]
) -> None:
    # the texts a database keeps for lookups by id: the default, evicting, never keeping one
    monkeypatch.setattr(segdb, "_KEPT_FILES", kept[0])
    monkeypatch.setattr(segdb, "_KEPT_BYTES", kept[1])
    repos = _repos(tmp_path)
    store = IndexStore(tmp_path / "home")
    build_generation(store, repos, modalities=["text"])
    reader = store.require_live()
    assert reader.manifest["segments_format"] == segdb.SEGMENTS_FORMAT
    nested = 0
    for root, name in repos:
        expected = _expected(root, name)
        nested += sum(s.parent_id is not None for s in expected)
        _check_reads_exactly(reader, name, expected)
        _check_reads_exactly(reader, name, expected)  # again, with what the first reads kept
        with sqlite3.connect(reader.segment_db(name)) as conn:  # stored as ranges: no segment kept whole
            assert conn.execute("SELECT count(*) FROM segments WHERE exact IS NOT NULL").fetchone() == (0,)
            assert conn.execute("PRAGMA user_version").fetchone() == (segdb.SEGMENTS_FORMAT,)
    assert nested > 5  # the fixtures have classes with methods: the nesting the layout no longer duplicates


def test_the_file_cache_and_a_fork_give_back_the_same_segments(tmp_path: Path) -> None:
    repos = _repos(tmp_path)
    store = IndexStore(tmp_path / "home")
    build_generation(store, repos, modalities=["text"])
    root = repos[0][0]
    touched = next(p for p in sorted(root.rglob("*.py")) if p.read_text().strip())
    touched.write_text(touched.read_text() + "\n\ndef added_later(x):\n    return x\n")
    fork = tmp_path / "src" / "fork"
    shutil.copytree(repos[1][0], fork)
    summary = build_generation(store, [(fork, "fork")], modalities=["text"])
    assert summary.reused_files > 0  # unchanged files came from the cache, the fork's from another repository
    reader = store.require_live()
    for r, n in [*repos, (fork, "fork")]:
        _check_reads_exactly(reader, n, _expected(r, n))
    with sqlite3.connect(store.home / "catalog.sqlite") as conn:
        kinds = {type(v) for (v,) in conn.execute("SELECT segments FROM file_cache")}
    assert kinds == {bytes}  # compressed, without the text


def _legacy_db(path: Path, segments: Iterable[Segment], centrality: dict[str, float]) -> None:
    """A segment database as format 1 wrote it: every column, the content included."""
    path.unlink()
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE segments (
                id TEXT PRIMARY KEY, repo TEXT NOT NULL, path TEXT NOT NULL, language TEXT NOT NULL,
                start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, content TEXT NOT NULL,
                content_hash TEXT NOT NULL, symbol TEXT, kind TEXT, signature TEXT, qualified_name TEXT,
                parent_id TEXT, centrality REAL NOT NULL DEFAULT 0);
            CREATE INDEX segments_file ON segments(repo, path);
            CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER NOT NULL);
            """
        )
        conn.executemany(
            "INSERT INTO segments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*(getattr(s, f) for f in Segment.__slots__), centrality.get(s.id, 0.0)) for s in segments],
        )
    conn.close()


def test_a_generation_in_the_old_layout_reads_the_same_and_the_next_build_rewrites_it(tmp_path: Path) -> None:
    repos = _repos(tmp_path)
    store = IndexStore(tmp_path / "home")
    build_generation(store, repos, modalities=["text"])
    live = store.require_live()
    for root, name in repos:
        expected = _expected(root, name)
        _legacy_db(live.segment_db(name), expected, live.centrality([s.id for s in expected], repos=[name]))
    manifest = live.root / "manifest.json"
    manifest.write_text(
        manifest.read_text().replace(f'"carry_key": "{live.manifest["carry_key"]}"', '"carry_key": "v1"')
    )
    old = store.require_live()
    places = {}
    for root, name in repos:
        _check_reads_exactly(old, name, _expected(root, name))
        legacy = open_segment_db(old.segment_db(name), name)
        places[name] = sorted(legacy.places())
        legacy.close()
    build_generation(store, [], modalities=["text"])  # another carry key: nothing is linked from the old layout
    new = store.require_live()
    assert new.name != old.name
    for root, name in repos:
        assert new.segment_db(name).stat().st_ino != old.segment_db(name).stat().st_ino
        with sqlite3.connect(new.segment_db(name)) as conn:
            assert conn.execute("PRAGMA user_version").fetchone() == (segdb.SEGMENTS_FORMAT,)
        _check_reads_exactly(new, name, _expected(root, name))
        packed = open_segment_db(new.segment_db(name), name)
        assert sorted(packed.places()) == places[name]  # what revision deltas match on, in both layouts
        packed.close()


def test_a_database_of_a_newer_format_is_refused_not_misread(tmp_path: Path) -> None:
    repos = _repos(tmp_path)[:1]
    store = IndexStore(tmp_path / "home")
    build_generation(store, repos, modalities=["text"])
    live = store.require_live()
    with sqlite3.connect(live.segment_db("pyapp")) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(CorruptIndex, match=r"format 99.*upgrade fourfold, or rebuild"):
        list(store.require_live().segments(repos=["pyapp"]))


def test_what_cannot_be_derived_is_kept_whole(tmp_path: Path) -> None:
    data = b"class A:\n    def f(self):\n        return 1\n\n\nx = 2\n"
    lines = split_lines(data.decode())
    plain = Segment(
        "0a" * 10, "r", "a.py", "python", 1, 3, slice_lines(lines, 1, 3), content_hash("\n".join(lines[:3]))
    )
    odd = [
        replace(plain, id="not-hex", start_line=2, end_line=3, content=slice_lines(lines, 2, 3)),
        replace(plain, id="0b" * 10, content="edited"),  # a content that is not the slice
        replace(plain, id="0c" * 10, content_hash="other"),
        replace(plain, id="0d" * 10, language="text"),
        replace(plain, id="0E" * 10),  # upper-case hex: would come back lower-cased
        replace(plain, id="0f" * 10, parent_id="parent-not-hex", start_line=6, end_line=6, content="x = 2"),
        replace(plain, id="10" * 10, symbol="A", qualified_name="m::A", signature="123"),  # not derivable
        replace(plain, id="11" * 10, symbol="f", qualified_name="A.f", signature="def f(self)"),  # derivable
        replace(plain, id="12" * 10, symbol="A", qualified_name=None, signature="class A"),
        replace(plain, id="13" * 10, symbol=None, qualified_name="orphan", signature=""),
    ]
    odd[-1] = replace(odd[-1], content_hash=content_hash("x = 2"))
    segments = [plain, *odd]
    path = tmp_path / "r.sqlite"
    writer = SegmentWriter(path, "r")
    writer.add_file("a.py", len(data), "python", data, segments)
    writer.add_file("empty.py", 0, "python", b"", [])
    writer.set_centrality({plain.id: 0.5, "not-hex": 0.25})
    writer.finish()
    db = open_segment_db(path, "r")
    try:
        assert _ordered(db.repo_segments("r")) == _ordered(segments)
        assert _ordered(db.rows([s.id for s in segments])) == _ordered(segments)
        assert dict(db.centrality([plain.id, "not-hex", "0b" * 10])) == {plain.id: 0.5, "not-hex": 0.25, "0b" * 10: 0}
        assert db.paths("r") == ["a.py"]  # a file without segments is listed in files only
    finally:
        db.close()
    with sqlite3.connect(path) as conn:  # the derivable one is stored as an offset and a prefix
        stored = conn.execute("SELECT signature, qualified_name, exact FROM segments WHERE id = ?", (b"\x11" * 10,))
        assert stored.fetchone() == ((len("class A: ") << 12) | len("def f(self)"), "A", None)
    conn.close()
    db = open_segment_db(path, "r")
    try:
        assert {s.id: s for s in db.rows(["11" * 10, "10" * 10])} == {
            s.id: s for s in segments if s.id in ("10" * 10, "11" * 10)
        }
    finally:
        db.close()


lines_strategy = st.lists(
    st.text(alphabet=st.sampled_from("ab \t\r€😀"), max_size=40),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(
    lines=lines_strategy,
    trailing=st.booleans(),
    block=st.integers(1, 64),
    start=st.integers(-2, 70),
    span=st.integers(-3, 70),
)
def test_blocks_slice_as_the_segmenter_does(
    lines: list[str], trailing: bool, block: int, start: int, span: int
) -> None:
    text = "\n".join(lines) + ("\n" if trailing and lines else "")
    data = text.encode()
    stored = FileText(*encode_file_text(data, block))  # many blocks: a range crosses their edges
    whole = split_lines(text)
    assert stored.lines() == whole
    end = start + span
    if start >= 1 and end >= 0:  # the ranges a segment has (a reversed one is empty)
        assert stored.content(start, end) == slice_lines(whole, start, end)


def test_the_cache_entry_leaves_out_what_the_file_gives_back() -> None:
    data = (FIXTURES / "structural" / "auth.py").read_bytes()
    segs = list(segment_file("r", "auth.py", "python", data).segments)
    packed = encode_segments(segs, "r", "auth.py", "python", data)
    assert [Segment(**d) for d in decode_segments(packed, "r", "auth.py", "python", data)] == segs
    assert len(packed) * 4 < sum(len(s.content) for s in segs)
    old = '[{"id": "x", "repo": "r", "path": "p", "language": "python", "start_line": 1, "end_line": 1, ' + (
        '"content": "c", "content_hash": "h", "symbol": null, "kind": null, "signature": null, '
        '"qualified_name": null, "parent_id": null}]'
    )
    assert decode_segments(old, "r", "p", "python", b"c\n")[0]["content"] == "c"  # rows written before: as they are


def test_the_cache_entry_derives_ids_from_places_and_keeps_the_others() -> None:
    import json
    from dataclasses import replace

    import zstandard

    data = (FIXTURES / "structural" / "auth.py").read_bytes()
    segs = list(segment_file("r", "auth.py", "python", data).segments)
    assert any(s.parent_id for s in segs)
    packed = encode_segments(segs, "r", "auth.py", "python", data)
    rows = json.loads(zstandard.ZstdDecompressor().decompress(packed))
    assert not any("id" in d or "parent_id" in d for d in rows)  # every id is its place's, every parent in the file
    assert [Segment(**d) for d in decode_segments(packed, "r", "auth.py", "python", data)] == segs
    # an id that is not its place's and a parent outside the file are kept as they are
    odd = [replace(segs[0], id="not-a-place"), replace(segs[1], parent_id="elsewhere"), *segs[2:]]
    packed = encode_segments(odd, "r", "auth.py", "python", data)
    assert [Segment(**d) for d in decode_segments(packed, "r", "auth.py", "python", data)] == odd
