"""TicketLedger as a TRL ``environment_factory``: one typed, documented tool method per action.

The tool methods are made from the tools' one declaration (``service.tools``, which MCP and the
chat schema render too): each has the action's fields as typed parameters (a vocabulary as its
enum) and a Google-style docstring, so the schema TRL reads from them is the declared one.

Follows the contract of TRL's guide "OpenEnv Integration for Training LLMs with Environments"
(``environment_factory`` of ``GRPOTrainer``; run under TRL 1.16, see docs/training.md): the
trainer builds instances with no arguments and pools them (one is reset for each rollout of a
batch, and reused by later batches), calls ``reset(**row)`` with the dataset row's columns at the
start of each episode (its return value is appended to the last user message), exposes every
other public method but ``get_reward`` as a function-calling tool (the schema comes from the type
hints and the ``Args:`` section of the docstring), feeds an exception's message back to the model
as the tool's answer, and calls ``get_reward()`` once per finished rollout: the environment owns
the reward. So this class has no public method but ``reset``, ``get_reward`` and the actions, and
every other name here starts with ``_``.

Tool answers are compact by default (``observation_mode="compact"``): the first observation leaves
out the vocabularies the tool schemas already list, and each answer shows only what changed, so
a whole episode fits a completion budget of a few thousand tokens; ``observation`` holds the full
observation all along. Training episodes are filed under one run per class that names the model
(:func:`environment_factory`'s ``model``); :func:`component_reward_funcs` report each episode's
grade components and violations beside the total in TRL's logs.

TRL is not imported here (it is not a dependency of TicketLedger): the module runs, and is tested,
without it; ``examples/train_grpo.py`` is the training script.

Where the episodes run: a TicketLedger server (``base_url``, else ``ENV_BASE_URL``) over its
stateful HTTP routes, or in this process on a database (``database_url``, else ``DATABASE_URL``,
else the default SQLite file). Configure a class with :func:`environment_factory`.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import threading
import weakref
from collections.abc import Callable
from typing import Any, ClassVar

from baseline.chat import HIDDEN_FIELDS, BadReply, observation_text, parse, system_prompt
from baseline.envs import ActionRefused, Env, EnvStep
from domain.actions import InvalidAction, parse_action
from service.tools import TOOLS, Tool

OBSERVATION_MODES = ("compact", "full")
"""How tool answers show the observation: what changed (``compact``), or all of it (``full``)."""
VOCABULARY_FIELDS = ("available_actions", "allowed", "available_policies")
"""Observation fields the tool schemas already list: left out of compact answers."""
ANSWERED_ELSEWHERE = ("last_action", "reward", "done")
"""Fields a compact answer leaves out: the model wrote the action, the head line has the rest."""
END_TEXT = "The episode is over: stop calling tools."
"""The last line of the answer that ends an episode: the model's cue to end its turn."""

_DATABASES: dict[str, Any] = {}
_DATABASES_LOCK = threading.Lock()


def _database(url: str) -> Any:
    """One database handle per URL for every instance in this process (its pool is shared)."""
    from store import open_database

    with _DATABASES_LOCK:
        if url not in _DATABASES:
            _DATABASES[url] = open_database(url)
        return _DATABASES[url]


class TicketLedgerToolEnv:
    """One episode at a time of TicketLedger, with the actions as tools.

    After each tool call ``reward`` is the sum of the episode's rewards so far: in the ``dense``
    reward mode that is the episode's score once it ends, in ``sparse`` the score (paid at the
    end), in ``binary`` 1.0 for a success and 0.0 otherwise (the mode is chosen at reset).
    ``done`` says the episode ended, ``score`` is the environment's exact score, ``episode_id``
    the episode in the event log, ``grade`` the last step's public grade (JSON; the step
    answer's ``grade``). Each tool's answer says why in one line (:func:`grade_line`).
    """

    base_url: ClassVar[str | None] = None
    database_url: ClassVar[str | None] = None
    default_reward_mode: ClassVar[str] = "dense"
    observation_mode: ClassVar[str] = "compact"
    model: ClassVar[str | None] = None
    """The model being trained: the run the episodes are filed under names it (None: no run)."""
    run_config: ClassVar[dict[str, Any]] = {}
    run_id: ClassVar[str | None] = None
    """The run this class files its episodes under, opened at the first reset."""
    _run_secret: ClassVar[str | None] = None
    _run_lock: ClassVar[threading.Lock] = threading.Lock()
    _instances: ClassVar[weakref.WeakSet[TicketLedgerToolEnv]] = weakref.WeakSet()
    """The class's live instances, whose open episodes :func:`end_open_episodes` ends."""

    def __init__(self) -> None:
        self.reward = 0.0
        self.score: float | None = None
        self.done = False
        self.steps = 0
        self.episode_id: str | None = None
        self.task_id: str | None = None
        self.grade: dict[str, Any] | None = None
        self.observation: dict[str, Any] | None = None
        """The full observation after the last reset or step, whatever the tools answer."""
        self.malformed_calls = 0
        """Calls whose arguments were not a valid action (each a recorded, penalised step where
        the action has a required field to reject it on)."""
        self.calls_after_end = 0
        self._told_no_end = False
        self._env: Env | None = None
        self._env_mode: str | None = None
        with _INSTANCES_LOCK:
            type(self)._instances.add(self)

    # ------------------------------------------------------------------------------ episode
    def reset(self, **kwargs: Any) -> str:
        """Start an episode. The dataset row's columns arrive here: ``task_id`` (else the catalog
        picks one from the seed), ``seed`` (else the task's published variant) and
        ``reward_mode`` (dense, sparse or binary; else the class's default); or ``split`` and
        ``index``: instance ``index`` of a frozen split of the task families (train, dev, test;
        docs/tasks.md), resolved from the packaged manifest. Other columns, such as ``prompt``,
        are ignored. Returns the first observation.

        The previous episode, if the trainer left it open (its rollout was cut off: TRL's
        ``max_tool_calling_iterations`` or the completion budget, or the model stopped calling
        tools), is ended first as ``cut_off`` (:meth:`_end_episode`), so the log says why it
        stopped. Its reward was read before: TRL calls ``get_reward()`` when a rollout finishes."""
        from domain.tasks import default_catalog

        self._end_episode()

        seed = None if kwargs.get("seed") is None else int(kwargs["seed"])
        task_id = str(kwargs.get("task_id") or default_catalog().pick_task_id(seed))
        if kwargs.get("split") is not None or kwargs.get("index") is not None:
            from service.environment import resolve_split

            index = kwargs.get("index")
            task_id, seed = resolve_split(default_catalog(), kwargs.get("split"),
                                          None if index is None else int(index),
                                          kwargs.get("task_id"), kwargs.get("seed"))
        mode = str(kwargs.get("reward_mode") or self.default_reward_mode)
        backend = self._backend(mode)
        first = backend.reset(task_id, seed, self._run(backend))
        self.reward, self.score, self.done, self.steps = 0.0, None, False, 0
        self.episode_id, self.task_id, self.grade = first.episode_id, task_id, None
        self.observation, self.malformed_calls, self.calls_after_end = first.observation, 0, 0
        shown = first.observation
        if self.observation_mode == "compact":
            shown = {k: v for k, v in shown.items() if k not in VOCABULARY_FIELDS}
        # TRL appends this to the instruction: start on a line of its own
        return "\n\nObservation:\n" + observation_text(shown)

    def _end_episode(self) -> bool:
        """End this instance's episode from outside a step as ``cut_off`` if it is still open
        (``EnvironmentService.end``: recorded, not graded, nothing paid; the episode keeps its
        score and says ``truncated``). Whether it ended one. A server without ``POST /end``
        (an older release) leaves the episode open; that is said on stderr, once per instance."""
        if self._env is None or self.episode_id is None or self.done:
            return False
        try:
            ended = self._env.end(self.episode_id)
        except Exception as exc:
            from baseline.remote import RemoteError

            if not isinstance(exc, RemoteError) or exc.status not in (404, 405):
                raise
            if not self._told_no_end:
                print(f"[trl_env] {self._env.where} cannot end episodes (POST /end: {exc}); a "
                      "rollout cut off stays open in its log", file=sys.stderr, flush=True)
                self._told_no_end = True
            return False
        self.done = True
        return ended

    def get_reward(self) -> float:
        """The episode's reward so far (TRL calls this once per finished rollout): the environment
        owns the reward, in the reward mode the episode was reset with."""
        return self.reward

    def _run(self, backend: Env) -> str | None:
        """The class's run, opened on first use where the episodes are (None without a model)."""
        cls = type(self)
        if cls.model is None:
            return None
        with cls._run_lock:
            if cls.run_id is None:
                agent = f"trl-grpo:{cls.model}"
                config = {"model": cls.model, "trainer": "trl.GRPOTrainer",
                          "observation_mode": cls.observation_mode,
                          "reward_mode": cls.default_reward_mode, **cls.run_config}
                from baseline.remote import RemoteEnv

                if isinstance(backend, RemoteEnv):
                    cls.run_id = backend.open_run(agent, config)
                    cls._run_secret = backend.run_secret
                else:
                    from store.runs import RunStore, new_run_id

                    run_id = new_run_id()
                    RunStore(_database(self._database_url())).start(run_id, agent, config)
                    cls.run_id = run_id
        from baseline.remote import RemoteEnv

        if isinstance(backend, RemoteEnv) and cls.run_id is not None and cls._run_secret is not None:
            backend.join_run(cls.run_id, cls._run_secret)
        return cls.run_id

    def _database_url(self) -> str:
        return _database_url(type(self))

    def _backend(self, mode: str) -> Env:
        if self._env is not None and self._env_mode == mode:
            return self._env
        if self._env is not None:
            self._env.close()
        url = type(self).base_url or os.environ.get("ENV_BASE_URL")
        env: Env
        if url:
            from baseline.remote import RemoteEnv

            env = RemoteEnv(url, reward_mode=mode)
        else:
            from baseline.envs import LocalEnv

            env = LocalEnv(_database(self._database_url()), reward_mode=mode)
        self._env, self._env_mode = env, mode
        return env

    def _act(self, action: dict[str, Any]) -> str:
        """Validate and take one action; what the model reads back (or an exception TRL shows it)."""
        if self._env is None or self.episode_id is None:
            raise ValueError("no episode: reset() starts one")
        if self.done:
            self.calls_after_end += 1
            raise ValueError(f"the episode is over (score {self.score}); stop calling tools")
        try:
            body = parse(action).body
        except BadReply as exc:
            self.malformed_calls += 1
            raise ValueError(self._record_malformed(action, str(exc))) from None
        try:
            result: EnvStep = self._env.step(self.episode_id, body)
        except ActionRefused as exc:
            raise ValueError(f"refused: {exc}") from None
        return self._answer(result)

    def _record_malformed(self, action: dict[str, Any], why: str) -> str:
        """Record a call whose arguments are no valid action as the step it cost, where the
        environment's rules allow: the action without its arguments lacks a required field, which
        the environment records and the grader penalises (an action whose fields are all optional
        would be a different, valid action: that call is refused unrecorded). What to tell the
        model."""
        assert self._env is not None and self.episode_id is not None
        bare = {"action_type": action["action_type"]}
        try:
            rejectable = parse_action(bare).rejection is not None
        except InvalidAction:
            rejectable = False
        if not rejectable:
            return why
        try:
            result = self._env.step(self.episode_id, bare)
        except ActionRefused as exc:
            return f"{why} (refused: {exc})"
        return f"{why}\nRecorded as a rejected step:\n{self._answer(result)}"

    def _answer(self, result: EnvStep) -> str:
        """Take in a step's result; the tool's answer to the model."""
        assert self._env is not None and self.episode_id is not None
        self.steps += 1
        self.reward += result.reward or 0.0
        self.done = result.done
        self.score = result.score
        if result.done and self.score is None:  # over HTTP a step does not carry the exact score
            self.score = float(self._env.final(self.episode_id)["score"])
        head = f"reward={result.reward or 0.0:.4f} done={str(result.done).lower()}"
        if result.done:
            head += f" score={result.score}"
        why = grade_line(result.reward or 0.0, result.grade, self.grade)
        self.grade = result.grade
        if why is not None:
            head += "\n" + why
        before, self.observation = self.observation, result.observation
        if result.done:
            return f"{head}\n{END_TEXT}"
        if self.observation_mode == "compact" and before is not None:
            changed = json.dumps(changes(before, result.observation), separators=(",", ":"))
            return f"{head}\nChanged:\n{changed}"
        return f"{head}\nObservation:\n{observation_text(result.observation)}"

    # ------------------------------------------------------------------------------ actions
    # One public method per action type, made from the tools' declaration below the class
    # (:func:`_tool_method`): ``classify_priority(priority)``, ``draft_reply(reply_text)``, ...


RETURNS = ("The step's reward and why it was earned, then the observation (only what changed, in "
           "the compact mode), or the score when the episode ends.")
"""What every tool method's docstring says it returns (TRL shows it in the tool's schema)."""


def _tool_method(tool: Tool) -> Callable[..., str]:
    """``tool`` as a method of :class:`TicketLedgerToolEnv`: the signature (``Parameter.hint``
    types) and Google-style docstring that transformers' ``get_json_schema`` reads the tool's
    schema from, which is :meth:`service.tools.Tool.function`; a call takes the action. Built
    with plain attributes, so ``help()`` and ``inspect`` see an ordinary method."""
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature(
        [inspect.Parameter("self", kind)]
        + [inspect.Parameter(p.name, kind, annotation=p.hint(),
                             default=inspect.Parameter.empty if p.required else None)
           for p in tool.parameters],
        return_annotation=str)

    def method(self: TicketLedgerToolEnv, *args: Any, **kwargs: Any) -> str:
        arguments = signature.bind(self, *args, **kwargs).arguments
        fields = {k: v for k, v in arguments.items() if k != "self" and v is not None}
        return self._act({"action_type": tool.name, **fields})

    method.__name__ = tool.name
    method.__qualname__ = f"TicketLedgerToolEnv.{tool.name}"
    method.__doc__ = tool.docstring(RETURNS)
    method.__annotations__ = {**{p.name: p.hint() for p in tool.parameters}, "return": str}
    method.__signature__ = signature  # type: ignore[attr-defined]
    return method


for _tool in TOOLS:
    setattr(TicketLedgerToolEnv, _tool.name, _tool_method(_tool))


GRADE_LINE_CHARS = 400
"""The longest reason line a tool answers (a quoted reply in a violation can be long)."""


def grade_line(reward: float, grade: dict[str, Any] | None,
               before: dict[str, Any] | None) -> str | None:
    """Why a step earned ``reward``, in one line for the model, from the step's public grade
    (``grade``, JSON of ``domain.observation.PublicGrade``) and the previous step's (``before``,
    None on an episode's first step): ``reward -0.20: reply: breaks a safety rule
    (reply_contradicts_state: the reply says ...); score capped at 0.2``.

    Says what changed, not the whole grade: the components whose earned value or reason changed
    (with the change in value), and those a new safety violation voids; the step's penalties;
    violations new this step that no component names; the cap when one is new, or lifted. None
    without a grade (a server that does not send one)."""
    if grade is None:
        return None
    earlier = {c["name"]: c for c in (before or {}).get("components", [])}
    seen = {(v["rule"], v["reason"]) for v in (before or {}).get("violations", [])}
    new = [v for v in grade["violations"] if (v["rule"], v["reason"]) not in seen]
    parts: list[str] = []
    for component in grade["components"]:
        # on the first step, a component is news by its value (its reason at reset is unknown)
        was = earlier.get(component["name"], {"earned": 0.0, "reason": component["reason"]})
        delta = component["earned"] - was["earned"]
        voided = any(v["reason"] in component["reason"] for v in new)
        if delta or voided or was["reason"] != component["reason"]:
            parts.append(component["reason"] + (f" ({delta:+.2f})" if delta else ""))
    parts += [f"penalty {p['rule']} -{p['cost']:.2f}: {p['reason']}" for p in grade["penalties"]]
    named = " ".join(parts)
    parts += [f"safety violation {v['rule']}: {v['reason']}" for v in new if v["reason"] not in named]
    if new and grade.get("capped_at") is not None:
        parts.append(f"score capped at {grade['capped_at']}")
    elif (before or {}).get("capped_at") is not None and grade.get("capped_at") is None:
        parts.append("no safety rule broken now: the score is no longer capped")
    line = f"reward {reward:+.2f}: " + ("; ".join(parts) or "the grade did not change")
    return line if len(line) <= GRADE_LINE_CHARS else line[:GRADE_LINE_CHARS - 3] + "..."


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What a step changed in the observation, for a compact tool answer: each top-level field
    whose value changed, except the vocabularies, what the answer says otherwise
    (:data:`ANSWERED_ELSEWHERE`) and the fields no prompt shows (``baseline.chat.HIDDEN_FIELDS``);
    a list that grew shows only its new items, under its name with ``+`` (``"history+"``), and a
    mapping only its changed keys (``account``, ``policies``)."""
    out: dict[str, Any] = {}
    for key, value in after.items():
        if key in VOCABULARY_FIELDS or key in ANSWERED_ELSEWHERE or key in HIDDEN_FIELDS:
            continue
        old = before.get(key)
        if old == value:
            continue
        if isinstance(old, list) and isinstance(value, list) and value[:len(old)] == old:
            out[key + "+"] = value[len(old):]
        elif isinstance(old, dict) and isinstance(value, dict) and old.keys() <= value.keys():
            out[key] = {k: v for k, v in value.items() if old.get(k) != v}
        else:
            out[key] = value
    return out


def environment_factory(*, base_url: str | None = None, database_url: str | None = None,
                        reward_mode: str = "dense", observation_mode: str = "compact",
                        model: str | None = None,
                        run_config: dict[str, Any] | None = None) -> type[TicketLedgerToolEnv]:
    """A class to pass as ``GRPOTrainer(environment_factory=...)``: TRL builds instances with no
    arguments, so the configuration lives on the class. With ``model``, the class's episodes are
    filed under one run (opened at the first reset, where the episodes are) whose agent is
    ``trl-grpo:<model>`` and whose config holds ``run_config``, so the viewer and ``ticketledger
    runs`` tell training runs apart; :func:`finish_run` ends it."""
    if observation_mode not in OBSERVATION_MODES:
        raise ValueError(f"observation_mode={observation_mode!r}; one of {', '.join(OBSERVATION_MODES)}")
    return type("TicketLedgerToolEnv", (TicketLedgerToolEnv,), {
        "base_url": base_url, "database_url": database_url, "default_reward_mode": reward_mode,
        "observation_mode": observation_mode, "model": model, "run_config": dict(run_config or {}),
        "run_id": None, "_run_secret": None, "_run_lock": threading.Lock(),
        "_instances": weakref.WeakSet()})


_INSTANCES_LOCK = threading.Lock()


def end_open_episodes(cls: type[TicketLedgerToolEnv]) -> int:
    """The trainer's teardown: end, as ``cut_off``, every episode the class's live instances left
    open (TRL has no close hook for its pooled environments; the last batch's rollouts cut off are
    ended here rather than at a reset that never comes). How many it ended."""
    with _INSTANCES_LOCK:
        instances = list(cls._instances)
    return sum(env._end_episode() for env in instances)


def finish_run(cls: type[TicketLedgerToolEnv], summary: dict[str, Any], status: str = "finished") -> None:
    """End the class's open episodes (:func:`end_open_episodes`), then its run (if one was
    opened) with ``summary``: it takes no more episodes."""
    end_open_episodes(cls)
    if cls.run_id is None:
        return
    url = cls.base_url or os.environ.get("ENV_BASE_URL")
    if url:
        from baseline.remote import RemoteEnv

        remote = RemoteEnv(url)
        try:
            if cls._run_secret is not None:
                remote.join_run(cls.run_id, cls._run_secret)
            remote.finish_run(cls.run_id, summary, status)
        finally:
            remote.close()
    else:
        from store.runs import RunStore

        RunStore(_database(_database_url(cls))).finish(cls.run_id, summary, status)


def _database_url(cls: type[TicketLedgerToolEnv]) -> str:
    from store import DEFAULT_DATABASE_URL

    return cls.database_url or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL


def reward_func(environments: list[TicketLedgerToolEnv], **kwargs: Any) -> list[float]:
    """Each episode's ``reward`` (its score under the dense reward mode): for a TRL without
    ``get_reward``, or a trainer of your own."""
    return [env.reward for env in environments]


def component_names() -> tuple[str, ...]:
    """The grade's components, in report order (``graders.components``)."""
    from graders.components import SAFETY_SCORERS, SCORERS, TEXT_SCORERS

    return (*SCORERS, *SAFETY_SCORERS, *TEXT_SCORERS)


def component_reward_funcs() -> list[Any]:
    """Reward functions that report, for TRL's logs, each episode's grade beside the total: one
    per component (``component_<name>``: what the component earned, None where the task has no
    such component or no step was graded), ``violations`` (the safety rules broken) and
    ``malformed_calls``. Give them weight 0 (``GRPOConfig(reward_weights=...)``): TRL then logs
    their mean and spread as ``rewards/<name>/mean`` while the environment's ``get_reward`` alone
    makes the reward."""
    def component(name: str) -> Any:
        def earned(environments: list[TicketLedgerToolEnv], **kwargs: Any) -> list[float | None]:
            out: list[float | None] = []
            for env in environments:
                found = [c["earned"] for c in (env.grade or {}).get("components", []) if c["name"] == name]
                out.append(float(found[0]) if found else None)
            return out
        earned.__name__ = earned.__qualname__ = f"component_{name}"
        return earned

    def violations(environments: list[TicketLedgerToolEnv], **kwargs: Any) -> list[float]:
        return [float(len((env.grade or {}).get("violations", []))) for env in environments]

    def malformed_calls(environments: list[TicketLedgerToolEnv], **kwargs: Any) -> list[float]:
        return [float(env.malformed_calls) for env in environments]

    return [*(component(name) for name in component_names()), violations, malformed_calls]


def training_rows(task_ids: list[str] | None = None, seeds: range = range(1),
                  reward_mode: str | None = None, split: str | None = None) -> list[dict[str, Any]]:
    """The dataset rows of a training set, each with the chat prompt (the system prompt for tool
    calling and an instruction; ``reset`` then adds the observation) and the columns ``reset``
    reads: one per task and seed, or with ``split`` (train, dev or test) one per instance of that
    frozen split of the task families (columns ``split`` and ``index``; docs/tasks.md), so a
    model trained on ``train`` is evaluated on instances it never saw."""
    from domain.tasks import default_catalog

    catalog = default_catalog()
    prompt = [{"role": "system", "content": system_prompt("tools")},
              {"role": "user", "content": "Work the ticket in the observation below, one tool call "
                                          "per turn, until it is resolved or closed."}]
    columns: list[dict[str, Any]]
    if split is not None:
        columns = [{"split": split, "index": i} for i in range(len(catalog.split(split)))]
    else:
        columns = [{"task_id": task_id, "seed": seed}
                   for task_id in task_ids or catalog.task_ids for seed in seeds]
    rows: list[dict[str, Any]] = []
    for column in columns:
        row: dict[str, Any] = {"prompt": json.loads(json.dumps(prompt)), **column}
        if reward_mode is not None:
            row["reward_mode"] = reward_mode
        rows.append(row)
    return rows
