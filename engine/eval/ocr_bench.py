"""OCR benchmark: quality and speed of the OCR phase on the generated scan set (engine/eval/ocrset.py).

    python -m engine.eval.ocr_bench [--keep DIR] [--threads 2] [--json FILE]

The set goes through the real pipeline (scan, keyword pass, OCR phase, re-index) in a fresh data dir:
- character error rate (Levenshtein distance / truth length, whole page in reading order, whitespace
  collapsed) per page kind: clean (single column, two columns, tables) and degraded (skewed, blurred,
  noisy, JPEG);
- pages per second of the OCR phase with `--threads` ONNX threads (the machine's load is reported too);
- for each page, a keyword search for its probe sentence: is the top hit that file and page;
- the probe's boxes from Engine.page_span against the true boxes from the text layer: intersection over
  union and the share of the true area covered (both on a 1000 x 1000 grid of the page).
This is a benchmark, not a test: it prints figures; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.api import Engine
from engine.eval import ocrset
from engine.ingest.ocr_phase import content_hash
from engine.ingest.pages import Box
from engine.settings import Settings

CLEAN = ("clean", "two-column", "table")
DEGRADED = ("skewed", "degraded")
_SPACE = re.compile(r"\s+")


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions) by Myers' bit-vector algorithm, as Hyyrö
    states it for Levenshtein distance: one pass over `b`, `a`'s columns held as bits of one integer."""
    if not a or not b:
        return len(a) + len(b)
    full = (1 << len(a)) - 1
    top = 1 << (len(a) - 1)
    masks: dict[str, int] = {}
    for index, char in enumerate(a):
        masks[char] = masks.get(char, 0) | (1 << index)
    pv, mv, score = full, 0, len(a)
    for char in b:
        eq = masks.get(char, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = (mv | ~(xh | pv)) & full
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = (mh | ~(xv | ph)) & full
        mv = ph & xv
    return score


def cer(truth: str, read: str) -> float:
    expected = _SPACE.sub(" ", truth).strip()
    got = _SPACE.sub(" ", read).strip()
    return levenshtein(expected, got) / max(1, len(expected))


def _mask(boxes: Sequence[Box], grid: int) -> set[tuple[int, int]]:
    cells: set[tuple[int, int]] = set()
    for x0, y0, x1, y1 in boxes:
        for x in range(max(0, int(x0 * grid)), min(grid, int(x1 * grid) + 1)):
            cells.update((x, y) for y in range(max(0, int(y0 * grid)), min(grid, int(y1 * grid) + 1)))
    return cells


def overlap(found: Sequence[Box], truth: Sequence[Box], grid: int = 1000) -> tuple[float, float]:
    """(intersection over union, share of the truth covered) of two sets of boxes."""
    got, want = _mask(found, grid), _mask(truth, grid)
    if not want:
        return 0.0, 0.0
    shared = len(got & want)
    return shared / max(1, len(got | want)), shared / len(want)


def run(folder: Path, home: Path, threads: int) -> dict[str, Any]:
    truth = ocrset.build(folder)
    engine = Engine(home, settings=Settings(threads=threads, generator="extractive"))
    try:
        engine.add_folder(folder)
        list(engine.sync(embed=False))
        started = time.perf_counter()
        list(engine.ocr_pending())
        seconds = time.perf_counter() - started
        pages = [_page_report(engine, folder, page) for page in truth]
    finally:
        engine.close()
    return _summary(pages, seconds, threads)


def _page_report(engine: Engine, folder: Path, page: ocrset.ScanPage) -> dict[str, Any]:
    path = folder / page.file
    read = engine.ocr_cache.pages(content_hash(path.read_bytes())).get(page.page)
    text = " ".join(line.text for line in read.lines) if read else ""
    hits = engine.search(page.probe, k=5, mode="keyword").hits
    top = hits[0] if hits else None
    found = top is not None and top.path == str(path.resolve()) and (top.page or 1) == page.page
    iou = covered = 0.0
    if found and top is not None and page.probe_boxes:
        span = engine.page_span(top.path, top.page, top.start_line, top.end_line, page.probe)
        iou, covered = overlap(span.boxes, page.probe_boxes)
    return {
        "file": page.file,
        "page": page.page,
        "kind": page.kind,
        "cer": cer(page.text, text),
        "found": found,
        "iou": iou,
        "covered": covered,
    }


def _summary(pages: list[dict[str, Any]], seconds: float, threads: int) -> dict[str, Any]:
    def mean(kinds: Sequence[str], key: str) -> float:
        values = [float(p[key]) for p in pages if p["kind"] in kinds]
        return statistics.fmean(values) if values else 0.0

    by_kind = {kind: round(mean((kind,), "cer"), 4) for kind in (*CLEAN, *DEGRADED)}
    return {
        "pages": len(pages),
        "threads": threads,
        "load_average": os.getloadavg(),
        "ocr_seconds": round(seconds, 1),
        "pages_per_second": round(len(pages) / seconds, 3) if seconds else None,
        "cer_clean": round(mean(CLEAN, "cer"), 4),
        "cer_degraded": round(mean(DEGRADED, "cer"), 4),
        "cer_by_kind": by_kind,
        "search_top1_right_page": f"{sum(p['found'] for p in pages)}/{len(pages)}",
        "box_iou_mean": round(mean((*CLEAN, *DEGRADED), "iou"), 3),
        "box_covered_mean": round(mean((*CLEAN, *DEGRADED), "covered"), 3),
        "per_page": pages,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--keep", help="build the set here and keep it (default: a temporary folder)")
    parser.add_argument("--threads", type=int, default=2, help="ONNX threads for OCR (default 2)")
    parser.add_argument("--json", help="also write the full report here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="citeline-ocr-bench-") as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp) / "scans"
        report = run(folder, Path(tmp) / "home", args.threads)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    summary = {k: v for k, v in report.items() if k != "per_page"}
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
