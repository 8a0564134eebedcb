"""The one redaction of upstream text: keys, tokens and Authorization values never recorded."""

from __future__ import annotations

import pytest

from domain.redaction import MASK, redact

KEY = "zz-custom-key-4f9a1c"
"""A key of no recognisable shape: only knowing it finds it."""


@pytest.mark.parametrize(("text", "secret"), [
    ("Authorization: Bearer tok_live_9f8e7d6c", "tok_live_9f8e7d6c"),
    ("headers={'authorization': 'Bearer abc.def.ghi'}", "abc.def.ghi"),
    ('{"Authorization":"Basic dXNlcjpwYXNz"}', "dXNlcjpwYXNz"),
    ("proxy-authorization=Digest q1w2e3r4t5", "q1w2e3r4t5"),
    ('{"api_key": "k-123456789"}', "k-123456789"),
    ("GET /v1/models?api-key=abcdef123&x=1", "abcdef123"),
    ("x-api-key: 0123456789abcdef", "0123456789abcdef"),
    ("run_secret=s3cr3t-value", "s3cr3t-value"),
    ("password: hunter2hunter2", "hunter2hunter2"),
    ("token=eyJhbGciOiJIUzI1NiJ9", "eyJhbGciOiJIUzI1NiJ9"),
    ("then bearer Zm9vYmFyYmF6 was refused", "Zm9vYmFyYmF6"),
    ("Incorrect API key provided: sk-proj-AbCdEf1234567890.", "sk-proj-AbCdEf1234567890"),
    ("keys hf_abcdefghijkl and gsk_abcdefghijkl", "hf_abcdefghijkl"),
    ("keys hf_abcdefghijkl and gsk_abcdefghijkl", "gsk_abcdefghijkl"),
    ("aws AKIAABCDEFGHIJKLMNOP here", "AKIAABCDEFGHIJKLMNOP"),
    ("jwt eyJhbGciOi.eyJzdWIiOiIx.SflKxwRJSMeKKF2QT4", "eyJhbGciOi.eyJzdWIiOiIx.SflKxwRJSMeKKF2QT4"),
    ("retry at https://alice:pa55word@proxy.test/v1", "pa55word"),
    ("github ghp_abcdefghijklmnop1234", "ghp_abcdefghijklmnop1234"),
])
def test_a_secret_named_or_shaped_as_one_is_masked(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out and MASK in out


def test_a_known_key_is_masked_whatever_its_shape_and_before_the_patterns() -> None:
    text = f"the server said: {KEY} is not a valid key (key {KEY})"
    assert redact(text) == text  # nothing about it says secret
    assert redact(text, [KEY, None, ""]) == f"the server said: {MASK} is not a valid key (key {MASK})"


def test_names_and_schemes_stay_so_the_reason_still_reads() -> None:
    assert redact("http_401: Authorization: Bearer abcdef123456 rejected") == \
        f"http_401: Authorization: Bearer {MASK} rejected"
    assert redact('{"api_key": "abc12345"}') == f'{{"api_key": "{MASK}"}}'


@pytest.mark.parametrize("text", [
    "timeout: no answer within 0.5s",
    "malformed: 1 validation error for VerdictAnswer; answer began 'The reply looks fine'",
    "connection: Connection error.",
    "the reply asks for a password reset link; max_tokens 400",
    "omitted: the reply left out ORD-1234",
])
def test_ordinary_reasons_are_left_as_they_are(text: str) -> None:
    assert redact(text) == text


def test_short_known_values_are_not_masked_everywhere() -> None:
    assert redact("a key of abc", ["abc"]) == "a key of abc"
