"""Forking: branch a new episode off step k of a recorded one, to try another action from there.

The new episode's first k steps are the original's facts (the same ActionReceived and effect events),
re-graded with the grader the original was recorded under (a fork keeps its source's grader
version, so its steps carry the same grades as the original's) and re-chained under the new id,
so the fork replays consistently on its own. Its EpisodeStarted records ``forked_from``
{episode_id, at, hash}, where ``hash`` is the original's chain hash at the fork point; the episode
row records forked_from and fork_step. The original is only read, never touched. An episode ended
from outside a step (a closing: ``domain.decide.end``) forks at any step up to its last, which lets
a rollout cut off there go on in the fork.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain import events as ev
from domain.observation import observe
from domain.state import fold
from graders.grader import split_steps
from graders.versions import GraderRetired, grader_for, recorded_version
from service.audit_views import Auditor
from service.environment import check_episode_id, new_episode_id, to_domain
from service.errors import BadRequest, EpisodeBusy, GraderRetiredError
from store import Conflict
from store.eventstore import Projection, RecordedEvent


def _hash_at(recorded: list[RecordedEvent], head: list[ev.Event], steps: list[list[ev.Event]],
             at: int) -> str:
    """The chain hash right after step ``at`` of the original (its opening for at=0), split into
    ``head`` and ``steps``: never its closing's, which comes after the last step."""
    return recorded[len(head) + sum(len(s) for s in steps[:at]) - 1].hash


CUSTOMERS = ("scripted", "llm")


def fork(auditor: Auditor, episode_id: str, at: int, new_id: str | None = None, *,
         customer: str | None = None) -> dict[str, Any]:
    """Create the fork; returns its id, provenance, state summary and the agent's observation.

    ``customer``: who answers ``message_customer`` in the fork's new steps, ``scripted`` or
    ``llm`` (a fresh model call per reply), default the original's. The copied steps keep the
    replies they recorded, whoever wrote them, so the fork replays exactly; its ``EpisodeStarted``
    records the choice, and where an LLM customer is involved (in the original or the fork) the
    answer names both: ``customer: {fork, original}`` (an episode without one answers as before)."""
    if customer is not None and customer not in CUSTOMERS:
        raise BadRequest(f"customer must be one of {', '.join(CUSTOMERS)}, not {customer!r}")
    recorded = auditor.load(episode_id)
    head, steps, _ = split_steps(to_domain(r) for r in recorded)
    # without its closing: an episode cut off after its last step forks there and goes on
    original = fold(e for part in [head, *steps] for e in part)
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= len(steps):
        raise BadRequest(f"at must be a step number from 0 to {len(steps)} (episode {episode_id} "
                         f"has {len(steps)} steps)")
    if at == len(steps) and original.done:
        raise BadRequest(f"episode {episode_id} ended at step {at}; fork at {at - 1} or earlier to "
                         "take a different action there")
    fork_id = check_episode_id(new_id) if new_id is not None else new_episode_id()
    started = head[0]
    assert isinstance(started, ev.EpisodeStarted), "an episode log starts with EpisodeStarted"
    try:
        grader = grader_for(recorded_version([e for part in [head, *steps] for e in part]))
    except GraderRetired as exc:
        raise GraderRetiredError(f"episode {episode_id} cannot be forked: a fork keeps its "
                                 f"source's grader, and {exc}") from None
    first = replace(started, episode_id=fork_id, run_id=None,
                    # the original as its own opening event names it (for a client-chosen id, the
                    # id the client chose; the index row below keeps the stored id)
                    forked_from=ev.ForkOrigin(started.episode_id, at, _hash_at(recorded, head, steps, at)),
                    grader_version=grader.version, customer=customer or started.customer)
    kept = steps[:at]
    facts = [[e for e in s if not isinstance(e, ev.StepGraded)] for s in kept]
    grade = grader.grade_episode([first] + [e for s in facts for e in s])
    new_events: list[ev.Event] = [first]
    for step_facts, step_grade in zip(facts, grade.steps, strict=True):
        new_events += step_facts + [step_grade.to_event()]
    state = fold(new_events)
    try:
        written = auditor.store.create(
            fork_id, first.task_id, first.seed,
            new_events,
            Projection("open", state.step_count, state.score),
            forked_from=episode_id, fork_step=at)
    except Conflict as exc:
        raise EpisodeBusy(f"{exc}; omit the new episode id to get a fresh one") from None
    reward = state.rewards[-1] if state.rewards else None
    answer: dict[str, Any] = {
        "episode_id": fork_id,
        "forked_from": {"episode_id": episode_id, "at": at},
        "step_count": state.step_count, "score": state.score, "status": "open",
        "head_hash": written[-1].hash,
        "observation": observe(state, auditor.catalog, reward).model_dump(mode="json"),
    }
    if "llm" in (first.customer, started.customer):
        answer["customer"] = {"fork": first.customer, "original": started.customer}
    return answer
