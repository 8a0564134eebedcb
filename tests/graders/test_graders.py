"""Graders as pure functions: exact unit arithmetic, reasons, the rubric's text checks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.tasks import default_catalog
from graders import UNITS
from graders import text as tx
from graders.grader import grade_episode
from graders.lexicon import foreign_groups
from graders.rubric import evaluate
from service.environment import to_domain
from service.gold import gold
from tests.play import play

CATALOG = default_catalog()



# --------------------------------------------------------------------------- negation
@pytest.mark.parametrize(("text", "phrase"), [
    ("we will not send a reset link", "reset link"),
    ("we are not able to send you a reset link", "reset link"),
    ("we won't be sending you a reset link", "reset link"),
    ("there is no reason for you to clear your browser cache", "clear your browser cache"),
    ("we cannot issue a refund", "issue a refund"),
])
def test_negated_phrases_are_not_affirmed(text: str, phrase: str) -> None:
    assert tx.find_affirmed(text, phrase) == 0


@pytest.mark.parametrize(("text", "phrase"), [
    ("I have sent you a fresh reset link.", "reset link"),
    ("If it did not arrive, no problem. I have sent you a fresh reset link.", "reset link"),
    ("We could not find a problem; please clear your browser cache", "clear your browser cache"),
    ("If it doesn't work, please clear your browser cache", "clear your browser cache"),
    ("No worries at all, we will issue a refund today", "issue a refund"),
])
def test_affirmed_phrases_count_even_near_a_negation_in_another_clause(text: str, phrase: str) -> None:
    assert tx.find_affirmed(text, phrase) == 1


def test_phrases_match_whole_words_only() -> None:
    assert tx.find_affirmed("please see the docstring", "docs") == 0
    assert tx.find_affirmed("the reexport page", "export") == 0
    assert tx.find_affirmed("Open the EXPORT page", "export") == 1
    assert tx.find_affirmed("the exports page", "export") == 1  # inflections are one word


# --------------------------------------------------------------------------- tone
def test_greeting_must_name_the_customer_in_the_opening_line() -> None:
    assert tx.has_greeting("Hi Ava, thanks for writing.", "Ava")
    assert not tx.has_greeting("Hi there, thanks for writing.", "Ava")
    assert not tx.has_greeting("Thanks for writing.\nHi Ava", "Ava")


def test_closing_must_be_at_the_end() -> None:
    assert tx.has_closing("We are on it. Best regards, Support")
    assert not tx.has_closing("Best regards. " + "We are looking into the problem right now. " * 5)


# --------------------------------------------------------------------------- rubric
def test_absent_or_blank_text_earns_nothing() -> None:
    rubric = CATALOG.instance("task_easy_password").reply
    assert rubric is not None
    assert evaluate(rubric, None, "Ava").fraction == 0
    assert evaluate(rubric, "   ", "Ava").fraction == 0


def test_remembered_rubric_results_are_keyed_by_the_rubrics_content() -> None:
    """An equal rubric of a new object gets the same result; another rubric with the same text
    and name gets its own (what judging afresh gives)."""
    from graders.rubric import _evaluate

    task = CATALOG.instance("task_easy_password", None)
    assert task.reply is not None
    text = gold(task)[-2]["reply_text"]
    again = type(task).model_validate(task.model_dump(mode="json"))  # equal content, new objects
    assert again.reply is not None and again.reply is not task.reply
    first = evaluate(task.reply, text, task.first_name)
    assert first == evaluate(again.reply, text, again.first_name) == _evaluate(
        task.reply, text, task.first_name, (), "", tx.LEXICON_2_0)
    other = CATALOG.instance("task_easy_feature_question", None).reply
    assert other is not None
    assert evaluate(other, text, task.first_name) == _evaluate(
        other, text, task.first_name, (), "", tx.LEXICON_2_0)
    assert evaluate(other, text, task.first_name) != first


def test_each_required_fact_and_tone_element_earns_its_share() -> None:
    task = CATALOG.instance("task_easy_password")
    assert task.reply is not None
    full = evaluate(task.reply, gold(task)[-2]["reply_text"], "Ava")
    assert full.fraction == 1
    no_greeting = gold(task)[-2]["reply_text"].replace("Hi Ava,", "Hello,")
    assert evaluate(task.reply, no_greeting, "Ava").fraction == Fraction(17, 20)  # tone 1/2 of 3/10


def test_public_reason_never_names_the_missing_phrasings() -> None:
    task = CATALOG.instance("task_hard_data_breach_report")
    assert task.reply is not None
    text = ("Hi David, thank you for reporting this. We are looking into your report and will "
            "come back to you as soon as we can with more details. Best regards, Support")
    result = evaluate(task.reply, text, "David")
    assert result.fraction < 1
    for group in task.reply.facts:
        for phrase in group.any_of:
            assert phrase not in result.public
    assert "security team" in result.detail  # the audit detail does name them


# --------------------------------------------------------------------------- arithmetic
@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_rewards_are_exact_units_and_sum_to_the_score(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance(task_id)
    noisy = [{"action_type": "noop"}, {"action_type": "classify_priority"}, *gold(task)]
    results = play(service, task_id, noisy)
    last = results[-1]
    for r in results[1:]:
        assert r.grade is not None
        assert r.reward == r.grade.reward_units / UNITS
        assert repr(r.reward) == repr(round(r.reward, 4))  # no float noise
        assert 0 <= r.grade.score_units <= UNITS
    assert results[1].reward < 0 and results[2].reward < 0  # penalised steps show in the reward
    if last.done:
        assert sum(r.grade.reward_units for r in results[1:]) == last.grade.score_units


def test_grade_episode_recomputes_what_the_service_recorded(service) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance("task_hard_refund_fraud_trap", seed=5)
    results = play(service, task.task_id, gold(task), seed=5)
    grade = grade_episode(to_domain(r) for r in service.load_events(results[0].episode_id))
    assert [s.reward_units for s in grade.steps] == [r.grade.reward_units for r in results[1:]]
    assert grade.score == results[-1].state.score == 1.0
    assert [g.reward_units for g in grade.recorded] == [s.reward_units for s in grade.steps]


def test_every_point_has_a_reason(service) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance("task_medium_double_charge")
    last = play(service, task.task_id, [{"action_type": "noop"}, *gold(task)])[-1]
    public = last.grade.public_reason()
    for name in ("priority", "queue", "reply", "resolution"):
        assert f"{name}:" in public
    assert "penalty" not in public  # penalties are per step; this last step had none
    first = service.load_events(last.episode_id)
    graded = [r.data for r in first if r.type == "StepGraded"]
    assert graded[0]["penalties"][0]["rule"] == "noop"
    assert graded[0]["penalties"][0]["reason"]


def test_stuffing_reason_shown_to_the_agent_names_no_rubric_fact() -> None:
    """Fact names ("denial", "approval", "alternative") would tell the agent what the key wants."""
    task = CATALOG.instance("task_hard_refund_policy_denial")
    assert task.reply is not None
    text = ("Hi Priya, sorry. We have the store credit with the store credit and the store credit "
            "with the store credit and the store credit. Best regards, Support")
    result = evaluate(task.reply, text, "Priya")
    assert result.fraction == 0
    assert "alternative" in result.detail
    for group in task.reply.facts:
        assert group.name not in result.public


@pytest.mark.parametrize("task_id", ["task_easy_feature_question", "task_medium_double_charge",
                                     "task_hard_account_email_change"])
def test_keywords_glued_with_filler_earn_nothing(task_id: str) -> None:
    task = CATALOG.instance(task_id)
    assert task.reply is not None
    keys = [group.any_of[0] for group in task.reply.facts]
    text = (f"Hi {task.first_name}, " + " and the ".join(keys) + ". We have the "
            + " with the ".join(keys) + ". Best regards, Support")
    result = evaluate(task.reply, text, task.first_name)
    assert result.fraction == 0
    assert result.public == "says little beyond key phrases"


def test_a_reply_making_every_tickets_points_earns_nothing() -> None:
    dump = []
    for task_id in CATALOG.task_ids:
        reply = CATALOG.instance(task_id).reply
        dump += [group.any_of[0] for group in reply.facts] if reply else []
    task = CATALOG.instance("task_hard_enterprise_outage")
    assert task.reply is not None
    text = ("Hi Nadia, I am sorry for the trouble. We have looked at this for you and "
            + ", and ".join(f"the {p}" for p in dump) + " are all in hand. Best regards, Support")
    result = evaluate(task.reply, text, "Nadia", foreign_groups(task.task_id))
    assert result.fraction == 0
    assert result.public.startswith("makes the points of other tickets")


def test_an_honest_reply_may_share_a_few_ordinary_phrases_with_other_tickets() -> None:
    task = CATALOG.instance("task_hard_enterprise_outage")
    assert task.reply is not None
    text = ("Hi Nadia, I am sorry your checkout is down. We have declared an incident and opened a war "
            "room; our engineers started right away and will keep an eye on the webhook queue. You "
            "will get the next update in 15 minutes. Best regards, Incident Support")
    result = evaluate(task.reply, text, "Nadia", foreign_groups(task.task_id))
    assert result.fraction == 1, result.detail
