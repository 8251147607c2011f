"""Readable colours on both themes: the source preview's syntax colours, the cited span and the quote."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QTextCharFormat
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.mainwindow import MainWindow
from desktop.theme import AA_CONTRAST, DARK_CODE, LIGHT_CODE, CodeColors, apply_theme, contrast
from desktop.widgets.codeview import CodeView
from desktop.widgets.preview import SourceTarget
from desktop.widgets.welcome import ExampleQuestions
from tests.conftest import write

SOURCE = (
    '"""Upload retries."""\n\n\n'
    "def retry(count):\n"
    '    return count + 3 if count else "never"  # at most three times\n'
)
QUOTE = "return count + 3"


@pytest.fixture
def dark() -> Iterator[None]:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "dark")
    yield
    apply_theme(app, "light")


@pytest.mark.parametrize("colors", [LIGHT_CODE, DARK_CODE], ids=["light", "dark"])
def test_every_code_colour_is_readable_on_the_base_the_span_and_the_quote(colors: CodeColors) -> None:
    base = "#ffffff" if colors is LIGHT_CODE else "#1b1d21"  # the palettes' Base
    for name, foreground in colors.foregrounds().items():
        backgrounds = (
            ("base", base),
            ("span", colors.span),
            ("quote", colors.quote),
            ("passage", colors.passage),
        )
        for where, background in backgrounds:
            ratio = contrast(foreground, background)
            assert ratio >= AA_CONTRAST, f"{name} on the {where}: {ratio:.1f}:1"


def test_contrast_is_the_wcag_ratio() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#777777") == pytest.approx(1.0)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


def test_example_question_links_are_readable_after_switching_to_dark(qtbot: QtBot, dark: None) -> None:
    """The links keep no colour from the light theme they were created under."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "light")
    examples = ExampleQuestions()
    qtbot.addWidget(examples)
    examples.show()
    apply_theme(app, "dark")
    qtbot.waitExposed(examples)
    image = examples.label.grab().toImage()
    background = examples.palette().color(examples.backgroundRole())
    link_pixels = [
        color
        for x in range(0, image.width(), 2)
        for y in range(image.height())
        if (color := image.pixelColor(x, y)).blue() > color.red() + 40  # link blue, not the grey label
    ]
    assert link_pixels, "no link drawn"
    best = max(contrast(color, background) for color in link_pixels)
    assert best >= AA_CONTRAST, f"the links read at {best:.1f}:1 on the dark window"


def test_the_cited_line_is_readable_in_the_dark_theme(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, dark: None
) -> None:
    path = write(tmp_path / "src", "retry.py", SOURCE)
    with qtbot.waitSignal(window.preview.shown, timeout=10_000):
        window.preview.open_target(SourceTarget(str(path), 5, 5, quote=QUOTE))
    view = window.preview.view
    worst = min(_contrasts(view, 4), key=lambda pair: pair[0])
    assert worst[0] >= AA_CONTRAST, f"{worst[1]!r} on the cited line: {worst[0]:.1f}:1"


def _contrasts(view: CodeView, block_number: int) -> Iterator[tuple[float, str]]:
    """Each visible character of a block: its contrast, foreground as the highlighter set it, background
    as the extra selections paint it over the base (blended where they are translucent)."""
    block = view.document().findBlockByNumber(block_number)
    formats = block.layout().formats()
    text = block.text()
    for offset, char in enumerate(text):
        if char.isspace():
            continue
        position = block.position() + offset
        foreground = _foreground(view, formats, offset)
        background = _background(view, position)
        yield contrast(foreground, background), char + " in " + text.strip()


def _foreground(view: CodeView, formats: list, offset: int) -> QColor:  # type: ignore[type-arg]
    color = view.palette().text().color()
    for fmt in formats:
        char_format: QTextCharFormat = fmt.format
        if fmt.start <= offset < fmt.start + fmt.length and char_format.hasProperty(
            QTextCharFormat.Property.ForegroundBrush
        ):
            color = char_format.foreground().color()
    return color


def _background(view: CodeView, position: int) -> QColor:
    color = view.palette().base().color()
    for selection in view.extraSelections():
        cursor = selection.cursor
        whole_line = selection.format.boolProperty(QTextCharFormat.Property.FullWidthSelection)
        block = view.document().findBlock(position)
        inside = cursor.selectionStart() <= position < cursor.selectionEnd()
        if whole_line and cursor.block().blockNumber() <= block.blockNumber():
            inside = inside or view.document().findBlock(cursor.selectionEnd()) == block
        if inside:
            color = _over(selection.format.background().color(), color)
    return color


def _over(top: QColor, bottom: QColor) -> QColor:
    alpha = top.alphaF()
    mix = [alpha * t + (1 - alpha) * b for t, b in zip(top.getRgbF()[:3], bottom.getRgbF()[:3], strict=True)]
    return QColor.fromRgbF(*mix)


def _span_color(view: CodeView) -> str:
    full = [
        s
        for s in view.extraSelections()
        if s.format.boolProperty(QTextCharFormat.Property.FullWidthSelection)
    ]
    assert len(full) == 1
    return full[0].format.background().color().name()


def test_the_open_source_follows_a_theme_switch_at_once(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Switching light -> dark -> light recolours the cited span, the quote and the syntax colours of the
    file already open, without reopening it and without moving the user's scroll."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    lines = [f"value_{n} = {n}  # filler line {n}" for n in range(200)]
    path = write(
        tmp_path / "src", "retry.py", "\n".join(lines[:120]) + "\n" + SOURCE + "\n".join(lines[120:])
    )
    with qtbot.waitSignal(window.preview.shown, timeout=10_000):
        window.preview.open_target(SourceTarget(str(path), 125, 125, quote=QUOTE, terms="retry count"))
    view = window.preview.view
    assert _span_color(view) == LIGHT_CODE.span
    view.verticalScrollBar().setValue(view.verticalScrollBar().value() + 7)  # the user scrolled a little
    scrolled = view.verticalScrollBar().value()
    try:
        apply_theme(app, "dark")
        qtbot.waitUntil(lambda: _span_color(view) == DARK_CODE.span, timeout=2_000)
        worst = min(_contrasts(view, 124), key=lambda pair: pair[0])
        assert worst[0] >= AA_CONTRAST, f"{worst[1]!r} on the cited line after the switch: {worst[0]:.1f}:1"
        assert view.verticalScrollBar().value() == scrolled
    finally:
        apply_theme(app, "light")
    qtbot.waitUntil(lambda: _span_color(view) == LIGHT_CODE.span, timeout=2_000)
    worst = min(_contrasts(view, 124), key=lambda pair: pair[0])
    assert worst[0] >= AA_CONTRAST, f"{worst[1]!r} on the cited line back in light: {worst[0]:.1f}:1"
