#!/usr/bin/env python3
"""Compare the two PDF readers over PDFs: lines, lines whose words run together, seconds to read.

    .venv/bin/python evalsets/pdf_text.py evalsets/pdf_*/docs/*.pdf

pypdf places a space only where a font's space width says one is; PDFium (engine/ingest/pdfpages.py,
`text_lines`, what Citeline reads) places them by the glyphs' positions. A line "runs together" when it
holds a run of 26 letters or more outside a URL or a path ("providesinstructionsforusingtheadditional").
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ingest import pdfpages
from engine.ingest.extract import _open_pdf, _pypdf_lines

RUN = re.compile(r"[^\W\d_]{26,}")
ADDRESS = re.compile(r"\S*[/\\:@]\S*")


def run_together(lines: list[str]) -> int:
    return sum(1 for line in lines if RUN.search(ADDRESS.sub(" ", line)))


def main(paths: list[str]) -> int:
    total = [0, 0, 0, 0, 0.0, 0.0]
    for name in paths:
        path = Path(name)
        data = path.read_bytes()
        start = time.perf_counter()
        old = [line.text for line in _pypdf_lines(path, _open_pdf(path, data))[0]]
        middle = time.perf_counter()
        pages, _ = pdfpages.text_lines(data, path.name)
        new = [line for page in pages for line in page]
        end = time.perf_counter()
        row = (len(old), run_together(old), len(new), run_together(new), middle - start, end - middle)
        total = [a + b for a, b in zip(total, row, strict=True)]
        print(
            f"{path.name}: {len(pages)} pages; pypdf {row[0]} lines, {row[1]} run together, {row[4]:.2f} s; "
            f"PDFium {row[2]} lines, {row[3]} run together, {row[5]:.2f} s"
        )
    print(
        f"all: pypdf {total[0]} lines, {total[1]} run together, {total[4]:.1f} s; "
        f"PDFium {total[2]} lines, {total[3]} run together, {total[5]:.1f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
