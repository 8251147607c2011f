"""A read-only QPlainTextEdit with a line-number gutter and a highlighted span (the cited lines), the quote
and the query's words in it marked on top."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextBlock,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

from desktop.theme import code_colors
from desktop.widgets.highlight import TERM_COLOR, Highlighter, utf16_offsets
from engine.api import QueryTerms


class _Gutter(QWidget):
    def __init__(self, view: CodeView) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(self) -> QSize:
        return QSize(self.view.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self.view.paint_gutter(event)


class CodeView(QPlainTextEdit):
    """Line numbers in a gutter; `show_span` marks lines [start, end] and a quote, and scrolls to them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.first_number = 1  # the number shown beside block 0
        # what the gutter shows beside each block instead, where the text is a document's extracted lines:
        # the line a citation names, beside the block that begins it (a page marker and the blank line
        # after a paragraph show none)
        self.labels: dict[int, str] | None = None
        self._span: tuple[int, int, str, QueryTerms | None, bool] | None = None  # show_span's, to recolour
        self._gutter = _Gutter(self)
        self.blockCountChanged.connect(self._update_margin)
        self.updateRequest.connect(self._scroll_gutter)
        self._update_margin()

    # -- gutter ---------------------------------------------------------------------------------------
    def gutter_width(self) -> int:
        if self.labels is not None:
            digits = max((len(label) for label in self.labels.values()), default=1)
        else:
            digits = len(str(max(1, self.blockCount() + self.first_number - 1)))
        return 12 + self.fontMetrics().horizontalAdvance("9") * max(3, digits)

    def _update_margin(self) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def set_gutter(self) -> None:
        """Size and paint the gutter anew (after `labels` changed)."""
        self._update_margin()
        self._place_gutter()
        self._gutter.update()

    def _place_gutter(self) -> None:
        area = self.contentsRect()
        self._gutter.setGeometry(QRect(area.left(), area.top(), self.gutter_width(), area.height()))

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_gutter()

    def paint_gutter(self, event: QPaintEvent) -> None:
        painter = QPainter(self._gutter)
        palette = self.palette()
        painter.fillRect(event.rect(), palette.alternateBase())
        painter.setPen(palette.placeholderText().color())
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible():
                if self.labels is not None:
                    number = self.labels.get(block.blockNumber(), "")
                else:
                    number = str(block.blockNumber() + self.first_number)
                right = Qt.AlignmentFlag.AlignRight
                painter.drawText(0, top, self._gutter.width() - 6, height, right, number)
            top += round(self.blockBoundingRect(block).height())
            block = block.next()
        painter.end()

    # -- the cited span -------------------------------------------------------------------------------
    def show_span(
        self,
        first_block: int,
        last_block: int,
        quote: str = "",
        terms: QueryTerms | None = None,
        cited: bool = True,
    ) -> None:
        """Highlight blocks [first, last] (0-based), the quote and the query's words inside them (the span's
        tint would hide the highlighter's), and scroll them into view. A span that is not `cited` (evidence,
        a search result) gets the theme's passage tint, never the citation's."""
        self._span = (first_block, last_block, quote, terms, cited)
        marked = self._mark()
        if marked is None:
            return
        start, anchor = marked
        cursor = QTextCursor(start)
        if anchor is not None:
            cursor.setPosition(anchor.selectionStart())
        self.setTextCursor(cursor)
        self.centerCursor()

    def clear_span(self) -> None:
        self._span = None
        self.setExtraSelections([])

    def setPlainText(self, text: str) -> None:
        """New text: the old span no longer applies (a theme switch must not mark it again)."""
        self.clear_span()
        super().setPlainText(text)

    def clear(self) -> None:
        self.clear_span()
        super().clear()

    def _mark(self) -> tuple[QTextBlock, QTextCursor | None] | None:
        """The span's selections in the theme's colours; (its first block, what to scroll to: the quote, else
        the first marked word, else None), or None when there is no span."""
        if self._span is None:
            return None
        first_block, last_block, quote, terms, cited = self._span
        doc = self.document()
        last_block = max(first_block, min(last_block, doc.blockCount() - 1))
        start = doc.findBlockByNumber(first_block)
        end = doc.findBlockByNumber(last_block)
        if not start.isValid():
            return None
        # Qt draws a selection's full-width band only on the lines it runs past the end of: the span takes
        # its last line's separator, and the document's last line, which has none, gets its band from a
        # collapsed cursor there (as a current-line highlight does; the view does not wrap lines).
        final = not end.next().isValid()
        span = QTextCursor(start)
        span.setPosition(
            end.position() if final else end.position() + end.length(), QTextCursor.MoveMode.KeepAnchor
        )
        colors = code_colors()  # the theme's: the code's colours stay readable on them
        band = QColor(colors.span if cited else colors.passage)
        selections = [_selection(span, band, full_width=True)]
        if final:
            selections.append(_selection(QTextCursor(end), band, full_width=True))
        found = self._find_quote(quote, start.position(), end.position() + end.length() - 1)
        if found is not None:
            selections.append(_selection(found, QColor(colors.quote)))
        marked = self._term_selections(first_block, last_block, terms) if terms else []
        self.setExtraSelections(selections + marked)
        anchor = found if found is not None else (QTextCursor(marked[0].cursor) if marked else None)
        return start, anchor

    def changeEvent(self, event: QEvent) -> None:
        """A theme switch recolours what is shown at once, where the user has scrolled to: the syntax
        colours (the document's highlighter) and the span, which were painted in the old theme's colours."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            for highlighter in self.document().findChildren(Highlighter):
                highlighter.recolour()
            self._mark()

    def _term_selections(self, first: int, last: int, terms: QueryTerms) -> list[QTextEdit.ExtraSelection]:
        selections = []
        for number in range(first, last + 1):
            block = self.document().findBlockByNumber(number)
            text = block.text()
            units = utf16_offsets(text)
            for start, end in terms.spans(text):
                cursor = QTextCursor(block)
                cursor.setPosition(block.position() + (units[start] if units else start))
                end_at = block.position() + (units[end] if units else end)
                cursor.setPosition(end_at, QTextCursor.MoveMode.KeepAnchor)
                selections.append(_selection(cursor, TERM_COLOR))
        return selections

    def _find_quote(self, quote: str, begin: int, end: int) -> QTextCursor | None:
        """The quote inside the span: whole if it sits on one line, else its first line."""
        lines = [line.strip() for line in quote.splitlines() if line.strip()]
        for candidate in (" ".join(quote.split()), lines[0] if lines else ""):
            if not candidate:
                continue
            found = self.document().find(candidate, begin)
            if not found.isNull() and found.selectionStart() <= end:
                return found
        return None


def _selection(cursor: QTextCursor, color: QColor, full_width: bool = False) -> QTextEdit.ExtraSelection:
    selection = QTextEdit.ExtraSelection()
    selection.cursor = cursor
    selection.format.setBackground(color)
    if full_width:
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
    return selection
