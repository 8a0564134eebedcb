"""The hash chain: each event commits to the previous one of its episode.

The hash covers the sequence number, type, version and the exact stored JSON text of the payload,
so changing one stored byte breaks the chain at that event. Episode id and timestamp are left out
on purpose: the same task, seed and actions give the same chain head in every run, which makes heads
comparable across machines (``verify --heads``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              allow_nan=False)


def canonical_json(data: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text, no NaN: the exact text that is stored and hashed.

    One encoder built once (``json.dumps`` with options builds a new one on every call)."""
    return _CANONICAL.encode(data)


def link(prev_hash: str, seq: int, type_: str, version: int, data_text: str) -> str:
    blob = f"{prev_hash}|{seq}|{type_}|{version}|{data_text}".encode()
    return hashlib.sha256(blob).hexdigest()
