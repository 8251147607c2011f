"""Vectors remembered across questions (engine/backends/embed_cache.py), over the real MiniLM embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.api import Engine
from engine.backends.embed_cache import Remembered


class Reading:
    """The real embedder's `embed`, recording what the model was given (a fake would prove nothing about
    the vectors; this records the texts the model actually read)."""

    def __init__(self, engine: Engine) -> None:
        self.embed = engine.embedder().embed
        self.read: list[str] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.read.extend(texts)
        return self.embed(texts)


def test_a_remembered_vector_is_the_one_the_model_gives_and_is_read_once(engine: Engine) -> None:
    model = Reading(engine)
    remembered = Remembered(model, capacity=3)
    texts = [
        "Employees accrue 20 days of paid leave.",
        "Run make rollback.",
        "Employees accrue 20 days of paid leave.",
    ]
    first = remembered(texts)
    assert model.read == texts[:2]  # a text repeated in one call is read once
    assert np.allclose(first, model.embed(texts), atol=1e-5)
    assert np.allclose(first[0], first[2])

    again = remembered(["Run make rollback.", "A new sentence about invoices."])
    assert model.read == [*texts[:2], "A new sentence about invoices."]
    assert np.allclose(again[0], first[1])
    assert (remembered.hits, remembered.misses) == (2, 3)  # the repeat, then rollback
    assert remembered(["x"]).shape == (1, engine.embedder().dim)
    assert remembered([]).shape[0] == 0


def test_the_least_recently_used_text_goes_first(engine: Engine) -> None:
    model = Reading(engine)
    remembered = Remembered(model, capacity=2)
    remembered(["alpha"])
    remembered(["beta"])
    remembered(["alpha"])  # alpha is now the more recent of the two
    remembered(["gamma"])  # beta goes
    assert len(remembered) == 2
    model.read.clear()
    remembered(["alpha", "gamma", "beta"])
    assert model.read == ["beta"]


@pytest.fixture
def indexed(engine: Engine, small_folder: Path) -> Engine:
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    return engine


def test_asking_again_reads_no_text_twice_and_answers_the_same(indexed: Engine) -> None:
    """The second time a question is asked, none of the texts the answer embeds (the question as the
    ranking reads it, the sentences ranked, the passages judged) goes through the model again, and the
    answer is the same. (The search's query vector is read anew: search latency stays a new query's.)"""
    question = "How many days of paid leave do employees accrue?"
    first = indexed.ask(question, "extractive")
    remembered = indexed._remembered["onnx"]
    read = remembered.misses
    assert read > 2  # the question and the sentences the answer ranked
    second = indexed.ask(question, "extractive")
    assert remembered.misses == read
    assert [s.text for s in second.sentences] == [s.text for s in first.sentences]
    assert not first.refused and "20 days" in first.sentences[0].text
