"""The JSON text events are stored and hashed as: sorted keys, no spaces, UTF-8, finite numbers.

The text is the standard library's (``json`` with ``sort_keys``, compact separators,
``ensure_ascii=False``, ``allow_nan=False``) byte for byte; it was the chain's format from the
first release, and changing it would change every chain head. Encoding and decoding it were the
largest CPU cost of a step and of a replay, so both go through ``orjson`` (13x faster to encode,
3x to decode on event payloads), and fall back to ``json`` wherever the two could differ:

* encoding: orjson refuses (big integers, non-string keys, subclasses, lone surrogates), writes a
  float below 1e-4 positionally or with a one-digit exponent (``0.00001``, ``2.5e-7`` where
  ``repr`` says ``1e-05``, ``2.5e-07``), or writes ``null``,
  which is also what it makes of NaN and infinities (the standard library refuses those);
* decoding: orjson refuses, or the text holds a run of 19+ digits (orjson reads integers beyond
  64 bits as floats; ``json`` keeps them exact).

The fallbacks are checked on the output bytes, so the common payload pays for one ``bytes``
search. ``tests/test_codec.py`` checks the equivalence on generated payloads.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

_STDLIB = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                           allow_nan=False)
_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS
            | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME)
_SHORT_EXPONENT = re.compile(rb"e[-+][0-9](?![0-9])")  # repr always writes two digits or more
_DIGIT_MAP = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))  # digits -> "0", else " "
_LONG_RUN = b"0" * 19


def _refuse(value: Any) -> Any:
    """orjson's ``default`` hook: anything it does not encode natively goes to the stdlib path."""
    raise TypeError


def _finite(value: Any) -> bool:
    """No NaN or infinity anywhere in ``value`` (orjson writes them as ``null``)."""
    kind = type(value)
    if kind is dict:
        value = value.values()
    elif kind is not list and kind is not tuple:
        return kind is not float or math.isfinite(value)
    for item in value:
        kind = type(item)
        if kind is float:
            if not math.isfinite(item):
                return False
        elif (kind is dict or kind is list or kind is tuple) and not _finite(item):
            return False
    return True


def canonical_json(data: Any) -> str:
    """The exact text that is stored and hashed (raises ``TypeError``/``ValueError`` when the data
    is not storable JSON, as ``json`` does)."""
    try:
        out = orjson.dumps(data, default=_refuse, option=_OPTIONS)
    except TypeError:
        return _STDLIB.encode(data)
    if b"0.0000" in out or _SHORT_EXPONENT.search(out) or (b"null" in out and not _finite(data)):
        return _STDLIB.encode(data)
    return out.decode()


def parse_json(text: str) -> Any:
    """Parse stored text exactly as ``json.loads`` would."""
    if _LONG_RUN not in text.encode().translate(_DIGIT_MAP):  # 3x faster than a regex search
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)
