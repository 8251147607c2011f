from hypothesis import given
from hypothesis import strategies as st

from engine.retrieve.fusion import DEFAULT_K, rrf


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
