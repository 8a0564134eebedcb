"""The speed-ups keep results identical: memoised parsing, rubric results, folds through drafts.

Each memo or fast path here is checked against the plain computation it stands in for, on the
inputs where a wrong key would show (same value with another type, mutated results, new objects
with equal content).
"""

from __future__ import annotations

import pytest

from domain import actions as act
from domain import events as ev
from domain.actions import InvalidAction, parse_action
from domain.state import EpisodeState, evolve, fold
from domain.tasks.catalog import default_catalog
from domain.tasks.spec import TaskInstance
from graders import rubric
from tests.scripted import solution


def test_memoised_parse_equals_fresh_parse_and_hands_out_fresh_dicts() -> None:
    body = {"action_type": "classify_priority", "priority": "HIGH"}
    first = parse_action(dict(body))
    first.to_json()[0]["priority"] = "tampered"  # a caller keeping and changing its copy
    second = parse_action(dict(body))
    assert second == first
    assert second.to_json() == [{"action_type": "classify_priority", "priority": "high"}]
    assert second.to_json() == act._parse(dict(body)).to_json()


def test_parse_memo_tells_types_apart() -> None:
    assert parse_action({"close_ticket": True}).actions  # a combined close
    with pytest.raises(InvalidAction):
        parse_action({"action_type": "classify_priority", "priority": 1})
    with pytest.raises(InvalidAction):  # rejected bodies are never memoised: raise every time
        parse_action({"action_type": "classify_priority", "priority": 1})
    assert parse_action({"action_type": "noop", "metadata": {"a": 1}}).actions  # not memoisable


def test_rubric_results_shared_by_equal_rubrics_of_new_objects() -> None:
    catalog = default_catalog()
    task = catalog.instance("task_easy_password", None)
    text = solution(task)[-2]["reply_text"]
    again = TaskInstance.model_validate(task.model_dump(mode="json"))  # equal content, new objects
    assert again.reply is not task.reply
    a = rubric.evaluate(task.reply, text, task.first_name)
    b = rubric.evaluate(again.reply, text, again.first_name)
    assert a == b == rubric._evaluate(task.reply, text, task.first_name, ())
    other = catalog.instance("task_easy_feature_question", None)  # another rubric, same text
    assert rubric.evaluate(other.reply, text, task.first_name) == rubric._evaluate(
        other.reply, text, task.first_name, ())


def test_fold_equals_evolving_event_by_event(service) -> None:  # type: ignore[no-untyped-def]
    for task_id in default_catalog().task_ids:
        result = service.reset(task_id, seed=7)
        actions = solution(service.state(result.episode_id).task)
        for action in [{"action_type": "noop"}, {"action_type": "add_tag"}, *actions]:
            result = service.step(result.episode_id, action)
        events = [ev.upcast(r.type, r.version, r.data) for r in service.load_events(result.episode_id)]
        one_by_one = EpisodeState()
        for event in events:
            one_by_one = evolve(one_by_one, event)
        assert fold(events) == one_by_one == result.state
        assert fold(events[3:], fold(events[:3])) == one_by_one


def test_integer_rounding_matches_fraction_rounding() -> None:
    from fractions import Fraction

    from graders.components import _round_ratio, _units

    for weight in range(0, 41):
        for num in range(0, 13):
            for den in range(1, 13):
                expected = round(weight * Fraction(num, den))  # half to even
                assert _round_ratio(weight * num, den) == expected == _units(weight, Fraction(num, den))


def test_equal_recorded_tasks_fold_to_one_shared_object_and_tampered_ones_do_not() -> None:
    task = default_catalog().instance("task_medium_double_charge", 3)
    payload = task.model_dump(mode="json")
    started = ev.Event(ev.EPISODE_STARTED, {"episode_id": "ep_a", "task": payload})
    first, second = fold([started]), fold([started])
    assert first.task == task and first.task is second.task
    changed = dict(payload, expected={**payload["expected"], "priority": "low"})
    other = fold([ev.Event(ev.EPISODE_STARTED, {"episode_id": "ep_b", "task": changed})])
    assert other.task is not first.task and other.task.expected.priority.value == "low"
    assert fold([started]).task.expected == task.expected  # the shared one was not replaced wrongly


def test_every_scorer_reads_only_the_fields_its_memo_is_keyed_on(service) -> None:  # type: ignore[no-untyped-def]
    """A scorer reading a field missing from components.READS would get stale memoised results:
    run each on a view holding only its declared fields (anything else raises AttributeError)."""
    from types import SimpleNamespace

    from graders import components

    states = []
    for task_id in default_catalog().task_ids:
        for seed in (None, 5):
            result = service.reset(task_id, seed=seed)
            actions = solution(service.state(result.episode_id).task)
            noise = [{"action_type": "add_tag", "tag": "refund"}, {"action_type": "noop"}]
            for action in [*actions[:2], *noise, *actions[2:]]:
                if result.done:
                    break
                result = service.step(result.episode_id, action)
                states.append(result.state)
    assert set(components.READS) == set(components.SCORERS)
    for state in states:
        task = state.task
        for name, weight in components._expected(task).weights:
            view = SimpleNamespace(**{f: getattr(state, f) for f in components.READS[name]})
            assert components.SCORERS[name](view, task, weight) == components.SCORERS[name](
                state, task, weight)
        fresh = [components.SCORERS[n](state, task, w) for n, w in components._expected(task).weights]
        assert components.score_components(state) == fresh


def test_task_memo_is_not_fooled_by_a_payload_changed_after_its_fold() -> None:
    """The fold's task memo compares with its own copy of the task: a caller that folds a payload
    and then changes its dict must not make the changed payload come back as the old task."""
    task = default_catalog().instance("task_easy_password", 5)
    payload = task.model_dump(mode="json")
    started = {"episode_id": "ep_memo", "task": payload}
    assert fold([ev.Event(ev.EPISODE_STARTED, started)]).task == task
    payload["title"] = "a changed title"
    again = fold([ev.Event(ev.EPISODE_STARTED, started)]).task
    assert again is not None and again.title == "a changed title"
