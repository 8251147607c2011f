"""When the agent backs up: incrementals on the office network, one snapshot a night."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from orbitkeep.config import AgentConfig


def on_office_network(ssid: str | None, office_ssids: set[str]) -> bool:
    return ssid is not None and ssid in office_ssids


def next_incremental(last: datetime, config: AgentConfig) -> datetime:
    """Incrementals run every `incremental_minutes` after the last one finished."""
    return last + timedelta(minutes=config.incremental_minutes)


def next_snapshot(now: datetime, config: AgentConfig) -> datetime:
    """The nightly snapshot runs at `snapshot_time`; a missed one runs at the next wake-up."""
    hour, minute = (int(part) for part in config.snapshot_time.split(":"))
    today = datetime.combine(now.date(), time(hour, minute))
    return today if now <= today else today + timedelta(days=1)
