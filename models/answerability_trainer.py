"""Train the answer check's cross-encoder on any torch device (a GPU when one is lent), self-contained.

Reads what `python -m models.train_answerability export` wrote (pairs.jsonl.gz: the sentences the product
proposes for each question of the fitted SQuAD articles, with their labels; the MiniLM weights in fp16;
tokenizer.json; config.json; meta.json with the dev article and the check's token limit) and imports only
torch, transformers, tokenizers, safetensors, numpy and the engine's standard-library metrics, so it runs
on a machine without the engine's dependencies.

Three steps, each decided by data the step did not train on:
1. Choose: each candidate configuration (`layers:negatives:epochs:lr[:list]`: MiniLM layers kept,
   synthetic false-premise negatives per question, epochs, learning rate, per-pair or listwise loss) is
   trained on the fitted articles but one (the dev article) and scored on it. The choice is fixed in
   advance: the best mean of the question-level AUC (answerable questions' gold sentence against
   unanswerable questions' best sentence) and the sentence-level AUC against the distractors; a
   configuration with fewer layers wins unless a deeper one is better by more than MARGIN (each layer
   costs CPU time).
2. Cross-fit: the chosen configuration is trained again with each fold of articles left out, and scores
   the fold it did not see, so every fitted pair gets a score from a model that never read its article
   (the check's logistic weights are then fitted on such scores, not on a model's own training data).
3. Final: trained on all fitted articles; its weights (word embeddings excepted: they stay MiniLM's and
   are frozen in training) are written for `python -m models.train_answerability assemble`.

The model is MiniLM's first layers over the pair "[CLS] question [SEP] quote in its window [SEP]", its
output vectors mean-pooled (the bi-encoder was trained to mean-pool) into one logit; binary cross-entropy
with the pair's label, or listwise (`listwise_loss`): each question a softmax over its sentences and a
null option, the target its gold sentences or the null.

Synthetic false premises (`--synthetic`): for an answerable question whose gold sentence is known, one
name or figure the question shares with the passage is replaced by another of the same kind from the same
article that the passage does not hold; the pair (changed question, the same passage) is a negative. It
teaches the model to read whether the passage bears out what the question assumes, which SQuAD 2.0's
unanswerable questions test; nothing in it names a dataset's question or phrasing.

    python -m models.answerability_trainer DATA_DIR OUT_DIR [--budget-s 420]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import time
from pathlib import Path
from typing import Any

import numpy as np

from engine.eval import metrics  # standard library only

MARGIN = 0.02
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z][\w'-]*")
_FIGURE = re.compile(r"\b\d[\d,.]*\b")


def roc_auc(pos: list[float], neg: list[float]) -> float:
    """metrics.roc_auc, NaN where a side is empty (a small fold may hold no distractor)."""
    return metrics.roc_auc(pos, neg) if pos and neg else float("nan")


def load(data: Path) -> list[dict[str, Any]]:
    with gzip.open(data / "pairs.jsonl.gz", "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def synthetic(
    questions: list[dict[str, Any]], seed: int, per_question: int = 1
) -> list[tuple[str, str, float]]:
    """Up to `per_question` false-premise negatives per answerable question with a gold passage: a name
    or figure of the question found in its passage swapped for one of the article that the passage lacks
    (each negative a different swap, a different slot first)."""
    rng = random.Random(seed)
    by_article: dict[str, dict[str, set[str]]] = {}
    for q in questions:
        pool = by_article.setdefault(q["article"], {"name": set(), "figure": set()})
        for p in q["passages"]:
            pool["name"].update(_NAME.findall(p.split(" [SEP] ")[0]))
            pool["figure"].update(_FIGURE.findall(p))
    out = []
    for q in questions:
        if not q["answerable"]:
            continue
        for passage, gold in zip(q["passages"], q["gold"], strict=True):
            if not gold:
                continue
            pool = by_article[q["article"]]
            slots = [("name", m) for m in _NAME.findall(q["question"]) if m in passage]
            slots += [("figure", m) for m in _FIGURE.findall(q["question"]) if m in passage]
            if not slots:
                break
            first = rng.choice(slots)  # the first draw as it always was: one negative reproduces it
            order = [first]
            if per_question > 1:  # the other slots in random order, then round again
                others = sorted(set(slots) - {first})
                order += rng.sample(others, len(others))
            made: set[str] = set()
            for i in range(per_question):
                kind, old = order[i % len(order)]
                choices = sorted(
                    w for w in pool[kind] if w not in passage and w.lower() != old.lower() and w not in made
                )
                if not choices:
                    break
                new = rng.choice(choices)
                made.add(new)
                out.append((re.sub(rf"\b{re.escape(old)}\b", new, q["question"], count=1), passage, 0.0))
            break
    return out


def flat(questions: list[dict[str, Any]]) -> list[tuple[str, str, float]]:
    return [
        (q["question"], p, float(g)) for q in questions for p, g in zip(q["passages"], q["gold"], strict=True)
    ]


class Encoder:
    def __init__(self, data: Path) -> None:
        from tokenizers import Tokenizer

        meta = json.loads((data / "meta.json").read_text(encoding="utf-8"))
        self.tok = Tokenizer.from_file(str(data / "tokenizer.json"))
        self.tok.enable_truncation(meta["max_tokens"], strategy="only_second")
        self.tok.no_padding()

    def __call__(self, pairs: list[tuple[str, str, float]]) -> list[Any]:
        return self.tok.encode_batch([(q, p) for q, p, _ in pairs])


def batch(encodings: list[Any], device: str) -> dict[str, Any]:
    import torch

    width = max(len(e.ids) for e in encodings)

    def pad(rows: list[list[int]]) -> Any:
        return torch.tensor([r + [0] * (width - len(r)) for r in rows], device=device)

    return {
        "input_ids": pad([e.ids for e in encodings]),
        "attention_mask": pad([e.attention_mask for e in encodings]),
        "token_type_ids": pad([e.type_ids for e in encodings]),
    }


def mean_pooled(bert: Any, hidden: int) -> Any:
    """One logit from the mean of the pair's output vectors (padding masked out), through dropout and a
    linear layer. The bi-encoder was trained to mean-pool, so its [CLS] vector carries little: a fresh
    [CLS] head learnt next to nothing (a CPU check overfitting 40 questions: training AUC 0.71 against
    0.86 mean-pooled, same steps)."""
    import torch

    class MeanPooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert
            self.dropout = torch.nn.Dropout(0.1)
            self.classifier = torch.nn.Linear(hidden, 1)

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            out = self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(out.dtype)
            pooled = (out * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
            return self.classifier(self.dropout(pooled))  # (batch, 1)

    return MeanPooled()


def make_model(data: Path, layers: int, seed: int, device: str) -> Any:
    import torch
    from safetensors.torch import load_file
    from transformers import BertConfig, BertModel

    torch.manual_seed(seed)
    config = BertConfig.from_pretrained(str(data))
    config.num_hidden_layers = layers
    model = mean_pooled(BertModel(config, add_pooling_layer=False), config.hidden_size)
    weights = {
        k: v.float()
        for k, v in load_file(str(data / "minilm.fp16.safetensors")).items()
        if not k.startswith("encoder.layer.") or int(k.split(".")[2]) < layers
    }
    # the bi-encoder never trained segment type 1: the passage starts with the question's type vector
    types = weights["embeddings.token_type_embeddings.weight"]
    types[1] = types[0]
    word = torch.zeros(config.vocab_size, config.hidden_size)  # rows the pairs never use stay 0
    word[weights.pop("word_ids").long()] = weights.pop("word_rows")
    weights["embeddings.word_embeddings.weight"] = word
    missing, unexpected = model.bert.load_state_dict(weights, strict=False)
    if missing or [u for u in unexpected if "position_ids" not in u and not u.startswith("pooler.")]:
        raise SystemExit(f"weights do not fit: missing {missing}, unexpected {unexpected}")
    model.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    return model.to(device)


def scores(model: Any, encodings: list[Any], device: str) -> list[float]:
    import torch

    model.eval()
    order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
    result = [0.0] * len(encodings)
    with torch.no_grad(), torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=device == "cuda"):
        for start in range(0, len(order), 256):
            idx = order[start : start + 256]
            logits = model(**batch([encodings[i] for i in idx], device)).float().view(-1).tolist()
            for i, v in zip(idx, logits, strict=True):
                result[i] = v
    model.train()
    return result


def batches_of(
    lengths: list[int], groups: list[list[int]], epochs: int, size: int, rng: random.Random
) -> list[list[int]]:
    """Each epoch's groups (a question's pairs, or one pair) shuffled, then sorted by their longest pair
    within spans of about 64 batches and packed whole into batches of at most `size` pairs (less
    padding); the batches of all epochs shuffled together."""
    longest = [max(lengths[i] for i in g) for g in groups]
    span = 64 * size // max(1, round(len(lengths) / len(groups)))  # groups in about 64 batches
    batches: list[list[int]] = []
    for _ in range(epochs):
        order = rng.sample(range(len(groups)), len(groups))
        for start in range(0, len(order), span):
            step: list[int] = []
            for n in sorted(order[start : start + span], key=lambda n: longest[n]):
                if step and len(step) + len(groups[n]) > size:
                    batches.append(step)
                    step = []
                step += groups[n]
            if step:
                batches.append(step)
    rng.shuffle(batches)
    return batches


def train(
    data: Path,
    pairs: list[tuple[str, str, float]],
    encode: Encoder,
    layers: int,
    epochs: int,
    lr: float,
    args: argparse.Namespace,
    groups: list[list[int]] | None = None,
) -> Any:
    """Binary cross-entropy per pair; or, given `groups` (each question's pairs), listwise: each question
    a softmax over its sentences and a null option of logit 0, the target its gold sentences, or the null
    where none holds the answer (SQuAD 2.0's no-answer objective: a sentence must beat "no answer")."""
    import torch

    device = args.device
    model = make_model(data, layers, args.seed, device)
    encodings = encode(pairs)
    labels = [p[2] for p in pairs]
    rng = random.Random(args.seed)
    listwise = groups is not None
    groups = groups if groups is not None else [[i] for i in range(len(pairs))]
    batches = batches_of([len(e.ids) for e in encodings], groups, epochs, args.batch, rng)
    group_of = {i: n for n, g in enumerate(groups) for i in g}
    steps = len(batches)
    optimiser = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad], lr=lr, weight_decay=0.01
    )
    warmup = max(1, steps // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, 1 - s / steps)
    )
    model.train()
    for idx in batches:
        feeds = batch([encodings[i] for i in idx], device)
        target = torch.tensor([labels[i] for i in idx], device=device)
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=device == "cuda"):
            logits = model(**feeds).float().view(-1)
        if not listwise:
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, target)
        else:
            owner = list(dict.fromkeys(group_of[i] for i in idx))
            local = torch.tensor([owner.index(group_of[i]) for i in idx], device=device)
            loss = listwise_loss(logits, local, target)
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        schedule.step()
        optimiser.zero_grad()
    return model


def listwise_loss(logits: Any, group: Any, target: Any) -> Any:
    """Mean over the batch's questions of -log P(answer), P a softmax over each question's sentence logits
    and a null logit of 0; the answer is the question's gold sentences (their probabilities summed), or
    the null where it has none. `group` numbers each logit's question 0..G-1. All on the device: one
    transfer per step."""
    import torch

    count = int(group.max().item()) + 1
    gold = target > 0.5
    # log-sum-exp per question over its logits and the null's 0, stabilised by the question's maximum
    top = torch.zeros(count, device=logits.device).scatter_reduce(0, group, logits, "amax")
    total = torch.exp(-top).index_add(0, group, torch.exp(logits - top[group]))
    everything = top + torch.log(total)
    floor = torch.full((count,), -torch.inf, device=logits.device)
    g_top = floor.scatter_reduce(0, group[gold], logits[gold], "amax")
    has = torch.isfinite(g_top)
    safe = torch.where(has, g_top, torch.zeros_like(g_top))
    g_sum = torch.zeros(count, device=logits.device).index_add(
        0, group[gold], torch.exp(logits[gold] - safe[group[gold]])
    )
    wanted = torch.where(has, safe + torch.log(g_sum.clamp(min=1e-30)), torch.zeros_like(safe))
    return (everything - wanted).mean()


def figures(questions: list[dict[str, Any]], values: list[float]) -> dict[str, float]:
    """Sentence AUC (gold against the rest, and against distractors of unanswerable questions) and
    question AUC (an answerable question's best gold sentence against an unanswerable one's best)."""
    gold: list[float] = []
    rest: list[float] = []
    plaus: list[float] = []
    q_pos: list[float] = []
    q_neg: list[float] = []
    at = 0
    for q in questions:
        mine = values[at : at + len(q["passages"])]
        at += len(q["passages"])
        for v, g, pl in zip(mine, q["gold"], q["plausible"], strict=True):
            (gold if g else rest).append(v)
            if pl and not q["answerable"]:
                plaus.append(v)
        if q["answerable"] and any(q["gold"]):
            q_pos.append(max(v for v, g in zip(mine, q["gold"], strict=True) if g))
        elif not q["answerable"] and mine:
            q_neg.append(max(mine))
    pos = sorted(q_pos)
    line = pos[int(0.1 * len(pos))] if pos else 0.0  # 10 % of answerable questions fall below it
    return {
        "auc_gold_vs_rest": round(roc_auc(gold, rest), 4),
        "auc_gold_vs_plausible": round(roc_auc(gold, plaus), 4),
        "auc_question": round(roc_auc(q_pos, q_neg), 4),
        "unanswerable_below_at_10pct": round(float(np.mean([v < line for v in q_neg])) if q_neg else 0.0, 4),
    }


def _spec(spec: str) -> tuple[int, int, int, float, bool]:
    """layers:synthetic negatives per question:epochs:learning rate[:list] (listwise, else per pair)"""
    layers, synth, epochs, lr, *loss = spec.split(":")
    return int(layers), int(synth), int(epochs), float(lr), loss == ["list"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("data", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument(
        "--configs",
        default="4:1:4:1e-4,6:1:4:1e-4,6:2:4:1e-4,5:1:4:1e-4,6:1:6:5e-5",
        help="layers:synthetic negatives per question (0: none):epochs:learning rate, comma-separated",
    )
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--limit", type=int, default=0, help="questions per article (a quick dry run)")
    parser.add_argument("--folds", type=int, default=3, help="folds of the non-dev articles")
    parser.add_argument(
        "--budget-s",
        type=float,
        default=420,
        help="no configuration starts that would leave too little for the folds",
    )
    args = parser.parse_args()
    import torch
    from safetensors.torch import save_file

    started = time.time()
    args.out.mkdir(parents=True, exist_ok=True)
    questions = load(args.data)
    meta = json.loads((args.data / "meta.json").read_text(encoding="utf-8"))
    dev = meta["dev_article"]
    if args.limit:
        by_article: dict[str, list[dict[str, Any]]] = {}
        for q in questions:
            by_article.setdefault(q["article"], []).append(q)
        questions = [q for part in by_article.values() for q in part[: args.limit]]
    encode = Encoder(args.data)
    report: dict[str, Any] = {"meta": meta, "args": {k: str(v) for k, v in vars(args).items()}, "configs": {}}

    def log(message: str) -> None:
        print(f"[{time.time() - started:6.1f}s] {message}", flush=True)

    def data_of(
        part: list[dict[str, Any]], synth: int, listwise: bool
    ) -> tuple[list[tuple[str, str, float]], list[list[int]] | None]:
        """The pairs (each question's together, then the synthetic ones) and, for a listwise loss, each
        question's pairs as a group, each synthetic pair a group of its own."""
        pairs = flat(part) + (synthetic(part, args.seed, synth) if synth else [])
        if not listwise:
            return pairs, None
        groups, at = [], 0
        for q in part:
            groups.append(list(range(at, at + len(q["passages"]))))
            at += len(q["passages"])
        return pairs, [g for g in groups if g] + [[i] for i in range(at, len(pairs))]

    dev_q = [q for q in questions if q["article"] == dev]
    rest_q = [q for q in questions if q["article"] != dev]
    dev_enc = encode(flat(dev_q))
    # a few steps first, so the device's one-off start (kernels, allocator) is not timed as the first
    # configuration's cost, which the budget multiplies (one lent H200's first took 97 s, another's 48 s)
    warm, _ = data_of(rest_q[:16], 0, False)
    train(args.data, warm, encode, 1, 1, 1e-4, args)
    log("warmed up")
    trained: dict[str, Any] = {}
    for spec in args.configs.split(","):
        spent = [report["configs"][c]["seconds"] for c in report["configs"]]
        if spent and time.time() - started + (args.folds + 2) * max(spent) > args.budget_s:
            log(f"budget: {spec} not tried")
            continue
        layers, synth, epochs, lr, listwise = _spec(spec)
        t = time.time()
        pairs, groups = data_of(rest_q, synth, listwise)
        model = train(args.data, pairs, encode, layers, epochs, lr, args, groups)
        values = scores(model, dev_enc, args.device)
        got = figures(dev_q, values)
        got.update(pairs=len(pairs), seconds=round(time.time() - t, 1))
        report["configs"][spec] = got
        trained[spec] = (model, values)
        log(f"config {spec}: {got}")
        (args.out / "report.json").write_text(json.dumps(report, indent=2), encoding="utf-8")

    def merit(spec: str) -> float:
        f = report["configs"][spec]
        return float(np.nan_to_num((f["auc_question"] + f["auc_gold_vs_plausible"]) / 2))

    best = max(report["configs"], key=merit)
    chosen = min(
        (s for s in report["configs"] if merit(s) >= merit(best) - MARGIN),
        key=lambda s: (_spec(s)[0], -merit(s)),
    )
    report["chosen"] = chosen
    layers, synth, epochs, lr, listwise = _spec(chosen)
    log(f"chosen {chosen}")
    # cross-fit: the dev article's scores come from the chosen configuration's model above
    oof: dict[str, list[float]] = {}
    at = 0
    for q in dev_q:
        oof[q["id"]] = trained[chosen][1][at : at + len(q["passages"])]
        at += len(q["passages"])
    trained.clear()
    articles = sorted({q["article"] for q in rest_q})
    folds = [articles[i :: args.folds] for i in range(args.folds)]
    for fold in folds:
        part = [q for q in questions if q["article"] not in fold]
        left = [q for q in questions if q["article"] in fold]
        pairs, groups = data_of(part, synth, listwise)
        model = train(args.data, pairs, encode, layers, epochs, lr, args, groups)
        values = scores(model, encode(flat(left)), args.device)
        at = 0
        for q in left:
            oof[q["id"]] = values[at : at + len(q["passages"])]
            at += len(q["passages"])
        log(f"fold {fold}: {figures(left, values)}")
    ordered = [v for q in questions for v in oof[q["id"]]]
    report["out_of_fold"] = figures(questions, ordered)
    log(f"out of fold, all fitted articles: {report['out_of_fold']}")
    (args.out / "oof.json").write_text(
        json.dumps({q["id"]: dict(zip(q["keys"], oof[q["id"]], strict=True)) for q in questions}),
        encoding="utf-8",
    )
    pairs, groups = data_of(questions, synth, listwise)
    model = train(args.data, pairs, encode, layers, epochs, lr, args, groups)
    state = {
        k: v.detach().to("cpu", torch.float16).contiguous()
        for k, v in model.state_dict().items()
        if "word_embeddings" not in k and "position_ids" not in k
    }
    save_file(
        state, str(args.out / "trained.fp16.safetensors"), metadata={"layers": str(layers), "config": chosen}
    )
    report["seconds"] = round(time.time() - started, 1)
    (args.out / "report.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    log("done")


if __name__ == "__main__":
    main()
