"""Observations share nothing mutable with the state or with each other, and are the same whether
the state came from the step just taken or from folding the log.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.observation import observe
from domain.tasks import default_catalog
from service import EnvironmentService
from service.gold import gold
from store import open_database

CATALOG = default_catalog()
DETOURS: list[Any] = [
    {"action_type": "add_tag", "tag": "billing"},
    {"action_type": "add_tag", "tag": "billing"},  # repeated: no effect
    {"action_type": "lookup_policy", "policy_id": "refund_policy"},
    {"action_type": "resolve_ticket", "resolution_code": "refund_issued"},  # may be premature
    {"action_type": "not_an_action"},  # invalid: recorded as an invalid step
    {"action_type": "add_internal_note", "note": "checked the account history"},
]


@pytest.fixture(scope="module")
def service():  # type: ignore[no-untyped-def]
    db = open_database("sqlite://")
    yield EnvironmentService(db, CATALOG)
    db.dispose()


def _play(service: EnvironmentService, task_id: str, seed: int | None) -> list[Any]:
    """Every result of an episode: reset, a few detours, then the expert's actions to the end."""
    result = service.reset(task_id, seed)
    results = [result]
    for action in [*DETOURS, *gold(CATALOG.instance(task_id, seed))]:
        if result.done:
            break
        try:
            result = service.step(result.episode_id, action)
        except Exception:  # an action refused outright (422) records nothing: skip it
            continue
        results.append(result)
    return results


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
@pytest.mark.parametrize("seed", [None, 3])
def test_every_observation_is_rebuilt_alike_from_the_log(service, task_id, seed) -> None:  # type: ignore[no-untyped-def]
    """The observation a step returned equals the one built from the state folded from the log
    (what another process or an export sees)."""
    results = _play(service, task_id, seed)
    assert len(results) > 3 and results[-1].done
    for result in results:
        assert result.observation == observe(result.state, CATALOG, result.reward)
    fresh = EnvironmentService(service.db, CATALOG)  # nothing cached: folds the log
    assert fresh.observation(results[-1].episode_id) == results[-1].observation


def test_observations_share_nothing_mutable(service) -> None:  # type: ignore[no-untyped-def]
    task_id = CATALOG.task_ids[0]
    results = _play(service, task_id, 1)
    middle = results[len(results) // 2]
    before = observe(middle.state, CATALOG, middle.reward).model_dump_json()
    obs = middle.observation
    assert obs.action_history and obs.last_action is not None
    obs.tags.append("tampered")
    obs.internal_notes.append("tampered")
    obs.history.append("tampered")
    obs.available_policies.clear()
    obs.policies["tampered"] = "x"
    obs.action_history[0]["action_type"] = "tampered"
    obs.last_action["action_type"] = "tampered"
    obs.ticket.facts["tampered"] = "x"
    obs.ticket.subject = "tampered"
    obs.reward = 99.0  # assignment records the field in model_fields_set: it must be a set
    assert obs.reward == 99.0 and obs.model_copy(update={"step_count": 7}).step_count == 7
    again = observe(middle.state, CATALOG, middle.reward)
    assert again.model_dump_json() == before
    assert "tampered" not in again.model_dump_json()
    assert "tampered" not in service.observation(middle.episode_id).model_dump_json()
