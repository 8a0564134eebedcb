"""Scripted solutions: for any task variant, the actions an expert takes (they read the answer key).

The grader audit's correct solution (``ticketledger grader-audit``, :mod:`evaluation.grader_audit`),
the bench's workload (``bench.workload``) and the tests' proof that every task can score 1.0
(``tests/domain/test_scripted_solutions.py``). It ships in the product because the audit does; the
bench and the tests import it from here. The replies are written per case as real support replies,
not keyword lists.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from domain.tasks.spec import ActionRule, TaskInstance

REPLIES: dict[tuple[str, str], str] = {
    ("task_easy_password", "default"): (
        "Hi {first}, thanks for reaching out and sorry for the trouble signing in. I have sent you a "
        "fresh reset link; please use it, then clear your browser cache and try again from your "
        "laptop. Could you confirm if this resolves the problem? Best regards, Support"),
    ("task_easy_feature_question", "default"): (
        "Hi {first}, thanks for the question. Yes, you can export all your project data as a CSV file. "
        "Open Settings, choose Data, and use the export button there. Our documentation has a "
        "step-by-step guide with screenshots. Best regards, Support"),
    ("task_medium_double_charge", "default"): (
        "Hi {first}, I am sorry you were charged twice this month. I have checked your invoice and "
        "opened a billing investigation, and the duplicate charge will be sent back as a refund "
        "within 24 hours of confirmation. Thank you for your patience. Best regards, Billing"),
    ("task_medium_api_rate_limit", "default"): (
        "Hi {first}, I understand how disruptive failing batch jobs are before a deployment. Your "
        "requests are hitting our rate limit, and our engineers are investigating the change. As a "
        "workaround, please add exponential backoff and spread the batch over a longer window. We "
        "have added monitoring on your account and will update you. Best regards, Support"),
    ("task_hard_enterprise_outage", "default"): (
        "Hi {first}, I am sorry your checkout is affected. We have declared an incident for the "
        "failing webhook deliveries and opened a war room with our on-call engineers; you are "
        "welcome to join the bridge. You will get the next update in 15 minutes, sooner if we find "
        "the cause. Best regards, Incident Support"),
    ("task_hard_data_breach_report", "default"): (
        "Hi {first}, thank you for reporting this, and I understand how worrying it is. I have "
        "involved our security team immediately and opened a security incident for your workspace. "
        "We are preparing an audit log of all access to your account over the last 7 days and will "
        "share it with you as soon as it is ready. Best regards, Trust and Safety"),
    ("task_medium_angry_escalation", "default"): (
        "Hi {first}, I am truly sorry that you have had to write to us three times about this. I have "
        "escalated your ticket to our senior team, and a specialist will contact you within 24 hours "
        "with a full update. Thank you for your patience. Kind regards, Support"),
    ("task_hard_refund_policy_denial", "outside_window"): (
        "Hi {first}, thank you for getting in touch, and I am sorry the purchase did not meet your "
        "expectations. Our refund policy covers requests made within 30 days of the order date, and "
        "your order was placed on {order_date}, so we are unable to offer a refund for it. I would be "
        "glad to offer store credit or help you get more out of the product. Best regards, Support"),
    ("task_hard_refund_policy_denial", "inside_window"): (
        "Hi {first}, thank you for getting in touch. Your order from {order_date} is within our "
        "refund window, so we have approved a full refund of ${amount}. The money will reach your "
        "original payment method within 5-7 business days. Best regards, Support"),
    ("task_hard_account_email_change", "verified"): (
        "Hi {first}, thanks for confirming your identity. We have updated your login email, so your "
        "login email is now {new_email}. You can sign in with it right away. Best regards, Account "
        "Support"),
    ("task_hard_account_email_change", "not_verified"): (
        "Hi {first}, thank you for your message, and I understand you need this done quickly. Before "
        "we change anything we need to verify your identity. Please reply with the last four digits "
        "of the card on file, or write to us from the email address on file. Best regards, Account "
        "Support"),
    ("task_hard_refund_fraud_trap", "fraud_review"): (
        "Hi {first}, I am sorry your order has not reached you. Because of the details on this "
        "order, a specialist team will review your request and get back to you within 2 business "
        "days with the outcome. Thank you for your patience. Best regards, Support"),
    ("task_hard_refund_fraud_trap", "normal_refund"): (
        "Hi {first}, I am sorry your order did not arrive. We have issued a full refund of "
        "${amount} to your original payment method, and you will see it within a few days. Thank "
        "you for your patience. Best regards, Support"),
    ("task_hard_gdpr_deletion", "legal_hold"): (
        "Hi {first}, thank you for your request. Your account has an open billing dispute, so your "
        "data is under a legal hold for now. We will start the deletion once the dispute is closed "
        "and complete it within 30 days. We will confirm by email when it is done. Best regards, "
        "Privacy Team"),
    ("task_hard_gdpr_deletion", "scheduled"): (
        "Hi {first}, thank you for your request. We have scheduled the deletion of your account and "
        "personal data, and it will be complete within 30 days. We will confirm by email when it is "
        "done. Best regards, Privacy Team"),
    # the multi-turn families, whose facts the customer gives when asked
    ("task_family_missing_order", "fraud_review"): (
        "Hi {first}, thank you for letting us know about order SO-{order_no}. I have passed your "
        "claim to a specialist team, who will review it and get back to you within 2 business days. "
        "Best regards, Support"),
    ("task_family_missing_order", "in_transit"): (
        "Hi {first}, I understand how frustrating it is to wait for a parcel. Order SO-{order_no} is "
        "still in transit, and its estimated delivery date is {eta}. If it has not arrived two days "
        "after that date, please write back and we will sort it out. Best regards, Support"),
    ("task_family_missing_order", "lost"): (
        "Hi {first}, I am sorry your parcel never arrived. Order SO-{order_no} has had no tracking "
        "update for more than a week past its estimated delivery date, so we treat it as lost and "
        "have issued a full refund of ${amount} to your original payment method. Best regards, "
        "Support"),
    ("task_family_verify_identity", "flagged"): (
        "Hi {first}, thank you for your message. To protect your account, our security team will "
        "review this request and contact you within 2 business days. Best regards, Account Support"),
    ("task_family_verify_identity", "digits_wrong"): (
        "Hi {first}, thank you for your reply. I'm sorry, but the digits you gave do not match our "
        "records, so I could not verify your identity and nothing on the account has changed. To "
        "complete the verification, please send the last four digits of the card on file, or write "
        "to us from the email address on file. Best regards, Account Support"),
    ("task_family_verify_identity", "digits_match"): (
        "Hi {first}, thanks for confirming your identity. I have updated your login email, so your "
        "login email is now {new_email}. You can sign in with it right away. Best regards, Account "
        "Support"),
}

NOTES: dict[tuple[str, str], str] = {
    ("task_hard_refund_fraud_trap", "fraud_review"): (
        "Customer has {prior_refunds} refunds in the last 90 days; order shows delivered and signed "
        "for. Opened a fraud review per RA-1."),
    ("task_hard_refund_fraud_trap", "normal_refund"): (
        "Customer has {prior_refunds} refunds in the last 90 days, under the limit. Refund approved "
        "and issued per RA-1."),
    # the multi-turn families
    ("task_family_missing_order", "fraud_review"): (
        "Checked order SO-{order_no}: its tracking says {tracking}. The customer has {refunds} "
        "refunds in the last 90 days."),
    ("task_family_missing_order", "in_transit"): (
        "Checked order SO-{order_no}: the parcel is still in transit, estimated delivery {eta}. The "
        "customer has {refunds} refunds in the last 90 days."),
    ("task_family_missing_order", "lost"): (
        "Checked order SO-{order_no}: the parcel is lost, with no update for more than seven days "
        "past the estimated delivery of {eta}. The customer has {refunds} refunds in the last 90 "
        "days."),
}


FAMILIES_DIR = Path(__file__).resolve().parent.parent / "domain" / "tasks" / "families"


@cache
def family_texts() -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], str]]:
    """The expert's reply and note templates of the task families, per (task id, case): each
    family directory may hold an ``expert.json`` (``{"replies": {case: text}, "notes": {case:
    text}}``, templates like :data:`REPLIES`) beside its ``spec.json``; its task id is
    ``task_family_<directory name>``. Read once per process."""
    replies: dict[tuple[str, str], str] = {}
    notes: dict[tuple[str, str], str] = {}
    for path in sorted(FAMILIES_DIR.glob("*/expert.json")):
        task_id = f"task_family_{path.parent.name}"
        raw = json.loads(path.read_text(encoding="utf-8"))
        replies.update({(task_id, case): text for case, text in raw.get("replies", {}).items()})
        notes.update({(task_id, case): text for case, text in raw.get("notes", {}).items()})
    return replies, notes


def _fill(text: str, task: TaskInstance) -> str:
    return text.format(first=task.first_name, **task.variables)


def back_office(rule: ActionRule, task: TaskInstance) -> dict[str, Any] | None:
    """The action that carries out a required ``rule``, or ``None`` when the expert cannot send it:
    a refund needs an amount, and a ticket that names no charge gives none."""
    action: dict[str, Any] = {"action_type": rule.action}
    for name, value in rule.fields.items():
        action[name] = float(value.lstrip("$")) if name == "amount" else value
    if rule.action == "issue_refund" and "amount" not in action:
        account = task.account
        if account is None or account.charged is None:
            return None
        action["amount"] = account.charged
    return action


def ask(task: TaskInstance, fact: str) -> dict[str, Any]:
    """The expert's question for hidden fact ``fact`` (``message_customer``): asked first, since the
    case decides on it (``Expected.needs_facts``)."""
    label = task.hidden_facts[fact].label
    return {"action_type": "message_customer",
            "message": f"Hi {task.first_name}, could you send me {label}, please?"}


def solution(task: TaskInstance) -> list[dict[str, Any]]:
    """The expert's actions for this variant; they score exactly 1.0. The hidden facts the case
    needs are asked for first; the back-office actions the case requires come after triage and
    tags, before the note and the reply that report them."""
    exp = task.expected
    key = (task.task_id, task.case)
    out: list[dict[str, Any]] = [ask(task, name) for name in exp.needs_facts]
    if exp.policy is not None:
        out.append({"action_type": "lookup_policy", "policy_id": exp.policy.value})
    if "priority" in task.weights and exp.priority is not None:
        out.append({"action_type": "classify_priority", "priority": exp.priority.value})
    if "queue" in task.weights and exp.queue is not None:
        out.append({"action_type": "assign_queue", "queue": exp.queue.value})
    for tag in exp.tags:
        out.append({"action_type": "add_tag", "tag": tag.value})
    for rule in exp.required_actions:
        action = back_office(rule, task)
        if action is not None:
            out.append(action)
    family_replies, family_notes = family_texts()
    note = NOTES.get(key) or family_notes.get(key)
    if note is not None:
        out.append({"action_type": "add_internal_note", "note": _fill(note, task)})
    text = REPLIES.get(key) or family_replies.get(key)
    if text is not None:
        out.append({"action_type": "draft_reply", "reply_text": _fill(text, task)})
    code = exp.resolution_code[0]
    status = exp.status[0].value
    action_type = "resolve_ticket" if status == "resolved" else "close_ticket"
    final: dict[str, Any] = {"action_type": action_type}
    if code is not None:
        final["resolution_code"] = code.value
    out.append(final)
    return out
