"""Retrieval: rank fusion, reranking and the hybrid search pipeline."""
