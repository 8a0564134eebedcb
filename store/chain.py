"""The hash chain: each event commits to the previous one of its episode.

The hash covers the sequence number, type, version and the exact stored JSON text of the payload,
so changing one stored byte breaks the chain at that event. Episode id and timestamp are left out
on purpose: the same task, seed and actions give the same chain head in every run, which makes heads
comparable across machines (``verify --heads``).
"""

from __future__ import annotations

import hashlib

from store.codec import canonical_json

__all__ = ["GENESIS", "canonical_json", "link"]

GENESIS = "0" * 64


def link(prev_hash: str, seq: int, type_: str, version: int, data_text: str) -> str:
    blob = f"{prev_hash}|{seq}|{type_}|{version}|{data_text}".encode()
    return hashlib.sha256(blob).hexdigest()
