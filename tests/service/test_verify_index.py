"""``verify`` checks the episode index against the log it summarises: an index row edited
or deleted with SQL changes what ``/runs`` and every listing show, so verify names each row that
disagrees with the fold of its log (episode id, column, index value, log value), and each episode
of the log that has no row. On both backends, with the database's own SQL as an intruder would."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text

from cli.main import main
from service import EnvironmentService
from service.audit_views import Auditor
from service.fork import fork
from service.verify import INDEX_COLUMNS, verify
from store import Database, open_database
from store.queries import EpisodeFilter
from tests.audit_helpers import play_weak
from tests.play import play


@pytest.fixture
def log(both_backends_url: str) -> Iterator[tuple[str, Database, dict[str, str]]]:
    """A fresh log: two episodes of run ``run_v`` (one ended, one left open), one without a run,
    and a fork; verify passes on it as recorded."""
    db = open_database(both_backends_url)
    service = EnvironmentService(db)
    made = {"ended": play(service, "task_easy_password", run_id="run_v")[-1].episode_id,
            "open": play_weak(service, "task_medium_double_charge", run_id="run_v")[0].episode_id,
            "plain": play(service, "task_easy_refund_tag", seed=3)[-1].episode_id}
    made["fork"] = fork(Auditor(db), made["ended"], 2)["episode_id"]
    report = verify(Auditor(db), EpisodeFilter())
    assert report["ok"] and report["episodes"] == 4, report["failures"]
    try:
        yield both_backends_url, db, made
    finally:
        db.dispose()


def _sql(url: str, db: Database, statement: str, **params: Any) -> None:
    """Run ``statement`` as someone holding the database would: on SQLite through a plain
    connection (foreign keys off, the sqlite3 shell's default), on PostgreSQL as a superuser with
    the foreign-key triggers switched off for the session."""
    if url.startswith("sqlite"):
        with contextlib.closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as conn:
            conn.execute(statement, params)
            conn.commit()
        return
    with db.write() as conn:
        conn.execute(text("SET LOCAL session_replication_role = replica"))
        conn.execute(text(statement), params)


def _failures(db: Database, where: EpisodeFilter | None = None) -> dict[str, dict[str, Any]]:
    report = verify(Auditor(db), where or EpisodeFilter())
    assert report["ok"] is (not report["failures"])
    return {f["episode_id"]: f for f in report["failures"]}


EDITS = [  # column, new index value, the log's value as the test computes it
    ("score", 0.5, lambda row: row["score"]),
    ("last_seq", 1, lambda row: row["last_seq"]),
    ("head_hash", "f" * 64, lambda row: row["head_hash"]),
    ("run_id", "run_other", lambda row: row["run_id"]),
    ("status", "open", lambda row: row["status"]),
    ("step_count", 99, lambda row: row["step_count"]),
    ("task_id", "task_easy_feature_question", lambda row: row["task_id"]),
    ("seed", 42, lambda row: row["seed"]),
]


def _row(db: Database, episode_id: str) -> dict[str, Any]:
    with db.read() as conn:
        return dict(conn.execute(text("SELECT * FROM episodes WHERE episode_id = :e"),
                                 {"e": episode_id}).one()._mapping)


@pytest.mark.parametrize("column,value,expected", EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_index_column_is_named_with_both_values(
        log: tuple[str, Database, dict[str, str]], column: str, value: Any, expected: Any) -> None:
    url, db, made = log
    episode_id = made["ended"]
    before = _row(db, episode_id)
    _sql(url, db, f"UPDATE episodes SET {column} = :v WHERE episode_id = :e", v=value, e=episode_id)
    failures = _failures(db)
    assert set(failures) == {episode_id}
    failure = failures[episode_id]
    assert failure["index"] == [{"column": column, "index": value, "log": expected(before)}]
    assert failure["first_divergence"]["kind"] == "index"
    assert failure["first_divergence"]["column"] == column


def test_several_columns_at_once_are_all_named(log: tuple[str, Database, dict[str, str]]) -> None:
    url, db, made = log
    _sql(url, db, "UPDATE episodes SET score = 0.0, step_count = 0, status = 'open', run_id = NULL "
                  "WHERE episode_id = :e", e=made["ended"])
    failure = _failures(db)[made["ended"]]
    assert {m["column"] for m in failure["index"]} == {"score", "step_count", "status", "run_id"}
    assert failure["problems"] == 4
    assert {"column": "run_id", "index": None, "log": "run_v"} in failure["index"]


def test_a_deleted_index_row_is_named(log: tuple[str, Database, dict[str, str]]) -> None:
    url, db, made = log
    _sql(url, db, "DELETE FROM episodes WHERE episode_id = :e", e=made["ended"])
    for where in (EpisodeFilter(), EpisodeFilter(run_id="run_v"),
                  EpisodeFilter(task_id="task_easy_password")):
        failures = _failures(db, where)
        assert set(failures) == {made["ended"]}, where
        assert failures[made["ended"]]["index"] == [{"column": "episode_id", "index": None,
                                                     "log": made["ended"]}]
        assert failures[made["ended"]]["task_id"] == "task_easy_password"
    assert _failures(db, EpisodeFilter(run_id="run_elsewhere")) == {}
    assert _failures(db, EpisodeFilter(task_id="task_easy_refund_tag")) == {}


def test_verify_by_run_names_a_row_moved_out_of_the_run(
        log: tuple[str, Database, dict[str, str]]) -> None:
    """The probe's other move: take an episode out of a run (its mean changes) by editing run_id."""
    url, db, made = log
    _sql(url, db, "UPDATE episodes SET run_id = NULL WHERE episode_id = :e", e=made["open"])
    failures = _failures(db, EpisodeFilter(run_id="run_v"))
    assert set(failures) == {made["open"]}
    assert failures[made["open"]]["index"] == [{"column": "run_id", "index": None, "log": "run_v"}]


def test_the_cli_names_the_row_and_exits_1(log: tuple[str, Database, dict[str, str]]) -> None:
    url, db, made = log
    _sql(url, db, "UPDATE episodes SET score = 0.25 WHERE episode_id = :e", e=made["plain"])
    _sql(url, db, "DELETE FROM episodes WHERE episode_id = :e", e=made["fork"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["--database-url", url, "verify", "--jobs", "1"])
    assert code == 1
    text_out = out.getvalue()
    assert f"FAIL {made['plain']}" in text_out and "index score: 0.25, the log says" in text_out
    assert f"FAIL {made['fork']}" in text_out and "has no row" in text_out
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--database-url", url, "verify", "--json"]) == 1
    data = json.loads(out.getvalue())
    named = {f["episode_id"]: f["index"] for f in data["failures"]}
    assert named[made["plain"]][0]["column"] == "score" and named[made["plain"]][0]["index"] == 0.25


def test_every_checked_column_is_a_column_of_the_index() -> None:
    from store.schema import episodes

    assert set(INDEX_COLUMNS) <= set(episodes.c.keys())
    assert set(episodes.c.keys()) - set(INDEX_COLUMNS) == {"episode_id", "chain_format"}
