"""``ticketledger tasks verify``'s checks, in memory: the gold and the family solvers, the case, the
adversaries (built on the gold); and reset by split and index through the service."""

from __future__ import annotations

from typing import Any

import pytest

from baseline.agent import RuleAgent
from baseline.solvers import NoSolver, solver_for
from domain.observation import Observation
from domain.tasks import default_catalog
from evaluation.grader_audit.families import family
from evaluation.grader_audit.runner import run_audit
from evaluation.task_families import SOLVER_BOUND, check_instance, gold_agent, sample, verify
from service import EnvironmentService
from service.errors import BadRequest
from service.gold import gold
from tests.offline import Offline

CATALOG = default_catalog()


MUST_PASS = ("gold", "forbidden_action", "contradiction", "secret_request", "abuse", "keyword_list",
             "tag_spam", "noop_until_end", "close_at_once", "repeated_actions")
"""The adversaries the sample's audit plays, each of which must pass: the gold the others build on,
and adversaries of every kind (safety, gaming, degenerate, repeat). That :func:`verify` plays and
judges them is what this test shows; every adversary on a seed of every case of every family is
``tests/domain/families/test_family_audit.py``'s, and on every instance the slow tier's (below)."""


@pytest.mark.slow
def test_a_deterministic_sample_passes_the_gold_the_solver_and_the_grader_audit() -> None:
    report = verify(CATALOG, per_family=3, audit_sample=1, families=[family(n) for n in MUST_PASS])
    assert report.ok, (report.failures, report.audit_failures)
    manifest = CATALOG.manifest
    assert manifest is not None
    assert {c.ref.family for c in report.instances} == set(manifest.families)
    assert {c.player for c in report.instances} == {"gold", "solver"} and report.gold_problems == []
    for name, row in report.by_family().items():
        assert row["instances"] == 3 and row["gold_passed"] == row["solver_passed"] == 3, name
        assert min(row["gold_min_score"], row["solver_min_score"]) >= SOLVER_BOUND, name
        cases = {c.ref.case for c in report.instances if c.ref.family == name}
        assert cases == set(manifest.families[name].cases)  # the sample covers every case
    by_split = report.gold_by_split()
    assert set(by_split) == set(manifest.families)
    assert sum(r["instances"] for rows in by_split.values() for r in rows.values()) == 3 * len(by_split)
    assert report.audit is not None and report.audited_instances == len(manifest.families)
    assert report.audit.episodes_played >= len(MUST_PASS) * report.audited_instances
    statuses = {c.family: c.status for c in report.audit.cells}
    for name in MUST_PASS:
        assert statuses[name] == "pass", name
    assert sample(manifest.instances, 3) == sample(manifest.instances, 3)


def _wrong_decision(observation: Observation) -> dict[str, Any]:
    """The refund solver with the fraud rule forgotten: refunds a customer under review."""
    facts = {**observation.ticket.facts, "refunds_last_90_days": "0"}
    forgetful = observation.model_copy(
        update={"ticket": observation.ticket.model_copy(update={"facts": facts})})
    return solver_for("refund_request").act(forgetful).action


def test_a_solver_that_misreads_the_case_fails_and_says_the_case_was_not_reached() -> None:
    fraud = next(r for r in CATALOG.family_instances("refund_request") if r.case == "fraud_review")
    check = check_instance(CATALOG, fraud, RuleAgent("forgetful", _wrong_decision))
    assert not check.ok and not check.reached_case
    assert check.problem is not None and "did not reach the case 'fraud_review'" in check.problem
    assert "outcome" in check.problem
    right = check_instance(CATALOG, fraud, solver_for("refund_request"))
    assert right.ok and right.reached_case and right.score >= SOLVER_BOUND


def test_a_gold_without_its_reply_fails_and_says_so() -> None:
    """The gold check can fail: the same answer key's actions without the gold file's texts end
    the episode without the weighed reply, so the instance does not verify."""
    ref = CATALOG.family_instances("complaint")[0]
    assert check_instance(CATALOG, ref, gold_agent(CATALOG, ref), "gold").ok
    bare = gold(CATALOG.instance(ref.task_id, ref.seed), {})
    steps = iter(bare)
    check = check_instance(CATALOG, ref, RuleAgent("bare", lambda _: next(steps, bare[-1])), "gold")
    assert not check.ok and check.problem is not None and check.problem.startswith("the gold ")


def test_in_memory_play_records_what_the_service_records_on_sqlite(sqlite_url: str) -> None:
    """The same episode on an SQLite log and on an in-memory one: the same grade at every step and
    the same hash chain (same id, so the same opening event), head by head."""
    from store import open_database

    ref = CATALOG.split_instance("dev", 3)
    solver = solver_for(ref.family)
    db = open_database(sqlite_url)
    service = EnvironmentService(db)
    try:
        stored = service.reset(split="dev", index=3, episode_id="ep_dev_3")
        memory = EnvironmentService.in_memory(CATALOG)
        kept = memory.reset(ref.task_id, ref.seed, episode_id="ep_dev_3")
        played = stored.state.variant
        assert played is not None and (played.task.task_id, played.task.seed) == (ref.task_id, ref.seed)
        assert played.digest == ref.digest
        assert (kept.seq, kept.head_hash) == (stored.seq, stored.head_hash)
        while not stored.done:
            action = solver.act(stored.observation).action
            stored = service.step(stored.episode_id, action)
            kept = memory.step(kept.episode_id, action)
            assert stored.grade is not None and kept.grade is not None
            assert kept.grade.score == stored.grade.score
            assert (kept.seq, kept.head_hash) == (stored.seq, stored.head_hash)
            assert kept.observation == stored.observation
        assert kept.done and kept.score == stored.score >= SOLVER_BOUND
        assert [r.data_text for r in memory.load_events(kept.episode_id)] == \
            [r.data_text for r in service.load_events(stored.episode_id)]
    finally:
        db.dispose()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"split": "holdout", "index": 0}, "train, dev, test"),
    ({"split": "test", "index": 10**6}, "index must be an integer from 0 to"),
    ({"split": "test", "index": -1}, "index must be an integer from 0 to"),
    ({"split": "test"}, "split and index go together"),
    ({"index": 2}, "split and index go together"),
    ({"split": "test", "index": 0, "task_id": "task_easy_password"}, "not both"),
])
def test_a_reset_by_split_that_cannot_be_played_says_what_is_valid(
        sqlite_url: str, kwargs: dict[str, Any], message: str) -> None:
    from store import open_database

    db = open_database(sqlite_url)
    try:
        with pytest.raises(BadRequest, match=message):
            EnvironmentService(db).reset(**kwargs)
    finally:
        db.dispose()


def test_a_family_without_a_solver_is_named() -> None:
    with pytest.raises(NoSolver, match="no_such_family"):
        solver_for("task_family_no_such_family")


def test_the_audit_in_memory_judges_as_the_audit_on_the_store(sqlite_url: str) -> None:
    ref = CATALOG.family_instances("account_access")[5]
    solver = solver_for(ref.family)
    episode = Offline(CATALOG, ref.task_id, ref.seed)
    plan = []
    while not episode.state.done:
        action = solver.act(episode.result.observation).action
        plan.append(action)
        episode.step(action)
    actions = {(ref.task_id, ref.seed): plan}

    def solved(task: Any) -> list[dict[str, Any]]:
        return actions[(task.task_id, task.seed)]

    names = ("gold", "forbidden_action", "keyword_list", "close_at_once", "repeated_actions")
    fams = [family(n) for n in names]
    kwargs: dict[str, Any] = {"seeds": [ref.seed], "task_ids": [ref.task_id], "families": fams,
                              "catalog": CATALOG, "solution": solved}
    memory, stored = run_audit(**kwargs), run_audit(database_url=sqlite_url, **kwargs)
    assert [(c.family, c.status, c.value, [e.to_json() for e in c.episodes]) for c in memory.cells] == \
        [(c.family, c.status, c.value, [e.to_json() for e in c.episodes]) for c in stored.cells]
    assert all(c.status == "pass" for c in memory.cells)


@pytest.mark.slow
def test_every_instance_of_every_family_verifies() -> None:
    report = verify(CATALOG, per_family=None, workers=2)
    manifest = CATALOG.manifest
    assert manifest is not None and len(report.instances) == 2 * len(manifest.instances)
    assert report.ok, ([c.problem for c in report.failures][:10], report.audit_failures[:10])


def test_a_solver_that_never_finishes_fails_on_the_step_budget() -> None:
    ref = CATALOG.family_instances("account_access")[0]
    check = check_instance(CATALOG, ref, RuleAgent("stalling", lambda _: {"action_type": "noop"}))
    assert not check.ok and check.problem is not None and "step budget" in check.problem
