"""COMP2110 CW1 autograder: runs each student's SQL answers against a fresh PostgreSQL database and
compares the result with the model answer.

Maintainer: Tomasz Halloran <t.halloran@hollinsford.example.ac.uk>
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import psycopg

CONFIG_PATH = Path(__file__).with_name("config.toml")

# School assessment policy from 2025/26: 5 marks (out of 100) per calendar day or part day late,
# for at most 7 days; later than that scores 0. (Was 10 per day for at most 5 days in 2024/25.)
LATE_PENALTY_PER_DAY = 5
MAX_LATE_DAYS = 7

# Used only if config.toml has no [limits] query_timeout_s.
DEFAULT_QUERY_TIMEOUT_S = 5

# Statements a submission may not contain; they are rejected before anything runs.
FORBIDDEN_KEYWORDS = ("DROP", "DELETE", "UPDATE", "INSERT", "ALTER", "TRUNCATE", "GRANT", "COPY")


@dataclass
class TestResult:
    question: int
    passed: bool
    reason: str = ""


def load_config(path: Path = CONFIG_PATH) -> dict:
    with path.open("rb") as fh:
        return tomllib.load(fh)


def days_late(submitted: datetime, due: datetime) -> int:
    """Whole or part days after the deadline; 0 if on time."""
    if submitted <= due:
        return 0
    return math.ceil((submitted - due).total_seconds() / 86400)


def apply_late_penalty(mark: float, late_days: int) -> float:
    """Deduct LATE_PENALTY_PER_DAY marks per day late; zero after MAX_LATE_DAYS. Never below 0."""
    if late_days <= 0:
        return mark
    if late_days > MAX_LATE_DAYS:
        return 0.0
    return max(0.0, mark - LATE_PENALTY_PER_DAY * late_days)


def is_forbidden(sql: str) -> bool:
    words = {w.strip("();,").upper() for w in sql.split()}
    return any(k in words for k in FORBIDDEN_KEYWORDS)


def normalise_row(row: tuple, tol: float) -> tuple:
    """Round floats to the tolerance so that 2.0000001 and 2.0 compare equal; strip strings."""
    digits = max(0, -int(math.floor(math.log10(tol)))) if tol > 0 else 6
    out = []
    for v in row:
        if isinstance(v, float):
            out.append(round(v, digits))
        elif isinstance(v, str):
            out.append(v.strip())
        else:
            out.append(v)
    return tuple(out)


def results_match(got, expected, *, ordered: bool, tol: float, check_names: bool) -> tuple[bool, str]:
    got_cols, got_rows = got
    exp_cols, exp_rows = expected
    if check_names and [c.lower() for c in got_cols] != [c.lower() for c in exp_cols]:
        return False, "column names differ"
    g = [normalise_row(r, tol) for r in got_rows]
    e = [normalise_row(r, tol) for r in exp_rows]
    if not ordered:
        g, e = sorted(g, key=repr), sorted(e, key=repr)
    if len(g) != len(e):
        return False, f"expected {len(e)} rows, got {len(g)}"
    return (g == e), ("" if g == e else "values differ")


def run_query(conn, sql: str, timeout_s: int, max_rows: int):
    with conn.cursor() as cur:
        cur.execute(f"SET statement_timeout = {int(timeout_s * 1000)}")
        cur.execute(sql)
        cols = [d.name for d in cur.description]
        rows = cur.fetchmany(max_rows + 1)
    return cols, rows[:max_rows], len(rows) > max_rows


def grade_submission(conn, answers: dict[int, str], model: dict[int, dict], cfg: dict) -> list[TestResult]:
    limits = cfg.get("limits", {})
    timeout_s = limits.get("query_timeout_s", DEFAULT_QUERY_TIMEOUT_S)
    max_rows = limits.get("max_result_rows", 5000)
    marking = cfg["marking"]
    results = []
    for q, spec in sorted(model.items()):
        sql = answers.get(q, "").strip()
        if not sql:
            results.append(TestResult(q, False, "no answer"))
            continue
        if is_forbidden(sql):
            results.append(TestResult(q, False, "forbidden statement"))
            continue
        try:
            cols, rows, truncated = run_query(conn, sql, timeout_s, max_rows)
        except psycopg.errors.QueryCanceled:
            results.append(TestResult(q, False, f"timed out after {timeout_s} s"))
            conn.rollback()
            continue
        except psycopg.Error as exc:
            results.append(TestResult(q, False, f"SQL error: {exc.diag.message_primary}"))
            conn.rollback()
            continue
        if truncated:
            results.append(TestResult(q, False, "too many rows"))
            continue
        ordered = spec.get("ordered", False) or not marking["order_sensitive_only_if_requested"]
        ok, why = results_match(
            (cols, rows),
            (spec["columns"], spec["rows"]),
            ordered=ordered,
            tol=marking["float_tolerance"],
            check_names=marking["compare_column_names"],
        )
        results.append(TestResult(q, ok, why))
    return results


def total_mark(results: list[TestResult], cfg: dict) -> float:
    """Mark out of 100: each passed question is worth marks_per_question, scaled to 100."""
    m = cfg["marking"]
    raw = sum(m["marks_per_question"] for r in results if r.passed)
    return 100.0 * raw / (m["questions"] * m["marks_per_question"])
