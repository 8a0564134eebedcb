"""Playing the audit: every family on every task variant, in-process, on a log kept in memory.

The episodes run through :class:`service.EnvironmentService`, the service every client uses, so the
audit grades exactly what an agent would get (actions parsed and refused as over HTTP, penalties,
the step limit). Its log is kept in memory (:meth:`~service.EnvironmentService.in_memory`), or on
a database when asked (the same steps on another backend). The episodes are played side by side,
one step of each live episode per batch (:meth:`~service.EnvironmentService.step_many`), which
keeps a few thousand episodes to seconds.

The grader that judges is a choice (``grader_version``, default the current one): the episodes are
played under the current grader, as any client plays them, and when another version is asked for,
each one's log is graded again by that version (``graders.versions``), which is exactly what that
grader would have said at every step: deciding and folding do not depend on the grader. So the same
command gives the table before and after a grader change.

Two rounds: the reference episodes first (the gold solution and the built-in policy), because
the repeat family repeats the policy's own actions and compares against its score; then every
other family.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial

from baseline.agent import Agent
from domain.tasks.catalog import Catalog, default_catalog
from domain.tasks.spec import TaskInstance
from evaluation.grader_audit.families import (
    AUDIT_FAMILIES,
    Action,
    Attempt,
    Family,
    NotApplicable,
    Setting,
    text_of,
)
from evaluation.grader_audit.report import AuditReport, Cell, JudgedEpisode, Status, worst_of
from graders import UNITS
from graders.versions import CURRENT, StepGradeView, grader_for
from service.environment import EnvironmentService, StepResult, to_domain
from service.gold import gold
from store import open_database

DEFAULT_SEEDS: tuple[int | None, ...] = (None, 0, 1, 2, 7)
"""The published variant and seeds 0, 1, 2 and 7: together they draw every case of every task
whose case depends on the seed (both refund windows, verified or not, fraud pattern or not, legal
hold or not)."""

BATCH = 400
"""Episodes played side by side (one write of the log per step of the batch)."""

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class _Job:
    family: Family
    setting: Setting
    attempt: Attempt


@dataclass(frozen=True, slots=True)
class _Played:
    actions: tuple[Action, ...]
    last: StepResult | None
    error: str | None
    blocked: str | None = None
    """Why the environment refused the attacking action, when it did (nothing harmful happened)."""
    grade: StepGradeView | None = None
    """The last step's grade by the judging grader."""


def _play(service_for: Callable[[], EnvironmentService], jobs: Sequence[_Job],
          progress: Callable[[int], None], grader_version: str) -> list[_Played]:
    """Play ``jobs`` side by side, a batch at a time, each batch on ``service_for()`` (a fresh
    in-memory log per batch keeps no more than a batch's episodes); each stops when its episode
    ends, its actions run out, or the service refuses an action (recorded as the episode's
    error)."""
    out: list[_Played] = []
    for start in range(0, len(jobs), BATCH):
        chunk = jobs[start:start + BATCH]
        service = service_for()
        opened = service.reset_many([(j.setting.task.task_id, j.setting.task.seed) for j in chunk])
        sent: list[list[Action]] = [[] for _ in chunk]
        last: list[StepResult | None] = [None] * len(chunk)
        error: list[str | None] = [None] * len(chunk)
        blocked: list[str | None] = [None] * len(chunk)
        current: dict[int, StepResult] = {}
        for k, result in enumerate(opened):
            if isinstance(result, Exception):
                error[k] = f"reset refused: {result}"
            else:
                current[k] = result
        live = list(current)
        step = 0
        while live:
            batch: list[tuple[int, Action]] = []
            for k in live:
                action = _next(chunk[k].attempt, step, current[k])
                if action is not None:
                    batch.append((k, action))
            results = service.step_many([(current[k].episode_id, a) for k, a in batch]) if batch else []
            live = []
            for (k, action), result in zip(batch, results, strict=True):
                if isinstance(result, Exception):
                    error[k] = f"{type(result).__name__}: {result}"
                    continue
                sent[k].append(action)
                current[k] = last[k] = result
                if step == chunk[k].attempt.attack_step:
                    record = result.state.last_step
                    blocked[k] = record.error if record is not None else None
                if not result.done:
                    live.append(k)
            step += 1
        out += [_Played(tuple(s), r, e, b, _grade(service, r, grader_version))
                for s, r, e, b in zip(sent, last, error, blocked, strict=True)]
        progress(len(chunk))
    return out


def _grade(service: EnvironmentService, last: StepResult | None, version: str) -> StepGradeView | None:
    """The last step's grade by ``version``: as played when that is the grader the episode ran
    under, else the episode's log graded again by it."""
    if last is None or last.grade is None:
        return None
    if last.grade.grader_version == version:
        return last.grade
    grade = grader_for(version).grade_episode(to_domain(r) for r in service.load_events(last.episode_id))
    return grade.steps[-1] if grade.steps else None


def _next(attempt: Attempt, step: int, current: StepResult) -> Action | None:
    if attempt.agent is not None:
        if current.observation.max_steps <= step:
            return None
        return attempt.agent.act(current.observation).action
    return attempt.actions[step] if step < len(attempt.actions) else None


def _score_units(played: _Played) -> int:
    return played.grade.score_units if played.grade else 0


def _measure(job: _Job, played: _Played, bases: dict[tuple[str, int | None, str], int]) -> Fraction | None:
    grade = played.grade
    if grade is None:
        return None
    score = Fraction(grade.score_units, UNITS)
    bound = job.family.bound
    if bound is None or bound.measure == "score":
        return score
    if bound.measure == "share":
        shares = [Fraction(c.earned, c.weight) for c in grade.components
                  if c.name in job.attempt.attacked and c.weight]
        return max(shares) if shares else None
    task = job.setting.task
    base = bases.get((task.task_id, task.seed, job.attempt.base or ""))
    return None if base is None else Fraction(grade.score_units - base, UNITS)


def _judge(job: _Job, played: _Played, bases: dict[tuple[str, int | None, str], int]) -> JudgedEpisode:
    task = job.setting.task
    measure = _measure(job, played, bases)
    bound = job.family.bound
    error = played.error
    if measure is None and error is None:
        error = "nothing to measure (no step was graded)"
    ok = error is None and (played.blocked is not None or bound is None
                            or (measure is not None and bound.holds(measure)))
    detail = played.grade.audit_reason() if played.grade else ""
    return JudgedEpisode(task.task_id, task.seed, task.case, job.attempt.label,
                         Fraction(_score_units(played), UNITS), measure, ok, len(played.actions),
                         detail, error, played.blocked)


def _other_replies(catalog: Catalog, task_ids: Sequence[str]) -> dict[str, str | None]:
    """For each task, the next task's (in catalog order) gold reply on its published variant,
    with that customer's first name: what an agent copying another ticket's reply sends."""
    with_reply = []
    for task_id in catalog.task_ids:
        task = catalog.instance(task_id)
        reply = text_of(gold(task), "reply")
        if reply is not None:
            with_reply.append((task_id, task.first_name, reply))
    out: dict[str, str | None] = {}
    for task_id in task_ids:
        order = [t for t in with_reply if t[0] != task_id]
        position = (catalog.task_ids.index(task_id) if task_id in catalog.task_ids
                    else -1)  # a family's: the first classic task's reply
        after = [t for t in order if catalog.task_ids.index(t[0]) > position]
        other = (after or order)[:1]
        out[task_id] = other[0][2] if other else None
    return out


def _rename(reply: str | None, other_first: str, first: str) -> str | None:
    return reply.replace(other_first, first) if reply else None


Solution = Callable[[TaskInstance], Sequence[Action]]
Player = Callable[[Sequence[_Job], Callable[[int], None], str], list[_Played]]


def run_audit(*, seeds: Sequence[int | None] = DEFAULT_SEEDS, task_ids: Sequence[str] | None = None,
              families: Sequence[Family] = AUDIT_FAMILIES, policy: Agent | None = None,
              catalog: Catalog | None = None, progress: Progress | None = None,
              database_url: str | None = None, grader_version: str = CURRENT,
              solution: Solution | None = None) -> AuditReport:
    """Play every family on every task variant of ``task_ids`` x ``seeds`` and judge the cells.

    ``policy``: the built-in policy (an agent); without it the ``policy`` family is
    not applicable and the repeat family repeats only the gold work. ``database_url``: the
    log the episodes are played on; None (the default) keeps them in memory
    (:meth:`service.EnvironmentService.in_memory`, a log per batch), written nowhere; any backend
    plays the same steps, so the report is the same. ``grader_version``: the grader that judges
    (an unknown one raises ``UnknownGrader``). ``solution``: the correct solution of a variant
    the adversaries build on (default the gold, :func:`service.gold.gold`, for every task).
    """
    grader_for(grader_version)
    catalog = catalog or default_catalog()
    tasks = tuple(task_ids or catalog.task_ids)
    for task_id in tasks:
        catalog.spec(task_id)  # an unknown task fails here, with the known ones listed
    began = time.perf_counter()
    solve: Solution = solution or gold
    if database_url is None:
        return _run(partial(_play, partial(EnvironmentService.in_memory, catalog)), catalog, tasks,
                    tuple(seeds), families, policy, progress, began, grader_version, solve)
    db = open_database(database_url)
    try:
        service = EnvironmentService(db, catalog)
        return _run(partial(_play, lambda: service), catalog, tasks, tuple(seeds), families,
                    policy, progress, began, grader_version, solve)
    finally:
        db.dispose()


def _run(play: Player, catalog: Catalog, tasks: tuple[str, ...],
         seeds: tuple[int | None, ...], families: Sequence[Family], policy: Agent | None,
         progress: Progress | None, began: float, grader_version: str,
         solve: Solution = gold) -> AuditReport:
    others = _other_replies(catalog, tasks)
    settings: list[Setting] = []
    for task_id in tasks:
        spec = catalog.spec(task_id)
        other = others[task_id]
        other_first = next((catalog.instance(t).first_name for t in catalog.task_ids
                            if other and text_of(gold(catalog.instance(t)), "reply") == other), "")
        for seed in seeds:
            task = catalog.instance(task_id, seed)
            settings.append(Setting(task, spec, tuple(solve(task)),
                                    other_reply=_rename(other, other_first, task.first_name),
                                    agent=policy))
    reference = [f for f in families if f.kind == "reference"]
    rest = [f for f in families if f.kind != "reference"]
    ref_jobs, ref_skipped = _jobs(reference, settings)
    # the second round's size is known only once the policy has played; count it from the settings
    total = len(ref_jobs) + len(_jobs(rest, settings)[0])
    done = 0

    def tick(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress(min(done, total), total)

    ref_played = play(ref_jobs, tick, grader_version)
    bases = {(j.setting.task.task_id, j.setting.task.seed, j.attempt.label): _score_units(p)
             for j, p in zip(ref_jobs, ref_played, strict=True) if p.error is None}
    policy_actions = {(j.setting.task.task_id, j.setting.task.seed): p.actions
                      for j, p in zip(ref_jobs, ref_played, strict=True) if j.attempt.agent is not None}
    settings = [replace(s, policy=policy_actions.get((s.task.task_id, s.task.seed), ())) for s in settings]
    rest_jobs, rest_skipped = _jobs(rest, settings)
    total = len(ref_jobs) + len(rest_jobs)
    rest_played = play(rest_jobs, tick, grader_version)
    judged = [(j, _judge(j, p, bases)) for j, p in zip(ref_jobs + rest_jobs, ref_played + rest_played,
                                                         strict=True)]
    cells = []
    skipped = ref_skipped + rest_skipped
    for f in families:
        for task_id in tasks:
            episodes = [e for j, e in judged if j.family.name == f.name and e.task_id == task_id]
            reasons = tuple(dict.fromkeys(r for name, t, r in skipped if name == f.name and t == task_id))
            cells.append(_cell(f, task_id, episodes, reasons))
    return AuditReport(grader_version, seeds, tasks, tuple(families), tuple(cells),
                       len(judged), time.perf_counter() - began)


def _jobs(families: Sequence[Family], settings: Sequence[Setting]
          ) -> tuple[list[_Job], list[tuple[str, str, str]]]:
    jobs: list[_Job] = []
    skipped: list[tuple[str, str, str]] = []
    for f in families:
        for s in settings:
            built = f.build(s)
            if isinstance(built, NotApplicable):
                skipped.append((f.name, s.task.task_id, built.reason))
            else:
                jobs += [_Job(f, s, a) for a in built]
    return jobs, skipped


def _cell(f: Family, task_id: str, episodes: list[JudgedEpisode], reasons: tuple[str, ...]) -> Cell:
    if not episodes:
        return Cell(f.name, task_id, "n/a", None, None, (), reasons)
    judged = [e for e in episodes if e.blocked is None]
    if not judged:
        return Cell(f.name, task_id, "blocked", None, None, tuple(episodes), reasons)
    worst = worst_of(f.bound, judged)
    status: Status
    if any(e.error for e in episodes):
        status = "error"
    elif f.bound is None:
        status = "info"
    else:
        status = "pass" if all(e.ok for e in judged) else "fail"
    return Cell(f.name, task_id, status, worst.measure if worst else None, worst, tuple(episodes),
                reasons)
