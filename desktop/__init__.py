"""Citeline's desktop window (PySide6). Talks to the engine only through engine.api.Engine."""

from desktop.compat import pin_none

pin_none()  # before any Qt call: see desktop/compat.py
