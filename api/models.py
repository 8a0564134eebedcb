"""Wire models of the agent-facing API that are not domain models: request bodies and answers.

Only pydantic, the domain and ``support`` (standard library) are imported here, so the typed
client (``ticketledger/client.py``) can use these models without pulling in the server. The
request models are what ``/reset``, ``/step``, ``/ws`` and ``/mcp`` parse bodies with
(``api.protocol``) and what ``/docs``, ``/schema`` and MCP's ``tools/list`` show. An action is
carried as the JSON object it arrived as: the domain checks it (``domain.actions.parse_action``),
because a known action that lacks its required field is a penalised, logged step there rather
than a rejected request.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictInt,
    StrictStr,
    Tag,
    TypeAdapter,
    WithJsonSchema,
)

from domain.actions import MAX_REPLY_CHARS, Action, CombinedAction
from domain.observation import Observation, PublicAccount, PublicGrade
from domain.rewards import RewardMode
from support.schemas import inline_refs

ACTION_SCHEMA = inline_refs(TypeAdapter(Action | CombinedAction).json_schema())
ActionObject = Annotated[dict[str, Any], WithJsonSchema(ACTION_SCHEMA)]
"""An action as sent: one of the action types (see ``/schema``) or the CustomerSupportEnv
combined action, documented as such and checked by the domain."""


class ResetBody(BaseModel):
    """Body of ``POST /reset`` and data of a WebSocket ``reset`` message; every field is optional."""

    model_config = ConfigDict(extra="forbid")

    task_id: StrictStr | None = Field(default=None, description="A task id from GET /tasks; "
                                      "omitted: picked from the seed")
    seed: StrictInt | None = Field(default=None, description="Variant of the task; omitted: the "
                                   "published variant")
    episode_id: StrictStr | None = Field(default=None, description="Your own id for the episode "
                                         "(1-64 of letters, digits, _-.:); omitted: a random one")
    run_id: StrictStr | None = Field(
        default=None, description="Files the episode under a run (GET /runs, ticketledger runs); "
                                  "same characters as episode_id")
    reward_mode: RewardMode | None = Field(
        default=None, description="How step rewards are handed out: dense (default; the change of "
                                  "the score), sparse (0 until the end, then the score) or binary "
                                  "(0 until the end, then 1 if the task's threshold is reached)")
    split: StrictStr | None = Field(
        default=None, description="A frozen split of the task families: train, dev or test "
                                  "(docs/tasks.md); with index, instead of task_id and seed")
    index: StrictInt | None = Field(
        default=None, description="Which instance of the split, from 0 (ticketledger tasks "
                                  "--split SPLIT lists them)")


class WrappedStep(BaseModel):
    """OpenEnv's ``POST /step`` body. The SupportOps seed's clients send the action bare instead."""

    model_config = ConfigDict(extra="forbid")

    action: ActionObject = Field(
        description=f"One action (see /schema), or the CustomerSupportEnv combined action. "
                    f"A reply draft holds at most {MAX_REPLY_CHARS} characters.")
    episode_id: StrictStr | None = Field(default=None, description="Episode to act on (else the "
                                         "X-Episode-Id header, the cookie from /reset, the latest "
                                         "reset)")
    timeout_s: float | None = Field(default=None, description="Accepted for OpenEnv "
                                    "compatibility; ignored")
    request_id: str | None = Field(default=None, description="Accepted for OpenEnv "
                                   "compatibility; ignored")


class EndBody(BaseModel):
    """Body of ``POST /end``: end an open episode from outside a step (a driver that stops a
    rollout the model left unfinished). Every field is optional."""

    model_config = ConfigDict(extra="forbid")

    episode_id: StrictStr | None = Field(default=None, description="Episode to end (else the "
                                         "X-Episode-Id header, the cookie from /reset, the latest "
                                         "reset), as for POST /step")
    reason: Literal["cut_off"] = Field(default="cut_off", description="Why: cut_off, the agent's "
                                       "driver stopped the rollout (a trainer's tool-call or token "
                                       "budget). A limit: the answer says truncated")


class BareStep(BaseModel):
    """The SupportOps seed's ``POST /step`` body: the action itself, every member as sent (unused
    ones may be ``null``), plus an optional ``episode_id`` that routes it and is not part of it."""

    model_config = ConfigDict(extra="allow")

    episode_id: StrictStr | None = Field(default=None, description="Episode to act on")

    @property
    def action(self) -> dict[str, Any]:
        return self.model_extra or {}


def _dialect(body: Any) -> str:
    """OpenEnv wraps the action (``{"action": {...}}``); the SupportOps seed sends it bare."""
    return "wrapped" if isinstance(body, dict) and "action" in body else "bare"


StepBody = Annotated[Annotated[WrappedStep, Tag("wrapped")] | Annotated[BareStep, Tag("bare")],
                     Discriminator(_dialect)]
"""A ``POST /step`` body (or the data of a WebSocket ``step`` message) in either dialect."""


class PublicState(BaseModel):
    """What ``GET /state`` and a WebSocket ``state`` message return: no answer key, ever."""

    episode_id: str | None = None
    step_count: int = 0
    task_id: str | None = None
    title: str | None = None
    difficulty: str | None = None
    max_steps: int | None = None
    status: str | None = None
    done: bool = False
    terminated: bool = False
    truncated: bool = False
    end_reason: str | None = None
    score: float = 0.0
    rewards: list[float] = Field(default_factory=list)
    priority: str | None = None
    queue: str | None = None
    tags: list[str] = Field(default_factory=list)
    reply_draft: str | None = None
    internal_notes: list[str] = Field(default_factory=list)
    policies_viewed: list[str] = Field(default_factory=list)
    resolution_code: str | None = None
    account: PublicAccount | None = Field(default=None, description="The customer's account as "
                                          "the back-office actions left it")
    last_action_error: str | None = None
    head_hash: str | None = Field(default=None, description="Hash-chain head of the episode's log")




Terminated = Annotated[bool, Field(description="The ticket reached an end state (resolved or "
                                   "closed): Gymnasium's terminated")]
Truncated = Annotated[bool, Field(description="A limit (max_steps, or cut_off or disconnected "
                                  "when it was ended from outside a step) cut the episode short: "
                                  "Gymnasium's truncated; done == terminated or truncated")]
EndReason = Annotated[str | None, Field(description="Why the episode ended: resolved, closed, "
                                        "max_steps, cut_off or disconnected; null while it goes "
                                        "on")]
"""How an episode ended, as every step answer reports it (Gymnasium's terms beside ``done``)."""
Grade = Annotated[PublicGrade | None, Field(description="Why the step earned its reward: the "
                  "grader's public reason, each component's weight, earned value and public "
                  "reason, the step's penalties and the safety rules broken (never the answer "
                  "key); the same in both dialects, over /ws and MCP")]
"""A step answer's ``grade`` (``domain.observation.PublicGrade``), last in every step answer so the
seeds' members keep their places."""

class ResetResponse(BaseModel):
    """``POST /reset``, and the WebSocket ``observation`` after a reset: the first observation."""

    observation: Observation
    reward: float | None = None
    done: bool
    episode_id: str
    terminated: Terminated = False
    truncated: Truncated = False
    end_reason: EndReason = None


class StepResponse(BaseModel):
    """OpenEnv's step answer (``reward`` a number), plus the episode id and its hash-chain head."""

    observation: Observation
    reward: float | None
    done: bool
    terminated: Terminated = False
    truncated: Truncated = False
    end_reason: EndReason = None
    episode_id: str
    head_hash: str
    grade: Grade = None


class SeedReward(BaseModel):
    """The SupportOps seed's reward object: the step's reward and the grader's public reason (the
    audit detail, which names expected values, is only on the audit routes)."""

    score: float
    components: dict[str, float]
    reason: str


class SeedInfo(BaseModel):
    task_score: float
    episode_id: str
    step_count: int
    max_steps: int
    last_action_error: str | None
    end_reason: str | None
    head_hash: str


class SeedStepResponse(BaseModel):
    """The SupportOps seed's step answer: a reward object and an ``info`` with the task score."""

    observation: Observation
    reward: SeedReward
    done: bool
    terminated: Terminated = False
    truncated: Truncated = False
    end_reason: EndReason = None
    info: SeedInfo
    grade: Grade = None
