"""The shape of a task, validated when the catalog loads.

A task file declares a ticket template, the variables a seed may vary, and one or more *cases*: the
expected end state and rubrics that apply when the case's condition holds for the drawn variables.
The materialised result is a :class:`TaskInstance`, the only thing the rest of the domain reads.
"""

from __future__ import annotations

from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from domain.vocabulary import (
    BACK_OFFICE_ACTIONS,
    Difficulty,
    PolicyId,
    Priority,
    Queue,
    ResolutionCode,
    Status,
    Tag,
    Tier,
)

COMPONENTS = ("priority", "queue", "tags", "policy", "reply", "note", "resolution", "outcome")
"""Every score component a task may weigh, in the order reports list them."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _without_empty(data: dict[str, object], *names: str) -> dict[str, object]:
    """``data`` without the members ``names`` while they are empty: members added for hidden facts
    (the task families' customer) stay out of the JSON of tasks that have none, so the recorded
    task JSON and digest of every earlier task (and of the golden recordings) are unchanged."""
    return {k: v for k, v in data.items() if k not in names or v}


class HiddenFact(Strict):
    """A fact the customer knows but did not write in the ticket (an order number, the last four
    digits of a card): hidden from the agent until it asks and the customer answers.

    ``value`` is the fact itself and ``answer`` the sentence the scripted customer reveals it with
    (both templates filled from the variant; the answer must contain the value). ``asked_by``: the
    words or phrases (case-insensitive, whole words) that recognise a request for it in the agent's
    message. ``label``: how the customer names the fact when asked again."""

    value: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    asked_by: tuple[str, ...] = Field(min_length=1)
    label: str = Field(min_length=1)


class Phrases(Strict):
    """One fact or claim, satisfied by any of several phrasings (case-insensitive, whole words)."""

    name: str
    any_of: tuple[str, ...] = Field(min_length=1)


class Rubric(Strict):
    """How a free-text field (reply or internal note) is judged.

    Tuples, not lists: a rubric is a hashable value, so the graders can key results on it."""

    facts: tuple[Phrases, ...] = ()
    tone: tuple[Literal["greeting", "empathy", "closing"], ...] = ()
    forbidden: tuple[Phrases, ...] = ()
    min_words: int = 20
    min_sentences: int = 2


ACTION_RULE_FIELDS: dict[str, tuple[str, ...]] = {
    "issue_refund": ("amount",),
    "deny_refund": (),
    "update_account_email": ("new_email",),
    "send_password_reset_link": (),
    "schedule_data_deletion": (),
    "place_legal_hold": (),
    "open_fraud_review": (),
    "escalate_incident": ("severity",),
}
"""The fields an answer key may constrain, per back-office action (``reason`` is free text)."""


class ActionRule(Strict):
    """One back-office action an answer key requires or forbids.

    ``fields`` constrains what was done: a required ``issue_refund`` with ``{"amount": "{amount}"}``
    is met only by refunds adding up to the amount charged; a forbidden ``escalate_incident`` with
    ``{"severity": "sev3"}`` is broken only by that severity. Values are templates, filled from the
    variant like rubric phrases. ``why`` is the policy's reason, quoted in a violation's reason.
    """

    action: str
    fields: dict[str, str] = Field(default_factory=dict)
    why: str = ""

    @model_validator(mode="after")
    def _known(self) -> ActionRule:
        if self.action not in BACK_OFFICE_ACTIONS:
            raise ValueError(f"{self.action!r} is not a back-office action; one of "
                             f"{', '.join(BACK_OFFICE_ACTIONS)}")
        unknown = set(self.fields) - set(ACTION_RULE_FIELDS[self.action])
        if unknown:
            raise ValueError(f"{self.action} has no field {sorted(unknown)[0]!r} to constrain")
        return self

    def describe(self) -> str:
        """``issue_refund (amount=240)``: the rule as an auditor reads it."""
        shown = ", ".join(f"{k}={v}" for k, v in sorted(self.fields.items()))
        return f"{self.action} ({shown})" if shown else self.action


class Expected(Strict):
    """The end state a correct agent leaves the ticket in (the answer key).

    ``required_actions`` and ``forbidden_actions`` are the case's back-office decisions: what a
    support lead would insist on, and what would harm the customer or the company. Old recorded
    tasks have neither (the defaults), so they read and grade as they did."""

    priority: Priority | None = None
    queue: Queue | None = None
    tags: tuple[Tag, ...] = ()
    status: tuple[Status, ...] = Field(min_length=1)
    resolution_code: tuple[ResolutionCode | None, ...] = Field(min_length=1)
    policy: PolicyId | None = None
    required_actions: tuple[ActionRule, ...] = ()
    forbidden_actions: tuple[ActionRule, ...] = ()
    needs_facts: tuple[str, ...] = ()
    """Hidden facts (``TicketTemplate.hidden_facts``) the policy needs before acting: a back-office
    action taken, or the ticket resolved or closed, before the customer revealed each of them is a
    safety violation (``graders.decisions.acted_without_facts``)."""

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        return _without_empty(handler(self), "needs_facts")


class Case(Strict):
    """Expected outcome under a condition on the variant's variables (first match wins)."""

    name: str
    when: Condition | None = None
    expected: Expected
    reply: Rubric | None = None
    note: Rubric | None = None


class Condition(Strict):
    variable: str
    op: Literal["lt", "le", "gt", "ge", "eq", "ne"]
    value: int | str


class Variable(Strict):
    """A value a seed draws: a choice from a list, or an integer in an inclusive range.

    A choice may be a bundle (an object): its keys become variables together, so values that must
    agree (who wrote, and what proof they gave) are drawn as one. A bundle's ``published`` is the
    index of the seed's published bundle.
    """

    choices: list[str] | list[dict[str, str]] | None = None
    range: tuple[int, int] | None = None
    published: int | str

    @model_validator(mode="after")
    def _one_kind(self) -> Variable:
        if (self.choices is None) == (self.range is None):
            raise ValueError("a variable has exactly one of 'choices' or 'range'")
        return self


class AccountTemplate(Strict):
    """The simulated account's starting values, as templates filled from the variant.

    ``email`` defaults to the ticket's ``customer_email``; ``charged`` is the dollar amount the
    ticket says the customer paid (what a refund may return at most), absent when the ticket
    names no charge."""

    email: str | None = None
    charged: str | None = None


class Account(Strict):
    """The account as it starts: its email address on file and the amount charged, if any."""

    email: str
    charged: float | None = None


class TicketTemplate(Strict):
    ticket_id: str
    customer_name: str
    customer_email: str = "{first_name_lower}@example.com"
    customer_tier: str  # a Tier, or a template such as "{tier}"; checked once filled
    subject: str
    message: str
    product_area: str
    facts: dict[str, str] = Field(default_factory=dict)
    hidden_facts: dict[str, HiddenFact] = Field(default_factory=dict)
    """Facts the customer reveals only when asked (``message_customer``); never in the ticket."""


class TaskSpec(Strict):
    task_id: str = Field(pattern=r"^task_[a-z0-9_]+$")
    title: str
    difficulty: Difficulty
    source: Literal["supportops", "customersupportenv", "ticketledger"]
    objective: str
    max_steps: int = Field(ge=2, le=50)
    success_threshold: float = Field(gt=0.0, le=1.0)
    policies: tuple[PolicyId, ...] = ()
    weights: dict[str, float]
    ticket: TicketTemplate
    account: AccountTemplate = AccountTemplate()
    variables: dict[str, Variable] = Field(default_factory=dict)
    cases: list[Case] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> TaskSpec:
        unknown = set(self.weights) - set(COMPONENTS)
        if unknown:
            raise ValueError(f"unknown weight components {sorted(unknown)}; allowed {COMPONENTS}")
        if round(sum(self.weights.values()), 6) != 1.0:
            raise ValueError(f"weights must add up to 1.0, not {sum(self.weights.values())}")
        if self.cases[-1].when is not None:
            raise ValueError("the last case must have no condition (it is the fallback)")
        names = set(self.variables)
        for var in self.variables.values():
            for choice in var.choices or []:
                if isinstance(choice, dict):
                    names.update(choice)
        for case in self.cases:
            if case.when is not None and case.when.variable not in names:
                raise ValueError(f"case {case.name!r} tests unknown variable {case.when.variable!r}")
            if "reply" in self.weights and case.reply is None:
                raise ValueError(f"case {case.name!r} needs a reply rubric (reply is weighted)")
            if "note" in self.weights and case.note is None:
                raise ValueError(f"case {case.name!r} needs a note rubric (note is weighted)")
            if "policy" in self.weights and case.expected.policy is None:
                raise ValueError(f"case {case.name!r} needs expected.policy (policy is weighted)")
            unknown_facts = set(case.expected.needs_facts) - set(self.ticket.hidden_facts)
            if unknown_facts:
                raise ValueError(f"case {case.name!r} needs the unknown hidden fact "
                                 f"{sorted(unknown_facts)[0]!r}; declare it in ticket.hidden_facts")
            if not case.expected.forbidden_actions:
                raise ValueError(f"case {case.name!r} forbids no back-office action; name what "
                                 "would be contrary to the case")
        return self


class Ticket(Strict):
    """The customer's ticket as the agent sees it."""

    ticket_id: str
    customer_name: str
    customer_email: str
    customer_tier: Tier
    subject: str
    message: str
    product_area: str
    facts: dict[str, str] = Field(default_factory=dict)


class TaskInstance(Strict):
    """A task materialised for one seed: public ticket plus the private answer key."""

    task_id: str
    title: str
    difficulty: Difficulty
    source: str
    objective: str
    max_steps: int
    success_threshold: float
    policies: tuple[PolicyId, ...]
    weights: dict[str, float]
    seed: int | None
    variables: dict[str, int | str]
    ticket: Ticket
    case: str
    expected: Expected
    reply: Rubric | None
    note: Rubric | None
    account: Account | None = None
    hidden_facts: dict[str, HiddenFact] = Field(default_factory=dict)
    """What the customer knows but the ticket does not say (answer-key side: never observed until
    revealed in a ``CustomerReplied`` event)."""

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        return _without_empty(handler(self), "hidden_facts")

    @property
    def first_name(self) -> str:
        return self.ticket.customer_name.split()[0]

    def required_before_closing(self) -> list[str]:
        """Work that must be present (not necessarily right) before resolve/close is accepted.

        Mirrors the SupportOps seed (no resolving before triage or a reply) and the
        CustomerSupportEnv seed (no closing without a reply), generalised to every task.
        """
        needs: list[str] = []
        if "priority" in self.weights:
            needs.append("priority")
        if "queue" in self.weights:
            needs.append("queue")
        if "tags" in self.weights:
            needs.append("tags")
        if "policy" in self.weights:
            needs.append("policy")
        if "reply" in self.weights:
            needs.append("reply")
        if "note" in self.weights:
            needs.append("note")
        return needs


Case.model_rebuild()
