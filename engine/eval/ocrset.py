"""A scanned-document test set made on the spot: pages of known text, drawn and saved as scans.

Each page is first written as a real PDF with a text layer (PDF's standard fonts: Helvetica, Times,
Courier; PDFium draws them from its own built-in copies, so every machine renders the same pixels). PDFium
renders it; the image is saved as an image-only PDF page or as an image file, clean or degraded (skewed,
blurred, noisy, low contrast, JPEG-compressed). The ground truth is the text in reading order and, for one
sentence per page, the sentence's boxes, found by PDFium in the text layer (moved as the skew moved them).

Nothing is stored in the repository: `build(folder)` makes the set in a few seconds, the same every time
(seeded). Pure Pillow, NumPy and PDFium; no OCR.
"""

from __future__ import annotations

import io
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from engine.ingest import pdfpages
from engine.ingest.pages import Box

if TYPE_CHECKING:
    from PIL.Image import Image

PAGE_W, PAGE_H = 612.0, 792.0  # US letter, in points
MARGIN = 64.0
FONTS = ("Helvetica", "Times-Roman", "Courier")
SENTENCES = (  # each {} becomes a random number, so a probe sentence is found on its own page only
    "The quarterly report shows that revenue grew by {} percent in 2023.",
    "Maintenance intervals for the feed pump are every {} operating hours.",
    "Contact Dr. Alice Moreau at extension {} for access to room 4.12.",
    "Safety valves PSV-{} and PSV-102 must be tested once a year.",
    "The committee approved the budget of {} euros on 12 March.",
    "All {} visitors must sign in at the front desk and wear a badge.",
    "Backups run nightly at 02:30 and are kept for {} days.",
    "The warranty covers parts and labour for a period of {} months.",
    "Invoices are payable within {} days of the date of issue.",
    "Store reagent {} below 8 degrees and away from direct light.",
    "The new policy {} takes effect on the first day of next quarter.",
    "Each team lead submits a short progress note every Friday.",
    "The north wing will be closed for repairs until {} September.",
    "Passwords must be at least {} characters long and changed yearly.",
    "Flight {} departs from gate B17 at 09:45 local time.",
    "The pilot study enrolled {} participants across four sites.",
    "Reimbursement requests need the original receipts attached.",
    "The server room temperature should stay between 18 and {} C.",
    "Version {} fixes the export bug reported by several customers.",
    "Parking permits are issued by the facilities office on request.",
    "The annual general meeting is held in hall {} at 10:00.",
    "Samples are labelled with batch number {} and the date of collection.",
    "Overtime must be approved in advance by the department manager.",
    "The library extends its opening hours during the exam period.",
    "Customer data is encrypted at rest and in transit.",
    "Fire drills take place twice a year without prior notice.",
    "The contract may be renewed for {} further periods of one year.",
    "Orders above {} dollars ship free of charge within the country.",
    "The lab notebook records every change to the experimental setup.",
    "Travel by train is preferred for journeys under {} hours.",
    "The bridge inspection found minor corrosion on {} cross beams.",
    "New employees complete the safety induction in their first week.",
)
TABLE_HEADER = ("Item", "Code", "Quantity", "Unit price")
TABLE_ITEMS = (
    "Hex bolt M8", "Washer 8 mm", "Hinge steel", "Cable tie", "Wall plug", "Wood screw 4x40",
    "Lock nut M6", "Spring clip", "Rubber seal", "Drill bit 6 mm", "Glue cartridge", "Sanding disc",
)  # fmt: skip


@dataclass(frozen=True)
class TextRun:
    """A line of text drawn at (x, y) points from the page's top left, in a standard font."""

    text: str
    x: float
    y: float
    font: str
    size: float


@dataclass
class PageSpec:
    """One page: its runs in reading order, ruled lines (x0, y0, x1, y1 in points, top left origin), the
    sentence a search should find, and how it is scanned."""

    runs: list[TextRun]
    probe: str
    kind: str  # clean | two-column | table | skewed | degraded
    rules: list[tuple[float, float, float, float]] = field(default_factory=list)
    skew: float = 0.0  # degrees, counter-clockwise
    degrade: bool = False
    dpi: int = 200

    @property
    def text(self) -> str:
        return " ".join(run.text for run in self.runs)


@dataclass(frozen=True)
class ScanPage:
    """A page of the built set: the file and page it is in, the truth, and the probe sentence's boxes."""

    file: str
    page: int
    kind: str
    text: str
    probe: str
    probe_boxes: tuple[Box, ...]


# ------------------------------------------------------------------------------------------ PDF writer


def _pdf_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(pages: Sequence[PageSpec]) -> bytes:
    """A PDF with a real text layer: each run in its font and size, each rule a 0.8 pt line."""
    fonts = {name: f"F{index}" for index, name in enumerate(FONTS, 1)}
    font_objs = [
        f"<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding >>".encode()
        for name in FONTS
    ]
    first_page = 3 + len(FONTS)
    kids = " ".join(f"{first_page + 2 * index} 0 R" for index in range(len(pages)))
    resources = " ".join(f"/{ref} {3 + index} 0 R" for index, ref in enumerate(fonts.values()))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        *font_objs,
    ]
    for index, spec in enumerate(pages):
        stream = _content(spec, fonts).encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_W:g} {PAGE_H:g}] "
            f"/Resources << /Font << {resources} >> >> /Contents {first_page + 2 * index + 1} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    return assemble_pdf(objects)


def _content(spec: PageSpec, fonts: dict[str, str]) -> str:
    ops = ["0.8 w"]
    for x0, y0, x1, y1 in spec.rules:
        ops.append(f"{x0:.2f} {PAGE_H - y0:.2f} m {x1:.2f} {PAGE_H - y1:.2f} l S")
    for run in spec.runs:
        ops.append(
            f"BT /{fonts[run.font]} {run.size:g} Tf {run.x:.2f} {PAGE_H - run.y:.2f} Td "
            f"({_pdf_string(run.text)}) Tj ET"
        )
    return "\n".join(ops)


def lines_pdf(pages: Sequence[Sequence[str]]) -> bytes:
    """A minimal valid PDF with a text layer: one Helvetica text object per page, a line per entry."""
    kids = " ".join(f"{4 + 2 * index} 0 R" for index in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for index, lines in enumerate(pages):
        shown = " T* ".join(f"({_pdf_string(line)}) Tj" for line in lines)
        stream = f"BT /F1 12 Tf 14 TL 72 720 Td {shown} ET".encode("latin-1")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * index)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    return assemble_pdf(objects)


def assemble_pdf(objects: list[bytes]) -> bytes:
    """A PDF file of these numbered objects (1 is the catalog), with its cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


# ------------------------------------------------------------------------------------------ page layouts


def _wrap(words: list[str], font: str, size: float, width: float) -> list[str]:
    """Greedy line breaking by an estimate of each font's average character width."""
    per_char = {"Courier": 0.6, "Times-Roman": 0.45}.get(font, 0.5) * size
    lines: list[str] = []
    line: list[str] = []
    for word in words:
        if line and len(" ".join([*line, word])) * per_char > width:
            lines.append(" ".join(line))
            line = []
        line.append(word)
    if line:
        lines.append(" ".join(line))
    return lines


def _column(
    text: str, font: str, size: float, x: float, top: float, width: float, bottom: float
) -> list[TextRun]:
    runs = []
    y = top
    for line in _wrap(text.split(), font, size, width):
        if y > bottom:
            break
        runs.append(TextRun(line, x, y, font, size))
        y += size * 1.45
    return runs


def _sentences(rng: random.Random, count: int) -> list[str]:
    return [rng.choice(SENTENCES).format(rng.randrange(100, 99999)) for _ in range(count)]


def _pick_probe(runs: list[TextRun], rng: random.Random) -> str:
    """Six whole words of one line, one of them a number (what a user would search for and cite)."""
    numbered = [run for run in runs if len(run.text.split()) >= 6 and any(c.isdigit() for c in run.text)]
    words = rng.choice(numbered or runs).text.split()
    digits = [index for index, word in enumerate(words) if any(c.isdigit() for c in word)] or [0]
    start = min(max(0, rng.choice(digits) - rng.randrange(0, 6)), max(0, len(words) - 6))
    return " ".join(words[start : start + 6])


def single_column(rng: random.Random, font: str, size: float) -> PageSpec:
    title = TextRun(f"Notes {rng.randrange(100, 999)}", MARGIN, MARGIN + 10, font, size + 6)
    body = " ".join(_sentences(rng, 24))
    runs = [title, *_column(body, font, size, MARGIN, MARGIN + 50, PAGE_W - 2 * MARGIN, PAGE_H - MARGIN)]
    return PageSpec(runs, _pick_probe(runs[1:], rng), "clean")


def two_column(rng: random.Random, font: str, size: float) -> PageSpec:
    title = TextRun("Field report and summary of findings", MARGIN, MARGIN + 10, font, size + 7)
    width = (PAGE_W - 2 * MARGIN - 30) / 2
    left = _column(" ".join(_sentences(rng, 16)), font, size, MARGIN, MARGIN + 50, width, PAGE_H - MARGIN)
    right_x = MARGIN + width + 30
    right = _column(" ".join(_sentences(rng, 16)), font, size, right_x, MARGIN + 50, width, PAGE_H - MARGIN)
    return PageSpec([title, *left, *right], _pick_probe(right, rng), "two-column")


def table(rng: random.Random, font: str, size: float) -> PageSpec:
    columns = (MARGIN, MARGIN + 170, MARGIN + 270, MARGIN + 370)
    runs = [TextRun("Parts order, spring batch", MARGIN, MARGIN + 10, font, size + 5)]
    rules = []
    y = MARGIN + 60
    rows = [TABLE_HEADER] + [_table_row(rng, item) for item in rng.sample(TABLE_ITEMS, 10)]
    for row in rows:
        rules.append((MARGIN - 6, y - size - 4, MARGIN + 460, y - size - 4))
        runs.extend(TextRun(cell, x, y, font, size) for cell, x in zip(row, columns, strict=True))
        y += size * 2.2
    rules.append((MARGIN - 6, y - size - 4, MARGIN + 460, y - size - 4))
    note = " ".join(_sentences(rng, 3))
    runs.extend(_column(note, font, size, MARGIN, y + 20, PAGE_W - 2 * MARGIN, PAGE_H - MARGIN))
    return PageSpec(runs, " ".join(rng.choice(rows[1:])), "table", rules)


def _table_row(rng: random.Random, item: str) -> tuple[str, ...]:
    price = f"{rng.randrange(1, 90)}.{rng.randrange(10, 99)}"
    return (item, f"P-{rng.randrange(1000, 9999)}", str(rng.randrange(1, 400)), price)


def specs(seed: int = 7) -> list[PageSpec]:
    """The set: 18 clean single-column pages (3 fonts x 3 sizes x 2), 2 two-column pages, 2 tables, 4
    skewed scans and 6 degraded ones (32 pages)."""
    rng = random.Random(seed)
    pages = [single_column(rng, font, size) for font in FONTS for size in (9.0, 11.0, 14.0) for _ in range(2)]
    pages += [two_column(rng, "Times-Roman", 10.0), two_column(rng, "Helvetica", 10.0)]
    pages += [table(rng, "Helvetica", 11.0), table(rng, "Courier", 10.0)]
    for angle in (1.0, -1.5, 2.0, -3.0):
        page = single_column(rng, rng.choice(FONTS), 11.0)
        page.kind, page.skew = "skewed", angle
        pages.append(page)
    for index in range(6):
        page = single_column(rng, FONTS[index % 3], 10.0 + index % 2 * 2)
        page.kind, page.degrade, page.dpi, page.skew = "degraded", True, 150, (index - 2.5) * 0.4
        pages.append(page)
    everything = "\n".join(page.text for page in pages)
    for page in pages:
        if everything.count(page.probe) != 1:
            page.probe = _unique_probe(page, everything, rng)
    return pages


def _unique_probe(page: PageSpec, everything: str, rng: random.Random) -> str:
    """Six words of one of the page's lines found nowhere else in the set (else its longest line)."""
    windows = [
        " ".join(words[start : start + 6])
        for words in (run.text.split() for run in page.runs)
        for start in range(max(1, len(words) - 5))
    ]
    unique = [window for window in windows if everything.count(window) == 1]
    return rng.choice(unique) if unique else max((run.text for run in page.runs), key=len)


# ------------------------------------------------------------------------------------------ scanning


def scan(data: bytes, number: int, spec: PageSpec) -> Image:
    """Draw one page of `data` as a scanner would: at the spec's DPI, skewed and degraded as it says."""
    from PIL import Image as PILImage
    from PIL import ImageFilter

    image = pdfpages.render(data, number, spec.dpi)
    if spec.skew:
        image = image.rotate(spec.skew, PILImage.Resampling.BICUBIC, fillcolor=(255, 255, 255))
    if spec.degrade:
        image = _degrade(image.filter(ImageFilter.GaussianBlur(0.7)), number)
    return image


def _degrade(image: Image, seed: int) -> Image:
    """Low contrast, grey paper, sensor noise and JPEG artefacts, as a cheap office scanner gives."""
    import numpy as np
    from PIL import Image as PILImage

    rng = np.random.default_rng(seed)
    pixels = np.asarray(image, dtype=np.float32) * 0.72 + 48
    pixels += rng.normal(0, 10, pixels.shape)
    noisy = PILImage.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    out = io.BytesIO()
    noisy.save(out, format="JPEG", quality=40)
    return PILImage.open(io.BytesIO(out.getvalue())).convert("RGB")


def _rotate_box(box: Box, degrees: float) -> Box:
    """Where a box lands when the page turns `degrees` counter-clockwise about its centre (the bounding
    box of its turned corners), in page fractions."""
    if not degrees:
        return box
    angle = math.radians(degrees)
    cos, sin = math.cos(angle), math.sin(angle)
    xs, ys = [], []
    for fx, fy in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
        x, y = (fx - 0.5) * PAGE_W, (fy - 0.5) * PAGE_H
        xs.append((x * cos + y * sin) / PAGE_W + 0.5)
        ys.append((-x * sin + y * cos) / PAGE_H + 0.5)
    return (min(xs), min(ys), max(xs), max(ys))


# ------------------------------------------------------------------------------------------ the set


def build(folder: Path, seed: int = 7) -> list[ScanPage]:
    """Write the set into `folder`: image-only PDFs for the clean pages (one per font, one for layouts),
    PNG files for the skewed pages, JPEG and one TIFF for the degraded ones. Returns the truth per page."""
    folder.mkdir(parents=True, exist_ok=True)
    pages = specs(seed)
    source = text_pdf(pages)
    truth: list[ScanPage] = []
    groups: dict[str, list[tuple[int, PageSpec]]] = {}
    for number, spec in enumerate(pages, 1):
        name = _file_for(spec, number)
        groups.setdefault(name, []).append((number, spec))
    for name, members in groups.items():
        images = [scan(source, number, spec) for number, spec in members]
        _save(folder / name, images, [spec.dpi for _, spec in members])
        for page, (number, spec) in enumerate(members, 1):
            boxes = tuple(_rotate_box(b, spec.skew) for b in pdfpages.text_boxes(source, number, spec.probe))
            truth.append(ScanPage(name, page, spec.kind, spec.text, spec.probe, boxes))
    return truth


def _file_for(spec: PageSpec, number: int) -> str:
    if spec.kind == "clean":
        font = spec.runs[-1].font.split("-")[0].lower()
        return f"scan-{font}.pdf"
    if spec.kind in ("two-column", "table"):
        return "scan-layouts.pdf"
    if spec.kind == "skewed":
        return f"skewed-{number:02d}.png"
    return "degraded-pages.tiff" if number % 3 == 0 else f"degraded-{number:02d}.jpg"


def _save(path: Path, images: list[Image], dpis: list[int]) -> None:
    if path.suffix == ".pdf":
        images[0].save(path, "PDF", resolution=float(dpis[0]), save_all=True, append_images=images[1:])
    elif path.suffix == ".tiff":
        images[0].save(path, "TIFF", compression="tiff_lzw", save_all=True, append_images=images[1:])
    elif path.suffix == ".jpg":
        images[0].save(path, "JPEG", quality=60, dpi=(dpis[0], dpis[0]))
    else:
        images[0].save(path, "PNG", dpi=(dpis[0], dpis[0]))
