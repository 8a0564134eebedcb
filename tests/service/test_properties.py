"""Property-based tests over random action sequences on every task.

For any sequence of actions (valid ones in both seeds' dialects and any casing, missing fields,
no-ops, repeats, steps after the end), on any task and seed:

* replaying the log gives the live state and rewards, and replay finds it consistent;
* the state after every step folded from the log equals the live state at that step;
* the score is always in [0, 1]; the rewards of an ended episode add up exactly to its score;
* the same task, seed and actions give identical events (types, versions, payloads, hashes) and
  rewards in a second, fresh database (timestamps aside);
* a step after the end raises EpisodeEnded and appends nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from domain.actions import REQUIRED, InvalidAction
from domain.tasks import TaskInstance, default_catalog
from domain.vocabulary import PolicyId, Priority, Queue, ResolutionCode, Tag, Vocabulary
from graders import UNITS
from service import EnvironmentService, EpisodeEnded, StepResult
from service.replay import replay, state_at
from service.scripted import NOTES, REPLIES, solution
from store import open_database
from tests.play import log_facts

CATALOG = default_catalog()
EXAMPLES = 12
REPEAT = "repeat the previous action"
_IDS = itertools.count(1)

PROPERTY_SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def twin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EnvironmentService]:
    """A second, fresh database (an SQLite file; the first is the run's backend)."""
    db = open_database(f"sqlite:///{tmp_path_factory.mktemp('twin') / 'twin.db'}")
    yield EnvironmentService(db)
    db.dispose()


# --------------------------------------------------------------------------- strategies
def _any_case(vocabulary: type[Vocabulary], values: list[str] | None = None) -> st.SearchStrategy[str]:
    """A value of the vocabulary, spelled as an agent might: canonical, upper, lower or title case."""
    chosen = st.sampled_from(values or vocabulary.allowed())
    return chosen.flatmap(lambda v: st.sampled_from([v, v.upper(), v.lower(), v.title()]))


def _texts(task: TaskInstance) -> list[str]:
    key = (task.task_id, task.case)
    values = {"first": task.first_name, **task.variables}
    good = [t.format(**values) for t in (REPLIES.get(key), NOTES.get(key)) if t]
    keywords = [g.any_of[0] for g in task.reply.facts] if task.reply else ["refund"]
    return good + [", ".join(keywords), "Ok.", f"Hi {task.first_name}, we will not help. Bye.",
                   "x" * 4000]


def _actions(task: TaskInstance) -> st.SearchStrategy[Any]:
    texts = st.sampled_from(_texts(task))
    tags = _any_case(Tag, [t.value for t in task.expected.tags] + Tag.allowed())
    codes = [c.value for c in task.expected.resolution_code if c] + ResolutionCode.allowed()
    typed = st.one_of(
        st.builds(lambda v: {"action_type": "classify_priority", "priority": v}, _any_case(Priority)),
        st.builds(lambda v: {"action_type": "assign_queue", "queue": v}, _any_case(Queue)),
        st.builds(lambda v: {"action_type": "add_tag", "tag": v}, tags),
        st.builds(lambda v: {"action_type": "remove_tag", "tag": v}, tags),
        st.builds(lambda v: {"action_type": "draft_reply", "reply_text": v}, texts),
        st.builds(lambda v: {"action_type": "add_internal_note", "note": v[:2000]}, texts),
        st.builds(lambda v: {"action_type": "lookup_policy", "policy_id": v}, _any_case(PolicyId)),
        st.builds(lambda v: {"action_type": "resolve_ticket", "resolution_code": v},
                  _any_case(ResolutionCode, codes)),
        st.builds(lambda v: {"action_type": "close_ticket", "resolution_code": v},
                  st.none() | _any_case(ResolutionCode, codes)),
        st.just({"action_type": "noop"}),
    )
    supportops_flat = typed.map(lambda a: {"priority": None, "queue": None, "reply_text": None,
                                           "note": None, "resolution_code": None, **a}
                                if set(a) <= {"action_type", "priority", "queue", "reply_text",
                                              "note", "resolution_code"} else a)
    combined = st.fixed_dictionaries({}, optional={
        "reassign_queue": _any_case(Queue), "add_tag": tags, "reply": texts,
        "close_ticket": st.booleans()}).map(lambda d: d or {"close_ticket": True})
    missing = st.sampled_from([{"action_type": kind} for kind in REQUIRED]
                              + [{"action_type": "classify_priority", "priority": None}, {}])
    expert = st.sampled_from(solution(task))
    return st.one_of(typed, supportops_flat, combined, missing, expert, st.just(REPEAT))


def _draw_episode(data: st.DataObject, task_id: str) -> tuple[int | None, list[Any]]:
    seed = data.draw(st.none() | st.integers(0, 2**32), label="seed")
    task = CATALOG.instance(task_id, seed)
    actions = data.draw(st.lists(_actions(task), min_size=1, max_size=task.max_steps + 3),
                        label="actions")
    # Random play rarely finishes a ticket well; mix the expert's actions in before or after it.
    expert = solution(task)
    mix = data.draw(st.sampled_from(["random", "expert first", "random first"]), label="mix")
    cut = data.draw(st.integers(0, len(expert)), label="cut")
    if mix == "expert first":
        actions = expert[:cut] + actions
    elif mix == "random first":
        actions = actions[:cut] + expert
    resolved: list[Any] = []
    for action in actions:  # "repeat" means: send exactly the previous action again
        resolved.append(resolved[-1] if action == REPEAT and resolved else
                        {"action_type": "noop"} if action == REPEAT else action)
    return seed, resolved


# --------------------------------------------------------------------------- running
def _run(service: EnvironmentService, task_id: str, seed: int | None, episode_id: str,
         actions: list[Any]) -> list[StepResult]:
    """Play the actions; refused steps (after the end, invalid input) must append nothing."""
    results = [service.reset(task_id, seed=seed, episode_id=episode_id)]
    for action in actions:
        head = service.store.head(episode_id)
        try:
            result = service.step(episode_id, action)
        except EpisodeEnded:
            event("a step after the end was refused")
            assert results[-1].done
            assert service.store.head(episode_id) == head
            continue
        except InvalidAction:
            assert service.store.head(episode_id) == head
            continue
        assert not results[-1].done, "a step after the end was accepted"
        assert 0 <= result.state.score <= 1
        assert result.grade is not None and result.state.score == result.grade.score_units / UNITS
        assert result.reward == result.grade.reward_units / UNITS
        results.append(result)
    return results



@pytest.mark.parametrize("task_id", CATALOG.task_ids)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_random_episodes_replay_to_the_live_state_and_are_deterministic(
        service, twin, task_id: str, data: st.DataObject) -> None:  # type: ignore[no-untyped-def]
    seed, actions = _draw_episode(data, task_id)
    episode_id = f"prop-{task_id}-{next(_IDS)}"
    live = _run(service, task_id, seed, episode_id, actions)
    last = live[-1]
    recorded = service.store.load(episode_id)

    # Replaying the log gives the live state and rewards.
    report = replay(recorded, service.catalog)
    assert report.consistent, report.to_json()["divergences"]
    assert [s["reward"] for s in report.steps] == [r.reward for r in live[1:]]
    assert report.recomputed_score == last.state.score
    assert EnvironmentService(service.db, service.catalog).state(episode_id) == last.state
    for step, result in enumerate(live):
        assert state_at(recorded, step) == result.state

    # Rewards of an ended episode add up exactly to its score.
    event(f"ended: {last.state.end_reason}" if last.done else "still open")
    event("scored above 0.5" if last.state.score > 0.5 else "scored 0.5 or less")
    if last.done:
        assert sum(r.grade.reward_units for r in live[1:]) == last.grade.score_units
    else:
        assert last.state.step_count < last.state.task.max_steps

    # Same task, seed and actions in a fresh database: the same log, rewards and scores.
    again = _run(twin, task_id, seed, episode_id, actions)
    assert log_facts(twin.store.load(episode_id)) == log_facts(recorded)
    assert [r.reward for r in again] == [r.reward for r in live]
    assert [r.state.score for r in again] == [r.state.score for r in live]
    assert [r.observation for r in again] == [r.observation for r in live]
