"""Reports that list episodes, printed without holding the list: a whole-log ``verify`` or
``regrade`` may name every episode of the log (a grader that now scores differently fails or moves
them all), so the command line collects those entries in a temporary file as the service finds
them and streams them back when it prints.

:func:`dump` writes exactly what ``json.dumps(report, indent=2, ensure_ascii=False)`` would, with
each :class:`Spool` in the report written as the list it holds: ``--json`` stays byte for byte
the REST route's answer.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from types import TracebackType
from typing import IO, Any


class Spool:
    """JSON objects appended to a temporary file (deleted on close) and read back in order."""

    def __init__(self) -> None:
        self._file: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed by __exit__)
        self.count = 0

    def append(self, item: dict[str, Any], /) -> None:
        self._file.write(json.dumps(item, ensure_ascii=False) + "\n")
        self.count += 1

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self._file.flush()
        self._file.seek(0)
        for line in self._file:
            yield json.loads(line)
        self._file.seek(0, 2)  # appends go on at the end

    def __len__(self) -> int:
        return self.count

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._file.close()


def _indented(value: Any, depth: int) -> str:
    """``value`` as ``json.dumps(..., indent=2)`` writes it ``depth`` levels down."""
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * depth)


def dump(report: dict[str, Any], out: IO[str]) -> None:
    """``print(json.dumps(report, indent=2, ensure_ascii=False), file=out)``, each top-level
    :class:`Spool` streamed from its file."""
    if not report:
        out.write("{}\n")
        return
    out.write("{")
    for n, (key, value) in enumerate(report.items()):
        out.write(("," if n else "") + "\n  " + json.dumps(key, ensure_ascii=False) + ": ")
        if not isinstance(value, Spool):
            out.write(_indented(value, 1))
        elif not value.count:
            out.write("[]")
        else:
            for i, item in enumerate(value):
                out.write(("," if i else "[") + "\n    " + _indented(item, 2))
            out.write("\n  ]")
    out.write("\n}\n")
