"""The grader audit that ships with the product (``ticketledger grader-audit``).

It plays, for every task and a set of seeds, the gold solution (:func:`service.gold.gold`), the
built-in policy and families of adversaries through the environment service, and checks each
family against its bound (:mod:`.families`). Graders stay pure; the playing lives here, in the
evaluation layer above the service and the agents (docs/architecture.md).
"""

from evaluation.grader_audit.families import (
    AUDIT_FAMILIES,
    Attempt,
    Bound,
    Family,
    NotApplicable,
    Setting,
    family,
)
from evaluation.grader_audit.report import AuditReport, Cell, FamilySummary, JudgedEpisode
from evaluation.grader_audit.runner import DEFAULT_SEEDS, run_audit

__all__ = ["AUDIT_FAMILIES", "DEFAULT_SEEDS", "Attempt", "AuditReport", "Bound", "Cell", "Family",
           "FamilySummary", "JudgedEpisode", "NotApplicable", "Setting", "family", "run_audit"]
