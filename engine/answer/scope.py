"""Questions that ask for a policy, a process or a strategy on a topic no document is about.

"What is the company's policy on bringing pets to the office?" asks for a body of rules: a document, or a
section of one, about pets. When the folders hold none, and an office guide only says in one bullet of
its "Building access" section that pets stay outside, quoting that bullet presents a passing mention as
the policy. So before any model runs, a question that
asks for a policy, process, procedure, strategy or guidelines *on a topic* is checked against the titles
of its evidence files: their file names, their heading paths, and the lines that read as titles (Markdown
headings, short lines standing alone as PDF and text headings do, bold or "Label:" leads). When those
titles name less than TITLE_SHARE of the topic's IDF weight, and no evidence file names the topic in
MENTION_SENTENCES sentences or more (a section about it under another title, "## Performance" on
caching, names it again and again; a passing mention once or twice), the answer is the refusal, and the
reason names the line of the evidence that mentions the topic most.

The topic is the phrase the kind word governs: the words before it back to a determiner or a possessive
("the company's parental leave policy"), else the phrase after it, "on/about X" before "for/to X" before
"of X", up to the next preposition ("pets" in the question above, "emergency deploys" in "the process
for emergency deploys during code freeze"). Qualifiers and owners are not the topic ("current",
"complete", "using", "company": NOT_TOPIC). "Backup and disaster recovery strategy" has two topics;
titles naming either one are enough. A title names a word by its stem, by its root (the stem without
an ending the light stemmer keeps on one form and not another: "caching" / "Cache", "rotating" / "Key
rotation", "security" / "Secure"), by a stem one is a prefix of ("expenses" / "Expense Policy") or by
initials ("PTO" / "Paid Time Off", either way round). Only questions
are read (a "?" or a question word), and "process" only as a noun ("how does the worker process jobs"
asks for none): a claim or a keyword query naming a policy asks for nothing.

Measured by `citeline eval DATASET --calibrate-gate` ("topic_share", "topic_sentences"); the figures
per labelled set are in the README ("Refusal rules"). Known limits: the lines rest on few questions of
this kind (about ten in the labelled sets); a synonym is not a title ("time
off" is not named by "Leave"); a folder whose files carry no titles at all (chat exports, notes named by
date) cannot answer such a question, and the refusal points at the mention instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from engine.answer.gate import DocFreq, idf
from engine.answer.missing import LIST_ITEM, name_terms, name_words, split_camel
from engine.events import Hit
from engine.text import content_terms, normalize, split_sentences, words

TITLE_SHARE = 0.25
MENTION_SENTENCES = 3  # a file that names the topic in this many sentences discusses it, titled or not
TITLE_WORDS = 8  # a line standing alone with at most this many words and no final stop reads as a title
TITLE_CHUNKS = 400  # title lines are read from a file's first chunks (its heading paths from all of them)
LABEL_WORDS = 4  # "Personal devices: ..." — a lead label of at most this many words
STEM_SLACK = 4  # "expens" names "expense", "promot" names "promotion": a prefix of 5+ letters, 4 at most left
# Endings the light stemmer leaves on one form of a word and not on another: "cach(ing)" / "cache",
# "rotat(ing)" / "rot(ation)", "secur(ity)" / "secure". Titles are compared without them.
ROOT_ENDINGS = ("ity", "ion", "at", "e")
KIND = re.compile(r"\b(?:polic(?:y|ies)|process(?:es)?|procedures?|strateg(?:y|ies)|guidelines?)\b", re.I)
PREP = (
    "on|about|regarding|concerning|around|for|to|towards|of|at|in|during|with|when|while|from|by|within|"
    "under|after|before|if|across|between|into"
)
# "policy on X" names its topic; "policy for X", "to X" most often do ("the process for deploying code");
# "of X" is mostly its owner ("the policy of the company"); "in Europe", "during a freeze" only qualify.
TOPIC_PREPS = {"on": 0, "about": 0, "regarding": 0, "concerning": 0, "around": 0, "for": 1, "to": 1, "of": 2}
GOVERNED = re.compile(rf"\s+({PREP})\s+(.+?)(?=\s+(?:{PREP})\s|[?.;:!]|$)", re.I)
# After "process" as a noun comes the end, a preposition, a conjunction or a verb ("the review process
# works"); after the verb comes its object ("the worker processes jobs", "to process a refund").
NOUN_NEXT = re.compile(
    rf"\s*(?:[?.;:!,)]|$)|\s+(?:{PREP}|and|or|is|are|was|were|be|been|has|have|had|do|does|did|should|would|"
    r"will|can|could|must|may|work|works|look|looks|say|says|cover|covers|apply|applies|require|requires|"
    r"involve|involves|mean|means|need|needs|change|changed|changes|differ|differs)\b",
    re.I,
)
DETERMINERS = {"the", "a", "an", "our", "your", "my", "its", "their", "this", "that", "these", "those"}
# Words that qualify the policy or name its owner, not its topic: "the current database migration
# strategy" is about database migration; "the policy on using shared printers" about shared printers.
NOT_TOPIC = {
    "current", "complete", "full", "overall", "general", "official", "latest", "existing", "standard", "new",
    "whole", "entire", "exact", "actual", "main", "usual", "normal", "right", "best", "recommended",
    "using", "use", "follow", "following", "get", "getting", "do", "doing", "make", "making", "handle",
    "handling", "company", "companies", "organization", "organisation",
}  # fmt: skip
QUESTION = re.compile(
    r"^\s*(?:what|which|how|where|who|when|why|is|are|do|does|did|can|could|should)\b", re.I
)
BOLD_LEAD = re.compile(r"\s*(?:\*\*|__)(.+?)(?:\*\*|__)")
LABEL_LEAD = re.compile(r"[ \t]{0,8}([^:.!?|]+):(?:\s|$)")

Titles = Callable[[str], str]  # path -> the text of its titles (heading paths and title lines)


@dataclass(frozen=True)
class Untitled:
    topic: str  # the topic as the question words it, e.g. "shared printers"
    kind: str  # "policy", "process", ...
    share: float  # of the topic's IDF weight that the evidence titles name
    sentences: int  # the most sentences one evidence file names the topic in
    mention: str  # "security_policy.md:33", or "" when no evidence line names the topic

    @property
    def reason(self) -> str:
        why = f"the question asks for a {self.kind}, and no document or section in the evidence is about "
        why += f"“{self.topic}”"
        return why + (f"; {self.mention} only mentions it" if self.mention else "")


def _clauses(question: str) -> Iterator[str]:
    """The sentences of the question that ask something."""
    for clause in re.split(r"(?<=[?.!])\s+", question.strip()):
        if clause.rstrip().endswith("?") or QUESTION.match(clause):
            yield clause


def _determines(token: str) -> bool:
    """A determiner, a possessive ("the company's") or a question word: where a topic phrase starts."""
    word = token.lower().strip("\"'()[],")
    return word in DETERMINERS or word.endswith(("'s", "’s")) or QUESTION.match(word) is not None


def _phrase(clause: str, kind: re.Match[str]) -> str:
    """The topic phrase of the kind word at `kind`: the words before it back to a determiner ("the parental
    leave policy"), else the best-placed phrase of the prepositions that follow it ("the policy on X")."""
    before = clause[: kind.start()].split()
    start = len(before)
    while start and not _determines(before[start - 1]):
        start -= 1
    if any(content_terms(w) and not _qualifies(w) for w in before[start:]):
        return " ".join(before[start:])
    after, rest = [], clause[kind.end() :]
    while (governed := GOVERNED.match(rest)) is not None:
        after.append((TOPIC_PREPS.get(governed.group(1).lower(), 9), governed.group(2)))
        rest = rest[governed.end() :]
    ranked = sorted((rank, i, text) for i, (rank, text) in enumerate(after) if rank < 9)
    return ranked[0][2] if ranked else ""


def _qualifies(word: str) -> bool:
    return all(t in NOT_TOPIC for t in words(word))


def topics(question: str) -> list[tuple[str, str]]:
    """(kind word, topic phrase) for each policy/process/strategy the question asks for ("X and Y": two)."""
    found: list[tuple[str, str]] = []
    for clause in _clauses(question):
        for match in KIND.finditer(clause):
            if match.group(0).lower().startswith("process") and not NOUN_NEXT.match(clause[match.end() :]):
                continue  # the verb: "how does the worker process jobs"
            for part in re.split(r",|\band\b|\bor\b|&", _phrase(clause, match)):
                kept = [w for w in part.split() if not KIND.fullmatch(w) and not _qualifies(w)]
                if content_terms(" ".join(kept)):
                    found.append((match.group(0).lower(), " ".join(kept)))
    return found


def title_lines(text: str) -> Iterator[str]:
    """The lines of `text` that read as titles: Markdown headings, short lines standing alone with no final
    stop (headings of PDF and plain-text pages), and bold or "Label:" leads of a line or list item."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or "|" in stripped:
            continue
        if stripped.startswith("#"):
            yield stripped.lstrip("#")
            continue
        item = LIST_ITEM.match(line)
        body = line[item.end() :] if item else line
        lead = BOLD_LEAD.match(body) or LABEL_LEAD.match(body)
        if lead and len(words(lead.group(1))) <= LABEL_WORDS:
            yield lead.group(1)
            continue
        alone = (i == 0 or not lines[i - 1].strip()) and (i + 1 == len(lines) or not lines[i + 1].strip())
        short = len(words(stripped)) <= TITLE_WORDS and not stripped.endswith((".", ",", ";"))
        if alone and short and not item:
            yield stripped


def _share(terms: dict[str, float], got: set[str]) -> float:
    """The share of the topic's IDF weight that the terms in `got` carry."""
    return sum(w for t, w in terms.items() if t in got) / (sum(terms.values()) or 1.0)


def _named_weight(terms: dict[str, float], text: str) -> float:
    """The share of the topic's IDF weight that `text` names."""
    have = set(content_terms(text))
    return _share(terms, {t for t in terms if _names(t, have)})


def _mention(terms: dict[str, float], hits: Sequence[Hit]) -> str:
    """file:line of the evidence line naming the most of the topic's weight (at least half), or ""."""
    best, where = 0.0, ""
    for hit in hits:
        for offset, line in enumerate(hit.text.split("\n")):
            if (got := _named_weight(terms, line)) >= 0.5 and got > best:
                best, where = got, f"{PurePath(hit.path).name}:{hit.start_line + offset}"
    return where


def _discussion(terms: dict[str, float], hits: Sequence[Hit]) -> int:
    """The most distinct sentences one evidence file names at least half of the topic's weight in: a
    passing mention is one or two ("No pets in the building unless..."), a section about the
    topic under another title ("## Performance" on caching) names it again and again."""
    per_file: dict[str, set[str]] = {}
    for hit in hits:
        for start, end in split_sentences(hit.text):
            sentence = normalize(hit.text[start:end])
            if _named_weight(terms, sentence) >= 0.5:
                per_file.setdefault(hit.path, set()).add(sentence)
    return max(map(len, per_file.values()), default=0)


def _acronyms(text: str) -> set[str]:
    """The initials of each run of 2-5 words within a title line or heading: "pto" for "Paid Time Off"."""
    found: set[str] = set()
    for segment in re.split(r"[\n>]", text):
        initials = "".join(w[0] for w in words(segment))
        found |= {initials[i : i + n] for n in range(2, 6) for i in range(len(initials) - n + 1)}
    return found


def _root(term: str) -> str:
    for ending in ROOT_ENDINGS:
        if term.endswith(ending) and len(term) - len(ending) >= 3:
            return term[: -len(ending)]
    return term


def _names(term: str, named: set[str]) -> bool:
    """Whether the titles name the term: the same stem or root ("cach" for "caching" and "cache"), or one a
    prefix of the other ("expens", "expense")."""
    if term in named or _root(term) in {_root(other) for other in named}:
        return True
    return len(term) >= 5 and any(
        len(other) >= 5
        and abs(len(other) - len(term)) <= STEM_SLACK
        and (other.startswith(term) or term.startswith(other))
        for other in named
    )


def find(
    question: str,
    hits: Sequence[Hit],
    titles: Titles,
    doc_freq: DocFreq | None,
    min_share: float = TITLE_SHARE,
    min_sentences: float = MENTION_SENTENCES,
) -> Untitled | None:
    """The policy/process/strategy the question asks for when no evidence file's titles name its topic
    and none discusses it (the best-named of its topics; returned whatever its share and discussion when
    min_share and min_sentences are inf)."""
    asked = topics(question)
    if not asked or not hits:
        return None
    named: set[str] = set()
    acronyms: set[str] = set()
    for path in dict.fromkeys(h.path for h in hits):
        text = split_camel(titles(path))  # code symbols too: "addFolder"
        named |= name_terms(path) | set(content_terms(text))
        acronyms |= _acronyms(text + "\n" + name_words(path))
    ranked: list[tuple[float, str, str, dict[str, float]]] = []
    for kind, phrase in asked:
        terms = {t: idf(t, doc_freq) for t in dict.fromkeys(content_terms(phrase))}
        got = {t for t in terms if _names(t, named) or t in acronyms}
        # "Paid Time Off" asked where a title says "PTO": a run of the topic's words whose initials it names.
        spelled = [t for t in words(phrase) if content_terms(t)]
        for n in range(2, 6):
            for i in range(len(spelled) - n + 1):
                if "".join(w[0] for w in spelled[i : i + n]) in named:
                    got |= {t for w in spelled[i : i + n] for t in content_terms(w)}
        ranked.append((_share(terms, got), kind, phrase, terms))
    # One topic the titles name or a file discusses is enough ("backup" of "backup and disaster recovery");
    # the sentences are counted only when no title names one.
    share, kind, phrase, terms = max(ranked, key=lambda r: r[0])
    if share >= min_share:
        return None
    sentences = max(_discussion(t, hits) for *_, t in ranked)
    if sentences >= min_sentences:
        return None
    return Untitled(phrase, kind, round(share, 3), sentences, _mention(terms, hits))
