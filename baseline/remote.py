"""Stateful HTTP against a running TicketLedger server (``ENV_BASE_URL``), with the stdlib only.

``POST {base}/runs`` with ``{agent, config}`` records the run on the server and answers its
``run_id`` and ``run_secret`` (:meth:`RemoteEnv.open_run`); ``POST {base}/reset`` with ``{task_id,
seed, run_id}`` and the secret in the ``X-Run-Secret`` header answers ``{observation, reward, done,
episode_id}``; ``POST {base}/step`` with ``{"action": {...}, "episode_id": ...}`` answers
``{observation, reward, done, ...}``. The episode id travels in every body, so one connection per
thread (kept alive) serves any number of episodes. At the end of an episode ``GET
{base}/state?episode_id=...`` (an agent route: no audit token) supplies the exact score and the
hash-chain head; ``POST {base}/runs/{id}/finish`` stores the run's summary; ``POST {base}/end``
with ``{episode_id, reason: "cut_off"}`` ends an episode its driver stopped.
"""

from __future__ import annotations

import http.client
import json
import sys
import threading
from typing import Any
from urllib.parse import quote, urlsplit

from baseline.envs import ActionRefused, EnvStep

DEFAULT_TIMEOUT = 30.0
RUN_SECRET_HEADER = "X-Run-Secret"  # api/run_access.py reads it (not imported: this is stdlib-only)


class RemoteError(RuntimeError):
    """The server answered with an error status or something that is not the expected JSON."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class RemoteEnv:
    def __init__(self, base_url: str, timeout: float = DEFAULT_TIMEOUT, *, reward_mode: str = "dense"):
        self.reward_mode = reward_mode
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"ENV_BASE_URL must be an http(s) URL, not {base_url!r}")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port or (443 if self._https else 80)
        self._prefix = parts.path.rstrip("/")
        self._timeout = timeout
        self._local = threading.local()
        self._send_run_id = True
        self._run: tuple[str, str] | None = None  # (run_id, run_secret) of the run opened here
        self.where = f"{parts.scheme}://{parts.netloc}{self._prefix}"

    # -------------------------------------------------------------------------------- http
    def _connection(self, fresh: bool = False) -> http.client.HTTPConnection:
        conn = getattr(self._local, "conn", None)
        if conn is None or fresh:
            if conn is not None:
                conn.close()
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            conn = cls(self._host, self._port, timeout=self._timeout)
            self._local.conn = conn
        return conn

    def request(self, method: str, path: str, body: Any = None,
                extra_headers: dict[str, str] | None = None) -> Any:
        """One JSON request on this thread's kept-alive connection (reconnecting once if it died)."""
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Accept": "application/json", **(extra_headers or {})}
        if payload is not None:
            headers["Content-Type"] = "application/json"
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
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            raise RemoteError(f"{method} {path}: HTTP {response.status}, not JSON: {raw[:120]!r}",
                              response.status) from None
        if response.status >= 400:
            raise RemoteError(f"{method} {path}: HTTP {response.status}: {_message(data)}",
                              response.status)
        return data

    # -------------------------------------------------------------------------------- runs
    def open_run(self, agent: str, config: dict[str, Any]) -> str | None:
        """Record a run on the server and keep its secret for this run's resets; its run id, or
        None when the server has no ``POST /runs`` (an older one: the caller records the run)."""
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
        """The secret of the run opened (or joined) here, to share with other connections."""
        return None if self._run is None else self._run[1]

    def join_run(self, run_id: str, secret: str) -> None:
        """File this connection's resets under a run opened elsewhere (its id and secret)."""
        self._run = (run_id, secret)

    def finish_run(self, run_id: str, summary: dict[str, Any], status: str) -> None:
        """Store the run's summary on the server and end the run (it takes no more episodes)."""
        self.request("POST", f"/runs/{quote(run_id, safe='')}/finish",
                     {"status": status, "summary": summary}, self._secret_for(run_id))

    def _secret_for(self, run_id: str | None) -> dict[str, str]:
        if self._run is not None and run_id == self._run[0]:
            return {RUN_SECRET_HEADER: self._run[1]}
        return {}

    # ------------------------------------------------------------------------ environment
    def reset(self, task_id: str, seed: int | None, run_id: str | None) -> EnvStep:
        body: dict[str, Any] = {"task_id": task_id, "seed": seed}
        if self.reward_mode != "dense":  # only when asked: servers without reward modes keep working
            body["reward_mode"] = self.reward_mode
        if run_id and self._send_run_id:
            body["run_id"] = run_id
        try:
            data = self.request("POST", "/reset", body, self._secret_for(body.get("run_id")))
        except RemoteError as exc:
            # A server that does not take run_id: link episodes through the run record instead.
            if exc.status != 422 or "run_id" not in str(exc) or "run_id" not in body:
                raise
            self._send_run_id = False
            body.pop("run_id")
            print("[baseline] the server does not take run_id at /reset; the run record lists its "
                  "episodes instead", file=sys.stderr, flush=True)
            data = self.request("POST", "/reset", body)
        return self._out(data, None)

    def step(self, episode_id: str, action: dict[str, Any]) -> EnvStep:
        try:
            data = self.request("POST", "/step", {"action": action, "episode_id": episode_id})
        except RemoteError as exc:
            if exc.status == 422:
                raise ActionRefused(str(exc)) from None
            raise
        return self._out(data, episode_id)

    def end(self, episode_id: str) -> bool:
        """End the episode from outside a step as ``cut_off`` (``POST /end``); False when it had
        already ended (409). A server without the route raises (RemoteError 404 or 405)."""
        try:
            self.request("POST", "/end", {"episode_id": episode_id, "reason": "cut_off"})
        except RemoteError as exc:
            if exc.status == 409:
                return False
            raise
        return True

    def final(self, episode_id: str) -> dict[str, Any]:
        """The episode's exact score, chain head, step count and ``done`` from its public state
        (``GET /state``, an agent route: no audit token needed). A failure raises (RemoteError,
        OSError): it is not an empty answer."""
        data = self.request("GET", f"/state?episode_id={quote(episode_id, safe='')}")
        if not isinstance(data, dict) or data.get("episode_id") != episode_id:
            raise RemoteError(f"GET /state did not describe episode {episode_id}: {str(data)[:160]}")
        return {k: data[k] for k in ("score", "head_hash", "step_count", "done") if k in data}

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()

    @staticmethod
    def _out(data: Any, episode_id: str | None) -> EnvStep:
        if not isinstance(data, dict) or not isinstance(data.get("observation"), dict):
            raise RemoteError(f"expected {{observation, reward, done}}, got {str(data)[:160]}")
        observation = data["observation"]
        eid = data.get("episode_id") or observation.get("episode_id") or episode_id
        if not eid:
            raise RemoteError("the server did not say which episode this is (no episode_id)")
        reward = data.get("reward")
        return EnvStep(str(eid), observation, float(reward) if isinstance(reward, (int, float)) else None,
                       bool(data.get("done", observation.get("done", False))),
                       data.get("score") if isinstance(data.get("score"), (int, float)) else None,
                       data.get("head_hash") if isinstance(data.get("head_hash"), str) else None,
                       data.get("grade") if isinstance(data.get("grade"), dict) else None)


def _message(data: Any) -> str:
    if isinstance(data, dict):
        for key in ("message", "detail", "error"):
            value = data.get(key)
            if isinstance(value, str):
                return value
            if isinstance(value, (dict, list)):
                return json.dumps(value)[:300]
    return str(data)[:300]
