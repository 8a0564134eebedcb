"""What a step costs, part by part, with no store and no service: the profile as a benchmark.

The scripted workload is played through the pure pipeline a step runs in
``EnvironmentService``, each part timed on its own (``time.perf_counter`` around each call, summed
over every step of every episode):

* ``reset``: picking the variant, ``start`` and folding ``EpisodeStarted``;
* ``parse``: ``parse_action``;
* ``decide``: ``decide``, the rules (the step's events), and folding them onto the state;
* ``grade``: ``grade_step``; ``grade event``: ``StepGrade.to_event``; ``fold``: folding it;
* ``observe``: the observation an agent gets;
* ``chain``: the store's ``chain_events`` (canonical JSON and SHA-256 link of every event, the
  reset's included), what every append computes before its SQL.

The sum is the domain's ceiling: steps/s before any SQL, any commit or any server. Each part is
reported in µs per step (the reset's spread over the steps), median of several rounds with the
spread. The store and the service come on top: compare with the ``inprocess`` figures of the same
invocation.
"""

from __future__ import annotations

import datetime
import time
from pathlib import Path
from typing import Any

from bench.common import Figure, log, summary
from bench.workload import Plan, plans

EPISODE_ID = "ep_bench_parts"
_NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)  # the timestamp is not hashed
PARTS = ("reset", "parse", "decide", "grade", "grade event", "fold", "observe", "chain")


def _chain_cost(episode_id: str, events: tuple[Any, ...], prev_hash: str,
                seq: int) -> tuple[float, str, int]:
    """Seconds the store's chaining of ``events`` takes after ``(seq, prev_hash)``; the new head and
    seq."""
    from store.eventstore import chain_events

    started = time.perf_counter()
    recorded = chain_events(episode_id, seq, prev_hash, events, _NOW)
    return time.perf_counter() - started, recorded[-1].hash, recorded[-1].seq


def play(work: list[Plan], upto: str = PARTS[-1]) -> tuple[dict[str, float], int, list[str]]:
    """Play every plan once; returns the seconds spent in each part, the steps taken and each
    episode's chain head (equal to the service's for the same plan and episode id: tested).

    ``upto``: the last of :data:`PARTS` to run; the ones after it are left out (from ``grade`` on,
    each needs the one before; ``decide`` always folds the step's events, so episodes end as they
    would). The instructions section counts each part as the difference between two such plays
    (``bench.instructions.parts_breakdown``); a play cut short returns no chain heads."""
    if upto not in PARTS:
        raise ValueError(f"unknown part {upto!r}; one of {', '.join(PARTS)}")
    runs = frozenset(PARTS[:PARTS.index(upto) + 1])
    from domain.actions import parse_action
    from domain.decide import decide, start
    from domain.observation import observe
    from domain.state import EMPTY, evolve, fold
    from domain.tasks import default_catalog
    from graders.versions import CURRENT, grader_for
    from store.chain import GENESIS

    catalog = default_catalog()
    grade_step = grader_for(CURRENT).grade_step  # the grader new episodes record, as the service
    spent = dict.fromkeys(PARTS, 0.0)
    clock = time.perf_counter
    steps = 0
    heads: list[str] = []
    for plan in work:
        t0 = clock()
        variant = catalog.variant(plan.task_id, plan.seed)
        first = start(EPISODE_ID, variant, grader_version=CURRENT)
        state = evolve(EMPTY, first)
        spent["reset"] += clock() - t0
        if "chain" in runs:
            seconds, head, seq = _chain_cost(EPISODE_ID, (first,), GENESIS, 0)
            spent["chain"] += seconds
        for action in plan.actions:
            steps += 1
            if "parse" not in runs:
                continue
            t0 = clock()
            parsed = parse_action(action)
            t1 = clock()
            spent["parse"] += t1 - t0
            if "decide" not in runs:
                continue
            events = decide(state, parsed)
            after = fold(events, state)
            t2 = clock()
            spent["decide"] += t2 - t1
            if "grade" in runs:
                grade = grade_step(state, events, after)
                t3 = clock()
                spent["grade"] += t3 - t2
            if "grade event" in runs:
                graded = grade.to_event()
                t4 = clock()
                spent["grade event"] += t4 - t3
            if "fold" in runs:
                after = evolve(after, graded)
                t5 = clock()
                spent["fold"] += t5 - t4
            if "observe" in runs:
                observe(after, catalog, grade.reward)
                spent["observe"] += clock() - t5
            if "chain" in runs:
                seconds, head, seq = _chain_cost(EPISODE_ID, (*events, graded), head, seq)
                spent["chain"] += seconds
            state = after
        if "decide" in runs and not state.done:
            raise AssertionError(f"{plan.task_id} seed {plan.seed} did not end")
        if "chain" in runs:
            heads.append(head)
    return spent, steps, heads


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    del workdir  # nothing is written: no store
    rounds = 2 if quick else 9
    work = plans()
    play(work)  # warm the memos a long-running trainer would have warm
    per_part: dict[str, list[float]] = {part: [] for part in PARTS}
    ceiling: list[float] = []
    for n in range(rounds):
        spent, steps, _heads = play(work)
        for part in PARTS:
            per_part[part].append(spent[part] / steps * 1e6)
        ceiling.append(steps / sum(spent.values()))
        log(f"parts round {n + 1}: {sum(spent.values()) / steps * 1e6:.0f} µs a step, "
            f"{ceiling[-1]:,.0f} steps/s before any store")
    figures = [Figure(f"parts.{part.replace(' ', '_')}", f"a step's part: {part}", "µs/step",
                      per_part[part], higher=False) for part in PARTS]
    largest = "; ".join(f"{part} {summary(figure, unit=False)}"
                        for part, figure in zip(PARTS, figures, strict=True)
                        if part in ("chain", "observe", "decide"))
    return [*figures, Figure("parts.ceiling", "a step with no store and no service: the domain's "
                             "ceiling (the parts above)", "steps/s", ceiling, detail=largest)]
