"""Second-stage rerankers: an imported ONNX cross-encoder (parity with torch) and MaxSim."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from engine.api import Engine
from engine.backends.cross_encoder import CrossEncoderReranker
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
    shipped = engine.locator.path("reranker")
    assert shipped.parent.name == "reranker" and shipped.parent.parent.name == "models"
    folder, _ = tiny_cross_encoder
    onnx_path = export_cross_encoder(folder, tmp_path / "out")
    status = engine.locator.import_model(onnx_path, "reranker", tmp_path / "out" / "tokenizer.json")
    assert status.state.value == "verified" and status.imported
    assert engine.locator.path("reranker") != shipped  # an import replaces the shipped model
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


def test_shipped_reranker_is_verified_and_ranks_the_answer_first(engine: Engine, small_folder: Path) -> None:
    from models.locator import load_manifest, sha256_file

    spec = next(s for s in load_manifest() if s.role == "reranker")
    path = engine.locator.path("reranker")
    assert spec.prepare == "shipped" and sha256_file(path) == spec.sha256
    assert engine.locator.tokenizer_path("reranker").is_file()
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    reranker = engine.reranker("cross-encoder")
    for question, name in (
        ("how do I roll back a deploy", "deploy.md"),
        ("how many days of paid leave do employees get", "pto.md"),
    ):
        hits = engine.search(question, k=5, reranker=reranker).hits
        assert Path(hits[0].path).name == name
        assert hits[0].rerank_score is not None


def test_fp16_stored_weights_keep_scores(tiny_cross_encoder: tuple[Path, object], tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    from models.train_reranker import store_fp16

    folder, _ = tiny_cross_encoder
    fp32 = export_cross_encoder(folder, tmp_path / "out")
    fp16 = store_fp16(fp32, tmp_path / "out" / "model.fp16w.onnx")
    assert fp16.stat().st_size < 0.6 * fp32.stat().st_size
    query = "how do we roll back a deploy"
    passages = ["run make rollback", "the lasagna needs two hours in the oven " * 8, "deploy on tuesday"]
    tokenizer = tmp_path / "out" / "tokenizer.json"
    want = CrossEncoderReranker(fp32, tokenizer).score_pairs(query, passages)
    got = CrossEncoderReranker(fp16, tokenizer).score_pairs(query, passages)
    assert np.max(np.abs(np.array(got) - np.array(want))) < 1e-2
    assert np.argsort(got).tolist() == np.argsort(want).tolist()


def test_late_interaction_head_ignores_padding_and_exports_with_parity(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from tokenizers import Tokenizer
    from transformers import BertConfig, BertModel

    from models.export_cross_encoder import export_module
    from models.late_head import LateInteractionCrossEncoder

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64
    )
    model = LateInteractionCrossEncoder(BertModel(config, add_pooling_layer=False)).eval()
    tokenizer_path = tmp_path / "tokenizer.json"
    tokenizer_path.write_bytes((MODEL_CACHE / "minilm-l6-v2.tokenizer.json").read_bytes())
    onnx_path = export_module(model, tmp_path / "late.onnx")
    query = "how do we roll back a deploy"
    passages = ["run make rollback", "the lasagna needs two hours in the oven at low heat " * 6, "deploy"]
    tok = Tokenizer.from_file(str(tokenizer_path))
    tok.no_padding()
    alone = []
    for passage in passages:  # one pair at a time: no padding in the reference
        enc = tok.encode(query, passage)
        feeds = {
            "input_ids": torch.tensor([enc.ids]),
            "attention_mask": torch.tensor([enc.attention_mask]),
            "token_type_ids": torch.tensor([enc.type_ids]),
        }
        with torch.no_grad():
            alone.append(float(model(**feeds)[0, 0]))
    batched = CrossEncoderReranker(onnx_path, tokenizer_path, batch_size=8).score_pairs(query, passages)
    assert np.max(np.abs(np.array(batched) - np.array(alone))) < 1e-4


def test_best_rerank_score_is_higher_for_a_question_the_folder_answers(
    engine: Engine, small_folder: Path
) -> None:
    from engine.eval.answers import best_rerank_score

    engine.add_folder(small_folder)
    engine.run(engine.sync())
    scores = {
        q: best_rerank_score(engine, q, engine.evidence(q))
        for q in ("how many days of paid leave do employees get", "what is the capital of Mongolia")
    }
    answered, off_topic = scores.values()
    assert answered is not None and off_topic is not None and answered > off_topic


def test_maxsim_windows_fit_in_wordpieces_not_characters(engine: Engine) -> None:
    from engine.backends.maxsim import WINDOW_TOKENS
    from engine.events import Hit

    counter = engine.token_counter()
    assert counter is not None
    code = "\n".join(f"x_{i}=cfg.get('k{i}').strip().lower()  # TODO(ab{i}): see #{i}" for i in range(40))
    one_run_on_line = "ZZ9PluralZAlpha" * 60
    hits = [
        Hit(n, f"/k/{n}.py", 1, 40, None, "cfg", text, 0.0) for n, text in enumerate([code, one_run_on_line])
    ]
    reranker = engine.reranker("maxsim")
    windows = reranker.windows("strip the config keys", hits)
    assert all(counter(w) <= WINDOW_TOKENS for w in windows)
    assert len(code) // 4 > WINDOW_TOKENS and "strip" in windows[0]  # cut, but around the query's terms


def test_search_is_reranked_by_default_and_answer_evidence_is_not(
    engine: Engine, small_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.cli import main

    engine.add_folder(small_folder)
    engine.run(engine.sync())
    assert engine.settings.rerank == "maxsim-rrf" and not engine.settings.rerank_answers
    default = engine.default_reranker()
    assert default is engine.reranker("maxsim-rrf")
    hits = engine.search("paid leave days per year", k=5, reranker=default).hits
    assert hits[0].path.endswith("pto.md") and all(h.rerank_score is not None for h in hits)
    assert all(h.rerank_score is None for h in engine.evidence("paid leave days per year"))
    engine.settings = engine.settings.model_copy(update={"rerank_answers": True})
    assert all(h.rerank_score is not None for h in engine.evidence("paid leave days per year"))
    engine.settings = engine.settings.model_copy(update={"rerank": "none"})
    assert engine.default_reranker() is None
    engine.close()

    assert main(["search", "paid leave days per year", "--explain"]) == 0
    assert "rerank score" in capsys.readouterr().out
    assert main(["search", "paid leave days per year", "--explain", "--rerank", "none"]) == 0
    assert "rerank score" not in capsys.readouterr().out
    assert main(["search", "paid leave days per year", "--explain", "--mode", "keyword"]) == 0
    assert "rerank score" not in capsys.readouterr().out
    assert main(["search", "paid leave", "--explain", "--mode", "keyword", "--rerank", "maxsim"]) == 0
    assert "rerank score" in capsys.readouterr().out


def test_settings_saved_before_answer_reranking_was_its_own_switch(tmp_path: Path) -> None:
    import json

    from engine.settings import Settings

    def load(saved: dict[str, object]) -> Settings:
        (tmp_path / "settings.json").write_text(json.dumps(saved), encoding="utf-8")
        return Settings.load(tmp_path)

    chose = load({"generator": "extractive", "rerank": "cross-encoder"})
    assert (chose.rerank, chose.rerank_answers) == ("cross-encoder", True)  # answers stay reranked
    old_default = load({"generator": "extractive", "rerank": "none"})
    assert (old_default.rerank, old_default.rerank_answers) == ("maxsim-rrf", False)
    current = load({"rerank": "none", "rerank_answers": False})
    assert (current.rerank, current.rerank_answers) == ("none", False)  # a choice made now is kept
