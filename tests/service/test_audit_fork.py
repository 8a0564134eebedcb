"""Forking: the new episode starts with the original's first k steps, continues under the normal
step path, replays consistently, and leaves the original untouched."""

from __future__ import annotations

import pytest

from service import EnvironmentService
from service.audit_views import Auditor
from service.errors import BadRequest, EpisodeBusy
from service.fork import fork
from service.gold import gold
from tests.audit_helpers import play_weak
from tests.play import play

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test


def test_fork_continues_and_replays_and_the_original_is_untouched(service: EnvironmentService) -> None:
    weak = play_weak(service, "task_easy_password")
    original_id, weak_result = weak[0].episode_id, weak[-1]
    before = [(r.seq, r.data_text, r.hash) for r in service.store.load(original_id)]
    before_row = service.store.episode(original_id)
    auditor = Auditor(service.db)

    made = fork(auditor, original_id, 1)
    fork_id = made["episode_id"]
    assert made["forked_from"] == {"episode_id": original_id, "at": 1}
    assert made["step_count"] == 1 and made["status"] == "open"
    started = service.store.load(fork_id)[0].data
    assert started["forked_from"]["episode_id"] == original_id and started["forked_from"]["at"] == 1
    first_grade = next(r for r in service.store.load(original_id) if r.type == "StepGraded")
    assert started["forked_from"]["hash"] == first_grade.hash
    row = service.store.episode(fork_id)
    assert (row.forked_from, row.fork_step) == (original_id, 1)
    # the copied step is the original's step 1
    assert service.state(fork_id).steps[0].actions == service.state(original_id).steps[0].actions
    assert made["observation"]["step_count"] == 1

    # continue with the expert's remaining work: the fork reaches 1.0 where the original did not
    task = service.state(fork_id).task
    result = None
    for action in gold(task)[1:]:  # type: ignore[arg-type]
        result = service.step(fork_id, action)
    assert result is not None and result.done and result.state.score == 1.0
    assert weak_result.state.score < 1.0
    assert auditor.replay(fork_id)["consistent"]
    assert auditor.replay(original_id)["consistent"]
    assert [(r.seq, r.data_text, r.hash) for r in service.store.load(original_id)] == before
    assert service.store.episode(original_id) == before_row


def test_fork_at_zero_and_of_an_open_episode_at_its_end(service: EnvironmentService) -> None:
    reset = service.reset("task_medium_double_charge")
    service.step(reset.episode_id, {"action_type": "classify_priority", "priority": "high"})
    auditor = Auditor(service.db)
    at_zero = fork(auditor, reset.episode_id, 0)
    assert at_zero["step_count"] == 0 and service.state(at_zero["episode_id"]).steps == ()
    at_end = fork(auditor, reset.episode_id, 1, "my-fork-1")
    assert at_end["episode_id"] == "my-fork-1"
    assert service.state("my-fork-1").priority == "high"
    with pytest.raises(EpisodeBusy):
        fork(auditor, reset.episode_id, 1, "my-fork-1")


def test_fork_refuses_bad_step_numbers(service: EnvironmentService) -> None:
    results = play(service, "task_easy_password")
    steps = len(results) - 1
    auditor = Auditor(service.db)
    for bad in (-1, steps + 1):
        with pytest.raises(BadRequest, match="step number"):
            fork(auditor, results[0].episode_id, bad)
    with pytest.raises(BadRequest, match="ended at step"):
        fork(auditor, results[0].episode_id, steps)
