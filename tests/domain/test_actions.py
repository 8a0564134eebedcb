"""The action model: both seeds' dialects, vocabulary handling, rejected vs invalid input, corrections."""

from __future__ import annotations

import pytest

from domain import events as ev
from domain.actions import (
    MAX_NOTE_CHARS,
    MAX_REPLY_CHARS,
    AddTag,
    AssignQueue,
    ClassifyPriority,
    CloseTicket,
    DraftReply,
    InvalidAction,
    parse_action,
)
from domain.vocabulary import ActionType, Priority, Queue, ResolutionCode, Tag
from graders import UNITS
from graders.penalties import CHURN, REJECTED
from service.gold import gold
from tests.play import play

SUPPORTOPS_FIELDS = ("priority", "queue", "reply_text", "note", "resolution_code")
REPLY = ("Hi Tomas, I am truly sorry that you have had to write to us three times about this. I have "
         "escalated your ticket to our senior team, and a specialist will contact you within 24 hours "
         "with a full update. Thank you for your patience. Kind regards, Support")



def flat(action_type: str, **fields: str) -> dict[str, object]:
    """A SupportOps client's body: every field of its flat model, unused ones null."""
    body: dict[str, object] = dict.fromkeys(SUPPORTOPS_FIELDS)
    body.update(action_type=action_type, **fields)
    return body


def count_events(service) -> int:  # type: ignore[no-untyped-def]
    return service.store.count_events()


# --------------------------------------------------------------------------- SupportOps dialect
@pytest.mark.parametrize(("body", "expected"), [
    (flat("classify_priority", priority="high"), ClassifyPriority(priority=Priority.HIGH)),
    (flat("assign_queue", queue="billing"), AssignQueue(queue=Queue.BILLING)),
    (flat("draft_reply", reply_text="Hello there."), DraftReply(reply_text="Hello there.")),
])
def test_supportops_flat_body_with_nulls_is_accepted(body, expected) -> None:  # type: ignore[no-untyped-def]
    plan = parse_action(body)
    assert plan.rejection is None
    assert plan.actions == (expected,)
    assert plan.dialect == "ticketledger"


def test_supportops_flat_body_for_every_seed_action_type() -> None:
    bodies = [
        flat("classify_priority", priority="urgent"),
        flat("assign_queue", queue="trust_and_safety"),
        flat("draft_reply", reply_text="We are on it."),
        flat("add_internal_note", note="checked the logs"),
        flat("resolve_ticket", resolution_code="incident_escalated"),
        flat("noop"),
    ]
    kinds = [parse_action(b).actions[0].action_type for b in bodies]
    assert kinds == ["classify_priority", "assign_queue", "draft_reply", "add_internal_note",
                     "resolve_ticket", "noop"]


def test_flat_body_with_a_filled_field_of_another_action_is_invalid() -> None:
    with pytest.raises(InvalidAction) as info:
        parse_action(flat("classify_priority", priority="high", queue="billing"))
    assert info.value.field == "queue"
    assert "classify_priority" in str(info.value) and "priority" in str(info.value)


def test_empty_strings_count_as_absent() -> None:
    plan = parse_action(flat("classify_priority", priority="high", queue="", note="  "))
    assert plan.actions == (ClassifyPriority(priority=Priority.HIGH),)


# --------------------------------------------------------------------------- CustomerSupportEnv dialect
def test_combined_action_parts_follow_the_documented_order() -> None:
    # Keys deliberately given in reverse order: the documented order must win.
    plan = parse_action({"close_ticket": True, "reply": "Thanks for waiting.", "add_tag": "refund",
                         "reassign_queue": "Escalations"})
    assert plan.dialect == "customersupportenv"
    assert plan.actions == (AssignQueue(queue=Queue.ESCALATIONS), AddTag(tag=Tag.REFUND),
                            DraftReply(reply_text="Thanks for waiting."), CloseTicket())


def test_combined_action_becomes_several_events_in_one_step(service) -> None:  # type: ignore[no-untyped-def]
    reset = service.reset("task_medium_angry_escalation")
    result = service.step(reset.episode_id, {"close_ticket": True, "reply": REPLY,
                                             "add_tag": "Escalated", "reassign_queue": "escalations"})
    recorded = service.load_events(reset.episode_id)
    step_types = [r.type for r in recorded if r.seq > reset.seq]
    assert step_types == [ev.ActionReceived.type, ev.QueueAssigned.type, ev.TagAdded.type,
                          ev.ReplyDrafted.type, ev.TicketClosed.type, ev.EpisodeEnded.type,
                          ev.StepGraded.type]
    assert result.state.step_count == 1
    assert result.done
    assert result.state.queue == "escalations" and result.state.tags == ("Escalated",)
    assert result.state.status == "closed"
    # The action is recorded exactly as received.
    received = next(r for r in recorded if r.type == ev.ActionReceived.type)
    assert received.data["raw"] == {"close_ticket": True, "reply": REPLY, "add_tag": "Escalated",
                                    "reassign_queue": "escalations"}
    assert received.data["dialect"] == "customersupportenv"


def test_combined_close_without_reply_is_rejected_and_penalised(service) -> None:  # type: ignore[no-untyped-def]
    reset = service.reset("task_medium_angry_escalation")
    result = service.step(reset.episode_id, {"reassign_queue": "escalations", "close_ticket": True})
    assert not result.done
    assert result.state.status == "open"
    assert "draft a reply" in (result.observation.last_action_error or "")
    assert any(p.rule == "premature_resolution" for p in result.grade.penalties)


def test_combined_action_setting_nothing_is_a_rejected_step(service) -> None:  # type: ignore[no-untyped-def]
    reset = service.reset("task_easy_refund_tag")
    result = service.step(reset.episode_id, {"close_ticket": False, "reply": None})
    assert result.state.step_count == 1
    assert result.reward == -REJECTED["missing_field"] / UNITS


# --------------------------------------------------------------------------- vocabulary
@pytest.mark.parametrize(("body", "field", "canonical"), [
    ({"action_type": "CLASSIFY_PRIORITY", "priority": "URGENT"}, "priority", "urgent"),
    ({"action_type": "Assign_Queue", "queue": " Escalations "}, "queue", "escalations"),
    ({"action_type": "add_tag", "tag": "policy_denied"}, "tag", "Policy_Denied"),
    ({"action_type": "add_tag", "tag": "REFUND"}, "tag", "Refund"),
    ({"action_type": "resolve_ticket", "resolution_code": "Refund_Denied"}, "resolution_code",
     "refund_denied"),
    ({"action_type": "lookup_policy", "policy_id": "Refund_Policy"}, "policy_id", "refund_policy"),
    ({"reassign_queue": "ESCALATIONS"}, "queue", "escalations"),
    ({"add_tag": "vip"}, "tag", "VIP"),
])
def test_vocabulary_is_case_insensitive_and_stored_canonically(body, field, canonical) -> None:  # type: ignore[no-untyped-def]
    (action,) = parse_action(body).to_json()
    assert action[field] == canonical


@pytest.mark.parametrize(("body", "field", "vocabulary"), [
    ({"action_type": "classify_priority", "priority": "critical"}, "priority", Priority),
    ({"action_type": "assign_queue", "queue": "sales"}, "queue", Queue),
    ({"action_type": "add_tag", "tag": "Angry"}, "tag", Tag),
    ({"action_type": "resolve_ticket", "resolution_code": "done"}, "resolution_code", ResolutionCode),
    ({"action_type": "escalate"}, "action_type", ActionType),
    ({"reassign_queue": "sales"}, "reassign_queue", Queue),
    ({"add_tag": "nope"}, "add_tag", Tag),
])
def test_unknown_value_names_the_field_and_the_allowed_values(body, field, vocabulary) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidAction) as info:
        parse_action(body)
    assert info.value.field == field
    assert info.value.allowed == vocabulary.allowed()
    for value in vocabulary.allowed():
        assert value in str(info.value)


def test_non_string_value_names_the_field_and_the_allowed_values() -> None:
    with pytest.raises(InvalidAction) as info:
        parse_action({"action_type": "classify_priority", "priority": 3})
    assert info.value.field == "priority"
    for value in Priority.allowed():
        assert value in str(info.value)


@pytest.mark.parametrize(("body", "field", "allowed_fields"), [
    ({"action_type": "classify_priority", "priority": "high", "urgency": "1"}, "urgency",
     ["action_type", "priority"]),
    ({"action_type": "noop", "comment": "x"}, "comment", ["action_type"]),
    ({"reply": "Hello there.", "close": True}, "close",
     ["reassign_queue", "add_tag", "reply", "close_ticket"]),
    ({"prio": "high"}, "prio", ["action_type", "classify_priority"]),
])
def test_unknown_field_names_the_field_and_what_is_allowed(body, field, allowed_fields) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidAction) as info:
        parse_action(body)
    assert info.value.field == field
    assert repr(field) in str(info.value)
    for name in allowed_fields:
        assert name in str(info.value)


@pytest.mark.parametrize("raw", [[], "noop", 3, None])
def test_an_action_must_be_an_object(raw) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidAction, match="JSON object"):
        parse_action(raw)


@pytest.mark.parametrize("body", [
    {"action_type": "draft_reply", "reply_text": "x" * (MAX_REPLY_CHARS + 1)},
    {"action_type": "add_internal_note", "note": "x" * (MAX_NOTE_CHARS + 1)},
    {"reply": "x" * (MAX_REPLY_CHARS + 1)},
    flat("draft_reply", reply_text="x" * (MAX_REPLY_CHARS + 1)),
])
def test_text_over_the_limit_is_invalid_and_never_logged(service, body) -> None:  # type: ignore[no-untyped-def]
    reset = service.reset("task_medium_angry_escalation")
    before = count_events(service)
    with pytest.raises(InvalidAction) as info:
        service.step(reset.episode_id, body)
    assert info.value.field in ("reply_text", "note", "reply")
    assert "limit" in str(info.value)
    assert count_events(service) == before
    assert service.state(reset.episode_id).step_count == 0


def test_text_at_the_limit_is_accepted() -> None:
    plan = parse_action({"action_type": "draft_reply", "reply_text": "x" * MAX_REPLY_CHARS})
    assert plan.rejection is None


def test_invalid_action_appends_nothing(service) -> None:  # type: ignore[no-untyped-def]
    reset = service.reset("task_easy_password")
    before = count_events(service)
    for body in ({"action_type": "classify_priority", "priority": "critical"}, {"bogus": 1}):
        with pytest.raises(InvalidAction):
            service.step(reset.episode_id, body)
    assert count_events(service) == before
    assert service.head(reset.episode_id) == (reset.seq, reset.head_hash)


# --------------------------------------------------------------------------- missing fields
@pytest.mark.parametrize("body", [
    {"action_type": "classify_priority"},
    flat("classify_priority"),
    flat("resolve_ticket", resolution_code=""),
    {"action_type": "draft_reply", "reply_text": "   "},
    {"action_type": "add_tag", "tag": None},
    {},
])
def test_missing_field_is_a_logged_penalised_step(service, body) -> None:  # type: ignore[no-untyped-def]
    reset = service.reset("task_easy_password")
    result = service.step(reset.episode_id, body)
    assert result.state.step_count == 1
    assert result.reward == -REJECTED["missing_field"] / UNITS
    assert result.grade is not None and [p.rule for p in result.grade.penalties] == ["missing_field"]
    error = result.observation.last_action_error or ""
    assert "needs a non-empty" in error or "required" in error
    recorded = service.load_events(reset.episode_id)
    step_types = [r.type for r in recorded if r.seq > reset.seq]
    assert step_types == [ev.ActionReceived.type, ev.ActionRejected.type, ev.StepGraded.type]
    received = recorded[reset.seq]
    assert received.data["raw"] == body  # recorded exactly as received
    rejected = recorded[reset.seq + 1]
    assert rejected.data["code"] == "missing_field"


# --------------------------------------------------------------------------- corrections
def test_second_priority_replaces_the_first_with_a_small_churn_penalty(service) -> None:  # type: ignore[no-untyped-def]
    reset = service.reset("task_easy_password")  # expects medium
    first = service.step(reset.episode_id, {"action_type": "classify_priority", "priority": "low"})
    second = service.step(reset.episode_id, {"action_type": "classify_priority", "priority": "medium"})
    assert first.state.priority == "low" and second.state.priority == "medium"
    assert first.reward == 0.0
    assert second.reward == (2500 - CHURN) / UNITS
    assert [p.rule for p in second.grade.penalties] == ["churn"]
    priority = next(c for c in second.grade.components if c.name == "priority")
    assert priority.earned == priority.weight
    assert second.observation.current_priority == "medium"


def test_queue_correction_counts_and_the_episode_still_scores_nearly_full(service) -> None:  # type: ignore[no-untyped-def]
    """The SupportOps seed ignored a second choice; here it replaces the first.

    Each correction costs the churn penalty (0.01), so the best score after one correction is
    1.0 - 0.01, and the correction is worth far more than leaving the mistake in place.
    """
    task = service.catalog.instance("task_medium_double_charge")
    wrong_then_right = [{"action_type": "assign_queue", "queue": "technical"}] + gold(task)
    corrected = play(service, task.task_id, wrong_then_right)[-1]
    assert corrected.done and corrected.state.queue == "billing"
    assert corrected.state.score == (UNITS - CHURN) / UNITS
    uncorrected_actions = [a for a in gold(task) if a["action_type"] != "assign_queue"]
    uncorrected = play(service, task.task_id,
                       [{"action_type": "assign_queue", "queue": "technical"}] + uncorrected_actions)[-1]
    assert uncorrected.state.score < corrected.state.score


def test_priority_component_reaches_full_credit_after_correction(service) -> None:  # type: ignore[no-untyped-def]
    task = service.catalog.instance("task_hard_enterprise_outage")
    actions = [{"action_type": "classify_priority", "priority": "high"}] + gold(task)
    last = play(service, task.task_id, actions)[-1]
    assert last.done
    components = {c.name: (c.earned, c.weight) for c in last.grade.components}
    assert all(earned == weight for earned, weight in components.values()), components
    assert last.grade.penalty_units == CHURN


def test_a_tag_can_be_removed_again(service) -> None:  # type: ignore[no-untyped-def]
    task = service.catalog.instance("task_easy_refund_tag")
    actions = [{"action_type": "add_tag", "tag": "VIP"}, {"action_type": "remove_tag", "tag": "vip"},
               *gold(task)]
    last = play(service, task.task_id, actions)[-1]
    assert last.state.tags == ("Refund",)
    assert last.state.score == (UNITS - CHURN) / UNITS


@pytest.mark.parametrize("metadata", [{"note": "\ud800"}, {"x": float("nan")}, {"x": float("inf")},
                                      {1: "a", "b": 2}])
def test_unstorable_input_in_an_ignored_field_is_invalid_not_a_crash(service, metadata) -> None:  # type: ignore[no-untyped-def]
    """The raw action is logged as received; text the database cannot hold must be a 422, not a 500."""
    reset = service.reset("task_easy_password")
    before = count_events(service)
    with pytest.raises(InvalidAction, match="cannot be stored as JSON"):
        service.step(reset.episode_id, {"action_type": "noop", "metadata": metadata})
    assert count_events(service) == before
    assert service.step(reset.episode_id, {"action_type": "noop"}).state.step_count == 1
