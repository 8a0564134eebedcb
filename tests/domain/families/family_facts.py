"""The task families as the family tests see them: what the product states, read from the product,
and the few facts per family the product does not state, as data.

The product states the families (the committed manifest), which seed draws which case (the
manifest's instances), each case's required and forbidden actions and the hidden facts it needs
(``domain/tasks/families/<family>/spec.json``), its solver (``baseline.solvers``) and its gold
(``domain/tasks/families/<family>/gold.json``, played by ``service.gold``): the tests read those
where they are. What this module adds is what only a test says: which word answers each second
request a ticket may carry, which classic task the grader audit's reply copier copies from, and
tickets written by hand with the case each must decide.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from domain.observation import Observation
from domain.tasks.catalog import Catalog, default_catalog
from domain.tasks.manifest import load_manifest
from domain.tasks.spec import TaskSpec
from tests.observations import observation

MANIFEST = load_manifest()
FAMILIES: tuple[str, ...] = tuple(MANIFEST.families)
"""Every task family, in the manifest's order (the ids of every parametrised family test)."""
SEEDS = range(MANIFEST.instances_per_family)
"""The manifest's seeds: 0..119."""


def task_id(family: str) -> str:
    return MANIFEST.families[family].task_id


def spec(family: str) -> TaskSpec:
    return default_catalog().spec(task_id(family))


def seeds_per_case(family: str, per_case: int = 1) -> list[int]:
    """The first ``per_case`` seeds of the manifest drawing each case of ``family``, in seed order."""
    chosen: dict[str, list[int]] = {}
    for ref in MANIFEST.family_instances(family):
        if len(chosen.setdefault(ref.case, [])) < per_case:
            chosen[ref.case].append(ref.seed)
    return sorted(seed for seeds in chosen.values() for seed in seeds)


def seed_of(family: str, case: str) -> int:
    """The first seed of the manifest drawing ``case``."""
    return next(ref.seed for ref in MANIFEST.family_instances(family) if ref.case == case)


def asks_first(family: str) -> bool:
    """A multi-turn family: some fact its cases need is hidden until the agent asks the customer."""
    return bool(spec(family).ticket.hidden_facts)


SECOND_TOPICS: dict[str, dict[str, str]] = {
    "outage": {"invoice": "invoice", "dark_mode": "dark mode"},
    "security_report": {"two_factor": "two-factor", "admin": "admin"},
    "plan_change": {"invoice": "invoice", "address": "billing address"},
    "complaint": {"manager": "account manager", "export": "export"},
}
"""Per family whose tickets may carry a second request (the variable ``second_topic``), the word
the solver's reply uses to answer each."""

COPIER_SOURCE: dict[str, str] = {
    "outage": "task_medium_angry_escalation",
    "security_report": "task_medium_angry_escalation",
    "plan_change": "task_medium_angry_escalation",
    "complaint": "task_hard_enterprise_outage",
}
"""Families the grader audit plays in a catalog of the family and one classic task, the reply
copier's source, rather than in the packaged catalog: there the copier would copy the reply of a
classic task that is right for the family's ticket too. Not the angry escalation for complaints:
its holding reply (sorry, a specialist within 24 hours) is the right reply to a complaint about
anything else (CM-1), not a copied one; nor the enterprise outage for outages (an incident with
15-minute updates is right there)."""


@cache
def audit_catalog(family: str) -> Catalog:
    """The catalog the grader audit plays ``family`` in (see :data:`COPIER_SOURCE`)."""
    packaged = default_catalog()
    other = COPIER_SOURCE.get(family)
    if other is None:
        return packaged
    tid = task_id(family)
    return Catalog([packaged.spec(tid), packaged.spec(other)], packaged.policies,
                   {tid: packaged.judging[tid], other: packaged.judging[other]})


@dataclass(frozen=True)
class CaseTicket:
    """A ticket written by hand, and the case the family's solver (``case_of``) must read from it."""

    family: str
    case: str
    subject: str
    message: str
    tier: str
    facts: dict[str, str]
    why: str = ""

    def observation(self) -> Observation:
        return observation({"customer_name": "Ava Patel", "subject": self.subject,
                            "message": self.message, "customer_tier": self.tier, "facts": self.facts})


USUAL_SIGN_INS = "only the customer's usual devices in the last 30 days"
PLAN = {"current_plan": "Business, billed annually", "renewal_amount": "$480",
        "ticket_date": "2026-11-30"}

CASE_TICKETS: tuple[CaseTicket, ...] = (
    CaseTicket("outage", "all_down", "Quick question", "It fails.", "enterprise",
               {"affected_users": "all 12 of 12 users", "what_fails": "everything: the web app and the API",
                "status_page": "All systems operational (last updated 2 hours ago)"},
               "every user down while the status page still says operational: IR-1's first rule decides"),
    CaseTicket("outage", "degraded", "Quick question", "It fails.", "enterprise",
               {"affected_users": "5 of 15 users",
                "what_fails": "file uploads fail for some users; every other feature works",
                "status_page": "All systems operational"}),
    CaseTicket("outage", "degraded", "Quick question", "It fails.", "enterprise",
               {"affected_users": "all 9 of 9 users",
                "what_fails": "search is slow; every other feature works",
                "status_page": "Investigating: slow search results"}),
    CaseTicket("outage", "single_user", "Quick question", "It fails.", "enterprise",
               {"affected_users": "1 of 6 users (only the reporter)",
                "what_fails": "the dashboard does not load", "status_page": "All systems operational"}),
    CaseTicket("security_report", "phishing", "Have I been hacked?",
               "Got a message saying my account will be suspended. Have I been hacked?", "pro",
               {"reporter": "the account owner", "recent_sign_ins": USUAL_SIGN_INS,
                "account_changes": "none in the last 30 days"},
               "the customer fears a hack, but nobody signed in and nothing changed: a look-alike email"),
    CaseTicket("security_report", "account_takeover", "Have I been hacked?",
               "I clicked a link in an email and typed my password.", "pro",
               {"reporter": "the account owner", "recent_sign_ins": "2026-11-30 06:02 UTC from a new browser",
                "account_changes": "none"},
               "a phishing email they answered, followed by a sign-in from a new device: a takeover"),
    CaseTicket("security_report", "account_takeover", "Have I been hacked?",
               "A new API key showed up.", "pro",
               {"reporter": "the account owner", "recent_sign_ins": USUAL_SIGN_INS,
                "account_changes": "API key created by an unrecognised session"}),
    CaseTicket("security_report", "researcher", "Have I been hacked?",
               "Your password reset page does not limit requests.", "pro",
               {"reporter": "an external security researcher (not a user of this account)",
                "recent_sign_ins": "not applicable", "account_changes": "not applicable"}),
    CaseTicket("plan_change", "downgrade", "Cancel subscription", "Please downgrade us to Pro.", "pro",
               {**PLAN, "last_annual_renewal": "2026-11-25"}, "the subject says cancel: it does not decide"),
    CaseTicket("plan_change", "cancel_refund", "Cancel subscription",
               "Please cancel our subscription.", "pro",
               {**PLAN, "last_annual_renewal": "2026-11-16"}, "14 days: within the window"),
    CaseTicket("plan_change", "cancel_late", "Cancel subscription", "Please cancel our subscription.", "pro",
               {**PLAN, "last_annual_renewal": "2026-11-15"}, "15 days: later than 14"),
    CaseTicket("complaint", "refund_unpaid", "Where is my money?", "Pay me.", "pro",
               {"refund_on_record": "refund of $84 approved on 2026-11-09; payout status: not paid "
                                  "(payment failed)", "ticket_date": "2026-11-27"}),
    CaseTicket("complaint", "refund_in_transit", "Where is my money?", "Pay me.", "pro",
               {"refund_on_record": "refund of $84 approved and paid on 2026-11-19 to the card on file",
                "ticket_date": "2026-11-27"},
               "8 calendar days but 6 business days (a weekend between): still on its way"),
    CaseTicket("complaint", "other", "Where is my money?", "Pay me.", "pro",
               {"refund_on_record": "refund of $84 approved and paid on 2026-11-13 to the card on file",
                "ticket_date": "2026-11-27"},
               "10 business days: the bank window has passed, a specialist looks into it"),
    CaseTicket("complaint", "other", "Where is my money?", "Pay me.", "pro",
               {"refund_on_record": "none", "ticket_date": "2026-11-27"}),
)
"""Hand-written tickets of the families whose solver has a ``case_of``: the case each decides."""
