"""Citeline's desktop window (PySide6). Talks to the engine only through engine.api.Engine."""
