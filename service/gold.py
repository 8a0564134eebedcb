"""The gold player: for any task variant, the actions of a correct episode (it reads the answer key).

The one way to play a task correctly: the answer key (``Expected``: triage, tags, policy, the
back-office actions, the ending) gives the actions, and the gold texts
(:mod:`domain.tasks.gold`, ``gold.json`` beside the tasks) give the reply and note. It is the
reference correct work of the grader audit (``ticketledger grader-audit``,
:mod:`evaluation.grader_audit`), what ``ticketledger tasks verify`` requires to score at least 0.95
on every instance (:mod:`evaluation.task_families`), the bench's workload (``bench.workload``) and
the tests' proof that every task can be solved. It ships in the product because the audit and
``tasks verify`` do. The family solvers (``baseline/solvers``) are agents, not gold: they read
only the observation.
"""

from __future__ import annotations

from typing import Any

from domain.tasks.gold import Gold, gold_note, gold_reply
from domain.tasks.spec import ActionRule, TaskInstance


def back_office(rule: ActionRule, task: TaskInstance) -> dict[str, Any] | None:
    """The action that carries out a required ``rule``, or ``None`` when the gold cannot send it:
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
    """The gold question for hidden fact ``fact`` (``message_customer``): asked first, since the
    case decides on it (``Expected.needs_facts``)."""
    label = task.hidden_facts[fact].label
    return {"action_type": "message_customer",
            "message": f"Hi {task.first_name}, could you send me {label}, please?"}


def gold(task: TaskInstance, texts: Gold | None = None) -> list[dict[str, Any]]:
    """The gold actions for this variant (``texts``: the gold texts, default the packaged ones).
    The hidden facts the case needs are asked for first; the back-office actions the case requires
    come after triage and tags, before the note and the reply that report them."""
    exp = task.expected
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
    note = gold_note(task, texts)
    if note is not None:
        out.append({"action_type": "add_internal_note", "note": note})
    reply = gold_reply(task, texts)
    if reply is not None:
        out.append({"action_type": "draft_reply", "reply_text": reply})
    code = exp.resolution_code[0]
    status = exp.status[0].value
    action_type = "resolve_ticket" if status == "resolved" else "close_ticket"
    final: dict[str, Any] = {"action_type": action_type}
    if code is not None:
        final["resolution_code"] = code.value
    out.append(final)
    return out
