"""Citeline's headless core: indexing, hybrid search and cited answers. Never imports Qt."""

__version__ = "0.1.0"
