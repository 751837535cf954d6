"""Ingestion: walking as git sees files, skip reasons, language detection, segmentation, generations."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fourfold.errors import IndexLocked, InvalidInput, InvalidPath, NoIndex
from fourfold.index.generation import build_generation
from fourfold.index.ingest.languages import detect_language
from fourfold.index.ingest.segment import owner_of_line, segment_file
from fourfold.index.ingest.walk import read_source, walk_repository
from fourfold.index.store import IndexStore


@pytest.mark.parametrize("git", [False, True])
def test_walk_honours_gitignore(sample_repo: Path, git: bool) -> None:
    if git:
        subprocess.run(["git", "init", "-q", str(sample_repo)], check=True)
    files = {f.path for f in walk_repository(sample_repo).files}
    assert "app/config.py" in files and "web/server.js" in files
    assert "ignored/secret.py" not in files and "debug.log" not in files


def test_skip_reasons(sample_repo: Path) -> None:
    reasons = {}
    for f in walk_repository(sample_repo).files:
        data, reason = read_source(f)
        if data is None:
            reasons[f.path] = reason
    assert reasons == {"assets/logo.png": "binary", "big.min.js": "too_large"}


def test_missing_and_unreadable_paths(tmp_path: Path) -> None:
    with pytest.raises(InvalidPath, match="does not exist"):
        walk_repository(tmp_path / "nope")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InvalidPath, match="not a folder"):
        walk_repository(tmp_path / "file")


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("a.py", "python"),
        ("a.ts", "typescript"),
        ("a.tsx", "tsx"),
        ("a.go", "go"),
        ("x/Main.java", "java"),
        ("lib.rs", "rust"),
        ("a.cc", "cpp"),
        ("Makefile", "make"),
        ("notes.unknown", "text"),
    ],
)
def test_language_detection(path: str, lang: str) -> None:
    assert detect_language(path) == lang


def test_a_header_is_cpp_where_its_text_says_so() -> None:
    """A ``.h`` file with a class, a namespace, a template, an access label, a C++ library include or ``std::``
    is C++ (read as C its classes are lost); a C header, ``extern "C"`` guard and all, stays C."""
    c_header = b'#ifndef T_H\n#define T_H\n#include <stdio.h>\n#ifdef __cplusplus\nextern "C" {\n#endif\n'
    c_header += b"typedef struct table { int size; } table;\nstruct node { struct node *next; };\n"
    c_header += b"int class_of(int c);\n"
    assert detect_language("include/table.h", c_header) == "c"
    for written in (
        b"namespace leveldb {\n",
        b"class DB {\n public:\n",
        b"template <typename T>\nT max(T a, T b);\n",
        b"#include <string>\n",
        b"void f(std::string s);\n",
        b"class Iterator;\n",
    ):
        assert detect_language("include/db.h", b"// Copyright\n#pragma once\n" + written) == "cpp", written
    assert detect_language("include/db.h") == "c"  # no text: by its extension


def test_shebang() -> None:
    assert detect_language("bin/tool", b"#!/usr/bin/env python3\nprint(1)\n") == "python"


def test_segments_cover_every_line_once() -> None:
    src = Path(__file__).parent.parent.joinpath("tests", "conftest.py").read_bytes()
    seg = segment_file("r", "conftest.py", "python", src)
    lines = src.decode().split("\n")
    defs = [s for s in seg.segments if s.symbol]
    assert {s.symbol for s in defs} >= {"write_sample_repo", "sample_repo", "indexed_home", "cluster"}
    for no, text in enumerate(lines, start=1):
        if text.strip():
            assert owner_of_line(seg.segments, no) is not None, f"line {no} has no segment"


def test_nested_definitions_point_at_their_parent() -> None:
    src = b"class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"
    seg = segment_file("r", "a.py", "python", src)
    by_name = {s.symbol: s for s in seg.segments}
    assert by_name["f"].parent_id == by_name["A"].id
    assert by_name["f"].qualified_name == "A.f"
    assert owner_of_line(seg.segments, 3) is by_name["f"]


def test_generation_build_reuse_and_atomic_switch(sample_repo: Path, tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "home")
    with pytest.raises(NoIndex):
        store.require_live()
    s1 = build_generation(store, [(sample_repo, "sample")])
    assert s1.files == 6 and s1.skipped == {"binary": 1, "too_large": 1}
    assert store.live_generation() == s1.generation
    s2 = build_generation(store, [])
    assert s2.reused_files == s1.files and s2.generation > s1.generation
    reader = store.require_live()
    assert {s.modality for s in reader.shards()} >= {"semantic", "text", "structural", "graph"}
    assert json.loads((reader.root / "manifest.json").read_text())["repos"]["sample"]["files"] == 6


def test_bad_input_leaves_the_index_untouched(sample_repo: Path, tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "home")
    build_generation(store, [(sample_repo, "sample")])
    live = store.live_generation()
    with pytest.raises(InvalidPath):
        build_generation(store, [(tmp_path / "missing", None)])
    with pytest.raises(InvalidInput, match="invalid repository name"):
        build_generation(store, [(sample_repo, "a/b")])
    assert store.live_generation() == live
    assert [r.name for r in store.repos()] == ["sample"]


def test_one_build_at_a_time(sample_repo: Path, tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "home")
    with store.build_lock(), pytest.raises(IndexLocked):
        build_generation(store, [(sample_repo, "sample")])


def test_killed_build_leaves_previous_generation_live(sample_repo: Path, tmp_path: Path) -> None:
    """SIGKILL an index build midway: the previous generation stays live and the next run succeeds."""
    home = tmp_path / "home"
    store = IndexStore(home)
    first = build_generation(store, [(sample_repo, "sample")]).generation
    code = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from fourfold.index.generation import build_generation\n"
        "from fourfold.index.store import IndexStore\n"
        "def progress(update):\n"
        "    if update.stage.startswith('build:') or update.stage in ('carry', 'switch'):\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        f"build_generation(IndexStore(Path({str(home)!r})), [], progress=progress)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=300)
    assert proc.returncode == -9
    assert store.live_generation() == first
    assert list(store.generations_dir.glob(".build-*"))  # the half build is there, not live
    again = build_generation(store, [])
    assert store.live_generation() == again.generation != first
    assert not list(store.generations_dir.glob(".build-*"))


def test_generation_of_some_modalities_only(sample_repo: Path, tmp_path: Path) -> None:
    store = IndexStore(tmp_path / "home")
    summary = build_generation(store, [(sample_repo, "sample")], modalities=["text"], centrality=False)
    reader = store.require_live()
    assert [s.modality for s in reader.shards()] == ["text"]
    assert reader.shards()[0].segments == summary.segments > 0
    assert sum(1 for _ in reader.segments()) == summary.segments
    with pytest.raises(InvalidInput, match="unknown modalities \\['smell'\\]"):
        build_generation(store, [], modalities=["smell"])
