"""The scripted customer (``domain.customer``), the ``message_customer`` action and its events:
answers what it recognises, asks what is meant otherwise, grows impatient, never ends anything,
and the same actions always give the same events."""

from __future__ import annotations

from typing import Any

import pytest

from domain import events as ev
from domain.actions import InvalidAction, MessageCustomer, parse_action
from domain.customer import patience, recognise
from domain.tasks import default_catalog
from service import EnvironmentService
from service.environment import to_domain

ORDER_TASK = "task_family_missing_order"
ASK_ORDER = {"action_type": "message_customer", "message": "Could you send me your order number?"}
SMALL_TALK = {"action_type": "message_customer", "message": "How is the weather where you are?"}


@pytest.fixture(scope="module")
def talk(module_service: EnvironmentService) -> EnvironmentService:
    return module_service


def _replies(service: EnvironmentService, episode_id: str) -> list[ev.CustomerReplied]:
    return [e for e in map(to_domain, service.load_events(episode_id))
            if isinstance(e, ev.CustomerReplied)]


def test_the_action_parses_and_needs_its_message() -> None:
    plan = parse_action({"action_type": "message_customer", "message": "What is your order id?"})
    assert plan.actions == (MessageCustomer(message="What is your order id?"),)
    assert parse_action({"action_type": "message_customer"}).rejection == (
        "missing_field", "message_customer needs a non-empty 'message'")
    with pytest.raises(InvalidAction, match="message is 1001 characters long"):
        parse_action({"action_type": "message_customer", "message": "x" * 1001})
    with pytest.raises(InvalidAction):  # the seeds' combined dialect has no way to ask
        parse_action({"reply": "hi", "message": "What is your order id?"})


def test_recognised_request_reveals_the_fact_once(talk: EnvironmentService) -> None:
    result = talk.reset(ORDER_TASK, seed=4)
    task = talk.state(result.episode_id).task
    assert task is not None
    order = task.hidden_facts["order"].value
    result = talk.step(result.episode_id, ASK_ORDER)
    assert order in result.observation.conversation[-1].text
    assert result.state.revealed == (("order", 1),)
    again = talk.step(result.episode_id, {"action_type": "message_customer",
                                          "message": "Sorry, which tracking number was it?"})
    kinds = [r.kind for r in _replies(talk, result.episode_id)]
    assert kinds == ["answer", "repeat"]
    assert again.state.revealed == (("order", 1),)
    assert again.grade is not None
    assert [p.rule for p in again.grade.penalties] == ["stalling"]


def test_unrecognised_questions_get_clarification_then_impatience(talk: EnvironmentService) -> None:
    catalog = default_catalog()
    seed = next(s for s in range(60) if catalog.instance(ORDER_TASK, s).variables["tone"] == "polite")
    task = catalog.instance(ORDER_TASK, seed)
    assert patience(task) == 2
    result = talk.reset(ORDER_TASK, seed=seed)
    penalties = []
    for n in range(4):
        result = talk.step(result.episode_id, {**SMALL_TALK, "message": f"Question {n}: the weather?"})
        assert result.grade is not None
        penalties.append([p.rule for p in result.grade.penalties])
    kinds = [r.kind for r in _replies(talk, result.episode_id)]
    assert kinds == ["clarify", "clarify", "impatient", "impatient"]
    assert penalties == [[], [], ["stalling"], ["stalling"]]
    assert "frustrat" in result.observation.conversation[-1].text.lower() or \
        "aren't getting us anywhere" in result.observation.conversation[-1].text
    assert not result.state.revealed


def test_an_angry_customer_loses_patience_sooner() -> None:
    catalog = default_catalog()
    seed = next(s for s in range(60) if catalog.instance(ORDER_TASK, s).variables["tone"] == "angry")
    assert patience(catalog.instance(ORDER_TASK, seed)) == 1


def test_the_customer_never_ends_the_episode(talk: EnvironmentService) -> None:
    """Only the step budget ends an episode of questions: the customer never closes it."""
    result = talk.reset(ORDER_TASK, seed=2)
    max_steps = result.observation.max_steps
    for n in range(max_steps):
        assert not result.done
        result = talk.step(result.episode_id, {**SMALL_TALK, "message": f"Anything else {n}?"})
    assert result.done and result.state.end_reason == "max_steps"
    assert len(result.observation.conversation) == 2 * max_steps


def test_same_task_seed_and_actions_give_identical_events(talk: EnvironmentService) -> None:
    actions = [SMALL_TALK, ASK_ORDER, ASK_ORDER, {**SMALL_TALK, "message": "And the colour?"}]

    def run() -> list[tuple[str, Any]]:
        result = talk.reset(ORDER_TASK, seed=7)
        for action in actions:
            result = talk.step(result.episode_id, action)
        events = [to_domain(r) for r in talk.load_events(result.episode_id)]
        return [(e.type, e.data) for e in events if not isinstance(e, ev.EpisodeStarted)]

    first, second = run(), run()
    assert first == second
    assert {t for t, _ in first} >= {"CustomerMessaged", "CustomerReplied"}


def test_a_classic_task_has_nothing_hidden(service: EnvironmentService) -> None:
    """Every classic task accepts the action; its customer has nothing to add, reveals nothing,
    and its task JSON carries no member for hidden facts (recorded digests are unchanged)."""
    catalog = default_catalog()
    for task_id in catalog.task_ids:
        variant = catalog.variant(task_id, 0)
        assert "hidden_facts" not in variant.json_text and "needs_facts" not in variant.json_text
    result = service.reset("task_easy_password", seed=0)
    assert "conversation" not in result.observation.model_dump(mode="json")
    result = service.step(result.episode_id, ASK_ORDER)
    assert result.observation.last_action_error is None
    assert result.state.revealed == ()
    assert result.observation.conversation[-1].speaker == "customer"


def test_recognise_matches_whole_words_in_any_case() -> None:
    facts = default_catalog().instance(ORDER_TASK, 0).hidden_facts
    assert recognise(facts, "What's your ORDER number?") == ("order",)
    assert recognise(facts, "Please reply in an orderly fashion") == ()


def test_customer_events_round_trip() -> None:
    replied = ev.CustomerReplied("It's order SO-1.", ("order",), "answer", "llm", "m", "abc", None)
    assert ev.upcast(replied.type, replied.version, replied.data) == replied
    sent = ev.CustomerMessaged("Which order?")
    assert ev.upcast(sent.type, sent.version, sent.data) == sent


def test_a_spec_must_declare_the_facts_its_cases_need_and_answer_with_their_values() -> None:
    from domain.tasks.catalog import _materialise
    from domain.tasks.spec import TaskSpec
    spec = default_catalog().spec(ORDER_TASK)
    data = spec.model_dump(mode="json")
    data["cases"][0]["expected"]["needs_facts"] = ["receipt"]
    with pytest.raises(ValueError, match="needs the unknown hidden fact 'receipt'"):
        TaskSpec.model_validate(data)
    data = spec.model_dump(mode="json")
    data["ticket"]["hidden_facts"]["order"]["answer"] = "I don't remember it."
    with pytest.raises(ValueError, match="does not contain its value"):
        _materialise(TaskSpec.model_validate(data), 3)
