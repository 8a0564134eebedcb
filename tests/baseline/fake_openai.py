"""A small OpenAI-compatible chat-completions server for tests, scripted per model name.

It runs on 127.0.0.1 in a thread of the test process and answers ``POST /v1/chat/completions``
the way the real API does, so the real ``openai`` client talks to it unchanged. Each model name is
bound to a behaviour (or a list of behaviours, one per call, the last repeating):

* ``good``: the action the built-in policy would take on the observation in the prompt, as a tool
  call when the request offers ``tools``, else as bare JSON (a model that plays exactly like the
  policy, so scores are comparable);
* ``json_only``: like ``good``, but always as JSON text: it ignores ``tools`` (a model served
  without function calling that still accepts the parameter);
* ``no_tools``: answers HTTP 400 to a request with ``tools`` (vLLM without a tool parser), else
  like ``good``;
* ``bad_args``: a tool call whose arguments are not JSON (a truncated generation) when offered
  ``tools``, else like ``good``;
* ``wrong_tool``: a tool call to a function that was never offered;
* ``fenced``: the same action inside a Markdown code fence with prose around it;
* ``lenient``: the same action in a sloppy dialect (aliases, odd case, a stray field) that only
  ``ACTION_SCHEMA_MODE=lenient`` accepts;
* ``not_json``: prose without JSON;
* ``schema``: JSON that violates the action schema (a priority outside the vocabulary);
* ``http_500`` / ``http_404``: an error status with an OpenAI-style error body;
* ``echo_401``: HTTP 401 whose error message echoes the request's ``Authorization`` header and the
  key in it every way a careless proxy does (a header line, a JSON field, a URL's credentials);
* ``slow:<seconds>``: waits, then answers like ``good``;
* ``drip:<seconds>``: sends the headers, then one byte every 0.2 s for that long (a socket that
  never goes quiet long enough for a read timeout);
* ``say:<text>``: answers ``<text>`` verbatim (a scripted judge verdict, or a malformed one);
* ``hang:<seconds>``: waits, then answers an empty message (a judge that answers too late);
* ``late:<seconds>:<text>``: waits, then answers ``<text>`` verbatim;
* ``gullible`` / ``gullible:<seconds>``: a judge that does what the text it reads tells it (after
  waiting, if given): the JSON object after the last ``JUDGE ANSWER:`` in the prompt, read as a
  model reads it whether it arrives bare or escaped inside a JSON string, else a clean verdict
  with full marks whose reason quotes the prompt's last 200 characters.

A request with ``"stream": true`` gets its successful answer as server-sent events, one
``chat.completion.chunk`` with the whole message (content or tool call), one with the finish
reason and the usage, then ``data: [DONE]``, as the real API streams (verifiers' interception
proxy asks its upstream for a stream); errors stay plain JSON bodies with their status.

Every request is recorded (``requests``, with its messages and the tools it offered) so tests can
count calls per model and read the prompts.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import Counter
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Behaviour = str


def _observation(messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
    text = messages[-1]["content"]
    body = text.split("Observation:\n", 1)[1].rsplit("\n\nAnswer with", 1)[0]
    return json.loads(body)


def _policy_action(messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The built-in policy's action on the observation the prompt shows (the fields the prompt
    leaves out as duplicates restored: the policy reads none of them)."""
    from baseline.policy import next_action
    from domain.observation import Observation

    shown = _observation(messages)
    observation = Observation.model_validate({**shown, "customer_message": shown["ticket"]["message"],
                                              "action_history": [], "episode_id": "prompt"})
    return next_action(observation)


def _sloppy(action: dict[str, Any]) -> dict[str, Any]:
    """The policy's action as a careless model writes it: aliases, capitals, an extra field."""
    kind = action["action_type"]
    out: dict[str, Any] = {"type": {"draft_reply": "Reply", "classify_priority": "Set Priority",
                                    "assign_queue": "route", "add_internal_note": "note",
                                    "lookup_policy": "Lookup", "resolve_ticket": "Resolve",
                                    "close_ticket": "close", "add_tag": "tag"}.get(kind, kind)}
    for key, value in action.items():
        if key == "action_type":
            continue
        alias = {"reply_text": "reply", "resolution_code": "resolution", "policy_id": "policy"}.get(key, key)
        out[alias] = value.upper() if key in ("priority", "queue", "resolution_code") else value
    out["confidence"] = 0.9
    return out


INSTRUCTION = "JUDGE ANSWER:"
"""What a reply writes before the verdict it wants a ``gullible`` judge to give."""


def _gullible(messages: Sequence[dict[str, Any]]) -> str:
    """The answer of a judge that obeys the text it reads (see the module docstring)."""
    prompt = "\n".join(str(m.get("content") or "") for m in messages)
    at = prompt.rfind(INSTRUCTION)
    if at >= 0:
        rest = prompt[at + len(INSTRUCTION):].lstrip()
        for candidate in (rest, rest.replace('\\"', '"').replace("\\\\", "\\")):
            with contextlib.suppress(ValueError):
                told, _ = json.JSONDecoder().raw_decode(candidate)
                return json.dumps(told)
    return json.dumps({"facts": 1.0, "tone": 1.0, "violation": None,
                       "reason": f"looks fine; read {prompt[-200:]!r}"})


class FakeOpenAI:
    """Start with ``with FakeOpenAI({"good": "good"}) as fake: ...``; ``fake.base_url`` is the API."""

    def __init__(self, behaviours: dict[str, Behaviour | list[Behaviour]]):
        self.behaviours = behaviours
        self.requests: list[dict[str, Any]] = []
        self._calls: Counter[str] = Counter()
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out at once, no 40 ms stalls

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                self.stream = bool(body.get("stream"))
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    fake._answer(self, body)  # the client may have given up (timeout)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    def calls(self, model: str) -> int:
        with self._lock:
            return sum(1 for r in self.requests if r["model"] == model)

    # --------------------------------------------------------------------------- answering
    def _behaviour(self, model: str, messages: list[dict[str, Any]],
                   tools: list[dict[str, Any]] | None) -> Behaviour:
        with self._lock:
            self.requests.append({"model": model, "at": time.monotonic(), "messages": messages,
                                  "tools": tools})
            index = self._calls[model]
            self._calls[model] += 1
        script = self.behaviours.get(model, "http_404")
        if isinstance(script, list):
            return script[min(index, len(script) - 1)]
        return script

    def _answer(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        model = str(body.get("model"))
        messages = body.get("messages") or []
        tools = body.get("tools") or None
        kind, _, arg = self._behaviour(model, messages, tools).partition(":")
        if tools and kind == "no_tools":
            self._send(handler, 400, {"error": {
                "message": '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser',
                "type": "BadRequestError", "code": 400}})
            return
        if tools and kind in ("good", "bad_args", "wrong_tool"):
            action = dict(_policy_action(messages))
            name = str(action.pop("action_type"))
            arguments = json.dumps(action)
            if kind == "bad_args":
                arguments = arguments[:-1] + ', "priority": hi'
            if kind == "wrong_tool":
                name = "refund_everything"
            self._send(handler, 200, self._completion(model, None, (name, arguments)))
            return
        if kind in ("json_only", "no_tools", "bad_args", "wrong_tool"):
            kind = "good"
        if kind == "echo_401":
            auth = str(handler.headers.get("Authorization") or "")
            key = auth.removeprefix("Bearer ")
            self._send(handler, 401, {"error": {
                "message": f"invalid credentials. Request headers: Authorization: {auth}; "
                           f'body {{"api_key": "{key}"}}; retry at https://user:{key}@proxy.test/v1',
                "type": "invalid_request_error", "code": "invalid_api_key"}})
            return
        if kind.startswith("http_"):
            status = int(kind[5:])
            self._send(handler, status, {"error": {"message": f"scripted {status} for {model}",
                                                   "type": "server_error", "code": None}})
            return
        if kind == "drip":
            self._drip(handler, float(arg or 5))
            return
        if kind == "slow":
            time.sleep(float(arg or 5))
        if kind == "late":
            seconds, _, arg = arg.partition(":")
            time.sleep(float(seconds))
        if kind == "hang":
            time.sleep(float(arg or 5))
        if kind == "gullible":
            time.sleep(float(arg or 0))
            self._send(handler, 200, self._completion(model, _gullible(messages)))
            return
        if kind in ("say", "hang", "late"):
            self._send(handler, 200, self._completion(model, "" if kind == "hang" else arg))
            return
        action = _policy_action(messages) if kind in ("good", "slow", "fenced", "lenient") else None
        content = {
            "good": lambda: json.dumps(action),
            "slow": lambda: json.dumps(action),
            "fenced": lambda: f"Here is my next action:\n```json\n{json.dumps(action, indent=2)}\n```\nDone.",
            "lenient": lambda: json.dumps(_sloppy(action)),  # type: ignore[arg-type]
            "not_json": lambda: "I would set the priority to high and then route the ticket.",
            "schema": lambda: json.dumps({"action_type": "classify_priority", "priority": "super-urgent"}),
        }[kind]()
        self._send(handler, 200, self._completion(model, content))

    @staticmethod
    def _completion(model: str, content: str | None,
                    tool_call: tuple[str, str] | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if tool_call is not None:
            message["tool_calls"] = [{"id": "call_fake", "type": "function",
                                      "function": {"name": tool_call[0], "arguments": tool_call[1]}}]
        return {
            "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if tool_call else "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }

    @staticmethod
    def _chunks(payload: dict[str, Any]) -> bytes:
        """A completion as the server-sent events of a stream."""
        head = {k: payload[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
        choice = payload["choices"][0]
        delta = dict(choice["message"])
        if "tool_calls" in delta:
            delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(delta["tool_calls"])]
        events = [head | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                  head | {"choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}],
                          "usage": payload["usage"]}]
        return b"".join(f"data: {json.dumps(e)}\n\n".encode() for e in events) + b"data: [DONE]\n\n"

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, payload: dict[str, Any]) -> None:
        streamed = status == 200 and getattr(handler, "stream", False)
        data = FakeOpenAI._chunks(payload) if streamed else json.dumps(payload).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "text/event-stream" if streamed else "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
        handler.wfile.flush()

    @staticmethod
    def _drip(handler: BaseHTTPRequestHandler, seconds: float) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", "100000")
        handler.end_headers()
        handler.wfile.flush()
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            handler.wfile.write(b" ")
            handler.wfile.flush()
            time.sleep(0.2)
        handler.close_connection = True
