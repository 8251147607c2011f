"""Greedy decoding under a grammar, checking the grammar only where it matters.

llama-cpp-python's sampler chain applies the grammar to the whole vocabulary (151,936 tokens for Qwen)
before every greedy pick: each token's text is matched against the grammar's stacks, which cost the 1.5B
model ~30 % of its writing speed on 2 cores (README, "Local answers at desktop speed"). Greedy decoding
only needs the best token the grammar allows, so, as llama.cpp's own common sampler does, the best token
is offered to the grammar alone first and kept when it is allowed, which it nearly always is; only when
it is not are the next best offered, then the whole vocabulary. The token chosen is the same as with the
grammar applied first (the best allowed one), so the answers are the same, only sooner.
"""

from __future__ import annotations

import codecs
import ctypes
from collections.abc import Generator
from typing import Any

import numpy as np

NEXT_BEST = 32  # tokens offered one at a time, best first, before the grammar sees the whole vocabulary


class GrammarGreedy:
    """Greedy tokens of a loaded llama_cpp.Llama whose prompt has just been evaluated, each allowed by
    the grammar (a llama_cpp.LlamaGrammar). Yields the text of each token (UTF-8 across token
    boundaries kept whole); stops at an end-of-generation token, after `max_tokens`, or at the context's
    end."""

    def __init__(self, llm: Any, grammar: Any) -> None:
        import llama_cpp

        self.lib = llama_cpp
        self.llm = llm
        self.vocab = llm._model.vocab
        self.n_vocab = int(llama_cpp.llama_vocab_n_tokens(self.vocab))
        self.sampler = llama_cpp.llama_sampler_init_grammar(
            self.vocab, grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8")
        )
        if not self.sampler:
            raise RuntimeError("llama.cpp could not compile the answer grammar")
        self._one = (llama_cpp.llama_token_data * 1)()
        self._one_array = llama_cpp.llama_token_data_array(data=self._one, size=1, selected=-1, sorted=False)
        self.redirected = 0  # picks where the grammar refused the best token
        self.fallbacks = 0  # of those, picks that needed the whole vocabulary

    def close(self) -> None:
        if self.sampler:
            self.lib.llama_sampler_free(self.sampler)
            self.sampler = None

    def __enter__(self) -> GrammarGreedy:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def logits(self) -> np.ndarray:
        pointer = self.lib.llama_get_logits_ith(self.llm._ctx.ctx, -1)
        return np.ctypeslib.as_array(pointer, shape=(self.n_vocab,))

    def allowed(self, token: int) -> bool:
        self._one[0].id = token  # type: ignore[assignment]  # ctypes converts the int
        self._one[0].logit = 0.0
        self._one[0].p = 0.0
        self._one_array.size, self._one_array.selected, self._one_array.sorted = 1, -1, False
        self.lib.llama_sampler_apply(self.sampler, ctypes.byref(self._one_array))
        return bool(np.isfinite(self._one[0].logit))

    def pick(self, logits: np.ndarray) -> int:
        """The best token the grammar allows."""
        best = int(np.argmax(logits))  # ties: the lowest id, as llama.cpp's greedy sampler
        if self.allowed(best):
            return best
        self.redirected += 1
        order = np.argpartition(-logits, NEXT_BEST)[:NEXT_BEST]
        for token in order[np.lexsort((order, -logits[order]))]:  # best first, ties by id
            if int(token) != best and self.allowed(int(token)):
                return int(token)
        self.fallbacks += 1
        data = (self.lib.llama_token_data * self.n_vocab)()
        view = np.ctypeslib.as_array(data)
        view["id"] = np.arange(self.n_vocab, dtype=np.int32)
        view["logit"] = logits
        view["p"] = 0.0
        array = self.lib.llama_token_data_array(data=data, size=self.n_vocab, selected=-1, sorted=False)
        self.lib.llama_sampler_apply(self.sampler, ctypes.byref(array))
        masked = view["logit"][: array.size]
        if not np.isfinite(masked).any():
            raise RuntimeError("the answer grammar allows no token here")
        return int(view["id"][int(np.argmax(masked))])

    def piece(self, token: int) -> bytes:
        size = 64
        while True:
            buffer = ctypes.create_string_buffer(size)
            n = self.lib.llama_token_to_piece(self.vocab, token, buffer, size, 0, False)
            if n >= 0:
                return buffer.raw[:n]
            size = -n  # the piece needs this many bytes

    def advance(self, token: int) -> None:
        """Evaluate the chosen token, for the next one's logits."""
        self.llm.eval([token])

    def tokens(self, max_tokens: int) -> Generator[str, None, None]:
        llm = self.llm
        # bytes that are not UTF-8 are dropped, as llama-cpp-python drops them
        decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")
        for written in range(max_tokens):
            if llm.n_tokens >= llm.n_ctx():
                break
            token = self.pick(self.logits())
            if self.lib.llama_vocab_is_eog(self.vocab, token):
                break
            self.lib.llama_sampler_accept(self.sampler, token)
            text = decoder.decode(self.piece(token))
            if text:
                yield text  # before the token is evaluated: the caller sees it a decode sooner
            if written + 1 < max_tokens:
                self.advance(token)
        tail = decoder.decode(b"", final=True)
        if tail:
            yield tail
