"""The ``account_access`` family (AA-1): its cases and the signals that decide them."""

from __future__ import annotations

from baseline.solvers import solver_for
from domain.tasks import default_catalog
from evaluation.play import play

CATALOG = default_catalog()
TASK = "task_family_account_access"


def test_the_case_is_visible_in_the_addresses_and_the_message() -> None:
    for seed in range(120):
        task = CATALOG.instance(task_id=TASK, seed=seed)
        on_file, requester = task.ticket.facts["email_on_file"], task.ticket.customer_email
        assert task.account is not None and task.account.email == on_file
        if task.case == "security_incident":
            assert any(cue in task.ticket.message for cue in ("not me", "did not", "do not own"))
        elif task.case == "reset_link":
            assert requester == on_file
        else:
            assert requester != on_file


def test_each_case_takes_its_own_back_office_actions() -> None:
    wanted = {"reset_link": ["send_password_reset_link"],
              "write_from_address_on_file": [],
              "security_incident": ["escalate_incident", "send_password_reset_link"]}
    seen = set()
    for seed in range(24):
        task = CATALOG.instance(TASK, seed)
        played = play(CATALOG, TASK, seed, solver_for(TASK))
        back = [a["action_type"] for a in played.actions
                if a["action_type"] in ("send_password_reset_link", "escalate_incident")]
        assert played.score == 1.0 and back == wanted[task.case], seed
        seen.add(task.case)
    assert seen == set(wanted)
