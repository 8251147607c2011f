"""Name-keyed registries of backend factories. Registering never loads weights: factories run on use.

Each registry is typed by its Protocol (engine/backends/base.py), so a factory must build something that
fits. Built-ins register exactly as a third-party backend would:

    from engine.api import generators
    generators.register("mine", lambda engine: MyGenerator(...))

after which `Settings(generator="mine")` is valid and `Engine.generator("mine")` builds it on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from engine.errors import CiteError

if TYPE_CHECKING:
    from engine.api import Engine
    from engine.backends.base import Embedder, Generator, Reranker

T = TypeVar("T")
Factory = Callable[["Engine"], T]


class Registry(Generic[T]):
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._factories: dict[str, Factory[T]] = {}

    def register(self, name: str, factory: Factory[T]) -> None:
        """Add (or replace) the factory for `name`; it runs when an engine first asks for `name`."""
        self._factories[name] = factory

    def unregister(self, name: str) -> None:
        self._factories.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._factories

    def names(self) -> list[str]:
        return sorted(self._factories)

    def create(self, name: str, engine: Engine) -> T:
        factory = self._factories.get(name)
        if factory is None:
            raise CiteError(f"Unknown {self.kind} '{name}'.", f"choose one of: {', '.join(self.names())}")
        return factory(engine)


embedders: Registry[Embedder] = Registry("embedder")
generators: Registry[Generator] = Registry("generator")
rerankers: Registry[Reranker] = Registry("reranker")


def _onnx(engine: Engine) -> Embedder:
    from engine.backends.onnx_embed import OnnxEmbedder

    return OnnxEmbedder(
        engine.locator.path("embedder"),
        engine.locator.tokenizer_path("embedder"),
        threads=engine.settings.threads,
    )


def _extractive(engine: Engine) -> Generator:
    from engine.backends.extractive import ExtractiveGenerator

    engine.embedder()  # MissingModel without its files: the pipeline then ranks by the question's words
    return ExtractiveGenerator(engine.embed_remembered, engine.extractive_floor(), engine.extractive_weight())


def _local(engine: Engine) -> Generator:
    from engine.backends.llama_cpp import LlamaGenerator
    from engine.backends.rates import Rates, rates_path

    model = engine.locator.path(engine.settings.local_model)
    return LlamaGenerator(
        model,
        threads=engine.settings.threads,
        rates=Rates(rates_path(engine.home, model)),
        source_budget=engine.settings.local_sources,
        lookup_decoding=engine.settings.local_lookup,
    )


def _claude(engine: Engine) -> Generator:
    from engine.backends.claude import ClaudeGenerator

    return ClaudeGenerator(model=engine.settings.claude_model)


def _maxsim(engine: Engine) -> Reranker:
    from engine.backends.maxsim import MaxSimReranker

    return MaxSimReranker(engine.embedder(), engine.token_counter())


def _maxsim_rrf(engine: Engine) -> Reranker:
    from engine.backends.maxsim import MaxSimFusion

    return MaxSimFusion(engine.embedder(), engine.token_counter())


def _cross_encoder(engine: Engine) -> Reranker:
    from engine.backends.cross_encoder import CrossEncoderReranker

    return CrossEncoderReranker(
        engine.locator.path("reranker"),
        engine.locator.tokenizer_path("reranker"),
        threads=engine.settings.threads,
    )


def _cross_encoder_rrf(engine: Engine) -> Reranker:
    from engine.backends.cross_encoder import CrossEncoderFusion

    return CrossEncoderFusion(
        engine.locator.path("reranker"),
        engine.locator.tokenizer_path("reranker"),
        threads=engine.settings.threads,
    )


embedders.register("onnx", _onnx)
generators.register("extractive", _extractive)
generators.register("local", _local)
generators.register("claude", _claude)
rerankers.register("maxsim", _maxsim)
rerankers.register("maxsim-rrf", _maxsim_rrf)
rerankers.register("cross-encoder", _cross_encoder)
rerankers.register("cross-encoder-rrf", _cross_encoder_rrf)
