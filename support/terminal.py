"""Output for people: aligned tables, colour only when stdout is a terminal."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

CLOSED_PIPE_EXIT = 128 + signal.SIGPIPE
"""The exit status of a program whose reader went away (``... | head``): what a shell reports for
one ended by SIGPIPE, as C programs and coreutils are (141)."""

COLOURS = {"green": "32", "red": "31", "yellow": "33", "bold": "1", "dim": "2"}


def use_colour(stream: Any = None) -> bool:
    stream = stream or sys.stdout
    return hasattr(stream, "isatty") and stream.isatty() and "NO_COLOR" not in os.environ


def colour(text: str, name: str, stream: Any = None) -> str:
    if not use_colour(stream):
        return text
    return f"\033[{COLOURS[name]}m{text}\033[0m"


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.1f}"
    return str(value).replace("\n", " ")


def print_table(rows: Sequence[dict[str, Any]], columns: Sequence[str], *, file: Any = None,
                max_width: int = 60) -> None:
    """Print ``rows`` as an aligned table with a header; long cells are cut with an ellipsis."""
    out = file or sys.stdout
    cells = [[_cell(r.get(c)) for c in columns] for r in rows]
    cells = [[c if len(c) <= max_width else c[: max_width - 1] + "…" for c in row] for row in cells]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    print("  ".join(c.upper().ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip(), file=out)
    for row in cells:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip(), file=out)


def detach_stdout() -> None:
    """After stdout's reader went away: point stdout at the null device, so that what is still
    buffered and the interpreter's last flush at exit have nowhere to fail (Python would otherwise
    print "Exception ignored ... BrokenPipeError" on the way out)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)
