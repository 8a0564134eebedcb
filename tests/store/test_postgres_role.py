"""PostgreSQL with the documented non-owner role for the application (docs/operations.md,
"Database hardening"; the grants are ``scripts/postgres-app-role.sql``, run here as written).

The owner migrates; a fresh role that owns nothing gets the script's grants; the application then
runs as that role (start-up, runs, resets, steps to the end, a fork, regrade records), and that
role is refused every way of rewriting the log: UPDATE, DELETE and TRUNCATE on events, dropping
or disabling the triggers, turning triggers off for its session, and editing what an episode's
index row says beyond its head.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from service import EnvironmentService
from service.audit_views import Auditor
from service.fork import fork
from service.gold import gold
from service.replay import replay
from store import open_database
from store.regrades import NewRegrade, RegradeStore
from store.runs import RunStore
from tests.databases import pg_admin, sqlite_pass_only
from tests.play import play
from tests.servers import ROOT

pytestmark = [sqlite_pass_only("it makes its own PostgreSQL database"), pytest.mark.postgres]

GRANTS = ROOT / "scripts" / "postgres-app-role.sql"
ROLE_IN_SCRIPT = "ticketledger_app"


@pytest.fixture
def app_role(pg_url: str) -> Iterator[str]:
    """A fresh login role that owns nothing and is no superuser; dropped with what it was granted."""
    role = f"tl_app_{secrets.token_hex(4)}"
    with pg_admin() as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
    try:
        yield role
    finally:
        owner = open_database(pg_url, migrate_schema=False)
        try:
            with owner.engine.begin() as conn:
                conn.execute(text(f"DROP OWNED BY {role}"))  # its grants in this database
        finally:
            owner.dispose()
        with pg_admin() as admin:
            admin.execute(f"DROP ROLE IF EXISTS {role}")


def _grant(owner_url: str, role: str) -> None:
    """Run the documented script as the owner, for ``role``."""
    script = GRANTS.read_text()
    assert ROLE_IN_SCRIPT in script
    statements = re.sub(rf"\b{ROLE_IN_SCRIPT}\b", role, script)
    owner = open_database(owner_url, migrate_schema=False)
    try:
        with owner.engine.begin() as conn:
            conn.exec_driver_sql(statements)
    finally:
        owner.dispose()


REFUSED = {
    "UPDATE events": "UPDATE events SET data = '{}' WHERE seq = 1",
    "DELETE events": "DELETE FROM events WHERE seq = 2",
    "TRUNCATE events": "TRUNCATE events",
    "drop the trigger": "DROP TRIGGER events_no_update_delete ON events",
    "disable the triggers": "ALTER TABLE events DISABLE TRIGGER ALL",
    "triggers off for the session": "SET session_replication_role = replica",
    "move an episode to another run": "UPDATE episodes SET run_id = 'elsewhere'",
    "DELETE episodes": "DELETE FROM episodes",
    "UPDATE regrades": "UPDATE regrades SET new_score = 1.0",
    "DELETE regrades": "DELETE FROM regrades",
}


def _snapshot(db: Any) -> list[tuple[Any, ...]]:
    with db.read() as conn:
        return [tuple(r) for r in conn.execute(text(
            "SELECT position, episode_id, seq, type, version, data, hash FROM events ORDER BY position"))]


def test_the_app_runs_as_the_documented_role_which_cannot_rewrite_the_log(pg_url: str,
                                                                           app_role: str) -> None:
    open_database(pg_url).dispose()  # the owner migrates
    _grant(pg_url, app_role)
    app_url = make_url(pg_url).set(username=app_role, password=None).render_as_string(
        hide_password=False)

    db = open_database(app_url)  # the application's start-up: the schema is current, read only
    try:
        with db.read() as conn:
            assert conn.execute(text("SELECT current_user")).scalar_one() == app_role
            assert not conn.execute(text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                                    ).scalar_one()
        service = EnvironmentService(db)
        runs = RunStore(db)
        runs.start("r1", "policy", {"tasks": 1})
        task = service.catalog.instance("task_hard_refund_policy_denial")
        reset = service.reset(task.task_id, run_id="r1")
        for action in gold(task):
            result = service.step(reset.episode_id, action)
        assert result.done and result.score == 1.0
        runs.finish("r1", {"mean_score": result.score})
        assert runs.get("r1").status == "finished"
        forked = fork(Auditor(db, service.catalog), reset.episode_id, 3)
        assert forked["episode_id"] != reset.episode_id
        RegradeStore(db).append([NewRegrade(reset.episode_id, "g/2", 1.0, 0.9, {"why": "test"})])
        other = play(service, "task_easy_password", gold(service.catalog.instance("task_easy_password")))
        assert other[-1].done

        before = _snapshot(db)
        refusals: dict[str, str] = {}
        for name, statement in REFUSED.items():
            with pytest.raises(DBAPIError) as caught, db.engine.begin() as conn:
                conn.execute(text(statement))
            refusals[name] = str(caught.value.orig)
        assert _snapshot(db) == before
        assert RegradeStore(db).of_episode(reset.episode_id)[0].new_score == 0.9
    finally:
        db.dispose()

    for name, message in refusals.items():
        assert re.search(r"permission denied|must be (the )?owner", message), (name, message)
    owner = open_database(pg_url)
    try:
        service = EnvironmentService(owner)
        for episode_id in (reset.episode_id, forked["episode_id"], other[0].episode_id):
            assert replay(service.load_events(episode_id), service.catalog).consistent
        assert service.store.episode(reset.episode_id).run_id == "r1"
    finally:
        owner.dispose()
