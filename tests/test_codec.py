"""The fast codec writes and reads exactly what the standard library would (store/codec.py).

The chain hashes the stored text, so a single differing byte would change every head; these tests
compare the two byte for byte on generated payloads, including the cases orjson handles differently
(small floats, NaN, big integers, non-string keys, lone surrogates).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from store.codec import canonical_json, parse_json
from tests.databases import sqlite_pass_only

pytestmark = sqlite_pass_only("no database")

STDLIB = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
           | st.text())
payloads = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def _stdlib(data: object) -> tuple[str, str | None]:
    try:
        return "ok", STDLIB.encode(data)
    except (TypeError, ValueError) as exc:
        return "error", type(exc).__name__


def _fast(data: object) -> tuple[str, str | None]:
    try:
        return "ok", canonical_json(data)
    except (TypeError, ValueError) as exc:
        return "error", type(exc).__name__


@settings(max_examples=600, deadline=None)
@given(payloads)
def test_encoding_matches_the_standard_library_byte_for_byte(data: object) -> None:
    assert _fast(data) == _stdlib(data)


@settings(max_examples=600, deadline=None)
@given(payloads)
def test_decoding_matches_the_standard_library(data: object) -> None:
    kind, text = _stdlib(data)
    if kind != "ok" or text is None:
        return
    parsed = parse_json(text)
    assert parsed == json.loads(text) or repr(parsed) == repr(json.loads(text))  # NaN-free, -0.0
    assert _types(parsed) == _types(json.loads(text))


def _types(value: object) -> object:
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return type(value).__name__


@pytest.mark.parametrize("data", [1e-05, [2.5e-07], {"x": -3e-05}, 10**30, {"n": -(2**70)},
                                  {1: "a"}, {"a": float("nan")}, [float("inf")], "\ud800",
                                  {"k": [None, 0.0001, 1e16, 1e-300]}])
def test_the_cases_where_orjson_differs(data: object) -> None:
    assert _fast(data) == _stdlib(data)


def test_big_integers_read_back_exactly() -> None:
    text = canonical_json({"seed": 2**63 - 1, "big": 10**30, "neg": -(10**25)})
    assert parse_json(text) == {"seed": 2**63 - 1, "big": 10**30, "neg": -(10**25)}
    assert type(parse_json(text)["big"]) is int


def test_orjson_writes_repr_in_the_range_the_codec_trusts_it() -> None:
    """The codec sends a payload to orjson only when every float is 0 or has 1e-4 <= |x| < 1e16;
    the premise, on random bit patterns of that range and on its edges, for the orjson installed."""
    import math
    import random
    import struct

    import orjson

    rng = random.Random(6)
    edges = [1e-4, -1e-4, math.nextafter(1e16, 0), 0.0, -0.0, 0.1, 123456789012345.6]
    samples = edges + [struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
                       for _ in range(100_000)]
    samples += [rng.choice((1, -1)) * 10 ** rng.uniform(-4, 16) for _ in range(100_000)]
    trusted = [x for x in samples if x == 0.0 or 1e-4 <= abs(x) < 1e16]
    assert len(trusted) > 10_000
    assert [x for x in trusted if orjson.dumps(x) != repr(x).encode()] == []
    outside = [math.nextafter(1e-4, 0), 1e16, 5e-324, 1e300, 2.5e-07, float("nan"), float("-inf")]
    for x in outside:  # the walk sends these to json, which writes repr or refuses
        assert _fast([x]) == _stdlib([x])
