"""The shape of a task, validated when the catalog loads.

A task file declares a ticket template, the variables a seed may vary, and one or more *cases*: the
expected end state and rubrics that apply when the case's condition holds for the drawn variables.
The materialised result is a :class:`TaskInstance`, the only thing the rest of the domain reads.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.vocabulary import (
    Difficulty,
    PolicyId,
    Priority,
    Queue,
    ResolutionCode,
    Status,
    Tag,
    Tier,
)

COMPONENTS = ("priority", "queue", "tags", "policy", "reply", "note", "resolution")
"""Every score component a task may weigh, in the order reports list them."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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


class Expected(Strict):
    """The end state a correct agent leaves the ticket in (the answer key)."""

    priority: Priority | None = None
    queue: Queue | None = None
    tags: tuple[Tag, ...] = ()
    status: tuple[Status, ...] = Field(min_length=1)
    resolution_code: tuple[ResolutionCode | None, ...] = Field(min_length=1)
    policy: PolicyId | None = None


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


class TicketTemplate(Strict):
    ticket_id: str
    customer_name: str
    customer_email: str = "{first_name_lower}@example.com"
    customer_tier: str  # a Tier, or a template such as "{tier}"; checked once filled
    subject: str
    message: str
    product_area: str
    facts: dict[str, str] = Field(default_factory=dict)


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
