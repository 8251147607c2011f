"""The local generator: a GGUF chat model in llama-cpp-python, its output constrained to the JSON schema.

The model loads lazily on first use, with n_threads set explicitly (llama.cpp's default is 1 here). One
answer runs at a time per model, on a worker thread, so that the caller keeps control while the model
reads and writes:

- the prompt is read in steps of READ_STEP tokens, so progress (tokens read of the prompt, then tokens
  written) and an ETA from this machine's measured rates (rates.py) reach the caller a few times a second;
- cancelling sets a flag that llama.cpp's abort callback reads between the operations of a decode, so a
  Stop reaches the model within milliseconds, not after the batch or the answer;
- the system prompt comes first and is the same for every question, so llama.cpp keeps its KV state from
  the previous answer and only the sources and the question are read again.
"""

from __future__ import annotations

import ctypes
import functools
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.backends.greedy import GrammarGreedy
from engine.backends.jsonstream import SentenceStream
from engine.backends.packing import Packed, pack
from engine.backends.prompts import SCHEMA, SYSTEM, user_message
from engine.backends.rates import Rates
from engine.errors import CiteError, MissingDependency
from engine.events import GenerationProgress, Hit, RawSentence

log = logging.getLogger(__name__)

ANSWER_TOKENS = 320
EXPECTED_TOKENS = 110  # a typical answer's length, for the ETA before the model has written anything
PROMPT_SLACK = 64
# Prompt reading runs at 40-100 tokens/s on 2 cores: the sources get at most this many tokens (the
# setting local_sources; 300 measured 3.5 s sooner to the first verified sentence than 520, README).
SOURCE_BUDGET = 300
WINDOW_TOKENS = 90
# Reading a prompt token costs a fraction of writing one (batched vs one at a time): 3-5x on this CPU for
# the shipped models (../shared/MODELS.md: 40-54 vs 9-10, 72-84 vs 21, 123-135 vs 42-45 tokens/s; the
# 1.5B with AVX-512 and the grammar-first decoder: ~100 vs ~26).
READ_PER_WRITE = 4.0
# Tokens per prompt step: a progress report every ~1.3 s at 100 tokens/s (45 tokens/s without AVX-512:
# ~3 s). Steps of 64 read 6 % slower than 128 (1.5B, 2 cores; larger steps gained nothing, README).
READ_STEP = 128
NICE = 10  # the model thread's niceness: interactive work comes first (lower_priority)
REPORT_S = 0.25  # how often the caller regains control (and may see progress) while the model works
JOIN_S = 2.0  # how long a cancelled answer waits for the worker to leave llama.cpp


def raw_sentence(obj: dict[str, Any], packed: Packed | None = None) -> RawSentence | None:
    """A schema object -> RawSentence; window numbers expand to the evidence numbers merged into them."""
    try:
        sources = [int(s) for s in obj.get("sources", [])]
        text, quote = str(obj["text"]), str(obj.get("quote", ""))
    except (KeyError, TypeError, ValueError):
        return None
    if packed is not None:
        sources = [m for s in sources for m in packed.aliases.get(s, ())]  # unknown window: no source
    return RawSentence(text, tuple(dict.fromkeys(sources)), quote)


def reuse_prefix(llm: Any, tokens: Sequence[int]) -> int:
    """Keep the KV cache's part that `tokens` begin with (the system prompt, a question asked again) and
    return its length; the last token is always read again, for fresh logits."""
    cached = 0
    for have, want in zip(llm.input_ids[: llm.n_tokens], tokens, strict=False):
        if have != want:
            break
        cached += 1
    llm.n_tokens = min(cached, len(tokens) - 1)
    return int(llm.n_tokens)


def lower_priority() -> None:
    """Run this thread (and the OpenMP threads llama.cpp starts from it, which inherit it) at a lower CPU
    priority: on an idle machine it costs nothing, and when the user types or searches while the model
    works, the search gets the cores first. (The alternative, one thread fewer than the cores, halves the
    model's speed on a 2-core machine even when nothing else runs.)"""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
    except (AttributeError, OSError) as exc:  # not on Windows; a sandbox may refuse
        log.debug("could not lower the model thread's priority: %s", exc)


class Aborted(Exception):
    """llama.cpp stopped a decode because the answer was cancelled."""


@dataclass
class Prompt:
    tokens: list[int]
    stop: list[str]
    stopping: Any  # llama_cpp.StoppingCriteriaList or None


class _Run:
    """One answer on a worker thread: read the prompt in steps, then stream the completion. The thread
    puts ("text", delta) items on a queue; the counters are read by the caller for progress."""

    def __init__(self, gen: LlamaGenerator, prompt: Prompt) -> None:
        self.gen = gen
        self.prompt = prompt
        self.items: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.cached = 0
        self.read = 0
        self.written = 0
        self.read_s = 0.0
        self.write_s = 0.0
        self.thread = threading.Thread(target=self._work, name="citeline-llama", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _work(self) -> None:
        lower_priority()
        try:
            self._read_prompt()
            self._write()
            self.items.put(("done", None))
        except Aborted:
            self.items.put(("aborted", None))
        except Exception as exc:  # surfaced to the caller's thread, which raises it
            self.items.put(("error", exc))

    def _decode(self, fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except RuntimeError as exc:
            if self.gen.abort_flag:
                raise Aborted() from exc
            raise

    def _read_prompt(self) -> None:
        llm, tokens = self.gen.llm(), self.prompt.tokens
        cached = reuse_prefix(llm, tokens)
        self.cached = self.read = cached
        start = time.perf_counter()
        for i in range(cached, len(tokens), READ_STEP):
            if self.gen.abort_flag:
                raise Aborted()
            step = tokens[i : i + READ_STEP]
            self._decode(functools.partial(llm.eval, step))
            self.read += len(step)
            self.read_s = time.perf_counter() - start

    def _write(self) -> None:
        llm = self.gen.llm()
        start = time.perf_counter()
        # greedy under the grammar, the grammar asked about the best token first (greedy.py); with the
        # prompt-lookup draft model the library's own loop runs it. An aborted decode surfaces from next().
        greedy = None if self.gen.lookup_decoding else GrammarGreedy(llm, self.gen.grammar())
        pieces = self._library_pieces(llm) if greedy is None else greedy.tokens(self.gen.answer_tokens)
        try:
            while True:
                piece = self._decode(lambda: next(pieces, None))
                if piece is None:
                    return
                self.written += 1
                self.write_s = time.perf_counter() - start
                self.items.put(("text", piece))
                if self.gen.abort_flag:
                    raise Aborted()
        finally:
            pieces.close()
            if greedy is not None:
                greedy.close()

    def _library_pieces(self, llm: Any) -> Generator[str, None, None]:
        stream = llm.create_completion(
            prompt=self.prompt.tokens,
            grammar=self.gen.grammar(),
            stream=True,
            max_tokens=self.gen.answer_tokens,
            temperature=0.0,
            seed=0,
            stop=self.prompt.stop,
            stopping_criteria=self.prompt.stopping,
        )
        try:
            for chunk in stream:
                yield chunk["choices"][0].get("text") or ""
        finally:
            stream.close()


class LlamaGenerator:
    name = "local"

    def __init__(
        self,
        model: Path,
        threads: int,
        n_ctx: int = 4096,
        answer_tokens: int = ANSWER_TOKENS,
        rates: Rates | None = None,
        source_budget: int = SOURCE_BUDGET,
        lookup_decoding: bool = False,
    ) -> None:
        self.model_path = model
        self.threads = threads
        self.n_ctx = n_ctx
        self.answer_tokens = answer_tokens
        self.source_budget = source_budget
        self.lookup_decoding = lookup_decoding
        self.rates = rates or Rates(None)
        self._load_lock = threading.Lock()
        self._answer_lock = threading.Lock()  # one answer at a time: one KV cache
        self._llm: Any = None
        self._grammar: Any = None
        self._formatter: Any = None
        self._abort_callback: Any = None  # kept referenced: llama.cpp holds the pointer
        self.abort_flag = False
        self._last: _Run | None = None
        self.last_packed: Packed | None = None
        self.last_run: dict[str, float] = {}

    # -- loading ------------------------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self._llm is not None

    def llm(self) -> Any:
        with self._load_lock:
            if self._llm is None:
                try:
                    import llama_cpp
                except ImportError as exc:
                    raise MissingDependency("llama-cpp-python", "local") from exc
                extra: dict[str, Any] = {}
                if self.lookup_decoding:
                    from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

                    extra["draft_model"] = LlamaPromptLookupDecoding(num_pred_tokens=8)
                llm = llama_cpp.Llama(
                    model_path=str(self.model_path),
                    n_ctx=self.n_ctx,
                    n_threads=self.threads,
                    n_threads_batch=self.threads,
                    n_batch=512,
                    verbose=False,
                    **extra,
                )
                self._install_abort(llama_cpp, llm)
                self._llm = llm
        return self._llm

    def _install_abort(self, llama_cpp: Any, llm: Any) -> None:
        """llama.cpp calls this between the operations of a decode; True aborts the decode."""
        lib = llama_cpp.llama_cpp._lib
        setter = getattr(lib, "llama_set_abort_callback", None)
        if setter is None:
            log.warning("this llama.cpp has no abort callback: Stop waits for the current step")
            return
        setter.argtypes = [ctypes.c_void_p, llama_cpp.ggml_abort_callback, ctypes.c_void_p]
        setter.restype = None
        self._abort_callback = llama_cpp.ggml_abort_callback(lambda _data: self.abort_flag)
        setter(llm._ctx.ctx, self._abort_callback, None)

    def grammar(self) -> Any:
        if self._grammar is None:
            from llama_cpp.llama_grammar import LlamaGrammar

            self._grammar = LlamaGrammar.from_json_schema(json.dumps(SCHEMA), verbose=False)
        return self._grammar

    def count_tokens(self, text: str) -> int:
        return len(self.llm().tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def prompt(self, messages: list[dict[str, str]]) -> Prompt:
        """The chat prompt as the model's own template writes it (as create_chat_completion would)."""
        llm = self.llm()
        if self._formatter is None:
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            template = llm.metadata.get("tokenizer.chat_template")
            if not template:
                raise CiteError(
                    f"{self.model_path.name} has no chat template.",
                    "choose an instruction-tuned GGUF model (citeline models import)",
                )
            eos, bos = llm.token_eos(), llm.token_bos()
            self._formatter = Jinja2ChatFormatter(
                template=template,
                eos_token=llm._model.token_get_text(eos) if eos != -1 else "",
                bos_token=llm._model.token_get_text(bos) if bos != -1 else "",
                stop_token_ids=[eos],
            )
        result = self._formatter(messages=messages)
        tokens = llm.tokenize(result.prompt.encode("utf-8"), add_bos=not result.added_special, special=True)
        stop = [] if result.stop is None else [result.stop] if isinstance(result.stop, str) else result.stop
        return Prompt(tokens, list(stop), result.stopping_criteria)

    def chat(self, messages: list[dict[str, str]], max_tokens: int) -> str:
        """A short free-text reply (greedy), for tasks other than answers: one at a time with answers."""
        with self._answer_lock:
            if self._last is not None:
                self._last.thread.join()
            self.abort_flag = False
            prompt = self.prompt(messages)
            out = self.llm().create_completion(
                prompt=prompt.tokens, max_tokens=max_tokens, temperature=0.0, seed=0, stop=prompt.stop
            )
            return str(out["choices"][0].get("text") or "")

    # -- answering ----------------------------------------------------------------------------------
    def generate(
        self, question: str, evidence: Sequence[Hit], cancelled: Callable[[], bool]
    ) -> Iterator[RawSentence | GenerationProgress]:
        with self._answer_lock:
            if self._last is not None:
                self._last.thread.join()  # a stopped answer's worker has left llama.cpp
            self.abort_flag = False
            self.last_run = {}
            if not self.loaded:
                yield GenerationProgress("loading", 0, 0, 0, self.answer_tokens)
            llm = self.llm()
            fixed = self.count_tokens(SYSTEM) + self.count_tokens(question) + PROMPT_SLACK
            budget = min(self.source_budget, self.n_ctx - self.answer_tokens - fixed)
            packed = pack(question, evidence, self.count_tokens, budget, window_tokens=WINDOW_TOKENS)
            self.last_packed = packed
            messages = [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": user_message(question, packed.windows)},
            ]
            run = self._last = _Run(self, self.prompt(messages))
            del llm
            yield from self._follow(run, packed, cancelled)

    def _follow(
        self, run: _Run, packed: Packed, cancelled: Callable[[], bool]
    ) -> Iterator[RawSentence | GenerationProgress]:
        stream = SentenceStream()
        run.start()
        reported = 0.0
        try:
            while True:
                if cancelled():
                    return
                if time.perf_counter() - reported >= REPORT_S:
                    reported = time.perf_counter()
                    yield self.progress(run)
                try:
                    kind, value = run.items.get(timeout=REPORT_S)
                except queue.Empty:
                    continue
                if kind == "error":
                    raise value
                if kind in ("done", "aborted"):
                    self._record(run)
                    return
                for obj in stream.feed(value):
                    sentence = raw_sentence(obj, packed)
                    if sentence is not None:
                        yield sentence
        finally:
            self.abort_flag = True  # a no-op when the run is over; otherwise llama.cpp stops now
            run.thread.join(JOIN_S)
            if run.thread.is_alive():  # the next answer waits for it (generate) before using the model
                log.warning("the local model did not stop within %.1f s", JOIN_S)

    def progress(self, run: _Run) -> GenerationProgress:
        total = len(run.prompt.tokens)
        phase = "writing" if run.written else "reading"
        read_rate, write_rate = self.rates.read.per_s, self.rates.write.per_s
        if run.read - run.cached >= READ_STEP and run.read_s > 0:
            read_rate = (run.read - run.cached) / run.read_s  # this answer's own rate, once it has one
        if run.written >= 8 and run.write_s > 0:
            write_rate = run.written / run.write_s
        if read_rate and not write_rate:
            write_rate = read_rate / READ_PER_WRITE  # a prior until this model has written an answer
        eta = None
        if read_rate and write_rate:
            to_write = max(EXPECTED_TOKENS - run.written, 0)
            eta = round((total - run.read) / read_rate + to_write / write_rate, 1)
        return GenerationProgress(phase, run.read, total, run.written, self.answer_tokens, eta)

    def _record(self, run: _Run) -> None:
        read = run.read - run.cached
        self.last_run = {
            "prompt_tokens": len(run.prompt.tokens),
            "read_tokens": read,
            "read_s": round(run.read_s, 3),
            "written_tokens": run.written,
            "write_s": round(run.write_s, 3),
        }
        self.rates.add(read, run.read_s, run.written, run.write_s)
