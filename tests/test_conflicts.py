"""Versions of one document and which is current: the rules shared by the answer pipeline (conflicting
evidence) and the MCP tool check_staleness. Pure functions over names and text; no index needed."""

from __future__ import annotations

from datetime import date
from pathlib import Path, PurePath

import pytest

from engine.answer.conflicts import (
    DocFacts,
    compare,
    current,
    detect,
    doc_facts,
    name_ident,
    name_key,
    parse_date,
    same_family,
    superseded_by,
    text_facts,
)
from engine.events import Hit

# ------------------------------------------------------------------------------------------ families


def facts(name: str, text: str = "", mtime: float = 1000.0) -> DocFacts:
    lines = text.splitlines()
    title = next((line.lstrip("# ") for line in lines if line.startswith("#")), "")
    return doc_facts(Path("/kb/policies") / name, mtime, title, lines)


def test_names_that_share_a_stem_are_related() -> None:
    assert name_key("pto_policy") == name_key("pto_policy_2023") == ("pto", "policy")
    assert name_key("Handbook-v2-FINAL") == name_key("handbook") == ("handbook",)
    assert (
        name_ident("adr_003_database_migration") == name_ident("adr_003_v2_database_strategy") == ("adr", "3")
    )
    assert name_ident("2023_report") is None and name_ident("pto_policy") is None
    assert same_family("pto_policy.md", "pto_policy_2023.md")
    assert same_family("adr_003_database_migration.md", "adr_003_v2_database_strategy.md")
    assert not same_family("adr_003_database_migration.md", "adr_004_database_migration.md")
    assert not same_family("pto_policy.md", "travel_policy.md")
    assert not same_family("/kb/pto_policy.md", "/kb/pto_policy.md")


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("/p/pto_policy.md", "/p/pto_policy_2023.md", True),
        ("/p/adr_003_database_migration.md", "/p/adr_003_v2_database_strategy.md", True),
        ("/p/expense_policy.md", "/p/expense_policy_DRAFT.md", True),
        ("/p/pto_policy.md", "/p/remote_work_policy.md", False),
        ("/p/README_api_gateway.md", "/p/README_feature_store.md", False),
        ("/p/2023/pto_policy.md", "/p/2024/pto_policy.md", True),
        ("/p/archive/pto_policy.md", "/p/pto_policy.md", True),
        ("/p/pto_policy.md", "/p/pto_policy_2023.pdf", True),
        # a module and the page documenting it; one name in two folders; code is not prose
        ("/repo/docs/testing.md", "/repo/docs/testing.py", False),
        ("/repo/docs/testing.md", "/repo/src/click/testing.py", False),
        ("/repo/docs/README.md", "/repo/src/README.md", False),
        ("/repo/a/utils.py", "/repo/b/utils.py", False),
        ("/repo/utils_v1.py", "/repo/utils_v2.py", True),
    ],
)
def test_document_families(a: str, b: str, same: bool) -> None:
    assert same_family(a, b) is same


# --------------------------------------------------------------------------------------------- facts


def test_markers_versions_dates_and_drafts_are_read() -> None:
    f = facts(
        "adr_003_v2_database_strategy.md",
        "# ADR-003 v2: Database strategy\nStatus: Accepted\n"
        "Supersedes: ADR-003 (database migration)\nLast updated: March 5, 2024\n",
    )
    assert f.version == (2,) and f.supersedes == ("ADR-003 (database migration)",)
    assert f.effective == date(2024, 3, 5) and not f.draft and not f.marked_superseded
    old = facts("old.md", "# Old\n> **Status:** Superseded by the 2023 policy\n")
    assert old.marked_superseded and old.superseded_by == ("the 2023 policy",)
    new = facts("new.md", "The 2021 text was superseded by this policy.\n")
    assert not new.marked_superseded and new.superseded_by == ()
    assert facts("DRAFT_pto_policy.md").draft and facts("x.md", "Status: Draft\n").draft
    assert facts("guide.md", "# Guide, version 3.1\n").version == (3, 1)
    assert not facts("fmt.md", "Tabs are replaced by spaces.\n").marked_superseded
    # "replaces" in ordinary prose is kept, but only counts when it names a sibling
    assert facts("util.md", "This helper replaces tabs with spaces.\n").supersedes == ("tabs with spaces",)


def test_a_date_line_needs_a_label_and_a_status_line_is_kept() -> None:
    adr = facts("adr_009.md", "# ADR-009\n\n**Date:** June 2024\n**Status:** Deprecated\n")
    assert adr.effective == date(2024, 6, 1) and adr.status == "deprecated" and adr.marked_superseded
    assert facts("plan.md", "# Plan\nThe due date is 2025-01-01.\n").effective is None
    # a post's, a report's or a notice's own date, however labelled
    for label in ("Posted:", "Publication date:", "Issued", "Published on"):
        assert facts("post.md", f"# Post\n\n{label} 3 March 2025\n").effective == date(2025, 3, 3), label
    assert facts("plan.md", "# Plan\nStart date: 2025-01-01\n").effective is None  # a date in it, not its own


def test_text_facts_take_the_title_from_a_leading_heading() -> None:
    draft = text_facts("/p/expense_policy.md", 1.0, "# Expense policy (DRAFT)\n\nMeals: $100/day.\n")
    assert draft.draft and draft.path == PurePath("/p/expense_policy.md")
    assert not text_facts("/p/notes.md", 1.0, "Intro\n# Not a draft title\n").draft


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Effective: 2023-01-15", date(2023, 1, 15)),
        ("2023-07", date(2023, 7, 1)),
        ("January 1, 2023", date(2023, 1, 1)),
        ("15 Sept 2022", date(2022, 9, 15)),
        ("Mar 2020", date(2020, 3, 1)),
        ("Date: June 2024", date(2024, 6, 1)),
        ("2023-13-45", None),
        ("no date here", None),
    ],
)
def test_parse_date(text: str, expected: date | None) -> None:
    assert parse_date(text) == expected


# ------------------------------------------------------------------------------------------ judging


def test_an_explicit_marker_decides() -> None:
    old = facts("adr_003_database_migration.md", "# ADR-003: Database migration\nStatus: Accepted\n", 2000.0)
    new = facts("adr_003_v2_database_strategy.md", "# ADR-003 v2\nSupersedes ADR-003.\n", 1000.0)
    assert compare(old, new).relation == "newer"  # despite the older file time
    assert compare(new, old).relation == "older"
    assert "supersedes" in compare(old, new).reasons[0]


def test_an_identifier_alone_does_not_let_an_old_record_supersede_a_newer_one() -> None:
    v2 = facts("adr_003_v2_database_strategy.md", "Supersedes ADR-003.\n")
    v3 = facts("adr_003_v3_database_strategy.md", "Supersedes ADR-003 v2.\n")
    assert compare(v3, v2).relation == "older"
    assert compare(v2, v3).relation == "newer"


def test_a_reference_names_a_file_by_its_name_words_and_year() -> None:
    old = facts("pto_policy_2023.md", "# PTO\nEffective: 2023-01-15\n")
    new = facts("pto_policy.md", "# PTO\nThis policy replaces the previous PTO policy dated January 2023.\n")
    judged = compare(old, new)
    assert (judged.relation, judged.basis) == ("newer", "marker")
    assert compare(old, facts("pto_policy.md", "This replaces the PTO policy of 2019.\n")).basis != "marker"


def test_dates_and_versions_decide_without_markers_and_file_times_only_hint() -> None:
    old = facts("pto_policy.md", "# PTO\nLast updated: 2021-03-01\n", mtime=5000.0)
    new = facts("pto_policy_2023.md", "# PTO 2023\nEffective: January 1, 2023\n", mtime=1000.0)
    assert compare(old, new).relation == "newer"
    assert compare(facts("guide.md", mtime=1.0), facts("guide_v2.md", mtime=0.0)).relation == "newer"
    assert (
        compare(facts("notes.md", mtime=1.0), facts("notes_copy.md", mtime=9.0)).relation == "possibly newer"
    )
    clash = compare(
        facts("spec_v3.md", "Effective: 2020-01-01\n"), facts("spec_v4.md", "Effective: 2019-01-01\n")
    )
    assert clash.relation == "unclear" and len(clash.reasons) == 2


def test_markers_status_and_dates_rank_versions_before_file_times() -> None:
    new = text_facts(
        "/p/policy.md",
        1.0,
        "# Policy\nEffective Date: September 1, 2024\nThis policy replaces the previous policy.",
    )
    old = text_facts("/p/policy_2023.md", 99.0, "# Policy\nEffective Date: January 15, 2023")
    draft = text_facts("/p/policy_DRAFT.md", 100.0, "# Policy (DRAFT)\nLast Updated: November 2024")
    assert current(old, new)[0] is new and current(new, old)[0] is new
    assert current(draft, old)[0] is old and current(old, draft)[0] is old
    assert current(draft, new)[0] is new and current(new, draft)[0] is new


def test_a_draft_is_not_in_force_and_its_claims_do_not_count() -> None:
    active = facts("expense_policy.md", "# Expenses\nEffective Date: January 2024\nStatus: Active\n")
    draft = facts(
        "expense_policy_DRAFT.md",
        "# Expenses (DRAFT)\nLast Updated: November 2024\nThis draft replaces expense_policy.md.\n",
    )
    assert compare(active, draft).relation == "older"
    judged = compare(draft, active)
    assert (judged.relation, judged.basis) == ("newer", "status")
    assert superseded_by(draft, [(active, judged)]) == []  # not in force yet, rather than replaced
    assert superseded_by(active, [(draft, compare(active, draft))]) == []


def test_superseded_by_lists_newer_versions_then_unresolved_references() -> None:
    old = facts("runbook.md", "# Runbook\nStatus: Superseded by the 2025 runbook\nUpdated: 2023-01-01\n")
    new = facts("runbook_v2.md", "# Runbook v2\nUpdated: 2024-06-01\n")
    assert superseded_by(old, [(new, compare(old, new))]) == [str(new.path), "the 2025 runbook"]


def test_unclear_reasons_fall_back_to_the_file_time() -> None:
    a = facts("spec_v3.md", "Effective: 2020-01-01\n", mtime=2.0)
    b = facts("spec_v4.md", "Effective: 2019-01-01\n", mtime=1.0)
    first, _, why = current(a, b)
    assert first is a and "later file time decides" in why


# ----------------------------------------------------------------------------------------- evidence


def test_detect_numbers_sources_by_their_first_place_in_the_evidence() -> None:
    heads = {
        "/kb/pto_policy.md": "# PTO\nEffective: 2024-09-01\n",
        "/kb/pto_policy_2023.md": "# PTO\nEffective: 2023-01-15\n",
        "/kb/remote_work_policy.md": "# Remote work\nEffective: 2025-01-01\n",
    }
    evidence = [
        Hit(1, "/kb/pto_policy_2023.md", 1, 2, None, "", "18 days", 0.3, mtime=9.0),
        Hit(2, "/kb/remote_work_policy.md", 1, 2, None, "", "home", 0.2, mtime=9.0),
        Hit(3, "/kb/pto_policy_2023.md", 3, 4, None, "", "3 days", 0.2, mtime=9.0),
        Hit(4, "/kb/pto_policy.md", 1, 2, None, "", "20 days", 0.1, mtime=1.0),
    ]
    (conflict,) = detect(evidence, heads.__getitem__)
    assert conflict.sources == (4, 1) and conflict.current == 4
    assert "dated 2024-09-01" in conflict.reason
    assert conflict.summary.startswith(
        "pto_policy.md and pto_policy_2023.md disagree; pto_policy.md is current"
    )
