"""Page view: a PDF page or an image as it looks, the cited span boxed on it and scrolled into view.

The source preview shows PDFs and images here, above its text view: a bar with previous/next page, the page
number, zoom out/in and a "Text" toggle that swaps the page for the extracted (or OCR'd) text. The engine
finds the page and the span's boxes (Engine.page_span: the OCR cache, or PDFium's text layer) and draws the
page (Engine.render_page); both run on the read pool, and a newer request drops an older one's result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QKeyEvent, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.tasks import Job, State, TaskManager
from desktop.theme import LIGHT_CODE
from engine.api import Engine, PageSpan, Rendered, has_pages

if TYPE_CHECKING:
    from collections.abc import Callable

    from engine.api import DocumentLines

ZOOM_STEP = 1.25
ZOOM_RANGE = (0.5, 4.0)
MIN_WIDTH = 320  # pixels a page is drawn at, whatever the pane's width
BOX_PAD = 3  # pixels around each box, so the frame does not cover the letters
BOX_EDGE = "#b86e00"  # the frame of a cited span: dark amber, 3.6:1 on white paper


@dataclass(frozen=True)
class PageRequest:
    """What to show: a file, the cited span (page, lines, quote), and which page is wanted now."""

    path: str
    page: int | None
    start_line: int
    end_line: int
    quote: str = ""


class PageView(QWidget):
    """The page bar and the page; it hides itself, and shows `text_view`, for files without pages."""

    shown = Signal(object)  # PageSpan, once a page is drawn (boxes only on the cited page)

    def __init__(
        self, engine: Engine, tasks: TaskManager, text_view: QWidget, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.engine = engine  # given, not looked up: the view works in any window, or in none
        self.tasks = tasks
        self.text_view = text_view
        self.request: PageRequest | None = None
        self.span: PageSpan | None = None
        self.page = 1
        self.zoom = 1.0
        self._wanted = 0
        self.image = QLabel()
        self.image.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.area = QScrollArea()
        self.area.setWidget(self.image)
        self.area.setWidgetResizable(True)
        self.area.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.label = QLabel("")
        self.label.setObjectName("muted")
        self.previous = self._button("‹", "Previous page (PgUp)", lambda: self.turn(-1))
        self.next = self._button("›", "Next page (PgDown)", lambda: self.turn(1))
        self.smaller = self._button("−", "Zoom out", lambda: self.zoom_by(1 / ZOOM_STEP))
        self.larger = self._button("+", "Zoom in", lambda: self.zoom_by(ZOOM_STEP))
        self.text = self._button("Text", "Show the text instead of the page", self._text_toggled)
        self.text.setCheckable(True)
        self._layout()
        self.setVisible(False)

    def _button(self, text: str, tip: str, slot: Callable[[], None]) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.setAccessibleName(tip)
        button.clicked.connect(slot)
        return button

    def _layout(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for widget in (self.previous, self.label, self.next):
            bar.addWidget(widget)
        bar.addStretch(1)
        for widget in (self.smaller, self.larger, self.text):
            bar.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.area, 1)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    # -- what the preview calls -----------------------------------------------------------------------
    def reader(self) -> Callable[[str, int | None], DocumentLines]:
        """How the preview reads a file's text: through the engine (a scanned page's text is what OCR
        read)."""
        return self.engine.document

    def show_target(self, request: PageRequest) -> None:
        """Show `request`'s page with its span boxed, or hide for a file that has no pages."""
        self.request, self.span = request, None
        if not has_pages(request.path):
            self._set_paged(False)
            return
        self._set_paged(True)
        self.page = request.page or 1
        self.label.setText("…")
        self._draw(locate=True)

    def clear(self) -> None:
        self._wanted += 1
        self.request = self.span = None
        self.image.clear()
        self._set_paged(False)

    # -- page, zoom, text -----------------------------------------------------------------------------
    def turn(self, step: int) -> None:
        pages = self.span.pages if self.span else 1
        if self.request is not None and 1 <= self.page + step <= pages:
            self.page += step
            self._draw(locate=False)

    def zoom_by(self, factor: float) -> None:
        self.zoom = min(ZOOM_RANGE[1], max(ZOOM_RANGE[0], self.zoom * factor))
        if self.request is not None and self.span is not None:
            self._draw(locate=False)

    def _text_toggled(self) -> None:
        self._set_paged(not self.isHidden(), text=self.text.isChecked())

    def _set_paged(self, paged: bool, text: bool = False) -> None:
        """Pages shown (the page, or the text under the bar when `text`), or the text alone."""
        self.setVisible(paged)
        self.area.setVisible(paged and not text)
        self.text_view.setVisible(not paged or text)
        self.text.setChecked(paged and text)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_PageDown:
            self.turn(1)
        elif event.key() == Qt.Key.Key_PageUp:
            self.turn(-1)
        else:
            super().keyPressEvent(event)

    # -- drawing (read pool, then the GUI thread) -----------------------------------------------------
    def _width(self) -> int:
        return max(MIN_WIDTH, int((self.area.viewport().width() - 16) * self.zoom))

    def _draw(self, locate: bool) -> None:
        engine, request = self.engine, self.request
        assert request is not None
        self._wanted += 1
        wanted, page, width, known = self._wanted, self.page, self._width(), self.span

        def work(job: Job) -> tuple[PageSpan, Rendered]:
            span = known
            if locate or span is None:
                span = engine.page_span(
                    request.path, request.page, request.start_line, request.end_line, request.quote
                )
            return span, engine.render_page(request.path, span.page if locate else page, width)

        self.tasks.read("drawing the page", work, then=lambda job: self._drawn(job, wanted, locate))

    def _drawn(self, job: Job, wanted: int, locate: bool) -> None:
        if wanted != self._wanted:
            return  # a newer page, zoom or source won
        if job.state is not State.DONE:
            self.label.setText("page not shown")
            self.image.setText(job.error or "The page could not be drawn.")
            self.shown.emit(None)
            return
        span, rendered = job.result
        self.span = span
        if locate:
            self.page = span.page
        boxes = span.boxes if self.page == span.page else ()
        self.image.setPixmap(self._pixmap(rendered, boxes))
        self.label.setText(f"page {self.page} of {span.pages}")
        self.previous.setEnabled(self.page > 1)
        self.next.setEnabled(self.page < span.pages)
        if boxes and locate:
            self._scroll_to(boxes[0], rendered)
        self.shown.emit(span)

    def _pixmap(self, rendered: Rendered, boxes: tuple[tuple[float, float, float, float], ...]) -> QPixmap:
        image = QImage(
            rendered.rgb, rendered.width, rendered.height, rendered.width * 3, QImage.Format.Format_RGB888
        ).convertToFormat(QImage.Format.Format_RGB32)  # a copy Qt's raster engine composes on
        if boxes:
            painter = QPainter(image)
            fill = QColor(LIGHT_CODE.quote)  # a page is paper whatever the theme: the light tint
            fill.setAlpha(110)
            rects = [self._rect(box, rendered) for box in boxes]
            # Multiplied, not laid over: the paper takes the tint and the ink stays as dark as printed
            # (over it, the cited words were the faintest on the page).
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Multiply)
            for rect in rects:
                painter.fillRect(rect, fill)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
            painter.setPen(QPen(QColor(BOX_EDGE), 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for rect in rects:
                painter.drawRect(rect)
            painter.end()
        return QPixmap.fromImage(image)

    @staticmethod
    def _rect(box: tuple[float, float, float, float], rendered: Rendered) -> QRectF:
        x0, y0, x1, y1 = box
        return QRectF(
            x0 * rendered.width - BOX_PAD,
            y0 * rendered.height - BOX_PAD,
            (x1 - x0) * rendered.width + 2 * BOX_PAD,
            (y1 - y0) * rendered.height + 2 * BOX_PAD,
        )

    def _scroll_to(self, box: tuple[float, float, float, float], rendered: Rendered) -> None:
        rect = self._rect(box, rendered)
        margin = self.area.viewport().height() // 3
        self.area.ensureVisible(int(rect.center().x()), int(rect.center().y()), 40, margin)
