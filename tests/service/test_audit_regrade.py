"""Regrade: re-scores with the current grader (or a chosen version), reports per task what moved,
appends records with the grader version, and never rewrites the log or the recorded scores."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from graders import components, grader, versions
from graders.components import Component
from service import EnvironmentService
from service.audit_views import Auditor
from service.errors import BadRequest
from service.regrade import regrade
from store.queries import EpisodeFilter
from tests.audit_helpers import play_weak
from tests.play import play

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test


def _snapshot(service: EnvironmentService) -> list[tuple]:  # type: ignore[type-arg]
    with service.db.read() as conn:
        events = conn.execute(text("SELECT episode_id, seq, data, hash FROM events "
                                   "ORDER BY position")).all()
        rows = conn.execute(text("SELECT episode_id, score, head_hash FROM episodes "
                                 "ORDER BY episode_id")).all()
    return [tuple(r) for r in events] + [tuple(r) for r in rows]


def test_unchanged_grader_changes_nothing(service: EnvironmentService) -> None:
    play(service, "task_easy_password", run_id="r1")
    play_weak(service, "task_easy_password", run_id="r1")
    report = regrade(Auditor(service.db), EpisodeFilter(run_id="r1"), dry_run=True)
    assert report["episodes"] == 2 and report["changed"] == 0 and report["records_appended"] == 0
    assert report["tasks"][0]["mean_delta"] == 0


def test_regrade_reports_what_moved_and_appends_records(service: EnvironmentService,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    expert = play(service, "task_easy_password", run_id="r1")
    weak = play_weak(service, "task_easy_password", run_id="r1")
    other = play(service, "task_medium_double_charge", run_id="r1")
    play(service, "task_easy_password", run_id="elsewhere")
    before = _snapshot(service)

    queue_earned = {r[0].episode_id: next(c.earned for c in r[-1].grade.components if c.name == "queue")
                    for r in (expert, weak)}

    def stingy_queue(state, task, weight):  # type: ignore[no-untyped-def]
        return Component("queue", 0, weight, "queue: not counted", "queue: never counted")

    monkeypatch.setitem(components.SCORERS, "queue", stingy_queue)
    monkeypatch.setitem(versions.GRADERS, "test-grader/3.0",
                        versions.Grader("test-grader/3.0", grader.grade_step, grader.grade_episode))
    auditor = Auditor(service.db)

    dry = regrade(auditor, EpisodeFilter(run_id="r1"), dry_run=True, grader_version="test-grader/3.0")
    assert dry["records_appended"] == 0 and auditor.regrades.of_episode(expert[0].episode_id) == []

    report = regrade(auditor, EpisodeFilter(run_id="r1"), grader_version="test-grader/3.0")
    assert report["grader_version"] == "test-grader/3.0" and report["episodes"] == 3
    changed = {c["episode_id"]: c for c in report["changes"]}
    expected_changed = {eid for eid, units in queue_earned.items() if units}
    if "queue" in other[-1].state.task.weights:  # type: ignore[union-attr]
        expected_changed.add(other[0].episode_id)
    assert set(changed) == expected_changed
    change = changed[expert[0].episode_id]
    assert change["recorded_score"] == expert[-1].state.score
    lost = queue_earned[expert[0].episode_id] / 10_000
    assert change["new_score"] == pytest.approx(expert[-1].state.score - lost)
    assert set(change["components_moved"]) == {"queue"}
    assert change["recorded_grader_version"] == expert[-1].grade.grader_version
    task_row = next(t for t in report["tasks"] if t["task_id"] == "task_easy_password")
    assert task_row["episodes"] == 2 and task_row["changed"] == len(
        {expert[0].episode_id, weak[0].episode_id} & expected_changed)
    assert task_row["components"]["queue"]["episodes"] == task_row["changed"]

    # appended, one per episode regraded, with the new grader version; nothing rewritten
    assert report["records_appended"] == 3
    records = auditor.regrades.of_episode(expert[0].episode_id)
    assert len(records) == 1 and records[0].grader_version == "test-grader/3.0"
    assert records[0].recorded_score == expert[-1].state.score
    assert records[0].report["batch"] == report["batch"]
    assert _snapshot(service) == before
    assert auditor.summary(expert[0].episode_id)["regrades"][0]["new_score"] == change["new_score"]

    # regrade records are append-only too
    with pytest.raises(Exception, match="append-only"), service.db.write() as conn:
        conn.execute(text("UPDATE regrades SET new_score = 1.0"))
    with pytest.raises(Exception, match="append-only"), service.db.write() as conn:
        conn.execute(text("DELETE FROM regrades"))


def test_regrade_uses_the_current_grader_unless_told_and_refuses_an_unknown_one(
        service: EnvironmentService) -> None:
    play(service, "task_easy_password", run_id="r1")
    auditor = Auditor(service.db)
    assert regrade(auditor, EpisodeFilter(run_id="r1"), dry_run=True)["grader_version"] == versions.CURRENT
    older = regrade(auditor, EpisodeFilter(run_id="r1"), dry_run=True,
                    grader_version=versions.V2_1)
    assert older["grader_version"] == versions.V2_1 and older["episodes"] == 1
    with pytest.raises(BadRequest, match=r"unknown grader version 'no-such/9'.*ticketledger-grader/2\.0"):
        regrade(auditor, EpisodeFilter(run_id="r1"), grader_version="no-such/9")
    with pytest.raises(BadRequest, match=r"grader 1\.1 is retired"):
        regrade(auditor, EpisodeFilter(run_id="r1"), grader_version=versions.FALLBACK)
