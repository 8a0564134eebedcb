"""Where a run's record lives: next to its episodes, so one database shows a run and its results.

In-process the runner's database (``DATABASE_URL``) holds both (:class:`LocalRecord`). With
``ENV_BASE_URL`` the episodes are in the server's log, so the run is recorded there too
(:class:`ServerRecord`): ``POST /runs`` creates it and hands out its secret, every reset sends the
secret (nobody else can file episodes under the run), and ``POST /runs/{id}/finish``
stores the summary at the end; ``GET /runs/{id}`` on the server (or ``ticketledger runs show``
on the server's database) shows the run with its episodes. ``DATABASE_URL`` is then not opened.
A server older than ``POST /runs`` gets the run recorded in ``DATABASE_URL`` as before, with one
line on stderr, and its episodes are sent with the run id alone (such servers file them so); so
does a server that cannot be reached (its episodes then fail, each printing its ``[END]``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from baseline.envs import Env
from baseline.remote import RemoteEnv, RemoteError


class RunRecord(Protocol):
    run_id: str
    where: str
    """Where the record is kept, for stderr."""

    def finish(self, summary: dict[str, Any], status: str) -> None: ...

    def close(self) -> None: ...


class LocalRecord:
    """The run in a database this process opened (``DATABASE_URL``)."""

    def __init__(self, db: Any, agent: str, config: dict[str, Any]):
        from store.runs import RunStore, new_run_id

        self.db = db
        self.runs = RunStore(db)
        self.run_id = new_run_id()
        # The secret is for clients of a server; episodes played in this process are filed directly.
        self.runs.start(self.run_id, agent, config)
        self.where = str(db.url)

    def finish(self, summary: dict[str, Any], status: str) -> None:
        self.runs.finish(self.run_id, summary, status=status)

    def close(self) -> None:
        self.db.dispose()


class ServerRecord:
    """The run on the server the episodes are played on (``POST /runs``)."""

    def __init__(self, env: RemoteEnv, run_id: str, log: Callable[[str], None]):
        self.env = env
        self.run_id = run_id
        self.log = log
        self.where = f"the server's database ({env.where}/runs/{run_id})"

    def finish(self, summary: dict[str, Any], status: str) -> None:
        try:
            self.env.finish_run(self.run_id, summary, status)
        except (RemoteError, OSError) as exc:
            self.log(f"could not store the run's summary on the server: {exc}")

    def close(self) -> None:
        """The connection belongs to the environment, which the runner closes."""


def start_record(env: Env, open_db: Callable[[], Any], agent: str, config: dict[str, Any],
                 log: Callable[[str], None]) -> RunRecord:
    """Record the run as started where its episodes will be (module docstring)."""
    if isinstance(env, RemoteEnv):
        try:
            run_id = env.open_run(agent, config)
        except (RemoteError, OSError) as exc:  # the episodes will fail alike, each with its [END]
            log(f"could not record the run on the server ({exc}); it is recorded in DATABASE_URL")
        else:
            if run_id is not None:
                return ServerRecord(env, run_id, log)
            log("the server has no POST /runs (an older server); the run is recorded in "
                "DATABASE_URL and its episodes are sent with run_id alone")
    return LocalRecord(open_db(), agent, config)
