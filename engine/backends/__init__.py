"""Pluggable backends: embedders, rerankers and generators behind Protocols and a name-keyed registry."""
