"""Export a local Hugging Face cross-encoder folder (e.g. ms-marco-MiniLM-L-6-v2) to ONNX for Citeline.

Set-up only (needs the `export` extra). The traced batch contains padding so the graph honours the
attention mask (an all-ones dummy mask can produce a graph that ignores padding). The tokenizer.json is
copied beside the model; then: citeline models import OUT/model.onnx --role reranker

    python -m models.export_cross_encoder HF_FOLDER OUT_DIR
"""

from __future__ import annotations

import shutil
import sys
import warnings
from pathlib import Path
from typing import Any

from engine.errors import CiteError, MissingDependency


def export_cross_encoder(folder: Path, out_dir: Path) -> Path:
    try:
        import torch  # noqa: F401  (the export needs it)
        from transformers import AutoModelForSequenceClassification
    except ImportError as exc:
        raise MissingDependency("torch/transformers", "export") from exc
    tokenizer = folder / "tokenizer.json"
    if not tokenizer.is_file():
        raise CiteError(f"No tokenizer.json in {folder}.", "export from a folder with a fast tokenizer")
    model = AutoModelForSequenceClassification.from_pretrained(
        str(folder), attn_implementation="eager"
    ).eval()
    out_dir.mkdir(parents=True, exist_ok=True)
    target = export_module(model, out_dir / "model.onnx")
    shutil.copyfile(tokenizer, out_dir / "tokenizer.json")
    return target


def export_module(module: Any, target: Path) -> Path:
    """Trace a (query, passage) -> one-logit torch module to ONNX with dynamic batch and length.

    The traced batch contains padding, so the graph honours the attention mask.
    """
    import torch

    ids = torch.tensor(
        [[101, 2054, 102, 7592, 2088, 102, 0, 0], [101, 2054, 102, 7592, 2088, 2003, 2204, 102]]
    )
    mask = (ids != 0).long()
    types = torch.tensor([[0, 0, 0, 1, 1, 1, 0, 0], [0, 0, 0, 1, 1, 1, 1, 1]])
    axes = {name: {0: "batch", 1: "seq"} for name in ("input_ids", "attention_mask", "token_type_ids")}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            module,
            (ids, mask, types),
            str(target),
            input_names=list(axes),
            output_names=["logits"],
            dynamic_axes={**axes, "logits": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    return target


if __name__ == "__main__":
    print(export_cross_encoder(Path(sys.argv[1]), Path(sys.argv[2])))
