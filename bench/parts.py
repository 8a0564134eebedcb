"""What a step costs, part by part, with no store and no service: the profile as a benchmark.

The scripted workload is played through the pure pipeline a step runs in
``EnvironmentService``, each part timed on its own (``time.perf_counter`` around each call, summed
over every step of every episode):

* ``reset``: picking the variant, ``start`` and folding ``EpisodeStarted``;
* ``parse``: ``parse_action`` (memoised by the body's fields, as in the service);
* ``decide``: ``decide_step``, the rules (events and the state after them);
* ``grade``: ``grade_step``; ``grade event``: ``StepGrade.to_event``; ``fold``: folding it;
* ``observe``: the observation an agent gets;
* ``chain``: the canonical JSON and SHA-256 link of every event, the reset's included.

The sum is the domain's ceiling: steps/s before any SQL, any commit or any server. Each part is
reported in µs per step (the reset's spread over the steps), median of several rounds with the
spread. The store and the service come on top: compare with the ``inprocess`` figures of the same
invocation.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bench.common import Figure, log, summary
from bench.workload import Plan, plans

PARTS = ("reset", "parse", "decide", "grade", "grade event", "fold", "observe", "chain")


def _chain_cost(events: tuple[Any, ...], prev_hash: str, seq: int) -> tuple[float, str, int]:
    """Seconds to encode and link ``events`` after ``(seq, prev_hash)``; the new head and seq."""
    from store.chain import canonical_json, link

    clock = time.perf_counter
    started = clock()
    for event in events:
        seq += 1
        prev_hash = link(prev_hash, seq, event.type, event.version, canonical_json(event.data))
    return clock() - started, prev_hash, seq


def play(work: list[Plan]) -> tuple[dict[str, float], int]:
    """Play every plan once; returns the seconds spent in each part and the steps taken."""
    from domain.actions import parse_action
    from domain.decide import decide_step, start
    from domain.observation import observe
    from domain.state import EpisodeState, evolve
    from domain.tasks import default_catalog
    from domain.tasks.catalog import instance_digest
    from graders import GRADER_VERSION, grade_step
    from store.chain import GENESIS

    catalog = default_catalog()
    spent = dict.fromkeys(PARTS, 0.0)
    clock = time.perf_counter
    steps = 0
    for plan in work:
        t0 = clock()
        task = catalog.instance(plan.task_id, plan.seed)
        first = start("ep_bench_parts", task, instance_digest(task), grader_version=GRADER_VERSION)
        state = evolve(EpisodeState(), first)
        spent["reset"] += clock() - t0
        seconds, head, seq = _chain_cost((first,), GENESIS, 0)
        spent["chain"] += seconds
        for action in plan.actions:
            t0 = clock()
            parsed = parse_action(action)
            t1 = clock()
            events, after = decide_step(state, parsed, action)
            t2 = clock()
            grade = grade_step(state, events, after)
            t3 = clock()
            graded = grade.to_event()
            t4 = clock()
            after = evolve(after, graded)
            t5 = clock()
            observe(after, catalog, grade.reward)
            t6 = clock()
            spent["parse"] += t1 - t0
            spent["decide"] += t2 - t1
            spent["grade"] += t3 - t2
            spent["grade event"] += t4 - t3
            spent["fold"] += t5 - t4
            spent["observe"] += t6 - t5
            seconds, head, seq = _chain_cost((*events, graded), head, seq)
            spent["chain"] += seconds
            state = after
            steps += 1
        if not state.done:
            raise AssertionError(f"{plan.task_id} seed {plan.seed} did not end")
    return spent, steps


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    del workdir  # nothing is written: no store
    rounds = 2 if quick else 9
    work = plans()
    play(work)  # warm the memos a long-running trainer would have warm
    per_part: dict[str, list[float]] = {part: [] for part in PARTS}
    ceiling: list[float] = []
    for n in range(rounds):
        spent, steps = play(work)
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
