"""What the back-office release (grader 2.0, back-office actions, answer keys) changed on purpose in what a v1
episode shows, named once for every v1 test module.

v1's tests compare v1's recordings with today's code on everything else. Members added since v1
are not v1's to judge: observations are compared on the members v1's observations had, and the
members added to the folded state are checked for the values a v1 episode must fold to.
"""

from __future__ import annotations

from typing import Any

TICKETLEDGER_TASKS = frozenset({"task_hard_account_email_change", "task_hard_refund_fraud_trap",
                                "task_hard_gdpr_deletion"})
"""The three TicketLedger tasks, whose objectives the back-office release rewrote (decisions are now
actions)."""

CHANGED_POLICIES = frozenset({"support_sla", "billing_disputes"})
"""Policy texts the back-office release rewrote (SLA-1 and BD-2 now state the facts their rubrics grade)."""

BACK_OFFICE_ACTIONS = ("issue_refund", "deny_refund", "update_account_email",
                       "send_password_reset_link", "schedule_data_deletion", "place_legal_hold",
                       "open_fraud_review", "escalate_incident")
"""The action types the back-office release added (the shared contract's back-office actions), in schema
order:
lists of the allowed action types name them after v1's."""


def with_back_office_actions(message: str) -> str:
    """v1's refusal of an unknown action type as today's code words it: the list of allowed
    types it ends with goes on with :data:`BACK_OFFICE_ACTIONS`."""
    assert message.endswith(", close_ticket, noop"), message
    return message + ", " + ", ".join(BACK_OFFICE_ACTIONS)


ADDED_TO_OBSERVATIONS = frozenset({"account", "available_actions"})
"""Observation members the back-office release added (the simulated account, the action types to choose
from)."""

V1_EPISODES_FOLD_TO: dict[str, list[Any]] = {"violations": [], "expected.required_actions": [],
                       "expected.forbidden_actions": []}
"""Folded-state members the back-office release added, with what a v1 episode (its task snapshot names no
back-office actions, grader 1.1 judges no violations) must fold to."""


def changed_member(task_id: str | None, member: str) -> bool:
    """Whether the back-office release changed this observation member of this task on purpose: ``reward``
    (grader 2.0 decides it) and the ``objective`` of the three TicketLedger tasks."""
    return member == "reward" or (member == "objective" and task_id in TICKETLEDGER_TASKS)


def v1_members(observation: dict[str, Any], members: Any, task_id: str | None) -> dict[str, Any]:
    """``observation`` on ``members`` (v1's), but for those the back-office release changed:
    :func:`changed_member`
    and the texts of :data:`CHANGED_POLICIES` (a v1 episode's observation is built with today's
    policy texts, so these differ for old episodes too). A member missing from ``observation``
    reads ``"<absent>"``."""
    out = {k: observation.get(k, "<absent>") for k in members if not changed_member(task_id, k)}
    if isinstance(out.get("policies"), dict):
        out["policies"] = {k: v for k, v in out["policies"].items() if k not in CHANGED_POLICIES}
    return out


def v1_folded(state: dict[str, Any], recorded: dict[str, Any], *, logged: bool) -> dict[str, Any]:
    """A folded ``state`` on the members of v1's ``recorded`` one (top level, ``state`` and
    ``expected``). ``logged``: ``state`` is a v1 episode's as logged by v1 (its score is v1's
    grade, kept; the members of :data:`V1_EPISODES_FOLD_TO` are checked for their values here);
    otherwise it is v1's actions played today, whose ``score`` grader 2.0 gives (left out)."""
    if logged:
        for path, value in V1_EPISODES_FOLD_TO.items():
            node = state
            *parents, leaf = path.split(".")
            for p in parents:
                node = node[p]
            assert node[leaf] == value, (path, node[leaf])
    out = {k: v for k, v in state.items() if k in recorded}
    out["state"] = {k: v for k, v in state["state"].items()
                    if k in recorded["state"] and (logged or k != "score")}
    out["expected"] = {k: v for k, v in state["expected"].items() if k in recorded["expected"]}
    return out


# ------------------------------------------------------------------------------- the Gymnasium release
GYMNASIUM_MEMBERS = frozenset({"terminated", "truncated", "end_reason", "allowed", "AllowedValues"})
"""Members the Gymnasium release added to what the wire shows (Gymnasium's ``terminated`` and ``truncated``
with ``end_reason`` beside ``done`` in every step answer and state; the observation's ``allowed``
values of each enumerated field, and its schema ``AllowedValues``). Answers recorded before issue
17 did not have them; every other member is compared as recorded."""


def before_gymnasium_members(recorded: Any, now: Any, key: str = "") -> Any:
    """Today's ``now`` without the members of :data:`GYMNASIUM_MEMBERS` that ``recorded`` (made
    before the Gymnasium release) lacks, at any depth, and without those names in a JSON schema's ``required``
    list. Dicts and lists are walked beside ``recorded``; nothing else is left out."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        return {k: before_gymnasium_members(recorded[k], v, k) if k in recorded else v
                for k, v in now.items() if k in recorded or k not in GYMNASIUM_MEMBERS}
    if isinstance(recorded, list) and isinstance(now, list):
        if key == "required":
            return [i for i in now if i in recorded or i not in GYMNASIUM_MEMBERS]
        walked = [before_gymnasium_members(r, n) for r, n in zip(recorded, now, strict=False)]
        return walked + now[len(recorded):]
    return now


# ------------------------------------------------------------------------------- the customer release
APPENDED_BY_CUSTOMER_RELEASE = frozenset({
    # the task families' policies, one per family situation
    "refund_requests", "account_access", "charge_disputes", "email_changes", "data_requests",
    "incident_response", "security_reports", "shipping_claims", "plan_changes", "complaints",
    # the tags the families added
    "Shipping", "Plan_Change",
    # the action that messages the customer (appended to the action types)
    "message_customer",
})
"""Values the customer release appended to the closed vocabularies (``domain/vocabulary.py``). Every list of
allowed values an answer shows (the observation's ``available_policies`` and ``allowed``, a
schema's ``enum``, the MCP tools' input schemas) and every refusal that spells one out ("one of:
a, b, c") now goes on with them, after the values recorded; nothing before them moved."""


RESET_FIELDS_ADDED_BY_CUSTOMER_RELEASE = ("split", "index")
"""The reset fields the customer release added (a task family's instance by frozen split and index): the MCP
``reset`` tool's input schema has them as members, and the refusal of an unknown reset field lists
them after the recorded ones."""

MEMBERS_ADDED_BY_CUSTOMER_RELEASE = frozenset({
    *RESET_FIELDS_ADDED_BY_CUSTOMER_RELEASE,
    # the conversation with the customer: the observation's member and its schema, the action's
    # schema and its key in the action union's discriminator
    "conversation", "Message", "MessageCustomer", "message_customer",
})
"""Members the customer release added to what the wire shows (answers recorded before it lack them)."""


def added_by_customer_release(member: str) -> bool:
    """Whether a member a recording lacks is one the customer release added
    (:data:`MEMBERS_ADDED_BY_CUSTOMER_RELEASE`)."""
    return member in MEMBERS_ADDED_BY_CUSTOMER_RELEASE


def _appended_by_customer_release(item: Any) -> bool:
    """An item the customer release appended to a list: a vocabulary value, the MCP tool of its action
    (``{"name": "message_customer", ...}``), or the action union's reference to its schema."""
    if isinstance(item, str):
        return item in APPENDED_BY_CUSTOMER_RELEASE
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        return item["name"] in APPENDED_BY_CUSTOMER_RELEASE
    if isinstance(item, dict) and set(item) == {"$ref"}:
        return str(item["$ref"]).rsplit("/", 1)[-1] in MEMBERS_ADDED_BY_CUSTOMER_RELEASE
    return False


def grown_by_customer_vocabulary(recorded: Any, now: Any) -> bool:
    """Whether ``now`` is ``recorded`` with values of :data:`APPENDED_BY_CUSTOMER_RELEASE` appended: a list
    that goes on with such items, or a string that goes on with ", " and such values (or the
    reset fields of :data:`RESET_FIELDS_ADDED_BY_CUSTOMER_RELEASE`, in a refusal that lists reset's)."""
    if isinstance(recorded, list) and isinstance(now, list):
        return len(now) > len(recorded) and now[:len(recorded)] == recorded \
            and all(_appended_by_customer_release(v) for v in now[len(recorded):])
    if isinstance(recorded, str) and isinstance(now, str) and now.startswith(recorded):
        rest = now[len(recorded):]
        added = rest.removeprefix(", ").split(", ")
        return rest.startswith(", ") and all(v in APPENDED_BY_CUSTOMER_RELEASE
                                             or v in RESET_FIELDS_ADDED_BY_CUSTOMER_RELEASE for v in added)
    return False


def with_customer_vocabulary(observation: dict[str, Any]) -> dict[str, Any]:
    """A recorded observation's lists of allowed values as today's code shows them (with the
    values the customer release appended), so that a step played today from it shows no change there. Each
    recorded list must be today's without :data:`APPENDED_BY_CUSTOMER_RELEASE` or already today's."""
    from domain.observation import ALLOWED
    from domain.vocabulary import ActionType, PolicyId

    today: dict[str, Any] = {"available_policies": PolicyId.allowed(),
                             "available_actions": ActionType.allowed(),
                             "allowed": ALLOWED.model_dump(mode="json")}
    out = dict(observation)
    for member, now in today.items():
        if member not in observation:
            continue
        recorded = observation[member]
        if isinstance(recorded, dict):
            assert all(recorded[k] == v or grown_by_customer_vocabulary(recorded[k], v)
                       for k, v in now.items())
        else:
            assert recorded == now or grown_by_customer_vocabulary(recorded, now), member
        out[member] = now
    return out


def without_customer_items(recorded: list[Any], now: list[Any]) -> list[Any]:
    """``now`` without the items the customer release appended after ``recorded``'s (the rest is compared item
    by item, so an item that changed otherwise, such as the MCP reset tool, still shows)."""
    if len(now) > len(recorded) and all(_appended_by_customer_release(v) for v in now[len(recorded):]):
        return now[:len(recorded)]
    return now


# --------------------------------------------------------------------------- the step's grade
MEMBERS_ADDED_WITH_THE_GRADE = frozenset({"grade"})
"""The member every step answer gained after the recordings were made: ``grade``, why the step
earned its reward (``domain.observation.PublicGrade``: the grader's public reason and the public
component breakdown), last in the answer on every transport. The recordings lack it; every member
they have is compared as recorded, and ``tests/api/test_grade_reasons.py`` checks the new one on
every transport."""


def added_since_recorded(member: str) -> bool:
    """Whether a member a recording lacks was added on purpose since: the conversation and the
    split reset (:func:`added_by_customer_release`) or the step's grade
    (:data:`MEMBERS_ADDED_WITH_THE_GRADE`)."""
    return added_by_customer_release(member) or member in MEMBERS_ADDED_WITH_THE_GRADE
