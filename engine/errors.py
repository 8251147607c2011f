"""One exception root. Every error carries a message for the user and a hint that names the fix."""

from __future__ import annotations


class CiteError(Exception):
    """Root of every error Citeline shows to a user. The UI and CLI print message and hint, never a trace."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class Cancelled(CiteError):
    """A long job was cancelled by the user."""

    def __init__(self, message: str = "Cancelled.") -> None:
        super().__init__(message)


class MissingModel(CiteError):
    """A model file is absent or fails its checksum."""


class MissingDependency(CiteError):
    """An optional Python package is not installed."""

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"The optional package '{package}' is not installed.",
            f"install it with: pip install 'citeline[{extra}]'",
        )
        self.package = package
        self.extra = extra


class ExtractError(CiteError):
    """A file could not be read as text (corrupt, encrypted, unsupported)."""
