"""The environment as the runner sees it (``baseline.envs.Env``), on a running TicketLedger server
(``ENV_BASE_URL``): a thin use of the one client, :class:`baseline.client.TicketLedgerClient`.

The client speaks stateful HTTP: ``POST {base}/runs`` with ``{agent, config}`` records the run and
answers its ``run_id`` and ``run_secret`` (:meth:`RemoteEnv.open_run`); ``POST {base}/reset`` with
``{task_id, seed, run_id}`` and the secret in the ``X-Run-Secret`` header answers ``{observation,
reward, done, episode_id}``; ``POST {base}/step`` with ``{"action": {...}, "episode_id": ...}``
answers ``{observation, reward, done, ...}``. The episode id travels in every body, so one
connection per thread (kept alive) serves any number of episodes. At the end of an episode ``GET
{base}/state?episode_id=...`` (an agent route: no audit token) supplies the exact score and the
hash-chain head; ``POST {base}/runs/{id}/finish`` stores the run's summary; ``POST {base}/end``
with ``{episode_id, reason: "cut_off"}`` ends an episode its driver stopped. What this module adds
is the runner's shape of it: :class:`~baseline.envs.EnvStep` answers, a refused action as
:class:`~baseline.envs.ActionRefused`, and a server too old to take ``run_id`` at reset.
"""

from __future__ import annotations

import sys
from typing import Any

from baseline.client import DEFAULT_TIMEOUT, RemoteError, TicketLedgerClient
from baseline.envs import ActionRefused, EnvStep

__all__ = ["DEFAULT_TIMEOUT", "RemoteEnv", "RemoteError"]


class RemoteEnv:
    def __init__(self, base_url: str, timeout: float = DEFAULT_TIMEOUT, *, reward_mode: str = "dense"):
        self.reward_mode = reward_mode
        try:
            self.client = TicketLedgerClient(base_url, timeout=timeout)
        except ValueError:
            raise ValueError(f"ENV_BASE_URL must be an http(s) URL, not {base_url!r}") from None
        self.where = self.client.where
        self._send_run_id = True

    def request(self, method: str, path: str, body: Any = None,
                extra_headers: dict[str, str] | None = None) -> Any:
        """One JSON request to the server (:meth:`TicketLedgerClient.request`)."""
        return self.client.request(method, path, body, extra_headers)

    # -------------------------------------------------------------------------------- runs
    def open_run(self, agent: str, config: dict[str, Any]) -> str | None:
        """Record a run on the server (:meth:`TicketLedgerClient.open_run`); None when the server
        has no ``POST /runs`` (an older one: the caller records the run)."""
        return self.client.open_run(agent, config)

    @property
    def run_secret(self) -> str | None:
        """The secret of the run opened (or joined) here, to share with other connections."""
        return self.client.run_secret

    def join_run(self, run_id: str, secret: str) -> None:
        """File this connection's resets under a run opened elsewhere (its id and secret)."""
        self.client.join_run(run_id, secret)

    def finish_run(self, run_id: str, summary: dict[str, Any], status: str) -> None:
        """Store the run's summary on the server and end the run (it takes no more episodes)."""
        self.client.finish_run(run_id, summary, status)

    # ------------------------------------------------------------------------ environment
    def reset(self, task_id: str, seed: int | None, run_id: str | None) -> EnvStep:
        body: dict[str, Any] = {"task_id": task_id, "seed": seed}
        if self.reward_mode != "dense":  # only when asked: servers without reward modes keep working
            body["reward_mode"] = self.reward_mode
        if run_id and self._send_run_id:
            body["run_id"] = run_id
        try:
            data = self.client.reset(**body)
        except RemoteError as exc:
            # A server that does not take run_id: link episodes through the run record instead.
            if exc.status != 422 or "run_id" not in str(exc) or "run_id" not in body:
                raise
            self._send_run_id = False
            body.pop("run_id")
            print("[baseline] the server does not take run_id at /reset; the run record lists its "
                  "episodes instead", file=sys.stderr, flush=True)
            data = self.client.reset(**body)
        return self._out(data, None)

    def step(self, episode_id: str, action: dict[str, Any]) -> EnvStep:
        try:
            data = self.client.step(action, episode_id)
        except RemoteError as exc:
            if exc.status == 422:
                raise ActionRefused(str(exc)) from None
            raise
        return self._out(data, episode_id)

    def end(self, episode_id: str) -> bool:
        """End the episode from outside a step as ``cut_off`` (``POST /end``); False when it had
        already ended (409). A server without the route raises (RemoteError 404 or 405)."""
        try:
            self.client.end(episode_id)
        except RemoteError as exc:
            if exc.status == 409:
                return False
            raise
        return True

    def final(self, episode_id: str) -> dict[str, Any]:
        """The episode's exact score, chain head, step count and ``done`` from its public state
        (``GET /state``, an agent route: no audit token needed). A failure raises (RemoteError,
        OSError): it is not an empty answer."""
        data = self.client.state(episode_id)
        if data.get("episode_id") != episode_id:
            raise RemoteError(f"GET /state did not describe episode {episode_id}: {str(data)[:160]}")
        return {k: data[k] for k in ("score", "head_hash", "step_count", "done") if k in data}

    def close(self) -> None:
        self.client.close()

    @staticmethod
    def _out(data: dict[str, Any], episode_id: str | None) -> EnvStep:
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
