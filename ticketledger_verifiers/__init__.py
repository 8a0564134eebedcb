"""TicketLedger for Prime Intellect's ``verifiers`` 0.4: ``vf-eval ticketledger-verifiers``.

verifiers finds a taskset by importing the package its id names (``ticketledger-verifiers`` imports
this one) and takes the ``Taskset`` and ``Env`` subclasses it exports: :class:`TicketLedgerTaskset`
(one task per instance of a frozen split) and :class:`TicketLedgerEnv` (plays TicketLedger as the
conversation's user, the model on verifiers' tool-less ``null`` chat harness). The episodes and
their rewards are TicketLedger's own (:mod:`baseline.verifiers_env`): the reward ``ticketledger``
is the episode's exact score as the environment recorded it, the metrics each grade component's
earned value, the steps, the safety rules broken and the malformed answers.

Needs ``verifiers==0.4.0`` beside this project (docs/training.md#verifiers); nothing else in the
project imports this package.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf
from pydantic import field_validator

from baseline.chat import system_prompt
from baseline.verifiers_env import SPLITS, Episode, connect, instances

TASKSET_ID = "ticketledger-verifiers"


class TicketLedgerData(vf.TaskData):
    split: str
    index: int
    task_id: str
    seed: int


class TicketLedgerTask(vf.Task[TicketLedgerData]):
    @property
    def key(self) -> str:
        """The instance's place in its frozen split: stable across runs."""
        return f"{self.data.split}/{self.data.index}"


class TicketLedgerConfig(vf.TasksetConfig):
    split: str = "train"
    """The frozen split whose instances are the tasks: train (936), dev (313) or test (311)."""
    base_url: str | None = None
    """A running ``ticketledger serve`` (``http://127.0.0.1:8001``); unset: in this process."""
    database_url: str | None = None
    """In-process episodes' database; unset: ``DATABASE_URL``, else the default SQLite file."""

    @field_validator("split")
    @classmethod
    def _split(cls, value: str) -> str:
        if value not in SPLITS:
            raise ValueError(f"split {value!r} is not one of: {', '.join(SPLITS)}")
        return value


class TicketLedgerTaskset(vf.Taskset[TicketLedgerTask, TicketLedgerConfig]):
    def load(self) -> Iterator[TicketLedgerTask]:
        prompt = system_prompt("json")
        for instance in instances(self.config.split):
            yield TicketLedgerTask(
                TicketLedgerData(id=f"{instance.split}/{instance.index}",
                                 name=f"{instance.task_id}@{instance.seed}",
                                 description=instance.case, prompt=None, system_prompt=prompt,
                                 split=instance.split, index=instance.index,
                                 task_id=instance.task_id, seed=instance.seed),
                self.config.task)


class TicketLedgerEnvConfig(vf.EnvConfig):
    agent: vf.AgentConfig = vf.AgentConfig(harness={"id": "null"}, runtime={"type": "subprocess"})
    """The support agent: verifiers' plain chat loop (no tools; its answers are the actions), which
    runs no code, so it runs as a local process by default (``--env.agent.runtime.type prime``
    puts it in a Prime sandbox)."""


class TicketLedgerEnv(vf.Env[TicketLedgerEnvConfig]):
    async def run(self, task: TicketLedgerTask, agents: vf.Agents) -> None:
        config = self.taskset.config
        env = connect(config.base_url, config.database_url)
        episode = Episode(env, task.data.task_id, task.data.seed)
        turn: str | None = await asyncio.to_thread(episode.start)
        async with agents.agent.interaction(task) as interaction:
            while turn is not None:
                segment = await interaction.turn(turn)
                if segment.terminated:  # the agent's own limits (max_turns, tokens) ended it
                    break
                turn = await asyncio.to_thread(episode.act, segment.last_reply)
            # Recorded before the interaction closes, so verifiers' scoring sees it.
            outcome = await asyncio.to_thread(episode.outcome)
            trace = interaction.trace
            trace.record_reward("ticketledger", outcome.score)
            trace.record_metrics({"steps": float(outcome.steps),
                                  "malformed": float(outcome.malformed),
                                  "violations": float(len(outcome.violations)),
                                  **{f"component_{name}": value
                                     for name, value in outcome.components.items()}})
            trace.info["ticketledger"] = {
                "episode_id": outcome.episode_id, "task_id": outcome.task_id,
                "seed": task.data.seed, "score": outcome.score, "components": outcome.components,
                "violations": outcome.violations, "done": episode.done, "where": env.where}


def load_environment(split: str = "train", *, base_url: str | None = None,
                     database_url: str | None = None, **env: Any) -> vf.Env:
    """The environment verifiers would build for ``vf-eval ticketledger-verifiers
    --env.taskset.split SPLIT ...``: for code that drives verifiers itself (``env`` takes the
    other ``EnvConfig`` fields, e.g. ``agent``)."""
    config = TicketLedgerEnvConfig.model_validate({
        **env, "taskset": {"id": TASKSET_ID, "split": split, "base_url": base_url,
                           "database_url": database_url}})
    return vf.load_environment(config)


__all__ = ["TicketLedgerConfig", "TicketLedgerData", "TicketLedgerEnv", "TicketLedgerEnvConfig",
           "TicketLedgerTask", "TicketLedgerTaskset", "load_environment"]
