"""One way to open an ONNX Runtime session and its tokenizer: CPU, explicit threads, full graph opts."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.errors import MissingDependency


def open_session(model: Path, tokenizer: Path, threads: int) -> tuple[Any, Any]:
    """(InferenceSession, tokenizers.Tokenizer) for a model file; imports stay lazy."""
    try:
        import onnxruntime as ort
        from tokenizers import Tokenizer
    except ImportError as exc:  # pragma: no cover - core dependencies
        raise MissingDependency("onnxruntime", "core") from exc
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
    return session, Tokenizer.from_file(str(tokenizer))


def score_pairs(
    session: Any, tok: Any, inputs: set[str], pairs: Sequence[tuple[str, str]], batch: int
) -> list[float]:
    """A cross-encoder's first logit for each (query, passage) pair: pairs of similar length batched
    together (padded to the batch's longest, masked), in the order given. `inputs`: the graph's input
    names (some exports take no token_type_ids)."""
    import numpy as np

    out = np.zeros(len(pairs), dtype=np.float32)
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
    for start in range(0, len(order), batch):
        idx = order[start : start + batch]
        encodings = tok.encode_batch([pairs[i] for i in idx])
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(idx), width), dtype=np.int64)
        mask, types = np.zeros_like(ids), np.zeros_like(ids)
        for row, enc in enumerate(encodings):
            n = len(enc.ids)
            ids[row, :n], mask[row, :n], types[row, :n] = enc.ids, 1, enc.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        logits = session.run(None, {k: v for k, v in feeds.items() if k in inputs})[0]
        out[idx] = np.asarray(logits, dtype=np.float32).reshape(len(idx), -1)[:, 0]
    return [float(v) for v in out]
