"""A configuration file's settings, each read where it sits: YAML (Kubernetes manifests, Helm values, CI
workflows, Ansible), TOML, INI, Terraform and HCL, nginx-style blocks, Java properties.

A setting's line says its value and little else ("memory: 1536Mi"): what it is the value of is written
around it, in the keys it is nested under (`resources` > `limits`), the section or block it sits in
(`[api]`, `resource "aws_db_instance" "main" {`, `location /exports/ {`), the comment above it ("# 4
gunicorn workers + headroom for the xlsx import path") and the file's own name and folders
(`helm/api/values-prod.yaml`: the api, in production). The sentence splitter read a block of settings as
one run-on sentence ("resources: requests: cpu: 500m memory: 1Gi limits: ..."), which a question about
one of them could not be told from its neighbours by, and the file's name nowhere. Here each setting is a
quote of its own, its line verbatim, shown under its keys and ranked with what it sits under. A comment's
lines are no setting: the generator reads them as sentences, as it reads any code comment."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from engine.events import Hit

SHOWN_KEYS = 3
CONFIG_SUFFIXES = frozenset(".yaml .yml .toml .ini .cfg .conf .properties .tf .tfvars .hcl .crontab".split())
CONFIG_COMMENT = re.compile(r"[ \t]*(?:#|;|//)")  # a comment's line, in every format read here
_SECTION = re.compile(r"\s*\[\[?\s*([^\]\n]+?)\s*\]\]?\s*(?:[#;].*)?$")  # [api], [[servers]], [bastion:vars]
_KEY_ONLY = re.compile(r"\s*(?:-\s+)?([^\s:#][^:#]*?):\s*(?:#.*)?$")  # a YAML key that opens a mapping
_OPENS = re.compile(r"(.*?)\s*\{\s*(?:#.*)?$")  # a block: `resource "x" "y" {`, `location /a/ {`
_CLOSES = re.compile(r"\s*[}\]]+[,;]?\s*(?:#.*)?$")


@dataclass(frozen=True)
class Setting:
    start: int  # where its quote starts: the comment just above it, else its line (indentation left out)
    line: int  # where its line starts
    end: int  # where its line ends, trailing space left out
    keys: tuple[str, ...]  # the section, blocks and keys it sits under, outermost first
    note: str  # the comment just above it, its markers dropped
    above: str  # the comments above the blocks and keys it sits under


def settings(text: str) -> list[Setting]:
    """Each setting of a configuration passage, in order: every line that is no comment, no blank, no
    block's or section's opening or closing."""
    found: list[Setting] = []
    section = ""
    blocks: list[tuple[str, str]] = []  # the { } blocks it is in, each with the comment above it
    nested: list[tuple[int, str, str]] = []  # YAML: the keys above it, with their indentation and comment
    note: list[str] = []
    noted = -1  # where the comment in `note` starts
    at = 0
    for line in text.split("\n"):
        start, stripped = at, line.strip()
        at += len(line) + 1
        if not stripped:
            note = []  # a comment a blank line parts from a setting is not about it
            continue
        if CONFIG_COMMENT.match(line):
            if not note:
                noted = start + len(line) - len(line.lstrip())
            note.append(CONFIG_COMMENT.sub("", line, count=1).strip())
            continue
        indent = len(line) - len(line.lstrip())
        if (section_match := _SECTION.match(line)) and not blocks and ":" not in stripped:
            section, nested, note = section_match.group(1), [], []
            continue
        if _CLOSES.match(line):
            if blocks and "}" in stripped:
                blocks.pop()
            note = []
            continue
        if (opens := _OPENS.match(line)) and opens.group(1):
            blocks.append((" ".join(opens.group(1).split()), " ".join(note)))
            note = []
            continue
        while nested and nested[-1][0] >= indent:
            nested.pop()
        item = stripped.startswith("- ")  # a list's item: the keys after it, indented past its dash, are its
        if (key := _KEY_ONLY.match(line)) and not blocks:
            nested.append((indent + item, key.group(1).strip(), " ".join(note)))
            note = []
            continue
        keys = tuple(k for k in (section, *(b for b, _ in blocks), *(k for _, k, _ in nested)) if k)
        above = " ".join(n for n in (*(n for _, n in blocks), *(n for _, _, n in nested)) if n)
        lo = start + indent
        said = " ".join(note)
        found.append(Setting(noted if note else lo, lo, lo + len(stripped), keys, said, above))
        note = []
        if item and ":" in stripped and not blocks:  # named by its first setting ("- alert: JobDeadLetters")
            nested.append((indent + 1, " ".join(stripped[2:].split()), ""))
    return found


def shown(setting: Setting, text: str) -> str:
    """A setting as the answer shows it: under its keys ("resources > limits > memory: 1536Mi"), the
    innermost SHOWN_KEYS of them (all are read with it: `context`), with the comment above it after it
    ("  # 4 gunicorn workers + headroom"): the comment says what the value is for, the value what the
    comment is about, so they are quoted together."""
    line = " ".join(text[setting.line : setting.end].split())
    line = line[2:] if line.startswith("- ") else line
    shown = " > ".join([*setting.keys[-SHOWN_KEYS:], line])
    return f"{shown}  # {setting.note}" if setting.note else shown


def place(hit: Hit) -> str:
    """The file's name and the two folders above it, as words ("helm api values prod"): in a
    configuration the file says what its settings are for (which service, which environment)."""
    parts = PurePosixPath(hit.path.replace("\\", "/")).parts[-3:]
    return " ".join(re.sub(r"[_\-./]+", " ", " ".join(parts)).split())


def context(setting: Setting, hit: Hit) -> str:
    """What a setting sits under, read with it to rank and judge it: the file's place, its keys and the
    comments above them."""
    return " ".join(part for part in (place(hit), " ".join(setting.keys), setting.above) if part)


def is_config(hit: Hit) -> bool:
    return PurePosixPath(hit.path.replace("\\", "/")).suffix.lower() in CONFIG_SUFFIXES


def quoted(quote: str, hit: Hit) -> tuple[str, Setting] | None:
    """The setting a quote of a configuration's passage is, with its `context`; None for a quote that is
    none (a comment's sentence)."""
    said = " ".join(quote.split())
    for setting in settings(hit.text):
        if " ".join(hit.text[setting.start : setting.end].split()) == said:
            return context(setting, hit), setting
    return None
