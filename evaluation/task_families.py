"""Verifying the task families offline (``ticketledger tasks verify``), on logs kept in memory.

Every instance (or a deterministic sample) is played twice through the environment service on an
in-memory log (:func:`evaluation.play.play`): by its gold (:func:`service.gold.gold`, the answer
key's actions and the family's ``gold.json`` texts), as a verifier runs a task's gold answer through
its own check, and by its family's solver (``baseline/solvers/<family>.py``, an agent that reads only
the observation). Each play must:

* score at least :data:`SOLVER_BOUND` and finish (resolve or close) within its step budget;
* reach its case: the components that judge the decision (outcome, resolution, tags, queue,
  priority, whichever the family weighs) earn their full weight. For the gold this proves the
  task can be solved as its key says; for the solver, that the case is recoverable from what an
  agent sees (the solver sees nothing else);
* match the committed manifest (its task digest): the manifest is not stale.

Then the grader audit's adversary families (:mod:`evaluation.grader_audit`) are played in memory on a
sample of the instances (:data:`AUDIT_PER_CASE` per case of each family), with the gold as the
correct work they build on (as in ``ticketledger grader-audit``), and every bounded family must
keep its bound.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from baseline.agent import Agent, RuleAgent
from baseline.solvers import solver_for
from domain.observation import Observation
from domain.tasks.catalog import Catalog
from domain.tasks.gold import default_gold, gold_problems
from domain.tasks.manifest import InstanceRef
from evaluation.grader_audit.families import AUDIT_FAMILIES, Family
from evaluation.grader_audit.report import AuditReport, Cell
from evaluation.grader_audit.runner import run_audit
from evaluation.play import play
from graders.versions import CURRENT
from service.gold import gold

SOLVER_BOUND = 0.95
DECISION_COMPONENTS = ("outcome", "resolution", "tags", "queue", "priority")
"""The components that judge what was decided (the case); the gold and the solver must earn each
in full."""
PLAYERS = ("gold", "solver")
AUDIT_PER_CASE = 1
"""Instances per case of each family the adversaries play on (each instance costs ~35 episodes)."""

@dataclass(frozen=True, slots=True)
class InstanceCheck:
    ref: InstanceRef
    score: float
    steps: int
    reached_case: bool
    digest_ok: bool
    problem: str | None
    actions: tuple[dict[str, Any], ...]
    player: str = "solver"
    """Who played: ``gold`` (the answer key's actions) or ``solver`` (the family's agent)."""

    @property
    def ok(self) -> bool:
        return self.problem is None


@dataclass
class VerifyReport:
    instances: list[InstanceCheck] = field(default_factory=list)
    audit: AuditReport | None = None
    audited_instances: int = 0
    seconds: float = 0.0
    gold_problems: list[str] = field(default_factory=list)
    """What the verified families' gold files lack (a weighed reply or note of a case) or name
    wrongly (a case the spec does not have): :func:`domain.tasks.gold.gold_problems`."""

    @property
    def failures(self) -> list[InstanceCheck]:
        return [c for c in self.instances if not c.ok]

    @property
    def audit_failures(self) -> list[str]:
        if self.audit is None:
            return []
        return [f"{c.family} on {c.task_id}: {c.status}" + (f" ({c.worst.task_id} seed "
                f"{c.worst.seed}, measure {float(c.worst.measure or 0):.4f})" if c.worst else "")
                for c in self.audit.cells if c.status in ("fail", "error")]

    @property
    def ok(self) -> bool:
        return not self.failures and not self.audit_failures and not self.gold_problems

    def by_family(self) -> dict[str, dict[str, Any]]:
        """Per family: the instances, and per player how many passed and its min and mean score."""
        out: dict[str, dict[str, Any]] = {}
        for c in self.instances:
            row = out.setdefault(c.ref.family, {"instances": 0})
            if c.player == "solver":
                row["instances"] += 1
            _add(row, c, f"{c.player}_")
        for row in out.values():
            _means(row)
        return out

    def gold_by_split(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Per family and split: the gold's instances, passes and min and mean score."""
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for c in self.instances:
            if c.player == "gold":
                row = out.setdefault(c.ref.family, {}).setdefault(c.ref.split, {"instances": 0})
                row["instances"] += 1
                _add(row, c, "")
        for rows in out.values():
            for row in rows.values():
                _means(row)
        return out


def _add(row: dict[str, Any], c: InstanceCheck, prefix: str) -> None:
    row[prefix + "passed"] = row.get(prefix + "passed", 0) + int(c.ok)
    row[prefix + "min_score"] = min(row.get(prefix + "min_score", 1.0), round(c.score, 4))
    row[prefix + "_sum"] = row.get(prefix + "_sum", 0.0) + c.score
    row[prefix + "_n"] = row.get(prefix + "_n", 0) + 1


def _means(row: dict[str, Any]) -> None:
    for key in [k for k in row if k.endswith("_sum")]:
        prefix = key.removesuffix("_sum")
        row[prefix + "mean_score"] = round(row.pop(key) / row.pop(prefix + "_n"), 4)


def sample(refs: Sequence[InstanceRef], per_family: int | None) -> list[InstanceRef]:
    """A deterministic sample: per family, the instances first by a hash of their id, taken round
    robin over the cases so every case is in it; ``None``: every instance."""
    if per_family is None:
        return list(refs)
    chosen: list[InstanceRef] = []
    families: dict[str, dict[str, list[InstanceRef]]] = {}
    for ref in refs:
        families.setdefault(ref.family, {}).setdefault(ref.case, []).append(ref)
    for cases in families.values():
        queues = [sorted(v, key=lambda r: hashlib.sha256(f"sample:{r.id}".encode()).hexdigest())
                  for _, v in sorted(cases.items())]
        picked: list[InstanceRef] = []
        k = 0
        while len(picked) < per_family and any(k < len(q) for q in queues):
            picked += [q[k] for q in queues if k < len(q)][:per_family - len(picked)]
            k += 1
        chosen += sorted(picked, key=lambda r: r.seed)
    return chosen


def gold_agent(catalog: Catalog, ref: InstanceRef) -> Agent:
    """The gold of ``ref`` as an agent: its actions in order, whatever it observes (the gold reads
    the answer key, not the observation); past its last action it repeats that ending."""
    actions = gold(catalog.instance(ref.task_id, ref.seed))
    step = iter(actions)

    def act(_: Observation) -> dict[str, Any]:
        return next(step, actions[-1])
    return RuleAgent("gold", act)


def check_instance(catalog: Catalog, ref: InstanceRef, agent: Agent,
                   player: str = "solver") -> InstanceCheck:
    """``ref`` played by ``agent`` (``player``: what it is, ``gold`` or ``solver``), judged."""
    digest_ok = catalog.variant(ref.task_id, ref.seed).digest == ref.digest
    p = play(catalog, ref.task_id, ref.seed, agent)
    missed = [n for n in DECISION_COMPONENTS if n in p.components
              and p.components[n][0] != p.components[n][1]]
    problem = None
    if p.error is not None:
        problem = f"the {player}'s action was refused: {p.error}"
    elif not digest_ok:
        problem = "the task differs from the manifest's digest; rebuild the manifest"
    elif p.truncated:
        problem = f"the {player} did not finish within the step budget ({p.steps} steps)"
    elif missed:
        problem = f"the {player} did not reach the case {ref.case!r}: {', '.join(missed)} not earned"
    elif p.score < SOLVER_BOUND:
        problem = f"the {player} scored {p.score:.4f} < {SOLVER_BOUND}"
    return InstanceCheck(ref, p.score, p.steps, not missed, digest_ok, problem, p.actions, player)


def _verify_family(catalog: Catalog, refs: Sequence[InstanceRef], per_family: int | None,
                   audit: bool, families: Sequence[Family], agent: Agent,
                   audit_size: int) -> tuple[list[InstanceCheck], tuple[Cell, ...], int, int]:
    """One family's share of :func:`verify`: its instance checks (the gold's, then the solver's),
    and its audit's cells, episodes and audited instances."""
    chosen = sample(refs, per_family)
    checks = [check_instance(catalog, ref, gold_agent(catalog, ref), "gold") for ref in chosen]
    checks += [check_instance(catalog, ref, agent) for ref in chosen]
    if not audit or not checks:
        return checks, (), 0, 0
    played = {r.id for r in chosen}
    audited = [r for r in sample(refs, audit_size) if r.id in played]
    found = run_audit(seeds=[r.seed for r in audited], task_ids=[refs[0].task_id],
                      families=families, catalog=catalog)
    return checks, found.cells, found.episodes_played, len(audited)


_FORKED: dict[str, Any] = {}
"""What a forked worker of :func:`verify` reads (set before the workers fork, so nothing of it,
solvers and adversary families included, has to be pickled)."""


def _forked_family(name: str) -> tuple[list[InstanceCheck], tuple[Cell, ...], int, int]:
    w = _FORKED
    return _verify_family(w["catalog"], w["refs"][name], w["per_family"], w["audit"],
                          w["families"], w["agent_of"](name), w["audit_size"])


def verify(catalog: Catalog, *, per_family: int | None = None, family: str | None = None,
           audit: bool = True, families: Sequence[Family] = AUDIT_FAMILIES,
           solvers: Callable[[str], Agent] | None = None, workers: int = 1,
           audit_sample: int | None = None) -> VerifyReport:
    """Verify the manifest's instances (``per_family``: a sample of that many per family;
    ``family``: one family only) and, with ``audit``, play the adversaries on a sample.
    ``workers``: families verified side by side in that many forked processes (the grading is
    CPU-bound; the result is the same in any number). ``audit_sample``: instances per family the
    adversaries play on (default :data:`AUDIT_PER_CASE` per case)."""
    began = time.perf_counter()
    manifest = catalog._manifest()
    chosen = manifest.family_instances(family) if family else manifest.instances
    by_family: dict[str, list[InstanceRef]] = {}
    for ref in chosen:
        by_family.setdefault(ref.family, []).append(ref)
    agent_of = solvers or solver_for
    audit_size = audit_sample or AUDIT_PER_CASE * max(len(f.cases) for f in manifest.families.values())
    names = list(by_family)
    if workers > 1 and len(names) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        _FORKED.update(catalog=catalog, refs=by_family, per_family=per_family, audit=audit,
                       families=families, agent_of=agent_of, audit_size=audit_size)
        try:
            with ProcessPoolExecutor(min(workers, len(names)),
                                     mp_context=multiprocessing.get_context("fork")) as pool:
                parts = list(pool.map(_forked_family, names))
        finally:
            _FORKED.clear()
    else:
        parts = [_verify_family(catalog, by_family[n], per_family, audit, families, agent_of(n),
                                audit_size) for n in names]
    report = VerifyReport()
    for name in names:
        report.gold_problems += gold_problems(catalog.spec(manifest.families[name].task_id),
                                              default_gold())
    for checks, _, _, _ in parts:
        report.instances += checks
    if audit:
        report.audit = AuditReport(CURRENT, (), tuple(manifest.families[n].task_id for n in names),
                                   tuple(families), tuple(c for p in parts for c in p[1]),
                                   sum(p[2] for p in parts), time.perf_counter() - began)
        report.audited_instances = sum(p[3] for p in parts)
    report.seconds = time.perf_counter() - began
    return report
