"""JSON values that nobody can change: held as their canonical text."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypeAlias

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
JsonObject: TypeAlias = dict[str, JsonValue]

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            allow_nan=False)
"""The canonical form's encoder, configured once (``json.dumps`` with options builds a new one
on every call)."""


@dataclass(frozen=True, slots=True)
class JsonText:
    """A JSON value kept as text: sorted keys, no spaces, UTF-8, finite numbers (what the log
    stores). An action body arrives as arbitrary JSON and is recorded exactly as received; holding
    it as text means neither the caller that sent it nor a reader of the event can change it, and
    two bodies are equal when their JSON is.
    """

    text: str

    @classmethod
    def of(cls, value: object) -> JsonText:
        """The text of ``value``; ``TypeError`` or ``ValueError`` when it is not storable JSON (a
        non-finite number, a key or value JSON has no form for, a lone surrogate)."""
        text = _ENCODER.encode(value)
        text.encode("utf-8")  # a lone surrogate raises UnicodeEncodeError, a ValueError
        return cls(text)

    def value(self) -> JsonValue:
        """A fresh copy of the value (the caller's to keep or change)."""
        parsed: JsonValue = json.loads(self.text)
        return parsed
