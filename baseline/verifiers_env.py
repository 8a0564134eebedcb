"""TicketLedger episodes as Prime Intellect's ``verifiers`` (0.4, ``verifiers.v1``) plays them.

verifiers 0.4 runs an environment as an ``Env`` whose ``run()`` plays the user's side of a chat:
here the user is TicketLedger. Each turn sends the model the observation (the same compact JSON and
instruction the LLM agent and the TRL adapter show, ``baseline/chat.py``), the model answers with
one action as JSON, and the answer becomes one step in TicketLedger's event log, until the ticket
is resolved or closed or the step budget is spent. The reward is the episode's exact score as
TicketLedger recorded it and the metrics are its grade's components, read from the environment's
own answers, so verifiers never judges anything itself.

This module holds everything that does not need verifiers (so it is typed and tested with the
rest); the plugin verifiers loads by id, ``ticketledger_verifiers``, wraps :class:`Episode` in
verifiers' classes. Episodes run in this process on a database (``DATABASE_URL``, else the default
SQLite file) or against a running ``ticketledger serve`` (``base_url``), recorded like any other.

An answer that is not an action (not JSON, outside the vocabulary) must not end the rollout and
must not be free, or a policy learns nothing from producing it: it is recorded as a no-op step
whose ``metadata`` keeps what was sent and why it was refused (penalised as stalling, as in the
Gymnasium adapter), and the next turn says what to fix.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from baseline.chat import USER_ANSWER, BadReply, action_from_reply, observation_text
from baseline.envs import ActionRefused, Env, EnvStep

SPLITS = ("train", "dev", "test")
KEPT_CHARS = 2000
"""How much of an answer that is not an action the log keeps."""
SOURCE = "verifiers"
"""The agent name under which an eval's run is filed on a server."""


@dataclass(frozen=True)
class Instance:
    """One instance of a frozen split: what a task row of the taskset plays."""

    split: str
    index: int
    task_id: str
    seed: int
    case: str


def instances(split: str) -> list[Instance]:
    """The instances of ``split`` (train, dev, test) in manifest order; a ValueError names the
    splits."""
    from domain.tasks import default_catalog

    if split not in SPLITS:
        raise ValueError(f"split {split!r} is not one of: {', '.join(SPLITS)}")
    refs = default_catalog().split(split)
    return [Instance(split, i, ref.task_id, ref.seed, ref.case) for i, ref in enumerate(refs)]


_LOCAL: dict[str, Env] = {}
_LOCAL_LOCK = threading.Lock()


def connect(base_url: str | None = None, database_url: str | None = None) -> Env:
    """The environment episodes are played on: a running server at ``base_url`` (stateful HTTP,
    :class:`baseline.remote.RemoteEnv`), else the environment service in this process on
    ``database_url`` (``DATABASE_URL``, else the default SQLite file), one per URL, so every
    episode on one log shares its state cache as a server's sessions do."""
    if base_url:
        from baseline.remote import RemoteEnv

        return RemoteEnv(base_url)
    from service.settings import read

    url = database_url or read().database_url
    with _LOCAL_LOCK:
        if url not in _LOCAL:
            from baseline.envs import LocalEnv
            from store import open_database

            _LOCAL[url] = LocalEnv(open_database(url))
        return _LOCAL[url]


def noop_for(answer: str, error: str) -> dict[str, Any]:
    """The step an answer that is not an action is recorded as: a no-op (penalised as stalling)
    whose ``metadata`` keeps what was sent and why it was refused."""
    def kept(text: str) -> str:
        return text[:KEPT_CHARS].encode("utf-8", "replace").decode("utf-8")

    return {"action_type": "noop", "metadata": {"malformed_action": kept(answer), "error": kept(error)}}


def prompt_for(observation: Mapping[str, Any], error: str | None = None) -> str:
    """One user turn: why the last answer was refused (if it was), the observation as compact
    JSON, and how to answer."""
    told = f"Your last answer was not an action: {error}\n\n" if error else ""
    return f"{told}Observation:\n{observation_text(observation)}\n\n{USER_ANSWER['json']}"


@dataclass
class Outcome:
    """What TicketLedger recorded for one episode."""

    episode_id: str
    task_id: str
    score: float
    """The episode's exact score from the environment's record."""
    components: dict[str, float]
    """Each grade component's earned value, by name, after the last step."""
    violations: list[str]
    """The safety rules the episode broke."""
    steps: int
    malformed: int
    """Answers that were not actions (each recorded as a penalised no-op)."""


@dataclass
class Episode:
    """One TicketLedger episode driven by a model's text answers."""

    env: Env
    task_id: str
    seed: int
    run_id: str | None = None
    episode_id: str | None = None
    last: EnvStep | None = None
    steps: int = 0
    malformed: int = 0

    @property
    def done(self) -> bool:
        return self.last is not None and self.last.done

    def start(self) -> str:
        """Open the episode; the first user turn."""
        self.last = self.env.reset(self.task_id, self.seed, self.run_id)
        self.episode_id = self.last.episode_id
        return prompt_for(self.last.observation)

    def act(self, answer: str) -> str | None:
        """Record ``answer`` as the next step; the next user turn, or None when the episode is
        over."""
        if self.episode_id is None or self.last is None:
            raise RuntimeError("start() the episode before acting")
        if self.done:
            raise RuntimeError(f"episode {self.episode_id} is over")
        error: str | None = None
        try:
            action = action_from_reply(answer).body
        except BadReply as exc:
            error, action = str(exc), None
        step: EnvStep | None = None
        if action is not None:
            try:
                step = self.env.step(self.episode_id, action)
            except ActionRefused as exc:
                error = str(exc)
        if step is None:
            assert error is not None
            self.malformed += 1
            step = self.env.step(self.episode_id, noop_for(answer, error))
        self.last = step
        self.steps += 1
        return None if step.done else prompt_for(step.observation, error)

    def outcome(self) -> Outcome:
        """The episode's record: its exact score from the environment's state and the last
        step's public grade."""
        if self.episode_id is None or self.last is None:
            raise RuntimeError("start() the episode first")
        final = self.env.final(self.episode_id)
        grade = self.last.grade or {}
        components = {str(c["name"]): float(c["earned"]) for c in grade.get("components", [])}
        violations = [str(v["rule"]) for v in grade.get("violations", [])]
        return Outcome(self.episode_id, self.task_id, float(final["score"]), components, violations,
                       self.steps, self.malformed)
