"""TicketLedger's settings: one object, read from the environment once at start-up.

Each entry point (``ticketledger``, ``server``, ``inference.py``) calls :func:`read` once and hands
the result on; command-line flags override it (:meth:`Settings.override`). Nothing else reads these
variables. The names are the environment variables themselves (the aliases below), so this class is
also the list of them; pydantic converts and checks the values. An empty variable counts as unset.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from store.database import DEFAULT_DATABASE_URL


class SettingsError(ValueError):
    """A variable whose value cannot be used; the message names it and says what it must be."""


def _lower(value: Any) -> Any:
    return value.strip().lower() if isinstance(value, str) else value


def _names(value: Any) -> Any:
    """A comma-separated list (as an environment variable holds it) as a tuple of its items."""
    if isinstance(value, str):
        return tuple(item.strip().lower() for item in value.split(",") if item.strip())
    return value


DEFAULT_ALLOWED_HOSTS = ("localhost", "127.0.0.1", "::1", "*.hf.space")
"""``Host`` headers accepted by default: this machine, and a Hugging Face Space's own address."""


class Settings(BaseModel):
    """Where the log lives, the server's limits and where it listens."""

    model_config = ConfigDict(frozen=True, extra="ignore", validate_by_name=True,
                              validate_by_alias=True)

    database_url: str = Field(DEFAULT_DATABASE_URL, alias="DATABASE_URL",
                              description="SQLAlchemy URL of the event log (SQLite or PostgreSQL)")
    audit_token: str | None = Field(None, alias="TICKETLEDGER_AUDIT_TOKEN", repr=False,
                                    description="when set, the audit routes and /ui are open with "
                                                "it as a bearer token; unset, they are open only "
                                                "on a server listening on loopback only "
                                                "(api.listening)")
    allowed_hosts: Annotated[tuple[str, ...], BeforeValidator(_names)] = Field(
        DEFAULT_ALLOWED_HOSTS, alias="TICKETLEDGER_ALLOWED_HOSTS",
        description="Host header values the server answers (comma-separated; '*.example.org' "
                    "matches its subdomains, '*' any host); others get 400")
    allowed_origins: Annotated[tuple[str, ...], BeforeValidator(_names)] = Field(
        (), alias="TICKETLEDGER_ALLOWED_ORIGINS",
        description="browser origins (scheme://host[:port], comma-separated, '*' any) allowed "
                    "to send state-changing requests and open /ws, besides the server's own")
    max_body_bytes: int = Field(65_536, alias="TICKETLEDGER_MAX_BODY_BYTES",
                                description="request body limit (HTTP and WebSocket messages)")
    max_sessions: int = Field(256, alias="TICKETLEDGER_MAX_SESSIONS",
                              description="open WebSocket sessions per worker process")
    session_idle_timeout_s: int = Field(300, alias="TICKETLEDGER_SESSION_IDLE_TIMEOUT",
                                        description="seconds a WebSocket session may stay silent")
    body_timeout_s: float = Field(10.0, gt=0, alias="TICKETLEDGER_BODY_TIMEOUT",
                                  description="seconds a request may take to send its whole body "
                                              "once its headers are in; a slower one gets 408 and "
                                              "its connection is closed")
    max_connections: int = Field(1024, ge=1, alias="TICKETLEDGER_MAX_CONNECTIONS",
                                 description="open connections (HTTP and WebSocket) per worker "
                                             "process; a request past it gets 503 at once "
                                             "(uvicorn's limit_concurrency)")
    blocking_calls: Annotated[Literal["auto", "inline", "thread"], BeforeValidator(_lower)] = Field(
        "auto", alias="TICKETLEDGER_BLOCKING_CALLS",
        description="where the (blocking) service runs: inline on the event loop or in the "
                    "server's service threads (api.deps.ServiceThreads). auto: the threads, "
                    "except that on SQLite without an LLM a reset or step that finds them idle "
                    "runs at once on the loop (calls that overlap still queue and are committed "
                    "together); thread: always the threads, so that no database work ever runs "
                    "on the event loop; inline: always the loop")
    host: str | None = Field(None, alias="HOST",
                             description="interface the server listens on (unset: the entry "
                                         "point's own default, 127.0.0.1 for `ticketledger serve`, "
                                         "0.0.0.0 for the `server` entry point)")
    port: int = Field(7860, alias="PORT", description="the seeds' and Hugging Face Spaces' port")
    workers: int = Field(1, alias="WEB_CONCURRENCY",
                         description="server worker processes; more than one needs PostgreSQL")
    judge_model: str | None = Field(None, alias="JUDGE_MODEL",
                                    description="when set, replies are judged by this LLM (an "
                                                "OpenAI-compatible chat model) and its verdicts "
                                                "recorded; unset: the deterministic judge only")
    judge_base_url: str | None = Field(None, alias="JUDGE_BASE_URL",
                                       description="the judge's OpenAI-compatible endpoint "
                                                   "(default: the openai client's own)")
    judge_api_key: str | None = Field(None, alias="JUDGE_API_KEY", repr=False,
                                      description="the judge's key (default: OPENAI_API_KEY)")
    judge_timeout_s: float = Field(20.0, gt=0, alias="JUDGE_TIMEOUT",
                                   description="seconds a judge call may take, whatever the socket "
                                               "does; a slower one falls back to the deterministic "
                                               "judge")

    customer_model: str | None = Field(None, alias="CUSTOMER_MODEL",
                                       description="when set, new episodes' customer replies to "
                                                   "message_customer are worded by this LLM (an "
                                                   "OpenAI-compatible chat model, a persona per "
                                                   "ticket) and recorded; unset: the scripted "
                                                   "customer only")
    customer_base_url: str | None = Field(None, alias="CUSTOMER_BASE_URL",
                                          description="the LLM customer's endpoint (default: the "
                                                      "openai client's own)")
    customer_api_key: str | None = Field(None, alias="CUSTOMER_API_KEY", repr=False,
                                         description="the LLM customer's key (default: "
                                                     "OPENAI_API_KEY)")
    customer_timeout_s: float = Field(20.0, gt=0, alias="CUSTOMER_TIMEOUT",
                                      description="seconds an LLM customer call may take; a "
                                                  "slower one falls back to the scripted reply")

    @property
    def judge(self) -> Literal["deterministic", "llm"]:
        """The reply judge new episodes get: ``llm`` when ``JUDGE_MODEL`` is set."""
        return "llm" if self.judge_model else "deterministic"

    def override(self, **flags: Any) -> Settings:
        """These settings with the command-line flags that were given (``None``: not given)."""
        given = {name: value for name, value in flags.items() if value is not None}
        if not given:
            return self
        return _validated({**self.model_dump(), **given})


def read(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings from ``environ`` (default: this process's environment)."""
    env = os.environ if environ is None else environ
    names = [field.alias for field in Settings.model_fields.values() if field.alias]
    values = {name: env[name] for name in names if env.get(name)}
    if "JUDGE_API_KEY" not in values and env.get("OPENAI_API_KEY"):
        values["JUDGE_API_KEY"] = env["OPENAI_API_KEY"]  # the openai client's own variable
    if "CUSTOMER_API_KEY" not in values and env.get("OPENAI_API_KEY"):
        values["CUSTOMER_API_KEY"] = env["OPENAI_API_KEY"]
    return _validated(values)


def _validated(values: Mapping[str, Any]) -> Settings:
    try:
        settings = Settings.model_validate(values)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        name = ".".join(str(part) for part in error["loc"])
        raise SettingsError(f"{name}={error['input']!r} cannot be used: {error['msg']}") from None
    if settings.judge_model and not settings.judge_api_key:
        raise SettingsError(f"JUDGE_MODEL={settings.judge_model!r} cannot be used: the judge needs "
                            "a key in JUDGE_API_KEY or OPENAI_API_KEY")
    if settings.customer_model and not settings.customer_api_key:
        raise SettingsError(f"CUSTOMER_MODEL={settings.customer_model!r} cannot be used: the LLM "
                            "customer needs a key in CUSTOMER_API_KEY or OPENAI_API_KEY")
    return settings
