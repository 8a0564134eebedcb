"""Typed events: each reads back from its stored payload as itself, shares nothing mutable with
the code that built it or reads it, and folds the same one by one as all at once."""

from __future__ import annotations

from typing import Any

import pytest

from domain import events as ev
from domain.actions import parse_action
from domain.decide import decide
from domain.state import EMPTY, evolve, fold
from domain.tasks.catalog import default_catalog
from service import EnvironmentService
from service.environment import to_domain
from service.gold import gold
from store.codec import canonical_json
from tests.play import play

CATALOG = default_catalog()
DETOURS: list[Any] = [
    {"action_type": "message_customer", "message": "Is there anything you can add?"},
    {"action_type": "issue_refund", "amount": 12.5},  # back-office actions, right or wrong here
    {"action_type": "update_account_email", "new_email": "someone@elsewhere.example"},
    {"action_type": "schedule_data_deletion"},
    {"action_type": "noop"},
    {"action_type": "add_tag"},  # missing field: rejected
    {"action_type": "add_tag", "tag": "refund", "metadata": {"trace": [1, 2.5, None]}},
    {"action_type": "add_tag", "tag": "refund"},  # no effect
    {"action_type": "remove_tag", "tag": "Refund"},
    {"action_type": "classify_priority", "priority": "low"},
    {"reassign_queue": "billing", "add_tag": "VIP"},  # the combined dialect
]


def _episode(service: EnvironmentService, task_id: str, seed: int | None, detours: bool) -> str:
    """The scripted solution, or its first action, the detours, and the rest of it (which may
    run out of steps)."""
    actions = gold(CATALOG.instance(task_id, seed))
    if detours:
        actions = [*actions[:1], *DETOURS, *actions[1:]]
    results = play(service, task_id, actions, seed=seed)
    assert results[-1].done
    return results[0].episode_id


@pytest.fixture(scope="module")
def episodes(module_service: EnvironmentService) -> list[str]:
    return [_episode(module_service, t, s, detours) for t in CATALOG.task_ids
            for s, detours in ((None, False), (4, True))]


def test_every_event_reads_back_as_itself_from_its_stored_payload(
        module_service: EnvironmentService, episodes: list[str]) -> None:
    seen = set()
    for episode_id in episodes:
        for recorded in module_service.load_events(episode_id):
            event = to_domain(recorded)
            seen.add(type(event))
            assert (event.type, event.version) == (recorded.type, recorded.version)
            assert event.data == recorded.data
            assert canonical_json(event.data) == recorded.data_text  # the bytes the chain covers
            assert ev.upcast(event.type, event.version, event.data) == event
    # ReplyJudged is recorded only with an LLM judge: tests/service/test_llm_judge.py reads it back
    assert seen == set(ev.EVENT_TYPES) - {ev.ReplyJudged}


def test_fold_equals_evolving_event_by_event(module_service: EnvironmentService,
                                             episodes: list[str]) -> None:
    for episode_id in episodes:
        events = [to_domain(r) for r in module_service.load_events(episode_id)]
        one_by_one = EMPTY
        for event in events:
            one_by_one = evolve(one_by_one, event)
        assert fold(events) == one_by_one == module_service.state(episode_id)
        assert fold(events[3:], fold(events[:3])) == one_by_one


def test_an_events_data_is_fresh_and_changing_it_changes_nothing() -> None:
    variant = CATALOG.variant("task_medium_double_charge", 3)
    started = ev.EpisodeStarted("ep_a", variant.task.task_id, 3, variant.digest, variant)
    data = started.data
    data["task"]["title"] = "tampered"
    data["task"]["ticket"]["facts"]["tampered"] = "yes"
    assert started.data["task"] == variant.json_form() != data["task"]
    assert "tampered" not in variant.json_text and "tampered" not in variant.task.ticket.facts
    assert ev.upcast(started.type, started.version, started.data) == started


def test_a_body_changed_after_the_step_changes_neither_its_event_nor_the_state() -> None:
    variant = CATALOG.variant("task_easy_password", None)
    state = evolve(EMPTY, ev.EpisodeStarted("ep_b", variant.task.task_id, None, variant.digest,
                                            variant))
    body: dict[str, Any] = {"action_type": "add_tag", "tag": "Password",
                            "metadata": {"notes": ["first"]}}
    events = decide(state, parse_action(body))
    after = fold(events, state)
    body["metadata"]["notes"].append("changed by the caller")
    body["tag"] = "Security"
    received = events[0]
    assert isinstance(received, ev.ActionReceived)
    expected = {"action_type": "add_tag", "tag": "Password", "metadata": {"notes": ["first"]}}
    assert received.raw.value() == expected == after.steps[-1].raw.value()
    read = received.raw.value()
    assert isinstance(read, dict)
    read["tag"] = "changed by a reader"
    assert received.data["raw"] == expected == after.steps[-1].raw.value()


def test_a_payload_changed_after_it_was_read_changes_nothing() -> None:
    variant = CATALOG.variant("task_easy_password", 5)
    payload = ev.EpisodeStarted("ep_c", "task_easy_password", 5, variant.digest, variant).data
    started = ev.upcast("EpisodeStarted", 1, payload)
    payload["task"]["title"] = "a changed title"
    assert fold([started]).task == variant.task
    again = fold([ev.upcast("EpisodeStarted", 1, payload)]).task
    assert again is not None and again.title == "a changed title"


def test_a_recorded_task_is_graded_as_recorded_not_as_the_catalog_has_it() -> None:
    variant = CATALOG.variant("task_medium_double_charge", 3)
    payload = ev.EpisodeStarted("ep_d", variant.task.task_id, 3, variant.digest, variant).data
    payload["task"]["expected"]["priority"] = "low"
    state = fold([ev.upcast("EpisodeStarted", 1, payload)])
    assert state.variant is not None and state.variant.key.priority == "low"
    assert variant.key.priority != "low"
    assert state.variant.digest != variant.digest  # what replay compares with the catalog's


def test_unknown_and_future_events_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown event type"):
        ev.upcast("TicketEscalated", 1, {})
    with pytest.raises(ValueError, match="newer than this code"):
        ev.upcast("TagAdded", 2, {"tag": "VIP"})
