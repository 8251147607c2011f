"""Offline OCR: an image in, its lines of text with their boxes out, in reading order.

The engine is RapidOCR (`rapidocr`, Apache-2.0) running PP-OCRv6 detection and recognition models on
ONNX Runtime, the runtime the embedder already uses. The models ship inside the `rapidocr` wheel; they are
named by path, so RapidOCR never looks for them elsewhere, and nothing is downloaded at run time: a
missing model file is a MissingDependency with the command that installs it. `rapidocr` and Pillow are the
optional `ocr` extra; nothing is imported until the first page is read, and the models load once, behind
a lock.

The direction classifier is not used: pages are read upright (a rotated scan reads poorly, as it would
for a person).
"""

from __future__ import annotations

import importlib.util
import logging
import math
import statistics
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import MissingDependency
from engine.ingest.pages import Box, Fragment, PageText, reading_order

if TYPE_CHECKING:
    from PIL.Image import Image

log = logging.getLogger(__name__)

DET_MODEL = "PP-OCRv6_det_small.onnx"
REC_MODEL = "PP-OCRv6_rec_small.onnx"
MIN_SCORE = 0.5  # recognitions below this confidence are dropped (RapidOCR's own default)


def models_dir() -> Path:
    """The folder of the OCR models inside the installed `rapidocr` package; MissingDependency when the
    package or a model file is absent."""
    spec = importlib.util.find_spec("rapidocr")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependency("rapidocr", "ocr")
    folder = Path(next(iter(spec.submodule_search_locations))) / "models"
    for name in (DET_MODEL, REC_MODEL):
        if not (folder / name).is_file():
            raise MissingDependency(f"rapidocr (its model {name})", "ocr")
    if importlib.util.find_spec("PIL") is None:
        raise MissingDependency("pillow", "ocr")
    return folder


def available() -> str | None:
    """None when OCR can run here, else why not (the user message and its fix)."""
    try:
        models_dir()
    except MissingDependency as exc:
        return f"{exc.message} {exc.hint}"
    return None


class OcrReader:
    """Reads images. Construction checks that the package and its models are there (MissingDependency
    says how to install them) and loads nothing; the models load on the first read."""

    def __init__(self, threads: int = 2) -> None:
        self.folder = models_dir()
        self.threads = max(1, threads)
        self._engine: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._engine is None:
                logging.getLogger("RapidOCR").setLevel(logging.ERROR)
                from rapidocr import RapidOCR

                self._engine = RapidOCR(params=self._params())
            return self._engine

    def _params(self) -> dict[str, Any]:
        return {
            "Global.log_level": "error",
            "Global.use_cls": False,
            "Global.text_score": MIN_SCORE,
            "Det.model_path": str(self.folder / DET_MODEL),
            "Rec.model_path": str(self.folder / REC_MODEL),
            "EngineConfig.onnxruntime.intra_op_num_threads": self.threads,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        }

    def quads(self, image: Image) -> list[tuple[str, Quad]]:
        """Every text box found in `image`: its text and its four corners in pixels (clockwise from the
        top left, as the detector gives them)."""
        import numpy as np

        engine = self._engine or self._load()
        result = engine(np.asarray(image.convert("RGB")))
        if result.boxes is None or result.txts is None:
            return []
        found: list[tuple[str, Quad]] = []
        for quad, text in zip(result.boxes, result.txts, strict=True):
            corners = tuple((float(x), float(y)) for x, y in quad)
            found.append((str(text), corners))
        return found

    def read(self, image: Image, page: int = 1) -> PageText:
        """The page's lines in reading order (ordered as if a skewed scan were turned straight)."""
        found = self.quads(image)
        size = (image.width, image.height)
        fragments = [Fragment(text, _bounds(quad, size)) for text, quad in found]
        angle = skew([quad for _, quad in found])
        layout = [_bounds(_turn(quad, -angle, size), size) for _, quad in found]
        return PageText(page, image.width, image.height, tuple(reading_order(fragments, layout)))


Quad = tuple[tuple[float, float], ...]


def skew(quads: Sequence[Quad]) -> float:
    """The page's skew in radians (clockwise positive, y pointing down): the median slope of the top edges
    of boxes at least three times as wide as high (lines of text, not stray marks)."""
    angles = []
    for quad in quads:
        (x0, y0), (x1, y1) = quad[0], quad[1]
        height = math.dist(quad[0], quad[3]) if len(quad) > 3 else 0.0
        if x1 - x0 > 3 * max(height, 1.0):
            angles.append(math.atan2(y1 - y0, x1 - x0))
    return statistics.median(angles) if angles else 0.0


def _turn(quad: Quad, angle: float, size: tuple[int, int]) -> Quad:
    cx, cy = size[0] / 2, size[1] / 2
    cos, sin = math.cos(angle), math.sin(angle)
    return tuple(
        (cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos) for x, y in quad
    )


def _bounds(quad: Quad, size: tuple[int, int]) -> Box:
    xs = [x for x, _ in quad]
    ys = [y for _, y in quad]
    width, height = size
    return (
        max(0.0, min(xs) / width),
        max(0.0, min(ys) / height),
        min(1.0, max(xs) / width),
        min(1.0, max(ys) / height),
    )
