"""Stores: DuckDB is the source of truth; Tantivy (BM25) and the in-RAM vector matrix derive from it."""
