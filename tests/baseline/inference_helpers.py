"""Running ``inference.py`` as a subprocess and checking its stdout against the contract.

``parse`` accepts only the three line types, in ``[START]`` ``[STEP]``* ``[END]`` blocks, with step
numbers counting from 1, ``[END]``'s step count and rewards agreeing with the block's ``[STEP]``
lines. Interleaved blocks, stray lines or a missing ``[END]`` fail it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
INFERENCE = REPO / "inference.py"

START = re.compile(r"^\[START\] task=(?P<task>\S+) env=(?P<env>\S+) model=(?P<model>\S+)$")
STEP = re.compile(r"^\[STEP\] step=(?P<n>[1-9]\d*) action=(?P<action>\{\S.*\}) "
                  r"reward=(?P<reward>-?\d+\.\d{2}) done=(?P<done>true|false) error=(?P<error>\S.*)$")
END = re.compile(r"^\[END\] success=(?P<success>true|false) steps=(?P<steps>\d+) "
                 r"score=(?P<score>0\.\d{2}) rewards=(?P<rewards>(?:-?\d+\.\d{2}(?:,-?\d+\.\d{2})*)?)$")
HEAD = re.compile(r"^\s+(ep_\w+) ([0-9a-f]{64})  # (\S+) seed=(\S+) score=\S+$", re.MULTILINE)
RUN_ID = re.compile(r"ticketledger runs show (run_\w+)")
CLEARED = ("API_KEY", "HF_TOKEN", "OPENAI_API_KEY", "API_BASE_URL", "MODEL_NAME", "MODEL_CANDIDATES",
           "ACTION_SCHEMA_MODE", "TASKS", "SEED", "TRIALS", "MAX_STEPS", "CONCURRENCY", "ENV_BASE_URL",
           "AGENT", "BENCHMARK", "LLM_TIMEOUT", "LLM_MAX_RETRIES", "LLM_MAX_FAILURES", "VARIANTS",
           "FALLBACK")


@dataclass
class Step:
    n: int
    action: dict[str, Any]
    reward: float
    done: bool
    error: str | None


@dataclass
class Block:
    task: str
    env: str
    model: str
    steps: list[Step] = field(default_factory=list)
    success: bool = False
    score: str = ""
    rewards: list[float] = field(default_factory=list)


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    blocks: list[Block]

    @property
    def run_id(self) -> str:
        found = RUN_ID.search(self.stderr)
        assert found, f"no run id on stderr:\n{self.stderr}"
        return found.group(1)

    def heads(self) -> dict[str, str]:
        """Episode id -> hash-chain head, as printed on stderr."""
        return {m.group(1): m.group(2) for m in HEAD.finditer(self.stderr)}


def parse(stdout: str) -> list[Block]:
    """Every stdout line checked against the contract; the blocks it forms."""
    blocks: list[Block] = []
    current: Block | None = None
    for number, line in enumerate(stdout.split("\n")[:-1], start=1):
        where = f"stdout line {number}: {line[:200]!r}"
        if m := START.match(line):
            assert current is None, f"[START] inside an open block at {where}"
            current = Block(m["task"], m["env"], m["model"])
        elif m := STEP.match(line):
            assert current is not None, f"[STEP] outside a block at {where}"
            assert int(m["n"]) == len(current.steps) + 1, f"step numbers must count from 1 at {where}"
            action = json.loads(m["action"])
            assert isinstance(action, dict) and line.count("\n") == 0
            error = None if m["error"] == "null" else m["error"]
            current.steps.append(Step(int(m["n"]), action, float(m["reward"]), m["done"] == "true", error))
        elif m := END.match(line):
            assert current is not None, f"[END] without [START] at {where}"
            assert int(m["steps"]) == len(current.steps), f"[END] steps disagree with [STEP]s at {where}"
            current.success = m["success"] == "true"
            current.score = m["score"]
            current.rewards = [float(r) for r in m["rewards"].split(",")] if m["rewards"] else []
            assert current.rewards == [s.reward for s in current.steps], f"rewards disagree at {where}"
            assert 0.0 < float(current.score) < 1.0
            blocks.append(current)
            current = None
        else:
            raise AssertionError(f"not a contract line: {where}")
    assert stdout == "" or stdout.endswith("\n")
    assert current is None, "the last block has no [END]"
    return blocks


def run_inference(env: dict[str, str], *args: str, cwd: Path | None = None, timeout: float = 180,
                  contract: bool = True) -> Run:
    """``python inference.py`` in a clean environment plus ``env``; stdout parsed strictly
    (unless ``contract`` is false, e.g. for ``--help``)."""
    full = {k: v for k, v in os.environ.items() if k not in CLEARED and not k.startswith("MODEL_CANDIDATES")}
    full.update(env)
    proc = subprocess.run([sys.executable, str(INFERENCE), *args], cwd=cwd or REPO, env=full,
                          capture_output=True, text=True, timeout=timeout)
    return Run(proc.returncode, proc.stdout, proc.stderr, parse(proc.stdout) if contract else [])
