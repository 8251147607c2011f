"""Light, dark or system colours: the Fusion style with an explicit palette, plus a small style sheet.

Qt's colour-scheme hint is set too, but not every platform theme honours it (plain X11 does not), so
light and dark also get a palette of their own; "system" gives the platform's palette back.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
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
