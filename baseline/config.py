"""Run configuration from environment variables (the seeds' names) and mirroring command-line flags.

A flag beats its variable, a variable beats the default. The API key is read only from the
environment (``API_KEY``, ``HF_TOKEN`` or ``OPENAI_API_KEY``), never from a flag, so it cannot end
up in shell history or in the run record: :meth:`Config.public` is what gets stored.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

DEFAULT_API_BASE_URL = "https://router.huggingface.co/v1"
DEFAULT_MODEL_NAME = "Qwen/Qwen2.5-72B-Instruct"
DEFAULT_BENCHMARK = "ticketledger"
DEFAULT_LLM_TIMEOUT = 15.0
DEFAULT_LLM_MAX_RETRIES = 1
DEFAULT_LLM_MAX_FAILURES = 2
KEY_VARIABLES = ("API_KEY", "HF_TOKEN", "OPENAI_API_KEY")
TASK_CANDIDATES_PREFIX = "MODEL_CANDIDATES_TASK_"
DIFFICULTIES = ("easy", "medium", "hard")
SCHEMA_MODES = ("strict", "lenient")
AGENTS = ("auto", "policy", "llm")
FALLBACKS = ("builtin", "none")
REWARD_MODES = ("dense", "sparse", "binary")  # domain.rewards.REWARD_MODES, checked by a test
POLICY_NAME = "builtin-policy"

# (flag, variable, help). The README's table is written from the same list.
VARIABLES: tuple[tuple[str, str, str], ...] = (
    ("--agent", "AGENT", "auto (LLM when a key is set, else the built-in policy), policy or llm"),
    ("--fallback", "FALLBACK", "who acts when every model failed a step: builtin (the built-in "
                               "policy; default for auto) or none (a failed step; default for llm)"),
    ("--api-base-url", "API_BASE_URL", f"OpenAI-compatible endpoint (default {DEFAULT_API_BASE_URL})"),
    ("--model-name", "MODEL_NAME",
     f"model used when no candidate list is set (default {DEFAULT_MODEL_NAME})"),
    ("--model-candidates", "MODEL_CANDIDATES", "comma-separated models tried in order (default MODEL_NAME)"),
    ("--model-candidates-easy", "MODEL_CANDIDATES_EASY", "candidates for easy tasks"),
    ("--model-candidates-medium", "MODEL_CANDIDATES_MEDIUM", "candidates for medium tasks"),
    ("--model-candidates-hard", "MODEL_CANDIDATES_HARD", "candidates for hard tasks"),
    ("--action-schema-mode", "ACTION_SCHEMA_MODE", "strict (default) or lenient parsing of model replies"),
    ("--benchmark", "BENCHMARK", f"name printed as env= (default {DEFAULT_BENCHMARK})"),
    ("--tasks", "TASKS", "comma-separated task ids to run (default: every task, catalog order)"),
    ("--seed", "SEED", "the first variant's seed (default: the published variant, or seed 0 when "
                       "VARIANTS > 1)"),
    ("--variants", "VARIANTS", "variants per task: seeds SEED..SEED+n-1 (default 1)"),
    ("--trials", "TRIALS", "trials of each variant; reports pass^1..k per task (default 1)"),
    ("--max-steps", "MAX_STEPS", "cap on steps per episode (default: the task's own max_steps)"),
    ("--reward-mode", "REWARD_MODE", "dense (default), sparse or binary rewards, chosen at reset"),
    ("--concurrency", "CONCURRENCY", "episodes run in parallel threads (default 1)"),
    ("--database-url", "DATABASE_URL", "where episodes and the run are stored "
                                       "(default sqlite:///data/ticketledger.db)"),
    ("--env-base-url", "ENV_BASE_URL", "run against a TicketLedger server over HTTP (default: in-process)"),
    ("--llm-timeout", "LLM_TIMEOUT", f"hard limit per LLM call in seconds (default {DEFAULT_LLM_TIMEOUT:g})"),
    ("--llm-max-retries", "LLM_MAX_RETRIES",
     f"client retries within that limit (default {DEFAULT_LLM_MAX_RETRIES})"),
    ("--llm-max-failures", "LLM_MAX_FAILURES", "consecutive failures after which a model is skipped for "
                                               f"the rest of the run (default {DEFAULT_LLM_MAX_FAILURES})"),
    ("--split", "SPLIT", "play the instances of a frozen split of the task families instead of the "
                         "classic tasks: train, dev or test (docs/tasks.md)"),
    ("--limit", "LIMIT", "with SPLIT: play only its first n instances"),
)
SPLITS = ("train", "dev", "test")


class ConfigError(ValueError):
    """A setting that cannot be used; the message names the variable and what is allowed."""


@dataclass(frozen=True)
class Config:
    agent: str = "auto"
    api_base_url: str = DEFAULT_API_BASE_URL
    model_name: str = DEFAULT_MODEL_NAME
    api_key: str | None = field(default=None, repr=False)
    api_key_source: str | None = None
    benchmark: str = DEFAULT_BENCHMARK
    model_candidates: tuple[str, ...] = ()
    candidates_by_difficulty: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    candidates_by_task: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    action_schema_mode: str = "strict"
    tasks: tuple[str, ...] = ()
    seed: int | None = None
    variants: int = 1
    trials: int = 1
    fallback: str | None = None
    max_steps: int | None = None
    reward_mode: str = "dense"
    concurrency: int = 1
    database_url: str | None = None
    env_base_url: str | None = None
    llm_timeout: float = DEFAULT_LLM_TIMEOUT
    llm_max_retries: int = DEFAULT_LLM_MAX_RETRIES
    llm_max_failures: int = DEFAULT_LLM_MAX_FAILURES
    split: str | None = None
    """A frozen split of the task families: its instances are played instead of the classic tasks."""
    limit: int | None = None

    @property
    def uses_llm(self) -> bool:
        return self.agent == "llm" or (self.agent == "auto" and bool(self.api_key))

    @property
    def uses_fallback(self) -> bool:
        """Whether the built-in policy acts in a step where every model failed: ``FALLBACK`` when
        set, else yes for ``auto`` (the seeds' behaviour) and no for ``llm`` (a failed step)."""
        if self.fallback is not None:
            return self.fallback == "builtin"
        return self.agent != "llm"

    def seeds(self) -> list[int | None]:
        """The variants' seeds: the published variant for a single unseeded variant, else
        ``VARIANTS`` seeds from ``SEED`` (0 when unset). Each is played ``TRIALS`` times."""
        if self.seed is None and self.variants == 1:
            return [None]
        first = self.seed or 0
        return list(range(first, first + self.variants))

    def models_for(self, task_id: str, difficulty: str) -> tuple[str, ...]:
        """The candidate chain for a task: per task, else per difficulty, else general, else MODEL_NAME."""
        for chain in (self.candidates_by_task.get(task_id),
                      self.candidates_by_difficulty.get(difficulty), self.model_candidates):
            if chain:
                return chain
        return (self.model_name,)

    def all_models(self) -> list[str]:
        """Every model some task may use (MODEL_NAME only when no general list replaces it)."""
        seen: dict[str, None] = {}
        for chain in (self.model_candidates or (self.model_name,),
                      *self.candidates_by_difficulty.values(), *self.candidates_by_task.values()):
            seen.update(dict.fromkeys(chain))
        return list(seen)

    def agent_name(self) -> str:
        return f"llm:{','.join(self.all_models())}" if self.uses_llm else POLICY_NAME

    def public(self) -> dict[str, Any]:
        """The configuration as stored with the run: no key, no credentials inside URLs."""
        data = asdict(self)
        data.pop("api_key")
        data["api_key_set"] = bool(self.api_key)
        data["uses_llm"] = self.uses_llm
        data["uses_fallback"] = self.uses_llm and self.uses_fallback
        for name in ("api_base_url", "env_base_url", "database_url"):
            data[name] = strip_credentials(data[name])
        data["candidates_by_difficulty"] = {k: list(v) for k, v in self.candidates_by_difficulty.items()}
        data["candidates_by_task"] = {k: list(v) for k, v in self.candidates_by_task.items()}
        return data


def strip_credentials(url: str | None) -> str | None:
    """``scheme://user:secret@host/x`` -> ``scheme://***@host/x``; anything else unchanged."""
    if not url or "@" not in url:
        return url
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit((parts.scheme, "***@" + host, parts.path, parts.query, parts.fragment))


def _split(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    return tuple(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))


def _int(name: str, value: str | None, default: int | None, minimum: int) -> int | None:
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, not {value!r}") from None
    if number < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, not {number}")
    return number


def _float(name: str, value: str | None, default: float) -> float:
    if value is None or value.strip() == "":
        return default
    try:
        number = float(value)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {value!r}") from None
    if not number > 0:
        raise ConfigError(f"{name} must be positive, not {value}")
    return number


def _choice(name: str, value: str | None, allowed: Sequence[str], default: str) -> str:
    if value is None or value.strip() == "":
        return default
    if value.strip().lower() not in allowed:
        raise ConfigError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value.strip().lower()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="inference.py",
        description="Run the TicketLedger baseline over the task catalog. With no LLM key set "
                    "(API_KEY, HF_TOKEN or OPENAI_API_KEY) a built-in deterministic policy plays. "
                    "Stdout carries only [START]/[STEP]/[END] lines; everything else goes to stderr.",
        epilog="Every flag mirrors the environment variable named in its help; a flag wins. "
               "MODEL_CANDIDATES_TASK_<TASK_ID> (upper-cased task id) sets a chain for one task.",
    )
    for flag, variable, text in VARIABLES:
        parser.add_argument(flag, default=None, metavar=variable, help=f"{text} [${variable}]")
    parser.add_argument("--model-candidates-task", action="append", default=[],
                        metavar="TASK_ID=M1,M2",
                        help="candidates for one task (repeatable) [$MODEL_CANDIDATES_TASK_<TASK_ID>]")
    return parser


def _task_chains(environ: Mapping[str, str], flags: Sequence[str]) -> dict[str, tuple[str, ...]]:
    chains = {name[len(TASK_CANDIDATES_PREFIX):].lower(): _split(value)
              for name, value in environ.items()
              if name.startswith(TASK_CANDIDATES_PREFIX) and _split(value)}
    for item in flags:
        task_id, sep, models = item.partition("=")
        if not sep or not _split(models):
            raise ConfigError(f"--model-candidates-task takes TASK_ID=MODEL[,MODEL...], not {item!r}")
        chains[task_id.strip().lower()] = _split(models)
    return chains


def load(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Read flags and environment into a :class:`Config`; raise :class:`ConfigError` when unusable."""
    env = os.environ if environ is None else environ
    args = build_parser().parse_args(argv)

    def get(flag: str, variable: str) -> str | None:
        value = getattr(args, flag.lstrip("-").replace("-", "_"))
        return value if value is not None else env.get(variable)

    from service.settings import SettingsError, read

    try:  # the one reader of DATABASE_URL (and its default) for every entry point
        database_url = read(env).override(database_url=args.database_url).database_url
    except SettingsError as exc:
        raise ConfigError(str(exc)) from None
    key_source = next((name for name in KEY_VARIABLES if env.get(name)), None)
    by_difficulty = {d: _split(get(f"--model-candidates-{d}", f"MODEL_CANDIDATES_{d.upper()}"))
                     for d in DIFFICULTIES}
    config = Config(
        agent=_choice("AGENT", get("--agent", "AGENT"), AGENTS, "auto"),
        api_base_url=get("--api-base-url", "API_BASE_URL") or DEFAULT_API_BASE_URL,
        model_name=get("--model-name", "MODEL_NAME") or DEFAULT_MODEL_NAME,
        api_key=env.get(key_source) if key_source else None,
        api_key_source=key_source,
        benchmark=get("--benchmark", "BENCHMARK") or DEFAULT_BENCHMARK,
        model_candidates=_split(get("--model-candidates", "MODEL_CANDIDATES")),
        candidates_by_difficulty={d: c for d, c in by_difficulty.items() if c},
        candidates_by_task=_task_chains(env, args.model_candidates_task),
        action_schema_mode=_choice("ACTION_SCHEMA_MODE", get("--action-schema-mode", "ACTION_SCHEMA_MODE"),
                                   SCHEMA_MODES, "strict"),
        tasks=_split(get("--tasks", "TASKS")),
        seed=_int("SEED", get("--seed", "SEED"), None, 0),
        variants=_int("VARIANTS", get("--variants", "VARIANTS"), 1, 1) or 1,
        trials=_int("TRIALS", get("--trials", "TRIALS"), 1, 1) or 1,
        fallback=(_choice("FALLBACK", get("--fallback", "FALLBACK"), FALLBACKS, "")
                  or None),
        max_steps=_int("MAX_STEPS", get("--max-steps", "MAX_STEPS"), None, 1),
        reward_mode=_choice("REWARD_MODE", get("--reward-mode", "REWARD_MODE"), REWARD_MODES, "dense"),
        concurrency=_int("CONCURRENCY", get("--concurrency", "CONCURRENCY"), 1, 1) or 1,
        database_url=database_url,
        env_base_url=(get("--env-base-url", "ENV_BASE_URL") or "").rstrip("/") or None,
        llm_timeout=_float("LLM_TIMEOUT", get("--llm-timeout", "LLM_TIMEOUT"), DEFAULT_LLM_TIMEOUT),
        llm_max_retries=_int("LLM_MAX_RETRIES", get("--llm-max-retries", "LLM_MAX_RETRIES"),
                             DEFAULT_LLM_MAX_RETRIES, 0) or 0,
        llm_max_failures=_int("LLM_MAX_FAILURES", get("--llm-max-failures", "LLM_MAX_FAILURES"),
                              DEFAULT_LLM_MAX_FAILURES, 1) or DEFAULT_LLM_MAX_FAILURES,
        split=_choice("SPLIT", get("--split", "SPLIT"), SPLITS, "") or None,
        limit=_int("LIMIT", get("--limit", "LIMIT"), None, 1),
    )
    if config.split and (config.seed is not None or config.variants != 1):
        raise ConfigError("SPLIT chooses each instance's seed; SEED and VARIANTS do not go with it")
    if config.limit is not None and not config.split:
        raise ConfigError("LIMIT counts a split's instances; set SPLIT too")
    if config.agent == "llm" and not config.api_key:
        raise ConfigError("AGENT=llm needs a key in API_KEY, HF_TOKEN or OPENAI_API_KEY")
    return config
