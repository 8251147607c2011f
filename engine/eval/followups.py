"""`citeline eval evalsets/followups`: do follow-up questions find their evidence in a thread?

The set (``conversations.jsonl``, written for Citeline) holds two- and three-turn conversations over the
labelled sets in ../shared/eval. A turn is either a question of that set by id (``{"ask": "q01"}``: its
text and gold files are read from the shared set at run time, never copied) or a follow-up written here
(``question``, the hand-written ``standalone`` version of it, and its ``gold`` files relative to the set's
docs folder). A shared question marked ``new_topic`` starts a new topic in the thread.

Each conversation is asked in a real thread (Engine.ask_thread_stream, extractive answers, so the next
turn sees real citations). Each later turn is scored three ways, file recall@5 over the same search depth:

- thread: the turn as the thread searches it (engine.conversation.plan);
- alone: the question's own words, as if asked outside the thread;
- standalone: the hand-written standalone question (follow-ups only).

The target is thread >= 95 % of standalone on follow-ups, and thread >= alone on new topics (the old topic
does not pollute them). Conversations are split once by the SHA-256 of their id into ``tune`` and
``heldout``; only ``tune`` is looked at while changing the rewrite, ``heldout`` is the figure reported.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.api import Engine, TurnSaved
from engine.backends.llama_cpp import LlamaGenerator
from engine.conversation import condense as condense_question
from engine.conversation import engine_chunks, engine_embed, engine_search, plan
from engine.eval import metrics
from engine.eval.datasets import Dataset, DatasetError, load
from engine.eval.runner import CHUNK_DEPTH, default_work_dir, file_keys, open_index

SET_FILE = "conversations.jsonl"
PARTS = ("tune", "heldout")
SPLITS = {"test": "heldout", "train": "tune", "heldout": "heldout", "tune": "tune", "all": "all"}
TARGET = 0.95
Progress = Callable[[str], None]


def is_followup_set(path: Path) -> bool:
    return (path / SET_FILE).is_file()


def shared_eval_dir() -> Path:
    """Where the labelled sets are: $CITELINE_SHARED_EVAL, else ../shared/eval next to the repository."""
    env = os.environ.get("CITELINE_SHARED_EVAL")
    return Path(env) if env else Path(__file__).resolve().parents[2].parent / "shared" / "eval"


@dataclass(frozen=True)
class TurnSpec:
    question: str
    gold: dict[str, int]
    standalone: str = ""
    new_topic: bool = False
    ask: str = ""  # the shared question's id, for a turn taken from the set


@dataclass(frozen=True)
class Conversation:
    id: str
    set_name: str
    turns: tuple[TurnSpec, ...]

    @property
    def part(self) -> str:
        return PARTS[int(hashlib.sha256(self.id.encode()).hexdigest(), 16) % 2]


@dataclass
class FollowupReport:
    split: str
    rows: list[dict[str, Any]] = field(default_factory=list)

    def summary(self, rows: Sequence[dict[str, Any]] | None = None) -> dict[str, float]:
        rows = self.rows if rows is None else rows
        follow = [r for r in rows if not r["new_topic"]]
        new = [r for r in rows if r["new_topic"]]
        out = {
            "follow-ups": float(len(follow)),
            "thread": metrics.mean(r["thread"] for r in follow),
            "alone": metrics.mean(r["alone"] for r in follow),
            "standalone": metrics.mean(r["standalone"] for r in follow),
            "judged follow-up": metrics.mean(1.0 if r["follow_up"] else 0.0 for r in follow),
            "new topics": float(len(new)),
            "new: thread": metrics.mean(r["thread"] for r in new),
            "new: alone": metrics.mean(r["alone"] for r in new),
            "judged new": metrics.mean(0.0 if r["follow_up"] else 1.0 for r in new),
        }
        out["thread / standalone"] = out["thread"] / out["standalone"] if out["standalone"] else 0.0
        condensed = [r for r in follow if "model" in r]
        if condensed:
            out["model"] = metrics.mean(r["model"] for r in condensed)
            out["model / standalone"] = out["model"] / out["standalone"] if out["standalone"] else 0.0
            out["model ms p50"] = float(sorted(r["model_ms"] for r in condensed)[len(condensed) // 2])
        return out

    def markdown(self) -> str:
        lines = [
            f"## Follow-ups ({self.split}): file recall@5 of each later turn",
            "",
            "| part | follow-ups | thread | alone | standalone | thread/standalone | judged follow-up "
            "| new topics | new: thread | new: alone | judged new |",
            "|---|" + "---|" * 10,
        ]
        groups = [("all", self.rows)] + [
            (name, [r for r in self.rows if r["set"] == name])
            for name in sorted({r["set"] for r in self.rows})
        ]
        for name, rows in groups:
            s = self.summary(rows)
            follow = f"{s['thread']:.3f} | {s['alone']:.3f} | {s['standalone']:.3f} | "
            follow += f"{s['thread / standalone']:.1%} | {s['judged follow-up']:.0%}"
            new = f"{s['new: thread']:.3f} | {s['new: alone']:.3f} | {s['judged new']:.0%}"
            lines.append(
                f"| {name} | {s['follow-ups']:.0f} | {follow if s['follow-ups'] else '– | – | – | – | –'} | "
                f"{s['new topics']:.0f} | {new if s['new topics'] else '– | – | –'} |"
            )
        s = self.summary()
        if "model" in s:
            lines += [
                "",
                f"The local model's rewrite searched instead: {s['model']:.3f} "
                f"({s['model / standalone']:.1%} of standalone), {s['model ms p50']:.0f} ms p50 to write.",
            ]
        verdict = "met" if s["thread / standalone"] >= TARGET else "not met"
        lines += ["", f"Target thread >= {TARGET:.0%} of standalone: {verdict}."]
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {"split": self.split, "summary": self.summary(), "rows": self.rows}


# ----------------------------------------------------------------------------------------------- loading


def read_conversations(folder: Path, datasets: dict[str, Dataset]) -> list[Conversation]:
    """The set's conversations, shared turns filled in from `datasets` (set name -> loaded set)."""
    out = []
    with (folder / SET_FILE).open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                out.append(_conversation(json.loads(line), datasets, f"{folder / SET_FILE}:{number}"))
    return out


def _conversation(record: dict[str, Any], datasets: dict[str, Dataset], where: str) -> Conversation:
    name = str(record["set"])
    if name not in datasets:
        raise DatasetError(f"{where}: unknown set {name!r}.")
    queries = {q.id: q for q in datasets[name].queries}
    turns = []
    for turn in record["turns"]:
        if "ask" in turn:
            query = queries.get(str(turn["ask"]))
            if query is None:
                raise DatasetError(f"{where}: {name} has no question {turn['ask']!r}.")
            turns.append(
                TurnSpec(query.text, dict(query.relevant), "", bool(turn.get("new_topic")), query.id)
            )
        else:
            gold = dict.fromkeys((str(g) for g in turn["gold"]), 1)
            turns.append(TurnSpec(str(turn["question"]), gold, str(turn["standalone"])))
    return Conversation(str(record["id"]), name, tuple(turns))


def set_names(folder: Path) -> list[str]:
    with (folder / SET_FILE).open(encoding="utf-8") as lines:
        return sorted({str(json.loads(line)["set"]) for line in lines if line.strip()})


# ------------------------------------------------------------------------------------------------ running


def run_followups(
    folder: Path,
    split: str = "test",
    work_dir: Path | None = None,
    shared: Path | None = None,
    progress: Progress | None = None,
    condense: bool = False,
) -> FollowupReport | None:
    """Score the set's conversations of `split` (test/heldout, train/tune or all); None when the shared
    sets are not on this machine. `condense`: also search each follow-up as the local model rewrites it
    (conversation.condense), in a `model` column."""
    part = SPLITS.get(split)
    if part is None:
        raise DatasetError(f"The follow-up set has no split {split!r}.", "use heldout, tune or all")
    shared = shared or shared_eval_dir()
    names = set_names(folder)
    if not all((shared / name).is_dir() for name in names):
        return None
    work = work_dir or default_work_dir(folder)
    datasets = {name: load(shared / name, work / name) for name in names}
    chosen = [c for c in read_conversations(folder, datasets) if part == "all" or c.part == part]
    report = FollowupReport(part)
    for name in names:
        todo = [c for c in chosen if c.set_name == name]
        if not todo:
            continue
        engine, _ = open_index(datasets[name], work / name)
        try:
            root = datasets[name].corpus_dir.resolve()
            for conv in todo:
                report.rows += score_conversation(engine, conv, root, condense)
                if progress is not None:
                    progress(conv.id)
        finally:
            engine.close()
    return report


def score_conversation(
    engine: Engine, conv: Conversation, root: Path, condense: bool = False
) -> list[dict[str, Any]]:
    """Ask the conversation in a new thread; score every turn after the first (then drop the thread)."""
    thread: int | None = None
    rows = []
    try:
        for number, spec in enumerate(conv.turns, start=1):
            if thread is not None:
                rows.append(_score_turn(engine, conv, number, spec, thread, root, condense))
            for event in engine.ask_thread_stream(spec.question, thread, generator="extractive"):
                if isinstance(event, TurnSaved):
                    thread = event.turn.thread_id
    finally:
        if thread is not None:
            engine.delete_thread(thread)
    return rows


def _score_turn(
    engine: Engine,
    conv: Conversation,
    number: int,
    spec: TurnSpec,
    thread: int,
    root: Path,
    condense: bool = False,
) -> dict[str, Any]:
    search = engine_search(engine)
    previous = engine.thread_turns(thread)
    chunks, embed = engine_chunks(engine), engine_embed(engine)
    planned = plan(thread, spec.question, previous, search, chunks, engine.doc_freq, CHUNK_DEPTH, embed)

    def recall(hits: Sequence[Any]) -> float:
        return metrics.recall_at_k(file_keys(hits, root), spec.gold, 5)

    alone = recall(search(spec.question, CHUNK_DEPTH))
    model: dict[str, Any] = {}
    if condense and not spec.new_topic and previous:
        local = engine.generator("local")
        assert isinstance(local, LlamaGenerator)
        chat = local.chat
        started = time.perf_counter()
        rewritten = condense_question(spec.question, previous[-1], chat)
        model = {
            "model_searched": rewritten,
            "model": recall(search(rewritten, CHUNK_DEPTH)),
            "model_ms": round((time.perf_counter() - started) * 1000),
        }
    return model | {
        "id": f"{conv.id}.{number}",
        "set": conv.set_name,
        "part": conv.part,
        "new_topic": spec.new_topic,
        "question": spec.question,
        "searched": planned.searched.standalone,
        "reason": planned.searched.reason,
        "follow_up": planned.searched.follow_up,
        "thread": recall(planned.hits),
        "alone": alone,
        "standalone": recall(search(spec.standalone, CHUNK_DEPTH)) if spec.standalone else alone,
        "top": file_keys(planned.hits, root)[:5],
    }
