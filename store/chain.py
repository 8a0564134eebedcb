"""The hash chain: each event commits to the previous one of its episode.

The hash covers the sequence number, type, version and the exact stored JSON text of the payload,
so changing one stored byte breaks the chain at that event. Episode id and timestamp are left out
on purpose: the same task, seed and actions give the same chain head in every run, which makes heads
comparable across machines (``verify --heads``).

How a payload becomes stored text and how a link is computed together make a *chain format*. Each
episode records the format its chain was written in (``episodes.chain_format``, migration 0005), so
a verifier never has to guess, and a later format can be added beside the old ones without
rewriting a stored byte. There is one format:

* **1** (every episode so far): the text is ``store.codec.canonical_json`` (the standard library's
  sorted, compact, UTF-8 JSON) and a link is the SHA-256 hex digest of
  ``"{prev_hash}|{seq}|{type}|{version}|{text}"`` in UTF-8, starting from :data:`GENESIS`.

A second format would need appends to link with their episode's own format (today every append
links in :data:`CHAIN_FORMAT`, the only one there is).
"""

from __future__ import annotations

import hashlib

from store.codec import canonical_json
from store.errors import StoreError

__all__ = ["CHAIN_FORMAT", "CHAIN_FORMATS", "GENESIS", "UnknownChainFormat", "canonical_json",
           "link"]

GENESIS = "0" * 64

CHAIN_FORMAT = 1
"""The format new episodes are written in."""

CHAIN_FORMATS = frozenset({1})
"""Every format this code can verify."""


class UnknownChainFormat(StoreError):
    """An episode's chain was written in a format this code does not know: it cannot be checked
    (nor continued) here, only by a version of TicketLedger that knows the format."""

    def __init__(self, chain_format: int):
        known = ", ".join(str(f) for f in sorted(CHAIN_FORMATS))
        super().__init__(f"the episode's hash chain is in format {chain_format}, which this version "
                         f"of TicketLedger cannot check (it knows: {known}); verify it with a "
                         "version that knows that format")
        self.chain_format = chain_format


def link(prev_hash: str, seq: int, type_: str, version: int, data_text: str,
         chain_format: int = CHAIN_FORMAT) -> str:
    """The hash of one event in ``chain_format``; :class:`UnknownChainFormat` for a format this
    code does not know (a link is never computed by guessing)."""
    match chain_format:
        case 1:
            blob = f"{prev_hash}|{seq}|{type_}|{version}|{data_text}".encode()
            return hashlib.sha256(blob).hexdigest()
        case _:
            raise UnknownChainFormat(chain_format)
