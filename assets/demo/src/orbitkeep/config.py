"""Agent configuration: defaults, and how a config file overrides them."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

DEFAULT_PORT = 7421
DEFAULT_CACHE_MB = 200


@dataclass(frozen=True)
class AgentConfig:
    box_host: str = "orbitkeep.local"
    port: int = DEFAULT_PORT
    cache_mb: int = DEFAULT_CACHE_MB
    incremental_minutes: int = 15
    snapshot_time: str = "01:30"
    version_days: int = 30
    exclude: tuple[str, ...] = ("*.tmp", "~$*", "node_modules/", ".cache/")


def load_config(path: Path) -> AgentConfig:
    """Read agent.json; unknown keys are an error so typos do not go unnoticed."""
    data = json.loads(path.read_text(encoding="utf-8"))
    known = set(AgentConfig.__dataclass_fields__)
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"unknown keys in {path.name}: {', '.join(sorted(unknown))}")
    if "exclude" in data:
        data["exclude"] = tuple(data["exclude"])
    return replace(AgentConfig(), **data)
