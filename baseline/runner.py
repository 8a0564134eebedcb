"""Running the baseline: episodes over the catalog, in parallel if asked, every run recorded.

Stdout gets only the contract's lines (see :mod:`baseline.stdout`); progress, the summary and
where the run is stored go to stderr. The run row is written before the first episode (so its
episodes can link to it) and completed at the end, also after a crash, Ctrl-C or a closed stdout;
it is kept with the episodes, in-process or on the ``ENV_BASE_URL`` server (:mod:`baseline.records`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from baseline import config as cfg
from baseline.agent import FAILED_STEP_ACTION, NO_ACTOR, Agent
from baseline.envs import ActionRefused, Env, EnvStep
from baseline.policy import BUILTIN_POLICY
from baseline.stdout import Block, StdoutClosed
from baseline.summary import EpisodeResult, print_summary, summarise
from domain.redaction import redact
from support.terminal import CLOSED_PIPE_EXIT

EXIT_DEGRADED = 3
"""``inference.py``'s exit status for a run in which the configured model acted in no step (a dead
endpoint, a wrong model name or key): its scores are the fallback's or failed steps', not the
model's. 1 stays an episode that crashed, 2 a setting that cannot be used."""


def log(message: str) -> None:
    print(f"[baseline] {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Job:
    index: int
    task_id: str
    difficulty: str
    threshold: float
    seed: int | None
    trial: int  # the trial's number among its variant's


def plan_split_jobs(config: cfg.Config, catalog: Any) -> list[Job]:
    """Every (instance, trial) of the split ``config.split``, in split order (``TASKS`` keeps the
    instances of the families it names, ``LIMIT`` the first n)."""
    assert config.split is not None
    try:
        refs = list(catalog.split(config.split))
    except ValueError as exc:
        raise cfg.ConfigError(f"SPLIT: {exc}") from None
    if config.tasks:
        known = catalog.family_ids
        unknown = [t for t in config.tasks if t not in known]
        if unknown:
            raise cfg.ConfigError(f"TASKS names task(s) with no instance in a split: "
                                  f"{', '.join(unknown)}; the families: {', '.join(known)}")
        refs = [r for r in refs if r.task_id in config.tasks]
    refs = refs[:config.limit] if config.limit else refs
    jobs: list[Job] = []
    for ref in refs:
        spec = catalog.spec(ref.task_id)
        for trial in range(config.trials):
            jobs.append(Job(len(jobs), ref.task_id, spec.difficulty.value, spec.success_threshold,
                            ref.seed, trial))
    return jobs


def plan_jobs(config: cfg.Config, catalog: Any) -> list[Job]:
    """Every (task, variant, trial) to run, in catalog order, each variant's trials together;
    unknown task ids are a config error. With ``SPLIT``, the split's instances instead."""
    if config.split:
        return plan_split_jobs(config, catalog)
    known = catalog.task_ids
    unknown = [t for t in config.tasks if t not in known]
    if unknown:
        raise cfg.ConfigError(f"TASKS names unknown task(s) {', '.join(unknown)}; known: {', '.join(known)}")
    stray = [t for t in config.candidates_by_task if t not in known]
    if stray:
        log(f"warning: MODEL_CANDIDATES_TASK_* set for unknown task(s) {', '.join(stray)}; ignored")
    chosen = [t for t in known if not config.tasks or t in config.tasks]
    jobs: list[Job] = []
    for task_id in chosen:
        spec = catalog.spec(task_id)
        for seed in config.seeds():
            for trial in range(config.trials):
                jobs.append(Job(len(jobs), task_id, spec.difficulty.value, spec.success_threshold,
                                seed, trial))
    return jobs


def _join(*parts: str | None) -> str | None:
    text = "; ".join(p for p in parts if p)
    return text or None


class EpisodeRunner:
    """Plays one episode and prints its block; never lets an exception skip the ``[END]`` line."""

    def __init__(self, env: Env, agent: Agent, config: cfg.Config, run_id: str, *, buffered: bool):
        self.env = env
        self.agent = agent
        self.config = config
        self.run_id = run_id
        self.buffered = buffered
        self.policy = BUILTIN_POLICY
        self.finished: dict[int, EpisodeResult] = {}  # by job index; kept if the run is interrupted

    def results(self) -> list[EpisodeResult]:
        return [self.finished[i] for i in sorted(self.finished)]

    def run(self, job: Job) -> EpisodeResult:
        began = time.monotonic()
        result = EpisodeResult(job.task_id, job.difficulty, job.seed, job.trial, job.threshold,
                               self.agent.models_for(job.task_id, job.difficulty)[0])
        block = Block(buffered=self.buffered)
        block.start(job.task_id, self.config.benchmark, result.model)
        last: EnvStep | None = None
        try:
            last = self.env.reset(job.task_id, job.seed, self.run_id)
            result.episode_id = last.episode_id
            limit = int(last.observation.get("max_steps") or 50)
            if self.config.max_steps:
                limit = min(limit, self.config.max_steps)
            while not last.done and result.steps < limit:
                last = self._step(last, result, block)
        except StdoutClosed:
            result.exception = "stopped: stdout was closed"
            raise
        except Exception as exc:
            # recorded in the run's records and log: an error may echo a key (a server's 401)
            result.exception = redact(f"{type(exc).__name__}: {exc}", (self.config.api_key,))
            log(f"{job.task_id} (seed {job.seed}): episode failed: {result.exception}")
        finally:
            self._settle(result, last)
            result.wall_s = time.monotonic() - began
            self.finished[job.index] = result
            block.end(result.success, result.steps, result.score, result.rewards)
        return result

    def _step(self, current: EnvStep, result: EpisodeResult, block: Block) -> EnvStep:
        from domain.observation import Observation  # loaded by the first reset already

        observation = Observation.model_validate(current.observation)
        decision = self.agent.act(observation)
        result.calls.extend(decision.calls)
        action, chosen_by, error = decision.action, decision.chosen_by, decision.error
        try:
            after = self.env.step(current.episode_id, action)
        except ActionRefused as exc:
            # Recorded nowhere, so the step is still ours: play the policy's action instead, or,
            # where no fallback is allowed, the failed step's no-op.
            if self.config.uses_fallback or not self.config.uses_llm:
                fallback = self.policy.act(observation)
                action, chosen_by = fallback.action, fallback.chosen_by
                instead = f"used {chosen_by}"
            else:
                action, chosen_by = dict(FAILED_STEP_ACTION), NO_ACTOR
                instead = "failed step, sent noop"
            error = _join(error, f"environment refused the action ({exc}); {instead}")
            after = self.env.step(current.episode_id, action)
        result.steps += 1
        result.actors.append(chosen_by)
        reward = after.reward if after.reward is not None else 0.0
        result.rewards.append(reward)
        error = _join(error, after.observation.get("last_action_error"))
        if error:
            result.errors.append(f"step {result.steps}: {error}")
        block.step(result.steps, action, reward, after.done, error)
        return after

    def _settle(self, result: EpisodeResult, last: EnvStep | None) -> None:
        """Exact score and chain head: from the last step, else the environment's record, else the
        rewards (which add up to the score of an ended episode)."""
        if last is None:
            return
        record: dict[str, Any] = {}
        if last.score is None or last.head_hash is None:
            try:
                record = self.env.final(last.episode_id)
            except Exception as exc:
                log(f"{result.task_id}: could not read the final record: {exc}")
        score = last.score if last.score is not None else record.get("score")
        if score is None:
            score = min(1.0, max(0.0, round(sum(result.rewards), 4)))
        result.score = float(score)
        result.head_hash = last.head_hash or record.get("head_hash")
        result.success = result.exception is None and result.score >= result.threshold


def make_agent(config: cfg.Config) -> Agent:
    if config.uses_llm:
        from baseline.llm import LLMAgent

        return LLMAgent(config)
    return BUILTIN_POLICY


def make_env(config: cfg.Config, db: Any) -> Env:
    if config.env_base_url:
        from baseline.remote import RemoteEnv

        return RemoteEnv(config.env_base_url, reward_mode=config.reward_mode)
    from baseline.envs import LocalEnv

    return LocalEnv(db, reward_mode=config.reward_mode)


def open_db(config: cfg.Config) -> Any:
    from store import DatabaseUnavailable, open_database

    try:
        return open_database(config.database_url)
    except DatabaseUnavailable as exc:  # one line: what failed and how to fix it
        raise cfg.ConfigError(str(exc)) from None


def run_jobs(jobs: Sequence[Job], runner: EpisodeRunner, concurrency: int) -> None:
    if concurrency <= 1 or len(jobs) <= 1:
        for job in jobs:
            runner.run(job)
        return
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="episode")
    try:
        for _ in pool.map(runner.run, jobs):
            pass
    finally:  # on Ctrl-C or a closed stdout, episodes not yet begun are not begun
        pool.shutdown(wait=True, cancel_futures=True)


def _open(config: cfg.Config) -> tuple[Any, Env, Agent]:
    """The database (None over ``ENV_BASE_URL``: the server keeps the log), the environment and
    the agent."""
    db = None if config.env_base_url else open_db(config)
    try:
        return db, make_env(config, db), make_agent(config)
    except ValueError as exc:
        if db is not None:
            db.dispose()
        raise cfg.ConfigError(str(exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run every planned episode. Exit 0; 1 if an episode crashed; 2 on bad settings; 3 if the run
    is degraded (the configured model acted in no step); 130 on Ctrl-C; 141 when stdout's reader
    went away (``| head``), as SIGPIPE would."""
    began = time.monotonic()
    try:
        config = cfg.load(argv)
        from domain.tasks import default_catalog

        catalog = default_catalog()
        jobs = plan_jobs(config, catalog)
        db, env, agent = _open(config)
    except cfg.ConfigError as exc:
        log(f"configuration error: {exc}")
        return 2
    from baseline.records import start_record

    try:
        record = start_record(env, lambda: db if db is not None else open_db(config),
                              config.agent_name(), {
            **config.public(), "env": env.where, "jobs": len(jobs),
            "task_ids": list(dict.fromkeys(j.task_id for j in jobs)), "seeds": config.seeds(),
            **split_identity(config, catalog),
        }, log)
    except cfg.ConfigError as exc:  # DATABASE_URL, where the run was to be recorded
        log(f"configuration error: {exc}")
        env.close()
        return 2
    run_id = record.run_id
    log(f"run {run_id}: {len(jobs)} episodes, agent {config.agent_name()}, env {env.where}, "
        f"stored in {record.where}")
    status = "failed"
    stdout_closed = False
    runner = EpisodeRunner(env, agent, config, run_id, buffered=config.concurrency > 1)
    try:
        run_jobs(jobs, runner, config.concurrency)
        status = "finished"
    except KeyboardInterrupt:
        status = "interrupted"
        log("interrupted; recording what finished")
    except StdoutClosed:
        status, stdout_closed = "interrupted", True
        log("stdout was closed by its reader; stopped, recording what finished")
    finally:
        results = runner.results()
        summary = summarise(results, config.trials, variants=len(config.seeds()),
                            models=config.all_models() if config.uses_llm else ())
        summary["wall_s"] = round(time.monotonic() - began, 3)
        skipped = getattr(getattr(agent, "health", None), "skipped", None)
        if skipped:
            summary["llm"]["skipped_models"] = dict(skipped)
        if status == "finished" and degraded(config, summary):
            status = "degraded"
        record.finish(summary, status)
        env.close()
        if results:
            print_summary(run_id, summary, status=status, wall_s=summary["wall_s"])
        if status == "degraded":
            log(f"DEGRADED: no configured model ({', '.join(config.all_models())}) acted in any "
                f"step; exit {EXIT_DEGRADED}. Check API_BASE_URL, the key and the model names.")
        record.close()
    if stdout_closed:
        return CLOSED_PIPE_EXIT
    if status == "interrupted":
        return 130
    if summary["exceptions"]:
        return 1
    return EXIT_DEGRADED if status == "degraded" else 0


def split_identity(config: cfg.Config, catalog: Any) -> dict[str, Any]:
    """What pins a split run's instances, kept with the run so that two runs (or a bundle and
    the catalog that verifies it) can be checked to have played the same ones: the split's digest
    and the manifest generator's."""
    if not config.split or catalog.manifest is None:
        return {}
    return {"split_digest": catalog.manifest.split_digests[config.split],
            "manifest_generator_digest": catalog.manifest.generator_digest}


def degraded(config: cfg.Config, summary: dict[str, Any]) -> bool:
    """An LLM run in which no configured model acted in any step: what it measured is the
    fallback (or failed steps), so it must not pass for the model's result."""
    return config.uses_llm and summary["actors"]["model_steps"] == 0
