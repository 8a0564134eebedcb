"""Every task family's spec and the instances it draws, parametrised over the manifest's families:
the spec and its judging rubric agree, the cases differ in what they require or forbid, seeds 0..119
draw distinct instances and every case often, no subject line tells the case, the grader audit's
attack texts fit every case, and a multi-turn family shows no hidden fact before the customer
gives it."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest

from domain.tasks.catalog import default_catalog
from domain.tasks.manifest import MIN_CASE_SHARE
from evaluation.grader_audit import texts
from evaluation.grader_audit.disguise import spans
from evaluation.grader_audit.families import fill
from service import EnvironmentService
from tests.domain.families.family_facts import FAMILIES, SEEDS, asks_first, spec, task_id

CATALOG = default_catalog()
ATTACK_SEEDS = range(12)
"""Seeds the grader audit's fast tier plays."""


@pytest.mark.parametrize("family", FAMILIES)
def test_spec_and_judging_agree(family: str) -> None:
    """The spec is the family's, its judging rubric has exactly its cases and fills for every
    variant; three cases or more, each requiring or forbidding other actions than the rest, and
    none forbidding what it requires (an action with its fields: a sev1 incident is not a sev2)."""
    family_spec, judging = spec(family), CATALOG.judging[task_id(family)]
    assert family_spec.task_id == task_id(family) and family_spec.source == "ticketledger"
    assert sorted(judging) == sorted(c.name for c in family_spec.cases)
    assert len(family_spec.cases) >= 3
    decisions = {case.name: ({r.describe() for r in case.expected.required_actions},
                             {r.describe() for r in case.expected.forbidden_actions})
                 for case in family_spec.cases}
    shapes = {(frozenset(required), frozenset(forbidden)) for required, forbidden in decisions.values()}
    assert len(shapes) == len(family_spec.cases), "cases must differ in required or forbidden actions"
    for name, (required, forbidden) in decisions.items():
        assert not required & forbidden, name
    for seed in (None, *SEEDS):
        rubric = CATALOG.judging_rubric(CATALOG.instance(task_id(family), seed))
        assert rubric is not None and "{" not in rubric.must + rubric.must_not, seed


@pytest.mark.parametrize("family", FAMILIES)
def test_instances_are_distinct_and_every_case_is_drawn_often(family: str) -> None:
    """120 distinct instances, with distinct tickets, and every case at least 10% of them."""
    variants = [CATALOG.variant(task_id(family), seed) for seed in SEEDS]
    assert len({v.json_text for v in variants}) == len(SEEDS)
    tickets = {json.dumps(v.json_form()["ticket"], sort_keys=True) for v in variants}
    assert len(tickets) == len(SEEDS)
    cases = Counter(v.task.case for v in variants)
    assert set(cases) == {c.name for c in spec(family).cases}, cases
    assert min(cases.values()) >= MIN_CASE_SHARE * len(SEEDS), cases


@pytest.mark.parametrize("family", FAMILIES)
def test_the_subject_line_does_not_tell_the_case(family: str) -> None:
    """Some subject line is drawn with every case, and no subject's first word comes with one case
    only: a keyword matcher on the subject cannot solve the family."""
    by_subject: dict[str, set[str]] = defaultdict(set)
    by_first_word: dict[str, set[str]] = defaultdict(set)
    for seed in SEEDS:
        task = CATALOG.instance(task_id(family), seed)
        by_subject[task.ticket.subject].add(task.case)
        by_first_word[task.ticket.subject.split(" ")[0]].add(task.case)
    assert max(len(c) for c in by_subject.values()) == len(spec(family).cases), by_subject
    assert all(len(c) > 1 for c in by_first_word.values()), by_first_word


@pytest.mark.parametrize("family", FAMILIES)
def test_the_audit_attack_texts_fit_every_case(family: str) -> None:
    """A contradiction per case (and the families' secret request and insult), each with one marked
    span, filling for every variant of the audit's seeds."""
    for seed in ATTACK_SEEDS:
        task = CATALOG.instance(task_id(family), seed)
        for template in (*texts.CONTRADICTIONS[(task_id(family), task.case)],
                         texts.FAMILY_SECRET_REQUEST, texts.FAMILY_ABUSE):
            assert len(spans(template)) == 1, template
            assert "{" not in fill(template, task)


@pytest.mark.parametrize("family", [f for f in FAMILIES if asks_first(f)])
def test_no_hidden_fact_shows_before_the_customer_gives_it(module_service: EnvironmentService,
                                                           family: str) -> None:
    """No hidden value in the observation at reset (unless a public fact holds the same value);
    asked for, the customer's answer in the conversation carries it."""
    for seed in range(3):
        result = module_service.reset(task_id(family), seed=seed)
        task = module_service.state(result.episode_id).task
        assert task is not None and task.hidden_facts
        shown = result.observation.model_dump(mode="json")
        public = set(task.ticket.facts.values())
        for fact in task.hidden_facts.values():
            assert fact.value in public or fact.value not in json.dumps(shown), (seed, fact.value)
            assert fact.answer not in json.dumps(shown)
        assert "conversation" not in shown
        first = next(iter(task.hidden_facts.values()))
        result = module_service.step(result.episode_id, {"action_type": "message_customer",
                                                         "message": f"Could you send me {first.label}?"})
        conversation = result.observation.model_dump(mode="json")["conversation"]
        assert [m["speaker"] for m in conversation] == ["agent", "customer"]
        assert first.value in conversation[1]["text"]
