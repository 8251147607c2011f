"""Light, dark or system colours: the Fusion style with an explicit palette, plus a small style sheet.

Qt's colour-scheme hint is set too, but not every platform theme honours it (plain X11 does not), so
light and dark also get a palette of their own; "system" gives the platform's palette back.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from desktop.paths import style_path

SCHEMES = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark, "system": Qt.ColorScheme.Unknown}
Role = QPalette.ColorRole
DARK = {
    Role.Window: "#23262b",
    Role.WindowText: "#e6e6e6",
    Role.Base: "#1b1d21",
    Role.AlternateBase: "#2a2d33",
    Role.ToolTipBase: "#2a2d33",
    Role.ToolTipText: "#e6e6e6",
    Role.Text: "#e6e6e6",
    Role.Button: "#2e3238",
    Role.ButtonText: "#e6e6e6",
    Role.BrightText: "#ff6b6b",
    Role.Link: "#6cb6ff",
    Role.Highlight: "#2f6fd1",
    Role.HighlightedText: "#ffffff",
    Role.PlaceholderText: "#8b9099",
    Role.Mid: "#44484f",
}

AA_CONTRAST = 4.5  # WCAG 2 level AA for body text


@dataclass(frozen=True)
class CodeColors:
    """The source preview's colours: syntax, the cited span and the quote marked inside it.

    Opaque, so what the user sees does not depend on blending: every text colour keeps AA contrast on the
    base, on the span and on the quote (tests/desktop/test_theme.py checks each pair on both themes).
    """

    text: str
    keyword: str
    string: str
    comment: str
    number: str
    heading: str
    emphasis: str
    span: str  # background of the cited lines
    quote: str  # background of the quoted words inside them
    passage: str  # background of lines shown but not cited (evidence, a search result, a refusal's)

    def foregrounds(self) -> dict[str, str]:
        return {k: v for k, v in self.__dict__.items() if k not in BACKGROUNDS}


BACKGROUNDS = ("span", "quote", "passage")


LIGHT_CODE = CodeColors(
    text="#000000",
    keyword="#6a3fc2",
    string="#0b6b31",
    comment="#57606a",
    number="#8a4500",
    heading="#0b55c4",
    emphasis="#a2420a",
    span="#fff1c9",
    quote="#ffd97a",
    passage="#e9eef5",
)
DARK_CODE = CodeColors(
    text="#e6e6e6",
    keyword="#d2b5ff",
    string="#8fdc9f",
    comment="#bcc3cc",
    number="#ffb870",
    heading="#94c3ff",
    emphasis="#ffad7a",
    span="#3b3220",
    quote="#5c490f",
    passage="#2a3140",
)


def is_dark(palette: QPalette) -> bool:
    return palette.color(Role.Base).lightness() < 128


def code_colors(palette: QPalette | None = None) -> CodeColors:
    """The preview's colours for the palette in use (the application's by default)."""
    return DARK_CODE if is_dark(palette or QGuiApplication.palette()) else LIGHT_CODE


def contrast(a: QColor | str, b: QColor | str) -> float:
    """WCAG 2 contrast ratio of two opaque colours, 1 (none) to 21 (black on white)."""
    high, low = sorted((_luminance(QColor(a)), _luminance(QColor(b))), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _luminance(color: QColor) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF())


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, color in DARK.items():
        palette.setColor(role, QColor(color))
    disabled = QColor("#6b7078")
    for role in (Role.Text, Role.ButtonText, Role.WindowText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return palette


def apply_theme(app: QApplication, theme: str) -> None:
    if app.style().name().lower() != "fusion":
        app.setStyle("Fusion")
    app.styleHints().setColorScheme(SCHEMES.get(theme, Qt.ColorScheme.Unknown))
    if theme == "dark":
        app.setPalette(dark_palette())
    elif theme == "light":
        app.setPalette(app.style().standardPalette())
    else:
        app.setPalette(QPalette())  # the platform's
    path = style_path()
    app.setStyleSheet(path.read_text(encoding="utf-8") if path.is_file() else "")
