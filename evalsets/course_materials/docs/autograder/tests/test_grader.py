from datetime import datetime, timedelta, timezone

import pytest

from grader import (
    MAX_LATE_DAYS,
    TestResult,
    apply_late_penalty,
    days_late,
    is_forbidden,
    results_match,
    total_mark,
)

DUE = datetime(2026, 3, 5, 16, 0, tzinfo=timezone.utc)


def test_on_time_is_zero_days_late():
    assert days_late(DUE, DUE) == 0


def test_one_minute_late_counts_as_a_day():
    assert days_late(DUE + timedelta(minutes=1), DUE) == 1


@pytest.mark.parametrize("late, expected", [(0, 70), (1, 65), (3, 55), (7, 35), (8, 0)])
def test_late_penalty(late, expected):
    assert apply_late_penalty(70, late) == expected


def test_penalty_never_negative():
    assert apply_late_penalty(12, MAX_LATE_DAYS) == 0


def test_forbidden_statements():
    assert is_forbidden("DELETE FROM loan")
    assert not is_forbidden("SELECT deleted_on FROM loan")


def test_unordered_comparison_ignores_row_order():
    got = (["a"], [(2,), (1,)])
    exp = (["a"], [(1,), (2,)])
    assert results_match(got, exp, ordered=False, tol=0.01, check_names=True)[0]


def test_column_names_are_checked():
    ok, why = results_match((["x"], [(1,)]), (["a"], [(1,)]), ordered=False, tol=0.01, check_names=True)
    assert not ok and why == "column names differ"


def test_total_mark_scales_to_100():
    cfg = {"marking": {"questions": 12, "marks_per_question": 5}}
    results = [TestResult(q, q <= 9) for q in range(1, 13)]
    assert total_mark(results, cfg) == 75.0
