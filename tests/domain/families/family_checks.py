"""Checks every multi-turn family passes (the shared contract of issue 18), parametrised by the
family's test module."""

from __future__ import annotations

import json
from collections import Counter

from domain.tasks.catalog import Catalog
from service import EnvironmentService
from tests.domain.families.conversation_catalog import Solver, play

SEEDS = range(120)


def check_instances(catalog: Catalog, task_id: str) -> None:
    """At least 3 cases, each at least 10% of seeds 0..119, and 120 distinct instances."""
    spec = catalog.spec(task_id)
    assert len(spec.cases) >= 3
    variants = [catalog.variant(task_id, seed) for seed in SEEDS]
    cases = Counter(v.task.case for v in variants)
    assert set(cases) == {c.name for c in spec.cases}, cases
    assert min(cases.values()) >= len(SEEDS) // 10, cases
    assert len({v.json_text for v in variants}) == len(SEEDS)
    decisions = {(tuple(r.action for r in c.expected.required_actions),
                  tuple(r.action for r in c.expected.forbidden_actions)) for c in spec.cases}
    assert len(decisions) == len(spec.cases), "cases must differ in required or forbidden actions"


def check_hidden_until_asked(service: EnvironmentService, task_id: str, seeds: range) -> None:
    """No hidden value in any observation before the customer revealed it; in the conversation
    after."""
    for seed in seeds:
        result = service.reset(task_id, seed=seed)
        task = service.state(result.episode_id).task
        assert task is not None and task.hidden_facts
        shown = json.dumps(result.observation.model_dump(mode="json"))
        public = set(task.ticket.facts.values())  # a quoted value may equal one on file
        for fact in task.hidden_facts.values():
            assert fact.value in public or fact.value not in shown, (seed, fact.value)
            assert fact.answer not in shown
        assert "conversation" not in result.observation.model_dump(mode="json")
        label = next(iter(task.hidden_facts.values())).label
        result = service.step(result.episode_id, {"action_type": "message_customer",
                                                  "message": f"Could you send me {label}?"})
        conversation = result.observation.model_dump(mode="json")["conversation"]
        assert [m["speaker"] for m in conversation] == ["agent", "customer"]
        assert next(iter(task.hidden_facts.values())).value in conversation[1]["text"]


def check_solver(service: EnvironmentService, task_id: str, act: Solver, seeds: range) -> None:
    """The family's solver reaches 0.95 on every seed, asking the customer first."""
    low = []
    for seed in seeds:
        result = play(service, task_id, seed, act)
        history = result.observation.action_history
        assert history[0]["action_type"] == "message_customer", (seed, history[0])
        assert result.state.step_count <= result.state.task.max_steps  # type: ignore[union-attr]
        if result.score < 0.95:
            low.append((seed, result.state.task.case, result.score))  # type: ignore[union-attr]
    assert not low, low


def blind(act: Solver) -> Solver:
    """``act``, but it never asks: where it would message the customer, it is shown a
    conversation in which it asked twice and learnt nothing, so it decides without the facts."""
    def without_asking(observation: dict[str, object]) -> dict[str, object]:
        action = act(observation)
        if action["action_type"] != "message_customer":
            return action
        seeded = dict(observation)
        seeded["conversation"] = [{"step": 0, "speaker": "agent", "text": "?"},
                                  {"step": 0, "speaker": "customer", "text": "-"}] * 2
        return act(seeded)
    return without_asking  # type: ignore[return-value]
