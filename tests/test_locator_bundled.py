"""The locator finds default models an installer ships inside a frozen app (<sys._MEIPASS>/bundled-models)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import models.locator as locator_module
from models.locator import Locator, State, bundled_models_dir

ONNX = b"pretend onnx graph"


@pytest.fixture
def frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake one-folder bundle holding the embedder and its tokenizer, with sidecars as the build writes."""
    meipass = tmp_path / "bundle" / "_internal"
    shipped = meipass / "bundled-models"
    shipped.mkdir(parents=True)
    model = shipped / "all-MiniLM-L6-v2.onnx"
    model.write_bytes(ONNX)
    (shipped / "minilm-l6-v2.tokenizer.json").write_text("{}", encoding="utf-8")
    stat = model.stat()
    sidecar = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": hashlib.sha256(ONNX).hexdigest()}
    (shipped / "all-MiniLM-L6-v2.onnx.verified.json").write_text(json.dumps(sidecar), encoding="utf-8")
    monkeypatch.setattr(sys, "_MEIPASS", str(meipass), raising=False)
    return shipped


def test_not_frozen_means_no_bundled_dir() -> None:
    assert not hasattr(sys, "_MEIPASS")
    assert bundled_models_dir() is None


def test_bundled_embedder_is_found_when_the_cache_is_empty(frozen: Path, tmp_path: Path) -> None:
    loc = Locator(tmp_path / "home", tmp_path / "empty-cache")
    assert bundled_models_dir() == frozen
    assert loc.path("embedder") == frozen / "all-MiniLM-L6-v2.onnx"
    assert loc.tokenizer_path("embedder") == frozen / "minilm-l6-v2.tokenizer.json"
    assert loc.fetch("embedder") == frozen / "all-MiniLM-L6-v2.onnx"  # nothing to download
    assert loc.status_of("generator").state is State.MISSING  # the GGUF is not in this bundle


def test_cache_copy_wins_over_the_bundled_one(frozen: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "all-MiniLM-L6-v2.onnx").write_bytes(b"a newer export")
    assert Locator(tmp_path / "home", cache).path("embedder") == cache / "all-MiniLM-L6-v2.onnx"


def test_read_only_install_is_rehashed_against_its_recorded_sha(
    frozen: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installer that lost the mtimes: the file is hashed again; the sidecar cannot be rewritten."""

    def read_only(path: Path, sha: str) -> None:
        raise PermissionError(f"read-only file system: {path}")

    monkeypatch.setattr(locator_module, "_write_sidecar", read_only)
    sidecar = frozen / "all-MiniLM-L6-v2.onnx.verified.json"
    record = json.loads(sidecar.read_text(encoding="utf-8"))
    sidecar.write_text(json.dumps({**record, "mtime_ns": 1}), encoding="utf-8")
    loc = Locator(tmp_path / "home", tmp_path / "cache")
    assert loc.status_of("embedder").state is State.VERIFIED
    (frozen / "all-MiniLM-L6-v2.onnx").write_bytes(b"tampered")
    assert loc.status_of("embedder").state is State.CORRUPT
