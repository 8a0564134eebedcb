"""One client for a TicketLedger server: reset, step and state over stateful HTTP or ``/ws``, runs.

:class:`TicketLedgerClient` is the client the project's own code plays a server with: the runner
behind ``inference.py`` and the TRL adapter (through ``baseline.remote.RemoteEnv``), the verifiers
environment, the HTTP benchmarks, and ``ticketledger.client`` (which exports it, and whose OpenEnv
``TicketLedgerEnv`` reads answers with :func:`action_body` and :func:`episode_of`).

* **HTTP** (``transport="http"``, the default): ``POST /reset`` with the reset's fields, ``POST
  /step`` with ``{"action", "episode_id"}``, ``GET /state?episode_id=``; one kept-alive connection
  per thread (reconnecting once if it died). An episode is named in every request, so one client
  serves any number of episodes at once; with ``cookies=True`` the cookies the server sets are sent
  back, so a step that names no episode goes to the one this client's last reset opened (what the
  SupportOps seed's clients rely on).
* **/ws** (``transport="ws"``): OpenEnv's session protocol on one connection, ``{"type": "reset" |
  "step" | "state", "data"}``; the session follows its episode, and a step may name another.

Both answer the same JSON (a reset or step answer: ``observation``, ``reward``, ``done``,
``episode_id``, ``head_hash``, ``grade``, ...; a state: the public state), and after each the
client holds the episode's id, hash-chain head and last grade. A failure raises
:class:`RemoteError`: the HTTP status, or OpenEnv's error code over ``/ws``. Runs (``POST /runs``,
the run secret a reset under it sends, ``POST /runs/{id}/finish``) are HTTP routes on either
transport.

HTTP needs the standard library only; ``/ws`` imports ``websockets`` (a dependency of
``uvicorn[standard]``) when first used; OpenEnv is never imported, so ``inference.py`` stays light.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Mapping
from contextlib import ExitStack
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote, urlsplit

from pydantic import BaseModel

if TYPE_CHECKING:
    from websockets.sync.client import ClientConnection

DEFAULT_TIMEOUT = 30.0
RUN_SECRET_HEADER = "X-Run-Secret"  # api/run_access.py reads it (the client does not import api)
Transport = Literal["http", "ws"]


class RemoteError(RuntimeError):
    """The server answered with an error (``status``: the HTTP status; ``code``: OpenEnv's error
    code over ``/ws``) or with something that is not the expected JSON."""

    def __init__(self, message: str, status: int | None = None, code: str | None = None):
        super().__init__(message)
        self.status = status
        self.code = code


def action_body(action: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
    """An action as the server takes it: a domain model (``ClassifyPriority(priority="high")``, the
    ``CombinedAction``) as its JSON without unset fields, a mapping as it is."""
    if isinstance(action, BaseModel):
        body: dict[str, Any] = action.model_dump(mode="json", exclude_none=True)
        return body
    if isinstance(action, Mapping):
        return dict(action)
    raise TypeError(f"an action is a pydantic model or a dict, not {type(action).__name__}")


def episode_of(answer: Mapping[str, Any]) -> str | None:
    """The episode a reset or step answer is about (its ``episode_id``, else the observation's)."""
    observation = answer.get("observation")
    found = answer.get("episode_id") or (observation.get("episode_id")
                                         if isinstance(observation, dict) else None)
    return found if isinstance(found, str) else None


class TicketLedgerClient:
    """A TicketLedger server at ``base_url`` (``http(s)://host:port[/prefix]``), over stateful
    HTTP or ``/ws`` (module docstring). ``episode_id``, ``head_hash`` and ``grade`` (JSON of the
    public grade; None after a reset) describe the last answer; ``close()`` (or ``with``) ends
    the connections."""

    def __init__(self, base_url: str, *, transport: Transport = "http",
                 timeout: float = DEFAULT_TIMEOUT, cookies: bool = False):
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"a TicketLedger server's URL is http(s)://host[:port], not {base_url!r}")
        if transport not in ("http", "ws"):
            raise ValueError(f"transport={transport!r}; one of http, ws")
        self.transport = transport
        self.where = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port or (443 if self._https else 80)
        self._prefix = parts.path.rstrip("/")
        self._timeout = timeout
        self._local = threading.local()
        self._cookies: dict[str, str] | None = {} if cookies else None
        self._ws: ClientConnection | None = None
        self._ws_lock = threading.Lock()
        self._ws_stack = ExitStack()  # the connection's context: leaving it closes the connection
        self._run: tuple[str, str] | None = None  # (run_id, run_secret) opened or joined here
        self.episode_id: str | None = None
        self.head_hash: str | None = None
        self.grade: dict[str, Any] | None = None

    def __enter__(self) -> TicketLedgerClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------ environment
    def reset(self, **fields: Any) -> dict[str, Any]:
        """Start an episode (``task_id``, ``seed``, ``episode_id``, ``run_id``, ``reward_mode``,
        ``split``, ``index``: what ``POST /reset`` takes); the first observation's answer. Under
        a run opened or joined here, the run's secret goes with it."""
        if self.transport == "ws":
            return self._answer(self._exchange({"type": "reset", "data": fields}))
        headers = self._secret_for(fields.get("run_id"))
        return self._answer(self.request("POST", "/reset", fields, headers))

    def step(self, action: BaseModel | Mapping[str, Any], episode_id: str | None = None) -> dict[str, Any]:
        """Take one action (:func:`action_body`) in ``episode_id`` (over HTTP: else the cookie's
        episode, the latest anonymous reset; over ``/ws``: else the session's); the step answer."""
        body = action_body(action)
        if self.transport == "ws":
            data = body if episode_id is None else {**body, "episode_id": episode_id}
            return self._answer(self._exchange({"type": "step", "data": data}))
        wrapped: dict[str, Any] = {"action": body}
        if episode_id is not None:
            wrapped["episode_id"] = episode_id
        return self._answer(self.request("POST", "/step", wrapped))

    def state(self, episode_id: str | None = None) -> dict[str, Any]:
        """The public state of ``episode_id`` (else the episode the server routes to, as a step)."""
        if self.transport == "ws":
            data = self._exchange({"type": "state"})
        else:
            query = "" if episode_id is None else f"?episode_id={quote(episode_id, safe='')}"
            data = self.request("GET", "/state" + query)
        if not isinstance(data, dict):
            raise RemoteError(f"expected the public state, got {str(data)[:160]}")
        return data

    def end(self, episode_id: str | None = None, reason: str = "cut_off") -> dict[str, Any]:
        """End ``episode_id`` (else the episode the server routes to, as a step) from outside a
        step (``POST /end``): for a driver that stops an episode before it ends (a trainer's
        budget). Over ``/ws`` the server ends the session's episode when the session closes, so
        this is an HTTP call on either transport. A 409 :class:`RemoteError` if it had ended."""
        body: dict[str, Any] = {"reason": reason}
        if episode_id is not None:
            body["episode_id"] = episode_id
        data = self.request("POST", "/end", body)
        if not isinstance(data, dict):
            raise RemoteError(f"POST /end: expected the ended episode, got {str(data)[:160]}")
        return data

    def _answer(self, data: Any) -> dict[str, Any]:
        """Take in a reset or step answer: remember its episode, chain head and grade."""
        if not isinstance(data, dict) or not isinstance(data.get("observation"), dict):
            raise RemoteError(f"expected {{observation, reward, done}}, got {str(data)[:160]}")
        self.episode_id = episode_of(data) or self.episode_id
        head = data.get("head_hash")
        self.head_hash = head if isinstance(head, str) else self.head_hash
        grade = data.get("grade")
        self.grade = grade if isinstance(grade, dict) else None
        return data

    # -------------------------------------------------------------------------------- runs
    def open_run(self, agent: str, config: dict[str, Any]) -> str | None:
        """Record a run on the server and keep its secret for this client's resets under it; its
        id, or None when the server has no ``POST /runs`` (an older one)."""
        try:
            data = self.request("POST", "/runs", {"agent": agent, "config": config})
        except RemoteError as exc:
            if exc.status in (404, 405):
                return None
            raise
        if not isinstance(data, dict) or not isinstance(data.get("run_id"), str) \
                or not isinstance(data.get("run_secret"), str):
            raise RemoteError(f"POST /runs: expected {{run_id, run_secret}}, got {str(data)[:160]}")
        run_id: str = data["run_id"]
        self._run = (run_id, data["run_secret"])
        return run_id

    @property
    def run_secret(self) -> str | None:
        """The secret of the run opened (or joined) here, to share with other clients."""
        return None if self._run is None else self._run[1]

    def join_run(self, run_id: str, secret: str) -> None:
        """File this client's resets under a run opened elsewhere (its id and secret)."""
        self._run = (run_id, secret)

    def finish_run(self, run_id: str, summary: dict[str, Any], status: str) -> None:
        """Store the run's summary on the server and end the run (it takes no more episodes)."""
        self.request("POST", f"/runs/{quote(run_id, safe='')}/finish",
                     {"status": status, "summary": summary}, self._secret_for(run_id))

    def _secret_for(self, run_id: object) -> dict[str, str]:
        if self._run is not None and run_id == self._run[0]:
            return {RUN_SECRET_HEADER: self._run[1]}
        return {}

    # -------------------------------------------------------------------------------- http
    def request(self, method: str, path: str, body: Any = None,
                extra_headers: Mapping[str, str] | None = None) -> Any:
        """One JSON request on this thread's kept-alive connection (reconnecting once if it died);
        the answer's JSON, or :class:`RemoteError` for a status of 400 or more."""
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Accept": "application/json", **(extra_headers or {})}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        if self._cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self._cookies.items())
        for attempt in (0, 1):
            conn = self._connection(fresh=attempt == 1)
            try:
                conn.request(method, self._prefix + path, body=payload, headers=headers)
                response = conn.getresponse()
                raw = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
                    http.client.CannotSendRequest, http.client.ResponseNotReady):
                if attempt:
                    raise
        if self._cookies is not None:
            for header in response.msg.get_all("Set-Cookie") or ():
                self._cookies.update({k: m.value for k, m in SimpleCookie(header).items()})
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            raise RemoteError(f"{method} {path}: HTTP {response.status}, not JSON: {raw[:120]!r}",
                              response.status) from None
        if response.status >= 400:
            raise RemoteError(f"{method} {path}: HTTP {response.status}: {_message(data)}",
                              response.status)
        return data

    def _connection(self, fresh: bool = False) -> http.client.HTTPConnection:
        conn: http.client.HTTPConnection | None = getattr(self._local, "conn", None)
        if conn is None or fresh:
            if conn is not None:
                conn.close()
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            conn = cls(self._host, self._port, timeout=self._timeout)
            self._local.conn = conn
        return conn

    # ---------------------------------------------------------------------------------- ws
    def _exchange(self, message: dict[str, Any]) -> Any:
        """Send one ``/ws`` message and read its answer's ``data`` (an error frame raises)."""
        with self._ws_lock:
            if self._ws is None:
                from websockets.sync.client import connect

                scheme = "wss" if self._https else "ws"
                self._ws = self._ws_stack.enter_context(connect(
                    f"{scheme}://{self._host}:{self._port}{self._prefix}/ws",
                    open_timeout=self._timeout, max_size=None))
            self._ws.send(json.dumps(message))
            raw = self._ws.recv(timeout=self._timeout)
        answer = json.loads(raw)
        data = answer.get("data") if isinstance(answer, dict) else None
        if not isinstance(answer, dict) or answer.get("type") == "error":
            error = data if isinstance(data, dict) else {}
            raise RemoteError(f"/ws {message['type']}: {error.get('code', 'UNKNOWN')}: "
                              f"{_message(error)}", code=error.get("code"))
        return data

    def close(self) -> None:
        """Close this thread's HTTP connection and the ``/ws`` session."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
        with self._ws_lock:
            if self._ws is not None:
                from websockets.exceptions import ConnectionClosed

                try:
                    self._ws.send(json.dumps({"type": "close"}))
                except (ConnectionClosed, OSError):
                    pass  # the server went first
                finally:
                    self._ws_stack.close()
                    self._ws = None


def _message(data: Any) -> str:
    if isinstance(data, dict):
        for key in ("message", "detail", "error"):
            value = data.get(key)
            if isinstance(value, str):
                return value
            if isinstance(value, (dict, list)):
                return json.dumps(value)[:300]
    return str(data)[:300]
