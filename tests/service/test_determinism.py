"""Reset is a pure function of (task id, seed): same inputs, same variant, in any process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from domain.tasks import default_catalog
from service import EnvironmentService
from service.errors import BadRequest
from store import open_database

CATALOG = default_catalog()
ROOT = Path(__file__).resolve().parents[2]



@pytest.fixture
def other_service(tmp_path):  # type: ignore[no-untyped-def]
    """A second environment on its own, fresh SQLite file (the suite's backend is the first)."""
    db = open_database(f"sqlite:///{tmp_path / 'other.db'}")
    yield EnvironmentService(db)
    db.dispose()


def _public(observation) -> dict:  # type: ignore[no-untyped-def]
    return observation.model_dump(exclude={"episode_id"})


def test_reset_without_task_id_picks_the_task_from_the_seed(service, other_service) -> None:  # type: ignore[no-untyped-def]
    picked = set()
    for seed in range(24):
        a = service.reset(seed=seed)
        b = other_service.reset(seed=seed)
        assert a.observation.task_id == b.observation.task_id == CATALOG.pick_task_id(seed)
        assert _public(a.observation) == _public(b.observation)
        picked.add(a.observation.task_id)
    assert len(picked) >= 6, "seeds should spread over the catalog"


def test_reset_without_seed_or_task_is_the_same_every_time(service) -> None:  # type: ignore[no-untyped-def]
    """No global counter: the SupportOps seed's default reset moved on with every call."""
    first = service.reset()
    for _ in range(3):
        again = service.reset()
        assert _public(again.observation) == _public(first.observation)
    assert service.state(first.episode_id).task == service.state(again.episode_id).task


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_same_seed_same_variant_different_seed_other_variant(task_id: str) -> None:
    for seed in (0, 7, 123456789):
        assert CATALOG.instance(task_id, seed) == CATALOG.instance(task_id, seed)
    names = {CATALOG.instance(task_id, seed).ticket.customer_name for seed in range(40)}
    assert len(names) >= 8, f"{task_id}: names barely vary ({names})"


def _variants(task_id: str, seeds: range = range(60)) -> list:  # type: ignore[type-arg]
    return [CATALOG.instance(task_id, s) for s in seeds]


def test_seeds_vary_amounts_dates_and_eligibility_of_the_refund_denial() -> None:
    variants = _variants("task_hard_refund_policy_denial")
    assert len({v.variables["amount"] for v in variants}) > 20
    assert len({v.ticket.facts["order_date"] for v in variants}) > 20
    assert len({v.variables["ticket_date"] for v in variants}) > 1
    assert {v.case for v in variants} == {"outside_window", "inside_window"}
    for v in variants:
        inside = int(v.variables["days_since_purchase"]) <= 30
        assert v.case == ("inside_window" if inside else "outside_window")
        assert f"${v.variables['amount']}" in v.ticket.message
        assert v.ticket.facts["order_date"] in v.ticket.message


@pytest.mark.parametrize(("task_id", "cases"), [
    ("task_hard_account_email_change", {"verified", "not_verified"}),
    ("task_hard_refund_fraud_trap", {"fraud_review", "normal_refund"}),
    ("task_hard_gdpr_deletion", {"legal_hold", "scheduled"}),
])
def test_seeds_reach_every_case_of_the_policy_tasks(task_id: str, cases: set[str]) -> None:
    variants = _variants(task_id)
    assert {v.case for v in variants} == cases
    assert len({json.dumps(v.ticket.model_dump(), sort_keys=True) for v in variants}) > 20


def test_seed_none_is_the_published_variant() -> None:
    for task_id in CATALOG.task_ids:
        spec = CATALOG.spec(task_id)
        published = CATALOG.instance(task_id)
        assert published.seed is None
        for name, var in spec.variables.items():
            if var.choices is not None and isinstance(var.choices[0], dict):
                bundle = var.choices[int(var.published)]
                for key in bundle:
                    assert key in published.variables
            else:
                assert published.variables[name] == var.published


def test_variants_are_the_same_in_another_process() -> None:
    """``random.Random`` seeded with text is stable across processes and hash seeds."""
    pairs = [(t, s) for t in CATALOG.task_ids for s in (None, 0, 5, 99)]
    script = (
        "import json, sys\n"
        "from domain.tasks import default_catalog\n"
        "c = default_catalog()\n"
        "pairs = json.loads(sys.argv[1])\n"
        "print(json.dumps([c.variant(t, s).digest for t, s in pairs]))\n"
        "print(json.dumps([c.pick_task_id(s) for s in range(20)]))\n"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", script, json.dumps(pairs)], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert json.loads(out[0]) == [CATALOG.variant(t, s).digest for t, s in pairs]
    assert json.loads(out[1]) == [CATALOG.pick_task_id(s) for s in range(20)]


@pytest.mark.parametrize("seed", [2**63 - 1, -(2**63)])
def test_any_64_bit_seed_is_accepted(service, seed: int) -> None:  # type: ignore[no-untyped-def]
    result = service.reset("task_hard_refund_fraud_trap", seed=seed)
    assert service.store.episode(result.episode_id).seed == seed


@pytest.mark.parametrize("seed", [2**63, -(2**63) - 1, 10**30, True, "7", 1.5])
def test_a_seed_the_log_cannot_hold_is_a_bad_request(service, seed) -> None:  # type: ignore[no-untyped-def]
    before = service.store.count_events()
    with pytest.raises(BadRequest, match="seed") as info:
        service.reset("task_easy_password", seed=seed)
    assert info.value.status == 422
    assert service.store.count_events() == before
