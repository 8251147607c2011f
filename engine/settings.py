"""Typed settings. One data directory holds everything: the index, settings.json, imported models, logs.

Resolution of the data directory: an explicit argument (--data-dir), else CITELINE_HOME, else the
platform's user data dir. Assembled model files are cached under CITELINE_MODEL_CACHE when it is set
(tests point it at the cache bootstrap.py prepared), else under <data dir>/models.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.errors import CiteError

APP_NAME = "citeline"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The one data directory, created if missing."""
    raw = explicit or os.environ.get("CITELINE_HOME") or platformdirs.user_data_dir(APP_NAME, appauthor=False)
    path = Path(raw).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def model_cache_dir(home: Path) -> Path:
    """Where assembled/exported model files live (CITELINE_MODEL_CACHE shares one cache between data dirs)."""
    raw = os.environ.get("CITELINE_MODEL_CACHE")
    path = Path(raw).expanduser().resolve() if raw else home / "models"
    path.mkdir(parents=True, exist_ok=True)
    return path


Rerank = Literal["none", "maxsim", "maxsim-rrf", "cross-encoder", "cross-encoder-rrf"]


class Settings(BaseModel):
    """User settings, persisted as JSON in the data directory. Unknown keys are an error, not ignored."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    generator: str = Field(
        "local",
        description="Which answer generator to use: local, claude, extractive (needs no model) or any name "
        "registered in engine.backends.registry.generators.",
    )
    quote_fallback: bool = Field(
        True,
        description="When a model wrote sentences but none could be verified against the sources, quote "
        "the supporting source sentences (extractive) instead of refusing. A model that declines still "
        "refuses.",
    )
    local_model: Literal["generator", "generator-small", "generator-tiny"] = Field(
        "generator", description="Model role the local generator runs (see `citeline models`)."
    )
    local_sources: int = Field(
        300,
        ge=100,
        le=3000,
        description="Tokens of source windows the local model reads per answer: fewer answer sooner "
        "(prompt reading is the slowest step on a CPU), more give it more to quote from.",
    )
    local_lookup: bool = Field(
        False,
        description="Prompt-lookup decoding for the local model: draft tokens copied from the prompt "
        "(answers quote their sources), verified in one batch.",
    )
    claude_model: str = Field("claude-sonnet-4-5", description="Model name for the optional Claude backend.")
    threads: int = Field(
        default_factory=lambda: os.cpu_count() or 2, ge=1, le=256, description="CPU threads for inference."
    )
    max_file_mb: float = Field(20.0, gt=0, description="Files larger than this are skipped and recorded.")
    ocr: bool = Field(
        True,
        description="Read images and PDF pages without a text layer (scans) with offline OCR, in the "
        "background after the keyword pass. Needs the optional OCR package (pip install 'citeline[ocr]').",
    )
    ocr_max_pages: int = Field(
        200, ge=1, le=100_000, description="OCR reads at most this many pages of a file; the cut is recorded."
    )
    chunk_tokens: int = Field(200, ge=32, le=512, description="Target chunk size in embedder tokens.")
    candidates: int = Field(50, ge=1, le=1000, description="How many hits each ranked list contributes.")
    rrf_k: int = Field(60, ge=1, description="Reciprocal Rank Fusion constant k (Cormack et al. 2009).")
    rerank: Rerank = Field(
        "maxsim-rrf", description="Second-stage reranker applied to the fused candidates of a search."
    )
    rerank_answers: bool = Field(
        False,
        description="Rerank answer evidence too (off: measured to make Meridian answers worse, see README).",
    )
    rerank_top: int = Field(20, ge=1, le=200, description="How many fused candidates the reranker scores.")
    theme: Literal["system", "light", "dark"] = Field("system", description="Desktop colour theme.")
    index_backend: str = Field(
        "embedded",
        description="Where vectors and keyword points live: embedded (files beside the catalog), "
        "qdrant://host:6333 (a Qdrant server or cluster, docs/scale.md), qdrant-local:PATH or :memory: "
        "(qdrant-client's in-process mode). Lines and quotes always come from the local catalog.",
    )
    embed_spool: str = Field(
        "",
        description="Folder where embedding batches are shared with `citeline embed-worker` processes "
        "(empty: beside the index). On a filesystem other machines mount, their workers help too.",
    )
    qdrant_shards: int = Field(1, ge=1, le=1024, description="Shards of a new Qdrant collection.")
    qdrant_replicas: int = Field(
        1, ge=1, le=16, description="Copies of each shard of a new Qdrant collection (replication factor)."
    )

    @field_validator("generator")
    @classmethod
    def _registered(cls, name: str) -> str:
        from engine.backends.registry import generators

        if name not in generators:
            raise ValueError(f"unknown generator {name!r}; registered: {', '.join(generators.names())}")
        return name

    @field_validator("index_backend")
    @classmethod
    def _backend(cls, value: str) -> str:
        from engine.store.qdrant import parse_backend

        parse_backend(value)
        return value

    @classmethod
    def load(cls, home: Path) -> Settings:
        path = home / "settings.json"
        if not path.exists():
            return cls()
        try:
            return cls.model_validate(_upgrade(json.loads(path.read_text(encoding="utf-8"))))
        except (ValueError, OSError) as exc:
            raise CiteError(f"Settings file {path} is invalid: {exc}", "fix or delete the file") from exc

    def save(self, home: Path) -> None:
        path = home / "settings.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(self.model_dump_json(indent=2), encoding="utf-8")
        os.replace(tmp, path)


def _upgrade(raw: object) -> object:
    """Settings saved before `rerank_answers` existed (every Save wrote every field): a reranker chosen
    then reranked answers, so it still does; their "none" was the old default and becomes the new one."""
    if isinstance(raw, dict) and "rerank_answers" not in raw and "rerank" in raw:
        raw = dict(raw)
        if raw["rerank"] == "none":
            del raw["rerank"]
        else:
            raw["rerank_answers"] = True
    return raw
