"""The one rule for the ids a client may choose: episode ids and run ids.

An id is 1-64 characters of ASCII letters, digits, ``_``, ``-``, ``.`` and ``:``, and not ``.``
or ``..``. It is checked as a whole: Python's ``$`` also matches before a trailing newline, so
``^...$`` with ``re.match`` let ``"ep_1\\n"`` in, and such an id broke the heads file (one line per
episode) and reached the database. ``.`` and ``..`` are refused because ids end up in file names
and paths (exports, heads files, URLs). Every place that takes an id checks it here: the service's
reset, step and state, the audit views and their cursors, fork, the API's ``run_id`` and the
audit filters.
"""

from __future__ import annotations

import re

ID_CHARS = "1-64 characters of letters, digits, '_', '-', '.', ':'"
"""What an id is made of, in the words every error message has used since v1 (the golden wire
recordings hold them)."""

ID = re.compile(r"(?!\.\.?\Z)[A-Za-z0-9_.:-]{1,64}\Z")
"""A whole id. ``\\Z`` (not ``$``) is the very end of the string, so ``ID.match`` and
``ID.fullmatch`` are the same check and neither accepts a trailing newline."""

ID_SCHEMA_PATTERN = r"^(?!\.\.?$)[A-Za-z0-9_.:-]{1,64}$"
"""The same rule for JSON Schema (ECMA-262 regular expressions, where ``$`` is the end of the
input), as ``/docs``, ``/schema`` and MCP's ``tools/list`` show it."""


def is_id(value: object) -> bool:
    """Whether ``value`` is a string that follows the id rule."""
    return isinstance(value, str) and ID.match(value) is not None


def id_rule(name: str, value: object = None) -> str:
    """The sentence an error gives for ``value``, a malformed id called ``name``."""
    if value in (".", ".."):
        return f"{name} cannot be {value!r}, which names a directory; add a letter or digit"
    return f"{name} must be {ID_CHARS}"
