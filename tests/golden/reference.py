"""Reading a recorded version (``tests/golden/<version>/``) and saying where a replay departs from it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest

from tests.golden.changes import added_since_recorded, grown_by_customer_vocabulary, without_customer_items

HERE = Path(__file__).resolve().parent
MAX_REPORTED = 8
"""Differences listed per episode or conversation before the rest are only counted."""
NEWEST = max((p.name for p in HERE.glob("v*") if p.is_dir()), key=lambda name: int(name[1:]))
"""The version recorded with today's grader (the newest recording)."""
EVERY_RUN = frozenset({"v1", NEWEST})
"""The versions every ``pytest`` replays: the first (its grader retired, its episodes replayed from
their grades) and today's. The versions between them replay in the slow tier (``pytest -m slow``,
which ``.ci/run`` runs): each costs seconds of command-line runs and regrading, and together they
would hold the plain run over its five minutes."""


def tiered(version: str, *values: Any) -> Any:
    """A ``pytest.param`` of ``values`` (default: the version itself) for a test replaying
    ``version``, marked ``slow`` unless the version is one of :data:`EVERY_RUN`."""
    return pytest.param(*(values or (version,)), marks=() if version in EVERY_RUN else pytest.mark.slow)


class Recorded:
    """One version's files, read once."""

    def __init__(self, version: str):
        self.version = version
        self.path = HERE / version

    @cached_property
    def meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = json.loads((self.path / "meta.json").read_text(encoding="utf-8"))
        return meta

    @cached_property
    def episodes(self) -> list[dict[str, Any]]:
        """Every recorded episode; the files are split by player (each stays well under 2 MiB)."""
        out: list[dict[str, Any]] = []
        for path in sorted(self.path.glob("episodes-*.jsonl")):
            with path.open(encoding="utf-8") as lines:
                out.extend(json.loads(line) for line in lines if line.strip())
        return out

    def episode(self, name: str) -> dict[str, Any]:
        return next(e for e in self.episodes if e["name"] == name)

    @cached_property
    def conversations(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = json.loads((self.path / "wire.json").read_text(encoding="utf-8"))
        return found

    def log_sql(self) -> str:
        return (self.path / "log.sql").read_text(encoding="utf-8")


def differences(recorded: Any, now: Any, path: str = "") -> Iterator[str]:
    """Where ``now`` departs from ``recorded``: one line per differing leaf, with its path. A list
    or a string that goes on with the vocabulary the customer release appended, and a member added on purpose
    since the recording (the conversation, a step answer's ``grade``), are no departure
    (``changes.grown_by_customer_vocabulary``, ``changes.added_since_recorded``)."""
    if grown_by_customer_vocabulary(recorded, now) or _same_json_text(recorded, now):
        return
    if isinstance(recorded, dict) and isinstance(now, dict):
        for key in [*recorded, *(k for k in now if k not in recorded and not added_since_recorded(k))]:
            where = f"{path}.{key}" if path else str(key)
            if key not in now:
                yield f"{where}: recorded {_short(recorded[key])}, now absent"
            elif key not in recorded:
                yield f"{where}: not recorded, now {_short(now[key])}"
            else:
                yield from differences(recorded[key], now[key], where)
    elif isinstance(recorded, list) and isinstance(now, list):
        now = without_customer_items(recorded, now)
        for index in range(max(len(recorded), len(now))):
            where = f"{path}[{index}]"
            if index >= len(now):
                yield f"{where}: recorded {_short(recorded[index])}, now absent"
            elif index >= len(recorded):
                yield f"{where}: not recorded, now {_short(now[index])}"
            else:
                yield from differences(recorded[index], now[index], where)
    elif type(recorded) is not type(now) or recorded != now:
        yield f"{path}: recorded {_short(recorded)}, now {_short(now)}"


def report(name: str, recorded: Any, now: Any) -> str | None:
    """A short account of how ``now`` departs from ``recorded`` (None when it does not)."""
    found = list(differences(recorded, now))
    if not found:
        return None
    shown = "\n    ".join(found[:MAX_REPORTED])
    more = f"\n    ... and {len(found) - MAX_REPORTED} more" if len(found) > MAX_REPORTED else ""
    return f"{name}: {len(found)} difference(s)\n    {shown}{more}"


def _same_json_text(recorded: Any, now: Any) -> bool:
    """Whether two different strings are JSON texts of the same object but for what
    :func:`differences` forgives (an MCP tool result's text is the observation as JSON, so the
    vocabulary the customer release appended shows inside it)."""
    if not (isinstance(recorded, str) and isinstance(now, str) and recorded != now
            and recorded.startswith("{") and now.startswith("{")):
        return False
    try:
        before, after = json.loads(recorded), json.loads(now)
    except ValueError:
        return False
    return next(differences(before, after), None) is None


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + "..."
