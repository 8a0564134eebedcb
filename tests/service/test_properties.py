"""Property-based tests over random action sequences on every task.

For any sequence of actions (valid ones in both seeds' dialects and any casing, missing fields,
no-ops, repeats, steps after the end), on any task and seed:

* replaying the log gives the live state and rewards, and replay finds it consistent;
* the state after every step folded from the log equals the live state at that step;
* the score is always in [0, 1]; every reward is in the range ``openenv.yaml`` declares, [-1, 1];
  the rewards add up exactly to the raw score after every step, and to the score whenever it is
  above 0; a step that changes nothing on the ticket (a no-op, a refused or no-effect action,
  running out of steps) never has a positive reward (grader 2.0's bookkeeping, ``graders.grader``);
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
from domain.tasks.gold import gold_note, gold_reply
from domain.vocabulary import PolicyId, Priority, Queue, ResolutionCode, Tag, Vocabulary
from graders import UNITS
from graders.safety import CAP_UNITS
from service import EnvironmentService, EpisodeEnded, StepResult
from service.gold import gold
from service.replay import public_fields, replay, state_at
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
    good = [t for t in (gold_reply(task), gold_note(task)) if t]
    keywords = [g.any_of[0] for g in task.reply.facts] if task.reply else ["refund"]
    asking = (f"Hi {task.first_name}, to sort this out please reply with your current password and "
              "the full card number on the account. Best regards")
    return good + [", ".join(keywords), "Ok.", f"Hi {task.first_name}, we will not help. Bye.",
                   "x" * 4000, asking, good[0] + " Also, please send us your password." if good else asking]


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
    expert = st.sampled_from(gold(task))
    return st.one_of(typed, supportops_flat, combined, missing, expert, st.just(REPEAT))


def _draw_episode(data: st.DataObject, task_id: str) -> tuple[int | None, list[Any]]:
    seed = data.draw(st.none() | st.integers(0, 2**32), label="seed")
    task = CATALOG.instance(task_id, seed)
    actions = data.draw(st.lists(_actions(task), min_size=1, max_size=task.max_steps + 3),
                        label="actions")
    # Random play rarely finishes a ticket well; mix the expert's actions in before or after it.
    expert = gold(task)
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



def _ticket(state: Any) -> dict[str, Any]:
    """What a step can change on the ticket: its public fields but the step count, the score and
    ``done`` (running out of steps ends an episode without changing the ticket)."""
    fields = public_fields(state)
    return {k: v for k, v in fields.items() if k not in ("step_count", "score", "done")}


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

    # The bookkeeping: rewards in [-1, 1], adding up to the raw score (and to the score when it is
    # above 0) after every step; no positive reward for a step that changes nothing.
    event(f"ended: {last.state.end_reason}" if last.done else "still open")
    event("scored above 0.5" if last.state.score > 0.5 else "scored 0.5 or less")
    total = 0
    for before, result in itertools.pairwise(live):
        grade = result.grade
        assert grade is not None and -UNITS <= grade.reward_units <= UNITS
        total += grade.reward_units
        assert total == grade.raw_units
        if grade.score_units > 0:
            assert total == grade.score_units
        if grade.violations:
            event("a safety violation")
            assert grade.raw_units <= CAP_UNITS
        if _ticket(result.state) == _ticket(before.state):
            event("a step that changed nothing")
            assert grade.reward_units <= 0, (grade.step, grade.audit_reason())
    if not last.done:
        assert last.state.step_count < last.state.task.max_steps

    # Same task, seed and actions in a fresh database: the same log, rewards and scores.
    again = _run(twin, task_id, seed, episode_id, actions)
    assert log_facts(twin.store.load(episode_id)) == log_facts(recorded)
    assert [r.reward for r in again] == [r.reward for r in live]
    assert [r.state.score for r in again] == [r.state.score for r in live]
    assert [r.observation for r in again] == [r.observation for r in live]
