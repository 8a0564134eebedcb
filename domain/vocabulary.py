"""The closed vocabularies an agent chooses from.

Every value is matched case-insensitively on input and stored in its canonical spelling, so the
seeds' clients (``"Escalations"``, ``"Policy_Denied"``) and lower-case LLM output both work.
"""

from __future__ import annotations

from enum import Enum
from functools import cache
from typing import Self


class Vocabulary(str, Enum):
    """A string enum whose members parse case-insensitively."""

    @classmethod
    def parse(cls, value: object) -> Self | None:
        """Return the member whose value matches ``value`` ignoring case, else ``None``."""
        if isinstance(value, cls):
            return value
        if not isinstance(value, str):
            return None
        member = _by_lower_value(cls).get(value.strip().lower())
        return member if isinstance(member, cls) else None

    @classmethod
    def read(cls, value: object) -> Self:
        """The member ``value`` names, matched as input is (ignoring case); ``ValueError`` if none."""
        member = cls.parse(value)
        if member is None:
            raise ValueError(f"{value!r} is not a {cls.__name__}; one of: {', '.join(cls.allowed())}")
        return member

    @classmethod
    def allowed(cls) -> list[str]:
        return [m.value for m in cls]


@cache
def _by_lower_value(vocabulary: type[Vocabulary]) -> dict[str, Vocabulary]:
    """A vocabulary's members by lower-cased value (one table per vocabulary, built on first use)."""
    return {m.value.lower(): m for m in vocabulary}


class Priority(Vocabulary):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    URGENT = "urgent"


class Queue(Vocabulary):
    BILLING = "billing"
    TECHNICAL = "technical"
    ACCOUNT = "account"
    TRUST_AND_SAFETY = "trust_and_safety"
    GENERAL = "general"
    ESCALATIONS = "escalations"


class Tag(Vocabulary):
    REFUND = "Refund"
    POLICY_DENIED = "Policy_Denied"
    REFUND_APPROVED = "Refund_Approved"
    ESCALATED = "Escalated"
    ANGRY_CUSTOMER = "Angry_Customer"
    VIP = "VIP"
    BUG = "Bug"
    OUTAGE = "Outage"
    SECURITY = "Security"
    FRAUD_REVIEW = "Fraud_Review"
    IDENTITY_VERIFIED = "Identity_Verified"
    VERIFICATION_REQUIRED = "Verification_Required"
    GDPR = "GDPR"
    LEGAL_HOLD = "Legal_Hold"
    DUPLICATE_CHARGE = "Duplicate_Charge"
    FEATURE_REQUEST = "Feature_Request"
    DOCUMENTATION = "Documentation"
    PASSWORD = "Password"
    RATE_LIMIT = "Rate_Limit"
    # added with the task families
    SHIPPING = "Shipping"
    PLAN_CHANGE = "Plan_Change"


class ResolutionCode(Vocabulary):
    AWAITING_CUSTOMER_CONFIRMATION = "awaiting_customer_confirmation"
    RESOLVED_WITH_DOCUMENTATION = "resolved_with_documentation"
    BILLING_INVESTIGATION_OPENED = "billing_investigation_opened"
    ENGINEERING_INVESTIGATION = "engineering_investigation"
    INCIDENT_ESCALATED = "incident_escalated"
    SECURITY_INCIDENT_OPENED = "security_incident_opened"
    REFUND_ISSUED = "refund_issued"
    REFUND_DENIED = "refund_denied"
    ESCALATED_TO_SPECIALIST = "escalated_to_specialist"
    ACCOUNT_UPDATED = "account_updated"
    AWAITING_IDENTITY_VERIFICATION = "awaiting_identity_verification"
    FRAUD_REVIEW_OPENED = "fraud_review_opened"
    DELETION_SCHEDULED = "deletion_scheduled"
    DELETION_ON_HOLD = "deletion_on_hold"
    NO_ACTION_NEEDED = "no_action_needed"


class Difficulty(Vocabulary):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Tier(Vocabulary):
    FREE = "free"
    PRO = "pro"
    ENTERPRISE = "enterprise"


class Status(Vocabulary):
    OPEN = "open"
    RESOLVED = "resolved"
    CLOSED = "closed"


class ActionType(Vocabulary):
    CLASSIFY_PRIORITY = "classify_priority"
    ASSIGN_QUEUE = "assign_queue"
    ADD_TAG = "add_tag"
    REMOVE_TAG = "remove_tag"
    DRAFT_REPLY = "draft_reply"
    ADD_INTERNAL_NOTE = "add_internal_note"
    LOOKUP_POLICY = "lookup_policy"
    RESOLVE_TICKET = "resolve_ticket"
    CLOSE_TICKET = "close_ticket"
    NOOP = "noop"
    ISSUE_REFUND = "issue_refund"
    DENY_REFUND = "deny_refund"
    UPDATE_ACCOUNT_EMAIL = "update_account_email"
    SEND_PASSWORD_RESET_LINK = "send_password_reset_link"
    SCHEDULE_DATA_DELETION = "schedule_data_deletion"
    PLACE_LEGAL_HOLD = "place_legal_hold"
    OPEN_FRAUD_REVIEW = "open_fraud_review"
    ESCALATE_INCIDENT = "escalate_incident"
    # the customer who answers: ask the customer a question; appended last (recordings pin order)
    MESSAGE_CUSTOMER = "message_customer"


BACK_OFFICE_ACTIONS: tuple[str, ...] = (
    "issue_refund", "deny_refund", "update_account_email", "send_password_reset_link",
    "schedule_data_deletion", "place_legal_hold", "open_fraud_review", "escalate_incident",
)
"""The action types that act on the customer's account (money, identity, data, incidents) rather
than on the ticket; an answer key requires or forbids them."""


class Severity(Vocabulary):
    """An incident's severity: sev1 (production down, all hands), sev2 (degraded), sev3 (minor)."""

    SEV1 = "sev1"
    SEV2 = "sev2"
    SEV3 = "sev3"


class PolicyId(Vocabulary):
    """Keys of the mocked internal policy dictionary (texts live in ``domain/tasks/policies.json``)."""

    REFUND_POLICY = "refund_policy"
    IDENTITY_VERIFICATION = "identity_verification"
    REFUND_ABUSE = "refund_abuse"
    DATA_DELETION = "data_deletion"
    ESCALATION_POLICY = "escalation_policy"
    SECURITY_INCIDENT = "security_incident"
    BILLING_DISPUTES = "billing_disputes"
    SUPPORT_SLA = "support_sla"
    # the task families' policies: one per family situation, each stating every case
    REFUND_REQUESTS = "refund_requests"
    ACCOUNT_ACCESS = "account_access"
    CHARGE_DISPUTES = "charge_disputes"
    EMAIL_CHANGES = "email_changes"
    DATA_REQUESTS = "data_requests"
    INCIDENT_RESPONSE = "incident_response"
    SECURITY_REPORTS = "security_reports"
    SHIPPING_CLAIMS = "shipping_claims"
    PLAN_CHANGES = "plan_changes"
    COMPLAINTS = "complaints"
