"""Sentence embeddings with ONNX Runtime and the `tokenizers` library (no torch at run time)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.backends.ort import open_session

Matrix = npt.NDArray[np.float32]


class OnnxEmbedder:
    """Loads lazily on first use, behind a lock; thread-safe afterwards (ORT sessions are)."""

    def __init__(
        self, model: Path, tokenizer: Path, max_tokens: int = 256, threads: int = 2, batch_size: int = 16
    ) -> None:
        self.model_path = model
        self.tokenizer_path = tokenizer
        self.max_tokens = max_tokens
        self.threads = threads
        self.batch_size = batch_size
        self._dim: int | None = None  # read from the model's output when it loads
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                session, tok = open_session(self.model_path, self.tokenizer_path, self.threads)
                tok.enable_truncation(self.max_tokens)
                tok.no_padding()
                self._session, self._tokenizer = session, tok
                self._dim = _output_width(session, "sentence_embedding")
        return self._session, self._tokenizer

    @property
    def dim(self) -> int:
        """The width of the model's sentence embedding (loads the model)."""
        self._load()
        if self._dim is None:  # the graph leaves it open: measure one embedding
            feeds, session = self._batch(["width"])
            self._dim = int(session.run(["sentence_embedding"], feeds)[0].shape[-1])
        return self._dim

    def count_tokens(self, texts: list[str]) -> list[int]:
        """Wordpiece counts without truncation (used to report how many chunks exceed the window)."""
        _, tok = self._load()
        with self._lock:
            tok.no_truncation()
            tok.no_padding()
            try:
                return [len(e.ids) for e in tok.encode_batch(texts)]
            finally:
                tok.enable_truncation(self.max_tokens)

    def _batch(self, texts: list[str]) -> tuple[dict[str, Any], Any]:
        session, tok = self._load()
        encodings = tok.encode_batch(texts)
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, enc in enumerate(encodings):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        return feeds, session

    def embed(self, texts: list[str]) -> Matrix:
        """L2-normalised float32 vectors, one row per text. Batches are length-sorted to pad less."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            feeds, session = self._batch([texts[i] for i in idx])
            out[idx] = session.run(["sentence_embedding"], feeds)[0]
        return out

    def token_vectors(self, texts: list[str], batch_size: int | None = None) -> list[Matrix]:
        """Per-token normalised vectors (padding removed), for late-interaction scoring."""
        out: list[Matrix] = [np.zeros((0, self.dim), dtype=np.float32)] * len(texts)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        step = batch_size or self.batch_size
        for start in range(0, len(order), step):
            idx = order[start : start + step]
            feeds, session = self._batch([texts[i] for i in idx])
            tokens = session.run(["token_embeddings"], feeds)[0]
            lengths = feeds["attention_mask"].sum(axis=1)
            for row, (i, n) in enumerate(zip(idx, lengths, strict=True)):
                out[i] = tokens[row, : int(n)].astype(np.float32)
        return out


def _output_width(session: Any, name: str) -> int | None:
    """The last dimension of a model output as the ONNX graph declares it, or None where it is symbolic."""
    for output in session.get_outputs():
        if output.name == name and isinstance(output.shape[-1], int):
            return int(output.shape[-1])
    return None
