"""Migrations on both backends: from an empty database, and from revision 0001 with real data in it.

The old-data path plays episodes with the current service on a scratch in-memory database and
copies their rows, in 0001's columns, into a database held at 0001 (the current store cannot write
to 0001's tables: it also writes later columns such as ``chain_format``). One more episode has its
``ReplyDrafted`` in the pre-release v1 shape (``reply_text``), re-chained. Then the database is
upgraded to head: every event, hash and score must survive, every old episode must read as chain
format 1, the v1 event must be upcast on read, and the database must still refuse to rewrite
history (the immutability triggers come with 0001 and survive the upgrade).
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, inspect, select, text
from sqlalchemy.exc import DBAPIError

from domain import events as ev
from domain.tasks import default_catalog
from service import EnvironmentService
from service.gold import gold
from service.replay import replay
from store import open_database
from store.chain import GENESIS, canonical_json, link
from store.eventstore import EventStore
from store.migrate import (
    MIGRATIONS_DIR,
    alembic_head,
    current_revision,
    head_revision,
    scripts_head,
    upgrade,
)
from store.schema import episodes, events, metadata
from tests.databases import sqlite_pass_only

pytestmark = sqlite_pass_only("every test names its backends (both_backends_url)")

CATALOG = default_catalog()
REPLY_TASK = "task_easy_password"  # a published variant whose solution drafts a reply


def _run_episode(svc: EnvironmentService, task_id: str, seed: int | None, upto: int | None = None) -> str:
    result = svc.reset(task_id, seed=seed)
    actions = gold(svc.state(result.episode_id).task)
    for action in actions[:upto]:
        result = svc.step(result.episode_id, action)
    return result.episode_id


def _snapshot(url: str) -> list[tuple[Any, ...]]:
    db = open_database(url, migrate_schema=False)
    try:
        with db.read() as conn:
            rows = conn.execute(text(
                "SELECT episode_id, seq, type, version, data, prev_hash, hash FROM events "
                "ORDER BY episode_id, seq")).all()
        return [tuple(r) for r in rows]
    finally:
        db.dispose()


def _assert_replays(url: str, episode_ids: list[str]) -> None:
    db = open_database(url, migrate_schema=False)
    try:
        store = EventStore(db)
        for eid in episode_ids:
            report = replay(store.load(eid), CATALOG)
            assert report.consistent, (eid, report.to_json()["divergences"])
            assert report.chain_ok
            _seq, head = store.head(eid)
            assert report.head_hash == head
    finally:
        db.dispose()


def _refusals(url: str, *, replace: bool = True) -> dict[str, str]:
    """Try to rewrite history with raw SQL; return the database's refusal for each statement.
    ``replace``: try SQLite's REPLACE too (refused since 0007)."""
    db = open_database(url, migrate_schema=False)
    statements = {"UPDATE": "UPDATE events SET data = '{}' WHERE seq = 1",
                  "DELETE": "DELETE FROM events WHERE seq = 1",
                  "DELETE ALL": "DELETE FROM events"}
    if db.dialect == "postgresql":
        statements["TRUNCATE"] = "TRUNCATE events CASCADE"
    elif replace:  # REPLACE deletes the stored row without firing the DELETE trigger
        statements["REPLACE"] = ("INSERT OR REPLACE INTO events (episode_id, seq, type, version, data, "
                                 "prev_hash, hash, recorded_at) SELECT episode_id, seq, type, version, "
                                 "'{}', prev_hash, hash, recorded_at FROM events WHERE seq = 1")
    refused: dict[str, str] = {}
    try:
        for name, sql in statements.items():
            with pytest.raises(DBAPIError) as caught, db.engine.begin() as conn:
                conn.execute(text(sql))
            refused[name] = str(caught.value.orig)
    finally:
        db.dispose()
    return refused


# --------------------------------------------------------------------------- from empty


def test_upgrade_from_empty_database_reaches_head_and_matches_schema(both_backends_url: str) -> None:
    db = open_database(both_backends_url, migrate_schema=False)
    try:
        assert current_revision(db.engine) is None
        assert upgrade(db.engine) == head_revision()
        assert upgrade(db.engine) == head_revision()  # idempotent
        found = inspect(db.engine)
        for table in metadata.sorted_tables:
            columns = {c["name"]: c for c in found.get_columns(table.name)}
            assert set(columns) == {c.name for c in table.columns}, table.name
            for column in table.columns:
                assert columns[column.name]["nullable"] == column.nullable, (table.name, column.name)
            pk = found.get_pk_constraint(table.name)["constrained_columns"]
            assert pk == [c.name for c in table.primary_key.columns], table.name
        uniques = {tuple(u["column_names"]) for u in found.get_unique_constraints("events")}
        assert ("episode_id", "seq") in uniques
    finally:
        db.dispose()


def test_database_migrated_from_scratch_refuses_to_rewrite_events(both_backends_url: str) -> None:
    db = open_database(both_backends_url)
    svc = EnvironmentService(db, CATALOG)
    eid = _run_episode(svc, REPLY_TASK, None)
    before = _snapshot(both_backends_url)
    db.dispose()
    refused = _refusals(both_backends_url)
    assert all("immutable" in message for message in refused.values()), refused
    assert _snapshot(both_backends_url) == before
    _assert_replays(both_backends_url, [eid])


def test_cli_db_upgrade_from_empty(both_backends_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    assert main(["--database-url", both_backends_url, "db", "upgrade", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["from"] is None and out["to"] == head_revision()


def _open_in_child(url: str, queue: Any) -> None:
    try:
        db = open_database(url)
        queue.put(current_revision(db.engine))
        db.dispose()
    except Exception as exc:  # reported to the parent, which fails the test with it
        queue.put(f"error: {type(exc).__name__}: {exc}")


@pytest.mark.slow
def test_several_processes_migrating_a_fresh_database_at_once(both_backends_url: str) -> None:
    """Server workers start together on an empty database: every one must come up at head."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_open_in_child, args=(both_backends_url, queue)) for _ in range(4)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert results == [head_revision()] * len(procs), results


# --------------------------------------------------------------------------- from 0001 with data


def _v1_reply_log(svc: EnvironmentService) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A finished episode as a pre-release writer stored it: ReplyDrafted v1, under a new id.

    Returns the episode index row and the event rows, re-chained with the store's own link function.
    """
    eid = _run_episode(svc, REPLY_TASK, 3)
    new_id = "v1_" + eid
    rows: list[dict[str, Any]] = []
    prev = GENESIS
    for r in svc.store.load(eid):
        data, version = r.data, r.version
        if r.type == ev.EpisodeStarted.type:
            data = {**data, "episode_id": new_id}
        if r.type == ev.ReplyDrafted.type:
            data, version = {"reply_text": data["text"]}, 1
        body = canonical_json(data)
        digest = link(prev, r.seq, r.type, version, body)
        rows.append({"episode_id": new_id, "seq": r.seq, "type": r.type, "version": version,
                     "data": body, "prev_hash": prev, "hash": digest, "recorded_at": r.recorded_at})
        prev = digest
    assert any(row["version"] == 1 and row["type"] == ev.ReplyDrafted.type for row in rows)
    index = {**dataclasses.asdict(svc.store.episode(eid)), "episode_id": new_id, "head_hash": prev}
    return index, rows


def _copy_into(url: str, episode_rows: list[dict[str, Any]], event_rows: list[dict[str, Any]]) -> None:
    """Insert rows into the database at ``url``, keeping only the columns its schema has."""
    db = open_database(url, migrate_schema=False)
    try:
        found = inspect(db.engine)
        keep = {table: {c["name"] for c in found.get_columns(table)} for table in ("episodes", "events")}
        with db.write() as conn:
            conn.execute(insert(episodes), [{k: v for k, v in row.items() if k in keep["episodes"]}
                                            for row in episode_rows])
            conn.execute(insert(events), [{k: v for k, v in row.items() if k in keep["events"]}
                                          for row in event_rows])
    finally:
        db.dispose()


def _old_log(url: str) -> tuple[list[str], str, str]:
    """Episodes written by the current service, copied into the database at ``url`` (held at an
    old revision): finished ones over several tasks and seeds, one interrupted after two steps,
    and one with a v1 ``ReplyDrafted``. Returns (finished ids, the interrupted one, the v1 one)."""
    scratch = open_database("sqlite://")
    try:
        svc = EnvironmentService(scratch, CATALOG)
        finished = [_run_episode(svc, task_id, seed) for task_id in CATALOG.task_ids[:6]
                    for seed in (None, 7)]
        unfinished = _run_episode(svc, REPLY_TASK, 11, upto=2)
        v1_index, v1_rows = _v1_reply_log(svc)
        with scratch.read() as conn:
            episode_rows = [dict(r._mapping) for r in conn.execute(select(episodes)).all()]
            event_rows = [dict(r._mapping) for r in conn.execute(select(events).order_by(events.c.position))]
    finally:
        scratch.dispose()
    drop = {"position"}  # numbered by the target database
    _copy_into(url, [*episode_rows, v1_index],
               [{k: v for k, v in r.items() if k not in drop} for r in [*event_rows, *v1_rows]])
    return finished, unfinished, v1_index["episode_id"]


def test_upgrade_from_0001_with_data_keeps_every_event_and_hash(both_backends_url: str) -> None:
    url = both_backends_url
    db = open_database(url, migrate_schema=False)
    assert upgrade(db.engine, "0001") == "0001"
    assert not inspect(db.engine).has_table("runs")
    db.dispose()
    finished, unfinished, v1_id = _old_log(url)
    before = _snapshot(url)
    assert len({row[0] for row in before}) == len(finished) + 3  # and the v1 one's original
    assert len(_refusals(url, replace=False)) >= 3  # 0001 already refuses rewrites

    db = open_database(url)  # the normal start-up path upgrades to head
    try:
        assert current_revision(db.engine) == head_revision()
        assert inspect(db.engine).has_table("runs") and inspect(db.engine).has_table("regrades")
        with db.read() as conn:
            assert set(conn.execute(select(episodes.c.chain_format)).scalars()) == {1}
    finally:
        db.dispose()
    assert _snapshot(url) == before, "an upgrade must never rewrite events"
    _assert_replays(url, finished + [unfinished, v1_id])
    refused = _refusals(url)
    assert all("immutable" in m for m in refused.values()), refused

    db = open_database(url)
    try:
        svc = EnvironmentService(db, CATALOG)
        state = svc.state(v1_id)
        assert state.done and state.score == 1.0
        assert state.reply_draft and state.reply_draft.startswith("Hi ")
        stored = [r for r in svc.store.load(v1_id) if r.type == ev.ReplyDrafted.type]
        assert stored[0].version == 1 and "reply_text" in stored[0].data  # never rewritten in place
        # An episode interrupted before the upgrade carries on with the new code.
        task = svc.state(unfinished).task
        result = None
        for action in gold(task)[2:]:
            result = svc.step(unfinished, action)
        assert result is not None and result.done and result.state.score == 1.0
    finally:
        db.dispose()
    _assert_replays(url, [unfinished])


# --------------------------------------------------------------------------- 0004


def _episode_indexes(url: str) -> set[str]:
    db = open_database(url, migrate_schema=False)
    try:
        return {i["name"] for i in inspect(db.engine).get_indexes("episodes")}
    finally:
        db.dispose()


def test_0004_drops_the_run_index_that_run_created_covers_and_downgrades(both_backends_url: str) -> None:
    """Head has no ``ix_episodes_run``; going down to 0003 brings it back, up again drops it."""
    from alembic import command

    from store.migrate import _config

    url = both_backends_url
    db = open_database(url)  # migrates to head
    db.dispose()
    expected = {"ix_episodes_task_created", "ix_episodes_created", "ix_episodes_run_created",
                "ix_episodes_status_created"}
    assert _episode_indexes(url) == expected
    db = open_database(url, migrate_schema=False)
    try:
        with db.engine.begin() as conn:
            command.downgrade(_config(conn), "0003")
        assert current_revision(db.engine) == "0003"
    finally:
        db.dispose()
    assert _episode_indexes(url) == expected | {"ix_episodes_run"}
    db = open_database(url)
    db.dispose()
    assert _episode_indexes(url) == expected


def test_run_listing_still_reads_an_index_after_0004(tmp_path: Any) -> None:
    """A run's episodes are found through ``ix_episodes_run_created``, not by a table scan."""
    db = open_database(f"sqlite:///{tmp_path / 'plan.db'}")
    try:
        with db.read() as conn:
            plan = " ".join(str(row[-1]) for row in conn.execute(text(
                "EXPLAIN QUERY PLAN SELECT episode_id FROM episodes WHERE run_id = 'r' "
                "ORDER BY created_at DESC, episode_id DESC")))
            counted = " ".join(str(row[-1]) for row in conn.execute(text(
                "EXPLAIN QUERY PLAN SELECT count(*) FROM episodes WHERE run_id = 'r'")))
    finally:
        db.dispose()
    assert "ix_episodes_run_created" in plan, plan
    assert "ix_episodes_run_created" in counted, counted


# --------------------------------------------------------------------------- 0005


def test_0005_records_chain_format_1_and_downgrades(both_backends_url: str) -> None:
    """Going down to 0004 drops ``chain_format`` and touches no event; up again, the episodes
    written before read as format 1 (the server default) and still verify."""
    from alembic import command

    from store.migrate import _config

    url = both_backends_url
    db = open_database(url)
    eid = _run_episode(EnvironmentService(db, CATALOG), REPLY_TASK, 5)
    db.dispose()
    before = _snapshot(url)
    db = open_database(url, migrate_schema=False)
    try:
        with db.write() as conn:
            command.downgrade(_config(conn), "0004")
        assert current_revision(db.engine) == "0004"
        assert "chain_format" not in {c["name"] for c in inspect(db.engine).get_columns("episodes")}
    finally:
        db.dispose()
    assert _snapshot(url) == before
    db = open_database(url)  # back to head
    try:
        assert EventStore(db).episode(eid).chain_format == 1
    finally:
        db.dispose()
    assert _snapshot(url) == before
    _assert_replays(url, [eid])


# --------------------------------------------------------------------------- 0007


def test_0007_refuses_an_insert_over_a_stored_event_and_downgrades(both_backends_url: str) -> None:
    """One revision down (before 0007), SQLite's REPLACE swaps a stored event without the DELETE
    trigger noticing; at head it is refused, on either backend, and the log is left as it was."""
    from alembic import command

    from store.migrate import _config

    url = both_backends_url
    db = open_database(url)
    eid = _run_episode(EnvironmentService(db, CATALOG), REPLY_TASK, 5)
    db.dispose()
    before = _snapshot(url)
    refused = _refusals(url)
    assert all("immutable" in message for message in refused.values()), refused
    assert _snapshot(url) == before
    db = open_database(url, migrate_schema=False)
    try:
        with db.write() as conn:
            command.downgrade(_config(conn), "-1")
        assert current_revision(db.engine) != head_revision()
        if db.dialect == "sqlite":
            with db.write() as conn:
                conn.execute(text("INSERT OR REPLACE INTO events (episode_id, seq, type, version, "
                                  "data, prev_hash, hash, recorded_at) SELECT episode_id, seq, type, "
                                  "version, '{}', prev_hash, hash, recorded_at FROM events "
                                  "WHERE episode_id = :e AND seq = 1"), {"e": eid})
            assert _snapshot(url) != before  # the hole 0007 closes
    finally:
        db.dispose()
    db = open_database(url)  # back to head
    db.dispose()
    assert all("immutable" in message for message in _refusals(url).values())


# --------------------------------------------------------------------------- revisions without Alembic


def test_the_head_read_from_the_scripts_is_alembics() -> None:
    assert scripts_head() == alembic_head() == head_revision()


def _copy_migrations(tmp_path: Path) -> Path:
    copy = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_a_new_migration_moves_the_head_read_from_the_scripts(tmp_path: Path) -> None:
    """A script added on top is the new head, as Alembic finds it; scripts that do not settle the
    head alone (two heads, a computed revision) leave the answer to Alembic."""
    copy = _copy_migrations(tmp_path)
    head = alembic_head(copy)
    (copy / "versions" / "0099_next.py").write_text(
        f'"""Next."""\n\nrevision: str = "0099"\ndown_revision: str | None = {head!r}\n'
        "branch_labels = None\ndepends_on = None\n\n\ndef upgrade() -> None:\n    pass\n\n\n"
        "def downgrade() -> None:\n    pass\n", encoding="utf-8")
    assert scripts_head(copy) == alembic_head(copy) == "0099"
    branch = copy / "versions" / "0098_branch.py"
    branch.write_text((copy / "versions" / "0099_next.py").read_text().replace('"0099"', '"0098"'))
    assert scripts_head(copy) is None  # two heads: Alembic's own error says so
    branch.unlink()
    merge = copy / "versions" / "0100_merge.py"
    merge.write_text('revision = "0100"\ndown_revision = ("0099", "0099")\n')
    assert scripts_head(copy) == alembic_head(copy) == "0100"
    merge.write_text('revision = "0100"\ndown_revision = PARENT\nPARENT = "0099"\n')
    assert scripts_head(copy) is None


def test_the_revision_read_from_the_version_table_is_alembics(both_backends_url: str) -> None:
    from alembic.runtime.migration import MigrationContext

    db = open_database(both_backends_url, migrate_schema=False)
    try:
        def alembics() -> str | None:
            with db.engine.connect() as conn:
                return MigrationContext.configure(conn).get_current_revision()

        assert current_revision(db.engine) is None is alembics()
        for n in range(1, int(head_revision()) + 1):
            upgrade(db.engine, f"{n:04d}")
            assert current_revision(db.engine) == alembics() == f"{n:04d}"
    finally:
        db.dispose()


OPEN_IN_A_NEW_PROCESS = """
import json, sys
from store import open_database
from store.migrate import current_revision
db = open_database(sys.argv[1])
print(json.dumps({"revision": current_revision(db.engine), "alembic": "alembic" in sys.modules}))
db.dispose()
"""


def _open_in_a_new_process(url: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", OPEN_IN_A_NEW_PROCESS, url], capture_output=True,
                          text=True, check=True, cwd=Path(__file__).resolve().parents[2])
    return dict(json.loads(done.stdout))


def test_only_a_database_behind_the_scripts_imports_alembic(both_backends_url: str) -> None:
    """A program opening a current database never loads Alembic; one opening a new or older
    database migrates it to head on first use."""
    assert _open_in_a_new_process(both_backends_url) == {"revision": head_revision(), "alembic": True}
    assert _open_in_a_new_process(both_backends_url) == {"revision": head_revision(), "alembic": False}
    from alembic import command

    from store.migrate import _config

    db = open_database(both_backends_url, migrate_schema=False)
    try:
        with db.write() as conn:
            command.downgrade(_config(conn), "0005")
        assert current_revision(db.engine) == "0005"
    finally:
        db.dispose()
    assert _open_in_a_new_process(both_backends_url) == {"revision": head_revision(), "alembic": True}
    assert _open_in_a_new_process(both_backends_url) == {"revision": head_revision(), "alembic": False}
