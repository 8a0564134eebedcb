"""Old event versions still fold and grade: ReplyDrafted v1 (``reply_text``) written to the store.

Logs are never rewritten; ``domain.events.upcast`` turns a v1 payload into the current shape as it
is read, so an episode recorded by an earlier release replays, regrades and can even be continued.
"""

from __future__ import annotations

import itertools

import pytest

from domain import events as ev
from domain.tasks import default_catalog
from graders.grader import grade_episode
from service import EnvironmentService
from service.gold import gold
from service.replay import public_fields, replay
from store.eventstore import NewEvent, Projection, RecordedEvent
from tests.play import play

CATALOG = default_catalog()
_IDS = itertools.count(1)



def _as_v1(recorded: list[RecordedEvent], episode_id: str) -> list[NewEvent]:
    """The same log as an earlier release wrote it: ReplyDrafted v1 kept the draft in reply_text."""
    out = []
    for r in recorded:
        data = r.data
        if r.type == ev.EpisodeStarted.type:
            data = dict(data, episode_id=episode_id)
        if r.type == ev.ReplyDrafted.type:
            assert r.version == ev.ReplyDrafted.version == 2
            out.append(NewEvent(r.type, 1, {"reply_text": data["text"]}))
            continue
        out.append(NewEvent(r.type, r.version, data))
    return out


def _write_v1(service: EnvironmentService, recorded: list[RecordedEvent]) -> str:
    episode_id = f"v1-episode-{next(_IDS)}"
    started = recorded[0].data
    service.store.create(episode_id, started["task_id"], started["seed"], _as_v1(recorded, episode_id),
                         Projection("open", 0, 0.0))
    stored = service.store.load(episode_id)
    assert sum(1 for r in stored if r.type == ev.ReplyDrafted.type and r.version == 1) >= 1
    assert all("reply_text" in r.data for r in stored if r.type == ev.ReplyDrafted.type)
    return episode_id


@pytest.mark.parametrize("task_id", ["task_easy_password", "task_hard_refund_policy_denial",
                                     "task_medium_angry_escalation"])
def test_a_v1_reply_folds_and_grades(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance(task_id, 2)
    live = play(service, task_id, gold(task), seed=2)[-1]
    episode_id = _write_v1(service, service.load_events(live.episode_id))

    folded = EnvironmentService(service.db, service.catalog).state(episode_id)  # a fresh process
    assert folded.reply_draft == live.state.reply_draft is not None
    assert public_fields(folded) == public_fields(live.state)
    assert folded.rewards == live.state.rewards and folded.score == 1.0

    stored = service.store.load(episode_id)
    grade = grade_episode(ev.upcast(r.type, r.version, r.data) for r in stored)
    assert grade.score == 1.0
    report = replay(stored, service.catalog)
    assert report.consistent, report.to_json()["divergences"]
    assert report.recomputed_score == 1.0
    assert service.observation(episode_id).reply_draft == live.state.reply_draft


def test_an_episode_recorded_with_v1_events_can_be_continued(service) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance("task_medium_double_charge")
    sol = gold(task)
    reply_step = next(i for i, a in enumerate(sol, 1) if a["action_type"] == "draft_reply")
    partial = play(service, task.task_id, sol[:reply_step])[-1]
    episode_id = _write_v1(service, service.load_events(partial.episode_id))
    fresh = EnvironmentService(service.db, service.catalog)
    for action in sol[reply_step:]:
        result = fresh.step(episode_id, action)
    assert result.done and result.state.score == 1.0
    assert replay(fresh.load_events(episode_id), fresh.catalog).consistent


def test_upcast_refuses_a_version_newer_than_the_code() -> None:
    with pytest.raises(ValueError, match="newer than this code"):
        ev.upcast(ev.ReplyDrafted.type, 3, {"text": "hi"})
    assert ev.upcast(ev.ReplyDrafted.type, 1, {"reply_text": "hi"}) == ev.ReplyDrafted("hi")


def test_a_v1_grade_reads_with_no_violations_and_a_v2_keeps_them() -> None:
    """StepGraded v1 (grader 1.1, before ``violations``) upcasts to v2 with none."""
    v1 = {"step": 1, "reward": -0.02, "score": 0.0, "reward_units": -200, "score_units": 0,
          "raw_units": -200, "penalty_units": 200, "components": {},
          "penalties": [{"rule": "noop", "units": 200, "reason": "no-op: stalling"}],
          "done": False, "grader_version": "ticketledger-grader/1.1"}
    graded = ev.upcast("StepGraded", 1, v1)
    assert isinstance(graded, ev.StepGraded) and graded.violations == ()
    assert graded.data == {**v1, "violations": []}
    broke = ev.Violation("asks_for_secret", "asks for a password", 3)
    v2 = dict(graded.data, violations=[{"rule": broke.rule, "reason": broke.reason, "step": 3}])
    assert ev.upcast("StepGraded", 2, v2).violations == (broke,)  # type: ignore[union-attr]
