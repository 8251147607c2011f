"""How a search result is drawn: its place on one line (folders elided before the file name), then at most
three lines of its snippet with the query's words in bold, around the first of them.

The engine marks matched words as **word**. The snippet is laid out as plain text with bold runs (never
parsed as HTML, so "<b>" or "&amp;" in a file show as they are); when it needs more lines than a row has, the
lines shown are those around the first marked word, and "…" stands where the text is cut.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

TITLE_ROLE = Qt.ItemDataRole.UserRole + 1  # "retrieve/__init__.py:1-3"
SNIPPET_ROLE = Qt.ItemDataRole.UserRole + 2  # the engine's snippet, matched words in ** **
MARK = "**"
SNIPPET_LINES = 3
PAD = 4  # pixels around a row's text
ELLIPSIS = "…"

Index = QModelIndex | QPersistentModelIndex


def segments(marked: str) -> list[tuple[str, bool]]:
    """Plain and bold runs: "a **b** c" -> [("a ", False), ("b", True), (" c", False)]; no empty runs."""
    return [(text, i % 2 == 1) for i, text in enumerate(marked.split(MARK)) if text]


def plain(marked: str) -> str:
    return "".join(text for text, _bold in segments(marked))


def elide_title(title: str, metrics: QFontMetrics, width: int) -> str:
    """The title in `width` pixels: the folders give way first ("…est/extract.py:41-44"), then the name."""
    if metrics.horizontalAdvance(title) <= width:
        return title
    folders, slash, name = title.rpartition("/")
    if slash:
        room = width - metrics.horizontalAdvance(slash + name)
        if room > metrics.horizontalAdvance(ELLIPSIS * 2):  # something of the folders still shows
            return metrics.elidedText(folders, Qt.TextElideMode.ElideLeft, room) + slash + name
    return metrics.elidedText(name if slash else title, Qt.TextElideMode.ElideMiddle, width)


def snippet_document(marked: str, font: QFont, width: int, lines: int = SNIPPET_LINES) -> QTextDocument:
    """The snippet wrapped to `width`, cut to at most `lines` lines around its first bold word."""
    doc = QTextDocument()
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    doc.setDefaultTextOption(QTextOption(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop))
    doc.setTextWidth(max(1, width))
    cursor = QTextCursor(doc)
    bold = QTextCharFormat()
    bold.setFontWeight(QFont.Weight.Bold)
    for text, is_bold in segments(marked):
        cursor.insertText(text, bold if is_bold else QTextCharFormat())
    _fit(doc, lines)
    return doc


def _line_count(doc: QTextDocument) -> int:
    doc.documentLayout().documentSize()  # lays the text out
    layout = doc.firstBlock().layout()
    return layout.lineCount() if layout is not None else 0


def _fit(doc: QTextDocument, lines: int) -> None:
    """Keep `lines` lines around the first bold character; "…" where text was cut (and fewer words before
    the closing one when it would wrap to another line)."""
    count = _line_count(doc)
    if count <= lines:
        return
    layout = doc.firstBlock().layout()
    target = _first_bold(doc)
    marked_line = next((i for i in range(count) if _line_end(layout, i) > target), 0)
    first = max(0, min(marked_line - 1, count - lines))
    start, end = layout.lineAt(first).textStart(), _line_end(layout, first + lines - 1)
    cursor = QTextCursor(doc)
    if end < doc.characterCount() - 1:
        _cut(cursor, end, doc.characterCount() - 1, ELLIPSIS)
    if start > 0:
        _cut(cursor, 0, start, ELLIPSIS)
    while _line_count(doc) > lines and doc.characterCount() > 2:  # the ellipses wrapped a word on
        tail = doc.characterCount() - 1 - len(ELLIPSIS)
        _cut(cursor, max(0, doc.toPlainText().rfind(" ", 0, tail)), tail, "")


def _first_bold(doc: QTextDocument) -> int:
    cursor = QTextCursor(doc)
    for position in range(1, doc.characterCount()):
        cursor.setPosition(position)
        if cursor.charFormat().fontWeight() >= QFont.Weight.Bold:
            return position - 1
    return 0


def _line_end(layout: QTextLayout, i: int) -> int:
    line = layout.lineAt(i)
    return line.textStart() + line.textLength()


def _cut(cursor: QTextCursor, start: int, end: int, replacement: str) -> None:
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    fmt = QTextCharFormat()  # the ellipsis is never bold
    cursor.insertText(replacement, fmt)


class ResultDelegate(QStyledItemDelegate):
    """Draws TITLE_ROLE over SNIPPET_ROLE; rows are as tall as their (at most three) snippet lines."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        area = opt.rect.adjusted(PAD, PAD, -PAD, -PAD)
        painter.save()
        painter.setPen(opt.palette.color(role if selected else QPalette.ColorRole.Link))
        painter.setFont(self._title_font(opt.font))
        title = elide_title(str(index.data(TITLE_ROLE) or ""), painter.fontMetrics(), area.width())
        title_height = painter.fontMetrics().height()
        painter.drawText(QRect(area.left(), area.top(), area.width(), title_height), 0, title)
        doc = snippet_document(str(index.data(SNIPPET_ROLE) or ""), opt.font, area.width())
        painter.translate(area.left(), area.top() + title_height)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(role))
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        width = _row_width(opt.widget, opt.rect.width()) - 2 * PAD
        doc = snippet_document(str(index.data(SNIPPET_ROLE) or ""), opt.font, width)
        title = self._title_font(opt.font)
        height = QFontMetrics(title).height() + round(doc.size().height()) + 2 * PAD
        return QSize(width + 2 * PAD, height)

    @staticmethod
    def _title_font(font: QFont) -> QFont:
        title = QFont(font)
        title.setWeight(QFont.Weight.DemiBold)
        return title


def _row_width(widget: QWidget | None, fallback: int) -> int:
    viewport = getattr(widget, "viewport", None)
    return int(viewport().width()) if callable(viewport) else max(fallback, 200)
