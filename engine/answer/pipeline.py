"""ask(): evidence first, then verified sentences, then the final Answer — the one path every generator
takes, so the contract holds for local, Claude and extractive answers alike."""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from engine.answer import answerability, changes, conflicts, contract, premise, rules
from engine.answer.injection import instruction_like
from engine.backends.prompts import REFUSAL
from engine.english import ASKS_MECHANISM
from engine.errors import Cancelled, MissingModel
from engine.events import (
    CONFLICT_NOTE,
    Answer,
    AnswerSentence,
    Citation,
    Conflict,
    Draft,
    EvidenceReady,
    GenerationProgress,
    Hit,
    RawSentence,
    decode_lines,
    encode_lines,
)
from engine.ingest.extract import is_source
from engine.ingest.mail import is_mailbox
from engine.names import about_tests, is_test
from engine.retrieve.search import hit_from_row
from engine.text import (
    Embed,
    apart,
    content_terms,
    lead_in,
    list_after,
    normalize,
    question_terms,
    split_sentences,
)

if TYPE_CHECKING:
    from engine.api import Engine
    from engine.backends.base import Generator

EVIDENCE = 6
SAME_FILE = EVIDENCE // 2  # the passages of one file the evidence holds at most (crowded), as designed
STATEMENT_WORDS = 3
SAME_POINT = 0.3  # share of a quote's content words another version must share to speak to the point
Event = EvidenceReady | Draft | GenerationProgress | AnswerSentence | Answer


def _never() -> bool:
    return False


class Clock:
    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.marks: dict[str, float] = {}

    def mark(self, name: str) -> None:
        self.marks.setdefault(name, round((time.perf_counter() - self.start) * 1000, 1))


def siblings(engine: Engine, question: str, hits: list[Hit]) -> list[Hit]:
    """Other versions of the evidence files (same folder, same family), best chunk each, so that a
    conflict between versions is always seen, whichever version retrieval ranked first."""
    have = {h.path for h in hits}
    catalog = engine.catalog
    terms = set(question_terms(question))
    extra: list[Hit] = []
    for path in list(dict.fromkeys(h.path for h in hits[:EVIDENCE])):
        folder = str(PurePath(path).parent)
        for row in catalog.files_in_dir(folder):
            if row.path in have or row.status != "indexed" or not conflicts.same_family(path, row.path):
                continue
            chunks = catalog.chunks_of_file(row.id)
            if not chunks:
                continue
            best = max(chunks, key=lambda c: len(terms & set(content_terms(c.text + " " + c.heading))))
            extra.append(hit_from_row(best, 0.0, question, None, None))
            have.add(row.path)
    return extra


def head_reader(engine: Engine) -> Callable[[str], str]:
    """A file's opening text (its first chunks, where dates and status markers sit), read once per answer:
    the same input the staleness check reads (Engine.head_text)."""
    return functools.cache(engine.head_text)


def _figures(text: str) -> list[str]:
    return re.findall(r"\d+(?:[.,]\d+)*", text)


def disagreement(quote: str, text: str) -> str | None:
    """The statement in `text` on the same point as `quote` that says something else, or None.

    The same point: the sentence or line of `text` sharing the most of the quote's content words (at
    least SAME_POINT of them, numbers aside). It says something else unless it is the same statement
    (equal after normalising) or carries the same figures in nearly the same words.
    """
    want = {t for t in content_terms(quote) if not t.isdigit()}
    best, overlap = _best_statement(want, text)
    if overlap < SAME_POINT or normalize(best) == normalize(quote):
        return None
    if not {t for t in content_terms(best) if not t.isdigit()} - want and not _figures(best):
        return None  # it adds nothing to the quote's words (a heading such as "# Leave policy")
    if _figures(best) == _figures(quote) and overlap >= 0.8:
        return None
    return best.strip()


def current_first(kept: list[AnswerSentence], found: Sequence[Conflict]) -> list[AnswerSentence]:
    """The answer's sentences with those citing only versions a conflict judged not current moved after
    the rest (each group in its order): where both versions are quoted, the current one leads."""
    stale = {n for c in found for n in c.sources if n != c.current}

    def old(sentence: AnswerSentence) -> bool:
        return bool(sentence.citations) and all(c.source in stale for c in sentence.citations)

    return [s for s in kept if not old(s)] + [s for s in kept if old(s)]


def _number(citation: Citation) -> int:
    return citation.source


def in_citation_order(
    sentences: Sequence[AnswerSentence], evidence: Sequence[Hit], found: Sequence[Conflict]
) -> tuple[tuple[AnswerSentence, ...], tuple[Hit, ...], tuple[Conflict, ...]]:
    """The answer numbered as a reader expects: the evidence reordered so that the sources come first in
    the order the answer first cites them (its markers read [1], [2], [3]..., each sentence's in order),
    the passages no sentence cites after them in their retrieved order; every citation and conflict
    renumbered to match."""
    cited = dict.fromkeys(c.source for s in sentences for c in s.citations)
    order = [*cited, *(n for n in range(1, len(evidence) + 1) if n not in cited)]
    new = {old: n for n, old in enumerate(order, 1)}
    renumbered = tuple(
        replace(
            s, citations=tuple(sorted((replace(c, source=new[c.source]) for c in s.citations), key=_number))
        )
        for s in sentences
    )
    moved = tuple(
        replace(c, sources=tuple(new[n] for n in c.sources), current=new.get(c.current, c.current))
        for c in found
    )
    return renumbered, tuple(evidence[n - 1] for n in order), moved


def statements(text: str) -> Iterator[str]:
    """The sentences and lines of `text` that can state something: not headings, at least STATEMENT_WORDS
    content words."""
    for start, end in split_sentences(text):
        sentence = text[start:end]
        if not sentence.lstrip().startswith("#") and len(content_terms(sentence)) >= STATEMENT_WORDS:
            yield sentence


def _best_statement(want: set[str], text: str) -> tuple[str, float]:
    """The statement of `text` holding the largest share of the words in `want`, and that share."""
    best, overlap = "", 0.0
    for sentence in statements(text) if want else ():
        share = len(want & set(content_terms(sentence))) / len(want)
        if share > overlap:
            best, overlap = sentence, share
    return best, overlap


def on_point(question: str, text: str) -> str | None:
    """The sentence or line of `text` that speaks to the question: sharing the most of its content words
    (at least SAME_POINT of them), or None."""
    best, overlap = _best_statement(set(question_terms(question)), text)
    return best.strip() if overlap >= SAME_POINT else None


def _cite_in(statement: str, evidence: list[Hit], path: str) -> Citation | None:
    """A citation of `statement` in an evidence chunk of `path` that holds it verbatim, or None."""
    found = (contract.cite(n, h, statement) for n, h in enumerate(evidence, start=1) if h.path == path)
    return next((c for c in found if c is not None), None)


def point_citation(question: str, path: str, evidence: list[Hit]) -> Citation | None:
    """A citation of the line of `path`'s evidence chunks that speaks to the question, if one does."""
    point = on_point(question, "\n\n".join(h.text for h in evidence if h.path == path))
    return _cite_in(point, evidence, path) if point else None


def _statement_citation(statement: str, evidence: list[Hit], path: str) -> Citation | None:
    """A citation of `path` for a conflict note: the disagreeing statement where an evidence chunk of that
    file holds it verbatim, else the first line of the file's first evidence chunk."""
    if statement and (exact := _cite_in(statement, evidence, path)) is not None:
        return exact
    n, hit = next((n, h) for n, h in enumerate(evidence, start=1) if h.path == path)
    lines = (contract.cite(n, hit, line.strip()) for line in hit.text.splitlines())  # short ones: None
    return next((c for c in lines if c is not None), None)


def conflict_note(
    conflict: Conflict,
    kept: list[AnswerSentence],
    evidence: list[Hit],
    full_text: Callable[[str], str],
    question: str = "",
) -> AnswerSentence | None:
    """A note for a conflict only where the answer cites one of its versions and the other version says
    something else on the cited point, or, failing that, on the question's point in the cited version
    (a model may quote a general line of the right file); it quotes both statements."""
    paths = [evidence[n - 1].path for n in conflict.sources]
    cited = [c for s in kept for c in s.citations if c.path in paths]
    for citation in cited:
        statement = _other_says(citation.quote, citation.path, paths, evidence, full_text)
        if statement is not None:
            return _note(conflict, citation, statement, paths, evidence)
    for path in dict.fromkeys(c.path for c in cited):
        mine = point_citation(question, path, evidence)
        if mine is None:
            continue
        statement = _other_says(mine.quote, path, paths, evidence, full_text)
        if statement is not None:
            return _note(conflict, mine, statement, paths, evidence)
    return None


def _other_says(
    quote: str, path: str, paths: list[str], evidence: list[Hit], full_text: Callable[[str], str]
) -> str | None:
    """What the other version says on the quote's point, or on the point of one of its statements (a
    quote may hold several: a lead-in and its list)."""
    other = next(p for p in paths if p != path)
    chunks = "\n\n".join(h.text for h in evidence if h.path == other)
    parts = list(dict.fromkeys([quote, *statements(quote)]))
    found = next((d for part in parts if (d := disagreement(part, chunks))), None)
    if found is None:  # the other version's whole text, read once
        whole = full_text(other)
        found = next((d for part in parts if (d := disagreement(part, whole))), None)
    return found


def _note(
    conflict: Conflict, citation: Citation, statement: str, paths: list[str], evidence: list[Hit]
) -> AnswerSentence | None:
    other = next(p for p in paths if p != citation.path)
    quoted = _statement_citation(statement, evidence, other)
    if quoted is None:
        return None
    cites = sorted((citation, quoted), key=lambda c: paths.index(c.path))
    return AnswerSentence(CONFLICT_NOTE + conflict.summary, tuple(cites))


def reported_change(
    kept: list[AnswerSentence], evidence: list[Hit], head: Callable[[str], str], question: str = ""
) -> tuple[Conflict, AnswerSentence, changes.Reported] | None:
    """A conflict, its note and the change found, where another source reports a change from what the
    answer quotes, or from what a cited file says on the question's point."""
    cited = [c for s in kept for c in s.citations]
    cited += [
        p for path in dict.fromkeys(c.path for c in cited) if (p := point_citation(question, path, evidence))
    ]
    found = changes.find(cited, evidence, head, question)
    if found is None:
        return None
    cites = (found.cited, found.change_citation, *found.also)
    current = found.change_citation
    summary = (
        f"{PurePath(found.cited.path).name} and {PurePath(current.path).name} disagree; "
        f"{PurePath(current.path).name} is current: {found.reason}."
    )
    conflict = Conflict(tuple(c.source for c in cites), current.source, found.reason, summary)
    return conflict, AnswerSentence(CONFLICT_NOTE + summary, cites), found


def current_lead(
    found: changes.Reported,
    kept: Sequence[AnswerSentence],
    evidence: Sequence[Hit],
    checker: answerability.Checker,
) -> AnswerSentence | None:
    """Where all the answer quotes is behind a change another source reports (none of it from that
    source, none stating what the change changed to): the reporting source's sentence stating the new
    fact (changes.current_statements) that the answer check rates as answering best, to lead the answer,
    or None where none reaches its line. A reader is told the current fact first, the out-of-date quote
    and the note after it."""
    quotes = [c for s in kept for c in s.citations]
    if any(c.path == found.change.path or changes.states_new(found.change, c.quote) for c in quotes):
        return None
    rated = [
        (checker.probability(sentence, evidence[c.source - 1]), -i, sentence, c)
        for i, (sentence, c) in enumerate(changes.current_statements(found, evidence))
    ]
    best = max(rated, key=lambda r: r[:2], default=None)
    if best is None or best[0] < checker.model.threshold:
        return None
    from engine.backends.extractive import plain

    return AnswerSentence(plain(premise.LIST_MARK.sub("", best[2], count=1)), (best[3],))


def full_text_reader(engine: Engine) -> Callable[[str], str]:
    def read(path: str) -> str:
        row = engine.catalog.file(path)
        return "" if row is None else "\n\n".join(c.text for c in engine.catalog.chunks_of_file(row.id))

    return read


class Shown:
    """Verified sentences on their way to the screen: each shown once, and only those the answer check
    (answerability.py) judges to answer the question; the others are reported as dropped."""

    def __init__(self, checker: answerability.Checker, evidence: Sequence[Hit]) -> None:
        self.checker = checker
        self.evidence = evidence
        self.kept: list[AnswerSentence] = []
        self.unanswering: list[str] = []
        self.repaired = 0
        # the check's best probability over the sentences it judged not to answer, what a refusal reports:
        # not over every sentence judged, where one the generator's ranking accepted on its own text can
        # have been judged again, as its citation's normalized quote, and rejected ("0.69, below the line
        # 0.28")
        self.best = 0.0

    def answers(self, text: str, quotes: Sequence[tuple[str, int]]) -> bool:
        """Whether the answer check judges a sentence (its text, its quotes and their sources) to answer
        the question; one that does not is reported as dropped."""
        judged = self.checker.judge([(quote, self.evidence[source - 1]) for quote, source in quotes])
        if not judged.answers:
            self.best = max(self.best, judged.probability)
            score = " < ".join(apart(judged.probability, judged.threshold))
            self.unanswering.append(f"{text} (does not answer the question: answer check {score})")
        return judged.answers

    def judged(self, text: str, quote: str, source: int) -> float | None:
        """The answer check's probability that one quote answers the question, None where it judges it
        does not (reported as dropped, as `answers` does)."""
        if not self.answers(text, [(quote, source)]):
            return None
        return self.checker.judge([(quote, self.evidence[source - 1])]).probability  # judged once: cached

    def add(self, sentence: AnswerSentence, repaired: bool) -> list[AnswerSentence]:
        """The sentences that may be shown now."""
        seen = self.kept
        if any(normalize(s.text).lower() == normalize(sentence.text).lower() for s in seen):
            return []  # small models repeat themselves; a sentence is shown once
        if not self.answers(sentence.text, [(c.quote, c.source) for c in sentence.citations]):
            return []
        self.kept.append(sentence)
        self.repaired += repaired
        return [sentence]

    @property
    def kept_best(self) -> float:
        """The check's best probability over the sentences the kept ones cite, each judged whole: what a
        model's answer and the draft are compared by (each sentence judged once: cached)."""
        cited = [(c.quote, self.evidence[c.source - 1]) for s in self.kept for c in s.citations]
        whole = [(contract.whole_sentences(quote, hit), hit) for quote, hit in cited]
        return self.checker.judge(whole).probability

    @property
    def stands(self) -> bool:
        """Something verified is kept, and the answer check says it answers."""
        return bool(self.kept)


def extract(
    engine: Engine,
    question: str,
    evidence: list[Hit],
    checker: answerability.Checker,
    verify: Callable[[RawSentence], contract.Verdict],
    cancelled: Callable[[], bool],
) -> Shown:
    """The extractive answer, verified and checked: the draft a slower generator replaces."""
    shown = Shown(checker, evidence)
    for raw in generate(generator_for(engine, "extractive"), question, evidence, cancelled, shown):
        if isinstance(raw, RawSentence) and (verdict := verify(raw)).sentence is not None:
            shown.add(verdict.sentence, verdict.repaired)
    return shown


def generate(
    generator: Generator,
    question: str,
    evidence: list[Hit],
    cancelled: Callable[[], bool],
    shown: Shown,
) -> Iterator[RawSentence | GenerationProgress]:
    """The generator's sentences. The extractive one asks the answer check of each sentence it ranks, so
    a sentence that does not answer gives its place to the next that does (extractive.proposed); a model
    writes its own, judged as they come (Shown.add)."""
    from engine.backends.extractive import ExtractiveGenerator

    if isinstance(generator, ExtractiveGenerator):
        return generator.generate(
            question, evidence, cancelled, lambda c: shown.judged(c.said, c.text, c.source)
        )
    return generator.generate(question, evidence, cancelled)


def generator_for(engine: Engine, name: str) -> Generator:
    """The named generator; without the embedder's model, the extractive one ranks its sentences by the
    question's words alone (relevance without embed). The keyword evidence is there and the gate and the
    answer check have their keyword-only lines: an answer failing outright on a model that only sharpens
    the ranking left a user without models with nothing but an error."""
    try:
        return engine.generator(name)
    except MissingModel:
        if name != "extractive":
            raise
        from engine.backends.extractive import ExtractiveGenerator

        # the floor was fitted on relevance with the embedder: as designed; the check weighs as fitted
        return ExtractiveGenerator(None, weight=engine.extractive_weight())


def usage(generator: object) -> dict[str, float]:
    """What a model read and wrote for the last answer (tokens and seconds), where it reports it."""
    return dict(getattr(generator, "last_run", None) or {})


def gather(engine: Engine, question: str, ranked: list[Hit] | None = None) -> tuple[list[Hit], list[Hit]]:
    """(the ranked hits and the siblings, which the gate reads; the evidence supplied and shown).
    `ranked`: hits searched already (a thread's follow-up, engine/conversation.py), else the question's."""
    hits = engine.evidence(question) if ranked is None else list(ranked)
    hits = hits + siblings(engine, question, crowded(hits))  # the versions of what the evidence will hold
    hits = [replace(h, instructions=True) if instruction_like(h.text) else h for h in hits]
    placed = crowded(hits)  # the gate reads the ranking as retrieval made it
    chosen = with_source(question, placed[:EVIDENCE], [h for h in placed[EVIDENCE:] if h.score > 0.0])
    evidence = tests_last(question, chosen + [h for h in placed[EVIDENCE:] if h.score == 0.0])
    return hits, [with_list(engine, h) for h in evidence]


def crowded(hits: list[Hit], cap: int = SAME_FILE) -> list[Hit]:
    """The ranked hits with at most `cap` passages of one file among the first EVIDENCE (the rest of that
    file's move down, after them, in their order): one long file whose sections all share the question's
    words (a reference manual, a changelog, an article) otherwise fills every place, and the file that
    answers, ranked seventh, is never read. Search engines cap results per site for the same reason. A
    mailbox's messages are each a document of their own (a year's mail is one file). The siblings (score 0)
    stay where they are, after."""
    first: list[Hit] = []
    later: list[Hit] = []
    count: dict[tuple[str, int | None], int] = {}
    for h in hits:
        one = (h.path, h.page if is_mailbox(h.path) else None)  # a mailbox's messages are its documents
        if h.score > 0.0 and len(first) < EVIDENCE and count.get(one, 0) < cap:
            first.append(h)
            count[one] = count.get(one, 0) + 1
        else:
            later.append(h)
    return first + later


def with_source(question: str, evidence: list[Hit], further: list[Hit]) -> list[Hit]:
    """The evidence, its last passage given to the program's source where the question asks how, why or
    where a program does something (english.ASKS_MECHANISM), no passage of it is source, and retrieval
    ranked one further down (`further`): what the code does answers such a question, and documentation
    written in the question's words fills every place otherwise (a reference manual cut into sections
    under its own titles does), so the code is never read and never backs an answer (extractive.
    code_backing). Not a test module's, unless the question is about tests (tests_last)."""
    if not evidence or not ASKS_MECHANISM.search(question) or any(is_source(h.path) for h in evidence):
        return evidence
    tests = about_tests(question)
    code = next((h for h in further if is_source(h.path) and (tests or not is_test(h.path))), None)
    return evidence if code is None else [*evidence[:-1], code]


def tests_last(question: str, evidence: list[Hit]) -> list[Hit]:
    """The evidence with passages from test modules after the rest, in their order, unless the question
    is about tests: a test exercises what the documentation and the code say, so it answers "how" and
    "why" questions with a harness around the answer, and the sentence quoted should come from them."""
    if about_tests(question):
        return evidence
    return sorted(evidence, key=lambda h: is_test(h.path))


def with_list(engine: Engine, hit: Hit) -> Hit:
    """A passage that ends on a lead-in ("The streaming methods are:") whose list the chunker put in the
    next chunk, extended by that list (its lines, up to the list's end), so the answer can quote it."""
    spans = split_sentences(hit.text)
    if not spans or not lead_in(hit.text, spans[-1][0], hit.text[spans[-1][0] : spans[-1][1]]):
        return hit
    following = engine.next_chunk(hit.chunk_id)
    if following is None or following.start_line <= hit.end_line or following.page != hit.page:
        return hit
    gap = following.start_line - hit.end_line
    joined = hit.text + "\n" * gap + following.text
    last, items = list_after(joined, spans[-1][1])
    if not items:
        return hit
    taken = joined[:last].count("\n") + 1
    numbers = [hit.line_at(i) for i in range(hit.text.count("\n") + 1)]
    numbers += range(hit.end_line + 1, following.start_line)  # the blank lines between the two
    numbers += decode_lines(following.lines) or range(following.start_line, following.end_line + 1)
    numbers = numbers[:taken]
    return replace(hit, text=joined[:last], end_line=max(numbers), lines=encode_lines(numbers))


INJECTED = "its only support is text addressed to an AI model (a possible prompt injection)"
NO_FOLDERS = "no folder is indexed yet: add one first (drop it on the window, or `citeline add FOLDER`)"


def not_injected(
    verify: Callable[[Any], contract.Verdict], evidence: list[Hit]
) -> Callable[[Any], contract.Verdict]:
    """`verify`, and a sentence whose every citation is a passage addressed to an AI model is dropped:
    such a passage is shown in the evidence, marked, but never forms an answer on its own."""
    marked = {n for n, hit in enumerate(evidence, 1) if hit.instructions}
    if not marked:
        return verify

    def check(raw: Any) -> contract.Verdict:
        verdict = verify(raw)
        sentence = verdict.sentence
        if (
            sentence is not None
            and sentence.citations
            and all(c.source in marked for c in sentence.citations)
        ):
            return contract.Verdict(None, INJECTED)
        return verdict

    return check


def ask_stream(
    engine: Engine,
    question: str,
    generator: str | None = None,
    cancelled: Callable[[], bool] = _never,
    ranked: list[Hit] | None = None,
) -> Iterator[Event]:
    clock = Clock()
    name = generator or engine.settings.generator
    hits, evidence = gather(engine, question, ranked)
    clock.mark("evidence")
    yield EvidenceReady(tuple(evidence))
    ctx = rules.context(engine, question, hits, evidence)
    refused = rules.screen(ctx)
    if refused is not None:
        clock.mark("total")
        yield Answer(
            question,
            REFUSAL,
            True,
            NO_FOLDERS if not hits and not engine.folders() else refused[1],
            evidence=tuple(evidence),
            generator=name,
            timings_ms=clock.marks,
        )
        return
    head = head_reader(engine)
    found = conflicts.detect(evidence, head)
    embed: Embed | None = engine.embed_remembered if engine.has_vectors() else None
    checker = answerability.Checker(question, engine.doc_freq, embed)
    verify = not_injected(
        functools.partial(
            contract.check, evidence=evidence, embed=embed, question=question, doc_freq=engine.doc_freq
        ),
        evidence,
    )

    def cited(kept: Sequence[AnswerSentence]) -> list[tuple[Citation, Hit]]:
        return [(c, evidence[c.source - 1]) for s in kept for c in s.citations]

    def misleads(kept: Sequence[AnswerSentence]) -> bool:
        """What is shown so far says the question's premise is false (the rules after the answer): it is
        held back, so a sentence the final answer refuses never reaches the screen, even for a moment."""
        return rules.after(ctx, cited(kept)) is not None

    draft: Shown | None = None
    if name != "extractive" and engine.settings.quote_fallback:
        draft = extract(engine, question, evidence, checker, verify, cancelled)
        clock.mark("draft")
        if draft.stands and not misleads(draft.kept):
            yield Draft(tuple(draft.kept))
    shown = Shown(checker, evidence)
    dropped: list[str] = []
    held: list[AnswerSentence] = []  # verified, not yet shown: misleads so far, or the draft answers better

    def beats_draft() -> bool:
        """The model's answer replaces the draft once the answer check rates one of its sentences at
        least as answering as the draft's best: both passed the same contract, and the check is what
        tells which answers. Measured on the fitted parts: a model answer the check rates lower loses a
        supporting passage more often than it gains one (README, "Session 35")."""
        return draft is None or not draft.stands or shown.kept_best >= draft.kept_best

    generator_obj = generator_for(engine, name)
    for raw in generate(generator_obj, question, evidence, cancelled, shown):
        if cancelled():
            raise Cancelled()
        if isinstance(raw, GenerationProgress):
            yield raw
            continue
        clock.mark("first_sentence")
        verdict = verify(raw)
        if verdict.sentence is None:
            dropped.append(f"{raw.text} ({verdict.reason})")
            continue
        held += shown.add(verdict.sentence, verdict.repaired)
        # a later sentence may state the figure an earlier one lacked, or answer better than the draft
        if held and beats_draft() and not misleads(shown.kept):
            clock.mark("first_verified")
            yield from held
            held.clear()
    if cancelled():
        raise Cancelled()  # a stopped answer is never reported as a refusal
    from_draft = False
    if draft is not None and not beats_draft():
        # The model verified nothing that answers (it wrote nothing verifiable, or declined), or nothing
        # the check rates as answering as well as the draft: the draft's quotes stand. They passed the
        # same evidence gate and answer check as any sentence, and a small model's "no answer" is the
        # least reliable signal in the chain (measured: the 0.5B model declined every answerable
        # Meridian question it was asked).
        lower = " < ".join(apart(shown.kept_best, draft.kept_best))
        dropped += shown.unanswering
        dropped += [f"{s.text} (the draft answers better: answer check {lower})" for s in shown.kept]
        shown, from_draft = draft, True
        name = f"{name}, quoted by extractive"
    clock.mark("total")
    clock.marks["answer_check"] = round(checker.spent_ms, 1)
    if not shown.stands:
        reason = "no generated sentence was supported by the sources"
        if not dropped and not shown.unanswering:
            reason = f"the {name} generator found no answer in the sources"
        elif dropped and all(d.endswith(f"({INJECTED})") for d in dropped) and not shown.unanswering:
            reason = f"the only sentences found were dropped: {INJECTED}"
        if shown.unanswering:
            reason = "the sentences the sources hold do not answer the question: answer check "
            reason += "{}, below the line {}".format(*apart(shown.best, checker.model.threshold))
        yield Answer(
            question,
            REFUSAL,
            True,
            reason,
            evidence=tuple(evidence),
            dropped=tuple(dropped + shown.unanswering),
            generator=name,
            timings_ms=clock.marks,
            usage=usage(generator_obj),
        )
        return
    kept, repaired = shown.kept, shown.repaired
    if (contradiction := rules.after(ctx, cited(kept))) is not None:
        # what the answer quotes says the question's premise is false: the answer would mislead
        yield Answer(
            question,
            REFUSAL,
            True,
            contradiction[1],
            evidence=tuple(evidence),
            dropped=tuple(dropped + shown.unanswering + [f"{s.text} (says otherwise)" for s in kept]),
            generator=name,
            timings_ms=clock.marks,
            usage=usage(generator_obj),
        )
        return
    noted = [(c, conflict_note(c, kept, evidence, full_text_reader(engine), question)) for c in found]
    notes = [note for _, note in noted if note is not None]
    found = [c for c, note in noted if note is not None]
    lead: list[AnswerSentence] = []
    if not notes and (reported := reported_change(kept, evidence, head, question)) is not None:
        conflict, note, change = reported
        found, notes = [conflict], [note]
        current = current_lead(change, kept, evidence, checker)
        lead = [current] if current is not None else []
    yield from lead + notes
    # the answer leads, the current fact first; a conflict note follows it
    sentences, shown_evidence, flagged = in_citation_order(
        lead + current_first(kept, found) + notes, evidence, found
    )
    yield Answer(
        question,
        contract.render(sentences),
        False,
        "",
        sentences,
        shown_evidence,
        flagged,
        tuple(dropped + shown.unanswering),
        name,
        clock.marks,
        repaired,
        from_draft,
        usage(generator_obj),
    )
