"""Saved e-mail: a message (.eml, Apple Mail's .emlx) and a mailbox (.mbox, or a file named "mbox", as
Apple Mail exports a mailbox into a folder "Name.mbox"), read with the standard library's e-mail parser.

A message reads as a person reads it in a mail program: its subject as a title, then its sender, its
recipients, its date and the names of its attachments, each a line ("From: Priya Shah
<priya@example.org>"), then its text. The text is the message's plain-text body, or its HTML body as the
visible text a browser shows (`extract._VisibleText`); quoted-printable, base64 and the charset are
undone as the message declares them. A calendar invitation's events read as their summary, start, end,
place and description; a message forwarded as an attachment follows, under its own subject; a text
attachment (a CSV, a note) follows under its name. Pictures and other binary attachments are named, not
read.

A mailbox's messages are its pages ("message 3", named by its subject), each cited at its own lines; a
lone message's lines are counted from its title.
"""

from __future__ import annotations

import email
import email.policy
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage, Message
from pathlib import Path, PurePath

from engine.errors import ExtractError
from engine.events import Document
from engine.ingest.office import MAX_NESTING, Writer

log = logging.getLogger(__name__)

MAIL_READER = "mail-3"  # a change to what this reader reads gets a new name (extract.readers)
MESSAGE_SUFFIXES = (".eml", ".emlx")
MAILBOX_SUFFIXES = (".mbox",)
MAILBOX_NAMES = ("mbox",)  # Apple Mail's export: "Inbox.mbox/mbox"
MAIL_SUFFIXES = (*MESSAGE_SUFFIXES, *MAILBOX_SUFFIXES)
MAX_FORWARDS = 8  # messages forwarded inside messages, read at most this deep
MAX_ATTACHED_TEXT = 1_000_000  # a text attachment's characters read at most

_HEADERS = ("From", "To", "Cc", "Date")
_SEPARATOR = re.compile(rb"^From [^\r\n]*\r?\n", re.MULTILINE)  # an mbox's line before each message
_ESCAPED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)  # a body line "From ..." an mbox escaped


def is_mailbox(path: str | PurePath) -> bool:
    """Whether `path` names a mailbox (a file of many messages) by its suffix or its name."""
    p = PurePath(path)
    return p.suffix.lower() in MAILBOX_SUFFIXES or p.name.lower() in MAILBOX_NAMES


def messages(data: bytes) -> Iterator[bytes]:
    """An mbox's messages, each without the "From " line before it: every line that starts so begins
    one (as Python's `mailbox` reads an mbox), the file's first line too. A file that does not start so
    is one message."""
    starts = list(_SEPARATOR.finditer(data))
    if not starts or starts[0].start() != 0:
        yield data
        return
    for this, after in zip(starts, [*starts[1:], None], strict=True):
        yield data[this.end() : after.start() if after is not None else len(data)]


def parse(data: bytes) -> EmailMessage:
    message = email.message_from_bytes(data, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
    except (ValueError, IndexError, TypeError, LookupError, AttributeError) as exc:  # one it cannot parse
        log.debug("header %s: %s", name, exc)
        value = next((raw for key, raw in message.raw_items() if key.lower() == name.lower()), "")
    return " ".join(str(value or "").split())


def _text(part: Message) -> str:
    """A text part's content, its transfer encoding and charset undone. Bytes in no charset, in US-ASCII
    (which 8-bit mail often claims) or in one they do not decode in are read as UTF-8 where they are, else
    as Windows-1252 (what older and Outlook mail sends undeclared); an unknown charset likewise."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        payload_text = part.get_payload()
        return payload_text if isinstance(payload_text, str) else ""
    declared = (part.get_content_charset() or "").lower()
    for charset in (declared, "utf-8", "cp1252"):
        if not charset or (charset in ("us-ascii", "ascii") and not payload.isascii()):
            continue
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("cp1252", errors="replace")


def _html_lines(html: str) -> list[str]:
    from engine.ingest.extract import _VisibleText

    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    return [line.text for line in parser.lines]


def _calendar_lines(text: str) -> list[str]:
    """A calendar invitation's events (iCalendar, RFC 5545), each as a person reads one: its summary,
    start, end, place and description (a time zone's own rules, which have start times too, are not
    events)."""
    unfolded = re.sub(r"\r?\n[ \t]", "", text)
    labels = {"SUMMARY": "Event", "DTSTART": "Starts", "DTEND": "Ends", "LOCATION": "Where"}
    labels["DESCRIPTION"] = ""  # said as it is
    out: list[str] = []
    event: dict[str, str] | None = None
    for line in unfolded.splitlines():
        key, _, value = line.partition(":")
        name = key.split(";", 1)[0].upper()
        value = value.replace("\\n", " ").replace("\\N", " ").replace("\\,", ",").replace("\\;", ";").strip()
        if name == "BEGIN" and value.upper() == "VEVENT":
            event = {}
        elif name == "END" and value.upper() == "VEVENT" and event is not None:
            out.append("")
            for field, label in labels.items():
                if said := event.get(field):
                    out.append(f"{label}: {said}" if label else said)
            event = None
        elif event is not None and name in labels and value:
            event[name] = _ics_time(value) if name.startswith("DT") else value
    return out


def _ics_time(value: str) -> str:
    """An iCalendar date or time as a person writes it: 20250304T100000Z -> 2025-03-04 10:00 UTC."""
    m = re.fullmatch(r"\s*(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})\d{2}(Z?))?\s*", value)
    if not m:
        return value.strip()
    year, month, day, hour, minute, utc = m.groups()
    when = f"{year}-{month}-{day}"
    return f"{when} {hour}:{minute}{' UTC' if utc else ''}" if hour else when


@dataclass
class _Parts:
    body: list[str]
    attached: list[tuple[str, list[str]]]  # a text attachment's name and its lines
    forwarded: list[EmailMessage]
    names: list[str]  # every attachment's file name


def _walk(part: Message, within: str = "", depth: int = 0) -> Iterator[tuple[Message, str]]:
    """Every part of a message and the type of the multipart it sits in, not descending into a message
    it forwards (that is a message of its own) nor past MAX_NESTING multiparts."""
    yield part, within
    kind = part.get_content_type()
    if kind == "message/rfc822" or not part.is_multipart() or depth >= MAX_NESTING:
        return
    payload = part.get_payload()
    for sub in payload if isinstance(payload, list) else []:
        if isinstance(sub, Message):
            yield from _walk(sub, kind, depth + 1)


def _parts(message: EmailMessage) -> _Parts:
    """What a message shows: its body (plain text preferred to HTML, as a mail program shows it where
    it may choose), calendar events, text attachments, forwarded messages and attachments' names."""
    found = _Parts([], [], [], [])
    try:
        body = message.get_body(preferencelist=("plain", "html"))
    except (KeyError, ValueError, AttributeError):
        body = None
    if body is not None:
        text = _text(body)
        found.body = _html_lines(text) if body.get_content_type() == "text/html" else text.splitlines()
    for part, within in _walk(message):
        kind = part.get_content_type()
        name = part.get_filename()
        if part is body or (part.is_multipart() and kind != "message/rfc822"):
            continue
        if not name and kind in ("text/plain", "text/html") and within != "multipart/alternative":
            # a second text shown inline, after the first (the text after a picture placed mid-message)
            text = _text(part)
            found.body += ["", *(_html_lines(text) if kind == "text/html" else text.splitlines())]
            continue
        if kind == "message/rfc822":
            inner = part.get_payload()
            inner = inner[0] if isinstance(inner, list) and inner else inner
            if isinstance(inner, EmailMessage):
                found.forwarded.append(inner)
            continue
        if name:
            found.names.append(" ".join(name.split()))
        if kind == "text/calendar":
            found.body += _calendar_lines(_text(part))
        elif name and kind.startswith("text/") and kind != "text/html":
            found.attached.append((found.names[-1], _text(part)[:MAX_ATTACHED_TEXT].splitlines()))
    return found


def write_message(message: EmailMessage, writer: Writer, level: int = 1, depth: int = 0) -> str:
    """Write one message: its subject as a title of `level`, its headers, its text; the subject."""
    subject = _header(message, "Subject")
    writer.block(subject or "(no subject)", level)
    for name in _HEADERS:
        if value := _header(message, name):
            writer.block(f"{name}: {value}")
    parts = _parts(message)
    if parts.names:
        writer.block(f"Attachments: {', '.join(parts.names)}")
    writer.plain(parts.body)
    for name, lines in parts.attached:
        writer.block(f"Attachment: {name}", min(level + 1, 6))
        writer.plain(lines)
    if depth < MAX_FORWARDS:
        for inner in parts.forwarded:
            write_message(inner, writer, min(level + 1, 6), depth + 1)
    return subject


@dataclass(frozen=True)
class MailExtractor:
    """A saved message or a mailbox, as a mail program shows it (module doc)."""

    kind: str = "mail"

    def extract(self, path: Path, data: bytes) -> Document:
        writer = Writer()
        if path.suffix.lower() == ".emlx":  # Apple Mail: the message's length, the message, a property list
            head = re.match(rb"\s*(\d+)\s*\r?\n", data)
            data = data[head.end() : head.end() + int(head.group(1))] if head else data
        if not is_mailbox(path):
            message = parse(data)
            if not message.keys():
                raise ExtractError(f"{path.name} is not an e-mail message (it has no headers)", "")
            subject = write_message(message, writer)
            return writer.document(subject, kind="markdown")
        subjects: list[str] = []
        for number, raw in enumerate(messages(data), 1):
            writer.new_page(number)
            subjects.append(write_message(parse(_ESCAPED_FROM.sub(rb"\1", raw)), writer))
        if not subjects:
            raise ExtractError(f"{path.name} holds no messages", "")
        document = writer.document(path.stem if path.suffix else path.parent.stem, kind="markdown")
        return Document(document.lines, document.kind, document.title, page_names=tuple(subjects))
