"""The ``refund_request`` family (RR-1): its cases, their edges, and what its solver reads."""

from __future__ import annotations

from baseline.solvers import solver_for
from domain.observation import observe
from domain.tasks import default_catalog
from domain.vocabulary import PolicyId
from evaluation.play import play
from tests.offline import opening

CATALOG = default_catalog()
TASK = "task_family_refund_request"


def _first(case: str, **values: str) -> int:
    return next(seed for seed in range(120) if CATALOG.instance(TASK, seed).case == case
                and all(str(CATALOG.instance(TASK, seed).variables[k]) == v for k, v in values.items()))


def test_the_case_follows_the_refund_count_then_the_30_day_window() -> None:
    for seed in range(120):
        task = CATALOG.instance(TASK, seed)
        refunds, days = int(task.variables["prior_refunds"]), int(task.variables["days_since_purchase"])
        expected = ("fraud_review" if refunds >= 3 else
                    "refund_within_window" if days <= 30 else "deny_after_window")
        assert task.case == expected, seed
        facts = task.ticket.facts
        assert facts["refunds_last_90_days"] == str(refunds) and facts["order_date"] in task.ticket.message


def test_day_30_is_refunded_and_day_31_denied() -> None:
    inside, outside = _first("refund_within_window", days_since_purchase="30"), \
        _first("deny_after_window", days_since_purchase="31")
    for seed, action in ((inside, "issue_refund"), (outside, "deny_refund")):
        played = play(CATALOG, TASK, seed, solver_for(TASK))
        assert played.score == 1.0 and action in [a["action_type"] for a in played.actions]


def test_the_solver_decides_from_the_observation_only() -> None:
    """The observation carries no case; change the refund count the agent sees and the solver's
    decision changes with it."""
    seed = _first("fraud_review", days_since_purchase="6")
    opened = observe(opening(CATALOG, TASK, seed), CATALOG)
    shown = opened.model_dump(mode="json")
    assert "case" not in shown and "variables" not in shown
    solver = solver_for(TASK)
    obs = opened.model_copy(update={
        "policies": {"refund_requests": CATALOG.policies[PolicyId.REFUND_REQUESTS]},
        "current_priority": "medium", "current_queue": "trust_and_safety"})
    flagged = obs.model_copy(update={"tags": ["Fraud_Review"]})
    assert solver.act(flagged).action == {"action_type": "open_fraud_review"}
    facts = {**obs.ticket.facts, "refunds_last_90_days": "0"}
    cleared = obs.model_copy(update={"ticket": obs.ticket.model_copy(update={"facts": facts}),
                                     "tags": ["Refund_Approved"]})
    assert solver.act(cleared).action["action_type"] == "issue_refund"


def test_a_second_request_is_acknowledged_in_the_reply() -> None:
    seed = next(s for s in range(120) if CATALOG.instance(TASK, s).variables["aside"])
    reply = next(a["reply_text"] for a in play(CATALOG, TASK, seed, solver_for(TASK)).actions
                 if a["action_type"] == "draft_reply")
    assert "other question" in reply
