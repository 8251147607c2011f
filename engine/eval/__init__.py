"""Evaluation: load labelled sets into one shape (datasets) and score rankings and answers (metrics)."""
