"""A progress bar on stderr for long commands (verify, regrade), drawn only on a terminal.

Off a terminal (CI logs, pipes) it stays silent so that stderr is not flooded with redraws; the
command's summary says what happened either way.
"""

from __future__ import annotations

import sys
from typing import Any


class ProgressBar:
    def __init__(self, label: str, stream: Any = None, width: int = 30):
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._drawn = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        filled = self.width * done // total if total else self.width
        if filled == self._drawn and done != total:
            return
        self._drawn = filled
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
