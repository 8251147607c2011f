"""The local generator with a real GGUF model (SmolLM2-135M, the fast one): progress while it reads and
writes, a Stop that reaches llama.cpp inside a decode, and a model that answers normally afterwards."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from engine.api import Engine
from engine.backends import llama_cpp
from engine.backends.rates import MIN_TOKENS
from engine.conversation import Turn
from engine.errors import Cancelled
from engine.events import Answer, Draft, EvidenceReady, GenerationProgress

pytestmark = pytest.mark.slow

QUESTION = "How do I roll back a deploy?"


@pytest.fixture
def local(engine: Engine, small_folder: Path) -> Engine:
    engine.add_folder(small_folder)
    engine.run(engine.sync())
    engine.settings.local_model = "generator-tiny"
    return engine


def niced_threads() -> int:
    """Threads of this process running at the model's lower priority (Linux: field 19 of stat)."""
    count = 0
    for stat in Path("/proc/self/task").glob("*/stat"):
        fields = stat.read_text().rsplit(")", 1)[1].split()
        count += int(fields[16]) == llama_cpp.NICE
    return count


def test_progress_counts_the_prompt_and_the_answer(local: Engine) -> None:
    events, niced = [], 0
    for event in local.ask_stream(QUESTION, "local"):
        events.append(event)
        if isinstance(event, GenerationProgress) and event.read > 0 and Path("/proc/self/task").exists():
            niced = max(niced, niced_threads())
    if Path("/proc/self/task").exists():  # the model's threads yield to interactive work
        assert niced >= 1
    assert isinstance(events[0], EvidenceReady) and isinstance(events[-1], Answer)
    progress = [e for e in events if isinstance(e, GenerationProgress)]
    reading = [p.read for p in progress if p.phase == "reading"]
    assert reading == sorted(reading)  # tokens read only go up
    final = events[-1]
    prompt = final.usage["prompt_tokens"]
    assert prompt > llama_cpp.READ_STEP and all(p.prompt == prompt for p in progress if p.phase != "loading")
    assert final.usage["read_tokens"] == prompt  # the first answer reads everything
    assert 0 < final.usage["written_tokens"] <= llama_cpp.ANSWER_TOKENS
    # the measured rates are kept for the next answer's ETA and the model list
    saved = json.loads(next((local.home / "model-rates").glob("*.json")).read_text())
    assert saved["read_per_s"] > 0
    if final.usage["written_tokens"] >= MIN_TOKENS:
        assert saved["write_per_s"] > 0
    else:  # the tiny model often writes only {"sentences": []}: too short a run to give a rate
        assert saved["write_per_s"] is None
    # the next answer has an ETA from the start, and reads only what the KV cache does not hold
    again = list(local.ask_stream("How do I roll back a deploy quickly?", "local"))
    first = next(e for e in again if isinstance(e, GenerationProgress) and e.phase == "reading")
    assert first.eta_s is not None and first.eta_s > 0
    assert again[-1].usage["read_tokens"] < again[-1].usage["prompt_tokens"]  # the system prompt is cached


def test_a_draft_comes_before_the_model(local: Engine) -> None:
    events = list(local.ask_stream(QUESTION, "local"))
    kinds = [type(e) for e in events]
    assert kinds.index(EvidenceReady) < kinds.index(Draft) < kinds.index(GenerationProgress)
    draft, final = events[kinds.index(Draft)], events[-1]
    assert draft.sentences and all(s.citations for s in draft.sentences)
    assert final.timings_ms["draft"] < final.timings_ms["total"]
    if final.from_draft:  # the tiny model verified nothing: the draft is the answer, marked as quoted
        assert final.sentences == draft.sentences and "quoted by extractive" in final.generator


def test_stop_aborts_inside_a_decode_and_the_model_still_answers(
    local: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole prompt in one decode: only llama.cpp's abort callback can stop it before it ends."""
    reference = local.ask(QUESTION, "local")
    generator = local.generator("local")
    llm = generator.llm()
    llm.reset()  # nothing cached: the next answer reads its whole prompt
    monkeypatch.setattr(llama_cpp, "READ_STEP", 100_000)
    flag = {"stop": False}

    def cancelled() -> bool:
        return flag["stop"]

    reports = 0
    with pytest.raises(Cancelled):
        for event in local.ask_stream(QUESTION, "local", cancelled=cancelled):
            if isinstance(event, GenerationProgress) and event.phase == "reading":
                reports += 1
                flag["stop"] = reports == 2  # a report later: the decode of the whole prompt is under way
    assert llm.n_tokens == 0  # the one decode was aborted: nothing of the prompt was kept
    assert generator.last_run == {}  # a stopped answer records no rates
    monkeypatch.undo()  # prompts read in steps again
    after = local.ask(QUESTION, "local")
    assert (after.text, after.refused) == (reference.text, reference.refused)


def test_new_settings_drop_the_local_generator_they_change(local: Engine) -> None:
    first = local.generator("local")
    local.use_settings(local.settings.model_copy(update={"theme": "dark"}))
    assert local.generator("local") is first  # nothing the generator reads changed
    local.use_settings(local.settings.model_copy(update={"local_model": "generator"}))
    second = local.generator("local")
    assert second is not first and second.model_path == local.locator.path("generator")


def test_the_model_rewrites_a_follow_up_on_one_line_and_answers_the_same_afterwards(local: Engine) -> None:
    """conversation.condense (measured by `citeline eval evalsets/followups --generator local`): the
    model's reply is one line, never empty, and the chat shares the KV cache with answers safely."""
    from engine.conversation import condense

    first = local.ask(QUESTION, "local")
    turn = _turn(first)
    generator = local.generator("local")
    assert isinstance(generator, llama_cpp.LlamaGenerator)
    rewritten = condense("And how long does it take?", turn, generator.chat)
    assert rewritten and "\n" not in rewritten
    assert local.ask(QUESTION, "local").text == first.text  # the chat left no state behind


def _turn(answer: Answer) -> Turn:
    from datetime import datetime

    return Turn(1, 1, 1, answer.question, answer.question, False, answer, datetime.now())


@pytest.mark.parametrize(
    "question",
    [QUESTION, "What does the deploy script check before it starts?", "Who approves a production release?"],
)
def test_the_grammar_first_decoder_writes_what_the_library_writes(local: Engine, question: str) -> None:
    """greedy.GrammarGreedy offers the best token to the grammar alone before the whole vocabulary: the
    answer is token for token the one llama-cpp-python's grammar sampler chain writes, and valid JSON."""
    from engine.answer.pipeline import gather
    from engine.backends.prompts import SYSTEM, SourceWindow, user_message

    generator = local.generator("local")
    assert isinstance(generator, llama_cpp.LlamaGenerator)
    llm = generator.llm()
    _, evidence = gather(local, question)
    windows = [
        SourceWindow(n, h.path, h.start_line, h.end_line, h.text[:400]) for n, h in enumerate(evidence[:2], 1)
    ]
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": user_message(question, windows)},
    ]
    prompt = generator.prompt(messages)
    ours, library, _ = _both_decoders(llm, prompt, generator.grammar(), 120)
    assert ours == library
    assert ours.startswith("{")
    if len(llm.tokenize(ours.encode(), add_bos=False)) < 110:  # finished within the budget: whole JSON
        assert isinstance(json.loads(ours)["sentences"], list)


def test_stop_while_writing_keeps_the_model_usable(local: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Stop after the model has written two tokens: the worker leaves llama.cpp inside the next decode
    and the next answer is the same as before. The worker holds before that decode until the Stop is
    given, so that a fast model cannot finish first."""
    from engine.backends.greedy import GrammarGreedy

    reference = local.ask(QUESTION, "local")
    generator = local.generator("local")
    assert isinstance(generator, llama_cpp.LlamaGenerator)
    assert reference.usage["written_tokens"] > 2
    model: llama_cpp.LlamaGenerator = generator

    class Held(GrammarGreedy):
        count = 0

        def advance(self, token: int) -> None:
            self.count += 1
            deadline = time.monotonic() + 10
            while self.count == 2 and not model.abort_flag and time.monotonic() < deadline:
                time.sleep(0.005)
            super().advance(token)

    monkeypatch.setattr(llama_cpp, "GrammarGreedy", Held)

    def cancelled() -> bool:
        run = generator._last
        return run is not None and run.written >= 2

    with pytest.raises(Cancelled):
        list(local.ask_stream(QUESTION, "local", cancelled=cancelled))
    run = generator._last
    assert run is not None and not run.thread.is_alive()
    assert run.written == 2  # the decode after the second token was aborted
    assert generator.last_run == {}  # a stopped answer records no rates
    monkeypatch.undo()
    after = local.ask(QUESTION, "local")
    assert (after.text, after.refused) == (reference.text, reference.refused)


def test_the_grammar_first_decoder_when_the_grammar_refuses_the_best_token(local: Engine) -> None:
    """A grammar the model would not follow on its own (digits in brackets after a request for a poem):
    the best token is refused at nearly every step, and the decoder still writes what the library's
    grammar sampler writes."""
    from llama_cpp.llama_grammar import LlamaGrammar

    generator = local.generator("local")
    assert isinstance(generator, llama_cpp.LlamaGenerator)
    llm = generator.llm()
    grammar = LlamaGrammar.from_string('root ::= "[" [0-9]+ ("," [0-9]+)* "]"', verbose=False)
    prompt = generator.prompt([{"role": "user", "content": "Write a short poem about the sea."}])
    ours, library, redirected = _both_decoders(llm, prompt, grammar, 24)
    assert ours == library and ours.startswith("[")
    assert redirected >= 1


def _both_decoders(llm: Any, prompt: llama_cpp.Prompt, grammar: Any, max_tokens: int) -> tuple[str, str, int]:
    """(GrammarGreedy's text, the library's grammar-constrained greedy text, the picks where the grammar
    refused the best token), each written after the same prompt read afresh."""
    from engine.backends.greedy import GrammarGreedy

    def read() -> None:
        llama_cpp.reuse_prefix(llm, prompt.tokens)
        llm.eval(prompt.tokens[llm.n_tokens :])

    read()
    stream = llm.create_completion(
        prompt=prompt.tokens,
        grammar=grammar,
        stream=True,
        max_tokens=max_tokens,
        temperature=0.0,
        seed=0,
        stop=prompt.stop,
    )
    library = "".join(c["choices"][0]["text"] for c in stream)
    read()
    with GrammarGreedy(llm, grammar) as greedy:
        return "".join(greedy.tokens(max_tokens)), library, greedy.redirected
