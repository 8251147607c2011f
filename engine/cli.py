"""`citeline`: the command line over the same Engine the desktop app uses.

Like every front-end it reaches the engine through engine.api and its public types only (engine.events,
engine.errors, engine.settings); `eval` and its kin run engine.eval, a tool over the engine.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from engine import __version__
from engine.api import lines, location, page_label, shown
from engine.errors import CiteError
from engine.events import FileSkipped, GenerationProgress, IndexProgress
from engine.progress import time_left
from engine.settings import Rerank

log = logging.getLogger("citeline")
Handler = Callable[[argparse.Namespace], int]


if TYPE_CHECKING:
    from engine.api import Engine


def _engine(args: argparse.Namespace, reads: bool = False) -> Engine:
    """The engine; `reads`: a command that only reads, which may read a snapshot while another process
    (the app, `watch`) writes the index."""
    from engine.api import Engine

    return Engine(args.data_dir, snapshot_when_busy=reads)


def _drain(job: Any, quiet: bool = False) -> dict[str, int]:
    from engine.progress import ProgressLine

    bar = ProgressLine()
    counts: dict[str, int] = {}
    try:
        for event in job:
            name = type(event).__name__
            counts[name] = counts.get(name, 0) + 1
            if isinstance(event, IndexProgress):
                bar.update(event)
                if event.phase == "ocr":  # pages read by OCR, the most any folder reported
                    counts["ocr_pages"] = max(counts.get("ocr_pages", 0), event.done)
            elif isinstance(event, FileSkipped) and not quiet:
                log.info("skipped %s: %s", event.path, event.reason)
    finally:
        bar.close()
    return counts


def cmd_add(args: argparse.Namespace) -> int:
    engine = _engine(args)
    for path in args.paths:
        folder = engine.add_folder(path, args.include, args.exclude)
        # added, not watched by this command: the app and `citeline watch` keep it in sync
        print(f"added {shown(folder.path)} (kept in sync while the app or `citeline watch` runs)")
    if not args.no_sync:
        _report_sync(_drain(engine.sync(embed=not args.no_vectors)), engine)
    return 0


def _report_sync(counts: dict[str, int], engine: Engine) -> None:
    """What a sync did; where OCR then read scanned files, the folders' totals after it, which count the
    files it turned from skipped into indexed (as `citeline status` does)."""
    ocr = counts.get("ocr_pages", 0)
    scans = ""
    if ocr:
        folders = engine.status().folders
        indexed, skipped = sum(f.indexed for f in folders), sum(f.skipped for f in folders)
        scans = (
            f"; then OCR read {ocr} scanned page{'s' if ocr != 1 else ''}: now {indexed} files indexed, "
            f"{skipped} skipped in all folders (see: citeline status)"
        )
    print(
        f"indexed {counts.get('FileIndexed', 0)} files, skipped {counts.get('FileSkipped', 0)}, "
        f"removed {counts.get('FileRemoved', 0)}" + scans
    )


def cmd_remove(args: argparse.Namespace) -> int:
    engine = _engine(args)
    engine.remove_folder(args.path)
    print(f"removed {shown(args.path)} from both indexes")
    return 0


def cmd_sync(args: argparse.Namespace) -> int:
    engine = _engine(args)
    _report_sync(_drain(engine.sync(embed=not args.no_vectors)), engine)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    engine = _engine(args, reads=True)
    status = engine.status()
    if args.json:
        print(json.dumps(asdict(status), default=str, indent=2))
        return 0
    print(f"data dir: {status.home}")
    for f in status.folders:
        print(
            f"{shown(f.path)}\n  files {f.files}: indexed {f.indexed}, skipped {f.skipped}, "
            f"failed {f.failed}; "
            f"chunks {f.chunks}; synced {f.synced_at or 'never'}"
        )
    print(
        f"chunks {status.chunks}; vectors {status.vectors_fraction:.0%} ({status.vectors_done}/"
        f"{status.vectors_total} distinct texts)"
    )
    if status.chunks:
        share = status.truncated / status.chunks
        print(
            f"chunks longer than the embedder's window (tail not embedded): {status.truncated} ({share:.1%})"
        )
    if status.embed_tokens or status.embed_saved:
        print(
            f"embedding: the model read {status.embed_tokens:,} tokens; {status.embed_saved:,} spared "
            "(duplicate texts, headers several files share)"
        )
    if status.skipped:
        print("skipped or failed:")
        for row in status.skipped[: args.limit]:
            print(f"  {shown(row.path)}: {row.error or row.status}")
        if len(status.skipped) > args.limit:
            print(f"  … {len(status.skipped) - args.limit} more (--limit N)")
    return 0


def _bold(text: str) -> str:
    if sys.stdout.isatty():
        return re.sub(r"\*\*(.+?)\*\*", "\x1b[1m\\1\x1b[0m", text)
    return text


def cmd_search(args: argparse.Namespace) -> int:
    engine = _engine(args, reads=True)
    result = engine.find(  # the second stage: --rerank, else the setting's for hybrid searches
        args.query,
        k=args.k,
        mode=args.mode,
        rerank=args.rerank,
        folder=args.folder,
        extensions=args.ext or (),
    )
    if args.json:
        print(
            json.dumps(
                {
                    "query": result.query,
                    "mode": result.mode,
                    "timings_ms": result.timings_ms,
                    "hits": [asdict(h) for h in result.hits],
                },
                indent=2,
            )
        )
        return 0
    if not result.hits:
        print("no results")
    for rank, hit in enumerate(result.hits, start=1):
        where = location(hit.path, hit.start_line, hit.end_line, hit.page)
        print(f"{rank:2}. {where}" + (f"  [{hit.heading}]" if hit.heading else ""))
        print(f"    {_bold(hit.snippet)}")
        if args.explain:
            print(
                f"    fused {hit.score:.5f} | bm25 rank {hit.lexical_rank} score "
                f"{_fmt(hit.lexical_score)} | vector rank {hit.vector_rank} score {_fmt(hit.vector_score)}"
                + (f" | named file rank {hit.named_rank}" if hit.named_rank is not None else "")
                + (f" | exact name rank {hit.exact_rank}" if hit.exact_rank is not None else "")
                + (f" | rerank score {hit.rerank_score:.4f}" if hit.rerank_score is not None else "")
            )
    if args.explain:
        print("timings (ms): " + ", ".join(f"{k} {v:.1f}" for k, v in result.timings_ms.items()))
    return 0


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def progress_line(event: GenerationProgress) -> str:
    """One stderr line for a model's progress: tokens read or written, and the ETA where known."""
    eta = f" · about {time_left(event.eta_s)}" if event.eta_s is not None else ""
    if event.phase == "loading":
        return "loading the model…"
    if event.phase == "reading":
        return f"reading the sources: {event.read} of {event.prompt} tokens{eta}"
    return f"writing: {event.written} tokens{eta}"


class ProgressLine:
    """Progress on stderr: rewritten in place on a terminal, one line per phase otherwise."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.phase = ""
        self.width = 0

    def show(self, event: GenerationProgress) -> None:
        text = progress_line(event)
        if self.tty:
            print("\r" + text.ljust(self.width), end="", file=sys.stderr, flush=True)
            self.width = len(text)
        elif event.phase != self.phase:
            print(text, file=sys.stderr, flush=True)
        self.phase = event.phase

    def clear(self) -> None:
        if self.tty and self.width:
            print("\r" + " " * self.width + "\r", end="", file=sys.stderr, flush=True)
            self.width = 0


def cmd_ask(args: argparse.Namespace) -> int:
    from engine.events import Answer, AnswerSentence, Draft

    engine = _engine(args, reads=True)
    final: Answer | None = None
    streamed = False
    line = ProgressLine()
    try:
        for event in _ask_events(engine, args):
            if isinstance(event, GenerationProgress):
                if not args.json:
                    line.show(event)
                continue
            line.clear()
            if isinstance(event, Draft) and not args.json and sys.stderr.isatty():
                print("Draft, quoted from the sources while the model writes:", file=sys.stderr)
                for sentence in event.sentences:
                    print(textwrap.indent(sentence.text, "  "), file=sys.stderr, flush=True)
            elif isinstance(event, AnswerSentence) and not args.json and sys.stdout.isatty():
                print(event.text, flush=True)
                streamed = True
            elif isinstance(event, Answer):
                final = event
    except KeyboardInterrupt:
        line.clear()
        print("Stopped.", file=sys.stderr)
        return 130
    assert final is not None
    if args.json:
        print(json.dumps(asdict(final), indent=2, default=str))
        return 0
    if args.evidence:  # as the answer numbers it: the sources it cites first, in the order it cites them
        for n, hit in enumerate(final.evidence, start=1):
            print(f"[{n}] {location(hit.path, hit.start_line, hit.end_line)}", file=sys.stderr)
    if streamed:
        print()
    print(final.text)
    if final.refused:
        if final.reason:
            print(f"({final.reason})")
        return 0
    print("\nSources:")
    read: list[str] = []  # the evidence no sentence cites: listed after, so every number is accounted for
    for n, hit in enumerate(final.evidence, start=1):
        cited = [c for s in final.sentences for c in s.citations if c.source == n]
        if cited:
            # a conflict note cites the lines an answer sentence cited already: each span once
            spans = ", ".join(dict.fromkeys(lines(c.start_line, c.end_line) for c in cited))
            page = f" ({page_label(hit.path, hit.page)})" if hit.page else ""
            print(f"[{n}] {shown(hit.path)}:{spans}{page}")
        else:
            read.append(f"[{n}] {location(hit.path, hit.start_line, hit.end_line, hit.page)}")
    if read:
        print("Also read, not cited:")
        print("\n".join(f"  {line}" for line in read))
    for conflict in final.conflicts:
        print(f"Conflict: {conflict.summary}")
    return 0


def _ask_events(engine: Engine, args: argparse.Namespace) -> Iterator[Any]:
    """The answer's events; with --thread NAME, asked in that thread (created under that name when there
    is none): the standalone question it searched is said on stderr first, the thread last."""
    from engine.api import Searched, TurnSaved

    if args.thread is None:
        yield from engine.ask_stream(args.question, args.generator)
        return
    found = engine.find_thread(args.thread) or engine.new_thread(args.thread)
    for event in engine.ask_thread_stream(args.question, found.id, args.generator):
        if isinstance(event, Searched) and not args.json and event.follow_up:
            print(f"searched: {event.standalone}", file=sys.stderr)
        elif isinstance(event, TurnSaved) and not args.json:
            print(f"(thread #{found.id} {found.title!r}, turn {event.turn.ord})", file=sys.stderr)
        yield event


def cmd_threads(args: argparse.Namespace) -> int:
    """List threads (or those whose questions hold --search), show one, rename, delete or export it."""
    engine = _engine(args, reads=True)
    if args.action == "list":
        return _list_threads(engine, args.search or "")
    if not args.name:
        raise CiteError(f"Give the thread: citeline threads {args.action} NAME", "see: citeline threads")
    found = engine.find_thread(args.name)
    if found is None:
        raise CiteError(f"There is no thread {args.name!r}.", "list them with: citeline threads")
    if args.action == "show":
        print(engine.export_thread(found.id, "markdown"), end="")
    elif args.action == "export":
        text = engine.export_thread(found.id, "json" if args.format == "json" else "markdown")
        if args.output:
            Path(args.output).write_text(text, encoding="utf-8")
            print(f"wrote {args.output}")
        else:
            print(text, end="")
    elif args.action == "rename":
        if not args.title:
            raise CiteError("Give the new title.", "citeline threads rename NAME 'New title'")
        print(f"renamed #{found.id} to {engine.rename_thread(found.id, args.title).title!r}")
    else:
        engine.delete_thread(found.id)
        print(f"deleted thread #{found.id} {found.title!r}")
    return 0


def _list_threads(engine: Engine, search: str) -> int:
    rows = engine.threads(search)
    if not rows:
        print("no threads" + (f" with {search!r}" if search else ""))
    for t in rows:
        print(f"#{t.id:<4} {t.updated_at:%Y-%m-%d %H:%M}  {t.turns:2} turns  {t.title}")
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    engine = _engine(args)
    _report_sync(_drain(engine.sync()), engine)
    print("watching for changes (Ctrl+C to stop)")
    engine.watch(polling=args.polling, on_batch=lambda c: _report_sync(_drain(c, quiet=True), engine))
    return 0


def _fetch_progress(role: str) -> Callable[[int, int], None] | None:
    """A download's progress on a terminal's stderr, rewritten in place; nothing when piped."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        mb = 1024 * 1024
        print(f"\r{role}: {done // mb} of {total // mb} MB", end="", file=sys.stderr, flush=True)

    return show


def cmd_models(args: argparse.Namespace) -> int:
    engine = _engine(args)
    if args.action == "fetch":
        roles = args.roles or [
            s.role
            for s in engine.model_specs()
            if s.prepare != "import" and not (args.defaults and s.optional)
        ]
        if args.defaults and args.roles:
            raise CiteError("Give roles or --defaults, not both.")
        for role in roles:
            path = engine.fetch_model(role, _fetch_progress(role))
            if sys.stderr.isatty():
                print(file=sys.stderr)
            print(f"{role}: verified {path}")
        return 0
    if args.action == "download":
        if len(args.roles) != 2:
            raise CiteError(
                "Give a ROLE and a URL.", "citeline models download generator https://…/model.gguf"
            )
        role, url = args.roles
        path = engine.download_model(role, url)
        print(f"{role}: verified {path}")
        return 0
    if args.action == "import":
        if not args.roles or len(args.roles) != 1:
            raise CiteError("Give exactly one PATH.", "citeline models import PATH --role ROLE")
        status = engine.import_model(
            Path(args.roles[0]), args.role, Path(args.tokenizer) if args.tokenizer else None
        )
        print(f"{status.role}: {status.state.value} {status.path}")
        return 0
    rows = engine.models(verify=args.verify)
    for s in rows:
        origin = "imported" if s.imported else "default"
        print(f"{s.role:16} {s.state.value:9} {origin:8} {s.name}")
        if s.path:
            print(f"{'':16} {s.path}")
        if s.fix:
            print(f"{'':16} {s.detail}; fix: {s.fix}")
    return 0 if all(s.state.value == "verified" or engine.model_spec(s.role).optional for s in rows) else 1


def _setting(item: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep:
        raise CiteError(f"--set takes KEY=VALUE, not '{item}'.", "for example --set local_sources=300")
    return key.strip(), value.strip()


def cmd_eval(args: argparse.Namespace) -> int:
    from engine.eval.followups import is_followup_set
    from engine.eval.runner import run_eval

    if is_followup_set(Path(args.dataset)):
        return _eval_followups(args)
    report = run_eval(
        Path(args.dataset),
        modes=args.modes,
        k=args.k,
        limit=args.limit,
        work_dir=Path(args.work_dir) if args.work_dir else None,
        answers=args.answers,
        generator=args.generator,
        calibrate=args.calibrate_gate,
        split=args.split,
        overrides=dict(_setting(item) for item in args.set or ()),
    )
    print(report.markdown())
    if args.json:
        Path(args.json).write_text(json.dumps(report.as_dict(), indent=2), encoding="utf-8")
    return 0


def _eval_followups(args: argparse.Namespace) -> int:
    """A follow-up set (evalsets/followups): scored in threads; skipped where the shared sets are absent."""
    from engine.eval.followups import run_followups, shared_eval_dir

    report = run_followups(
        Path(args.dataset),
        split=args.split,
        work_dir=Path(args.work_dir) if args.work_dir else None,
        progress=lambda conv: print(conv, end=" ", file=sys.stderr, flush=True),
        condense=args.generator == "local",
    )
    print(file=sys.stderr)
    if report is None:
        print(f"skipped: the labelled sets it asks about are not in {shared_eval_dir()}")
        return 0
    print(report.markdown())
    if args.json:
        Path(args.json).write_text(json.dumps(report.as_dict(), indent=2), encoding="utf-8")
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    from engine.eval.calibrate import calibrate

    if args.tradeoff:
        return tradeoff(args)
    result = calibrate(
        [Path(p) for p in args.sets],
        progress=lambda msg: print(msg, file=sys.stderr, flush=True),
        answer_model=Path(args.answer_model) if args.answer_model else None,
        questions_only=[Path(p) for p in args.questions_only or ()],
    )
    for key, fitted in result["gate"].items():
        print(f"gate ({key}): " + "  ".join(f"{kind} {line['threshold']}" for kind, line in fitted.items()))
    floor = result["extractive"]
    print(f"extractive floor: {floor['floor']}")
    for row in floor["tried"]:
        print("  " + "  ".join(f"{k} {v}" for k, v in row.items()))
    for key, model in result["answer_check"].items():
        print(f"answer check ({key}): threshold {model['threshold']} (brackets: no check; neither)")
        for part, row in result["figures"][key].items():
            base, bare = row.pop("without_check"), row.pop("without_floor_or_check")
            print(
                f"  {part:36} "
                + "  ".join(f"{k} {v} ({base.get(k, '-')}; {bare.get(k, '-')})" for k, v in row.items())
            )
    for name, recorded in result["decisions"].items():
        print(f"{name} (extractive): " + "  ".join(f"{k} {v}" for k, v in recorded["figures"].items()))
    return 0


def tradeoff(args: argparse.Namespace) -> int:
    """`citeline calibrate SET... --tradeoff`: the shipped check swept over thresholds on each set."""
    from engine.eval.tradeoff import report

    paths = [Path(p) for p in [*args.sets, *(args.questions_only or ())]]
    print(report(paths, progress=lambda msg: print(msg, file=sys.stderr, flush=True)))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from engine.eval.bench import run_bench

    report = run_bench(chunks=args.chunks, embed_sample=args.embed_sample)
    print(report.markdown())
    if args.json:
        Path(args.json).write_text(json.dumps(report.as_dict(), indent=2), encoding="utf-8")
    return 0


def cmd_embed_worker(args: argparse.Namespace) -> int:
    """Embed the batches another process's backlog puts in the spool, until Ctrl+C or --idle-exit."""
    import signal
    import threading

    from engine.api import Engine

    engine = Engine(args.data_dir)
    if args.spool:
        engine.use_settings(engine.settings.model_copy(update={"embed_spool": args.spool}))
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    print(f"embed-worker: serving {engine.spool_dir()} (Ctrl+C to stop)", file=sys.stderr, flush=True)

    def report(line: str) -> None:
        if args.verbose:
            print(f"embed-worker: {line}", file=sys.stderr, flush=True)

    try:
        done = engine.embed_worker(stopping.is_set, args.idle_exit, report)
    except KeyboardInterrupt:
        done = -1
    print("embed-worker: stopped" + (f" after {done} batches" if done >= 0 else ""), file=sys.stderr)
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    from engine.mcp_server import serve

    return serve(args.data_dir, http_port=args.http, idle_release_s=args.idle_release)


def build_parser() -> argparse.ArgumentParser:
    from engine.api import generators

    parser = argparse.ArgumentParser(prog="citeline", description="Search and ask your folders, offline.")
    parser.add_argument("--version", action="version", version=f"citeline {__version__}")
    parser.add_argument(
        "--data-dir",
        default=os.environ.get("CITELINE_HOME"),
        help="data directory (default: platform data dir, or $CITELINE_HOME); its models live in its"
        " models/ folder unless $CITELINE_MODEL_CACHE names one folder of models for every data dir",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log details to stderr")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("add", help="watch and index folders")
    p.add_argument("paths", nargs="+")
    p.add_argument("--include", action="append", default=[], help="gitignore-style glob to include")
    p.add_argument("--exclude", action="append", default=[], help="gitignore-style glob to exclude")
    p.add_argument("--no-sync", action="store_true", help="only register the folder")
    p.add_argument("--no-vectors", action="store_true", help="keyword index only for now")
    p.set_defaults(func=cmd_add)

    p = sub.add_parser("remove", help="stop watching a folder and drop it from both indexes")
    p.add_argument("path")
    p.set_defaults(func=cmd_remove)

    p = sub.add_parser("sync", help="bring the index in line with the folders")
    p.add_argument("--no-vectors", action="store_true")
    p.set_defaults(func=cmd_sync)

    p = sub.add_parser("watch", help="sync, then keep the index in sync as files change (foreground)")
    p.add_argument("--polling", action="store_true", help="poll instead of OS notifications")
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("status", help="folders, counts, vectors progress, skipped files")
    p.add_argument("--json", action="store_true")
    p.add_argument("--limit", type=int, default=50)
    p.set_defaults(func=cmd_status)

    p = sub.add_parser("search", help="hybrid search")
    p.add_argument("query")
    p.add_argument("-k", type=int, default=10)
    p.add_argument("--mode", choices=["keyword", "vector", "hybrid"], default="hybrid")
    p.add_argument("--folder")
    p.add_argument("--ext", action="append", help="only files with this extension (repeatable)")
    p.add_argument(
        "--rerank",
        choices=get_args(Rerank),
        help="second stage for the top 20 (default: the rerank setting, maxsim-rrf, for hybrid searches)",
    )
    p.add_argument("--explain", action="store_true", help="show each list's rank and score")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("ask", help="a cited answer, or a refusal when the folders do not support one")
    p.add_argument("question")
    p.add_argument("--generator", choices=generators.names(), help="default: the setting")
    p.add_argument(
        "--evidence", action="store_true", help="print the evidence, numbered as the answer cites it (stderr)"
    )
    p.add_argument("--json", action="store_true", help="the full structure")
    p.add_argument(
        "--thread", metavar="NAME", help="ask in this thread (its id or title; a new one by that name)"
    )
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("threads", help="list, search, show, rename, delete or export conversation threads")
    p.add_argument(
        "action", nargs="?", choices=["list", "show", "rename", "delete", "export"], default="list"
    )
    p.add_argument("name", nargs="?", help="the thread: its id (#12) or title")
    p.add_argument("title", nargs="?", help="rename: the new title")
    p.add_argument("--search", help="list: only threads whose questions hold all these words")
    p.add_argument("--format", choices=["markdown", "json"], default="markdown", help="export format")
    p.add_argument("-o", "--output", help="export: write to this file")
    p.set_defaults(func=cmd_threads)

    p = sub.add_parser("models", help="list models and their state; fetch or import models")
    p.add_argument("action", nargs="?", choices=["list", "fetch", "import", "download"], default="list")
    p.add_argument("roles", nargs="*", help="roles to fetch; the PATH to import; ROLE URL to download")
    p.add_argument("--defaults", action="store_true", help="fetch every non-optional default model")
    p.add_argument("--role", default="generator", help="role for an imported model")
    p.add_argument("--tokenizer", help="tokenizer.json for an imported ONNX model")
    p.add_argument("--verify", action="store_true", help="rehash every file")
    p.set_defaults(func=cmd_models)

    p = sub.add_parser("eval", help="retrieval (and answer) metrics on an evaluation set")
    p.add_argument(
        "dataset",
        help="a folder in BEIR layout, the Meridian set, the LangChain set, or a follow-up set "
        "(evalsets/followups)",
    )
    p.add_argument("--modes", nargs="+", default=["keyword", "vector", "hybrid"])
    p.add_argument("-k", type=int, default=10)
    p.add_argument("--limit", type=int, help="only the first N queries")
    p.add_argument("--work-dir", help="where to keep the eval index (default: a cache dir)")
    p.add_argument("--answers", action="store_true", help="also score answers")
    p.add_argument("--generator", default="extractive", help="generator for --answers")
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="a setting for this run only (repeatable)"
    )
    p.add_argument("--calibrate-gate", action="store_true", help="score the evidence gate's features")
    p.add_argument(
        "--split", default="test", help="BEIR qrels split; SQuAD-style sets: test (held out), train or all"
    )
    p.add_argument("--json", help="write the full report as JSON here")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("calibrate", help="fit the answer check on labelled sets (writes calibration.json)")
    p.add_argument("sets", nargs="+", help="labelled sets: a SQuAD 2.0-style folder, Meridian, LangChain")
    p.add_argument(
        "--answer-model",
        help="fit the answer model's logit in beside the check's features: the ONNX file shipped under "
        "models/answerability/ (its oof.json beside it gives the out-of-fold logits of its training pairs)",
    )
    p.add_argument(
        "--questions-only",
        nargs="+",
        metavar="SET",
        help="labelled sets that fit what judges a question (the evidence gate, the screening rules, the "
        "check's budget) but not what judges a sentence (the check's weights)",
    )
    p.add_argument(
        "--tradeoff",
        action="store_true",
        help="fit nothing: print what the shipped answer check refuses on each set's fitted and held-out "
        "parts at thresholds swept from 0 to 0.8 (the questions as calibrate asked them, cached)",
    )
    p.set_defaults(func=cmd_calibrate)

    p = sub.add_parser("bench", help="synthetic ingest and query benchmark")
    p.add_argument("--chunks", type=int, nargs="+", default=[10_000, 100_000])
    p.add_argument("--embed-sample", type=int, default=256)
    p.add_argument("--json")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("embed-worker", help="help another process (the app, sync, watch) embed its backlog")
    p.add_argument("--spool", help="the spool folder (default: the embed_spool setting, or beside the index)")
    p.add_argument("--idle-exit", type=float, metavar="SECONDS", help="stop after this long without work")
    p.set_defaults(func=cmd_embed_worker)

    p = sub.add_parser("mcp", help="serve the index read-only to MCP clients (stdio by default)")
    p.add_argument("--http", type=int, metavar="PORT", help="streamable HTTP on 127.0.0.1:PORT instead")
    p.add_argument(
        "--idle-release", type=float, default=5.0, metavar="SECONDS", help="release the index when idle"
    )
    p.set_defaults(func=cmd_mcp)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s"
    )
    try:
        code: int = args.func(args)
        return code
    except CiteError as exc:
        log.debug("error", exc_info=True)
        print(f"error: {exc.message}" + (f"\nhint: {exc.hint}" if exc.hint else ""), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`citeline ask … | head`): stop quietly, as cat does
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
