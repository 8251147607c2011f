"""Saved e-mail (engine/ingest/mail.py): a message or a mailbox read as a mail program shows it, its
headers, its decoded text, its invitations, attachments and forwarded messages; each of a mailbox's
messages a page cited by its number."""

from __future__ import annotations

import mailbox
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from engine.api import Engine, page_label
from engine.documents import read_document
from engine.errors import ExtractError
from engine.events import Document
from engine.ingest.extract import extract, readers
from engine.ingest.mail import MAIL_READER, MAIL_SUFFIXES
from tests.conftest import index_with_notes


def read(path: Path) -> Document:
    return extract(path, path.read_bytes())


def texts(doc: Document) -> list[tuple[int | None, int, str]]:
    return [(line.page, line.line, line.text) for line in doc.lines if line.text]


def quote() -> EmailMessage:
    """A supplier's message as mail programs send one: quoted-printable text with an HTML alternative, a
    CSV and a PDF attached, a calendar invitation, and a message forwarded as an attachment."""
    message = EmailMessage()
    message["From"] = "Priya Shah <priya@example.org>"
    message["To"] = "Sam Okafor <sam@example.com>"
    message["Subject"] = "Flour prices – revised"
    message["Date"] = "Tue, 04 Mar 2025 09:12:00 +0000"
    message.set_content(
        "Hi Sam,\n\nThe 16 kg sack is now £21.50 (was £19.80).\nDelivery moves to Thursdays.\n\n"
        "> can you do Fridays?\n\nPriya\n07700 900123\n",
        cte="quoted-printable",
    )
    message.add_alternative("<p>Hi Sam, <b>not shown</b>: the plain text is preferred</p>", subtype="html")
    prices = b"item,price\nflour,21.50\n"
    message.add_attachment(prices, maintype="text", subtype="csv", filename="prices.csv")
    message.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="invoice 12.pdf")
    invite = (
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Tasting\r\nDTSTART:20250311T140000Z\r\n"
        "LOCATION:The shop\\, Bristol\r\nDESCRIPTION:Bring the new\r\n  rye\r\n"
        "END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    message.add_attachment(invite.encode(), maintype="text", subtype="calendar", filename="invite.ics")
    forwarded = EmailMessage()
    forwarded["From"] = "Ann Lee <ann@example.net>"
    forwarded["Subject"] = "Old quote"
    forwarded.set_content("The old price was £18.")
    message.add_attachment(forwarded)
    return message


def test_a_message_reads_its_headers_text_invitation_attachments_and_forward_as_a_mail_program_shows_them(
    tmp_path: Path,
) -> None:
    path = tmp_path / "quote.eml"
    path.write_bytes(quote().as_bytes(policy=policy.SMTP))
    doc = read(path)
    assert doc.title == "Flour prices – revised"
    assert [text for _, _, text in texts(doc)] == [
        "# Flour prices – revised",
        "From: Priya Shah <priya@example.org>",
        "To: Sam Okafor <sam@example.com>",
        "Date: Tue, 04 Mar 2025 09:12:00 +0000",
        "Attachments: prices.csv, invoice 12.pdf, invite.ics",
        "Hi Sam,",
        "The 16 kg sack is now £21.50 (was £19.80).",  # quoted-printable undone
        "Delivery moves to Thursdays.",
        "> can you do Fridays?",
        "Priya",
        "07700 900123",
        "Event: Tasting",
        "Starts: 2025-03-11 14:00 UTC",
        "Where: The shop, Bristol",
        "Bring the new rye",  # a folded line unfolded
        "## Attachment: prices.csv",
        "item,price",
        "flour,21.50",
        "## Old quote",
        "From: Ann Lee <ann@example.net>",
        "The old price was £18.",
    ]
    numbered = {text: line for _, line, text in texts(doc)}
    assert numbered["From: Priya Shah <priya@example.org>"] == 2
    assert numbered["Delivery moves to Thursdays."] == 8


def test_an_html_only_message_in_base64_latin_1_with_an_encoded_sender_reads_as_its_visible_text(
    tmp_path: Path,
) -> None:
    message = EmailMessage()
    message["From"] = "=?utf-8?q?Jos=C3=A9_Ruiz?= <jose@example.com>"
    message["Subject"] = "=?iso-8859-1?q?Men=FA?="
    message.set_content(
        "<h2>This week</h2><ul><li>Sourdough</li><li>Rye</li></ul><p>We bake at 5, café opens at 7.</p>"
        "<script>track()</script>",
        subtype="html",
        charset="iso-8859-1",
        cte="base64",
    )
    path = tmp_path / "menu.eml"
    path.write_bytes(message.as_bytes(policy=policy.SMTP))
    assert [text for _, _, text in texts(read(path))] == [
        "# Menú",
        "From: José Ruiz <jose@example.com>",
        "## This week",
        "- Sourdough",
        "- Rye",
        "We bake at 5, café opens at 7.",
    ]


def test_a_mailbox_reads_each_message_as_a_page_named_by_its_subject(tmp_path: Path) -> None:
    first = EmailMessage()
    first["From"], first["Subject"] = "ann@example.net", "Rent"
    first.set_content("The rent is due on the 1st.\nFrom now on, pay by transfer.\n")
    second = EmailMessage()
    second["From"], second["Subject"] = "bob@example.net", "Keys"
    second.set_content("Spare keys are with Frank at number 12.\n")
    folder = tmp_path / "Landlord.mbox"  # as Apple Mail exports a mailbox: a folder holding "mbox"
    folder.mkdir()
    for path in (tmp_path / "landlord.mbox", folder / "mbox"):
        box = mailbox.mbox(str(path))
        box.add(first)
        box.add(second)
        box.close()
        assert b"\n>From now on" in path.read_bytes()  # the mbox escaped the line; the reader undoes it
        doc = read(path)
        assert doc.page_names == ("Rent", "Keys")
        assert texts(doc) == [
            (1, 1, "# Rent"),
            (1, 2, "From: ann@example.net"),
            (1, 3, "The rent is due on the 1st."),
            (1, 4, "From now on, pay by transfer."),
            (2, 1, "# Keys"),
            (2, 2, "From: bob@example.net"),
            (2, 3, "Spare keys are with Frank at number 12."),
        ]
        assert page_label(str(path), 2) == "message 2"


def test_an_apple_mail_emlx_reads_the_message_its_length_counts(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"], message["Subject"] = "ann@example.net", "Parking"
    message.set_content("Park in bay 4.\n")
    raw = message.as_bytes()
    path = tmp_path / "12345.emlx"
    path.write_bytes(b"%d\n" % len(raw) + raw + b'<?xml version="1.0"?>\n<plist><dict></dict></plist>\n')
    shown = [text for _, _, text in texts(read(path))]
    assert shown == ["# Parking", "From: ann@example.net", "Park in bay 4."]


def test_a_broken_message_is_refused_or_read_as_far_as_it_goes(tmp_path: Path) -> None:
    path = tmp_path / "empty.eml"
    path.write_bytes(b"\n\njust text, no headers\n")
    with pytest.raises(ExtractError, match="not an e-mail message"):
        read(path)
    # an unknown charset reads as UTF-8; multiparts nested far deeper than mail programs write stop there
    nested = b"Content-Type: text/plain; charset=x-unknown-8\nSubject: odd\n\ncaf\xc3\xa9\n"
    path.write_bytes(nested)
    assert [text for _, _, text in texts(read(path))] == ["# odd", "café"]
    deep = "Subject: deep\nContent-Type: multipart/mixed; boundary=b0\n\n"
    for depth in range(1, 200):
        deep += f"--b{depth - 1}\nContent-Type: multipart/mixed; boundary=b{depth}\n\n"
    deep += "--b199\nContent-Type: text/plain\nContent-Disposition: attachment; filename=d.txt\n\ndown\n"
    path.write_text(deep, encoding="ascii")
    assert texts(read(path))[0][2] == "# deep"


def test_mail_is_read_by_its_reader_and_an_index_rereads_it_when_the_reader_changes() -> None:
    assert all(readers()[suffix] == MAIL_READER for suffix in [*MAIL_SUFFIXES, "mbox"])


def test_an_answer_from_a_mailbox_cites_its_message_and_the_preview_shows_that_line(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    box = mailbox.mbox(str(root / "suppliers.mbox"))
    first = EmailMessage()
    first["From"], first["Subject"] = "ann@example.net", "Eggs"
    first.set_content("Eggs arrive on Mondays from Hill Farm.\n")
    box.add(first)
    box.add(quote())
    box.close()
    index_with_notes(engine, root)
    answer = engine.ask("How much is the 16 kg sack of flour now?", "extractive")
    assert not answer.refused, answer.reason
    cited = answer.sentences[0].citations[0]
    assert (Path(cited.path).name, cited.page, cited.start_line) == ("suppliers.mbox", 2, 7)
    assert "£21.50" in answer.text
    doc = read_document(cited.path)
    assert doc.format == "email" and doc.page_names[1] == "Flour prices – revised"
    assert [line.text for line in doc.lines if (line.page, line.line) == (2, 7) and line.text] == [
        "The 16 kg sack is now £21.50 (was £19.80)."
    ]


def test_text_after_a_picture_placed_mid_message_and_undeclared_8_bit_text_are_read(tmp_path: Path) -> None:
    """Apple Mail and Outlook send a picture placed mid-message as HTML, the picture, then HTML again: the
    second part is the message's too. Older mail sends 8-bit text with no charset (or "us-ascii"): it is
    read as Windows-1252 where it is no UTF-8, not as replacement characters."""
    path = tmp_path / "mixed.eml"
    path.write_bytes(
        b"From: a@example.org\nSubject: mixed\nMIME-Version: 1.0\n"
        b'Content-Type: multipart/mixed; boundary="B"\n\n'
        b"--B\nContent-Type: text/html; charset=utf-8\n\n<p>Before the picture</p>\n"
        b"--B\nContent-Type: image/jpeg; name=p.jpg\nContent-Disposition: inline; filename=p.jpg\n\nAAAA\n"
        b"--B\nContent-Type: text/html; charset=utf-8\n\n"
        b"<p>After the picture: the decision is final.</p>\n--B--\n"
    )
    shown = [text for _, _, text in texts(read(path))]
    assert shown[-2:] == ["Before the picture", "After the picture: the decision is final."]
    path = tmp_path / "latin.eml"
    path.write_bytes(
        b"From: j@example.de\nSubject: hello\nContent-Type: text/plain\n\nSch\xf6ne Gr\xfc\xdfe\n"
    )
    assert [text for _, _, text in texts(read(path))][-1] == "Schöne Grüße"
