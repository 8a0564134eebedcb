"""The task catalog: the seeds' tasks exactly as published, the harder tasks, validation on load.

The SupportOps tickets and targets below are copied from ../shared/reference/seed-tasks.md (that
project's clients call these ids, so they must match word for word).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from domain.tasks import default_catalog
from domain.tasks.catalog import DATA_DIR, POLICIES_FILE, load_catalog
from service.gold import gold

CATALOG = default_catalog()

SUPPORTOPS = {
    "task_easy_password": dict(
        difficulty="easy", title="Password Reset Triage",
        objective="Route a simple account-access request and provide an actionable response.",
        ticket=("CS-1001", "Ava Patel", "free", "Can't log in after password reset",
                "I reset my password but still can't sign in from my laptop. Can you help me regain "
                "access today?", "authentication"),
        target=("medium", "account", "awaiting_customer_confirmation",
                ["reset link", "clear cache", "confirm if resolved"])),
    "task_easy_feature_question": dict(
        difficulty="easy", title="Feature Inquiry",
        objective="Answer a simple product question and direct user to documentation.",
        ticket=("CS-1050", "Marcus Chen", "free", "How do I export my data?",
                "Hi, I want to download all my project data as a CSV file. Is this possible? I looked "
                "in settings but couldn't find it.", "data_export"),
        target=("low", "general", "resolved_with_documentation",
                ["export", "settings", "documentation"])),
    "task_medium_double_charge": dict(
        difficulty="medium", title="Billing Double Charge",
        objective="Handle a billing dispute and set clear next actions for finance review.",
        ticket=("CS-2044", "Jordan Rivera", "pro", "Charged twice for March subscription",
                "I was charged twice this month. I already sent screenshots to your bot and need this "
                "corrected before end of week.", "payments"),
        target=("high", "billing", "billing_investigation_opened", ["invoice", "refund", "24 hours"])),
    "task_medium_api_rate_limit": dict(
        difficulty="medium", title="API Rate Limit Issue",
        objective="Diagnose a technical issue and provide workaround while investigating.",
        ticket=("CS-2101", "Sarah Kim", "pro", "Getting 429 errors on API calls",
                "Our integration started getting rate limit errors yesterday. We haven't changed "
                "anything on our end. Our batch jobs are failing and we need this resolved for our "
                "Monday deployment.", "api"),
        target=("high", "technical", "engineering_investigation",
                ["rate limit", "monitoring", "workaround"])),
    "task_hard_enterprise_outage": dict(
        difficulty="hard", title="Enterprise Production Outage",
        objective="Escalate a business-critical outage for an enterprise account and communicate "
                  "incident handling.",
        ticket=("CS-9988", "Nadia Stein", "enterprise", "All webhook deliveries failing in production",
                "Our payment workflows are down because webhook deliveries started failing 20 minutes "
                "ago. This is a production outage impacting checkout. We need an urgent update and "
                "incident bridge.", "integrations"),
        target=("urgent", "technical", "incident_escalated",
                ["incident", "war room", "next update in 15 minutes"])),
    "task_hard_data_breach_report": dict(
        difficulty="hard", title="Potential Data Breach Report",
        objective="Handle a sensitive security report from an enterprise customer requiring immediate "
                  "escalation to security team.",
        ticket=("CS-9999", "David Park", "enterprise",
                "URGENT: Suspicious access to our organization data",
                "We detected unauthorized access attempts to our company workspace from IP addresses "
                "in a foreign country. Several admin accounts show login attempts we don't recognize. "
                "This may be a breach. We need your security team involved immediately and an audit "
                "log of all access to our account in the last 7 days.", "security"),
        target=("urgent", "trust_and_safety", "security_incident_opened",
                ["security team", "audit log", "immediately"])),
}


@pytest.mark.parametrize("task_id", sorted(SUPPORTOPS))
def test_supportops_tasks_match_the_published_tickets_and_targets(task_id: str) -> None:
    want = SUPPORTOPS[task_id]
    task = CATALOG.instance(task_id)  # seed None: the published variant
    t = task.ticket
    assert (t.ticket_id, t.customer_name, t.customer_tier.value, t.subject, t.message,
            t.product_area) == want["ticket"]
    assert (task.title, task.difficulty.value, task.objective) == (
        want["title"], want["difficulty"], want["objective"])
    priority, queue, code, keywords = want["target"]
    assert task.expected.priority is not None and task.expected.priority.value == priority
    assert task.expected.queue is not None and task.expected.queue.value == queue
    assert [c.value if c else None for c in task.expected.resolution_code] == [code]
    assert [s.value for s in task.expected.status] == ["resolved"]
    assert task.reply is not None and len(task.reply.facts) == len(keywords)
    for keyword, group in zip(keywords, task.reply.facts, strict=True):
        assert keyword in [p.lower() for p in group.any_of], (keyword, group.any_of)
    assert task.weights == {"priority": 0.25, "queue": 0.25, "reply": 0.30, "resolution": 0.20}
    assert task.max_steps == 8
    assert task.source == "supportops"


def test_customersupportenv_tasks_as_the_seed_describes_them() -> None:
    refund = CATALOG.instance("task_easy_refund_tag")
    assert refund.difficulty.value == "easy"
    assert [t.value for t in refund.expected.tags] == ["Refund"]
    assert [s.value for s in refund.expected.status] == ["closed"]

    angry = CATALOG.instance("task_medium_angry_escalation")
    assert angry.difficulty.value == "medium"
    assert angry.expected.queue is not None and angry.expected.queue.value == "escalations"
    assert "reply" in angry.weights and angry.reply is not None
    assert "closing" in angry.reply.tone and "empathy" in angry.reply.tone

    denial = CATALOG.instance("task_hard_refund_policy_denial")
    assert denial.difficulty.value == "hard" and denial.case == "outside_window"
    assert int(denial.variables["days_since_purchase"]) > 30
    assert [t.value for t in denial.expected.tags] == ["Policy_Denied"]
    assert denial.expected.policy is not None and denial.expected.policy.value == "refund_policy"
    assert "closed" in [s.value for s in denial.expected.status]
    assert denial.reply is not None and denial.reply.forbidden  # a denial must not promise money
    assert "30 days" in CATALOG.policies[denial.expected.policy]
    for task in (refund, angry, denial):
        assert task.source == "customersupportenv"


def test_at_least_three_more_hard_tasks_need_a_policy_and_several_steps() -> None:
    ours = [CATALOG.instance(t) for t in CATALOG.task_ids
            if CATALOG.instance(t).source == "ticketledger"]
    assert len(ours) >= 3
    for task in ours:
        assert task.difficulty.value == "hard"
        assert "policy" in task.weights and task.expected.policy is not None
        assert task.expected.policy in task.policies
        assert len(gold(task)) >= 5, task.task_id
        assert len(CATALOG.spec(task.task_id).cases) >= 2, "the right answer depends on the seed"


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_every_task_declares_what_the_issue_asks_for(task_id: str) -> None:
    spec = CATALOG.spec(task_id)
    assert spec.objective and spec.title and spec.ticket.message
    assert spec.policies, "each task lists the policies it may consult"
    for case in spec.cases:
        assert case.expected.status and case.expected.resolution_code
        if "reply" in spec.weights:
            assert case.reply is not None and case.reply.facts
    for seed in (None, 1, 2, 3):
        task = CATALOG.instance(task_id, seed)
        assert len(gold(task)) <= task.max_steps


def test_the_policy_dictionary_covers_every_policy_a_task_names() -> None:
    named = {p for t in CATALOG.task_ids for p in CATALOG.spec(t).policies}
    assert named <= set(CATALOG.policies)
    assert all(len(text) > 80 for text in CATALOG.policies.values())


def _catalog_with(tmp_path: Path, change) -> Path:  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / "01_task_easy_password.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    change(raw)
    path.write_text(json.dumps(raw), encoding="utf-8")
    return data


@pytest.mark.parametrize(("change", "message"), [
    (lambda raw: raw.update(surprise=1), "surprise"),
    (lambda raw: raw["weights"].update(priority=0.5), "add up to 1.0"),
    (lambda raw: raw.update(difficulty="nightmare"), "difficulty"),
    (lambda raw: raw["cases"][0]["expected"].update(queue="sales"), "queue"),
    (lambda raw: raw["ticket"].update(subject="Hello {nobody}"), "nobody"),
    (lambda raw: raw["weights"].update(charm=0.0), "charm"),
])
def test_an_invalid_task_file_fails_to_load_naming_the_file(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError) as info:
        load_catalog(_catalog_with(tmp_path, change), POLICIES_FILE)
    assert message in str(info.value)
    assert "01_task_easy_password.json" in str(info.value)
