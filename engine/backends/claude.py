"""The optional Claude generator: the same JSON schema, enforced through a forced tool call.

Nothing leaves the machine unless the user picks this generator. The key comes from ANTHROPIC_API_KEY
or the OS keyring (service "citeline", user "anthropic"); it is never written to a plain file.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engine.backends.llama_cpp import raw_sentence
from engine.backends.packing import pack
from engine.backends.prompts import SCHEMA, SYSTEM, user_message
from engine.errors import CiteError, MissingDependency
from engine.events import Hit, RawSentence

KEYRING_SERVICE = "citeline"
KEYRING_USER = "anthropic"
CONTEXT_TOKENS = 6000


def api_key() -> str | None:
    key = os.environ.get("ANTHROPIC_API_KEY")
    if key:
        return key
    try:
        import keyring
    except ImportError:
        return None
    try:
        stored: str | None = keyring.get_password(KEYRING_SERVICE, KEYRING_USER)
    except Exception:  # no keyring backend on this system: same as no key
        return None
    return stored


def store_key(key: str) -> None:
    try:
        import keyring
    except ImportError as exc:
        raise MissingDependency("keyring", "claude") from exc
    keyring.set_password(KEYRING_SERVICE, KEYRING_USER, key)


class ClaudeGenerator:
    name = "claude"

    def __init__(self, model: str, client: Any = None, max_tokens: int = 1024) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self._client = client
        self._lock = threading.Lock()

    def client(self) -> Any:
        with self._lock:
            if self._client is None:
                try:
                    import anthropic
                except ImportError as exc:
                    raise MissingDependency("anthropic", "claude") from exc
                key = api_key()
                if not key:
                    raise CiteError(
                        "No Claude API key is set.",
                        "set ANTHROPIC_API_KEY or save a key in Settings (kept in the OS keyring)",
                    )
                self._client = anthropic.Anthropic(api_key=key, max_retries=1, timeout=60.0)
        return self._client

    def generate(
        self, question: str, evidence: Sequence[Hit], cancelled: Callable[[], bool]
    ) -> Iterator[RawSentence]:
        packed = pack(question, evidence, lambda t: len(t) // 4 + 1, CONTEXT_TOKENS, window_tokens=220)
        tool = {
            "name": "answer",
            "description": "Give the cited answer, or no sentences.",
            "input_schema": SCHEMA,
        }
        try:
            response = self.client().messages.create(
                model=self.model,
                max_tokens=self.max_tokens,
                system=SYSTEM,
                tools=[tool],
                tool_choice={"type": "tool", "name": "answer"},
                messages=[{"role": "user", "content": user_message(question, packed.windows)}],
            )
        except CiteError:
            raise
        except Exception as exc:
            raise CiteError(
                f"Claude could not be reached: {type(exc).__name__}: {exc}",
                "check the network and the API key, or switch to the local generator",
            ) from exc
        for block in response.content:
            if getattr(block, "type", "") == "tool_use" and not cancelled():
                payload: dict[str, Any] = dict(block.input)
                for obj in payload.get("sentences", []):
                    sentence = raw_sentence(obj, packed) if isinstance(obj, dict) else None
                    if sentence is not None:
                        yield sentence
