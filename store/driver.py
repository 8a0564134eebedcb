"""Core write statements handed to the driver's ``executemany`` as SQL text.

``Connection.execute`` with a Core statement and many rows runs SQLAlchemy's per-row parameter
work for every row: it builds a parameter dict for each bind of each row and passes each value
through its type's bind processor. A step's rows are plain strings and numbers, which the drivers
take as they are, and a timestamp that is the same for every row of a batch (the time of the
append). :class:`DriverStatement` compiles a Core statement once for one dialect (its SQL text in
the dialect's own paramstyle and casts) and runs it with ``Connection.exec_driver_sql``: values
shared by every row are converted once per call, with the very bind processor Core would have
used, so the driver receives exactly what Core would have given it.

The caller gives each row as a dict, by bind name. A driver whose paramstyle names its parameters
(PostgreSQL's pyformat) takes the dicts as they are; one with a positional paramstyle (SQLite's
``?``) gets each row as a tuple in the compiled statement's order of binds (binding by name would
cost SQLite's driver a name look-up for every value).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy import Connection, CursorResult
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.dml import UpdateBase


class DriverStatement:
    """``statement`` compiled for ``dialect``, run as SQL text on the driver with many rows.

    ``columns``: for an INSERT, the columns each row gives (as ``Insert.values`` would name them).
    ``shared``: the binds whose value is the same in every row of a call (given to
    :meth:`execute` once, not in each row)."""

    def __init__(self, statement: UpdateBase, dialect: Dialect, *, shared: Sequence[str],
                 columns: Sequence[str] | None = None):
        compiled = statement.compile(dialect=dialect,
                                     column_keys=None if columns is None else list(columns))
        self.text = compiled.string
        processors: dict[str, Callable[[Any], Any]] = {}
        for name, bind in compiled.binds.items():
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                processors[name] = processor
        self._shared = {name: processors.get(name) for name in shared}
        missing = set(self._shared) - set(compiled.binds)
        if missing:
            raise ValueError(f"no such bind in the statement: {sorted(missing)}")
        self._per_row = [(name, p) for name, p in processors.items() if name not in self._shared]
        order = compiled.positiontup if compiled.positional else None
        self._positional: Callable[[dict[str, Any]], tuple[Any, ...]] | None = (
            None if order is None else _tuple_of(order))

    def execute(self, conn: Connection, rows: Sequence[dict[str, Any]],
                shared: Mapping[str, Any]) -> CursorResult[Any]:
        """Run the statement once per row (one ``executemany``); ``shared``: the values of the
        shared binds. The rows are the caller's fresh dicts: they receive the shared values."""
        values = {name: value if (p := self._shared[name]) is None else p(value)
                  for name, value in shared.items()}
        for row in rows:
            row.update(values)
            for name, processor in self._per_row:
                row[name] = processor(row[name])
        if self._positional is None:
            return conn.exec_driver_sql(self.text, list(rows))
        return conn.exec_driver_sql(self.text, list(map(self._positional, rows)))


def _tuple_of(names: Sequence[str]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """A row's values in the order of ``names`` (``itemgetter`` gives a bare value for one name)."""
    if len(names) == 1:
        name = names[0]
        return lambda row: (row[name],)
    getter: Callable[[dict[str, Any]], tuple[Any, ...]] = itemgetter(*names)
    return getter
