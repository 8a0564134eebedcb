"""The JSON text events are stored and hashed as in chain format 1 (see ``store.chain``).

Sorted keys, no spaces, UTF-8 as it is (``ensure_ascii=False``), finite numbers only: exactly
``json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)``,
the chain's text from the first release. The chain hashes it, so it may never change: a different
text would be a new chain format, recorded per episode beside this one.
"""

from __future__ import annotations

import json
from typing import Any

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            allow_nan=False)


def canonical_json(data: Any) -> str:
    """The exact text that is stored and hashed. Raises ``TypeError`` for what JSON cannot hold
    and ``ValueError`` for NaN and infinities, so nothing unstorable is ever written."""
    return _ENCODER.encode(data)


def parse_json(text: str) -> Any:
    """Parse stored text (big integers stay exact ``int``; floats read back as written)."""
    return json.loads(text)
