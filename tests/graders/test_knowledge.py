"""graders.knowledge: what an episode knows, and the facts of a text it does not back.

The decisive test: every text the experts write (``service.scripted``'s replies and notes, the
families' ``expert.json``, the questions they send the customer) and every reply and note of
``data/honest_replies.json``, judged against the state the expert is in when writing it, gives no
finding, on every classic task (the honest replies' seeds) and on three seeds of every case of
every family. And the same texts with one amount, date, id, email or window changed give a
finding on that fact. Episodes are played offline, as the server plays them.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from functools import cache
from typing import Any

import pytest

from domain.state import EpisodeState
from domain.tasks.catalog import default_catalog
from domain.tasks.spec import TaskInstance
from graders.entities import Entity, extract
from graders.knowledge import Finding, Knowledge, check, knowledge, requester_verified
from graders.normalize import visible
from service.environment import open_in_memory, step_in_memory
from service.scripted import solution
from tests.databases import sqlite_pass_only
from tests.graders import honest

pytestmark = sqlite_pass_only("pure functions of in-memory episodes; no database")

CATALOG = default_catalog()
TEXT_FIELD = {"message_customer": "message", "add_internal_note": "note", "draft_reply": "reply_text"}
FAMILY_SEEDS_PER_CASE = 3


def instances() -> list[tuple[str, int | None]]:
    """Every classic task on the honest replies' seeds (they reach every case), and the first
    three seeds of every case of every family."""
    out: list[tuple[str, int | None]] = [(t, s) for t in CATALOG.task_ids for s in honest.SEEDS]
    for family in CATALOG.family_ids:
        per_case: dict[str, int] = {}
        for ref in CATALOG.family_instances(family):
            if per_case.get(ref.case, 0) < FAMILY_SEEDS_PER_CASE:
                per_case[ref.case] = per_case.get(ref.case, 0) + 1
                out.append((family, ref.seed))
    return out


INSTANCES = instances()


@cache
def honest_texts() -> dict[tuple[str, str], honest.CaseTexts]:
    return honest.load()


def action_lists(task: TaskInstance) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """The expert's actions, then the same with each honest reply (and note) in place of its own."""
    yield "expert", solution(task)
    entry = honest_texts().get((task.task_id, task.case))
    if entry is None:
        return
    for index, reply in enumerate(entry.replies):
        note = honest.fill(entry.notes[index % len(entry.notes)], task) if entry.notes else None
        yield f"honest reply {index}", honest.actions(task, honest.fill(reply, task), note)


def written(task_id: str, seed: int | None, actions: list[dict[str, Any]]
            ) -> Iterator[tuple[EpisodeState, str, str]]:
    """Each text the actions write, with the state the writer is in just before writing it and
    the action's type."""
    state = open_in_memory(CATALOG, task_id, seed)
    for action in actions:
        field = TEXT_FIELD.get(action["action_type"])
        if field is not None:
            yield state, action["action_type"], action[field]
        state, _ = step_in_memory(state, action)


def judged(state: EpisodeState, action_type: str, text: str) -> tuple[Finding, ...]:
    """The findings on ``text``, as the judge would read them (a note reaches no requester)."""
    known = knowledge(state)
    verified = action_type == "add_internal_note" or requester_verified(state)
    return check(extract(visible(text), known.year), known, requester_verified=verified)


def play(task_id: str, seed: int | None) -> EpisodeState:
    """The expert's episode of (task, seed), played to its end."""
    state = open_in_memory(CATALOG, task_id, seed)
    for action in solution(state.task):  # type: ignore[arg-type]
        state, _ = step_in_memory(state, action)
    return state


# --- the decisive test ----------------------------------------------------------------------------


@pytest.mark.parametrize(("task_id", "seed"), INSTANCES)
def test_no_honest_text_gives_a_finding(task_id: str, seed: int | None) -> None:
    task = CATALOG.instance(task_id, seed)
    failures: list[str] = []
    judged_texts = 0
    for source, actions in action_lists(task):
        for state, action_type, text in written(task_id, seed, actions):
            judged_texts += 1
            for finding in judged(state, action_type, text):
                failures.append(f"{source} {action_type}: {finding.problem} "
                                f"{finding.entity.quote!r}: {finding.reason}")
    assert not failures, f"{task_id} seed {seed} ({task.case}):\n" + "\n".join(failures)
    if (task_id, task.case) in honest_texts() or task.expected.needs_facts:
        assert judged_texts > 0


def test_the_decisive_test_reaches_every_case_and_judges_facts() -> None:
    """It would pass vacuously on texts without facts, or if the instances missed a case."""
    cases = {(t, CATALOG.instance(t, s).case) for t, s in INSTANCES}
    every = {(spec.task_id, case.name) for spec in CATALOG.all_specs() for case in spec.cases}
    assert cases == every
    kinds: set[str] = set()
    for task_id, seed in INSTANCES[::7]:
        for _, actions in action_lists(CATALOG.instance(task_id, seed)):
            for state, _, text in written(task_id, seed, actions):
                kinds |= {e.kind for e in extract(visible(text), knowledge(state).year)}
    assert {"money", "date", "duration", "order_id", "email", "policy_id"} <= kinds


# --- wrong facts are found ------------------------------------------------------------------------

_UNIT_WORDS = {"day": "days", "business_day": "business days", "hour": "hours", "minute": "minutes",
               "week": "weeks", "month": "months"}


def changed(entity: Entity) -> str | None:
    """The fact written with another value: an amount, a date, an id, an address or a window no
    episode knows (a window's numbers moved up by eleven)."""
    match entity.kind:
        case "money":
            return "$987.65"
        case "date":
            return "February 17" if entity.value.startswith("--") else "2019-02-17"
        case "order_id":
            return "ZQ-90817"
        case "email":
            return "someone.else@elsewhere.example"
        case "duration":
            amount, unit = entity.value.split(" ")
            return "-".join(str(int(n) + 11) for n in amount.split("-")) + " " + _UNIT_WORDS[unit]
        case _:
            return None


SAMPLE = [(t, s) for t, s in INSTANCES if s in (None, 0, 1, 2, 3, 4, 5)][::2]


@pytest.mark.parametrize(("task_id", "seed"), SAMPLE)
def test_one_changed_fact_gives_a_finding_on_it(task_id: str, seed: int | None) -> None:
    task = CATALOG.instance(task_id, seed)
    for _, actions in action_lists(task):
        for state, action_type, raw in written(task_id, seed, actions):
            known = knowledge(state)
            text = visible(raw)
            for entity in extract(text, known.year):
                other = changed(entity)
                if other is None:
                    continue
                wrong = text[:entity.start] + other + text[entity.end:]
                verified = action_type == "add_internal_note" or requester_verified(state)
                found = check(extract(wrong, known.year), known, requester_verified=verified)
                on_it = [f for f in found if f.entity.start == entity.start]
                assert on_it, (task_id, seed, entity.quote, other, wrong)
                assert on_it[0].entity.kind == entity.kind
                assert on_it[0].problem in ("wrong", "unsupported")


def test_the_sample_changes_every_kind() -> None:
    kinds: set[str] = set()
    for task_id, seed in SAMPLE:
        for _, actions in action_lists(CATALOG.instance(task_id, seed)):
            for state, _, raw in written(task_id, seed, actions):
                kinds |= {e.kind for e in extract(visible(raw), knowledge(state).year)
                          if changed(e) is not None}
    assert kinds == {"money", "date", "order_id", "email", "duration"}


# --- what an episode knows ------------------------------------------------------------------------


def test_knowledge_of_the_fraud_trap() -> None:
    state = play("task_hard_refund_fraud_trap", None)  # $129, order B-2764, RA-1 looked up
    known = knowledge(state)
    assert "12900" in known.values["money"]
    assert {"B-2764", "TL-5150"} <= known.values["order_id"]
    assert known.policy_ids == {"RA-1"}
    assert "RP-3" in known.catalog_policy_ids
    assert known.emails["omar@example.com"] == "requester"
    assert "2 business_day" in known.values["duration"]


def test_policy_ids_are_backed_only_once_looked_up() -> None:
    state = open_in_memory(CATALOG, "task_hard_refund_fraud_trap", None)
    text = "Per RA-1, and RP-3, and XY-9."
    before = judged(state, "draft_reply", text)
    assert [(f.entity.value, f.problem) for f in before] == [
        ("RA-1", "unsupported"), ("RP-3", "unsupported"), ("XY-9", "wrong")]
    state, _ = step_in_memory(state, {"action_type": "lookup_policy", "policy_id": "refund_abuse"})
    after = judged(state, "draft_reply", text)
    assert [(f.entity.value, f.problem) for f in after] == [("RP-3", "unsupported"), ("XY-9", "wrong")]


def test_derived_amounts_a_partial_refund_and_a_sum() -> None:
    state = play("task_hard_refund_fraud_trap", 6)  # normal refund of $213
    state = state.model_copy(update={"account": state.account.model_copy(
        update={"refunds": (200.0,)})})  # as if $200 of the $213 was refunded
    known = knowledge(state)
    text = "We refunded $200.00 of $213; the remaining $13 follows, $413 in all. Not $14."
    found = check(extract(text), known, requester_verified=True)
    assert [(f.entity.quote, f.problem) for f in found] == [("$14", "wrong")]
    assert found[0].reason.startswith("the text says the amount $14.00; the episode knows ")
    assert "$213.00" in found[0].reason


def test_a_deadline_is_a_known_date_moved_by_a_known_window() -> None:
    state = play("task_hard_refund_policy_denial", None)  # ordered 2026-02-03, RP-3: 30 days
    known = knowledge(state)
    assert known.year == 2026
    ok = check(extract("Your order of February 3 could be refunded until 2026-03-05 (30 days); "
                       "the request came 45 days after it.", known.year), known,
               requester_verified=True)
    assert ok == ()
    wrong = check(extract("refundable until 2026-03-09", known.year), known, requester_verified=True)
    assert [f.problem for f in wrong] == ["wrong"]


def test_a_number_inside_a_known_range_is_backed() -> None:
    state = play("task_hard_refund_policy_denial", 2)  # RP-3: 5-7 business days
    known = knowledge(state)

    def problems(text: str) -> list[str]:
        return [f.problem for f in check(extract(text), known, requester_verified=True)]

    assert problems("within 5-7 business days") == []
    assert problems("within five to seven business days") == []
    assert problems("within 6 business days") == []
    assert problems("within 8 business days") == ["wrong"]
    assert problems("within 4-8 business days") == ["wrong"]
    assert problems("within 30 days, a 30-day window, about four weeks") == ["wrong"]  # 28 days
    assert problems("within 22 days") == []  # from the order date to the ticket's
    assert problems("within 7 days") == ["wrong"]


def test_durations_compare_across_units() -> None:
    week = Decimal(7 * 24 * 60)  # minutes
    known = Knowledge(durations=frozenset({(week, week, "minute")}))
    assert check(extract("in 7 days, in a week, in 168 hours"), known, requester_verified=True) == ()
    assert [f.problem for f in check(extract("in 7 business days"), known,
                                     requester_verified=True)] == ["unsupported"]
