"""Second stage: any sentence-transformers style cross-encoder exported to ONNX (one relevance logit).

Pairs are (query, window) where the window is the query-focused part of the candidate (the sentences
around the query's terms, WINDOW_TOKENS wordpieces), batched, with threads set: scoring whole 256-token
chunks would cost ~110 ms a pair here. Runs with onnxruntime and `tokenizers` only (no torch).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from engine.backends.ort import open_session
from engine.backends.ort import score_pairs as ort_score_pairs
from engine.backends.packing import best_window
from engine.events import Hit

WINDOW_TOKENS = 128
MAX_PAIR_TOKENS = 256


class CrossEncoderReranker:
    name = "cross-encoder"
    fuse = False

    def __init__(
        self,
        model: Path,
        tokenizer: Path,
        threads: int = 2,
        window_tokens: int = WINDOW_TOKENS,
        batch_size: int = 16,
    ) -> None:
        self.model_path = model
        self.tokenizer_path = tokenizer
        self.threads = threads
        self.window_tokens = window_tokens
        self.batch_size = batch_size
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: set[str] = set()

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                session, tok = open_session(self.model_path, self.tokenizer_path, self.threads)
                tok.enable_truncation(MAX_PAIR_TOKENS, strategy="only_second")
                tok.no_padding()
                self._inputs = {i.name for i in session.get_inputs()}
                self._session, self._tokenizer = session, tok
        return self._session, self._tokenizer

    def _count(self, text: str) -> int:
        return max(1, len(text) // 4)

    def score_pairs(self, query: str, passages: list[str]) -> list[float]:
        session, tok = self._load()
        return ort_score_pairs(session, tok, self._inputs, [(query, p) for p in passages], self.batch_size)

    def __call__(self, query: str, hits: list[Hit]) -> list[float]:
        windows = [best_window(h.text, query, self._count, self.window_tokens) for h in hits]
        return self.score_pairs(query, windows)


class CrossEncoderFusion(CrossEncoderReranker):
    """The cross-encoder's order as a third list: RRF(BM25, dense, cross-encoder), fused by the search."""

    name = "cross-encoder-rrf"
    fuse = True
