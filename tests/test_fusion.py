from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from engine.events import Hit
from engine.retrieve.fusion import DEFAULT_K, fuse_ranks, rrf


def test_k_is_sixty_as_in_cormack_et_al() -> None:
    assert DEFAULT_K == 60


def test_hand_computed_scores() -> None:
    fused = dict(rrf([["a", "b", "c"], ["b", "d"]], k=60))
    assert fused["a"] == 1 / 61
    assert fused["b"] == 1 / 62 + 1 / 61
    assert fused["c"] == 1 / 63
    assert fused["d"] == 1 / 62


def test_order_agreement_beats_one_list_winner() -> None:
    # b is second in one list and first in the other: it wins over a, first in only one list.
    assert [i for i, _ in rrf([["a", "b"], ["b", "c"]])][:2] == ["b", "a"]


def test_k_changes_the_balance() -> None:
    lists = [["x", "m1", "m2", "m3", "y"], ["y", "n1", "n2", "n3", "x"]]
    assert rrf(lists, k=1)[0][1] > rrf(lists, k=60)[0][1]


def test_duplicates_within_a_list_count_once() -> None:
    assert dict(rrf([["a", "a", "b"]]))["a"] == 1 / 61


@given(st.lists(st.lists(st.integers(0, 30), max_size=20), max_size=4), st.integers(1, 200))
def test_properties(lists: list[list[int]], k: int) -> None:
    fused = rrf(lists, k)
    ids = [i for i, _ in fused]
    assert len(ids) == len(set(ids)) == len({i for lst in lists for i in lst})
    scores = [s for _, s in fused]
    assert scores == sorted(scores, reverse=True)
    assert all(0 < s <= len(lists) / (k + 1) + 1e-12 for s in scores)
    assert fused == rrf(lists, k)


def _hit(n: int, lexical: int | None, vector: int | None, rerank: float) -> Hit:
    return Hit(n, f"f{n}.md", 1, 1, None, "", "", 0.0, lexical_rank=lexical, vector_rank=vector,
               rerank_score=rerank)  # fmt: skip


def test_fuse_ranks_hand_computed() -> None:
    # a: lexical 1, vector 3, model rank 3; b: lexical 2, no vector, model rank 1; c: vector 2, model 2
    hits = [_hit(0, 1, 3, 0.1), _hit(1, 2, None, 0.9), _hit(2, None, 2, 0.5)]
    k = DEFAULT_K
    want = {
        0: 1 / (k + 1) + 1 / (k + 3) + 1 / (k + 3),
        1: 1 / (k + 2) + 1 / (k + 1),
        2: 1 / (k + 2) + 1 / (k + 2),
    }
    assert fuse_ranks(hits) == sorted(want, key=lambda i: -want[i]) == [0, 1, 2]


def test_fuse_ranks_model_breaks_a_tie_between_lists() -> None:
    # each list puts a different candidate first: the model's vote decides
    hits = [_hit(0, 1, 2, 0.2), _hit(1, 2, 1, 0.8)]
    assert fuse_ranks(hits) == [1, 0]
    hits = [_hit(0, 1, 2, 0.8), _hit(1, 2, 1, 0.2)]
    assert fuse_ranks(hits) == [0, 1]


def test_fuse_ranks_keeps_the_named_file_list() -> None:
    # b is in no keyword or vector list, only first among the chunks of a file the query names: the second
    # stage fuses that rank too, so it stays above c, whose one list ranks it lower
    a, b, c = _hit(0, 1, 1, 0.3), replace(_hit(1, None, None, 0.2), named_rank=1), _hit(2, 5, None, 0.1)
    k = DEFAULT_K
    want = {0: 2 / (k + 1) + 1 / (k + 1), 1: 1 / (k + 1) + 1 / (k + 2), 2: 1 / (k + 5) + 1 / (k + 3)}
    assert fuse_ranks([a, b, c]) == sorted(want, key=lambda i: -want[i]) == [0, 1, 2]
    assert fuse_ranks([a, replace(b, named_rank=None), c]) == [0, 2, 1]
