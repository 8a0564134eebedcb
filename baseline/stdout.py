"""The stdout contract: ``[START]``, ``[STEP]`` and ``[END]`` lines, nothing else, never interleaved.

Every value is made single-line here (the SupportOps seed let newlines from exception texts into
``error=``). The printed score is clamped to [0.01, 0.99] because the hackathon's evaluator rejects
exactly 0 and 1; the log and the run record keep the exact score.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Sequence
from typing import Any, TextIO

from support.terminal import detach_stdout

SCORE_FLOOR = 0.01
SCORE_CEILING = 0.99
MAX_ERROR_CHARS = 500
_WHITESPACE = re.compile(r"\s+")  # includes \r, \n, \v, \f and unicode line separators
_LOCK = threading.Lock()


def one_line(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """Collapse every kind of line break and run of whitespace into one space; cut to ``limit``."""
    flat = _WHITESPACE.sub(" ", "".join(ch if ch.isprintable() else " " for ch in str(text))).strip()
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _token(value: str) -> str:
    """A field value that must not contain spaces (task id, model name)."""
    return one_line(value, 200).replace(" ", "_") or "-"


def two_decimals(value: float) -> str:
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def printed_score(score: float) -> str:
    """The score as printed: clamped into [0.01, 0.99] so it is strictly between 0 and 1."""
    return two_decimals(min(SCORE_CEILING, max(SCORE_FLOOR, score)))


def compact_action(action: Any) -> str:
    """One-line JSON; ASCII-escaped so no unicode line separator survives."""
    return json.dumps(action, separators=(",", ":"), ensure_ascii=True, sort_keys=False, default=str)


def start_line(task_id: str, benchmark: str, model: str) -> str:
    return f"[START] task={_token(task_id)} env={_token(benchmark)} model={_token(model)}"


def step_line(step: int, action: Any, reward: float, done: bool, error: str | None) -> str:
    err = one_line(error) if error else "null"
    return (f"[STEP] step={step} action={compact_action(action)} reward={two_decimals(reward)} "
            f"done={'true' if done else 'false'} error={err or 'null'}")


def end_line(success: bool, steps: int, score: float, rewards: Sequence[float]) -> str:
    return (f"[END] success={'true' if success else 'false'} steps={steps} "
            f"score={printed_score(score)} rewards={','.join(two_decimals(r) for r in rewards)}")


class Block:
    """One episode's lines. Streamed line by line when episodes run one at a time; buffered and
    written whole under a lock when several run at once, so blocks never interleave."""

    def __init__(self, *, buffered: bool, stream: TextIO | None = None):
        self._buffered = buffered
        self._stream = stream
        self._lines: list[str] = []
        self.ended = False

    def emit(self, line: str) -> None:
        if _CLOSED.is_set():  # a buffered block learns it here, before playing on for nothing
            raise StdoutClosed
        if self._buffered:
            self._lines.append(line)
        else:
            _write([line], self._stream)

    def start(self, task_id: str, benchmark: str, model: str) -> None:
        self.emit(start_line(task_id, benchmark, model))

    def step(self, step: int, action: Any, reward: float, done: bool, error: str | None) -> None:
        self.emit(step_line(step, action, reward, done, error))

    def end(self, success: bool, steps: int, score: float, rewards: Sequence[float]) -> None:
        """Write ``[END]`` (once) and flush the block."""
        if self.ended:
            return
        self.ended = True
        self.emit(end_line(success, steps, score, rewards))
        if self._buffered:
            _write(self._lines, self._stream)
            self._lines = []


class StdoutClosed(BaseException):
    """Stdout's reader went away (``python inference.py | head``): the run stops as on Ctrl-C.

    A BaseException, so that the runner's per-episode ``except Exception`` does not take it for an
    episode that failed and carry on with the next one."""


_CLOSED = threading.Event()


def _write(lines: Sequence[str], stream: TextIO | None) -> None:
    out = stream or sys.stdout
    with _LOCK:
        if _CLOSED.is_set():
            raise StdoutClosed
        try:
            out.write("".join(line + "\n" for line in lines))
            out.flush()
        except BrokenPipeError:
            _CLOSED.set()
            if out is sys.stdout:
                detach_stdout()
            raise StdoutClosed from None
