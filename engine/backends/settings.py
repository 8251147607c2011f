"""A configuration file's settings, each read where it sits: YAML (Kubernetes manifests, Helm values, CI
workflows, Ansible), TOML, INI, Terraform and HCL, nginx-style blocks, Java properties, JSON (package.json,
tsconfig, linters' and tools' rc files; comments allowed).

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
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from engine.events import Hit
from engine.text import MIN_QUOTE_CHARS

SHOWN_KEYS = 3
YAML_SUFFIXES = frozenset((".yaml", ".yml"))  # YAML has no sections
CONFIG_SUFFIXES = frozenset(".yaml .yml .toml .ini .cfg .conf .properties .tf .tfvars .hcl .crontab".split())
JSON_SUFFIXES = frozenset((".json", ".jsonc", ".json5"))  # settings where a passage is JSON's own text
ARRAY_LINES = 12  # a list over at most this many lines, holding no mapping, is one setting ("lib": [...])
CONFIG_COMMENT = re.compile(r"[ \t]*(?:#|;|//)")  # a comment's line, in every format read here
_SECTION = re.compile(r"\s*\[\[?\s*([^\]\n]+?)\s*\]\]?\s*(?:[#;].*)?$")  # [api], [[servers]], [bastion:vars]
_KEY_ONLY = re.compile(r"\s*(?:-\s+)?([^\s:#][^:#]*?):\s*(?:#.*)?$")  # a YAML key that opens a mapping
_OPENS = re.compile(r"(.*?)\s*\{\s*(?:#.*)?$")  # a block: `resource "x" "y" {`, `location /a/ {`, `{`
_BLOCK_SCALAR = re.compile(r"\s*(?:-\s+)?([^\s:#][^:#]*?):\s*([|>])[-+0-9]*\s*(?:#.*)?$")  # key: |
# a line that states a value: a key and a value ("memory: 1536Mi", "rate = 5"), or words and a value as a
# directive writes them ("client_max_body_size 25m;", a crontab's "15 2 * * * backup.sh")
_STATES = re.compile(r"\w.*?(?:[:=]|\s)\s*\S")
_JSON_PAIR = re.compile(r'"(?:[^"\\]|\\.)*"\s*:\s*\S')  # "@/*": ["./src/*"]: a JSON key and its value
_ARRAY_OPENS = re.compile(r"(.*?)\s*[:=]\s*\[\s*(?:(?:#|//).*)?$")  # a list over lines: `"lib": [`
_QUOTED = re.compile(r'"([^"]*)"')  # a JSON key, shown without its quotes
# a program's constant assigned a literal mapping or list over lines: `export const PLAN_LIMITS = {`,
# `DEFAULTS: dict[str, int] = {`; not a function's body (`= () => {`)
_LITERAL = re.compile(
    r"^[ \t]*(?:export[ \t]+)?(?:(?:const|let|var|static|final|public|private|protected|readonly|pub)[ \t]+)*"
    r"([A-Za-z_$][\w$.]*)[ \t]*(?::[^=\n]+)?=[ \t]*[{\[][ \t]*$",
    re.MULTILINE,
)
LITERAL_LINES = 80  # the most lines of a literal read as settings
# a literal holding code, not data: a function or method, a comprehension, a statement
_CODE_INSIDE = re.compile(
    r"=>|\bfunction\b|\)\s*\{|\bfor\b.*\bin\b|\blambda\b|\bdef\b|\breturn\b|\bawait\b|;\s*$"
)
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`[^`]*`|(?:#|//).*$')


@dataclass(frozen=True)
class Setting:
    start: int  # where its quote starts: the comment just above it, else its line (indentation left out)
    line: int  # where its line starts
    end: int  # where its line ends, trailing space left out
    keys: tuple[str, ...]  # the section, blocks and keys it sits under, outermost first
    note: str  # the comment just above it, its markers dropped
    above: str  # the comments above the blocks and keys it sits under
    prose: bool = False  # a YAML folded scalar's text (`description: >`), shown as the sentences it is


def settings(text: str, sections: bool = True) -> list[Setting]:
    """Each setting of a configuration passage, in order: every line that states a value (a key and a
    value, or a directive and its arguments), not a comment, a blank, a block's or section's opening or
    closing, nor a line of a YAML folded scalar's prose (`key: >`, read as sentences). `sections`: the
    format has INI's and TOML's sections (`[api]`, `[testenv:lint]`); YAML's has none. A quote shorter
    than the citation contract can place (MIN_QUOTE_CHARS: "cpu: 2") starts at the line above it."""
    found: list[Setting] = []
    section = ""
    blocks: list[tuple[str, str, str]] = []  # the { } and [ ] blocks it is in: name, comment, bracket
    nested: list[tuple[int, str, str]] = []  # YAML: the keys above it, with their indentation and comment
    note: list[str] = []
    noted = -1  # where the comment in `note` starts
    scalar: tuple[int, bool] | None = None  # a YAML block scalar's key's indentation; whether folded
    previous = -1  # where the last line with text starts
    lines = text.split("\n")
    at, skip = 0, 0
    for n, line in enumerate(lines):
        start, stripped = at, line.strip()
        at += len(line) + 1
        if n < skip:  # a line of a list read whole with its key
            continue
        if not stripped:
            note = []  # a comment a blank line parts from a setting is not about it
            continue
        indent = len(line) - len(line.lstrip())
        last, previous = previous, start + indent
        if scalar is not None and indent > scalar[0]:
            if scalar[1]:  # a folded scalar's prose, one quote with the lines before it of the scalar
                lo = start + indent
                if nested and found and found[-1].prose and found[-1].keys[-1:] == (nested[-1][1],):
                    lo = found.pop().start
                keys = tuple(k for k in (section, *(k for _, k, _ in nested)) if k)
                found.append(Setting(lo, start + indent, start + len(line.rstrip()), keys, "", "", True))
                continue
        else:
            scalar = None
            if CONFIG_COMMENT.match(line):
                if not note:
                    noted = start + indent
                note.append(CONFIG_COMMENT.sub("", line, count=1).strip())
                continue
            if sections and (section_match := _SECTION.match(line)) and not blocks:
                section, nested, note = section_match.group(1), [], []
                continue
            if stripped.startswith(("}", "]", ")")):  # a block's end; `} else {` ends one and opens one
                if blocks and stripped[0] == blocks[-1][2]:
                    blocks.pop()
                if stripped.endswith("{"):
                    blocks.append((" ".join(stripped.strip("{}, ").split()), "", "}"))
                note = []
                continue
            if opens := _OPENS.match(line):  # a block, named or not (a lone "{" closes as any does)
                blocks.append((_name(opens.group(1)), " ".join(note), "}"))
                note = []
                continue
            if (array := _ARRAY_OPENS.match(line)) and not CONFIG_COMMENT.match(line):
                while nested and nested[-1][0] >= indent:
                    nested.pop()
                close = _list_end(lines, n)
                if close is None:  # a long list, or one of mappings: a block its items sit in
                    blocks.append((_name(array.group(1)), " ".join(note), "]"))
                    note = []
                    continue
                skip = close + 1
                keys = _keys(section, blocks, nested)
                above = _above(blocks, nested)
                lo = start + indent
                end = sum(len(x) + 1 for x in lines[:close]) + len(lines[close].rstrip())
                found.append(Setting(noted if note else lo, lo, end, keys, " ".join(note), above))
                _name_item(blocks, text[lo:end])
                note = []
                continue
            while nested and nested[-1][0] >= indent:
                nested.pop()
            item = stripped.startswith("- ")  # a list's item: the keys after it, indented past its dash
            if not blocks and ((key := _KEY_ONLY.match(line)) or (key := _BLOCK_SCALAR.match(line))):
                nested.append((indent + item, key.group(1).strip(), " ".join(note)))
                if key.re is _BLOCK_SCALAR:
                    scalar = (indent, key.group(2) == ">")
                note = []
                continue
        if not _STATES.search(stripped) and not _JSON_PAIR.match(stripped):
            note = []
            continue  # no value stated: "---", a heredoc's "EOF", a template's "{{- end }}"
        keys = _keys(section, blocks, nested)
        above = _above(blocks, nested)
        lo = start + indent
        said = " ".join(note)
        opening = noted if note else lo if len(stripped) >= MIN_QUOTE_CHARS or last < 0 else last
        found.append(Setting(opening, lo, lo + len(stripped), keys, said, above))
        _name_item(blocks, stripped)
        note = []
        _close_after(blocks, stripped)
        if scalar is None and item and ":" in stripped and not blocks:  # named by its first setting
            named = re.sub(r"\s+#.*$", "", stripped[2:])  # ("- alert: JobDeadLetters"), its comment aside
            nested.append((indent + 1, " ".join(named.split()), ""))
    return found


def literals(text: str) -> list[Setting]:
    """The settings a program's source states as data: each entry of a constant's literal mapping or list
    (`export const PLAN_LIMITS = {` ... `STARTER: { staffSeats: 3, ... },`), read as a configuration's
    settings are, under the constant's name and the keys it nests in. A business rule or a table of
    limits is written so in code, and read as one statement it could not be told from its neighbours."""
    found: list[Setting] = []
    for at, end, name in literal_blocks(text):
        for setting in settings(text[at:end], sections=False):
            keys = (name, *setting.keys[1:]) if setting.keys else (name,)
            found.append(
                replace(
                    setting, start=setting.start + at, line=setting.line + at, end=setting.end + at, keys=keys
                )
            )
    return found


def literal_blocks(text: str) -> list[tuple[int, int, str]]:
    """(start, end, the constant's name) of each literal mapping or list a program's source assigns a
    constant, from its opening line to the line its brackets close on (`literals`)."""
    found: list[tuple[int, int, str]] = []
    for opener in _LITERAL.finditer(text):
        if found and opener.start() < found[-1][1]:
            continue  # inside a literal read already
        end = _literal_end(text, opener.start() + len(opener.group(0).rstrip()) - 1)
        body = text[opener.end() : end]
        lines = [line for line in body.split("\n") if not line.strip().startswith(("}", "]", ")"))]
        if any(_CODE_INSIDE.search(_STRING_OR_COMMENT.sub("", line)) for line in lines):
            continue  # code, not data
        found.append((opener.start(), end, opener.group(1)))
    return found


def _literal_end(text: str, bracket: int) -> int:
    """Where the literal opening at `bracket` closes: the end of the line its brackets balance on (those in
    strings and comments not counted), within LITERAL_LINES; else before the first line indented no
    deeper than its opening line that closes nothing (the code after it), or where the passage or that
    many lines end."""
    first = text.rfind("\n", 0, bracket) + 1
    indent = len(text[first:bracket]) - len(text[first:bracket].lstrip())
    depth, at = 0, bracket
    for n in range(LITERAL_LINES):
        eol = text.find("\n", at)
        end = len(text) if eol < 0 else eol
        line = text[at:end]
        if n and line.strip() and len(line) - len(line.lstrip()) <= indent and line.strip()[0] not in "}])":
            return at - 1  # dedented past it without closing: read no further
        bare = _STRING_OR_COMMENT.sub("", line)
        depth += sum(bare.count(c) for c in "{[(") - sum(bare.count(c) for c in "}])")
        if depth <= 0 or eol < 0:
            return end
        at = end + 1
    return at - 1


def _keys(
    section: str, blocks: list[tuple[str, str, str]], nested: list[tuple[int, str, str]]
) -> tuple[str, ...]:
    """The section, blocks and keys a setting sits under, outermost first (unnamed blocks left out)."""
    return tuple(k for k in (section, *(b for b, _, _ in blocks), *(k for _, k, _ in nested)) if k)


def _above(blocks: list[tuple[str, str, str]], nested: list[tuple[int, str, str]]) -> str:
    """The comments above the blocks and keys a setting sits under, outermost first."""
    return " ".join(n for n in (*(n for _, n, _ in blocks), *(n for _, _, n in nested)) if n)


def _unquoted(line: str) -> str:
    """A setting's line with its JSON key unquoted (`"target": "ES2017"` is target: "ES2017")."""
    return _QUOTED.sub(r"\1", line, count=1) if line.startswith('"') else line


def _name(opener: str) -> str:
    """A block's name as its opening line writes it, without the `=` or `:` before the bracket, and a JSON
    key without its quotes (`"compilerOptions"` is compilerOptions)."""
    name = " ".join(opener.split()).rstrip(" =:")
    quoted = _QUOTED.fullmatch(name)
    return quoted.group(1) if quoted else name


def _close_after(blocks: list[tuple[str, str, str]], line: str) -> None:
    """The blocks a setting's line closes after its value (`"c": 2 },`, `"z"],`): brackets it closes
    beyond those it opens, outside its strings, each ending the innermost block of its kind."""
    bare = _STRING_OR_COMMENT.sub("", line)
    for closer, opener in (("}", "{"), ("]", "[")):
        extra = bare.count(closer) - bare.count(opener)
        while extra > 0 and blocks and blocks[-1][2] == closer:
            blocks.pop()
            extra -= 1


def _name_item(blocks: list[tuple[str, str, str]], first: str) -> None:
    """A mapping in a list with no name of its own (JSON's `[{"files": [...], "rules": {...}}]`) named by
    its first setting, as a YAML list's item is: what the settings after it apply to."""
    if len(blocks) > 1 and blocks[-1][0] == "" and blocks[-1][2] == "}" and blocks[-2][2] == "]":
        line = " ".join(first.split()).removesuffix(",")
        blocks[-1] = (_unquoted(line), *blocks[-1][1:])


def _list_end(lines: list[str], first: int) -> int | None:
    """The line that closes the list `lines[first]` opens, where it closes within ARRAY_LINES and holds
    no mapping (`{`) or list of lists: read as one setting, its key with its items. None otherwise."""
    depth = 0
    for n in range(first, min(len(lines), first + ARRAY_LINES)):
        line = lines[n] if n > first else lines[n][lines[n].index("[") :]
        if n > first and ("{" in line or "[" in line):
            return None
        depth += line.count("[") - line.count("]")
        if depth <= 0:
            return n
    return None


def structure(line: str) -> bool:
    """Whether a line of a configuration only structures it: a key over a mapping or a block scalar
    ("info:", "description: >"), a document marker ("---"), a bracket."""
    return bool(_KEY_ONLY.match(line) or _BLOCK_SCALAR.match(line) or not _STATES.search(line.strip()))


def shown(setting: Setting, text: str) -> str:
    """A setting as the answer shows it: under its keys ("resources > limits > memory: 1536Mi"), the
    innermost SHOWN_KEYS of them (all are read with it: `context`), with the comment above it after it
    ("  # 4 gunicorn workers + headroom"): the comment says what the value is for, the value what the
    comment is about, so they are quoted together."""
    if setting.prose:
        return " ".join(text[setting.start : setting.end].split())
    line = " ".join(text[setting.line : setting.end].split()).removesuffix(",")
    line = line[2:] if line.startswith("- ") else line
    line = _unquoted(line)
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


def quoted(quote: str, hit: Hit, found: Sequence[Setting]) -> tuple[str, Setting] | None:
    """Which of a configuration passage's settings (`found`) a quote is, with its `context`; None for a
    quote that is none (a comment's sentence)."""
    said = " ".join(quote.split())
    for setting in found:
        if " ".join(hit.text[setting.start : setting.end].split()) == said:
            return context(setting, hit), setting
    return None
