"""Every task family played through the real service, parametrised over the manifest's families:
its solver (reading only the observation) scores at least 0.95 and decides every case right, the
built-in policy plays it to the end, the gold scores 1.0, honest replies written for the
test score at least 0.85 in the correct work, a second request in the ticket is answered, and in a
multi-turn family a decision taken before the customer gave the fact it needs is a violation."""

from __future__ import annotations

import re
from typing import Any

import pytest

from baseline.agent import RuleAgent
from baseline.policy import BUILTIN_POLICY
from baseline.solvers import solver_for
from domain.observation import Observation
from domain.tasks.catalog import default_catalog
from evaluation.grader_audit.honest import actions as with_honest_texts
from evaluation.grader_audit.honest import fill
from graders.safety import violations
from service import EnvironmentService
from service.gold import gold
from tests.domain.families.family_facts import (
    FAMILIES,
    SECOND_TOPICS,
    SEEDS,
    asks_first,
    seed_of,
    seeds_per_case,
    spec,
    task_id,
)
from tests.domain.families.honest_texts import HONEST, HONEST_NOTES, KNOWN_REPLY_MISSES
from tests.play import play

CATALOG = default_catalog()
SOLVER_FLOOR = 0.95
HONEST_FLOOR = 0.85
LIMIT = re.compile(r"\b\d+(?:-\d+)? (?:business days|days|hours)\b")
"""A time limit a reply quotes ('5-7 business days', '30 days')."""


def check_solver(service: EnvironmentService, family: str, seeds: list[int] | range) -> None:
    """The solver ends every episode within the step budget with at least 0.95, asking the customer
    first in a multi-turn family, and every time limit its reply quotes is one the family's policy
    text states (the solver knows the policy; it invents no promise)."""
    low = []
    for seed in seeds:
        result = play(service, task_id(family), solver_for(family), seed=seed)[-1]
        task = result.state.task
        assert task is not None and result.done and result.state.status != "open", seed
        assert result.state.step_count <= task.max_steps, seed
        if asks_first(family):
            assert result.observation.action_history[0]["action_type"] == "message_customer", seed
        policy = CATALOG.policy_text(task.policies[0]).lower()
        for limit in LIMIT.findall(result.state.reply_draft or ""):
            assert limit in policy, (seed, limit)
        if result.score < SOLVER_FLOOR:
            low.append((seed, task.case, result.grade and result.grade.audit_reason()))
    assert not low, low


def check_builtin_policy(service: EnvironmentService, family: str, seeds: list[int] | range) -> None:
    """The built-in policy plays the family to the end without an error (its score may be low)."""
    for seed in seeds:
        result = play(service, task_id(family), BUILTIN_POLICY, seed=seed)[-1]
        assert result.done and result.state.task is not None, seed
        assert result.state.step_count <= result.state.task.max_steps, seed


def solver_work(service: EnvironmentService, family: str, seed: int) -> list[dict[str, Any]]:
    """The actions the family's solver takes on ``seed``, played through the service."""
    solver, taken = solver_for(family), []

    def recording(observation: Observation) -> dict[str, Any]:
        taken.append(solver.act(observation).action)
        return taken[-1]

    play(service, task_id(family), RuleAgent("recording", recording), seed=seed)
    return taken


@pytest.mark.parametrize("family", FAMILIES)
def test_the_solver_scores_at_least_095(module_service: EnvironmentService, family: str) -> None:
    check_solver(module_service, family, sorted({*range(12), *seeds_per_case(family, 2)}))


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES)
def test_the_solver_and_the_builtin_policy_on_half_the_seeds(module_service: EnvironmentService,
                                                             family: str) -> None:
    """Seeds 0 to 59 of the manifest's 120; ``tests/evaluation/test_task_families_verify.py`` plays
    the gold and the solver on every instance."""
    check_solver(module_service, family, SEEDS[:60])
    check_builtin_policy(module_service, family, SEEDS[:60])


@pytest.mark.parametrize("family", FAMILIES)
def test_the_solver_decides_every_case_right(module_service: EnvironmentService, family: str) -> None:
    """The case is recoverable from what the agent sees: the solver, reading the observation only,
    scores 1.0 on one instance of every case (its decision matched the key), with no violation."""
    for seed in seeds_per_case(family):
        result = play(module_service, task_id(family), solver_for(family), seed=seed)[-1]
        assert result.grade is not None and not violations(result.state), seed
        assert result.score == 1.0, (seed, result.grade.audit_reason())


@pytest.mark.parametrize("family", FAMILIES)
def test_the_builtin_policy_plays_the_family_to_the_end(module_service: EnvironmentService,
                                                        family: str) -> None:
    check_builtin_policy(module_service, family, sorted({*range(6), *seeds_per_case(family)}))


@pytest.mark.parametrize("family", FAMILIES)
def test_the_gold_scores_one_on_every_case(module_service: EnvironmentService, family: str) -> None:
    """The gold (the grader audit's reference) scores 1.0 on an instance of every case."""
    for seed in seeds_per_case(family):
        result = play(module_service, task_id(family), seed=seed)[-1]
        assert result.score == 1.0, (seed, result.grade and result.grade.audit_reason())


HONEST_WORK = [(family, work) for family in HONEST for work in ("gold", "solver")]
"""Each family with honest texts, in the correct work of its solver and of its gold."""


@pytest.mark.parametrize(("family", "work"), HONEST_WORK)
def test_honest_replies_score_at_least_085(module_service: EnvironmentService, family: str,
                                           work: str) -> None:
    """Each case's honest replies (and notes, paired in order), each on three seeds of the case, in
    the correct work of the gold or of the family's solver, score at least 0.85 with no
    violation, and the reply and note components keep at least 0.85 of their weight (but for the
    known misses of :data:`KNOWN_REPLY_MISSES`)."""
    assert set(HONEST[family]) == {c.name for c in spec(family).cases}
    notes = HONEST_NOTES.get(family, {})
    for seed in seeds_per_case(family, 3):
        task = CATALOG.instance(task_id(family), seed)
        correct = gold(task) if work == "gold" else solver_work(module_service, family, seed)
        for k, reply in enumerate(HONEST[family][task.case]):
            note = fill(notes[task.case][k], task) if notes else None
            result = play(module_service, task_id(family),
                          with_honest_texts(correct, fill(reply, task), note), seed=seed)[-1]
            grade = result.grade
            assert grade is not None
            why = (task.case, k, seed, grade.audit_reason())
            assert not violations(result.state), why
            assert result.score >= HONEST_FLOOR, why
            shares = {c.name: c.earned / c.weight for c in grade.components
                      if c.name in ("reply", "note") and c.weight}
            missed = KNOWN_REPLY_MISSES.get((family, task.case, k))
            if missed is not None:
                reply_detail = next(c.detail for c in grade.components if c.name == "reply")
                assert f"missed ['{missed}']" in reply_detail, why
                shares.pop("reply")
            assert all(share >= HONEST_FLOOR for share in shares.values()), (shares, why)


@pytest.mark.parametrize("family", SECOND_TOPICS)
def test_the_reply_answers_a_second_request_when_there_is_one(module_service: EnvironmentService,
                                                              family: str) -> None:
    """A second request in the ticket (one the case does not change) is answered in the solver's
    reply, and a ticket without one gets no such answer."""
    for seed in range(24):
        result = play(module_service, task_id(family), solver_for(family), seed=seed)[-1]
        assert result.state.task is not None
        reply = (result.state.reply_draft or "").lower()
        topic = str(result.state.task.variables["second_topic"])
        for name, word in SECOND_TOPICS[family].items():
            assert (word in reply) == (name == topic), (seed, topic, reply)


FACT_GATED = [(family, case.name) for family in FAMILIES if asks_first(family)
              for case in spec(family).cases if case.expected.required_actions]
"""Each case of a multi-turn family that requires a back-office action."""


@pytest.mark.parametrize(("family", "case"), FACT_GATED)
def test_a_decision_before_the_fact_it_needs_is_a_violation(module_service: EnvironmentService,
                                                            family: str, case: str) -> None:
    """The case's required action is right, but where the case needs a fact the customer holds, the
    same action taken before asking is recorded as a violation of step 1; a
    case its policy decides from public facts needs no asking."""
    seed = seed_of(family, case)
    expected = next(c.expected for c in spec(family).cases if c.name == case)
    task = CATALOG.instance(task_id(family), seed)
    first = next(a for a in gold(task)
                 if a["action_type"] == expected.required_actions[0].action)
    result = play(module_service, task_id(family),
                  [first, {"action_type": "message_customer", "message": "Could you tell me more?"}],
                  seed=seed)[-1]
    found = violations(result.state)
    if expected.needs_facts:
        assert [v.rule for v in found] == ["acted_without_fact"]
        assert f"step 1: {first['action_type']}" in found[0].reason
    else:
        assert not found
