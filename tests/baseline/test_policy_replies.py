"""The built-in policy's replies are written for the ticket and the decision, not one template.

Played through the real service on the run's database; the policy reads only the observation, the
test reads the variant's case to check each reply is true to it.
"""

from __future__ import annotations

import re

from baseline.policy import next_action
from domain.tasks import default_catalog
from service import EnvironmentService

CATALOG = default_catalog()
SEEDS: tuple[int | None, ...] = (None, 0, 1, 2, 3, 4, 5, 6, 7)


def _reply(service: EnvironmentService, task_id: str, seed: int | None) -> tuple[str, str, dict[str, str]]:
    """The policy's final reply on (task, seed), with the variant's case and ticket facts."""
    result = service.reset(task_id, seed=seed)
    while not result.done:
        result = service.step(result.episode_id, next_action(result.observation))
    task = result.state.task
    assert result.state.reply_draft, (task_id, seed)
    return result.state.reply_draft, task.case, dict(task.ticket.facts)


def _body(reply: str) -> str:
    """The reply without its greeting line (which names the customer)."""
    return reply.split("\n", 1)[1]


def test_every_task_and_case_gets_its_own_reply(service) -> None:  # type: ignore[no-untyped-def]
    bodies: dict[tuple[str, str], set[str]] = {}
    for task_id in CATALOG.task_ids:
        for seed in SEEDS:
            reply, case, _ = _reply(service, task_id, seed)
            bodies.setdefault((task_id, case), set()).add(_body(reply))
    assert len(bodies) == sum(len(s.cases) for s in CATALOG.specs())  # every case was reached
    seen: dict[str, tuple[str, str]] = {}
    for key, texts in bodies.items():
        for text in texts:
            assert seen.setdefault(text, key) == key, f"{key} and {seen[text]} share a reply"


def test_replies_carry_the_particulars_of_the_ticket_and_the_decision(service) -> None:  # type: ignore[no-untyped-def]
    checked = set()
    for seed in SEEDS:
        reply, case, facts = _reply(service, "task_hard_refund_policy_denial", seed)
        assert facts["order_date"] in reply
        if case == "outside_window":
            assert "cannot refund" in reply and "store credit" in reply and facts["amount"] not in reply
        else:
            assert "approved a full refund of " + facts["amount"] in reply
            assert "within 5-7 business days" in reply
        checked.add(case)

        reply, case, facts = _reply(service, "task_hard_refund_fraud_trap", seed)
        assert facts["order_id"] in reply
        if case == "fraud_review":
            assert "within 2 business days" in reply and not re.search(r"refund(ed)? of|fraud", reply)
        else:
            assert f"refund of {facts['order_amount']}" in reply
        checked.add(case)

        reply, case, facts = _reply(service, "task_hard_gdpr_deletion", seed)
        assert "within 30 days" in reply
        assert ("legal hold" in reply) == (case == "legal_hold")
        assert "scheduled" in reply or case == "legal_hold"
        checked.add(case)

        reply, case, facts = _reply(service, "task_hard_account_email_change", seed)
        if case == "verified":
            assert "changed the login email" in reply
        else:
            assert "last four digits" in reply and "changed" not in reply
            assert facts["card_last4_on_file"] not in reply and facts["email_on_file"] not in reply
        checked.add(case)
    assert checked == {c.name for t in ("task_hard_refund_policy_denial", "task_hard_refund_fraud_trap",
                                        "task_hard_gdpr_deletion", "task_hard_account_email_change")
                       for c in CATALOG.spec(t).cases}

    escalation, _, _ = _reply(service, "task_medium_angry_escalation", 1)
    problem = CATALOG.instance("task_medium_angry_escalation", 1).ticket.subject.rsplit("my ", 1)[1]
    assert f"about your {problem}" in escalation and "within 24 hours" in escalation
    tag, _, facts = _reply(service, "task_easy_refund_tag", 2)
    assert facts["order_id"] in tag
