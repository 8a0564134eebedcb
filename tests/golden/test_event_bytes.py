"""Every recorded event re-encodes to the bytes it was stored as.

The hash chain covers each payload's exact text (``store/chain.py``), so reading an event into its
class and writing it back must give the same text, byte for byte, or a fork, an export or a
re-recorded log would no longer match the chain that recorded it. The recordings of every version
(``tests/golden/v1`` .. ``v5``) are the evidence: the SQLite logs as they were stored (the text
read from the database, not re-serialised), and the events of the episode and wire recordings,
whose text is proved to be the stored one by recomputing its chain link.

An event of an older schema version (``StepGraded`` v1, ``EpisodeStarted`` v1) is read through its
upcasters; what it writes back is the current version's payload, which must read back as the same
event and write the same bytes again.
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain import events as ev
from store.chain import link
from store.codec import canonical_json, parse_json
from tests.golden.reference import Recorded

VERSIONS = ("v1", "v2", "v3", "v4", "v5")
HEX64 = re.compile(r"[0-9a-f]{64}")
EVENT_KEYS = frozenset({"seq", "type", "version", "data", "prev_hash", "hash"})


def stored_rows(recorded: Recorded, directory: Path) -> list[tuple[str, int, str]]:
    """``(type, version, text)`` of every event in the version's log, loaded into an SQLite file."""
    connection = sqlite3.connect(directory / f"{recorded.version}.db")
    try:
        connection.executescript(recorded.log_sql())
        rows = connection.execute("SELECT type, version, data FROM events ORDER BY episode_id, seq")
        return [(str(t), int(v), str(d)) for t, v, d in rows]
    finally:
        connection.close()


def recorded_events(value: Any) -> Iterator[dict[str, Any]]:
    """Every event (a member with a sequence number, type, version, payload and chain link) found
    anywhere in a recording."""
    if isinstance(value, dict):
        if value.keys() >= EVENT_KEYS:
            yield value
        for member in value.values():
            yield from recorded_events(member)
    elif isinstance(value, list):
        for item in value:
            yield from recorded_events(item)


def rewrites_as_stored(type_: str, version: int, text: str) -> None:
    """Read the stored text into its event and write it back: the same bytes at the current
    version; at an older one, a current payload that reads back as the same event and writes the
    same bytes again."""
    event = ev.upcast(type_, version, parse_json(text))
    again = canonical_json(event.data)
    if version == event.version:
        assert again == text, f"{type_} v{version} re-encodes differently:\n{text}\n{again}"
    else:
        assert version < event.version
        assert ev.upcast(event.type, event.version, parse_json(again)) == event
        assert canonical_json(ev.upcast(event.type, event.version, parse_json(again)).data) == again


@pytest.mark.parametrize("version", VERSIONS)
def test_every_event_of_a_recorded_log_re_encodes_to_its_stored_bytes(
        version: str, tmp_path: Path) -> None:
    rows = stored_rows(Recorded(version), tmp_path)
    assert rows, f"the {version} log holds no events"
    for type_, event_version, text in rows:
        rewrites_as_stored(type_, event_version, text)


@pytest.mark.parametrize("version", VERSIONS)
def test_every_recorded_episode_and_wire_event_re_encodes_to_its_chained_bytes(version: str) -> None:
    recorded = Recorded(version)
    found = [*recorded_events(recorded.episodes), *recorded_events(recorded.conversations)]
    chained = 0
    for event in found:
        text = canonical_json(event["data"])
        if HEX64.fullmatch(event["hash"]) and HEX64.fullmatch(event["prev_hash"]):
            # the text is the stored one: it links to the recorded hash
            assert link(event["prev_hash"], event["seq"], event["type"], event["version"],
                        text) == event["hash"]
            chained += 1
        rewrites_as_stored(event["type"], event["version"], text)
    assert chained > len(found) // 2, "most recorded events carry a chain link to check"


def test_the_recordings_hold_most_event_types_in_every_stored_version() -> None:
    """What the recordings cover; the types they lack (customer conversation, tag removal, an LLM
    judge's verdict) are round-tripped in ``tests/domain/test_event_payloads.py``."""
    seen: Counter[tuple[str, int]] = Counter()
    for version in VERSIONS:
        recorded = Recorded(version)
        for event in recorded_events([recorded.episodes, recorded.conversations]):
            seen[(event["type"], event["version"])] += 1
    assert {t for t, _ in seen} >= {cls.type for cls in ev.EVENT_TYPES} - {
        "TagRemoved", "CustomerMessaged", "CustomerReplied", "ReplyJudged"}
    assert seen[("StepGraded", 1)] and seen[("EpisodeStarted", 1)]  # older versions, upcast
