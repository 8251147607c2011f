"""The reranker's training data (models/reranker_data.py): rst parsing, inverse-cloze pairs, negatives."""

from __future__ import annotations

import json
import random
from pathlib import Path

from models.reranker_data import build_groups, clean_rst, cloze, rst_sections

PAGE = """\
:mod:`json` --- JSON encoder and decoder
========================================

.. module:: json
   :synopsis: Encode and decode the JSON format.

**Source code:** :source:`Lib/json/__init__.py`

--------------

`JSON (JavaScript Object Notation) <https://json.org>`_ is a lightweight data interchange format.
:mod:`json` exposes an API familiar to users of the :mod:`pickle` module.

Basic Usage
-----------

.. function:: dumps(obj, *, skipkeys=False)

   Serialize *obj* to a JSON formatted :class:`str` using this conversion table.
   If *skipkeys* is true, dict keys that are not of a basic type are skipped.

   :param obj: the object

Other text after the function.
"""


def test_rst_sections_headings_api_entries_and_markup() -> None:
    sections = dict(rst_sections(PAGE, "json.rst"))
    title = "json --- JSON encoder and decoder"
    assert title in sections
    intro = sections[title]
    assert "JSON (JavaScript Object Notation) is a lightweight" in intro
    assert "json exposes an API familiar to users of the pickle module." in intro
    assert ":synopsis:" not in intro and "Source code" not in intro and "-----" not in intro
    api = sections[f"{title} dumps(obj, *, skipkeys=False)"]
    assert api.startswith("Serialize *obj* to a JSON formatted str")
    assert ":param" not in api
    basic = sections[f"{title}: Basic Usage"]
    assert "dumps(obj, *, skipkeys=False)" in basic and "Other text after the function." in basic


def test_clean_rst_roles_and_links() -> None:
    assert (
        clean_rst("see :func:`~os.path.join` and `the docs <https://x.y>`_")
        == "see os.path.join and the docs"
    )
    assert clean_rst(":ref:`Logging <logging-howto>` ``code``") == "Logging code"


def test_cloze_takes_one_sentence_out() -> None:
    paragraph = (
        "The cache keeps recent pages in memory. It evicts the least recently used page first. "
        "Its size is set in the configuration file. A restart clears it completely."
    )
    pair = cloze(paragraph, random.Random(3))
    assert pair is not None
    query, rest = pair
    assert query in paragraph and query not in rest
    assert len(rest) + len(query) + 1 == len(paragraph)
    assert cloze("One sentence only, with several words in it.", random.Random(0)) is None


def _squad(folder: Path) -> Path:
    folder.mkdir()
    topics = {
        "Volcano": "A volcano is a rupture in the crust of a planet. Lava erupts from the vent. "
        "Ash clouds can travel far. Eruptions are monitored by seismographs.",
        "Glacier": "A glacier is a persistent body of dense ice. It moves under its own weight. "
        "Glaciers carve valleys over time. They store much of the world's fresh water.",
        "Harbor": "A harbor is a sheltered body of water where ships can be docked. Breakwaters protect it. "
        "Cranes unload the cargo. Pilots guide large ships in.",
    }
    passages = [{"_id": f"{t}#p0", "title": t, "text": text} for t, text in topics.items()]
    asked = [
        ("What moves under its own weight?", False, "Glacier#p0"),
        ("What protects a harbor?", False, "Harbor#p0"),
        ("Who named the volcano?", True, "Volcano#p0"),
    ]
    questions = [
        {"id": str(n), "question": q, "is_impossible": impossible, "paragraph_id": pid}
        for n, (q, impossible, pid) in enumerate(asked)
    ]
    (folder / "passages.jsonl").write_text("\n".join(json.dumps(p) for p in passages))
    (folder / "questions.jsonl").write_text("\n".join(json.dumps(q) for q in questions))
    return folder


def test_groups_from_squad_are_deterministic_and_negatives_come_from_other_sections(tmp_path: Path) -> None:
    folder = _squad(tmp_path / "squad")
    groups = build_groups(None, folder, seed=5, negatives=2)
    assert groups == build_groups(None, folder, seed=5, negatives=2)
    questions = {g.query: g for g in groups if g.kind == "question"}
    assert set(questions) == {"What moves under its own weight?", "What protects a harbor?"}  # no impossible
    glacier = questions["What moves under its own weight?"]
    assert "moves under its own weight" in glacier.positive
    assert len(glacier.negatives) == 2
    assert all("glacier" not in n.lower() for n in glacier.negatives)
    for group in groups:
        if group.kind == "cloze":
            assert group.query not in group.positive


def test_a_passage_holding_the_positives_text_is_never_its_negative() -> None:
    from models.reranker_data import near_duplicate

    entry = "Serialize obj to a JSON formatted str using this conversion table. Keys must be strings."
    page = "Basic Usage\n\ndumps(obj)\n" + entry + "\nOther text after the function."
    assert near_duplicate(page, entry) and near_duplicate(entry, page)
    assert not near_duplicate("Glaciers carve valleys over time.", entry)
    assert not near_duplicate("", entry)
