"""The typed clients for trainers: ``TicketLedgerEnv`` (OpenEnv, ``/ws`` sessions, async or sync)
and ``TicketLedgerClient`` (stateful HTTP or ``/ws``, sync, standard library and ``websockets``).

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

``TicketLedgerClient`` (``baseline.client``) is the client the project's own code plays a server
with (the runner behind ``inference.py``, the TRL adapter, the benchmarks): the same actions in,
the answers as JSON, over HTTP (many episodes on one client, each named) or ``/ws``, and the runs
(``open_run``, ``finish_run``). ``TicketLedgerEnv`` is OpenEnv's ``EnvClient`` (what ``AutoEnv``
and OpenEnv's tooling expect), with the wire format read as that client reads it
(``baseline.client.action_body``, ``episode_of``).
"""

from __future__ import annotations

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from pydantic import BaseModel

from api.models import PublicState
from baseline.client import RemoteError, TicketLedgerClient, action_body, episode_of
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
    "RemoteError", "RemoveTag", "ResolveTicket", "ScheduleDataDeletion", "SendPasswordResetLink",
    "TicketLedgerClient", "TicketLedgerEnv", "TicketledgerEnv", "UpdateAccountEmail",
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
        return action_body(action)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[Observation]:
        self.episode_id = episode_of(payload) or self.episode_id
        self.head_hash = payload.get("head_hash", self.head_hash)
        grade = payload.get("grade")
        self.grade = PublicGrade.model_validate(grade) if grade is not None else None
        return StepResult(observation=Observation.model_validate(payload["observation"]),
                          reward=payload.get("reward"), done=bool(payload.get("done", False)))

    def _parse_state(self, payload: dict[str, Any]) -> PublicState:
        return PublicState.model_validate(payload)


TicketledgerEnv = TicketLedgerEnv
"""The name OpenEnv's discovery infers from the manifest's ``name: ticketledger`` (``<Name>Env``)."""
