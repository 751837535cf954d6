"""What the semantic build spends its embedding on: the cache, duplicates, skipped code, progress, order."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from fourfold.errors import PluginError
from fourfold.plugins import BuildContext, ModalityQuery, Segment
from fourfold.plugins.embedders import HashEmbedder
from fourfold.plugins.semantic import SemanticModality, store
from fourfold.plugins.semantic.cache import EmbeddingCache, text_key
from fourfold.plugins.semantic.skip import only_imports, skip_reason, skipped_segments
from fourfold.plugins.types import segment_id


class Recording(HashEmbedder):
    """The hash embedder, recording every batch of documents it embeds."""

    batches: ClassVar[list[list[str]]] = []

    def embed(self, texts: list[str], input_type: Any) -> np.ndarray:
        if input_type == "document":
            Recording.batches.append(list(texts))
        return super().embed(texts, input_type)


FACTORIES = {"rec": Recording}


@pytest.fixture(autouse=True)
def _reset() -> None:
    Recording.batches = []


def seg(path: str, content: str, start: int = 1, symbol: str | None = None, repo: str = "r") -> Segment:
    end = start + content.count("\n")
    return Segment(
        id=segment_id(repo, path, start, end, symbol),
        repo=repo,
        path=path,
        language="python",
        start_line=start,
        end_line=end,
        content=content,
        content_hash=hashlib.sha256(content.encode()).hexdigest(),
        symbol=symbol,
        kind="function" if symbol else None,
        qualified_name=symbol,
    )


def embedded() -> list[str]:
    return [t for batch in Recording.batches for t in batch]


def build(segments: list[Segment], out: Path, **settings: str) -> Any:
    ctx = BuildContext(generation="g1", shard="r", repos=("r",), settings={"embedder": "rec", **settings})
    return SemanticModality(FACTORIES).build(segments, out, ctx)


def corpus() -> list[Segment]:
    body = "def retry_request(request, attempts):\n    for _ in range(attempts):\n        return request()\n"
    return [
        seg("app/a.py", body, 1, "retry_request"),
        seg("app/b.py", "def parse_config(path):\n    return open(path).read()\n", 1, "parse_config"),
        seg("app/c.py", "def load_lines(text):\n    return text.splitlines()\n", 1, "load_lines"),
        seg("app/d.py", "def send(self, request):\n    return self.retry_request(request, 3)\n", 1, "send"),
    ]


def test_cache_round_trip_and_identity_separation(tmp_path: Path) -> None:
    cache = EmbeddingCache.open(tmp_path / "c")
    assert cache is not None
    codes = np.arange(8, dtype=np.uint8).reshape(2, 4)
    vectors = np.ones((2, 3), dtype=np.float16)
    keys = [text_key("a"), text_key("b")]
    assert cache.put_many("emb/1", keys, codes, vectors)
    found = cache.get_many("emb/1", [*keys, text_key("c")])
    assert sorted(found) == sorted(keys)
    assert found[keys[1]][0].tolist() == [4, 5, 6, 7]
    assert found[keys[0]][1] is not None and found[keys[0]][1].dtype == np.float16
    assert cache.get_many("emb/2", keys) == {}  # another embedder never sees these vectors
    cache.close()
    reopened = EmbeddingCache.open(tmp_path / "c")
    assert reopened is not None and reopened.count("emb/1") == 2
    reopened.close()


def test_unusable_cache_folder_is_skipped(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert EmbeddingCache.open(blocker / "cache") is None
    # and a build naming it still builds, embedding everything
    stats = build(corpus(), tmp_path / "s", **{"semantic.cache_dir": str(blocker / "cache")})
    assert stats.segments == 4 and len(embedded()) == 4


def test_second_build_reuses_cached_embeddings_exactly(tmp_path: Path) -> None:
    cache_dir = str(tmp_path / "cache")
    build(corpus(), tmp_path / "one", **{"semantic.cache_dir": cache_dir})
    assert len(embedded()) == 4
    Recording.batches = []
    # another shard (no previous generation to reuse from): everything comes from the cache
    stats = build(corpus(), tmp_path / "two", **{"semantic.cache_dir": cache_dir})
    assert embedded() == []
    assert any("4 from the embedding cache" in n for n in stats.notes)
    one = store.read_shard(tmp_path / "one", verify=True)
    two = store.read_shard(tmp_path / "two", verify=True)
    assert np.array_equal(np.asarray(one.codes), np.asarray(two.codes))
    assert one.vectors is not None and two.vectors is not None
    assert np.array_equal(np.asarray(one.vectors), np.asarray(two.vectors))
    # and with the cache turned off, everything is embedded again
    build(corpus(), tmp_path / "three", **{"semantic.cache_dir": cache_dir, "semantic.cache": "off"})
    assert len(embedded()) == 4


def test_equal_windows_are_embedded_once_and_both_found(tmp_path: Path) -> None:
    body = "def retry_request(request, attempts):\n    return request()\n"
    twins = [seg("app/x.py", body), seg("app/x.py", body, 10), *corpus()[1:]]
    # no symbol, same path: the two windows have the same header and text
    stats = build(twins, tmp_path / "s")
    assert len(embedded()) == 4
    assert any("1 duplicates embedded once" in n for n in stats.notes)
    shard = SemanticModality(FACTORIES).load(tmp_path / "s")
    hits = shard.search(ModalityQuery("retry_request attempts", k=5)).hits
    assert {twins[0].id, twins[1].id} <= {h.segment_id for h in hits}
    Recording.batches = []
    build(twins, tmp_path / "plain", **{"semantic.dedup": "off"})
    assert len(embedded()) == 5


def test_batches_go_longest_first(tmp_path: Path) -> None:
    """Equal lengths batch together (little padding); longest first, so the rate a progress bar
    shows early is the slowest and its ETA errs long, never short."""
    segments = [seg(f"m{i}.py", "x = 1\n" * (n + 1), 1, f"f{i}") for i, n in enumerate([40, 1, 20, 5, 30, 2])]
    build(segments, tmp_path / "s", **{"semantic.embed_batch": "2"})
    lengths = [len(t) for t in embedded()]
    assert lengths == sorted(lengths, reverse=True)
    assert [len(b) for b in Recording.batches] == [2, 2, 2]
    Recording.batches = []
    build(segments, tmp_path / "u", **{"semantic.embed_batch": "2", "semantic.sort": "off"})
    assert [len(t) for t in embedded()] != sorted((len(t) for t in embedded()), reverse=True)


def test_progress_is_reported_per_batch(tmp_path: Path) -> None:
    seen: list[tuple[str, int, int]] = []
    ctx = BuildContext(
        generation="g1",
        shard="r",
        repos=("r",),
        settings={"embedder": "rec", "semantic.embed_batch": "3"},
        progress=lambda unit, done, total: seen.append((unit, done, total)),
    )
    segments = [seg(f"m{i}.py", f"def f{i}():\n    return {i}\n", 1, f"f{i}") for i in range(7)]
    SemanticModality(FACTORIES).build(segments, tmp_path / "s", ctx)
    assert seen == [("windows", 0, 7), ("windows", 3, 7), ("windows", 6, 7), ("windows", 7, 7)]


def test_generated_vendored_minified_are_not_embedded_but_kept(tmp_path: Path) -> None:
    minified = "var a=1;" * 400
    segments = [
        *corpus(),
        seg("protos/api_pb2.py", "DESCRIPTOR = _descriptor.FileDescriptor(name='api.proto')\n"),
        seg("src/vendor/six.py", "def with_metaclass(meta, *bases):\n    return meta\n", 1, "with_metaclass"),
        seg("static/app.js", minified),
        seg("gen/models.py", "# Code generated by sqlc. DO NOT EDIT.\nclass User:\n    pass\n"),
        seg("gen/models.py", "class Account:\n    pass\n", 4, "Account"),
        # a docstring that merely mentions generation further down a file is real code
        seg("app/names.py", '"""Names."""\n\n\ndef pick():\n    """Return an auto-generated name."""\n', 1),
        # a file's imports say what it uses, not what it does; a definition that imports is embedded
        seg("app/main.go", 'package main\n\nimport (\n\t"fmt"\n\tlog "github.com/x/y"\n)\n'),
        seg("app/run.py", "import os\nfrom x import (\n    a,\n)\n", 1, "run"),
    ]
    assert skipped_segments(segments) == {
        4: "generated",
        5: "vendored",
        6: "minified",
        7: "generated",
        8: "generated",
        10: "imports",
    }
    stats = build(segments, tmp_path / "s")
    assert len(embedded()) == 6
    assert stats.segments == len(segments)
    assert any("6 segments not embedded (3 generated, 1 imports, 1 minified, 1 vendored)" in n for n in stats.notes)
    files = store.read_shard(tmp_path / "s", verify=True)
    assert len(files.segments) == len(segments)
    assert set(files.windows[:, 0].tolist()) == {0, 1, 2, 3, 9, 11}
    # everything is embedded with semantic.skip=off
    Recording.batches = []
    build(segments, tmp_path / "all", **{"semantic.skip": "off"})
    assert len(embedded()) == len(segments)
    assert skip_reason(seg("lib/tool.py", "def run():\n    return 1\n")) is None
    assert skip_reason(seg("lib/tool.py", "import os\nX = os.sep\n")) is None  # imports and code


def test_bad_flag_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match=r"semantic.dedup must be on or off, got 'maybe'"):
        build(corpus(), tmp_path / "s", **{"semantic.dedup": "maybe"})


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("from __future__ import annotations\n\nfrom a import (\n    b,\n    c,\n)\nimport os\n", True),
        ("'use strict';\n\nconst express = require('express');\nimport {\n  c,\n} from './y';\n", True),
        ("export * from './a';\nexport { b } from './b';\n", True),
        ('package main\n\nimport (\n\t"fmt"\n)\n', True),
        ("use std::io;\nuse crate::{\n    a,\n};\npub mod walk;\n", True),
        ("package com.x;\n\nimport java.util.List;\nimport static org.junit.Assert.*;\n", True),
        ('// helpers\n#include <stdio.h>\n#include "x.h"\n', True),
        ("# Copyright 2024\nimport os\n", True),  # a licence header above the imports
        ('package pool\n\nimport "time"\n\n// Drain closes the pool.\n', False),  # what follows, documented
        ("import os\nX = 1\n", False),
        ('"""The module."""\nimport os\n', False),  # a module docstring is worth embedding
        ("import os\nif os.name == 'nt':\n    import ntpath\n", False),
        ("const x = require('x');\nmodule.exports = x;\n", False),
        ("\n\n", False),
    ],
)
def test_only_imports(content: str, expected: bool) -> None:
    assert only_imports(content) is expected
