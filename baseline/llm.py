"""The LLM agent: tool calling or JSON per model, and a fallback chain that can never hang a run.

The prompt, the tool definitions and the parsing of an answer are ``baseline/chat.py``'s. Each
model is offered the actions as tools; a model whose endpoint refuses ``tools=`` or that answers
without a tool call is asked for one JSON object from then on (``AnswerModes``).

Every call goes through ``openai.OpenAI`` with a timeout and a small retry budget, inside a hard
wall-clock deadline (a server that trickles bytes cannot hold a step longer than the timeout). A
model that times out, errors or answers with something that is not a valid action hands the step
to the next candidate, and finally to the built-in policy when a fallback is allowed (``--agent
auto``, or ``--fallback builtin``), else the step fails (a no-op); the step's ``error=`` says what
happened and who acted. A model that fails ``LLM_MAX_FAILURES`` times in a row (or answers 401/403/404, which
retrying cannot fix) is skipped for the rest of the run.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from baseline.agent import FAILED_STEP_ACTION, NO_ACTOR, Decision, LLMCall
from baseline.chat import (
    AnswerMode,
    BadReply,
    ParsedAction,
    action_from_reply,
    action_from_tool_call,
    render_messages,
    tool_definitions,
)
from baseline.config import Config
from baseline.policy import BUILTIN_POLICY
from baseline.stdout import one_line
from domain.observation import Observation
from domain.redaction import redact
from support.deadline import Deadline, call_with_deadline

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam

MAX_REPLY_TOKENS = 700
DETAIL_CHARS = 100
PERMANENT_STATUSES = frozenset({401, 403, 404})
TOOLS_REFUSED_STATUSES = frozenset({400, 422})
"""Answers to a request with ``tools=`` that mean "not with tools" (vLLM without a tool parser,
a model the router serves without function calling): the step is asked again in JSON."""


# ----------------------------------------------------------------------------- model health
class ModelHealth:
    """Consecutive failures per model, shared by every episode of a run (thread-safe)."""

    def __init__(self, max_failures: int, notify: Callable[[str], None]):
        self.max_failures = max_failures
        self._notify = notify
        self._lock = threading.Lock()
        self._streak: dict[str, int] = {}
        self.skipped: dict[str, str] = {}

    def is_skipped(self, model: str) -> bool:
        with self._lock:
            return model in self.skipped

    def succeeded(self, model: str) -> None:
        with self._lock:
            self._streak[model] = 0

    def failed(self, model: str, reason: str, *, permanent: bool = False) -> None:
        with self._lock:
            streak = self._streak.get(model, 0) + 1
            self._streak[model] = streak
            if model in self.skipped or not (permanent or streak >= self.max_failures):
                return
            why = reason if permanent else f"{streak} failures in a row, last: {reason}"
            self.skipped[model] = why
        self._notify(f"model {model} skipped for the rest of the run ({why})")


# ----------------------------------------------------------------------------- the client
@dataclass(frozen=True)
class ToolCall:
    """One function call in a reply: the tool's name and its arguments as the model wrote them."""

    name: str
    arguments: str


@dataclass(frozen=True)
class ChatReply:
    """What a model answered: its text (may be empty) and its tool calls (may be none)."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()


class ChatClient:
    """``openai.OpenAI`` with the run's timeout and retry budget; returns the reply and its cost."""

    def __init__(self, config: Config):
        import openai

        self._openai = openai
        self._api_key = config.api_key
        self.timeout = config.llm_timeout
        self.client = openai.OpenAI(base_url=config.api_base_url, api_key=config.api_key,
                                    timeout=config.llm_timeout, max_retries=config.llm_max_retries)

    def complete(self, model: str, messages: list[ChatCompletionMessageParam],
                 tools: list[ChatCompletionToolParam] | None = None) -> tuple[ChatReply | None, LLMCall]:
        """One chat completion (offering ``tools`` when given): (reply, call record), or (None,
        failed call record)."""
        began = time.monotonic()

        def failed(kind: str, detail: str) -> tuple[None, LLMCall]:
            # what the server or the client said may echo the key: redacted before it is cut
            # and recorded (the run's log and records)
            return None, LLMCall(model, time.monotonic() - began, False, kind,
                                 one_line(redact(detail, (self._api_key,)), DETAIL_CHARS))

        def create() -> Any:
            if tools:
                return self.client.chat.completions.create(
                    model=model, messages=messages, tools=tools, temperature=0.0,
                    max_tokens=MAX_REPLY_TOKENS)
            return self.client.chat.completions.create(
                model=model, messages=messages, temperature=0.0, max_tokens=MAX_REPLY_TOKENS)

        try:
            response = call_with_deadline(create, self.timeout)
        except (Deadline, self._openai.APITimeoutError):
            return failed("timeout", f"no reply within {self.timeout:g}s")
        except self._openai.APIStatusError as exc:
            body = exc.body if isinstance(exc.body, dict) else {}
            return failed(f"http_{exc.status_code}", str(body.get("message") or exc.message or exc))
        except self._openai.APIConnectionError as exc:
            return failed("connection", str(exc) or "connection failed")
        except Exception as exc:
            return failed("error", f"{type(exc).__name__}: {exc}")
        usage = getattr(response, "usage", None)
        call = LLMCall(model, time.monotonic() - began, True,
                       prompt_tokens=getattr(usage, "prompt_tokens", None),
                       completion_tokens=getattr(usage, "completion_tokens", None))
        try:
            message = response.choices[0].message
        except (AttributeError, IndexError, TypeError):
            return ChatReply(""), call
        calls = tuple(ToolCall(str(c.function.name), str(c.function.arguments or ""))
                      for c in (getattr(message, "tool_calls", None) or [])
                      if getattr(c, "function", None) is not None)
        return ChatReply(getattr(message, "content", None) or "", calls), call


class AnswerModes:
    """How each model answers, learnt during the run and shared by its episodes (thread-safe).

    Every model is first offered the actions as tools. One that refuses ``tools=`` (HTTP 400/422)
    or answers without a tool call is asked for JSON from then on, said once on stderr."""

    def __init__(self, notify: Callable[[str], None]):
        self._notify = notify
        self._lock = threading.Lock()
        self._json: dict[str, str] = {}

    def mode(self, model: str) -> AnswerMode:
        with self._lock:
            return "json" if model in self._json else "tools"

    def use_json(self, model: str, why: str) -> None:
        with self._lock:
            if model in self._json:
                return
            self._json[model] = why
        self._notify(f"model {model}: no tool calling ({why}); asking for JSON from now on")


# ------------------------------------------------------------------------------ the agent
def _stderr(message: str) -> None:
    print(f"[baseline] {message}", file=sys.stderr, flush=True)


FAILED_STEP = "no model acted: failed step, sent noop (--fallback builtin lets the built-in policy act)"


def _explain(problems: list[str], skipped: list[str], chosen_by: str) -> str | None:
    """The step's error text: what failed, what was skipped, and who acted instead (or that nobody
    did)."""
    if not problems and not skipped:
        return None
    parts = problems + ([f"skipped after repeated failures: {', '.join(skipped)}"] if skipped else [])
    return "; ".join(parts + [FAILED_STEP if chosen_by == NO_ACTOR else f"used {chosen_by}"])


class LLMAgent:
    """Tries each candidate model in order for every step, then the built-in policy if the run
    allows a fallback (``Config.uses_fallback``); without one, a step no model could take is a
    failed step, never the policy's."""

    def __init__(self, config: Config, client: ChatClient | None = None,
                 notify: Callable[[str], None] = _stderr):
        self.config = config
        self.client = client or ChatClient(config)
        self.health = ModelHealth(config.llm_max_failures, notify)
        self.modes = AnswerModes(notify)
        self.fallback = BUILTIN_POLICY if config.uses_fallback else None
        self.name = config.agent_name()

    def models_for(self, task_id: str, difficulty: str) -> tuple[str, ...]:
        return self.config.models_for(task_id, difficulty)

    def act(self, observation: Observation) -> Decision:
        chain = self.models_for(observation.task_id, observation.difficulty)
        shown = observation.model_dump(mode="json")  # what the prompt shows, as every client gets it
        problems: list[str] = []
        skipped: list[str] = []
        calls: list[LLMCall] = []
        for model in chain:
            if self.health.is_skipped(model):
                skipped.append(model)
                continue
            action, tried = self._ask(model, shown)
            calls.extend(tried)
            call = tried[-1]
            if action is not None:
                self.health.succeeded(model)
                return Decision(action, model, _explain(problems, skipped, model), tuple(calls))
            problems.append(f"{model} {call.failure} ({call.detail})")
            permanent = call.failure in {f"http_{s}" for s in PERMANENT_STATUSES}
            self.health.failed(model, f"{call.failure}: {call.detail}", permanent=permanent)
        if self.fallback is None:
            return Decision(dict(FAILED_STEP_ACTION), NO_ACTOR, _explain(problems, skipped, NO_ACTOR),
                            tuple(calls))
        fallback = self.fallback.act(observation)
        return Decision(fallback.action, fallback.chosen_by,
                        _explain(problems, skipped, fallback.chosen_by), tuple(calls))

    def _ask(self, model: str,
             observation: Mapping[str, Any]) -> tuple[dict[str, Any] | None, list[LLMCall]]:
        """One model's answer for one step: tools first unless the model is known to answer in
        JSON; a refusal of ``tools=`` asks again in JSON within the same step. Returns the action
        to send (or None) and every call made; the last call says why there is no action."""
        mode = self.modes.mode(model)
        if mode == "tools":
            reply, call = self.client.complete(model, render_messages(observation, "tools"),
                                               tool_definitions())
            status = (call.failure or "").removeprefix("http_")
            if reply is None and status.isdigit() and int(status) in TOOLS_REFUSED_STATUSES:
                self.modes.use_json(model, f"HTTP {status} to tools: {call.detail}")
                action, retried = self._ask(model, observation)
                return action, [call, *retried]
            if reply is not None and not reply.tool_calls:
                self.modes.use_json(model, "it answered without a tool call")
        else:
            reply, call = self.client.complete(model, render_messages(observation, "json"))
        if reply is None:
            return None, [call]
        try:
            parsed = self._parse(reply)
        except BadReply as exc:
            return None, [LLMCall(call.model, call.latency_s, False, exc.kind,
                                  one_line(str(exc), DETAIL_CHARS), call.prompt_tokens,
                                  call.completion_tokens)]
        return parsed.body, [call]

    def _parse(self, reply: ChatReply) -> ParsedAction:
        """The first tool call when there is one (one action per step), else the JSON in the text."""
        mode = self.config.action_schema_mode
        if reply.tool_calls:
            first = reply.tool_calls[0]
            return action_from_tool_call(first.name, first.arguments, mode)
        return action_from_reply(reply.text, mode)
