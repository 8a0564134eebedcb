"""The id rule (``domain.ids``): whole-string, never '.' or '..', and defined once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.ids import ID, ID_SCHEMA_PATTERN, id_rule, is_id

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("value", ["a", "ep_0123abcd", "task:7", "a.b-c_d", "...", ".a", "a" * 64])
def test_ids_that_follow_the_rule(value: str) -> None:
    assert is_id(value) and ID.match(value) and ID.fullmatch(value)
    assert re.fullmatch(ID_SCHEMA_PATTERN.replace("$", r"\Z"), value)


@pytest.mark.parametrize("value", ["", "ep_1\n", "ep_1\r\n", "\nep_1", ".", "..", "a" * 65, "a b",
                                   "ép", "ep\x00", "a/b", "a\\b", 7, None, b"ep_1"])
def test_ids_that_break_it(value: object) -> None:
    assert not is_id(value)
    if isinstance(value, str):
        assert not ID.match(value), "match and fullmatch are the same check"


def test_the_message_names_the_id_and_says_what_to_send() -> None:
    assert id_rule("run_id") == "run_id must be 1-64 characters of letters, digits, '_', '-', '.', ':'"
    assert "directory" in id_rule("episode_id", "..")


def test_the_rule_is_written_once() -> None:
    """Every other module imports ``domain.ids``; no second copy of the character class drifts."""
    copies = [path.relative_to(ROOT).as_posix() for path in ROOT.glob("[a-z]*/**/*.py")
              if ".venv" not in path.parts and "tests" not in path.parts
              and "A-Za-z0-9_.:-" in path.read_text(encoding="utf-8")]
    assert copies == ["domain/ids.py"], copies
