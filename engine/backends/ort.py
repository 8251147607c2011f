"""One way to open an ONNX Runtime session and its tokenizer: CPU, explicit threads, full graph opts."""

from __future__ import annotations

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
