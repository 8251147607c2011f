"""Name-keyed registries of backend factories. Registering never loads weights: factories run on use.

Built-ins register exactly as a third-party backend would:

    from engine.backends.registry import generators
    generators.register("mine", lambda engine: MyGenerator(...))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from engine.errors import CiteError

T = TypeVar("T")
Factory = Callable[[Any], T]


class Registry(Generic[T]):
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._factories: dict[str, Factory[T]] = {}

    def register(self, name: str, factory: Factory[T]) -> None:
        self._factories[name] = factory

    def names(self) -> list[str]:
        return sorted(self._factories)

    def create(self, name: str, engine: Any) -> T:
        factory = self._factories.get(name)
        if factory is None:
            raise CiteError(f"Unknown {self.kind} '{name}'.", f"choose one of: {', '.join(self.names())}")
        return factory(engine)


generators: Registry[Any] = Registry("generator")
rerankers: Registry[Any] = Registry("reranker")


def _extractive(engine: Any) -> Any:
    from engine.backends.extractive import ExtractiveGenerator

    return ExtractiveGenerator(engine.embedder().embed)


def _local(engine: Any) -> Any:
    from engine.backends.llama_cpp import LlamaGenerator

    return LlamaGenerator(engine.locator.path(engine.settings.local_model), threads=engine.settings.threads)


def _claude(engine: Any) -> Any:
    from engine.backends.claude import ClaudeGenerator

    return ClaudeGenerator(model=engine.settings.claude_model)


def _maxsim(engine: Any) -> Any:
    from engine.backends.maxsim import MaxSimReranker

    return MaxSimReranker(engine.embedder(), engine.token_counter())


def _maxsim_rrf(engine: Any) -> Any:
    from engine.backends.maxsim import MaxSimFusion

    return MaxSimFusion(engine.embedder(), engine.token_counter())


def _cross_encoder(engine: Any) -> Any:
    from engine.backends.cross_encoder import CrossEncoderReranker

    return CrossEncoderReranker(
        engine.locator.path("reranker"),
        engine.locator.tokenizer_path("reranker"),
        threads=engine.settings.threads,
    )


def _cross_encoder_rrf(engine: Any) -> Any:
    from engine.backends.cross_encoder import CrossEncoderFusion

    return CrossEncoderFusion(
        engine.locator.path("reranker"),
        engine.locator.tokenizer_path("reranker"),
        threads=engine.settings.threads,
    )


generators.register("extractive", _extractive)
generators.register("local", _local)
generators.register("claude", _claude)
rerankers.register("maxsim", _maxsim)
rerankers.register("maxsim-rrf", _maxsim_rrf)
rerankers.register("cross-encoder", _cross_encoder)
rerankers.register("cross-encoder-rrf", _cross_encoder_rrf)
