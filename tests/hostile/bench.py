"""Time and peak memory of `citeline add` and one search per hostile case (tests/hostile/cases.py).

    python -m tests.hostile.bench [--full] [--vectors] [CASE ...]

Each case gets a fresh folder and data dir; `citeline add` runs as its own process so its peak RSS is
its own (ru_maxrss of the child). Keyword index only unless --vectors (embedding 4,000 chunks of one
sampled file takes minutes on 2 cores and measures the embedder, not the case). Report `uptime` with it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _child(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(seconds, peak RSS in MB, output) of one CLI run in a fresh process (its own rusage, by wait4)."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as out:
        began = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "engine.cli", *args], cwd=REPO, env=env, stdout=out, stderr=out
        )
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0  # reaped here; keeps Popen from waiting on it again
        seconds = time.perf_counter() - began
        out.seek(0)
        return seconds, usage.ru_maxrss / 1024, out.read()


def run_case(name: str, vectors: bool) -> dict[str, object]:
    from tests.hostile.cases import CASES

    with tempfile.TemporaryDirectory(prefix=f"hostile-{name}-") as tmp:
        root, home = Path(tmp) / "folder", Path(tmp) / "home"
        root.mkdir()
        CASES[name](root)
        size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        add = ["--data-dir", str(home), "add", str(root)] + ([] if vectors else ["--no-vectors"])
        add_s, add_mb, add_out = _child(add, env)
        search_s, search_mb, search_out = _child(["--data-dir", str(home), "search", "okapi ledger"], env)
        status = _child(["--data-dir", str(home), "status"], env)[2]
    return {
        "case": name,
        "input_mb": round(size / 1e6, 1),
        "add_s": round(add_s, 1),
        "add_peak_mb": round(add_mb),
        "search_s": round(search_s, 1),
        "search_peak_mb": round(search_mb),
        "add": add_out.strip().splitlines()[-1:],
        "status": [line.strip() for line in status.splitlines() if "files" in line or "sampled" in line],
        "search_ok": "Traceback" not in search_out,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--full", action="store_true", help="the campaign's sizes (CITELINE_HOSTILE_FULL=1)")
    parser.add_argument("--vectors", action="store_true", help="embed too")
    args = parser.parse_args(argv)
    if args.full:
        os.environ["CITELINE_HOSTILE_FULL"] = "1"
    from tests.hostile.cases import CASES

    print(f"load: {os.getloadavg()[0]:.2f} (1 min)  full sizes: {args.full}")
    for name in args.cases or list(CASES):
        row = run_case(name, args.vectors)
        print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
