"""``EnvironmentService.end``: an open episode ended from outside a step, recorded through the
store's chained, conditional append, and read back by replay, verify, regrade, fork, diff,
export and the audit views as a record of its own that is neither graded nor paid."""

from __future__ import annotations

import json

import pytest

from domain import events as ev
from graders.versions import grader_for
from service import EnvironmentService
from service.audit_views import Auditor
from service.errors import BadRequest, EpisodeEnded, EpisodeNotFound
from service.export import episode_record
from service.fork import fork
from service.regrade import regrade_episode
from service.verify import verify
from store import open_database
from store.eventstore import Projection
from store.queries import EpisodeFilter

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test

TASK = "task_medium_double_charge"
STEPS = [{"action_type": "classify_priority", "priority": "high"},
         {"action_type": "assign_queue", "queue": "billing"},
         {"action_type": "noop"}, {"action_type": "noop"}]


def _cut_off(service: EnvironmentService, seed: int = 2) -> str:
    opened = service.reset(TASK, seed)
    for action in STEPS:
        service.step(opened.episode_id, action)
    return opened.episode_id


def test_ending_records_one_event_keeps_the_score_and_answers_truncated(
        service: EnvironmentService) -> None:
    episode = _cut_off(service)
    before = service.state(episode)
    seq, head = service.head(episode)
    result = service.end(episode, "cut_off")
    assert result.done and result.reward is None and result.grade is None
    assert result.state.truncated and not result.state.terminated
    assert result.state.end_reason == "cut_off" and result.observation.done
    assert (result.score, result.state.rewards, result.state.step_count) == (
        before.score, before.rewards, before.step_count)
    recorded = service.store.load(episode)
    assert recorded[-1].seq == seq + 1 and recorded[-1].prev_hash == head  # chained on the head
    assert (recorded[-1].type, recorded[-1].data) == ("EpisodeEnded", {"reason": "cut_off"})
    assert (result.seq, result.head_hash) == (recorded[-1].seq, recorded[-1].hash)
    row = service.store.episode(episode)
    assert (row.status, row.step_count, row.score, row.last_seq) == (
        "ended", before.step_count, before.score, seq + 1)
    # folded again from the log by another service, the same state
    again = EnvironmentService(open_database(service.db.url))
    assert again.state(episode) == result.state


def test_an_ended_episode_is_refused_and_nothing_is_written(service: EnvironmentService) -> None:
    episode = _cut_off(service)
    service.end(episode, "cut_off")
    size = len(service.store.load(episode))
    with pytest.raises(EpisodeEnded, match=r"already ended \(cut_off\)"):
        service.end(episode, "disconnected")
    with pytest.raises(EpisodeEnded, match=r"has ended \(cut_off\); call reset"):
        service.step(episode, {"action_type": "noop"})
    solved = service.reset("task_easy_password")
    for _ in range(solved.observation.max_steps):
        last = service.step(solved.episode_id, {"action_type": "noop"})
    assert last.state.end_reason == "max_steps"
    with pytest.raises(EpisodeEnded, match=r"already ended \(max_steps\)"):
        service.end(solved.episode_id, "cut_off")
    with pytest.raises(BadRequest, match="cut_off, disconnected, not 'max_steps'"):
        service.end(service.reset(TASK).episode_id, "max_steps")
    with pytest.raises(EpisodeNotFound):
        service.end("ep_" + "0" * 32, "cut_off")
    assert len(service.store.load(episode)) == size


def test_a_stale_cache_is_caught_by_the_append_and_decided_again_from_the_log(
        service: EnvironmentService) -> None:
    """Two processes on one log: the second ends the episode after the first cached it; the
    first's ending is decided on its stale cache, refused by the conditional append, decided
    again on the log, and refused for what it is: ended. One closing is written."""
    episode = _cut_off(service)
    service.state(episode)  # cached here
    other = EnvironmentService(open_database(service.db.url))
    other.end(episode, "disconnected")
    with pytest.raises(EpisodeEnded, match=r"already ended \(disconnected\)"):
        service.end(episode, "cut_off")
    assert [r.type for r in service.store.load(episode)].count("EpisodeEnded") == 1
    assert service.state(episode).end_reason == "disconnected"


def test_replay_verify_and_regrade_agree_with_the_record(service: EnvironmentService) -> None:
    episode = _cut_off(service)
    open_report = Auditor(service.db).replay(episode)
    service.end(episode, "cut_off")
    auditor = Auditor(service.db)
    report = auditor.replay(episode)
    assert report["consistent"], report["divergences"]
    assert report["closing"] == {"reason": "cut_off", "seq": len(service.store.load(episode)),
                                 "after_step": len(STEPS), "truncated": True}
    assert (report["recomputed_score"], report["recorded_score"], report["steps"]) == (
        open_report["recomputed_score"], open_report["recorded_score"], open_report["steps"])
    assert "closing" not in open_report  # an episode without one answers as it always did
    checked = verify(auditor, EpisodeFilter())
    assert checked["ok"] and checked["episodes"] == 1, checked["failures"]
    row, recorded = service.store.episode(episode), service.store.load(episode)
    for version in ("ticketledger-grader/2.0", "ticketledger-grader/3.1"):
        first = regrade_episode(row, recorded, grader_for(version))
        assert first == regrade_episode(row, recorded, grader_for(version))  # deterministic
    same = regrade_episode(row, recorded)
    assert not same["changed"] and same["new_score"] == same["recorded_score"] == row.score


def test_a_closing_that_records_more_than_ending_is_a_divergence(service: EnvironmentService) -> None:
    """Written past the service (straight into the store, chain intact): a closing followed by
    another event is not what ending records, and replay and verify say so."""
    episode = _cut_off(service)
    seq, head = service.head(episode)
    state = service.state(episode)
    service.store.append(episode, seq, head, [ev.EpisodeEnded("cut_off"), ev.EpisodeEnded("cut_off")],
                         Projection("ended", state.step_count, state.score))
    auditor = Auditor(service.db)
    report = auditor.replay(episode)
    assert report["chain_ok"] and not report["consistent"]
    assert report["first_divergence"]["kind"] == "closing"
    assert report["first_divergence"]["seq"] == seq + 1
    assert not verify(auditor, EpisodeFilter())["ok"]


def test_the_audit_views_show_the_closing_beside_the_steps(service: EnvironmentService) -> None:
    episode = _cut_off(service)
    auditor = Auditor(service.db)
    open_show, open_export = auditor.show(episode), episode_record(
        service.catalog, service.store.episode(episode), service.store.load(episode))
    service.end(episode, "cut_off")
    shown = auditor.show(episode)
    assert shown["steps"] == open_show["steps"]  # the closing is no row of the step table
    assert shown["closing"]["reason"] == "cut_off" and shown["episode"]["status"] == "ended"
    assert "closing" not in open_show
    latest = auditor.state(episode)
    assert latest["state"]["done"] is True and latest["step"] == len(STEPS)
    assert auditor.state(episode, len(STEPS) - 1)["state"]["done"] is False
    exported = episode_record(service.catalog, service.store.episode(episode),
                              service.store.load(episode))
    assert exported["steps"] == open_export["steps"] and exported["status"] == "ended"
    assert exported["final_score"] == open_export["final_score"]
    json.dumps(shown)


def test_a_cut_off_episode_forks_at_its_last_step_and_goes_on(service: EnvironmentService) -> None:
    episode = _cut_off(service)
    service.end(episode, "cut_off")
    auditor = Auditor(service.db)
    made = fork(auditor, episode, len(STEPS))
    assert made["status"] == "open" and made["step_count"] == len(STEPS)
    last_grade = [r for r in service.store.load(episode) if r.type == "StepGraded"][-1]
    forked = service.store.load(made["episode_id"])
    assert forked[0].data["forked_from"]["hash"] == last_grade.hash  # not the closing's
    assert [r.type for r in forked].count("EpisodeEnded") == 0
    service.step(made["episode_id"], {"action_type": "add_tag", "tag": "Duplicate_Charge"})
    assert auditor.replay(made["episode_id"])["consistent"]
    compared = auditor.diff(episode, made["episode_id"])
    assert compared["closing"] == {"a": "cut_off", "b": None}
    assert compared["steps_a"] == len(STEPS) and compared["steps_b"] == len(STEPS) + 1
    assert compared["first_divergence"]["step"] == len(STEPS) + 1


def test_an_episode_ended_before_any_step_replays(service: EnvironmentService) -> None:
    opened = service.reset(TASK, 5)
    result = service.end(opened.episode_id, "disconnected")
    assert result.state.step_count == 0 and result.state.truncated
    report = Auditor(service.db).replay(opened.episode_id)
    assert report["consistent"] and report["closing"]["after_step"] == 0
    assert report["recomputed_score"] == report["recorded_score"] == 0.0
