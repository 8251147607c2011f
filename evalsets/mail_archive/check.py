#!/usr/bin/env python3
"""Check the mail_archive evaluation set: corpus decodes, passages are in their gold files.

Standard library only. Every message in docs/ is decoded the way a mail program shows it: mbox files
with mailbox.mbox (mboxrd ">From " quoting undone), .eml files with email.message_from_bytes and
policy.default; text/plain (and other text/* parts such as text/calendar or text/csv) as is, text/html
through html.parser with tags dropped, a calendar event's times as a calendar shows them ("Starts:
2025-11-13 18:30"); headers as decoded values; attachment file names. Then every
supporting passage (whitespace-normalised) must occur in the visible text of at least one of its row's
gold files, and ids, counts, categories and kinds must be as the README states.

    python3 evalsets/mail_archive/check.py
"""

from __future__ import annotations

import email
import json
import mailbox
import re
import sys
from collections import Counter
from email import policy
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = HERE / "docs"
QUESTIONS = HERE / "questions.jsonl"

EXPECTED_MESSAGES = {"Archive-2025.mbox": 40, "Clients.mbox/mbox": 11, "saved/*.eml": 20}
KINDS = {"nonexistent_identifier": 3, "wrong_figure": 3, "swapped": 3, "missing_feature": 3}
CATEGORIES = {"what", "when", "who", "how", "why", "where"}
BLOCK = {
    "p",
    "br",
    "div",
    "tr",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "ul",
    "ol",
    "thead",
    "tbody",
    "blockquote",
}
CELL = {"td", "th"}


class Visible(HTMLParser):
    """Visible text of an HTML body: tags dropped, table cells joined by spaces, blocks on new lines."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "head", "title"):
            self.skip += 1
        elif tag in BLOCK:
            self.out.append("\n")
        elif tag in CELL:
            self.out.append(" ")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "head", "title"):
            self.skip = max(0, self.skip - 1)
        elif tag in BLOCK:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)

    def text(self) -> str:
        lines = (re.sub(r"[ \t\r\f\v]+", " ", ln).strip() for ln in "".join(self.out).split("\n"))
        return "\n".join(ln for ln in lines if ln)


def html_text(html: str) -> str:
    p = Visible()
    p.feed(html)
    p.close()
    return p.text()


def render(msg: email.message.EmailMessage) -> str:
    """Headers and every body part of one message as a reader sees them."""
    out = []
    for h in ("From", "To", "Cc", "Date", "Subject"):
        if msg[h] is not None:
            out.append(f"{h}: {msg[h]}")
    for part in msg.walk():
        if part.is_multipart():
            continue
        name = part.get_filename()
        if name:
            out.append(f"[attachment: {name}]")
        if part.get_content_maintype() != "text":
            continue
        body = part.get_content()
        out.append(html_text(body) if part.get_content_subtype() == "html" else body)
        if part.get_content_subtype() == "calendar":
            out.append(event_times(body))
    return "\n".join(out)


def event_times(ics: str) -> str:
    """A calendar part's event times as a calendar shows them ("Starts: 2025-11-13 18:30"): local time
    as written, the time zone's own rules left out."""
    out, inside = [], False
    for line in ics.splitlines():
        inside = {"BEGIN:VEVENT": True, "END:VEVENT": False}.get(line.strip(), inside)
        m = re.match(r"(DTSTART|DTEND)[^:]*:(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)", line)
        if inside and m:
            label = "Starts" if m.group(1) == "DTSTART" else "Ends"
            out.append(f"{label}: {m.group(2)}-{m.group(3)}-{m.group(4)} {m.group(5)}:{m.group(6)}")
    return "\n".join(out)


UNQUOTE = re.compile(rb"^>(>*From )", re.M)


def messages(rel: str) -> list[email.message.EmailMessage]:
    path = DOCS / rel
    if rel.endswith(".eml"):
        return [email.message_from_bytes(path.read_bytes(), policy=policy.default)]
    box = mailbox.mbox(str(path), create=False)
    try:
        return [
            email.message_from_bytes(UNQUOTE.sub(rb"\1", box.get_bytes(k)), policy=policy.default)
            for k in box.keys()  # noqa: SIM118 (iterating a mailbox yields its messages, not its keys)
        ]
    finally:
        box.close()


def norm(s: str) -> str:
    return " ".join(s.split())


def main() -> int:
    errors: list[str] = []
    files = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*") if p.is_file())
    texts: dict[str, str] = {}
    counts = Counter()
    for rel in files:
        try:
            msgs = messages(rel)
        except Exception as exc:
            errors.append(f"{rel}: does not decode: {exc!r}")
            continue
        if not msgs:
            errors.append(f"{rel}: no messages")
        for m in msgs:
            if m["Message-ID"] is None or m["Date"] is None or m["From"] is None:
                errors.append(f"{rel}: message without Message-ID/Date/From")
            for part in m.walk():
                if part.get_content_maintype() == "text" and not part.is_multipart():
                    part.get_content()  # raises on an undecodable body
        texts[rel] = "\n\n".join(render(m) for m in msgs)
        key = "saved/*.eml" if rel.startswith("saved/") and rel.endswith(".eml") else rel
        counts[key] += len(msgs)
    for key, n in EXPECTED_MESSAGES.items():
        if counts.get(key) != n:
            errors.append(f"{key}: {counts.get(key)} messages, expected {n}")
    extra = set(counts) - set(EXPECTED_MESSAGES)
    if extra:
        errors.append(f"unexpected files in docs/: {sorted(extra)}")
    size = sum(p.stat().st_size for p in DOCS.rglob("*") if p.is_file())
    if size >= 1_000_000:
        errors.append(f"docs/ is {size} bytes, over 1 MB")

    rows = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
    ids = [r["id"] for r in rows]
    want = [f"c{i:02d}" for i in range(1, 37)] + [f"u{i:02d}" for i in range(1, 13)]
    if ids != want:
        errors.append(f"ids are not c01..c36, u01..u12 in order: {ids}")
    kinds = Counter()
    cats = Counter()
    gold_use = Counter()
    for r in rows:
        rid = r["id"]
        if rid.startswith("c"):
            keys = {"id", "question", "gold_sources", "category", "gold_answer", "supporting_passages"}
            if set(r) != keys:
                errors.append(f"{rid}: keys {sorted(r)}")
            if r["category"] not in CATEGORIES:
                errors.append(f"{rid}: category {r['category']}")
            cats[r["category"]] += 1
            if not r["gold_sources"]:
                errors.append(f"{rid}: no gold_sources")
            if not 1 <= len(r["supporting_passages"]) <= 2:
                errors.append(f"{rid}: {len(r['supporting_passages'])} passages")
            for g in r["gold_sources"]:
                gold_use[g] += 1
                if g not in texts:
                    errors.append(f"{rid}: gold file {g!r} missing")
            for p in r["supporting_passages"]:
                if not 1 <= len(p.splitlines()) <= 3:
                    errors.append(f"{rid}: passage of {len(p.splitlines())} lines")
                if not any(norm(p) in norm(texts.get(g, "")) for g in r["gold_sources"]):
                    errors.append(f"{rid}: passage not in its gold files: {p!r}")
        else:
            keys = {"id", "question", "gold_sources", "category", "gold_answer", "kind", "why"}
            if set(r) != keys:
                errors.append(f"{rid}: keys {sorted(r)}")
            if r["category"] != "unanswerable" or r["gold_sources"]:
                errors.append(f"{rid}: unanswerable rows need category 'unanswerable' and no gold")
            kinds[r.get("kind")] += 1
    if dict(kinds) != KINDS:
        errors.append(f"kinds {dict(kinds)}, expected {KINDS}")
    if sum(cats.values()) != 36 or max(cats.values(), default=0) > 8:
        errors.append(f"categories {dict(cats)}")

    print(f"files: {len(files)}; messages: {dict(counts)}; docs/ {size} bytes")
    print(f"questions: {len(rows)}; categories {dict(sorted(cats.items()))}")
    print(f"kinds {dict(sorted(kinds.items()))}")
    print(f"gold files used: {len(gold_use)} of {len(files)}")
    for e in errors:
        print("ERROR", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
