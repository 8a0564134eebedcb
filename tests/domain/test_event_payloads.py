"""Every event type round-trips through its stored text, generically.

Events of every type are generated from their declared fields (``values`` follows the field
types the way ``domain.payload`` does, so a new event type is covered without a line here), written
as the store writes them (``store.codec``), read back with ``upcast`` at their current version and
written again: the same event and the same bytes. The recorded episodes hold most types already
(``tests/golden/test_event_bytes.py``); this covers the rest and values no episode produced.
"""

from __future__ import annotations

import dataclasses
import types
from enum import Enum
from functools import cache
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import events as ev
from domain.actions import Action, parse_action
from domain.jsontext import JsonText
from domain.payload import KeyedBy
from domain.tasks.catalog import default_catalog
from domain.tasks.variant import TaskVariant
from domain.vocabulary import Priority
from store.codec import canonical_json, parse_json

CATALOG = default_catalog()
VARIANTS = [CATALOG.variant(t, s) for t in CATALOG.task_ids[:4] for s in (None, 3)]
BODIES: list[Any] = [
    {"action_type": "classify_priority", "priority": "urgent"},
    {"action_type": "issue_refund", "amount": 12.5},
    {"action_type": "draft_reply", "reply_text": "Hello \u00e9\u4e16 \"quoted\""},
    {"action_type": "escalate_incident", "severity": "sev2"},
    {"action_type": "message_customer", "message": "Which order is it?"},
    {"action_type": "noop"},
    {"reassign_queue": "billing", "add_tag": "VIP"},
]
ACTIONS = [a for body in BODIES for a in parse_action(body).actions]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8)


def values(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a declared field type."""
    if hint is TaskVariant:
        return st.sampled_from(VARIANTS)
    if hint is JsonText:
        return JSON_VALUES.map(JsonText.of)
    if hint is Action:
        return st.sampled_from(ACTIONS)
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        keyed = next(m for m in args[1:] if isinstance(m, KeyedBy))
        (item,) = {a for a in get_args(args[0]) if a is not Ellipsis}
        # keyed by a unique member, read back in the stored (sorted) order
        return (st.lists(records(item), max_size=4, unique_by=lambda r: getattr(r, keyed.key))
                .map(lambda rs: tuple(sorted(rs, key=lambda r: getattr(r, keyed.key)))))
    if origin in (Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        return st.none() | values(inner)
    if origin is tuple:
        return st.lists(values(args[0]), max_size=4).map(tuple)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return st.sampled_from(list(hint))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return records(hint)
    return {str: st.text(), int: st.integers(), bool: st.booleans(),
            float: st.floats(allow_nan=False, allow_infinity=False)}[hint]


@cache
def records(cls: type) -> st.SearchStrategy[Any]:
    hints = get_type_hints(cls, include_extras=True)
    return st.builds(cls, **{f.name: values(hints[f.name]) for f in dataclasses.fields(cls)})


@pytest.mark.parametrize("cls", ev.EVENT_TYPES, ids=lambda cls: cls.type)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_event_reads_back_from_its_stored_text_as_itself_and_writes_the_same_bytes(
        cls: type, data: st.DataObject) -> None:
    event = data.draw(records(cls))
    text = canonical_json(event.data)
    read = ev.upcast(event.type, event.version, parse_json(text))
    assert read == event
    assert type(read) is cls
    assert canonical_json(read.data) == text
    assert event.data is not event.data  # a fresh payload, the caller's to change


def test_a_payload_reads_like_input_and_names_what_it_cannot_read() -> None:
    # vocabulary ignoring case, as an agent's input is read
    assert ev.upcast("PriorityClassified", 1, {"priority": "URGENT", "previous": "low"}) == \
        ev.PriorityClassified(Priority.URGENT, Priority.LOW)
    # an absent optional member reads as None, an absent defaulted one as its default
    assert ev.upcast("TicketClosed", 1, {}) == ev.TicketClosed(None)
    replied = ev.upcast("CustomerReplied", 1, {"text": "hi", "revealed": [], "kind": "answer"})
    assert replied == ev.CustomerReplied("hi", (), "answer", "scripted")
    with pytest.raises(ValueError, match=r"TagAdded: the payload has no 'tag'"):
        ev.upcast("TagAdded", 1, {})
    with pytest.raises(ValueError, match=r"StepGraded.step: expected int, got str"):
        ev.upcast("StepGraded", 2, {**_graded(), "step": "3"})
    with pytest.raises(ValueError, match=r"CustomerReplied.revealed: expected a list, got str"):
        ev.upcast("CustomerReplied", 1, {"text": "hi", "revealed": "a", "kind": "answer"})
    with pytest.raises(ValueError, match="is not a Tag"):
        ev.upcast("TagAdded", 1, {"tag": "no such tag"})
    with pytest.raises(ValueError, match="not a schema version"):
        ev.upcast("TagAdded", 0, {"tag": "vip"})


def test_a_member_left_out_at_its_default_reads_back_and_one_that_is_set_is_stored() -> None:
    variant = VARIANTS[0]
    plain = ev.EpisodeStarted("ep", variant.task.task_id, None, variant.digest, variant)
    assert "judge" not in plain.data and "customer" not in plain.data
    judged = dataclasses.replace(plain, judge="llm", customer="llm")
    assert (judged.data["judge"], judged.data["customer"]) == ("llm", "llm")
    for event in (plain, judged):
        assert ev.upcast(event.type, event.version, parse_json(canonical_json(event.data))) == event


def test_components_are_stored_keyed_by_name_and_grades_before_grader_versions_read_as_unnamed() -> None:
    graded = ev.upcast("StepGraded", 2, _graded())
    assert isinstance(graded, ev.StepGraded)
    assert graded.components == (ev.Component("reply", 3, 10, "ok", "all facts"),)
    assert graded.grader_version == ""
    assert graded.data["components"] == {"reply": {"earned": 3, "weight": 10, "public": "ok",
                                                   "detail": "all facts"}}


def _graded() -> dict[str, Any]:
    return {"step": 3, "reward": 0.25, "score": 0.5, "reward_units": 2500, "score_units": 5000,
            "raw_units": 5000, "penalty_units": 0, "done": False, "penalties": [],
            "components": {"reply": {"earned": 3, "weight": 10, "public": "ok",
                                     "detail": "all facts"}},
            "violations": []}
