"""Ending an episode from outside a step (``domain.decide.end``): what it decides, and how the
graders split a log that ends so (``graders.grader.split_steps``). Pure: no store, no service."""

from __future__ import annotations

import pytest

from domain import events as ev
from domain.actions import parse_action
from domain.decide import EpisodeFinished, EpisodeNotStarted, UnknownClosing, decide, end, start
from domain.state import EMPTY, EpisodeState, evolve, fold
from domain.tasks import default_catalog
from graders.grader import split_steps
from graders.versions import CURRENT, GRADERS, grader_for
from service.environment import settle

CATALOG = default_catalog()
TASK = "task_easy_password"


def _played(actions: list[dict[str, object]], version: str = CURRENT) -> list[ev.Event]:
    """The events an episode of ``actions`` records, graded by ``version`` (the current grader's
    way: decide, fold, settle), as the service writes them."""
    first = start("ep_closing", CATALOG.variant(TASK, 1), grader_version=version)
    events: list[ev.Event] = [first]
    state = evolve(EMPTY, first)
    for action in actions:
        step_events = decide(state, parse_action(action))
        state, _, recorded = settle(state, step_events, fold(step_events, state))
        events += recorded
    return events


STEPS: list[dict[str, object]] = [
    {"action_type": "classify_priority", "priority": "high"},
    {"action_type": "noop"},
    {"action_type": "noop"},  # a repeat: penalised, so the raw score sits below the components
]


def test_an_open_episode_ends_with_one_event_that_is_a_limit() -> None:
    state = fold(_played(STEPS))
    for reason in sorted(ev.CLOSINGS):
        closing = end(state, reason)
        assert closing == [ev.EpisodeEnded(reason)]
        after = fold(closing, state)
        assert after.done and after.truncated and not after.terminated
        assert after.end_reason == reason
        # nothing else moves: the score, the rewards and the steps are the last step's
        assert (after.score, after.rewards, after.steps, after.step_count) == (
            state.score, state.rewards, state.steps, state.step_count)
    assert ev.CLOSINGS <= ev.LIMITS and not ev.CLOSINGS & ev.END_STATES


def test_an_ended_episode_cannot_be_ended_again() -> None:
    state = fold(_played(STEPS))
    ended = fold(end(state, "cut_off"), state)
    with pytest.raises(EpisodeFinished, match=r"has already ended \(cut_off\); there is nothing to end"):
        end(ended, "disconnected")
    solved = fold(_played([{"action_type": "noop"}] * CATALOG.instance(TASK, 1).max_steps))
    assert solved.end_reason == "max_steps"
    with pytest.raises(EpisodeFinished, match=r"already ended \(max_steps\)"):
        end(solved, "cut_off")
    with pytest.raises(EpisodeFinished):  # and no step goes on after a closing
        decide(ended, parse_action({"action_type": "noop"}))


def test_only_a_closing_reason_ends_from_outside_and_only_a_started_episode() -> None:
    state = fold(_played(STEPS))
    for reason in ("max_steps", "resolved", "closed", "bored"):
        with pytest.raises(UnknownClosing, match="cut_off, disconnected"):
            end(state, reason)
    with pytest.raises(EpisodeNotStarted):
        end(EpisodeState(), "cut_off")


def test_the_closing_is_its_own_part_of_the_log_and_a_steps_end_is_not() -> None:
    played = _played(STEPS)
    closed = [*played, *end(fold(played), "cut_off")]
    head, steps, closing = split_steps(closed)
    assert closing == [ev.EpisodeEnded("cut_off")]
    assert len(steps) == len(STEPS) and all(isinstance(s[-1], ev.StepGraded) for s in steps)
    assert (head, steps) == tuple(split_steps(played))[:2]
    # right after the opening, with no step taken
    opening = _played([])
    assert split_steps([*opening, ev.EpisodeEnded("disconnected")]).closing == [
        ev.EpisodeEnded("disconnected")]
    # an episode that ran out of steps ends inside its last step, before the grade: no closing
    budget = _played([{"action_type": "noop"}] * CATALOG.instance(TASK, 1).max_steps)
    last = split_steps(budget).steps[-1]
    assert split_steps(budget).closing == [] and ev.EpisodeEnded("max_steps") in last


@pytest.mark.parametrize("version", sorted(GRADERS))
def test_every_grader_grades_a_closed_episode_as_its_steps_and_pays_nothing(version: str) -> None:
    """A closing folded into the last step would be graded as part of it; as its own record it
    changes nothing under any version."""
    grader = grader_for(version)
    try:
        played = _played(STEPS, version)
        plain = grader.grade_episode(played)
    except LookupError:
        pytest.skip(f"{version} cannot judge {TASK}")
    closed = [*played, *end(fold(played), "cut_off")]
    graded = grader.grade_episode(closed)
    assert [s.to_event() for s in graded.steps] == [s.to_event() for s in plain.steps]
    assert graded.rewards == plain.rewards and graded.score == plain.score
    assert list(graded.recorded) == [e for e in played if isinstance(e, ev.StepGraded)]
    assert [s.reward_units for s in graded.steps] == [e.reward_units for e in graded.recorded]
