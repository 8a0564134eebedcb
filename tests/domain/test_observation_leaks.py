"""The observation never carries the answer key.

For every task and many seeds, every field of every observation of an episode (walked recursively,
keys and values) is searched for the answer key: resolution codes, expected tags, multi-word rubric
phrases, case names and private variable names. A needle only counts as leaked when the agent could
not have known it: it is not in the ticket or the task's public description, and the agent did not
send it itself (its own reply, tags and codes come back in the observation, as they should). Policy
texts are agent knowledge once looked up; they must not name a resolution code. The observation's
``allowed`` vocabularies list every value and are the same for every task: they are
checked to be that constant and left out of the search.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from domain.observation import ALLOWED, Observation, PublicAccount
from domain.tasks import TaskInstance, default_catalog
from domain.vocabulary import ActionType, ResolutionCode, Tag
from service.gold import gold

CATALOG = default_catalog()
SEEDS = [None, *range(8)]



def _strings(value: Any) -> Iterator[str]:
    """Every string in ``value``, dictionary keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


FIXED_WORDS = " ".join([*ActionType.allowed(), *Observation.model_fields, *PublicAccount.model_fields])
"""Words every observation of every task carries (the action types, the field names): they say
nothing about a case, so they are public even where they spell a needle (``place_legal_hold``
holds the case name ``legal_hold``)."""


def _public_text(task: TaskInstance) -> str:
    """What the agent is told about the task from the start."""
    return " ".join([task.title, task.objective, json.dumps(task.ticket.model_dump(mode="json")),
                     FIXED_WORDS]).lower()


def _needles(task_id: str, task: TaskInstance) -> set[str]:
    """The answer key of every case of the task, minus what the public description already says."""
    spec = CATALOG.spec(task_id)
    needles = {code.value for code in ResolutionCode}
    for case in spec.cases:
        needles |= {tag.value for tag in case.expected.tags}
        if case.name != "default":
            needles.add(case.name)
        for rubric in (case.reply, case.note):
            for group in (rubric.facts + rubric.forbidden) if rubric else []:
                needles |= {p for p in group.any_of if len(p.split()) > 1 and "{" not in p}
    public_facts = set(task.ticket.facts)
    needles |= {name for name in task.variables if name not in public_facts}
    needles |= {name for var in spec.variables.values() for choice in var.choices or []
                if isinstance(choice, dict) for name in choice}
    public = _public_text(task)
    return {n.lower() for n in needles if n.lower() not in public}


def _leaks(observation: dict[str, Any], needles: set[str], agent_said: str) -> list[str]:
    """The needles in ``observation`` but its ``allowed`` and ``available_policies`` members: the
    vocabulary of every enumerated field (every resolution code, tag and policy id among them),
    checked here to be the constants every observation of every task carries, so they tell
    nothing of a case."""
    assert observation.pop("allowed") == ALLOWED.model_dump(mode="json")
    assert observation.pop("available_policies") == list(ALLOWED.policy_id)
    policies = observation.pop("policies")
    text = "\n".join(_strings(observation)).lower() + "\n" + "\n".join(policies).lower()
    return sorted(n for n in needles if n in text and n not in agent_said)


def _episode_actions(task: TaskInstance) -> list[dict[str, Any]]:
    """A premature resolve, a wrong and a right triage, then the expert's actions."""
    finish = gold(task)[-1]
    return [finish, {"action_type": "add_tag", "tag": "VIP"}, {"action_type": "noop"},
            *gold(task)]


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_no_observation_of_an_episode_contains_the_answer_key(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    for seed in SEEDS:
        task = CATALOG.instance(task_id, seed)
        needles = _needles(task_id, task)
        assert needles, "the check must have something to look for"
        result = service.reset(task_id, seed=seed)
        said: list[dict[str, Any]] = []
        observations = [result.observation]
        for action in _episode_actions(task):
            if result.done:
                break
            said.append(action)
            result = service.step(result.episode_id, action)
            agent_said = json.dumps(said).lower()
            leaked = _leaks(result.observation.model_dump(mode="json"), needles, agent_said)
            assert not leaked, (task_id, seed, len(said), leaked)
            observations.append(result.observation)
        leaked = _leaks(observations[0].model_dump(mode="json"), needles, "")
        assert not leaked, (task_id, seed, "reset", leaked)
        assert result.done


def test_the_check_finds_a_leak_when_there_is_one(service) -> None:  # type: ignore[no-untyped-def]
    """The control: a state that echoes the key into the observation is caught."""
    task = CATALOG.instance("task_hard_refund_fraud_trap")
    obs = service.reset(task.task_id).observation.model_dump(mode="json")
    obs["history"].append(f"expected: {task.expected.model_dump(mode='json')} case {task.case}")
    leaked = _leaks(obs, _needles(task.task_id, task), "")
    assert "fraud_review_opened" in leaked and "fraud review" in leaked


def test_policy_texts_name_no_resolution_code_or_tag_identifier() -> None:
    identifiers = {c.value for c in ResolutionCode} | {t.value for t in Tag if "_" in t.value}
    for policy_id, text in CATALOG.policies.items():
        found = [i for i in identifiers if i.lower() in text.lower()]
        assert not found, (policy_id, found)


def test_observation_fields_are_only_the_public_ones(service) -> None:  # type: ignore[no-untyped-def]
    observation = service.reset("task_hard_account_email_change", seed=3).observation
    fields = set(observation.model_dump())
    for private in ("expected", "variables", "case", "reply", "note", "weights", "rubric", "task"):
        assert private not in fields
    assert set(observation.ticket.model_dump()) == {
        "ticket_id", "customer_name", "customer_email", "customer_tier", "subject", "message",
        "product_area", "facts"}
