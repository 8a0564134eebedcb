"""The baseline and the back-office actions: the LLM prompt names them, and the built-in policy
carries its decisions out on the account without ever taking an action the case forbids."""

from __future__ import annotations

import pytest

from baseline.chat import render_messages
from baseline.policy import next_action
from domain.tasks import default_catalog
from domain.vocabulary import BACK_OFFICE_ACTIONS
from graders.decisions import unmet_required
from graders.safety import violations
from service import EnvironmentService

CATALOG = default_catalog()


def test_the_llm_prompt_names_every_back_office_action_and_the_account(service: EnvironmentService) -> None:
    observation = service.reset("task_hard_refund_fraud_trap").observation.model_dump(mode="json")
    system, user = render_messages(observation)
    rules = str(system["content"]).split("Action JSON schema:")[0]
    for action in BACK_OFFICE_ACTIONS:
        assert action in rules, action
        assert f'"{action}"' in str(system["content"]), action  # in the schema too
    assert '"account":{"email":"omar@example.com","charged":129.0' in str(user["content"])


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_the_builtin_policy_takes_what_the_case_requires_and_nothing_it_forbids(
        service: EnvironmentService, task_id: str) -> None:
    cases = set()
    for seed in (None, *range(10)):
        result = service.reset(task_id, seed=seed)
        while not result.done:
            result = service.step(result.episode_id, next_action(result.observation))
        state = service.state(result.episode_id)
        assert state.task is not None
        cases.add(state.task.case)
        assert violations(state) == (), (task_id, seed)
        if state.task.source == "ticketledger":
            assert unmet_required(state) == (), (task_id, seed, state.task.case)
    assert len(cases) == len(CATALOG.spec(task_id).cases)
