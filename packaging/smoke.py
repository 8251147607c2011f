"""`citeline` as the installers ship it: the ordinary CLI, plus `citeline self-test OUT_DIR`.

The self-test is what CI and `packaging/build.py smoke` run against an installed, frozen app. Each step
is the real CLI in its own process (the frozen executable itself), in a throwaway data directory:

    citeline --version                       the one version number (engine.__version__)
    citeline models                          the embedder resolves (from the bundle in an installer)
    citeline add DEMO; citeline sync         index a copy of the bundled demo folder, vectors included
    citeline status --json                   every chunk has its vector: the ONNX embedder ran
    citeline ask Q --generator extractive --json      a cited answer, every citation inside the folder
    citeline ask OFFTOPIC --generator extractive --json   the refusal
    [--gguf FILE] citeline models import FILE; citeline ask Q --generator local --json   llama.cpp loads

It writes OUT_DIR/smoke.json (every step, its output and timing) and exits 1 unless every check passed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

QUESTION = "How long does a whole laptop restore take?"
EXPECTED = "40 minutes"  # the demo's assets/demo/docs/restore.md says so
OFFTOPIC = "What is the capital of Mongolia?"


def cli() -> list[str]:
    """How to run the CLI: this very executable when frozen, else `python -m engine.cli`."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    return [sys.executable, "-m", "engine.cli"]


def demo_dir() -> Path:
    frozen = getattr(sys, "_MEIPASS", None)
    return (
        Path(frozen) / "assets" / "demo"
        if frozen
        else Path(__file__).resolve().parents[1] / "assets" / "demo"
    )


class SelfTest:
    def __init__(self, home: Path, timeout: float) -> None:
        self.home = home
        self.timeout = timeout
        self.steps: list[dict[str, Any]] = []
        self.failures: list[str] = []
        self.env = dict(os.environ, CITELINE_HOME=str(home))

    def run(self, *args: str, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
        cmd = [*cli(), "--data-dir", str(self.home), *args]
        started = time.monotonic()
        done = subprocess.run(
            cmd, capture_output=True, text=True, env=self.env, timeout=self.timeout, check=False
        )
        seconds = round(time.monotonic() - started, 2)
        self.steps.append(
            {
                "args": list(args),
                "rc": done.returncode,
                "seconds": seconds,
                "stdout": done.stdout[-4000:],
                "stderr": done.stderr[-4000:],
            }
        )
        print(f"[self-test] {' '.join(args)[:70]:70} rc={done.returncode} {seconds:6.2f} s", flush=True)
        if done.returncode not in ok:
            self.fail(f"`citeline {' '.join(args)}` exited {done.returncode}: {done.stderr.strip()[-300:]}")
        return done

    def check(self, ok: bool, what: str) -> bool:
        if not ok:
            self.fail(what)
        return ok

    def fail(self, what: str) -> None:
        self.failures.append(what)
        print(f"[self-test] FAIL: {what}", file=sys.stderr, flush=True)

    def ask(self, question: str, generator: str) -> dict[str, Any]:
        done = self.run("ask", question, "--generator", generator, "--json")
        try:
            answer: dict[str, Any] = json.loads(done.stdout)
        except ValueError:
            self.fail(f"`ask --generator {generator}` did not print JSON")
            return {}
        return answer


def citations(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for s in answer.get("sentences", []) for c in s.get("citations", [])]


def check_version(t: SelfTest, expect: str | None) -> str:
    out = t.run("--version").stdout.strip()
    t.check(out.startswith("citeline "), f"--version printed {out!r}")
    if expect:
        t.check(out == f"citeline {expect}", f"version {out!r} is not {expect}")
    return out.removeprefix("citeline ")


def check_models(t: SelfTest, bundled: bool) -> str:
    out = t.run("models", ok=(0, 1)).stdout  # 1: a default GGUF is not installed yet, which is fine here
    lines = out.splitlines()
    row = next((i for i, line in enumerate(lines) if line.split()[:2] == ["embedder", "verified"]), None)
    if not t.check(row is not None, f"the embedder is not verified:\n{out}"):
        return ""
    assert row is not None
    path = lines[row + 1].strip()
    frozen = getattr(sys, "_MEIPASS", None)
    if bundled:
        t.check(
            frozen is not None and Path(path).is_relative_to(Path(str(frozen)) / "bundled-models"),
            f"the embedder came from {path}, not from the installer's bundled-models",
        )
    return path


def check_index(t: SelfTest, folder: Path) -> dict[str, Any]:
    out = t.run("add", str(folder)).stdout
    t.check("indexed " in out and "indexed 0 files" not in out, f"`add` indexed nothing: {out!r}")
    t.run("sync")
    status: dict[str, Any] = json.loads(t.run("status", "--json").stdout or "{}")
    total, done = status.get("vectors_total", 0), status.get("vectors_done", -1)
    t.check(total > 0 and done == total, f"vectors {done}/{total}: the ONNX embedder did not run")
    return {"chunks": status.get("chunks"), "vectors": f"{done}/{total}"}


def check_answer(t: SelfTest, folder: Path) -> dict[str, Any]:
    answer = t.ask(QUESTION, "extractive")
    cited = citations(answer)
    t.check(answer.get("refused") is False, f"the demo question was refused: {answer.get('reason')}")
    t.check(bool(cited), "the answer has no citations")
    for c in cited:
        inside = Path(c["path"]).resolve().is_relative_to(folder.resolve())
        t.check(inside and c["start_line"] >= 1, f"citation outside the folder or without lines: {c}")
    t.check(EXPECTED in answer.get("text", ""), f"the answer does not say {EXPECTED!r}")
    refusal = t.ask(OFFTOPIC, "extractive")
    t.check(refusal.get("refused") is True and not citations(refusal), "the off-topic question was answered")
    return {
        "text": answer.get("text"),
        "citations": [f"{Path(c['path']).name}:{c['start_line']}-{c['end_line']}" for c in cited],
    }


def check_pdf(t: SelfTest, folder: Path) -> dict[str, Any]:
    """A PDF is read in the extraction worker (a spawned process: in a frozen app that is this executable
    started again, which freeze_support turns into the worker) and found on its page."""
    from engine.eval.ocrset import lines_pdf

    pages = [["Okapi manual"], ["The okapi ledger is audited in March."]]
    (folder / "manual.pdf").write_bytes(lines_pdf(pages))
    t.run("sync")
    out = t.run("search", "okapi ledger audited").stdout
    t.check("manual.pdf" in out and "(page 2)" in out, f"the PDF was not read through the worker: {out!r}")
    return {"search": out.strip().splitlines()[:1]}


def check_local(t: SelfTest, gguf: Path) -> dict[str, Any]:
    t.run("models", "import", str(gguf), "--role", "generator")
    answer = t.ask(QUESTION, "local")
    t.check("text" in answer, "the local generator gave no answer")
    return {"text": answer.get("text"), "refused": answer.get("refused"), "cited": bool(citations(answer))}


def self_test(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="citeline self-test", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder for smoke.json")
    parser.add_argument("--folder", type=Path, help="folder to index (default: the bundled demo)")
    parser.add_argument("--expect-version", help="fail unless --version prints this")
    parser.add_argument(
        "--expect-bundled", action="store_true", help="the embedder must come from the bundle"
    )
    parser.add_argument("--gguf", type=Path, help="also import this GGUF and answer with llama.cpp")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per step")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="citeline-self-test-") as tmp:
        t = SelfTest(Path(tmp) / "home", args.timeout)
        folder = shutil.copytree(args.folder or demo_dir(), Path(tmp) / "demo")
        report: dict[str, Any] = {"executable": cli(), "frozen": bool(getattr(sys, "frozen", False))}
        report["version"] = check_version(t, args.expect_version)
        report["embedder"] = check_models(t, args.expect_bundled)
        report["index"] = check_index(t, folder)
        report["answer"] = check_answer(t, folder)
        report["pdf"] = check_pdf(t, folder)
        if args.gguf:
            report["local"] = check_local(t, args.gguf)
        report.update(seconds=round(time.monotonic() - started, 1), failures=t.failures, steps=t.steps)
    (args.out / "smoke.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    verdict = "PASSED" if not t.failures else f"FAILED ({len(t.failures)} checks)"
    print(f"[self-test] {verdict} in {report['seconds']} s; report: {args.out / 'smoke.json'}", flush=True)
    return 0 if not t.failures else 1


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["self-test"]:
        return self_test(args[1:])
    from engine.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    import multiprocessing

    multiprocessing.freeze_support()  # the extraction worker starts this executable again (sandbox.py)
    sys.exit(main())
