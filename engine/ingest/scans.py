"""Files whose text is an image: image files, and PDF pages without a text layer.

The keyword pass reads what has a text layer at once. What does not is read by OCR later, in a background
phase (engine/ingest/ocr.py); until then, and when OCR is off, unavailable or finds nothing, the file is
skipped with a reason that starts with NO_TEXT_LAYER. Opening an image is bounded: its header is read
first and an image of more than MAX_PIXELS is refused before a byte of it is decoded, so a decompression
bomb or a 20k x 20k scan costs nothing but a recorded reason.

This module imports no heavy package at import time (Pillow is imported when an image is opened).
"""

from __future__ import annotations

import functools
import importlib.util
import io
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import ExtractError
from engine.events import Document

if TYPE_CHECKING:
    from PIL.Image import Image

NO_TEXT_LAYER = "no text layer"  # every skip reason of this module starts so (indexer._changed reads it)
WAITING = f"{NO_TEXT_LAYER}: waiting for OCR"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp", ".gif")
HEIF_SUFFIXES = (".heic", ".heif")  # only where pillow-heif is installed (Pillow alone cannot read them)
MAX_PIXELS = 64_000_000  # an 8000 x 8000 scan; decoded as RGB that is 192 MB, the most one image may cost
OCR_PIXELS = 12_000_000  # larger images are scaled down to this before OCR (text stays well above 20 px)


class NoTextLayer(ExtractError):
    """A file (or every page of it) has no text to extract: OCR may read it; the indexer skips it with
    `message` as the reason until then."""


@functools.cache
def image_suffixes() -> tuple[str, ...]:
    """The image types this installation can open: HEIC/HEIF only with pillow-heif (looked up once: the
    extractor registry and the scanner fix their lists at import too, and ingest asks for every file)."""
    heif = importlib.util.find_spec("pillow_heif") is not None
    return IMAGE_SUFFIXES + (HEIF_SUFFIXES if heif else ())


def is_image(path: Path | str) -> bool:
    return Path(path).suffix.lower() in image_suffixes()


def may_need_ocr(path: Path | str) -> bool:
    """Whether a file's text may (in part) be only in its pixels: an image, or a PDF."""
    return Path(path).suffix.lower() == ".pdf" or is_image(path)


@dataclass(frozen=True)
class ImageExtractor:
    """Image files have no text layer: the header is checked (a corrupt file fails now, with its reason;
    one too large is skipped), then NoTextLayer hands the file to OCR."""

    def extract(self, path: Path, data: bytes) -> Document:
        with open_image(path, data) as image:
            frames = getattr(image, "n_frames", 1)
        raise NoTextLayer(f"{WAITING} ({_describe(frames)})", "")


def _describe(frames: int) -> str:
    return "image" if frames <= 1 else f"{frames}-page image"


def open_image(path: Path, data: bytes) -> Image:
    """Open an image lazily (header only), refusing one that is corrupt or larger than MAX_PIXELS."""
    from PIL import Image as PILImage
    from PIL import UnidentifiedImageError

    if Path(path).suffix.lower() in HEIF_SUFFIXES:
        _register_heif()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            image = PILImage.open(io.BytesIO(data))
    except (UnidentifiedImageError, PILImage.DecompressionBombError, PILImage.DecompressionBombWarning) as e:
        raise _refusal(path, e) from e
    except (OSError, ValueError, SyntaxError, EOFError) as e:
        raise ExtractError(f"{path.name} is corrupt or not an image ({e})", "re-save or re-export it") from e
    width, height = image.size
    if width <= 0 or height <= 0 or width * height > MAX_PIXELS:
        image.close()
        raise NoTextLayer(too_large(width * height), "")
    return image


def too_large(pixels: int) -> str:
    size = f"{pixels / 1e6:,.0f} megapixels; the limit is {MAX_PIXELS // 1_000_000}"
    return f"{NO_TEXT_LAYER}: image too large for OCR ({size}), not decoded"


_BOMB_SIZE = re.compile(r"\((\d+) pixels\)")


def _refusal(path: Path, exc: Exception) -> ExtractError:
    """Pillow refuses an image far past its own limit (a decompression bomb) as it opens it: that is a
    too-large image like any other; anything else it cannot identify is not an image."""
    from PIL import Image as PILImage

    if isinstance(exc, (PILImage.DecompressionBombError, PILImage.DecompressionBombWarning)):
        found = _BOMB_SIZE.search(str(exc))
        return NoTextLayer(too_large(int(found.group(1)) if found else MAX_PIXELS + 1), "")
    return ExtractError(f"{path.name} is corrupt or not an image", "re-save or re-export it")


def _register_heif() -> None:
    import pillow_heif

    pillow_heif.register_heif_opener()


def decode(image: Image, frame: int = 0) -> Image:
    """One frame as RGB, scaled down to OCR_PIXELS at most (JPEG is reduced while decoding)."""
    from PIL import Image as PILImage

    image.seek(frame)
    width, height = image.size
    scale = min(1.0, (OCR_PIXELS / max(1, width * height)) ** 0.5)
    if scale < 1.0 and image.format == "JPEG":
        image.draft("RGB", (int(width * scale), int(height * scale)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", PILImage.DecompressionBombWarning)
        rgb = image.convert("RGB")
    width, height = rgb.size
    scale = min(1.0, (OCR_PIXELS / max(1, width * height)) ** 0.5)
    if scale < 1.0:
        size = (max(1, int(width * scale)), max(1, int(height * scale)))
        rgb = rgb.resize(size, PILImage.Resampling.LANCZOS)
    return rgb
