#!/usr/bin/env python3
"""Check the office_practice evaluation set: questions.jsonl is well formed and every supporting passage
occurs in the text of its gold file(s) as a reader sees it.

Needs python-docx, python-pptx and openpyxl, LibreOffice (`soffice`, for .doc, .xls and .ods, which are
converted to .docx/.xlsx in a temporary folder first) and `pdftotext` (poppler-utils) for the PDF:

    /tmp/officegen/bin/python evalsets/office_practice/check.py

How each file is rendered (then whitespace-normalised: every run of whitespace becomes one space):

- .docx / .doc: body paragraphs and tables in document order, plus headers and footers; a table row is its
  cells' text joined by single spaces (a merged cell counted once). Word's automatic list numbers are not
  part of the text.
- .xlsx / .xls / .ods: every sheet, every row: the non-empty cells' values *as displayed* (number formats
  applied: £#,##0.00, 0%, dd/mm/yyyy, ...; formulas by their cached value) joined by single spaces.
- .pptx: every slide's text frames (one line per paragraph), table rows (cells joined by single spaces) and
  speaker notes.
- .pdf: pdftotext's text. .txt/.md: the text; .csv: the text, and each row's cells joined by spaces.

Exits non-zero, printing one line per problem, if anything fails.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from docx import Document
from docx.table import Table
from docx.text.paragraph import Paragraph
from openpyxl import load_workbook
from pptx import Presentation

HERE = Path(__file__).resolve().parent
DOCS = HERE / "docs"
QUESTIONS = HERE / "questions.jsonl"

CATEGORIES = {"what", "who", "when", "how", "why", "where", "how much"}
KINDS = {"nonexistent_identifier", "wrong_figure", "swapped", "false_premise", "absent", "missing_feature"}
ANSWERABLE_KEYS = ["id", "question", "gold_sources", "category", "gold_answer", "supporting_passages"]
UNANSWERABLE_KEYS = ["id", "question", "gold_sources", "category", "gold_answer", "kind", "why"]

# Words or figures that an unanswerable question's false premise relies on and that must occur in no file
# (case-insensitive, whitespace-normalised).
ABSENT = {
    "u01": ["Fairford", "vicarage", "churchyard"],
    "u02": ["Gemma"],
    "u03": ["Cotswold Turf"],
    "u04": ["40,000"],
    "u05": ["£600.00", "£600 a day"],
    "u09": ["injur", "hospital"],
    "u11": ["pension"],
}


# ------------------------------------------------------------------------------------------ rendering


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("\u00a0", " ")).strip()


def _split_sections(nf: str) -> list[str]:
    out, cur, q = [], "", False
    for ch in nf:
        if ch == '"':
            q = not q
        if ch == ";" and not q:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def _number(v: float, section: str) -> str:
    section = re.sub(r"\[\$([^\]-]*)(-[0-9A-Fa-f]+)?\]", r'"\1"', section)  # [$£-809] -> "£"
    section = re.sub(r"\[[^\]]*\]", "", section)  # [Red] etc.
    before, chunk, after, seen = "", "", "", False
    i = 0
    while i < len(section):
        ch = section[i]
        if ch == '"':
            j = section.index('"', i + 1)
            lit = section[i + 1 : j]
            i = j + 1
        elif ch == "\\":
            lit = section[i + 1]
            i += 2
        elif ch in "0#,." and (not seen or not after):
            chunk += ch
            seen = True
            i += 1
            continue
        elif ch in "_*":
            i += 2
            continue
        else:
            lit = ch
            i += 1
        if seen:
            after += lit
        else:
            before += lit
    if "%" in before + after:
        v *= 100
    dec = len(chunk.split(".")[1]) if "." in chunk else 0
    num = f"{v:,.{dec}f}" if "," in chunk else f"{v:.{dec}f}"
    return before + num + after


def display(v, nf: str) -> str:
    """A cell's value as a spreadsheet shows it, for the number formats this set uses."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, (dt.datetime, dt.date)):
        f = nf.lower().replace("\\", "")
        if re.fullmatch(r"dd/mm/yy(yy)?", f):
            return v.strftime("%d/%m/%Y" if f.endswith("yyyy") else "%d/%m/%y")
        if f in ("d mmm yyyy", "d mmmm yyyy"):
            return f"{v.day} {v.strftime('%b' if f.count('m') == 3 else '%B')} {v.year}"
        if f in ("general", "yyyy-mm-dd", "yyyy-mm-dd h:mm:ss"):
            return v.strftime("%Y-%m-%d")
        raise ValueError(f"unhandled date format {nf!r}")
    if nf in (None, "", "General", "@"):
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return f"{v:.10g}" if isinstance(v, float) else str(v)
    sections = _split_sections(nf)
    if v < 0 and len(sections) > 1:
        return _number(-v, sections[1])
    if v == 0 and len(sections) > 2:
        return _number(v, sections[2])
    s = _number(abs(v), sections[0])
    return "-" + s if v < 0 else s


def render_xlsx(path: Path) -> list[str]:
    wb = load_workbook(path, data_only=True)
    lines = []
    for ws in wb.worksheets:
        lines.append(f"[sheet {ws.title}]")
        for row in ws.iter_rows():
            vals = [display(c.value, c.number_format) for c in row]
            vals = [x for x in vals if x != ""]
            if vals:
                lines.append(" ".join(vals))
    return lines


def _row_text(row) -> str:
    cells, seen = [], set()
    for cell in row.cells:
        if id(cell._tc) in seen:
            continue
        seen.add(id(cell._tc))
        t = cell.text.strip()
        if t:
            cells.append(t)
    return " ".join(cells)


def _blocks(parent):
    for child in parent.element.body.iterchildren() if hasattr(parent, "element") else []:
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            yield Paragraph(child, parent).text
        elif tag == "tbl":
            for row in Table(child, parent).rows:
                yield _row_text(row)


def render_docx(path: Path) -> list[str]:
    doc = Document(path)
    lines = list(_blocks(doc))
    for sec in doc.sections:
        for part in (sec.header, sec.footer):
            lines += [p.text for p in part.paragraphs]
    return lines


def _shape_lines(shape):
    if shape.shape_type == 6:  # group
        for s in shape.shapes:
            yield from _shape_lines(s)
        return
    if getattr(shape, "has_table", False) and shape.has_table:
        for row in shape.table.rows:
            yield " ".join(c.text.strip() for c in row.cells if c.text.strip())
    if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
        for p in shape.text_frame.paragraphs:
            yield "".join(r.text for r in p.runs) if p.runs else p.text


def render_pptx(path: Path) -> list[str]:
    prs = Presentation(path)
    lines = []
    for i, slide in enumerate(prs.slides, 1):
        lines.append(f"[slide {i}]")
        for shape in slide.shapes:
            lines += list(_shape_lines(shape))
        if slide.has_notes_slide:
            lines.append("[notes]")
            lines += [p.text for p in slide.notes_slide.notes_text_frame.paragraphs]
    return lines


def convert(path: Path, fmt: str, tmp: Path) -> Path:
    profile = Path(tempfile.gettempdir()) / "lo_profile_officecheck"
    subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation=file://{profile}",
            "--headless",
            "--convert-to",
            fmt,
            "--outdir",
            str(tmp),
            str(path),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out = tmp / (path.stem + "." + fmt)
    if not out.exists():
        raise RuntimeError(f"LibreOffice did not convert {path.name} to {fmt}")
    return out


def render(path: Path, tmp: Path) -> str:
    ext = path.suffix.lower()
    if ext == ".docx":
        lines = render_docx(path)
    elif ext in (".doc", ".odt", ".rtf"):
        lines = render_docx(convert(path, "docx", tmp))
    elif ext == ".xlsx":
        lines = render_xlsx(path)
    elif ext in (".xls", ".ods"):
        lines = render_xlsx(convert(path, "xlsx", tmp))
    elif ext == ".pptx":
        lines = render_pptx(path)
    elif ext == ".pdf":
        lines = [
            subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout
        ]
    elif ext == ".csv":
        text = path.read_text(encoding="utf-8")
        lines = [text] + [" ".join(c for c in row if c) for row in csv.reader(io.StringIO(text))]
    elif ext in (".txt", ".md"):
        lines = [path.read_text(encoding="utf-8")]
    else:
        raise ValueError(f"no renderer for {path}")
    return norm("\n".join(lines))


# ------------------------------------------------------------------------------------------ checks


def tokens(s: str) -> list[str]:
    return re.findall(r"[a-z0-9£%]+", s.lower())


def longest_shared_run(q: str, texts: list[str]) -> int:
    qt = tokens(q)
    best = 0
    for n in range(1, len(qt) + 1):
        grams = {" ".join(qt[i : i + n]) for i in range(len(qt) - n + 1)}
        if any(" " + g + " " in t for g in grams for t in texts):
            best = n
        else:
            break
    return best


def main() -> int:
    errors: list[str] = []
    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    if len(rows) != 48:
        errors.append(f"expected 48 rows, found {len(rows)}")
    ids = [r.get("id") for r in rows]
    for i, n in Counter(ids).items():
        if n > 1:
            errors.append(f"duplicate id {i}")
    answerable = [r for r in rows if str(r.get("id", "")).startswith("c")]
    unanswerable = [r for r in rows if str(r.get("id", "")).startswith("u")]
    if len(answerable) != 36 or len(unanswerable) != 12:
        errors.append(
            f"expected 36 answerable and 12 unanswerable, found {len(answerable)} and {len(unanswerable)}"
        )

    files = sorted(p for p in DOCS.rglob("*") if p.is_file())
    rendered: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for p in files:
            rel = p.relative_to(DOCS).as_posix()
            try:
                rendered[rel] = render(p, Path(tmp))
            except Exception as e:
                errors.append(f"cannot render {rel}: {e}")

    for r in answerable:
        rid = r.get("id")
        for k in ANSWERABLE_KEYS:
            if k not in r or r[k] in ("", [], None):
                errors.append(f"{rid}: missing or empty field {k}")
        if r.get("category") not in CATEGORIES:
            errors.append(f"{rid}: bad category {r.get('category')!r}")
        gold = r.get("gold_sources") or []
        for g in gold:
            if g not in rendered:
                errors.append(f"{rid}: gold file does not exist or did not render: {g}")
        for passage in r.get("supporting_passages") or []:
            np_ = norm(passage)
            if not any(np_ in rendered.get(g, "") for g in gold):
                errors.append(f"{rid}: passage not found in {gold}: {passage!r}")
    for r in unanswerable:
        rid = r.get("id")
        for k in UNANSWERABLE_KEYS:
            if k not in r or r[k] in ("", None):
                errors.append(f"{rid}: missing or empty field {k}")
        if r.get("gold_sources") != []:
            errors.append(f"{rid}: unanswerable row must have empty gold_sources")
        if r.get("category") != "unanswerable":
            errors.append(f"{rid}: category must be 'unanswerable'")
        if r.get("kind") not in KINDS:
            errors.append(f"{rid}: bad kind {r.get('kind')!r}")
        if "supporting_passages" in r:
            errors.append(f"{rid}: unanswerable row has supporting_passages")
        for term in ABSENT.get(rid, []):
            for rel, text in rendered.items():
                if norm(term).lower() in text.lower():
                    errors.append(f"{rid}: premise term {term!r} occurs in {rel}")

    # report (not errors): counts and paraphrase distance
    corpus_tokens = [" " + " ".join(tokens(t)) + " " for t in rendered.values()]
    runs = {r["id"]: longest_shared_run(r["question"], corpus_tokens) for r in rows}
    print("categories:", dict(Counter(r.get("category") for r in answerable)))
    print("kinds:", dict(Counter(r.get("kind") for r in unanswerable)))
    print(
        "first gold file type:",
        dict(Counter(Path(r["gold_sources"][0]).suffix for r in answerable if r.get("gold_sources"))),
    )
    print("longest run of words shared by a question and the corpus:", dict(Counter(runs.values())))
    long_runs = [f"{i}({n})" for i, n in runs.items() if n >= 5]
    if long_runs:
        print("questions sharing 5+ consecutive words with the corpus:", ", ".join(long_runs))
    print(f"{len(files)} files, {sum(p.stat().st_size for p in files) / 1024:.0f} kB")

    for e in errors:
        print("ERROR:", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
