"""Wire models of the agent-facing API that are not domain models: request bodies and public state.

Only pydantic and the domain are imported here, so the typed client (``client.py``) can use these
models without pulling in the server. The request models document the bodies in ``/docs`` and
``/schema``; the routes themselves parse the raw JSON once (see ``api.requests``) so a step is not
validated twice.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from domain.actions import MAX_REPLY_CHARS, Action, CombinedAction


class ResetBody(BaseModel):
    """Body of ``POST /reset`` and data of a WebSocket ``reset`` message; every field is optional."""

    model_config = ConfigDict(extra="forbid")

    task_id: str | None = Field(default=None, description="A task id from GET /tasks; "
                                "omitted: picked from the seed")
    seed: int | None = Field(default=None, description="Variant of the task; omitted: the "
                             "published variant")
    episode_id: str | None = Field(default=None, description="Your own id for the episode "
                                   "(1-64 of letters, digits, _-.:); omitted: a random one")
    run_id: str | None = Field(default=None, description="Files the episode under a run "
                               "(GET /runs, ticketledger runs); same characters as episode_id")


class WrappedStep(BaseModel):
    """OpenEnv's ``POST /step`` body. The SupportOps seed's clients send the action bare instead."""

    model_config = ConfigDict(extra="forbid")

    action: Action | CombinedAction = Field(
        description=f"One action (see /schema), or the CustomerSupportEnv combined action. "
                    f"A reply draft holds at most {MAX_REPLY_CHARS} characters.")
    episode_id: str | None = Field(default=None, description="Episode to act on (else the "
                                   "X-Episode-Id header, the cookie from /reset, the latest reset)")
    timeout_s: float | None = Field(default=None, description="Accepted for OpenEnv "
                                    "compatibility; ignored")
    request_id: str | None = Field(default=None, description="Accepted for OpenEnv "
                                   "compatibility; ignored")


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
    last_action_error: str | None = None
    head_hash: str | None = Field(default=None, description="Hash-chain head of the episode's log")


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """A JSON schema with its ``$defs`` substituted in place, for embedding in OpenAPI and MCP.

    Our schemas are not recursive, so plain substitution terminates.
    """
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                merged = {**defs[ref.removeprefix("#/$defs/")], **{k: v for k, v in node.items()
                                                                   if k != "$ref"}}
                return walk(merged)
            return {k: walk(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)
