"""OCR end to end with the real engine and its models: images and scanned pages become searchable in the
background phase, cached by content, bounded on hostile input, and cited on their page."""

from __future__ import annotations

import importlib.util
import io
import shutil
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.api import Engine
from engine.errors import Cancelled, MissingDependency
from engine.eval.ocr_bench import overlap
from engine.eval.ocrset import assemble_pdf
from engine.events import FileIndexed, IndexProgress
from engine.ingest import ocr, scans
from engine.ingest.ocr_phase import content_hash
from engine.ingest.pages import Box
from engine.settings import Settings

pytestmark = pytest.mark.skipif(
    ocr.available() is not None, reason=f"OCR is not installed here: {ocr.available()}"
)

FIRST = "Pump maintenance every 250 hours"
SECOND = "Valve PSV-101 tested in March"


def text_image(lines: list[str], width: int = 900, size: int = 34) -> tuple[bytes, list[Box]]:
    """A PNG of black lines on white (Pillow's built-in font), and each line's box as page fractions."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=size)
    height = 60 + len(lines) * size * 2
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    boxes = []
    for index, line in enumerate(lines):
        x0, y0, x1, y1 = draw.textbbox((30, 30 + index * size * 2), line, font=font)
        draw.text((30, 30 + index * size * 2), line, font=font, fill="black")
        boxes.append((x0 / width, y0 / height, x1 / width, y1 / height))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue(), boxes


def scanned_pdf(pages: list[list[str]]) -> bytes:
    from PIL import Image

    images = [Image.open(io.BytesIO(text_image(lines)[0])).convert("RGB") for lines in pages]
    out = io.BytesIO()
    images[0].save(out, "PDF", resolution=150.0, save_all=True, append_images=images[1:])
    return out.getvalue()


def statuses(engine: Engine) -> dict[str, tuple[str, str | None]]:
    return {Path(f.path).name: (f.status, f.error) for f in engine.files()}


def hit_names(engine: Engine, query: str) -> list[tuple[str, int | None]]:
    return [(Path(h.path).name, h.page) for h in engine.search(query, mode="keyword").hits]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "scans"
    root.mkdir()
    (root / "note.md").write_text("# Note\n\nA plain note about the garden.\n", encoding="utf-8")
    return root


def test_an_image_is_read_in_the_background_then_found_and_boxed(engine: Engine, folder: Path) -> None:
    data, boxes = text_image([FIRST, SECOND])
    (folder / "memo.png").write_bytes(data)
    engine.add_folder(folder)
    list(engine.sync(embed=False))
    assert statuses(engine)["memo.png"] == ("skipped", "no text layer: waiting for OCR (image)")
    assert statuses(engine)["note.md"][0] == "indexed"  # keyword-searchable first, OCR after
    events = list(engine.ocr_pending())
    progress = [e for e in events if isinstance(e, IndexProgress)]
    assert progress[0].phase == "ocr" and (progress[0].done, progress[-1].done, progress[-1].total) == (
        0,
        1,
        1,
    )
    assert any(isinstance(e, FileIndexed) and e.path.endswith("memo.png") for e in events)
    assert hit_names(engine, "PSV-101 tested")[0] == ("memo.png", None)
    hit = engine.search("PSV-101 tested", mode="keyword").hits[0]
    span = engine.page_span(hit.path, hit.page, hit.start_line, hit.end_line, SECOND)
    assert span.ocr and span.pages == 1
    iou, covered = overlap(span.boxes, [boxes[1]])
    assert covered > 0.9 and iou > 0.5
    text = [line.text for line in engine.document(hit.path).lines]
    assert text == [FIRST, SECOND]


def test_a_mixed_pdf_ocrs_only_its_page_without_text(engine: Engine, folder: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    from engine.eval.ocrset import PageSpec, TextRun, text_pdf

    typed = text_pdf(
        [PageSpec([TextRun("Typed page about the annual budget", 72, 100, "Helvetica", 14)], "", "")]
    )
    writer = PdfWriter()
    for source in (typed, scanned_pdf([[FIRST]])):
        for page in PdfReader(io.BytesIO(source)).pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    (folder / "mixed.pdf").write_bytes(out.getvalue())
    engine.add_folder(folder)
    list(engine.sync(embed=False))
    assert statuses(engine)["mixed.pdf"] == ("indexed", None)  # the typed page at once
    list(engine.ocr_pending())
    assert set(engine.ocr_cache.pages(content_hash(out.getvalue()))) == {2}
    assert hit_names(engine, "annual budget")[0] == ("mixed.pdf", 1)
    assert hit_names(engine, "pump maintenance 250")[0] == ("mixed.pdf", 2)
    typed_span = engine.page_span(folder / "mixed.pdf", 1, 1, 1, "annual budget")
    assert not typed_span.ocr and len(typed_span.boxes) == 1  # found by PDFium in the text layer


def test_ocr_is_cached_by_content(engine: Engine, folder: Path, citeline_home: Path) -> None:
    data, _ = text_image([FIRST])
    (folder / "memo.png").write_bytes(data)
    engine.add_folder(folder)
    list(engine.sync(embed=False))
    list(engine.ocr_pending())
    shutil.copy(folder / "memo.png", folder / "copy of memo.png")
    list(engine.sync(embed=False))
    assert statuses(engine)["copy of memo.png"][0] == "indexed"  # read from the cache in the keyword pass
    assert engine._ocr_phase().pending() == 0
    engine.close()
    shutil.rmtree(citeline_home / "index")  # a rebuilt index keeps what OCR read
    again = Engine(citeline_home)
    again.add_folder(folder)
    list(again.sync(embed=False))
    assert {name: s[0] for name, s in statuses(again).items()} == {
        "copy of memo.png": "indexed",
        "memo.png": "indexed",
        "note.md": "indexed",
    }
    again.close()


def test_ocr_off_or_not_installed_says_so(
    citeline_home: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (folder / "memo.png").write_bytes(text_image([FIRST])[0])
    off = Engine(citeline_home, settings=Settings(ocr=False))
    off.add_folder(folder)
    list(off.sync(embed=False))
    assert statuses(off)["memo.png"] == ("skipped", "no text layer: OCR is off (setting `ocr`)")
    assert list(off.ocr_pending()) == []
    off.close()
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n == "rapidocr" else real(n, *a))
    with pytest.raises(MissingDependency, match="rapidocr"):
        ocr.OcrReader()
    missing = Engine(citeline_home)  # OCR on again: the changed policy re-reads what it skipped
    list(missing.sync(embed=False))
    reason = statuses(missing)["memo.png"][1] or ""
    assert "pip install 'citeline[ocr]'" in reason and reason.startswith("no text layer:")
    missing.close()


def test_models_come_from_the_wheel_never_a_download(monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import Image
    from rapidocr.utils.download_file import DownloadFile

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("RapidOCR tried to download a file")

    monkeypatch.setattr(DownloadFile, "run", classmethod(refuse))
    image = Image.open(io.BytesIO(text_image([FIRST])[0]))
    page = ocr.OcrReader(threads=1).read(image)
    assert [line.text for line in page.lines] == [FIRST]


def test_cancelled_ocr_keeps_its_pages_and_resumes(engine: Engine, folder: Path) -> None:
    data = scanned_pdf([[FIRST], [SECOND], ["Third page on the loading dock"]])
    (folder / "scan.pdf").write_bytes(data)
    engine.add_folder(folder)
    list(engine.sync(embed=False))
    seen: list[IndexProgress] = []

    def after_one_page() -> bool:
        return any(e.done >= 1 for e in seen)

    with pytest.raises(Cancelled):
        for event in engine.ocr_pending(after_one_page):
            if isinstance(event, IndexProgress):
                seen.append(event)
    assert set(engine.ocr_cache.pages(content_hash(data))) == {1}
    assert statuses(engine)["scan.pdf"][0] == "skipped"
    rest = [e for e in engine.ocr_pending() if isinstance(e, IndexProgress)]
    assert rest[-1].total == 2  # only the pages not read before
    assert hit_names(engine, "loading dock")[0] == ("scan.pdf", 3)


# ----------------------------------------------------------------------------------------- hostile input


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims `width` x `height` (1-bit grey) with a few bytes of data: an image bomb's shape."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def many_page_scan(pages: int) -> bytes:
    """An image-only PDF of `pages` pages sharing one small scanned image (a few KB whatever the count)."""
    from PIL import Image

    image = Image.open(io.BytesIO(text_image([FIRST])[0])).convert("L")
    raw = zlib.compress(image.tobytes())
    first = 4
    kids = " ".join(f"{first + 2 * n} 0 R" for n in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
        b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream"
        % (image.width, image.height, len(raw), raw),
    ]
    content = b"q 540 0 0 %d 36 600 cm /Im1 Do Q" % (540 * image.height // image.width)
    for n in range(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /XObject << /Im1 3 0 R >> >> /Contents %d 0 R >>" % (first + 2 * n + 1)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    return assemble_pdf(objects)


def test_hostile_images_and_a_500_page_scan_are_bounded_with_reasons(
    citeline_home: Path, folder: Path
) -> None:
    (folder / "huge.png").write_bytes(png_header(20_000, 20_000))
    (folder / "large.png").write_bytes(png_header(9_000, 8_000))  # past OCR's limit, within Pillow's
    (folder / "bomb.png").write_bytes(png_header(200_000, 200_000))
    (folder / "corrupt.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg" * 10)
    good, _ = text_image([FIRST])
    (folder / "truncated.png").write_bytes(good[: len(good) // 3])
    (folder / "memo.png").write_bytes(text_image([SECOND])[0])
    (folder / "book.pdf").write_bytes(many_page_scan(500))
    engine = Engine(citeline_home, settings=Settings(ocr_max_pages=2))
    engine.add_folder(folder)
    list(engine.sync(embed=False))
    list(engine.ocr_pending())
    found = statuses(engine)
    engine.close()
    assert found["huge.png"] == (
        "skipped",
        "no text layer: image too large for OCR (400 megapixels; the limit is 64), not decoded",
    )
    assert found["bomb.png"] == (
        "skipped",
        "no text layer: image too large for OCR (40,000 megapixels; the limit is 64), not decoded",
    )
    assert (
        found["large.png"][1]
        == "no text layer: image too large for OCR (72 megapixels; the limit is 64), not decoded"
    )
    assert found["corrupt.jpg"][0] == "failed"
    assert (found["corrupt.jpg"][1] or "").startswith("parse error: corrupt.jpg is corrupt or not an image")
    assert found["truncated.png"][0] == "skipped"
    assert (found["truncated.png"][1] or "").startswith("no text layer: OCR could not read page 1")
    assert found["book.pdf"] == (
        "indexed",
        "OCR read 2 of the 500 pages without text (setting `ocr_max_pages`)",
    )
    assert found["memo.png"] == ("indexed", None) and found["note.md"] == ("indexed", None)


def test_decoding_is_bounded_and_a_slow_file_is_cut(engine: Engine, folder: Path) -> None:
    from PIL import Image

    big = io.BytesIO()
    Image.new("L", (6000, 5000), 255).save(big, "PNG")
    with scans.open_image(Path("big.png"), big.getvalue()) as image:
        assert scans.decode(image).width * scans.decode(image).height <= scans.OCR_PIXELS
    (folder / "scan.pdf").write_bytes(scanned_pdf([[FIRST], [SECOND]]))
    engine.add_folder(folder)
    list(engine.sync(embed=False))
    phase = engine._ocr_phase()
    ticks = iter([0, 1, *range(700, 10_000, 700)])
    clock: Callable[[], float] = lambda: float(next(ticks))  # noqa: E731
    phase.clock = clock  # page 1 takes 700 s: the 600 s budget is spent before page 2
    list(phase.run(lambda: False))
    row = engine.file(str(folder / "scan.pdf"))
    assert row is not None and row.status == "indexed"
    assert row.error == "OCR stopped at page 2 of 2: it had taken more than 10 min for this file"


def test_the_cli_counts_files_ocr_indexed_after_the_sync(
    citeline_home: Path, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.cli import main

    (folder / "memo.png").write_bytes(text_image([FIRST])[0])
    assert main(["--data-dir", str(citeline_home), "add", str(folder)]) == 0
    out = capsys.readouterr().out
    # `add` says the folder is added and what keeps it in sync (it does not watch it itself)
    assert f"added {folder} (kept in sync while the app or `citeline watch` runs)" in out
    # the image is skipped until OCR reads it; the summary ends with the totals after OCR, as status says
    assert (
        "indexed 1 files, skipped 1" in out
        and "then OCR read 1 scanned page: now 2 files indexed, 0 skipped in all folders" in out
    )
