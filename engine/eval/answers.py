"""Answer metrics for `citeline eval --answers`, and the evidence-gate calibration.

- abstention: share of unanswerable questions refused (target: all);
- false refusals: answerable questions refused;
- answers citing a gold file (`cites_gold`), of the answers that cite anything;
- citation precision: cited files that are among the gold sources (also without the conflict notes,
  whose citation of the other version gold lists naming only the current one count as wrong);
- quote verification: generated sentences kept by the contract / all generated sentences (the shown
  answer is 100% verified by construction: unverified sentences are dropped, never displayed);
- conflicts: for questions labelled contradictory, both gold files cited and a conflict flagged;
- passage support (LangChain): answers whose cited quotes overlap a supporting passage;
- evidence holds the passage (LangChain, SQuAD): the supporting or gold passage is among the evidence
  the generator reads;
- SQuAD-style sets: gold span shown (answerable questions whose quotes hold a gold answer) and plausible
  span shown (unanswerable questions whose quotes hold the tempting wrong span);
- latency: time to evidence, to the first verified sentence, and to the full answer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.answer import gate, missing
from engine.answer.pipeline import gather
from engine.api import Engine
from engine.errors import CiteError, ExtractError
from engine.eval import metrics
from engine.eval.datasets import Dataset, Query
from engine.events import Answer, Citation, Hit
from engine.ingest.extract import extract
from engine.text import content_terms, normalize


def _rel(path: str, root: Path) -> str:
    return Path(path).resolve().relative_to(root).as_posix()


def quote_overlaps(quote: str, passages: Sequence[str]) -> bool:
    """True if the quote sits inside a supporting passage, or shares half its content words with one."""
    q = normalize(quote).lower()
    terms = set(content_terms(quote))
    for passage in passages:
        p = normalize(passage).lower()
        if q and (q in p or p in q):
            return True
        if terms and len(terms & set(content_terms(passage))) / len(terms) >= 0.5:
            return True
    return False


def score_answer(query: Query, answer: Answer, root: Path) -> dict[str, Any]:
    cited = {_rel(c.path, root) for s in answer.sentences for c in s.citations}
    row: dict[str, Any] = {
        "id": query.id,
        "refused": answer.refused,
        "answerable": query.answerable,
        "category": query.category,
        "kind": query.kind,
        "cited": sorted(cited),
        "reason": answer.reason,
        "kept": sum(1 for s in answer.sentences if not s.is_conflict_note),
        "dropped": len(answer.dropped),
        "dropped_why": list(answer.dropped),
        "timings": answer.timings_ms,
        "usage": answer.usage,
        "from_draft": answer.from_draft,
        "repaired": answer.repaired_quotes,
        "conflict": bool(answer.conflicts),
    }
    if cited and query.relevant:
        row["citation_precision"] = len(cited & set(query.relevant)) / len(cited)
        row["cites_gold"] = bool(cited & set(query.relevant))  # at least one gold file among the cited
        # The same over the answer's own sentences: a conflict note cites the other version by design
        # (the issue asks for both), which gold lists naming only the current version count as wrong.
        stated = {_rel(c.path, root) for s in answer.sentences if not s.is_conflict_note for c in s.citations}
        if stated:
            row["citation_precision_answer"] = len(stated & set(query.relevant)) / len(stated)
    if query.category == "contradictory":
        row["conflict_ok"] = bool(answer.conflicts) and set(query.relevant) <= cited
    if query.passages:  # did the passage that answers reach the generator at all?
        texts = [h.text for h in answer.evidence]
        row["evidence_holds_passage"] = any(metrics.passage_found(p, texts) for p in query.passages)
    citations = [c for s in answer.sentences for c in s.citations]
    if citations:  # the lines a citation names hold its quote, as the index read them
        row["at_their_lines"] = sum(at_its_lines(c) for c in citations) / len(citations)
    quotes = [c.quote for s in answer.sentences if not s.is_conflict_note for c in s.citations]
    if query.passages and not answer.refused:
        row["passage_support"] = any(quote_overlaps(q, query.passages) for q in quotes)
    if query.answers and query.answerable:  # SQuAD: a gold answer span is in what the answer quotes
        row["gold_shown"] = any(holds(a, q) for a in query.answers for q in quotes)
    if query.plausible and not query.answerable:  # ...or, unanswerable, the tempting wrong span is
        row["plausible_shown"] = any(holds(a, q) for a in query.plausible for q in quotes)
    return row


def at_its_lines(citation: Citation) -> bool:
    """Whether the lines `citation` names (of its page) hold the start of its quote, read as the index
    reads the file: what the desktop's preview and an editor open at. Letters and digits are compared,
    the rest (spacing, markup, a hyphen rejoined) aside."""
    said = _letters(_FENCES.sub(" ", citation.quote))[:40]
    lines = _read_lines(citation.path)
    held = "\n".join(
        t
        for (page, n), t in lines.items()
        if page == citation.page and citation.start_line <= n <= citation.end_line
    )
    return bool(said) and said in _letters(_FENCES.sub(" ", held))


_FENCES = re.compile(r"(?:`{3,}|~{3,})\S*")  # a code fence and its language: markup, on a line of its own


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


@functools.lru_cache(maxsize=64)
def _read_lines(path: str) -> dict[tuple[int | None, int], str]:
    """Each (page, line) of a file's extracted lines, with their text (lines read from one line joined, a
    line apart: an HTML `<pre>` opens its fence on its code's first line)."""
    file = Path(path)
    out: dict[tuple[int | None, int], str] = {}
    try:
        for line in extract(file, file.read_bytes()).lines:
            key = (line.page, line.line)
            out[key] = f"{out[key]}\n{line.text}" if key in out else line.text  # a fence apart from its code
    except (OSError, ExtractError):
        pass
    return out


def holds(span: str, text: str) -> bool:
    """Whether `text` holds `span` (whitespace, quotes and case aside)."""
    return bool(span.strip()) and normalize(span).lower() in normalize(text).lower()


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    unans = [r for r in rows if not r["answerable"]]
    ans = [r for r in rows if r["answerable"]]
    kept = sum(r["kept"] for r in rows)
    generated = kept + sum(r["dropped"] for r in rows)
    out: dict[str, Any] = {
        "answerable": len(ans),
        "unanswerable": len(unans),
        "abstention": f"{sum(r['refused'] for r in unans)}/{len(unans)}" if unans else "n/a",
        "false_refusals": f"{sum(r['refused'] for r in ans)}/{len(ans)}",
        "citation_precision": round(
            metrics.mean(r["citation_precision"] for r in rows if "citation_precision" in r), 3
        ),
        "citation_precision_without_conflict_notes": round(
            metrics.mean(r["citation_precision_answer"] for r in rows if "citation_precision_answer" in r), 3
        ),
        "quote_verification_rate": round(kept / generated, 3) if generated else None,
        "quotes_repaired": sum(r["repaired"] for r in rows),
        "shown_sentences_verified": "100% (unverified sentences are dropped by the contract)",
    }
    conflicts = [r for r in rows if "conflict_ok" in r]
    if conflicts:
        out["conflicts_flagged_both_cited"] = f"{sum(r['conflict_ok'] for r in conflicts)}/{len(conflicts)}"
    support = [r["passage_support"] for r in rows if "passage_support" in r]
    if support:
        out["quotes_overlap_supporting_passage"] = round(metrics.mean(1.0 if s else 0.0 for s in support), 3)
    placed = [r["at_their_lines"] for r in rows if "at_their_lines" in r]
    if placed:
        out["citations_at_their_lines"] = round(metrics.mean(placed), 3)
    for key in ("cites_gold", "evidence_holds_passage", "gold_shown", "plausible_shown"):
        seen = [r[key] for r in rows if key in r]
        if seen:
            out[key] = round(metrics.mean(1.0 if s else 0.0 for s in seen), 3)
    for stage in ("evidence", "draft", "first_sentence", "first_verified", "total", "answer_check"):
        values = [r["timings"][stage] for r in rows if stage in r["timings"]]
        if values:
            out[f"{stage}_ms_p50/p95"] = (
                f"{metrics.percentile(values, 50):.0f}/{metrics.percentile(values, 95):.0f} (n={len(values)})"
            )
    for key in ("prompt_tokens", "read_tokens", "written_tokens"):
        values = [r["usage"][key] for r in rows if key in r.get("usage", {})]
        if values:
            out[f"{key}_p50/p95"] = (
                f"{metrics.percentile(values, 50):.0f}/{metrics.percentile(values, 95):.0f}"
            )
    drafted = [r for r in rows if r.get("from_draft")]
    if any("draft" in r["timings"] for r in rows):
        out["answers_from_draft"] = len(drafted)
    groups = by_kind(rows)
    if groups:
        out["by_kind"] = groups
    return out


def group_of(row: dict[str, Any]) -> str:
    """The group a question is reported in: what it tests where the set says ("absent",
    "false_premise"), else its category ("how", "why"), each prefixed by whether it is answerable."""
    kind = row.get("kind") or ""
    label = kind if kind not in ("", "answerable", "unanswerable") else row["category"]
    return f"{'answerable' if row['answerable'] else 'unanswerable'} {label}"


def by_kind(rows: list[dict[str, Any]]) -> dict[str, str]:
    """Refusals and citations per group (group_of), where a set names more than whether a question is
    answerable: a blind set's figures read per kind of question ("unanswerable false_premise: refused
    0/8") without a script over the rows. Empty for sets whose only groups are answerable/unanswerable."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(group_of(row), []).append(row)
    if all(name.split(" ", 1)[1] in ("", "answerable", "unanswerable") for name in grouped):
        return {}
    out = {}
    for name in sorted(grouped):
        members = grouped[name]
        answered = [r for r in members if not r["refused"]]
        parts = [f"refused {sum(r['refused'] for r in members)}/{len(members)}"]
        for key, label in (("cites_gold", "a gold file cited"), ("passage_support", "a passage quoted")):
            seen = [r[key] for r in answered if key in r]
            if seen:
                parts.append(f"{label} {sum(bool(s) for s in seen)}/{len(seen)}")
        out[name] = ", ".join(parts)
    return out


def evaluate_answers(engine: Engine, dataset: Dataset, generator: str) -> dict[str, Any]:
    root = dataset.corpus_dir.resolve()
    rows = [score_answer(q, engine.ask(q.text, generator), root) for q in dataset.queries]
    summary = summarise(rows)
    summary["generator"] = generator
    summary["refused_ids"] = [r["id"] for r in rows if r["refused"]]
    return {"answers": summary, "answer_rows": rows}


def best_rerank_score(engine: Engine, question: str, hits: Sequence[Hit]) -> float | None:
    """The reranker's best score over the gate's top evidence (the shipped or imported cross-encoder),
    or None when no cross-encoder is available."""
    try:
        scorer = engine.reranker("cross-encoder")
        return max(scorer(question, list(hits[: gate.TOP])), default=None)
    except CiteError:
        return None


def calibrate_gate(engine: Engine, dataset: Dataset, max_false_refusal: float = 0.05) -> dict[str, Any]:
    """Gate features per question (with the kind of its evidence, gate.kind: each kind has its own fitted
    line), their ROC AUC, and the best (weight, threshold) on this set."""
    feats = []
    kinds: list[str] = []
    rerank: list[float | None] = []
    shares: list[float] = []  # of the question's weight named by a file the evidence mentions but lacks
    for q in dataset.queries:
        hits, evidence = gather(engine, q.text)
        d = gate.decide(q.text, hits, engine.doc_freq)
        feats.append((q.answerable, d.coverage, d.dense, q.id))
        kinds.append(gate.kind(hits))
        rerank.append(best_rerank_score(engine, q.text, hits))
        gone = missing.find(q.text, evidence, engine.resolves, engine.doc_freq, min_share=0.0)
        shares.append(gone.share if gone else 0.0)
    pos = [f for f in feats if f[0]]
    neg = [f for f in feats if not f[0]]
    out: dict[str, Any] = {
        "auc_coverage": metrics.roc_auc([f[1] for f in pos], [f[1] for f in neg]) if neg else None,
        "auc_dense": metrics.roc_auc([f[2] for f in pos], [f[2] for f in neg]) if neg else None,
        "questions": [
            {"id": f[3], "answerable": f[0], "coverage": round(f[1], 3), "dense": round(f[2], 3), "kind": k}
            | ({"rerank": round(r, 3)} if r is not None else {})
            | ({"missing_share": m} if m else {})
            for f, k, r, m in zip(feats, kinds, rerank, shares, strict=True)
        ],
        "missing_document": {
            "line": missing.NAME_SHARE,
            "answerable_max": max((m for f, m in zip(feats, shares, strict=True) if f[0]), default=0.0),
            "unanswerable": [m for f, m in zip(feats, shares, strict=True) if not f[0]],
        },
    }
    if neg and all(r is not None for r in rerank):
        scored = [(f[0], r) for f, r in zip(feats, rerank, strict=True) if r is not None]
        out["auc_rerank"] = metrics.roc_auc([r for a, r in scored if a], [r for a, r in scored if not a])
    best: tuple[int, float, float, float] | None = None
    for w10 in range(0, 11):
        w = w10 / 10
        scores = [(a, w * c + (1 - w) * d) for a, c, d, _ in feats]
        for threshold in sorted({s for _, s in scores}):
            false_ref = sum(1 for a, s in scores if a and s < threshold)
            refused = sum(1 for a, s in scores if not a and s < threshold)
            if false_ref <= max_false_refusal * len(pos):
                key = (refused, -false_ref, -abs(w - 0.5), threshold)
                if best is None or key > (best[0], -best[1], -abs(best[2] - 0.5), best[3]):
                    best = (refused, false_ref, w, threshold)
    if best:
        out["best"] = {
            "refused_unanswerable": best[0],
            "false_refusals": best[1],
            "weight": best[2],
            "threshold": round(best[3], 4),
        }
        w = best[2]
        out["auc_combined"] = (
            metrics.roc_auc(
                [w * f[1] + (1 - w) * f[2] for f in pos], [w * f[1] + (1 - w) * f[2] for f in neg]
            )
            if neg
            else None
        )
    return out
