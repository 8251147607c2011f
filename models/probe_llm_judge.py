"""Probe: does the local model, asked a constrained yes/no, tell a quote that answers from one that only
sits near the question's words? (Issue 15 item 1 names it as a candidate answer check.)

Reads `citeline calibrate`'s record of the SQuAD questions as asked (their ranked sentences, which ones
the extractive generator would show, the shipped lexical check's features), takes a sample of one part
(`--part fitted` to design the prompt, `--part held-out` once, to measure), and asks the GGUF model, for
every sentence the generator would show, whether the passage answers the question. The score is the
model's next-token logit of "yes" minus that of "no" (variants summed in probability), read straight
from llama.cpp after the prompt: no text is generated, so one judgement costs one prompt read.

Reports, per question (shown = the best of its shown sentences): ROC AUC of the lexical check, of the
model and of their sum (standardised) for answerable questions whose shown sentence holds the gold span
against unanswerable ones; the unanswerable refused at the line that refuses 10 % of answerable
questions; the time per judgement; and writes every score to OUT so a fusion can be fitted later.

    python -m models.probe_llm_judge --part fitted --limit 120 --out build/judge-fitted.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from engine.answer.answerability import model as check_model
from engine.backends.llama_cpp import reuse_prefix
from engine.eval import metrics
from engine.eval.calibrate import Asked, asked_for, at_floor, fitted_part

SQUAD = Path(__file__).resolve().parents[2] / "shared" / "train" / "squad2_10_articles"
SYSTEM = (
    "You check answers. Given a question and a passage, reply yes if the passage itself states the "
    "answer to the question, with every detail the question assumes true in the passage; reply no if "
    "the passage only mentions related things, or contradicts a detail of the question."
)


def user(question: str, passage: str) -> str:
    return f"Question: {question}\n\nPassage: {passage}\n\nDoes the passage answer the question? yes or no"


class Judge:
    def __init__(self, model: Path, threads: int) -> None:
        from engine.backends.llama_cpp import LlamaGenerator

        self.gen = LlamaGenerator(model, threads, n_ctx=1024)
        llm = self.gen.llm()
        vocab = llm.n_vocab()

        def ids(words: list[str]) -> list[int]:
            out = []
            for w in words:
                t = llm.tokenize(w.encode("utf-8"), add_bos=False, special=False)
                if len(t) == 1 and t[0] < vocab:
                    out.append(t[0])
            return sorted(set(out))

        self.yes, self.no = ids(["yes", "Yes", " yes", " Yes"]), ids(["no", "No", " no", " No"])

    def score(self, question: str, passage: str) -> float:
        llm = self.gen.llm()
        messages = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": user(question, passage)},
        ]
        tokens = self.gen.prompt(messages).tokens
        llm.eval(tokens[reuse_prefix(llm, tokens) :])
        logits = np.ctypeslib.as_array(llm._ctx.get_logits_ith(-1), shape=(llm.n_vocab(),))
        return float(_lse(logits[self.yes]) - _lse(logits[self.no]))


def passage(model_passage: str, context: bool) -> str:
    """The quote alone, or the quote after its heading and the sentences around it (model_passage's
    parts: quote [SEP] around [SEP] heading)."""
    quote, around, heading = ([*model_passage.split(" [SEP] "), "", ""])[:3]
    if not context:
        return quote
    return f"{heading.strip()}\n{around.strip()}\n\nThe sentence to judge: {quote}".strip()


def _lse(x: np.ndarray) -> float:
    m = float(x.max())
    return m + math.log(float(np.exp(x - m).sum()))


def default_model() -> Path:
    """The shipped 1.5B generator where bootstrap put it."""
    import os

    home = Path(os.environ.get("CITELINE_MODEL_CACHE", Path.home() / ".local/share/citeline/models"))
    return home / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def sample(asked: list[Asked], ids: set[str], limit: int) -> list[Asked]:
    """Questions of the part whose gate passed and that show a sentence, in a fixed hash order."""
    rows = [a for a in asked if a.id in ids and a.gate_passed and any(a.chosen)]
    rows.sort(key=lambda a: hashlib.sha256(a.id.encode("utf-8")).hexdigest())
    return rows[:limit]


def at_false_refusals(pos: list[float], neg: list[float], share: float) -> float:
    """Unanswerable refused at the line that refuses `share` of the positives."""
    if not pos or not neg:
        return 0.0
    line = float(np.quantile(pos, share))
    return sum(n < line for n in neg) / len(neg)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--part", choices=("fitted", "held-out"), required=True)
    p.add_argument("--limit", type=int, default=120)
    p.add_argument("--model", type=Path, default=None, help="GGUF (default: the shipped 1.5B)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--context", action="store_true", help="the quote's surrounding sentences and heading too")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)

    dataset, asked, screened = asked_for(SQUAD, print)
    gate = {s.id: s for s in screened}
    from engine.answer.calibration import calibration, extractive_floor

    line = calibration()["gate"]["vectors"]["threshold"]
    floor = extractive_floor()  # what the generator proposes in the product
    asked = [at_floor(a, floor) for a in asked]
    for a in asked:
        a.gate_passed = gate[a.id].vectors >= line
    want = {q.id for q in dataset.queries if fitted_part(dataset, q) == (args.part == "fitted")}
    rows = sample(asked, want, args.limit)
    text = {q.id: q.text for q in dataset.queries}
    judge = Judge(args.model or default_model(), args.threads)
    check = check_model(True)
    records: list[dict[str, Any]] = []
    spent: list[float] = []
    for i, a in enumerate(rows):
        shown = [k for k, c in enumerate(a.chosen) if c]
        llm_scores = []
        for k in shown:
            started = time.perf_counter()
            llm_scores.append(judge.score(text[a.id], passage(a.passages[k], args.context)))
            spent.append(time.perf_counter() - started)
        records.append(
            {
                "id": a.id,
                "answerable": a.answerable,
                "gold": [a.gold[k] for k in shown],
                "plausible": [a.plausible[k] for k in shown],
                "check": [check.probability(a.values[k]) for k in shown],
                "llm": llm_scores,
            }
        )
        if i % 20 == 0:
            print(f"{i}/{len(rows)} judged, {np.median(spent):.2f} s per judgement", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(records), encoding="utf-8")
    print(json.dumps(report(records, spent), indent=2))
    return 0


def report(records: list[dict[str, Any]], spent: list[float]) -> dict[str, Any]:
    pos = [r for r in records if r["answerable"] and any(r["gold"])]
    neg = [r for r in records if not r["answerable"]]
    checks = np.array([max(r["check"]) for r in records])
    llms = np.array([max(r["llm"]) for r in records])
    z = np.log(checks / (1 - checks + 1e-9) + 1e-9)  # the check's probability as a logit
    fused_raw = (z - z.mean()) / (z.std() or 1) + (llms - llms.mean()) / (llms.std() or 1)
    fused = {r["id"]: float(v) for r, v in zip(records, fused_raw, strict=True)}
    out: dict[str, Any] = {
        "questions": len(records),
        "answerable_gold_shown": len(pos),
        "unanswerable": len(neg),
        "judgement_s_p50": round(float(np.median(spent)), 3) if spent else None,
    }
    for name, key in (
        ("check", lambda r: max(r["check"])),
        ("llm", lambda r: max(r["llm"])),
        ("fused", None),
    ):
        score = (lambda r: fused[r["id"]]) if key is None else key
        ps, ns = [score(r) for r in pos], [score(r) for r in neg]
        out[name] = {
            "auc": round(metrics.roc_auc(ps, ns), 3) if ps and ns else None,
            "unanswerable_refused_at_10pct_false": round(at_false_refusals(ps, ns, 0.10), 3),
            "unanswerable_refused_at_5pct_false": round(at_false_refusals(ps, ns, 0.05), 3),
        }
    return out


if __name__ == "__main__":
    raise SystemExit(main())
