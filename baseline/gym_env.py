"""TicketLedger as a Gymnasium environment: ``gymnasium.make("TicketLedger-v0", ...)``.

For the RL code that speaks Gymnasium rather than chat: the observation is text (the observation
as compact JSON, the same text the LLM agent and the TRL adapter show a model; ASCII only, so
``gymnasium.spaces.Text`` can hold it) and so is the action (the JSON of one action,
``{"action_type": "classify_priority", "priority": "high"}``). ``terminated`` is the ticket
resolved or closed, ``truncated`` the step budget spent; ``info`` carries the step's public grade
(the grader's public reason, each component's earned value, penalties, violations) and the
episode's exact score, so a trainer can log the components beside the reward.

A malformed action (not JSON, not an object, a value outside the vocabulary) must not stop a
rollout and must not be free, or a policy learns nothing from producing it: it is recorded as a
no-op step that carries what was sent and why it was refused (under the action's ``metadata``,
which the rules ignore), penalised as stalling, and ``info["action_error"]`` says what to fix.

Everything goes through :class:`service.EnvironmentService`; the vector form steps all its
sub-environments with one ``step_many`` (one commit per batch). Importing this module registers
``TicketLedger-v0`` (``gymnasium.make("baseline.gym_env:TicketLedger-v0")`` imports it first);
Gymnasium is the ``gym`` extra (``pip install "openenv-ticketledger[gym]"``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from baseline.chat import observation_text
from domain.actions import InvalidAction, parse_action
from domain.rewards import DEFAULT_REWARD_MODE, UnknownRewardMode, check_reward_mode
from domain.tasks.catalog import UnknownTask
from service import EnvironmentService, ResetRequest, StepResult
from service.errors import ServiceError

ENV_ID = "TicketLedger-v0"
CHARSET = "".join(chr(code) for code in range(32, 127))
"""Printable ASCII: every character of an observation (JSON with non-ASCII escaped), and of an
action as ``json.dumps`` writes it."""
OBSERVATION_MAX_CHARS = 1 << 20
"""Longest observation text: far above what any episode can show (every note and message at its
length limit, written in characters JSON escapes to twelve), so an observation is always in the
space."""
ACTION_MAX_CHARS = 1 << 15
"""Longest action text in the space: the longest reply (4,000 characters) escaped by
``json.dumps`` with room to spare. A longer one is still taken and judged (refused as too long)."""
KEPT_CHARS = 2000
"""How much of a malformed action the log keeps."""
SEED_BOUND = 2**31
"""Seeds drawn from the environment's generator lie in ``[0, SEED_BOUND)``."""

_SERVICES: dict[str, EnvironmentService] = {}
_SERVICES_LOCK = threading.Lock()


def service_for(database_url: str | None = None) -> EnvironmentService:
    """One environment service per database URL in this process (``DATABASE_URL``, else the
    default SQLite file, when None): every environment on one log shares its state cache and
    claims, as the server's sessions do."""
    from service.settings import read

    url = database_url or read().database_url
    with _SERVICES_LOCK:
        if url not in _SERVICES:
            from store import open_database

            _SERVICES[url] = EnvironmentService(open_database(url))
        return _SERVICES[url]


def _spaces() -> tuple[spaces.Text, spaces.Text]:
    return (spaces.Text(OBSERVATION_MAX_CHARS, min_length=1, charset=CHARSET),
            spaces.Text(ACTION_MAX_CHARS, min_length=0, charset=CHARSET))


# ----------------------------------------------------------------------------------- choosing
@dataclass(frozen=True)
class Choice:
    """Which episodes a reset opens: a task (its variant from the seed), a frozen split (instance
    ``index``, or one drawn from the seed), or neither (the catalog picks the task from the seed)."""

    task_id: str | None = None
    split: str | None = None
    index: int | None = None
    reward_mode: str = DEFAULT_REWARD_MODE

    @classmethod
    def of(cls, service: EnvironmentService, task_id: str | None, split: str | None,
           index: int | None, reward_mode: str) -> Choice:
        """Checked against the catalog; a ValueError says what to pass instead."""
        if task_id is not None and (split is not None or index is not None):
            raise ValueError("pass task_id, or split (and optionally index), not both")
        if index is not None and split is None:
            raise ValueError("index needs a split: train, dev or test")
        if task_id is not None:
            try:
                service.catalog.spec(task_id)
            except UnknownTask as exc:
                raise ValueError(f"{exc.args[0]} (or a family's, {service.catalog.family_ids[0]} "
                                 "and the like)" if service.catalog.family_ids else exc.args[0]
                                 ) from None
        if split is not None:
            try:
                size = len(service.catalog.split(split))
                if index is not None:
                    service.catalog.split_instance(split, int(index))
            except (ValueError, KeyError) as exc:
                raise ValueError(str(exc).strip("'\"")) from None
            if size == 0:
                raise ValueError(f"split {split!r} has no instances")
        try:
            mode = check_reward_mode(reward_mode)
        except UnknownRewardMode as exc:
            raise ValueError(str(exc)) from None
        return cls(task_id, split, None if index is None else int(index), mode)

    def with_options(self, service: EnvironmentService, options: Mapping[str, Any] | None) -> Choice:
        """This choice with a reset's ``options`` (``task_id``, ``split``, ``index``,
        ``reward_mode``) in place of the constructor's."""
        if not options:
            return self
        known = {"task_id", "split", "index", "reward_mode", "reset_mask"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown reset option {unknown[0]!r}; the options are: task_id, split, "
                             "index, reward_mode")
        chooses = {"task_id", "split", "index"} & set(options)
        task_id, split, index = ((options.get("task_id"), options.get("split"), options.get("index"))
                                 if chooses else (self.task_id, self.split, self.index))
        return Choice.of(service, task_id, split, index,
                         str(options.get("reward_mode", self.reward_mode)))

    def request(self, service: EnvironmentService, rng: np.random.Generator,
                seed: int | None) -> tuple[ResetRequest, dict[str, Any]]:
        """The reset to send and its ``info``. ``seed`` (the one passed to ``reset``) is the
        variant's seed; without it one is drawn from ``rng``, as is a split's index when none
        was chosen, so a seeded environment replays the same episodes."""
        if self.split is not None:
            index = self.index if self.index is not None else int(
                rng.integers(len(service.catalog.split(self.split))))
            ref = service.catalog.split_instance(self.split, index)
            return (ResetRequest(split=self.split, index=index, reward_mode=self.reward_mode),
                    {"task_id": ref.task_id, "seed": ref.seed, "split": self.split, "index": index,
                     "reward_mode": self.reward_mode})
        chosen = seed if seed is not None else int(rng.integers(SEED_BOUND))
        task_id = self.task_id or service.catalog.pick_task_id(chosen)
        return (ResetRequest(task_id=task_id, seed=chosen, reward_mode=self.reward_mode),
                {"task_id": task_id, "seed": chosen, "reward_mode": self.reward_mode})


# ----------------------------------------------------------------------------------- stepping
def action_body(action: Any) -> tuple[dict[str, Any] | None, str | None]:
    """The action to send for ``action`` (JSON text of one action, or a mapping), or None and
    why it cannot be one: checked by the rules' own parser first, so a batch holds every step,
    the refused ones as their penalised no-ops."""
    if isinstance(action, Mapping):
        raw: Any = dict(action)
    elif not isinstance(action, str):
        return None, f"an action is the JSON text of one action, not {type(action).__name__}"
    else:
        try:
            raw = json.loads(action)
        except json.JSONDecodeError as exc:
            return None, (f"the action is not JSON ({exc.msg} at character {exc.pos}); send one "
                          'action as a JSON object, e.g. {"action_type": "noop"}')
    if not isinstance(raw, dict):
        return None, f"an action is a JSON object with an action_type, not a JSON {type(raw).__name__}"
    try:
        parse_action(raw)
    except InvalidAction as exc:
        return None, str(exc)
    return raw, None


def penalised_noop(action: Any, error: str) -> dict[str, Any]:
    """The step a malformed action is recorded as: a no-op (penalised as stalling) whose
    ``metadata`` keeps what was sent and why it was refused."""
    sent = action if isinstance(action, str) else repr(action)
    sent = sent[:KEPT_CHARS].encode("utf-8", "replace").decode("utf-8")
    return {"action_type": "noop",
            "metadata": {"malformed_action": sent,
                         "error": error[:KEPT_CHARS].encode("utf-8", "replace").decode("utf-8")}}


def step_info(result: StepResult, action_error: str | None) -> dict[str, Any]:
    """A step's ``info``: the public grade (its reason and each component's earned value, flat
    for loggers, and the whole grade), the exact score, how the episode ended, and the reason a
    malformed action was refused."""
    grade = result.public_grade
    info: dict[str, Any] = {"score": float(result.score), "step": result.state.step_count,
                            "end_reason": result.state.end_reason or ""}
    if grade is not None:
        info["reason"] = grade.reason
        info["components"] = {c.name: c.earned for c in grade.components}
        info["grade"] = grade.model_dump(mode="json")
    if action_error is not None:
        info["action_error"] = action_error
    return info


def observation_of(result: StepResult) -> str:
    return observation_text(result.observation.model_dump(mode="json"))


def outcome(result: StepResult, action_error: str | None
            ) -> tuple[str, float, bool, bool, dict[str, Any]]:
    return (observation_of(result), float(result.reward or 0.0), result.state.terminated,
            result.state.truncated, step_info(result, action_error))


# ----------------------------------------------------------------------------------- one env
class TicketLedgerEnv(gym.Env[str, str]):
    """One TicketLedger episode at a time (``gymnasium.make("TicketLedger-v0", ...)``).

    Keyword arguments: ``task_id`` (a classic task or a family instance's task; its variant
    comes from the reset's seed), or ``split`` (train, dev, test) with an ``index`` (else one is
    drawn from the seed per reset), or neither (the task is picked from the seed);
    ``reward_mode`` (dense, sparse, binary); ``database_url`` (else ``DATABASE_URL``, else the
    default SQLite file) or ``service``. ``reset(options=...)`` takes ``task_id``, ``split``,
    ``index`` and ``reward_mode`` for one episode. ``episode_id`` names the open episode in the
    event log (not in ``info``, which stays the same for the same seed and actions).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, task_id: str | None = None, split: str | None = None,
                 index: int | None = None, *, reward_mode: str = DEFAULT_REWARD_MODE,
                 database_url: str | None = None, service: EnvironmentService | None = None,
                 render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        self.service = service if service is not None else service_for(database_url)
        self.choice = Choice.of(self.service, task_id, split, index, reward_mode)
        self.observation_space, self.action_space = _spaces()
        self.render_mode = render_mode
        self.episode_id: str | None = None
        self._observation: str | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        choice = self.choice.with_options(self.service, options)
        request, info = choice.request(self.service, self.np_random, seed)
        result = self.service.reset_many([request])[0]
        if isinstance(result, Exception):
            raise ValueError(str(result)) from result
        self.episode_id = result.episode_id
        self._observation = observation_of(result)
        info["max_steps"] = result.state.task.max_steps if result.state.task is not None else 0
        return self._observation, info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self.episode_id is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        body, error = action_body(action)
        result: StepResult | None = None
        if body is not None:
            try:
                result = self.service.step(self.episode_id, body)
            except InvalidAction as exc:
                error = str(exc)
            except ServiceError as exc:  # the episode is over, or another process holds it
                raise gym.error.ResetNeeded(f"{exc}; call reset() for a new episode") from None
        if result is None:
            assert error is not None
            result = self.service.step(self.episode_id, penalised_noop(action, error))
        self._observation = observation_of(result)
        return outcome(result, error)

    def render(self) -> str | None:
        """``ansi``: the current observation text."""
        return self._observation if self.render_mode == "ansi" else None


# ----------------------------------------------------------------------------------- vector env
class TicketLedgerVectorEnv(VectorEnv[tuple[str, ...], tuple[str, ...], np.ndarray[Any, Any]]):
    """``num_envs`` episodes side by side, stepped together with one ``step_many`` (and reset
    with one ``reset_many``): one commit per batch. ``gymnasium.make_vec("TicketLedger-v0",
    num_envs, vectorization_mode="vector_entry_point", ...)`` builds one.

    Same arguments as :class:`TicketLedgerEnv`. Sub-environment ``i`` of ``reset(seed=s)`` gets
    seed ``s + i``. Autoreset is Gymnasium's default (next step): the step after an episode
    ended resets that sub-environment (its action is ignored, reward 0).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, task_id: str | None = None, split: str | None = None,
                 index: int | None = None, *, reward_mode: str = DEFAULT_REWARD_MODE,
                 database_url: str | None = None, service: EnvironmentService | None = None
                 ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        self.service = service if service is not None else service_for(database_url)
        self.choice = Choice.of(self.service, task_id, split, index, reward_mode)
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = _spaces()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.episode_ids: list[str | None] = [None] * num_envs
        self._observations: list[str] = [""] * num_envs
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._rngs = [np.random.default_rng() for _ in range(num_envs)]

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[tuple[str, ...], dict[str, Any]]:
        super().reset(seed=seed if not isinstance(seed, list) else None)
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} sub-environments")
            seeds = list(seed)
        mask = np.ones(self.num_envs, dtype=np.bool_)
        if options and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"], dtype=np.bool_)
            if mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must hold {self.num_envs} booleans")
        for i, s in enumerate(seeds):
            if s is not None and mask[i]:
                self._rngs[i] = np.random.default_rng(s)
        choice = self.choice.with_options(self.service, options)
        infos = self._reset_some(choice, [i for i in range(self.num_envs) if mask[i]],
                                 {i: seeds[i] for i in range(self.num_envs)})
        return tuple(self._observations), infos

    def _reset_some(self, choice: Choice, which: Sequence[int], seeds: Mapping[int, int | None],
                    infos: dict[str, Any] | None = None) -> dict[str, Any]:
        infos = {} if infos is None else infos
        planned = [choice.request(self.service, self._rngs[i], seeds.get(i)) for i in which]
        results = self.service.reset_many([request for request, _ in planned])
        for i, (_, info), result in zip(which, planned, results, strict=True):
            if isinstance(result, Exception):
                raise ValueError(str(result)) from result
            self.episode_ids[i] = result.episode_id
            self._observations[i] = observation_of(result)
            self._ended[i] = False
            info["max_steps"] = result.state.task.max_steps if result.state.task is not None else 0
            infos = self._add_info(infos, info, i)
        return infos

    def step(self, actions: Sequence[str]
             ) -> tuple[tuple[str, ...], np.ndarray[Any, Any], np.ndarray[Any, Any],
                        np.ndarray[Any, Any], dict[str, Any]]:
        if any(e is None for e in self.episode_ids):
            raise gym.error.ResetNeeded("call reset() before step()")
        actions = list(actions)
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions for {self.num_envs} sub-environments")
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        restart = [i for i in range(self.num_envs) if self._ended[i]]
        errors: dict[int, str] = {}
        bodies: dict[int, dict[str, Any]] = {}
        for i, action in enumerate(actions):
            if i in restart:
                continue
            body, error = action_body(action)
            if body is None:
                assert error is not None
                errors[i] = error
                bodies[i] = penalised_noop(action, error)
            else:
                bodies[i] = body
        results = self._step_many(bodies)
        refused = {i: str(r) for i, r in results.items() if isinstance(r, InvalidAction)}
        errors.update(refused)
        results.update(self._step_many({i: penalised_noop(actions[i], e) for i, e in refused.items()}))
        for i in sorted(results):
            result = results[i]
            if isinstance(result, Exception):
                raise gym.error.ResetNeeded(f"sub-environment {i}: {result}") from result
            obs, rewards[i], terminations[i], truncations[i], info = outcome(result, errors.get(i))
            self._observations[i] = obs
            self._ended[i] = terminations[i] or truncations[i]
            infos = self._add_info(infos, info, i)
        if restart:
            infos = self._reset_some(self.choice, restart, {}, infos)
        return tuple(self._observations), rewards, terminations, truncations, infos

    def _step_many(self, bodies: Mapping[int, dict[str, Any]]) -> dict[int, StepResult | Exception]:
        order = sorted(bodies)
        if not order:
            return {}
        results = self.service.step_many([(self.episode_ids[i] or "", bodies[i]) for i in order])
        return dict(zip(order, results, strict=True))

    def render(self) -> tuple[str, ...] | None:
        return tuple(self._observations)


def register() -> None:
    """Register ``TicketLedger-v0`` with Gymnasium (once; importing this module does it)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point="baseline.gym_env:TicketLedgerEnv",
                     vector_entry_point="baseline.gym_env:TicketLedgerVectorEnv",
                     nondeterministic=False)


register()
