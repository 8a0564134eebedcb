"""Chain format 1's stored text (store/codec.py) and link (store/chain.py) never change.

The chain hashes the stored text, so one differing byte would change every head from that event
on and make existing logs fail verification. The text must be exactly the standard library's
``json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)``,
and a known event must hash to the value format 1 has always given it.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from store.chain import CHAIN_FORMAT, GENESIS, UnknownChainFormat, link
from store.codec import canonical_json, parse_json
from tests.databases import sqlite_pass_only

pytestmark = sqlite_pass_only("no database")


def _dumps(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


REPRESENTATIVE: list[object] = [
    {"note": "Zoë — naïve café ✓ 日本語 \u2028 \U0001f600", "quote": "\"\\/\n\t\x00\x1f"},
    [0.1, 1e-07, 1e16, -0.0, 0.0, 2.5, 1e-05, 0.0001, 123456789.125, 0.30000000000000004,
     1.7976931348623157e308, 5e-324, -2.5e-07, 1e22, 9007199254740993.0],
    {"big": 2**64 + 1, "max64": 2**63 - 1, "neg": -(10**25), "zero": 0, "bools": [True, False, None]},
    {"nested": {"b": [{"z": 1, "a": [[], {}]}], "a": {"z": "", "y": []}}, "": "empty key"},
    ("a tuple", 1),
    "just a string",
    42,
]


@pytest.mark.parametrize("data", REPRESENTATIVE)
def test_the_text_is_the_standard_librarys_canonical_json(data: object) -> None:
    assert canonical_json(data) == _dumps(data)
    assert parse_json(canonical_json(data)) == json.loads(_dumps(data))


@pytest.mark.parametrize("data", [float("nan"), {"x": float("inf")}, [float("-inf")], {1j: 1}, {"s": {1, 2}}])
def test_what_json_cannot_hold_is_refused(data: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        canonical_json(data)


scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
           | st.text())
payloads = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(payloads)
def test_generated_payloads_round_trip_and_match_json_dumps(data: object) -> None:
    text = canonical_json(data)
    assert text == _dumps(data)
    assert canonical_json(parse_json(text)) == text  # reading and writing again changes no byte


def test_big_integers_read_back_exactly() -> None:
    text = canonical_json({"seed": 2**63 - 1, "big": 10**30, "neg": -(10**25)})
    assert parse_json(text) == {"seed": 2**63 - 1, "big": 10**30, "neg": -(10**25)}
    assert type(parse_json(text)["big"]) is int


# Recorded from chain format 1 as written by the code before this module's orjson path was removed
# (commit 736990b): the text of this payload and the hashes of two events linked from GENESIS. If
# either changes, existing logs no longer verify.
KNOWN_PAYLOAD = {"task_id": "task_easy_password", "seed": 7, "note": "Zoë — naïve café ✓ 日本語 \u2028",
                 "floats": [0.1, 1e-07, 1e16, -0.0, 2.5, 1e-05, 123456789.125, 0.30000000000000004],
                 "big": 2**64 + 1, "neg": -(10**25),
                 "nested": {"b": [True, False, None], "a": {"z": "", "y": []}}, "quote": "\"\\/\n\t"}
KNOWN_TEXT = ('{"big":18446744073709551617,"floats":[0.1,1e-07,1e+16,-0.0,2.5,1e-05,123456789.125,'
              '0.30000000000000004],"neg":-10000000000000000000000000,"nested":{"a":{"y":[],"z":""},'
              '"b":[true,false,null]},"note":"Zoë — naïve café ✓ 日本語 \u2028","quote":"\\"\\\\/\\n\\t",'
              '"seed":7,"task_id":"task_easy_password"}')
KNOWN_FIRST = "3a256305034acc24ebeb2413291e7a2359c4b83efdd0b16659716952ef543280"
KNOWN_SECOND = "72a792648d30df7812340a12342413116ca1850b0da15b6ebf66a6d78f16ed1e"


def test_a_known_event_hashes_as_format_1_always_did() -> None:
    assert CHAIN_FORMAT == 1
    assert canonical_json(KNOWN_PAYLOAD) == KNOWN_TEXT
    first = link(GENESIS, 1, "EpisodeStarted", 1, KNOWN_TEXT, 1)
    second = link(first, 2, "ActionReceived", 2,
                  canonical_json({"step": 1, "action": {"action_type": "noop"}}), 1)
    assert (first, second) == (KNOWN_FIRST, KNOWN_SECOND)


def test_an_unknown_chain_format_is_refused_by_name() -> None:
    with pytest.raises(UnknownChainFormat, match="format 2, which this version of TicketLedger cannot"):
        link(GENESIS, 1, "EpisodeStarted", 1, KNOWN_TEXT, 2)
