"""Second-stage rerankers: an imported ONNX cross-encoder (parity with torch) and MaxSim."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from engine.api import Engine
from engine.backends.cross_encoder import CrossEncoderReranker
from engine.errors import MissingModel
from engine.retrieve.fusion import fuse_ranks
from models.export_cross_encoder import export_cross_encoder
from tests.conftest import MODEL_CACHE


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    """A randomly initialised 2-layer BERT cross-encoder with MiniLM's vocabulary, saved like a HF folder."""
    torch = pytest.importorskip("torch")
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("ce")
    config = BertConfig(
        vocab_size=30522,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=128,
        num_labels=1,
    )
    model = BertForSequenceClassification(config).eval()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.save_pretrained(str(folder))
    (folder / "tokenizer.json").write_bytes((MODEL_CACHE / "minilm-l6-v2.tokenizer.json").read_bytes())
    return folder, model


def test_onnx_scores_match_torch_on_padded_batches(
    tiny_cross_encoder: tuple[Path, object], tmp_path: Path
) -> None:
    import torch
    from tokenizers import Tokenizer

    folder, model = tiny_cross_encoder
    onnx_path = export_cross_encoder(folder, tmp_path / "out")
    reranker = CrossEncoderReranker(onnx_path, tmp_path / "out" / "tokenizer.json", batch_size=8)
    query = "how do we roll back a deploy"
    passages = ["run make rollback", "the lasagna needs two hours in the oven at low heat " * 6, "deploy"]
    got = reranker.score_pairs(query, passages)
    tok = Tokenizer.from_file(str(tmp_path / "out" / "tokenizer.json"))
    tok.no_padding()
    want = []
    for passage in passages:  # one pair at a time: no padding at all in the reference
        enc = tok.encode(query, passage)
        with torch.no_grad():
            logits = model(
                input_ids=torch.tensor([enc.ids]),
                attention_mask=torch.tensor([enc.attention_mask]),
                token_type_ids=torch.tensor([enc.type_ids]),
            ).logits
        want.append(float(logits[0, 0]))
    assert np.max(np.abs(np.array(got) - np.array(want))) < 1e-4


def test_imported_cross_encoder_reranks_search(
    engine: Engine, small_folder: Path, tmp_path: Path, tiny_cross_encoder: tuple[Path, object]
) -> None:
    with pytest.raises(MissingModel, match="models import"):
        engine.locator.path("reranker")
    folder, _ = tiny_cross_encoder
    onnx_path = export_cross_encoder(folder, tmp_path / "out")
    status = engine.locator.import_model(onnx_path, "reranker", tmp_path / "out" / "tokenizer.json")
    assert status.state.value == "verified"
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    plain = engine.search("deploy rollback", k=5)
    reranked = engine.search("deploy rollback", k=5, reranker=engine.reranker("cross-encoder"))
    assert all(h.rerank_score is not None for h in reranked.hits)
    scores = [h.rerank_score for h in reranked.hits]
    assert scores == sorted(scores, reverse=True)
    assert {h.chunk_id for h in reranked.hits} <= {
        h.chunk_id for h in engine.search("deploy rollback", k=30).hits
    }
    assert "rerank" in reranked.timings_ms and "rerank" not in plain.timings_ms

    # The fused stage keeps the model's raw score on each hit and orders by RRF(BM25, dense, model).
    fused = engine.search("deploy rollback", k=30, reranker=engine.reranker("cross-encoder-rrf")).hits
    raw = {
        h.chunk_id: h.rerank_score
        for h in engine.search("deploy rollback", k=30, reranker=engine.reranker("cross-encoder")).hits
    }
    assert {h.chunk_id: h.rerank_score for h in fused} == pytest.approx(raw)
    assert [fused[i].chunk_id for i in fuse_ranks(fused)] == [h.chunk_id for h in fused]


def test_maxsim_prefers_the_matching_passage(engine: Engine, small_folder: Path) -> None:
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    hits = engine.search("paid leave days per year", k=10, mode="keyword").hits
    hits += [h for h in engine.search("invoice total", k=3, mode="keyword").hits if h not in hits]
    scores = engine.reranker("maxsim")("paid leave days per year", hits)
    best = hits[int(np.argmax(scores))]
    assert best.path.endswith("pto.md")
