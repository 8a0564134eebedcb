"""Core write statements handed to the driver's ``executemany`` as SQL text.

``Connection.execute`` with a Core statement and many rows runs SQLAlchemy's per-row parameter
work for every row: it builds a parameter dict for each bind of each row and passes each value
through its type's bind processor. A step's rows are plain strings and numbers, which the drivers
take as they are, and a timestamp that is the same for every row of a batch (the time of the
append). :class:`DriverStatement` compiles a Core statement once for one dialect (its SQL text in
the dialect's own paramstyle and casts) and runs it with ``Connection.exec_driver_sql``: values
shared by every row are converted once per call, with the very bind processor Core would have
used, so the driver receives exactly what Core would have given it.

Both backends take the rows as dicts: the store's SQLite engine uses the named paramstyle
(``store.engine``), PostgreSQL's drivers the pyformat one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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
        if not dialect.paramstyle.endswith(("named", "pyformat")):
            raise ValueError(f"{dialect.name}: rows are dicts, so the paramstyle must name its "
                             f"parameters (it is {dialect.paramstyle})")
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
        return conn.exec_driver_sql(self.text, list(rows))
