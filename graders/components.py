"""Score components: what the ticket's current state is worth, one function per component.

Each returns earned units (1 unit = 0.0001 of the score), a public reason that never reveals the
answer key, and an audit detail that does. Only components a task weighs are computed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter
from typing import Any, NamedTuple

from domain.state import EpisodeState
from domain.tasks.spec import COMPONENTS, TaskInstance
from graders import rubric as rb
from graders.lexicon import foreign_groups

UNITS = 10_000


class Component(NamedTuple):
    name: str
    earned: int
    weight: int
    public: str
    detail: str


def _units(weight: int, fraction: Fraction) -> int:
    """``round(weight * fraction)``, half to even, in integers (Fraction arithmetic cost ~3 us)."""
    return _round_ratio(weight * fraction.numerator, fraction.denominator)


def _round_ratio(numerator: int, denominator: int) -> int:
    """``round(Fraction(numerator, denominator))``: the nearest integer, ties to the even one."""
    quotient, remainder = divmod(numerator, denominator)
    twice = 2 * remainder
    if twice > denominator or (twice == denominator and quotient % 2):
        return quotient + 1
    return quotient


@dataclass(frozen=True, slots=True)
class _Expected:
    """A task's answer key as plain strings, and its weighted components: read once per task
    object (enum ``.value`` and weight arithmetic on every step added up)."""

    priority: str | None
    queue: str | None
    tags: frozenset[str]
    tags_sorted: list[str]
    policy: str | None
    statuses: list[str]
    codes: list[str | None]
    weights: tuple[tuple[str, int], ...]  # (component, weight in units), in report order


_EXPECTED: dict[int, tuple[TaskInstance, _Expected]] = {}


def _expected(t: TaskInstance) -> _Expected:
    hit = _EXPECTED.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    e = t.expected
    tags = frozenset(tag.value for tag in e.tags)
    found = _Expected(
        priority=e.priority.value if e.priority else None,
        queue=e.queue.value if e.queue else None,
        tags=tags,
        tags_sorted=sorted(tags),
        policy=e.policy.value if e.policy else None,
        statuses=[x.value for x in e.status],
        codes=[c.value if c is not None else None for c in e.resolution_code],
        weights=tuple((name, round(t.weights[name] * UNITS))
                      for name in COMPONENTS if name in t.weights),
    )
    if len(_EXPECTED) >= 4096:  # one entry per live task object; a bound against leaks
        _EXPECTED.clear()
    _EXPECTED[id(t)] = (t, found)  # keeps t alive so its id is not reused while cached
    return found


def _choice(name: str, current: str | None, expected: str | None, weight: int) -> Component:
    if current is None:
        return Component(name, 0, weight, f"{name}: not set", f"{name}: not set (expected {expected})")
    if current == expected:
        return Component(name, weight, weight, f"{name}: correct", f"{name}: {current} is correct")
    return Component(name, 0, weight, f"{name}: not correct",
                     f"{name}: {current} is wrong (expected {expected})")


def _priority(s: EpisodeState, t: TaskInstance, w: int) -> Component:
    return _choice("priority", s.priority, _expected(t).priority, w)


def _queue(s: EpisodeState, t: TaskInstance, w: int) -> Component:
    return _choice("queue", s.queue, _expected(t).queue, w)


def _tags(s: EpisodeState, t: TaskInstance, w: int) -> Component:
    exp = _expected(t)
    required = exp.tags
    present = set(s.tags)
    hits, extra = len(required & present), len(present - required)
    earned = _round_ratio(w * max(0, hits - extra), len(required)) if required else w * int(not extra)
    public = f"tags: {hits}/{len(required)} required" + (f", {extra} wrong" if extra else "")
    detail = (f"tags: have {sorted(present) or '-'}, required {exp.tags_sorted}"
              + (f"; wrong tags cost one required tag each: {sorted(present - required)}" if extra else ""))
    return Component("tags", earned, w, public, detail)


def _decision_step(s: EpisodeState) -> int | None:
    """The first step that committed to a decision (reply, tag or resolution), if any."""
    candidates = [x for x in (s.first_reply_step, s.first_tag_step) if x is not None]
    if s.status != "open":
        candidates.append(s.step_count)
    return min(candidates) if candidates else None


def _policy(s: EpisodeState, t: TaskInstance, w: int) -> Component:
    expected = _expected(t).policy
    seen = next((step for pid, step in s.policies_viewed if pid == expected), None)
    decided = _decision_step(s)
    if seen is None:
        return Component("policy", 0, w, "policy: the relevant policy was not consulted",
                         f"policy: {expected} never looked up")
    if decided is not None and seen > decided:
        return Component("policy", 0, w, "policy: consulted only after deciding",
                         f"policy: {expected} looked up at step {seen}, after deciding at step {decided}")
    return Component("policy", w, w, "policy: consulted before deciding",
                     f"policy: {expected} looked up at step {seen}")


def _reply(s: EpisodeState, t: TaskInstance, w: int) -> Component:
    assert t.reply is not None
    r = rb.evaluate(t.reply, s.reply_draft, t.first_name, foreign_groups(t.task_id))
    return Component("reply", _units(w, r.fraction), w, f"reply: {r.public}", f"reply: {r.detail}")


def _note(s: EpisodeState, t: TaskInstance, w: int) -> Component:
    assert t.note is not None
    text = "\n".join(s.notes) if s.notes else None
    r = rb.evaluate(t.note, text, t.first_name, foreign_groups(t.task_id))
    return Component("note", _units(w, r.fraction), w, f"note: {r.public}", f"note: {r.detail}")


def _resolution(s: EpisodeState, t: TaskInstance, w: int) -> Component:
    exp = _expected(t)
    statuses, codes = exp.statuses, exp.codes
    if s.status == "open":
        return Component("resolution", 0, w, "resolution: ticket still open",
                         f"resolution: open (expected {statuses} with {codes})")
    if s.status in statuses and s.resolution_code in codes:
        return Component("resolution", w, w, "resolution: correct",
                         f"resolution: {s.status} with {s.resolution_code} is correct")
    return Component("resolution", 0, w, "resolution: not correct",
                     f"resolution: {s.status} with {s.resolution_code}; expected {statuses} with {codes}")


SCORERS: dict[str, Callable[[EpisodeState, TaskInstance, int], Component]] = {
    "priority": _priority,
    "queue": _queue,
    "tags": _tags,
    "policy": _policy,
    "reply": _reply,
    "note": _note,
    "resolution": _resolution,
}


READS: dict[str, tuple[str, ...]] = {
    "priority": ("priority",),
    "queue": ("queue",),
    "tags": ("tags",),
    "policy": ("policies_viewed", "first_reply_step", "first_tag_step", "status", "step_count"),
    "reply": ("reply_draft",),
    "note": ("notes",),
    "resolution": ("status", "resolution_code"),
}
"""The state fields each scorer reads (besides the task). Results are memoised on them, so a
scorer that starts reading another field must say so here: tests/test_perf_invariants.py runs
every scorer on a view holding only these fields."""

_READERS = {name: attrgetter(*fields) for name, fields in READS.items()}
_MEMO: dict[tuple[Any, ...], tuple[TaskInstance, Component]] = {}
_MEMO_LIMIT = 16384


def score_components(state: EpisodeState) -> list[Component]:
    """Every weighted component of ``state``, in report order.

    A component is a pure function of its scorer, the task and the fields in :data:`READS`, and a
    step changes one or two of them, so each result is memoised on exactly those (the task by
    identity, kept alive in the entry). SCORERS is looked up on every call: replacing a scorer
    (a new grader) takes effect at once, since the scorer is part of the key.
    """
    task = state.task
    assert task is not None
    out = []
    memo = _MEMO
    for name, weight in _expected(task).weights:
        scorer = SCORERS[name]
        reader = _READERS.get(name)
        if reader is None:  # a scorer this table does not know: no memo
            out.append(scorer(state, task, weight))
            continue
        key = (scorer, id(task), weight, reader(state))
        hit = memo.get(key)
        if hit is not None and hit[0] is task:
            out.append(hit[1])
            continue
        found = scorer(state, task, weight)
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        memo[key] = (task, found)
        out.append(found)
    return out
