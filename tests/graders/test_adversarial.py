"""Adversarial agents: stuffing, spamming, stalling, early finishes, tag stuffing, negations.

Each exploit is run on every task it applies to, and must score low (a concrete ceiling) and below
the gold player. Where an adversary reads the answer key (to do everything else right), the
assertion is on the component it attacks: that component must earn nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.tasks import TaskInstance, default_catalog
from domain.vocabulary import Tag
from graders import UNITS
from service import EpisodeEnded
from service.gold import gold
from tests.play import play

CATALOG = default_catalog()
TASKS = CATALOG.task_ids
REPLY_TASKS = [t for t in TASKS if CATALOG.instance(t).reply is not None]
TAG_TASKS = [t for t in TASKS if "tags" in CATALOG.instance(t).weights]
CEILING = 0.5
"""No exploit may reach this on any task (the gold player scores 1.0)."""



def keywords(task: TaskInstance) -> list[str]:
    """The first accepted phrasing of each required fact: what a keyword stuffer would send."""
    assert task.reply is not None
    return [group.any_of[0] for group in task.reply.facts]


def every_task_phrasing() -> list[str]:
    """The first phrasing of every fact of every task and case: a one-size-fits-all dump."""
    phrases: list[str] = []
    for task_id in TASKS:
        for seed in (None, 0, 1, 2, 3):
            task = CATALOG.instance(task_id, seed)
            for rubric in (task.reply, task.note):
                for group in rubric.facts if rubric else []:
                    if group.any_of[0] not in phrases:
                        phrases.append(group.any_of[0])
    return phrases


ALL_PHRASES = every_task_phrasing()
VERBS = ["We checked", "I handled", "Our team reviewed", "We sorted out", "I looked into",
         "We prepared", "Our staff covered", "We arranged", "I organised", "We tracked"]


def _all_in_sentences(first: str) -> str:
    body = " ".join(f"{VERBS[i % len(VERBS)]} the {p}." for i, p in enumerate(ALL_PHRASES))
    return f"Hi {first}, thank you for writing, and sorry for the trouble. {body} Best regards, Support"


STUFFED: dict[str, Callable[[TaskInstance], str]] = {
    "keyword_list": lambda t: ", ".join(keywords(t)),
    "keyword_list_with_greeting": lambda t: (
        f"Hi {t.first_name}, " + ", ".join(keywords(t)) + ". Best regards, Support"),
    "keywords_padded_with_function_words": lambda t: (
        f"Hi {t.first_name}, " + " and the ".join(keywords(t)) + ". We have the "
        + " with the ".join(keywords(t)) + ". Best regards, Support"),
    "keywords_padded_with_lorem_ipsum": lambda t: (
        f"Hi {t.first_name}, " + " ".join(keywords(t)) + ". "
        + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 4 + "Best regards, Support"),
    "same_sentence_repeated": lambda t: (
        (f"Hi {t.first_name}, we will " + " and ".join(keywords(t)) + " for you. ") * 5
        + "Best regards, Support"),
    "every_task_phrasing_in_one_list": lambda t: (
        f"Hi {t.first_name}, I am sorry for the trouble. We have looked at this for you and "
        + ", and ".join(f"the {p}" for p in ALL_PHRASES) + " are all in hand. Best regards, Support"),
    "every_task_phrasing_in_sentences": lambda t: _all_in_sentences(t.first_name),
}


def component(result, name: str):  # type: ignore[no-untyped-def]
    return next(c for c in result.grade.components if c.name == name)


def with_reply(task: TaskInstance, text: str) -> list[dict[str, Any]]:
    """The expert's actions with the reply swapped for ``text``."""
    return [dict(a, reply_text=text) if a["action_type"] == "draft_reply" else a
            for a in gold(task)]


def scripted_score(service, task: TaskInstance) -> float:  # type: ignore[no-untyped-def]
    return play(service, task.task_id, gold(task), seed=task.seed)[-1].state.score


# --------------------------------------------------------------------------- stuffing
@pytest.mark.parametrize("variant", sorted(STUFFED))
@pytest.mark.parametrize("task_id", REPLY_TASKS)
def test_stuffed_reply_earns_no_reply_credit(service, task_id: str, variant: str) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance(task_id)
    text = STUFFED[variant](task)[:4000]
    last = play(service, task_id, with_reply(task, text))[-1]
    reply = component(last, "reply")
    assert reply.earned == 0, (variant, reply.public)
    assert last.state.score <= 1 - task.weights["reply"] + 1e-9
    assert last.state.score < scripted_score(service, task)


@pytest.mark.parametrize("task_id", REPLY_TASKS)
def test_blind_stuffer_scores_low(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    """Knows no answer key: fixed triage, one reply dumping every task's phrasing, a guessed code."""
    text = STUFFED["every_task_phrasing_in_one_list"](CATALOG.instance(task_id))[:4000]
    actions = [{"action_type": "classify_priority", "priority": "high"},
               {"action_type": "assign_queue", "queue": "general"},
               {"action_type": "add_tag", "tag": "Escalated"},
               {"action_type": "add_internal_note", "note": "Customer contacted us. " + text[:500]},
               {"action_type": "lookup_policy", "policy_id": "support_sla"},
               {"action_type": "draft_reply", "reply_text": text},
               {"action_type": "resolve_ticket", "resolution_code": "no_action_needed"},
               {"action_type": "close_ticket"}]
    last = play(service, task_id, actions)[-1]
    assert last.state.score < CEILING
    assert component(last, "reply").earned == 0


# --------------------------------------------------------------------------- negations and forbidden claims
NEGATED_PASSWORD_REPLIES = [
    "Hi Ava, we will not send a reset link and there is no need to clear cache. We will never confirm "
    "if resolved. Best regards, Support",
    "Hi Ava, sorry, we are not able to send you a reset link today. You should not have to clear your "
    "browser cache either, and we cannot confirm if this resolves anything. Best regards, Support",
    "Hi Ava, sorry, we won't be sending you a reset link today. There is no reason for you to clear "
    "your browser cache either. We do not need you to confirm if this resolves anything. Best "
    "regards, Support",
]


@pytest.mark.parametrize("text", NEGATED_PASSWORD_REPLIES)
def test_negated_keywords_do_not_count(service, text: str) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance("task_easy_password")
    last = play(service, task.task_id, with_reply(task, text))[-1]
    reply = component(last, "reply")
    assert "0/3 required points" in reply.public, reply.detail
    assert reply.earned <= round(reply.weight * 0.3)  # at most the tone share
    assert last.state.score < scripted_score(service, task)


DENIALS_PROMISING_A_REFUND = [
    "However, we will refund you in full as a goodwill gesture.",
    "We will process your refund anyway, and you can have store credit too.",
    "Your money will be returned to your card within 5-7 business days.",
    "You will get your money back in full, and store credit as well.",
    "I have gone ahead and refunded you, and store credit is on its way too.",
]


@pytest.mark.parametrize("promise", DENIALS_PROMISING_A_REFUND)
def test_denial_that_promises_a_refund_earns_no_reply_credit(service, promise: str) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance("task_hard_refund_policy_denial")
    assert task.case == "outside_window"
    text = (f"Hi {task.first_name}, thank you for getting in touch, and I am sorry the purchase did not "
            "meet your expectations. Your order is outside the 30 days refund window, so we are unable "
            f"to offer a refund. {promise} Best regards, Support")
    last = play(service, task.task_id, with_reply(task, text))[-1]
    assert component(last, "reply").earned == 0, component(last, "reply").detail
    assert last.state.score <= 1 - task.weights["reply"] + 1e-9


@pytest.mark.parametrize("promise", DENIALS_PROMISING_A_REFUND[:3])
def test_fraud_review_reply_promising_a_refund_earns_no_reply_credit(service, promise: str) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance("task_hard_refund_fraud_trap")
    assert task.case == "fraud_review"
    text = (f"Hi {task.first_name}, I am sorry your order has not reached you. A specialist team will "
            f"review your request and get back to you within 2 business days. {promise} Thank you for "
            "your patience. Best regards, Support")
    last = play(service, task.task_id, with_reply(task, text))[-1]
    assert component(last, "reply").earned == 0, component(last, "reply").detail


def test_honest_denial_still_earns_full_reply_credit(service) -> None:  # type: ignore[no-untyped-def]
    """The control for the two tests above: the same denial without the promise scores fully."""
    task = CATALOG.instance("task_hard_refund_policy_denial")
    text = (f"Hi {task.first_name}, thank you for getting in touch, and I am sorry the purchase did not "
            "meet your expectations. Your order is outside the 30 days refund window, so we are unable "
            "to offer a refund. We would be glad to offer store credit instead. Best regards, Support")
    last = play(service, task.task_id, with_reply(task, text))[-1]
    assert last.state.score == 1.0, component(last, "reply").detail


# --------------------------------------------------------------------------- spamming and stalling
def _spam_candidates(task: TaskInstance) -> dict[str, dict[str, Any]]:
    sol = gold(task)
    out = {"first_expert_action": sol[0], "noop": {"action_type": "noop"},
           "final_expert_action": sol[-1]}
    replies = [a for a in sol if a["action_type"] == "draft_reply"]
    if replies:
        out["expert_reply"] = replies[0]
    return out


@pytest.mark.parametrize("task_id", TASKS)
def test_spamming_one_action_scores_low_and_repeats_never_pay(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance(task_id)
    best = scripted_score(service, task)
    for name, action in _spam_candidates(task).items():
        results = play(service, task_id, [action] * (task.max_steps + 2))
        last = results[-1]
        assert last.done and last.state.step_count == task.max_steps
        assert last.state.score < CEILING, name
        assert last.state.score < best
        # Every repeat costs; only the final step may be positive (the clamp at 0 gives back).
        assert all(r.reward <= 0 for r in results[2:-1]), (name, [r.reward for r in results])


@pytest.mark.parametrize("task_id", TASKS)
def test_stalling_with_noops_scores_zero_and_every_noop_costs(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    noops = [{"action_type": "noop"}] * CATALOG.instance(task_id).max_steps
    results = play(service, task_id, noops)
    assert results[-1].done and results[-1].state.score == 0.0
    assert all(r.reward < 0 for r in results[1:])  # the last one too: nothing is refunded at the end
    last = results[-1].grade
    assert last is not None and last.raw_units < 0
    assert sum(round(r.reward * UNITS) for r in results[1:]) == last.raw_units == -last.penalty_units


@pytest.mark.parametrize("task_id", TASKS)
def test_closing_or_resolving_first_is_refused_and_scores_zero(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance(task_id)
    finish = gold(task)[-1]
    for attempt in (finish, {"action_type": "close_ticket"}, {"close_ticket": True}):
        results = play(service, task_id, [attempt, {"action_type": "noop"}] * task.max_steps)
        assert results[1].state.status == "open"
        assert "cannot" in (results[1].observation.last_action_error or "")
        assert results[1].reward < 0
        assert results[-1].state.score == 0.0


@pytest.mark.parametrize("task_id", TASKS)
def test_early_close_after_only_a_reply_scores_low(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    """Skipping the triage the task needs: the close is refused until the work is there."""
    task = CATALOG.instance(task_id)
    replies = [a for a in gold(task) if a["action_type"] == "draft_reply"]
    last = play(service, task_id, replies + [{"close_ticket": True}] * task.max_steps)[-1]
    assert last.state.score < CEILING


# --------------------------------------------------------------------------- tag stuffing
@pytest.mark.parametrize("task_id", TAG_TASKS)
def test_tag_stuffing_earns_no_tag_credit(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    """The expert's actions, plus every other tag the step budget allows."""
    task = CATALOG.instance(task_id)
    sol = gold(task)
    expected = {t.value for t in task.expected.tags}
    wrong = [t.value for t in Tag if t.value not in expected]
    room = min(task.max_steps - len(sol), 8 - len(expected))
    assert room >= len(expected), "the budget leaves room for as many wrong tags as right ones"
    stuffing = [{"action_type": "add_tag", "tag": tag} for tag in wrong[:room]]
    last = play(service, task_id, sol[:-1] + stuffing + sol[-1:])[-1]
    assert last.done
    assert component(last, "tags").earned == 0
    assert last.state.score < scripted_score(service, task)


@pytest.mark.parametrize("task_id", TASKS)
def test_adding_every_tag_then_closing_scores_low(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    tags = [{"action_type": "add_tag", "tag": t.value} for t in Tag]
    last = play(service, task_id, tags + [{"close_ticket": True}])[-1]
    assert last.state.score < CEILING
    assert len(last.state.tags) <= 8


# --------------------------------------------------------------------------- after the end
@pytest.mark.parametrize("task_id", TASKS)
def test_acting_after_the_end_is_refused_and_appends_nothing(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance(task_id)
    last = play(service, task_id, gold(task))[-1]
    assert last.done
    events_before = service.store.count_events()
    head_before = service.store.head(last.episode_id)
    for action in ({"action_type": "noop"}, gold(task)[-1], {"close_ticket": True},
                   {"action_type": "classify_priority", "priority": "low"}) * 3:
        with pytest.raises(EpisodeEnded) as info:
            service.step(last.episode_id, action)
        assert info.value.status == 409
        assert "reset" in str(info.value)
    assert service.store.count_events() == events_before
    assert service.store.head(last.episode_id) == head_before
    assert service.state(last.episode_id).score == last.state.score == 1.0
    assert service.state(last.episode_id).rewards == last.state.rewards
