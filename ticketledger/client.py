"""A typed OpenEnv client for trainers: ``TicketLedgerEnv`` (WebSocket sessions, async or sync).

This is the only module of the project that imports ``openenv`` (which pulls in gradio, seconds of
start-up); the server and ``inference.py`` never import it. OpenEnv's ``AutoEnv.from_env("ticketledger",
base_url=...)`` returns the same client: discovery looks the class up here as ``TicketledgerEnv``.

    from ticketledger.client import ClassifyPriority, TicketLedgerEnv

    with TicketLedgerEnv(base_url="http://localhost:7860").sync() as env:
        result = env.reset(task_id="task_easy_password")
        result = env.step(ClassifyPriority(priority="medium"))
        print(result.reward, result.observation.current_priority, env.state().score)
        print(env.grade.reason if env.grade else None)  # why the step earned its reward

Actions are the domain's models (``ClassifyPriority``, ``AssignQueue``, ``DraftReply``, ...), the
CustomerSupportEnv ``CombinedAction``, or plain dicts. Observations come back as
``domain.observation.Observation`` and the state as ``api.models.PublicState``.
"""

from __future__ import annotations

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from pydantic import BaseModel

from api.models import PublicState
from domain.actions import (
    AddInternalNote,
    AddTag,
    AssignQueue,
    ClassifyPriority,
    CloseTicket,
    CombinedAction,
    DenyRefund,
    DraftReply,
    EscalateIncident,
    IssueRefund,
    LookupPolicy,
    MessageCustomer,
    Noop,
    OpenFraudReview,
    PlaceLegalHold,
    RemoveTag,
    ResolveTicket,
    ScheduleDataDeletion,
    SendPasswordResetLink,
    UpdateAccountEmail,
)
from domain.observation import Observation, PublicGrade

__all__ = [
    "AddInternalNote", "AddTag", "AssignQueue", "ClassifyPriority", "CloseTicket", "CombinedAction",
    "DenyRefund", "DraftReply", "EscalateIncident", "IssueRefund", "LookupPolicy", "MessageCustomer",
    "Noop", "Observation", "OpenFraudReview", "PlaceLegalHold", "PublicGrade", "PublicState",
    "RemoveTag", "ResolveTicket", "ScheduleDataDeletion", "SendPasswordResetLink", "TicketLedgerEnv",
    "TicketledgerEnv", "UpdateAccountEmail",
]

TicketAction = BaseModel | dict[str, Any]


class TicketLedgerEnv(EnvClient[TicketAction, Observation, PublicState]):
    """OpenEnv client for TicketLedger. ``reset`` takes ``task_id``, ``seed`` and ``episode_id``.

    After each reset or step, ``episode_id`` names the episode and ``head_hash`` is the hash-chain
    head of its log (what the audit routes verify); ``grade`` says why the last step earned its
    reward (the step answer's ``grade``: the grader's public reason and component breakdown; None
    after a reset). An attribute, as OpenEnv's ``StepResult`` has no member for it.
    """

    episode_id: str | None = None
    head_hash: str | None = None
    grade: PublicGrade | None = None

    def _step_payload(self, action: TicketAction) -> dict[str, Any]:
        if isinstance(action, BaseModel):
            return action.model_dump(mode="json", exclude_none=True)
        if isinstance(action, dict):
            return action
        raise TypeError(f"an action is a pydantic model or a dict, not {type(action).__name__}")

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[Observation]:
        self.episode_id = payload.get("episode_id", self.episode_id)
        self.head_hash = payload.get("head_hash", self.head_hash)
        grade = payload.get("grade")
        self.grade = PublicGrade.model_validate(grade) if grade is not None else None
        return StepResult(observation=Observation.model_validate(payload["observation"]),
                          reward=payload.get("reward"), done=bool(payload.get("done", False)))

    def _parse_state(self, payload: dict[str, Any]) -> PublicState:
        return PublicState.model_validate(payload)


TicketledgerEnv = TicketLedgerEnv
"""The name OpenEnv's discovery infers from the manifest's ``name: ticketledger`` (``<Name>Env``)."""
