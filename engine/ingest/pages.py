"""Text on a page and where it sits: lines with boxes, their reading order, and the boxes of a quoted span.

Coordinates are fractions of the page (0..1, origin top left), so a box means the same thing whatever
resolution a page was read or is drawn at. OCR gives loose fragments (one per detected text box); reading
order turns them into lines: columns first (a two-column page reads down the left column, then the right,
with full-width lines such as titles cutting the page into bands), then fragments on the same row, left to
right. Pure Python: the OCR engine and the renderer live elsewhere (engine/ingest/ocr.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 as fractions of the page, origin top left

# A gutter between columns is searched in the middle half of the text's width.
GUTTER_ZONE = (0.25, 0.75)
MIN_GUTTER = 0.012
MIN_COLUMN_LINES = 3
COLUMN_FILL = 0.6  # a column's lines fill at least this much of its width on average (table cells do not)
ROW_OVERLAP = 0.5  # two fragments share a row when their heights overlap by this much of the smaller


@dataclass(frozen=True)
class Fragment:
    """One detected piece of text and its box."""

    text: str
    box: Box

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


@dataclass(frozen=True)
class TextLine:
    """A line in reading order: its fragments left to right; its text is theirs joined by spaces."""

    parts: tuple[Fragment, ...]

    @property
    def text(self) -> str:
        return " ".join(part.text for part in self.parts)

    @property
    def box(self) -> Box:
        return union(part.box for part in self.parts)


@dataclass(frozen=True)
class PageText:
    """What OCR read on one page (1-based), and the size in pixels of the image it read."""

    page: int
    width: int
    height: int
    lines: tuple[TextLine, ...]

    def to_json(self) -> str:
        lines = [[[p.text, [round(v, 5) for v in p.box]] for p in line.parts] for line in self.lines]
        return json.dumps({"page": self.page, "width": self.width, "height": self.height, "lines": lines})

    @classmethod
    def from_json(cls, raw: str) -> PageText:
        data = json.loads(raw)
        lines = tuple(
            TextLine(tuple(Fragment(str(text), _box(box)) for text, box in parts)) for parts in data["lines"]
        )
        return cls(int(data["page"]), int(data["width"]), int(data["height"]), lines)


def _box(values: Sequence[float]) -> Box:
    x0, y0, x1, y1 = (float(v) for v in values)
    return (x0, y0, x1, y1)


def union(boxes: Iterable[Box]) -> Box:
    listed = list(boxes)
    if not listed:
        return (0.0, 0.0, 0.0, 0.0)
    return (
        min(b[0] for b in listed),
        min(b[1] for b in listed),
        max(b[2] for b in listed),
        max(b[3] for b in listed),
    )


def area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def intersection(a: Box, b: Box) -> float:
    return area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


# ------------------------------------------------------------------------------------------ reading order


def reading_order(fragments: Sequence[Fragment], layout: Sequence[Box] | None = None) -> list[TextLine]:
    """Lines in the order a person reads the page: by column band, then row, then left to right.

    `layout` gives each fragment the box to order it by (for a skewed scan: its box on the page turned
    straight), else its own box is used."""
    boxes = list(layout) if layout is not None else [f.box for f in fragments]
    kept = [index for index, f in enumerate(fragments) if f.text.strip()]
    lines: list[TextLine] = []
    for block in _blocks(kept, boxes):
        lines.extend(TextLine(tuple(fragments[i] for i in row)) for row in _rows(block, boxes))
    return lines


def _blocks(kept: list[int], boxes: list[Box]) -> list[list[int]]:
    """Groups of fragments to read one after the other: the whole page, or for a two-column page, per band
    between full-width lines, its left column, then its right column, then the full-width line."""
    gutter = _gutter(kept, boxes)
    if gutter is None:
        return [kept]
    left = [i for i in kept if boxes[i][2] <= gutter]
    right = [i for i in kept if boxes[i][0] >= gutter]
    spanning = sorted((i for i in kept if boxes[i][0] < gutter < boxes[i][2]), key=lambda i: boxes[i][1])
    blocks: list[list[int]] = []
    top = -1.0
    for cut in [*spanning, None]:
        bottom = boxes[cut][1] if cut is not None else 2.0
        for side in (left, right):
            band = [i for i in side if top <= _middle(boxes[i]) < bottom]
            if band:
                blocks.append(band)
        if cut is not None:
            blocks.append([cut])
            top = _middle(boxes[cut])
    return blocks


GUTTER_BINS = 200
MAX_CROSSING = 0.15  # a gutter may be crossed by this share of the fragments at most (titles, figures)


def _gutter(kept: list[int], boxes: list[Box]) -> float | None:
    """The x of a vertical strip between two columns of text, or None for a one-column page: the widest
    run of x positions in the page's middle that the fewest fragments cross, when few cross it and the text
    on each side looks like a column (lines filling its width, not a table's short cells)."""
    if len(kept) < 2 * MIN_COLUMN_LINES:
        return None
    x_lo = min(boxes[i][0] for i in kept)
    x_hi = max(boxes[i][2] for i in kept)
    if x_hi - x_lo <= 0:
        return None
    step = (x_hi - x_lo) / GUTTER_BINS
    counts = [0] * GUTTER_BINS
    for i in kept:
        first = int((boxes[i][0] - x_lo) / step)
        last = min(GUTTER_BINS - 1, int((boxes[i][2] - x_lo) / step))
        for b in range(max(0, first), last + 1):
            counts[b] += 1
    zone = range(int(GUTTER_ZONE[0] * GUTTER_BINS), int(GUTTER_ZONE[1] * GUTTER_BINS))
    fewest = min(counts[b] for b in zone)
    if fewest > MAX_CROSSING * len(kept):
        return None
    run = _longest_run([b for b in zone if counts[b] == fewest])
    if run is None or (run[1] - run[0] + 1) * step < MIN_GUTTER:
        return None
    middle = x_lo + (run[0] + run[1] + 1) / 2 * step
    if _is_column(kept, boxes, x_lo, middle, left=True) and _is_column(kept, boxes, middle, x_hi, left=False):
        return middle
    return None


def _longest_run(bins: list[int]) -> tuple[int, int] | None:
    best: tuple[int, int] | None = None
    start = prev = None
    for b in [*bins, None]:
        if b is not None and prev is not None and b == prev + 1:
            prev = b
            continue
        if start is not None and prev is not None and (best is None or prev - start > best[1] - best[0]):
            best = (start, prev)
        start = prev = b
    return best


def _is_column(kept: list[int], boxes: list[Box], lo: float, hi: float, left: bool) -> bool:
    side = [boxes[i] for i in kept if (boxes[i][2] <= hi if left else boxes[i][0] >= lo)]
    if len(side) < MIN_COLUMN_LINES or hi <= lo:
        return False
    return sum(b[2] - b[0] for b in side) / len(side) >= COLUMN_FILL * (hi - lo)


def _middle(box: Box) -> float:
    return (box[1] + box[3]) / 2


def _rows(block: list[int], boxes: list[Box]) -> list[list[int]]:
    """Fragments that share a row (their heights overlap enough) become one line, left to right."""
    rows: list[list[int]] = []
    for index in sorted(block, key=lambda i: _middle(boxes[i])):
        row = rows[-1] if rows else None
        if row is not None and _same_row([boxes[i] for i in row], boxes[index]):
            row.append(index)
        else:
            rows.append([index])
    return [sorted(row, key=lambda i: boxes[i][0]) for row in rows]


def _same_row(row: list[Box], box: Box) -> bool:
    top = min(b[1] for b in row)
    bottom = max(b[3] for b in row)
    shared = min(bottom, box[3]) - max(top, box[1])
    smaller = min(bottom - top, box[3] - box[1])
    return smaller > 0 and shared >= ROW_OVERLAP * smaller


# --------------------------------------------------------------------------------------------- span boxes

_SPACE = re.compile(r"\s+")


def span_boxes(lines: Sequence[TextLine], quote: str = "") -> list[Box]:
    """The boxes of `quote` within `lines` (one per fragment it touches, cut to the characters it covers,
    as if each fragment's characters were evenly wide); every line's box when the quote is empty or not
    found in them."""
    wanted = _SPACE.sub(" ", quote).strip().lower()
    if wanted:
        found = _find(lines, wanted)
        if found:
            return found
    return [line.box for line in lines if line.parts]


def _find(lines: Sequence[TextLine], wanted: str) -> list[Box]:
    text, owners = _flatten(lines)
    start = text.find(wanted)
    if start < 0:
        return []
    end = start + len(wanted)
    covered: dict[int, list[int]] = {}
    for offset in range(start, end):
        owner = owners[offset]
        if owner is not None:
            covered.setdefault(owner[0], []).append(owner[1])
    parts = [part for line in lines for part in line.parts]
    return [_cut(parts[index], min(chars), max(chars)) for index, chars in sorted(covered.items())]


def _flatten(lines: Sequence[TextLine]) -> tuple[str, list[tuple[int, int] | None]]:
    """The lines' text, whitespace collapsed and lowercased, and for each character (fragment index,
    character index in that fragment's collapsed text), None for the spaces that join fragments."""
    pieces: list[str] = []
    owners: list[tuple[int, int] | None] = []
    index = 0
    for line in lines:
        for part in line.parts:
            clean = _SPACE.sub(" ", part.text).strip().lower()
            if pieces:
                pieces.append(" ")
                owners.append(None)
            pieces.append(clean)
            owners.extend((index, offset) for offset in range(len(clean)))
            index += 1
    return "".join(pieces), owners


def _cut(part: Fragment, first: int, last: int) -> Box:
    """The part of a fragment's box that characters first..last take up."""
    count = max(1, len(_SPACE.sub(" ", part.text).strip()))
    x0, y0, x1, y1 = part.box
    step = (x1 - x0) / count
    return (x0 + step * first, y0, x0 + step * (last + 1), y1)
