"""Every place the golden recordings touch TicketLedger's code, in one module.

The recordings are the safety net for refactors of the domain, graders, store and API, so they
reach the product only through public entry points that a refactor keeps (the environment service,
``open_database``, the ``ticketledger`` command line, the built-in policy, a real server), and
everything they hand back is plain JSON: observations, event payloads, rewards, scores. When a
refactor moves one of these entry points, the line to change is here, and nowhere else in
``tests/golden``.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

JSONDict = dict[str, Any]


# ------------------------------------------------------------------------------ the service
class Env:
    """The environment service on one database, speaking plain JSON."""

    def __init__(self, database_url: str):
        from service import EnvironmentService
        from store import open_database

        self._db = open_database(database_url)
        self._service = EnvironmentService(self._db)

    def close(self) -> None:
        self._db.dispose()

    @staticmethod
    def _out(result: Any) -> JSONDict:
        return {"observation": result.observation.model_dump(mode="json"), "reward": result.reward,
                "done": result.done, "score": result.score, "head_hash": result.head_hash}

    def reset(self, task_id: str | None, seed: int | None, episode_id: str,
              reward_mode: str = "dense") -> JSONDict:
        return self._out(self._service.reset(task_id, seed, episode_id, reward_mode=reward_mode))

    def step(self, episode_id: str, action: Any) -> JSONDict:
        """The step's result, or ``{"refused": message}`` when the service refuses the action
        without recording a step (a malformed action, an ended episode)."""
        from domain.actions import InvalidAction
        from service.errors import ServiceError

        try:
            return self._out(self._service.step(episode_id, action))
        except (InvalidAction, ServiceError) as exc:
            return {"refused": str(exc)}

    def events(self, episode_id: str) -> list[JSONDict]:
        """The episode's stored events: position, type, schema version, payload and chain link."""
        return [{"seq": r.seq, "type": r.type, "version": r.version, "data": r.data,
                 "prev_hash": r.prev_hash, "hash": r.hash}
                for r in self._service.load_events(episode_id)]

    def folded_state(self, episode_id: str) -> JSONDict:
        """The state folded from the log, as the audit view shows it (``GET
        /episodes/{id}/state``): public fields and the task's expected end state."""
        from service.audit_views import Auditor

        return Auditor(self._db).state(episode_id)


@contextmanager
def environment(database_url: str) -> Iterator[Env]:
    env = Env(database_url)
    try:
        yield env
    finally:
        env.close()


# ------------------------------------------------------------------------------- graders
def grader_version() -> str:
    """The grader new episodes record."""
    from graders.versions import CURRENT

    return CURRENT


def grader_versions() -> list[str]:
    """Every grader version the code can replay and re-grade episodes with."""
    from graders.versions import GRADERS

    return list(GRADERS)


def replay_recorded(events: list[JSONDict], episode_id: str) -> JSONDict:
    """``ticketledger replay`` of an episode given as recorded events (``seq``, ``type``,
    ``version``, ``data``, ``prev_hash``, ``hash``), without a database: each payload is stored
    as the store stores it (canonical JSON, chain format 1), so the chain check proves the
    events are the recorded bytes. The report as JSON."""
    import datetime as dt

    from domain.tasks import default_catalog
    from service.replay import replay
    from store.codec import canonical_json
    from store.eventstore import RecordedEvent

    when = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    recorded = [RecordedEvent(episode_id, e["seq"], e["type"], e["version"], canonical_json(e["data"]),
                              e["prev_hash"], e["hash"], when, 1) for e in events]
    return replay(recorded, default_catalog()).to_json()


# ------------------------------------------------------------------------------- catalog


def task_ids() -> list[str]:
    from domain.tasks import default_catalog

    return default_catalog().task_ids


def policy_action(observation: JSONDict) -> JSONDict:
    """What the built-in policy (``inference.py`` without an LLM) does on this observation."""
    from baseline.policy import BUILTIN_POLICY
    from domain.observation import Observation

    return BUILTIN_POLICY.act(Observation.model_validate(observation)).action


def scripted_actions(task_id: str, seed: int | None) -> list[JSONDict]:
    """The gold actions for a task variant (they read the answer key). Recorder only."""

    from domain.tasks import default_catalog
    from service.gold import gold

    return gold(default_catalog().instance(task_id, seed))


# ---------------------------------------------------------------------------- command line
def cli(*argv: str) -> tuple[int, str]:
    """Run ``ticketledger ARGV...`` in this process; its exit code and standard output."""
    from cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def cli_json(*argv: str) -> tuple[int, Any]:
    code, out = cli(*argv, "--json")
    return code, json.loads(out)


def cli_lines(*argv: str) -> tuple[int, list[Any]]:
    code, out = cli(*argv)
    return code, [json.loads(line) for line in out.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------- servers
@contextmanager
def server(database_url: str) -> Iterator[str]:
    """A real ``python -m server.app`` (uvicorn) on 127.0.0.1 with its own log; yields its URL."""
    from tests.servers import start_server

    with start_server(database_url) as live:
        yield live.url
