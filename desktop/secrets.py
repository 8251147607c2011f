"""The Claude API key lives in the system keyring, never in settings.json. keyring is optional."""

from __future__ import annotations

import importlib
from types import ModuleType

from engine.errors import CiteError, MissingDependency

SERVICE = "citeline"
ACCOUNT = "anthropic"  # must match engine.backends.claude.KEYRING_USER (a test checks)


def _keyring() -> ModuleType:
    try:
        return importlib.import_module("keyring")
    except ImportError as exc:
        raise MissingDependency("keyring", "claude") from exc


def keyring_available() -> bool:
    try:
        _keyring()
    except MissingDependency:
        return False
    return True


def store_key(key: str) -> None:
    """Save (or, with an empty key, delete) the key. Blocking: call it from a worker."""
    keyring = _keyring()
    try:
        if key:
            keyring.set_password(SERVICE, ACCOUNT, key)
        else:
            keyring.delete_password(SERVICE, ACCOUNT)
    except Exception as exc:  # keyring backends raise their own types (no backend, locked, denied)
        raise CiteError(
            f"The system keyring refused the key: {exc}",
            "unlock the keyring, or set ANTHROPIC_API_KEY in the environment instead",
        ) from exc


def has_key() -> bool:
    try:
        return bool(_keyring().get_password(SERVICE, ACCOUNT))
    except Exception:  # no usable backend: same as no key
        return False
