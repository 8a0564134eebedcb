"""Replay, chain check, state-at-step, diff and the step timeline: answering "what happened, and is
the log telling the truth?".

All of them read only the recorded events. Replay re-folds and re-grades every step with the grader
the episode was recorded under (``graders.versions``: its recorded rewards must come out again
exactly, whatever grader new episodes use; under a retired grader, from the grades it recorded:
``graders.retired``), verifies the hash chain, checks the task variant
against the catalog, and reports the first place where anything disagrees with what was recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from domain import events as ev
from domain.actions import action_json
from domain.decide import EpisodeFinished, EpisodeNotStarted, UnknownClosing, end
from domain.rewards import mode_reward
from domain.state import EpisodeState, fold
from domain.tasks.catalog import Catalog
from graders import to_float
from graders.grader import SplitLog, split_steps
from graders.retired import RETIRED, UngradableStep
from graders.safety import Violation
from graders.versions import (
    CURRENT,
    EpisodeGradeView,
    StepGradeView,
    UnknownGrader,
    grader_of_log,
    violations_of,
)
from store.chain import GENESIS, UnknownChainFormat, link
from store.eventstore import RecordedEvent


@dataclass
class Divergence:
    step: int | None
    seq: int | None
    kind: str  # chain | catalog | reward | score | components | upcast | grader | closing
    message: str
    recorded: Any = None
    recomputed: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "seq": self.seq, "kind": self.kind, "message": self.message,
                "recorded": self.recorded, "recomputed": self.recomputed}


@dataclass
class ReplayReport:
    episode_id: str
    task_id: str
    seed: int | None
    events: int
    steps: list[dict[str, Any]] = field(default_factory=list)
    chain_ok: bool = True
    head_hash: str = GENESIS
    divergences: list[Divergence] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    recorded_score: float | None = None
    recomputed_score: float | None = None
    grader_version: str = CURRENT
    recorded_grader_version: str | None = None
    reward_mode: str = "dense"
    closing: dict[str, Any] | None = None
    """The episode's closing (:func:`closing_json`), None when it has none."""
    domain_events: list[ev.Event] | None = field(default=None, repr=False, compare=False)
    """The log's events as the domain reads them (None when they cannot be read), for a caller
    that folds the log too (``service.verify``): reading them again would parse and upcast every
    event a second time. Not part of the report's JSON."""
    log_state: EpisodeState | None = field(default=None, repr=False, compare=False)
    """The state the log folds to, when grading it has folded it already (:func:`_log_state`);
    None otherwise. Not part of the report's JSON."""

    @property
    def consistent(self) -> bool:
        return not self.divergences

    @property
    def first_divergence(self) -> Divergence | None:
        return self.divergences[0] if self.divergences else None

    def to_json(self) -> dict[str, Any]:
        first = self.first_divergence
        return {
            "episode_id": self.episode_id, "task_id": self.task_id, "seed": self.seed,
            "events": self.events, "consistent": self.consistent, "chain_ok": self.chain_ok,
            "head_hash": self.head_hash,
            "first_divergence": first.to_json() if first else None,
            "divergences": [d.to_json() for d in self.divergences],
            "notes": self.notes,
            "recorded_score": self.recorded_score, "recomputed_score": self.recomputed_score,
            "grader_version": self.grader_version,
            "recorded_grader_version": self.recorded_grader_version,
            "reward_mode": self.reward_mode,
            **({"closing": self.closing} if self.closing is not None else {}),
            "steps": self.steps,
        }


def verify_chain(recorded: list[RecordedEvent]) -> Divergence | None:
    """Walk every link in the episode's chain format; name the first event whose stored bytes or
    link do not check out (or the format, when this code cannot check it)."""
    prev = GENESIS
    for index, r in enumerate(recorded, start=1):
        if r.seq != index:
            return Divergence(None, r.seq, "chain", f"sequence gap: expected {index}, found {r.seq}")
        if r.prev_hash != prev:
            return Divergence(None, r.seq, "chain", f"event {r.seq} does not link to event {r.seq - 1}",
                              r.prev_hash, prev)
        try:
            digest = link(prev, r.seq, r.type, r.version, r.data_text, r.chain_format)
        except UnknownChainFormat as exc:
            return Divergence(None, r.seq, "chain", str(exc), r.chain_format)
        if digest != r.hash:
            return Divergence(None, r.seq, "chain",
                              f"event {r.seq} ({r.type}) was altered after it was written",
                              r.hash, digest)
        prev = r.hash
    return None


def _step_of_seq(recorded: list[RecordedEvent]) -> dict[int, int]:
    step, out = 0, {}
    for r in recorded:
        if r.type == ev.ActionReceived.type:
            step += 1
        out[r.seq] = step
    return out


def _catalog_drift(report: ReplayReport, version: str, found: Divergence) -> None:
    """A task variant that is not the catalog's any more: a divergence for an episode of the
    current grader (a reset today would not give the same task), a note for one recorded under an
    older grader, whose catalog was bound to move on with the grading (grader 2.0 came with new
    rubrics and answer keys). Either way the episode is graded with the task its log records, which the
    chain covers."""
    if version == CURRENT:
        report.divergences.append(found)
    else:
        report.notes.append(f"{found.message} (expected: recorded under {version}, the catalog "
                            f"is {CURRENT}'s now)")


def replay(recorded: list[RecordedEvent], catalog: Catalog, *, steps: bool = True) -> ReplayReport:
    """Re-fold, re-grade and verify one episode's recorded events.

    ``steps=False`` leaves out the per-step rows (rewards and reasons) and reports only what
    diverged: what ``verify`` needs, and a tenth cheaper over a whole log.
    """
    if not recorded or recorded[0].type != ev.EpisodeStarted.type:
        raise ValueError("an episode log starts with EpisodeStarted")
    first = recorded[0]
    try:
        opening = first.data  # parsed once: the largest payload of an episode (the task)
    except ValueError:  # a tampered first event need not be JSON any more: the chain says where
        opening = None
    started = opening if isinstance(opening, dict) else {}
    report = ReplayReport(str(started.get("episode_id", first.episode_id)),
                          str(started.get("task_id", "")), started.get("seed"), len(recorded),
                          recorded_grader_version=started.get("grader_version"))
    broken = verify_chain(recorded)
    if broken is not None:
        broken.step = _step_of_seq(recorded).get(broken.seq or 0)
        report.chain_ok = False
        report.divergences.append(broken)
    report.head_hash = recorded[-1].hash
    try:
        domain_events = [ev.upcast(first.type, first.version,
                                   first.data if opening is None else opening)]
        domain_events += [ev.upcast(r.type, r.version, r.data) for r in recorded[1:]]
    except (ValueError, KeyError, TypeError) as exc:
        report.divergences.append(Divergence(None, None, "upcast", f"cannot read the log: {exc!r}"))
        return report
    report.domain_events = domain_events
    try:
        grader = grader_of_log(domain_events)
    except UnknownGrader as exc:
        report.divergences.append(Divergence(None, None, "grader", str(exc)))
        return report
    report.grader_version = grader.version
    if grader.version in RETIRED:
        report.notes.append(f"{RETIRED[grader.version]}: each step's reward and score are checked "
                            "against the components and penalties it recorded, which are not "
                            "judged again")
    try:
        grade = grader.grade_episode(domain_events)
    except UngradableStep as exc:
        report.divergences.append(Divergence(None, None, "reward", str(exc)))
        return report
    except (ValueError, KeyError, TypeError) as exc:
        report.divergences.append(Divergence(None, None, "upcast", f"cannot read the log: {exc!r}"))
        return report
    try:
        current = catalog.variant(started["task_id"], started.get("seed"))
        if current.digest != started.get("task_digest"):
            _catalog_drift(report, grader.version, Divergence(
                0, 1, "catalog", "the task variant in the catalog changed since this episode ran",
                started.get("task_digest"), current.digest))
    except LookupError as exc:
        _catalog_drift(report, grader.version, Divergence(0, 1, "catalog", str(exc)))
    opened = domain_events[0]
    assert isinstance(opened, ev.EpisodeStarted), "an episode log starts with EpisodeStarted"
    report.reward_mode = opened.reward_mode
    threshold = opened.task.task.success_threshold
    report.recomputed_score = grade.score if grade.steps else 0.0
    report.recorded_score = grade.recorded[-1].score if grade.recorded else 0.0
    for index, step in enumerate(grade.steps):
        rec = grade.recorded[index] if index < len(grade.recorded) else None
        if steps:
            report.steps.append({"step": step.step, "reward": step.reward, "score": step.score,
                                 "agent_reward": mode_reward(opened.reward_mode, step.reward,
                                                             step.score, step.done, threshold),
                                 "recorded_reward": rec.reward if rec else None,
                                 "recorded_score": rec.score if rec else None,
                                 "reason": step.audit_reason()})
        if rec is None:
            report.divergences.append(Divergence(step.step, None, "reward",
                                                 f"step {step.step} has no recorded grade"))
            continue
        for kind, theirs, theirs_units, mine in (
                ("reward", rec.reward, rec.reward_units, step.reward_units),
                ("score", rec.score, rec.score_units, step.score_units)):
            if theirs_units != mine:
                report.divergences.append(Divergence(
                    step.step, None, kind,
                    f"step {step.step}: recorded {kind} {theirs} but "
                    f"the grader now gives {mine / 10_000}", theirs_units, mine))
                break
        else:
            recorded_components = {c.name: c.earned for c in rec.components}
            mine_components = {c.name: c.earned for c in step.components}
            if recorded_components != mine_components:
                report.divergences.append(Divergence(
                    step.step, None, "components",
                    f"step {step.step}: score components differ", recorded_components,
                    mine_components))
    log = split_steps(domain_events)
    report.log_state = _log_state(log, grade)
    if log.closing:  # after the steps: the last record, checked last
        report.closing = closing_json(log, recorded)
        wrong = closing_divergence(log)
        if wrong is not None:
            wrong.seq = report.closing["seq"]
            report.divergences.append(wrong)
    return report


def _log_state(log: SplitLog, grade: EpisodeGradeView) -> EpisodeState | None:
    """The state the log folds to, if the grader's own fold of it is that state: the log recorded
    each step's grade as the grader gives it now (:func:`_recorded_as_given`, the step's last
    event and its only grade), so folding it repeats the grader's fold event for event; the
    closing is folded on. None when the log recorded other grades (its own fold is then another)."""
    if grade.state is None or len(log.steps) != len(grade.steps):
        return None
    for step_events, given in zip(log.steps, grade.steps, strict=True):
        if not _recorded_as_given(step_events[-1], given) or any(
                isinstance(e, ev.StepGraded) for e in step_events[:-1]):
            return None
    return fold(log.closing, grade.state)


def _recorded_as_given(recorded: ev.Event, given: StepGradeView) -> bool:
    """Whether ``recorded`` is the event of the grade ``given``, its components in the order the
    log keeps them (an object keyed by their names, ``domain.events.StepGraded``): the order of a
    grade's components is not folded into the state."""
    if not isinstance(recorded, ev.StepGraded):
        return False
    event = given.to_event()
    return (len(event.components) == len(recorded.components)
            and {c.name: c for c in event.components} == {c.name: c for c in recorded.components}
            and replace(event, components=recorded.components) == recorded)


def closing_json(log: SplitLog, recorded: list[RecordedEvent]) -> dict[str, Any]:
    """An episode's closing as the audit shows it: why it ended (a limit: Gymnasium's
    ``truncated``), the sequence number of its event and the step it came after."""
    ended = log.closing[0]
    assert isinstance(ended, ev.EpisodeEnded), "a closing starts with EpisodeEnded"
    seq = recorded[len(log.head) + sum(len(s) for s in log.steps)].seq
    return {"reason": ended.reason, "seq": seq, "after_step": len(log.steps),
            "truncated": ended.reason in ev.LIMITS}


def closing_divergence(log: SplitLog) -> Divergence | None:
    """Whether the closing is what ending the episode from outside a step records
    (``domain.decide.end`` on the state its steps left), else why not."""
    ended = log.closing[0]
    assert isinstance(ended, ev.EpisodeEnded), "a closing starts with EpisodeEnded"
    before = fold([e for s in log.steps for e in s], fold(log.head))
    try:
        expected = end(before, ended.reason)
    except (UnknownClosing, EpisodeFinished, EpisodeNotStarted) as exc:
        return Divergence(None, None, "closing", f"the closing is not one: {exc}",
                          [e.type for e in log.closing])
    if list(log.closing) != expected:
        return Divergence(None, None, "closing",
                          "the closing records more than ending the episode",
                          [e.type for e in log.closing], [e.type for e in expected])
    return None


def state_at(recorded: list[RecordedEvent], step: int) -> EpisodeState:
    """The state right after ``step`` (0 = just after reset), folded from the log; after the last
    step, with the episode's closing (if it has one: it changes only ``done`` and the reason)."""
    head, steps, closing = split_steps(ev.upcast(r.type, r.version, r.data) for r in recorded)
    if step < 0 or step > len(steps):
        raise ValueError(f"step must be between 0 and {len(steps)}")
    return fold([e for s in steps[:step] for e in s] + (closing if step == len(steps) else []),
                fold(head))


def public_fields(state: EpisodeState) -> dict[str, Any]:
    """The fields of a state worth comparing and showing (no answer key). ``conversation`` (the
    messages exchanged with the customer, each with who wrote it) only once there is one, so
    episodes that never message the customer show what they always showed."""
    fields: dict[str, Any] = {
        "priority": state.priority, "queue": state.queue, "tags": list(state.tags),
        "reply_draft": state.reply_draft, "internal_notes": list(state.notes),
        "policies_viewed": [p for p, _ in state.policies_viewed], "status": state.status,
        "resolution_code": state.resolution_code, "done": state.done,
        "step_count": state.step_count, "score": state.score,
        "account": state.account.model_dump(mode="json"),
    }
    if state.conversation:
        fields["conversation"] = [{"step": t.step, "speaker": t.speaker, "text": t.text}
                                  for t in state.conversation]
    return fields


def episode_violations(state: EpisodeState) -> tuple[Violation, ...]:
    """The safety violations of ``state`` as its episode's grader judges them (grader 1.1 had no
    safety rules, so its episodes show none)."""
    return violations_of(state)


def violation_json(violation: Violation) -> dict[str, Any]:
    """A safety violation as the audit shows it: the rule, the step, and the reason (which names
    the step and the event that broke it)."""
    return {"rule": violation.rule, "step": violation.step, "reason": violation.reason}


def diff(a: list[RecordedEvent], b: list[RecordedEvent]) -> dict[str, Any]:
    """Compare two episodes step by step; name the first step where they part ways."""
    ea = [ev.upcast(r.type, r.version, r.data) for r in a]
    eb = [ev.upcast(r.type, r.version, r.data) for r in b]
    head_a, steps_a, closing_a = split_steps(ea)
    head_b, steps_b, closing_b = split_steps(eb)
    state_a, state_b = fold(head_a), fold(head_b)
    task_a, task_b = state_a.task, state_b.task
    assert task_a is not None and task_b is not None, "an episode log starts with EpisodeStarted"
    rows: list[dict[str, Any]] = []
    first: dict[str, Any] | None = None
    for index in range(max(len(steps_a), len(steps_b))):
        sa = steps_a[index] if index < len(steps_a) else []
        sb = steps_b[index] if index < len(steps_b) else []
        state_a, state_b = fold(sa, state_a), fold(sb, state_b)
        act_a = _actions(sa)
        act_b = _actions(sb)
        fa, fb = public_fields(state_a), public_fields(state_b)
        # one side may have a field the other lacks (a conversation: public_fields): absent is none
        names = [*fa, *(k for k in fb if k not in fa)]
        fields = {k: {"a": fa.get(k, []), "b": fb.get(k, [])} for k in names
                  if fa.get(k, []) != fb.get(k, [])}
        rew_a = next((e.reward for e in sa if isinstance(e, ev.StepGraded)), None)
        rew_b = next((e.reward for e in sb if isinstance(e, ev.StepGraded)), None)
        why_a = _reason(sa)
        why_b = _reason(sb)
        row = {"step": index + 1, "same_action": act_a == act_b, "action_a": act_a,
               "action_b": act_b, "state_differences": fields, "reward_a": rew_a,
               "reward_b": rew_b, "reason_a": why_a, "reason_b": why_b}
        rows.append(row)
        if first is None and (act_a != act_b or fields or rew_a != rew_b):
            first = row
    out: dict[str, Any] = {
        "task_a": task_a.task_id, "task_b": task_b.task_id,
        "same_task": task_a.task_id == task_b.task_id and task_a.seed == task_b.seed,
        "steps_a": len(steps_a), "steps_b": len(steps_b),
        "score_a": state_a.score, "score_b": state_b.score,
        "first_divergence": first, "identical": first is None, "steps": rows,
    }
    if closing_a or closing_b:  # ended from outside a step: after the steps, never one of them
        out["closing"] = {"a": _closing_reason(closing_a), "b": _closing_reason(closing_b)}
    return out


def _closing_reason(closing: list[ev.Event]) -> str | None:
    return next((e.reason for e in closing if isinstance(e, ev.EpisodeEnded)), None)


def _actions(step_events: list[ev.Event]) -> list[dict[str, Any]] | None:
    """A step's normalised actions as JSON (None when there is no such step)."""
    if not step_events:
        return None
    received = step_events[0]
    assert isinstance(received, ev.ActionReceived)
    return [action_json(a) for a in received.actions]


def _graded(step_events: list[ev.Event]) -> ev.StepGraded | None:
    return next((e for e in step_events if isinstance(e, ev.StepGraded)), None)


def _reason(step_events: list[ev.Event]) -> str | None:
    graded = _graded(step_events)
    if graded is None:
        return None
    parts = [c.detail for c in graded.components]
    parts += [f"penalty {p.rule}: {p.reason}" for p in graded.penalties]
    parts += [f"safety violation {v.rule} at step {v.step}: {v.reason}" for v in graded.violations]
    return "; ".join(parts)


def timeline(recorded: list[RecordedEvent]) -> list[dict[str, Any]]:
    """One row per step, straight from the log: the action, the events it produced, what changed in
    the ticket, and the grade recorded at the time (reward, running score, reason, grader version).

    Changes come from the fold (``StepRecord.changes``), so the wording is the domain's own. A
    closing is not a step and has no row (:func:`closing_json` describes it).
    """
    head, steps, _ = split_steps(ev.upcast(r.type, r.version, r.data) for r in recorded)
    state = fold(head)
    rows: list[dict[str, Any]] = []
    earned_before: dict[str, int] = {}
    for step_events in steps:
        state = fold(step_events, state)
        record = state.steps[-1]
        broken = [violation_json(v) for v in episode_violations(state) if v.step == record.step]
        graded = _graded(step_events)
        parts = graded.components if graded else ()
        moved = [{"component": c.name, "delta": to_float(c.earned - earned_before.get(c.name, 0)),
                  "detail": c.detail}
                 for c in parts if c.earned != earned_before.get(c.name, 0)]
        moved += [{"component": f"penalty {p.rule}", "delta": to_float(-p.units),
                   "detail": p.reason} for p in (graded.penalties if graded else ())]
        earned_before = {c.name: c.earned for c in parts}
        rows.append({
            "step": record.step,
            "action": record.raw.value(),
            "actions": _actions(step_events),
            "events": [e.type for e in step_events],
            "changes": list(record.changes),
            "error": record.error,
            "reward": graded.reward if graded else None,
            "score": graded.score if graded else None,
            "reason": _reason(step_events),
            "moved": moved,
            "components": {c.name: {"earned": c.earned, "weight": c.weight, "detail": c.detail}
                           for c in parts},
            "penalties": [{"rule": p.rule, "units": p.units, "reason": p.reason}
                          for p in (graded.penalties if graded else ())],
            "grader_version": (graded.grader_version or None) if graded else None,
            "done": bool(graded and graded.done),
            "violations": broken,
        })
    return rows
