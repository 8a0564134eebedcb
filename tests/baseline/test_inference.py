"""``python inference.py`` with the built-in policy: the stdout contract, the run record, replay.

Runs the real script as a subprocess (the contract is about its stdout) against the suite's
database backend.
"""

from __future__ import annotations

import inspect
import os
import re
import socket
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from baseline import policy as policy_module
from baseline.agent import RuleAgent
from baseline.policy import BUILTIN_POLICY, next_action
from baseline.stdout import printed_score
from domain.observation import Observation
from domain.tasks import default_catalog
from service import EnvironmentService
from service.replay import replay
from store import open_database
from store.runs import RunStore
from tests.baseline.inference_helpers import CLEARED, REPO, Run, run_inference
from tests.observations import observation
from tests.play import play

CATALOG = default_catalog()


@pytest.fixture(scope="module")
def policy_run(tmp_path_factory: pytest.TempPathFactory, default_database_env: str) -> Run:
    """One default run over every task (what a user's first ``python inference.py`` does)."""
    return run_inference({"DATABASE_URL": default_database_env},
                         cwd=tmp_path_factory.mktemp("inference"))


@pytest.fixture(scope="module")
def stored(default_database_env: str):  # type: ignore[no-untyped-def]
    db = open_database(default_database_env)
    yield RunStore(db), EnvironmentService(db)
    db.dispose()


def test_every_task_runs_in_catalog_order_and_every_line_follows_the_contract(policy_run: Run) -> None:
    assert policy_run.returncode == 0, policy_run.stderr
    assert [b.task for b in policy_run.blocks] == CATALOG.task_ids
    for block in policy_run.blocks:
        assert block.env == "ticketledger" and block.model == "builtin-policy"
        assert block.steps and block.steps[-1].done
        assert all(not s.done for s in block.steps[:-1])
        assert all(s.error is None for s in block.steps), block


def test_success_and_printed_score_follow_the_exact_score(policy_run: Run, stored) -> None:  # type: ignore[no-untyped-def]
    runs, _ = stored
    episodes = {e.task_id: e for e in runs.episodes(policy_run.run_id)}
    for block in policy_run.blocks:
        exact = episodes[block.task].score
        assert block.score == printed_score(exact)
        assert block.success == (exact >= CATALOG.spec(block.task).success_threshold)
        assert abs(sum(block.rewards) - exact) <= 0.005 * len(block.rewards) + 1e-9


def test_the_run_and_its_episodes_are_recorded(policy_run: Run, stored) -> None:  # type: ignore[no-untyped-def]
    runs, _ = stored
    run = runs.get(policy_run.run_id)
    assert run.status == "finished" and run.ended_at is not None
    assert run.agent == "builtin-policy"
    assert run.config["api_key_set"] is False and "api_key" not in run.config
    episodes = runs.episodes(run.run_id)
    assert sorted(e.task_id for e in episodes) == sorted(CATALOG.task_ids)
    assert all(e.run_id == run.run_id and e.status == "ended" for e in episodes)
    summary = run.summary
    assert summary is not None
    by_id = {e["episode_id"]: e for e in summary["episodes"]}
    for row in episodes:
        assert by_id[row.episode_id]["score"] == row.score
        assert by_id[row.episode_id]["head_hash"] == row.head_hash
    assert summary["mean_score"] == round(statistics.fmean(e.score for e in episodes), 4)
    assert summary["llm"] == {"calls": 0}


def test_every_episode_replays_consistently_and_its_head_is_printed(policy_run: Run, stored) -> None:  # type: ignore[no-untyped-def]
    runs, service = stored
    heads = policy_run.heads()
    for row in runs.episodes(policy_run.run_id):
        report = replay(service.load_events(row.episode_id), CATALOG)
        assert report.consistent, report.to_json()["first_divergence"]
        assert report.recomputed_score == row.score
        assert heads[row.episode_id] == row.head_hash == report.head_hash


def test_stderr_says_how_to_look_at_the_run(policy_run: Run) -> None:
    run_id = policy_run.run_id
    assert f"ticketledger runs show {run_id}" in policy_run.stderr
    assert "ticketledger replay ep_" in policy_run.stderr
    assert f"http://127.0.0.1:7860/ui/runs/{run_id}" in policy_run.stderr
    assert "mean score" in policy_run.stderr


# ------------------------------------------------------------------------------ the policy
LADDER = [
    {"action_type": "classify_priority", "priority": "medium"},
    {"action_type": "assign_queue", "queue": "general"},
    {"action_type": "draft_reply", "reply_text": "Thank you for contacting support. We have received "
                                                 "your request and will get back to you shortly."},
    {"action_type": "resolve_ticket", "resolution_code": "awaiting_customer_confirmation"},
]
"""A fixed fallback ladder like the seeds' heuristic agents: the same four actions for every ticket."""


def _play(service: EnvironmentService, task_id: str, seed: int | None, policy: bool) -> float:
    ladder = iter(LADDER)

    def climb(observation: Observation) -> dict[str, Any]:
        return next(ladder, {"action_type": "noop"})

    agent = BUILTIN_POLICY if policy else RuleAgent("ladder", climb)
    return play(service, task_id, agent, seed=seed)[-1].state.score


def test_the_policy_beats_a_fixed_ladder_and_stays_below_the_scripted_solutions(service) -> None:  # type: ignore[no-untyped-def]
    seeds: list[int | None] = [None, 0, 1, 2, 3]
    policy = [_play(service, t, s, True) for t in CATALOG.task_ids for s in seeds]
    ladder = [_play(service, t, s, False) for t in CATALOG.task_ids for s in seeds]
    assert statistics.fmean(policy) >= statistics.fmean(ladder) + 0.25
    assert statistics.fmean(policy) < 0.97  # the scripted solutions score 1.0 on every variant
    assert min(policy) > 0.3


def test_the_policy_applies_the_rules_it_read_to_each_variant(service) -> None:  # type: ignore[no-untyped-def]
    """Across variants of the policy-governed tasks the decisions differ, and follow the ticket."""
    for task_id in ("task_hard_refund_policy_denial", "task_hard_account_email_change",
                    "task_hard_refund_fraud_trap", "task_hard_gdpr_deletion"):
        codes, right = set(), 0
        for seed in range(12):
            result = service.reset(task_id, seed=seed)
            while not result.done:
                result = service.step(result.episode_id, next_action(result.observation))
            accepted = [c.value if c else None for c in result.state.task.expected.resolution_code]
            codes.add(result.state.resolution_code)
            right += result.state.resolution_code in accepted
        assert len(codes) > 1, task_id
        assert right >= 10, (task_id, right)


def test_the_policy_reads_only_the_observation() -> None:
    source = inspect.getsource(policy_module)
    for forbidden in ("bench.scripted", "service.gold", ".expected", "variables", "from service",
                      "from store", "TaskInstance", ".case"):
        assert forbidden not in source, forbidden
    domain = re.findall(r"^\s*from (domain\S*)", source, re.MULTILINE)
    assert domain and set(domain) == {"domain.observation"}, domain  # what an agent sees, typed
    action = next_action(observation({"customer_name": "Kim Lee", "subject": "How do I export data?",
                                      "message": "Is it possible to export a CSV?"},
                                     objective="Answer the question.", max_steps=8))
    assert action == {"action_type": "classify_priority", "priority": "low"}


# ------------------------------------------------------------------------- run-level options
def test_variants_trials_and_concurrency_keep_blocks_whole_and_report_pass_k(
        database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """VARIANTS seeds from SEED, each played TRIALS times; pass^1..k per task over the trials of
    each variant. The policy is deterministic, so a variant's trials agree and pass^2 == pass^1."""
    from math import comb

    from cli.main import main

    tasks = ["task_easy_password", "task_hard_refund_policy_denial", "task_hard_gdpr_deletion"]
    run = run_inference({"DATABASE_URL": database_url, "TASKS": ",".join(tasks), "SEED": "3",
                         "VARIANTS": "2", "TRIALS": "2", "CONCURRENCY": "4"}, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert sorted(b.task for b in run.blocks) == sorted(tasks * 4)  # parse() rejects interleaving
    db = open_database(database_url)
    try:
        stored = RunStore(db)
        episodes = stored.episodes(run.run_id)
        expected = sorted((t, s) for t in tasks for s in (3, 3, 4, 4))
        assert sorted((e.task_id, e.seed) for e in episodes) == expected
        summary = stored.get(run.run_id).summary
    finally:
        db.dispose()
    assert (summary["pass_k"]["k"], summary["pass_k"]["variants"]) == (2, 2)
    for row in summary["tasks"]:
        mine = [e for e in summary["episodes"] if e["task_id"] == row["task_id"]]
        outcomes = [[e["success"] for e in mine if e["seed"] == seed] for seed in (3, 4)]
        assert all(len(set(o)) == 1 for o in outcomes)  # deterministic: trials agree
        for k in (1, 2):
            want = statistics.fmean(comb(sum(o), k) / comb(len(o), k) for o in outcomes)
            assert row["pass_hat"][str(k)] == round(want, 4)
        assert row["pass_hat"]["1"] == row["pass_hat"]["2"] == row["pass_k"]
        assert (row["variants"], row["trials"], row["episodes"]) == (2, 2, 4)
    by_k = summary["pass_k"]["by_k"]
    assert by_k["2"] == summary["pass_k"]["overall"] == round(
        statistics.fmean(t["pass_hat"]["2"] for t in summary["tasks"]), 4)
    assert f"pass^1 {by_k['1']:.2f} [1.00, 1.00], pass^2 {by_k['2']:.2f} [1.00, 1.00]" in run.stderr
    u = summary["uncertainty"]  # 6 instances x 2 trials of a deterministic policy: nothing flips
    assert (u["units"], u["flip_rate"], u["flipped_units"], u["repeated_units"]) == (6, 0.0, 0, 6)
    assert u["noise_floor"]["mean_score"]["this_size"] == 0.0
    assert "flip rate over trials: 0.00 (0 of 6 instances changed verdict" in run.stderr
    assert "noise floor: two runs of this size (6 instances x 2 trial(s)) must differ" in run.stderr
    assert "2 variant(s) x 2 trial(s) per task" in run.stderr
    assert main(["--database-url", database_url, "runs", "show", run.run_id]) == 0
    shown = capsys.readouterr().out
    assert "2 variant(s) x 2 trial(s) per task" in shown and f"pass^2 {by_k['2']:.2f}" in shown
    assert "PASS^1" in shown and "PASS^2" in shown and "VARIANTS" in shown


def test_max_steps_caps_every_episode(database_url: str, tmp_path: Path) -> None:
    run = run_inference({"DATABASE_URL": database_url, "MAX_STEPS": "2",
                         "TASKS": "task_easy_password,task_hard_gdpr_deletion"}, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert [len(b.steps) for b in run.blocks] == [2, 2]
    assert not any(b.success for b in run.blocks)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_end_is_printed_when_the_environment_fails(database_url: str, tmp_path: Path) -> None:
    run = run_inference({"DATABASE_URL": database_url, "TASKS": "task_easy_password",
                         "ENV_BASE_URL": f"http://127.0.0.1:{_closed_port()}"}, cwd=tmp_path)
    assert run.returncode == 1
    assert run.stdout.splitlines()[-1] == "[END] success=false steps=0 score=0.01 rewards="
    assert "episode failed" in run.stderr


def test_a_configuration_error_prints_nothing_on_stdout(tmp_path: Path) -> None:
    run = run_inference({"TASKS": "task_easy_password,task_nope"}, cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    assert "task_nope" in run.stderr and "task_easy_password" in run.stderr


def test_help_lists_every_variable(tmp_path: Path) -> None:
    from baseline.config import VARIABLES

    run = run_inference({}, "--help", cwd=tmp_path, contract=False)
    assert run.returncode == 0
    for flag, variable, _ in VARIABLES:
        assert flag in run.stdout and variable in run.stdout


def test_policy_mode_imports_no_llm_client_web_framework_or_openenv(database_url: str,
                                                                     tmp_path: Path) -> None:
    """Start-up stays fast: without a key nothing heavy is imported."""
    code = ("import sys; sys.argv = ['inference.py', '--tasks', 'task_easy_password']; "
            "from baseline.runner import main; main(); "
            "print('HEAVY', sorted(m for m in ('openai', 'httpx', 'fastapi', 'starlette', 'uvicorn', "
            "'openenv', 'gradio') if m in sys.modules), file=sys.stderr)")
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env["DATABASE_URL"] = database_url
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={**env, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "HEAVY []" in proc.stderr


FIRST_LINE = """
import io, os, sys
STOP = sys.argv[1]
LOADED = ("alembic", "service.environment", "graders", "domain.events", "confusable_homoglyphs",
          "markdown_it", "snowballstemmer")
class Stdout(io.TextIOBase):
    def write(self, text):
        if text.startswith(STOP):
            print(STOP, sorted(m for m in LOADED if m in sys.modules), file=sys.stderr, flush=True)
            os._exit(0)
        return len(text)
sys.stdout = Stdout()
sys.argv = ["inference.py", "--tasks", "task_easy_password"]
from baseline.runner import main
main()
"""


@pytest.mark.parametrize(("line", "loaded"), [
    ("[START]", []),
    ("[STEP]", ["domain.events", "graders", "service.environment"]),
    ("[END]", ["domain.events", "graders", "markdown_it", "service.environment", "snowballstemmer"]),
])
def test_the_first_line_comes_before_the_environment_is_loaded(database_url: str, tmp_path: Path,
                                                               line: str, loaded: list[str]) -> None:
    """Start-up does only what the first ``[START]`` line needs: the database (current, so no
    Alembic), the catalog and the run record. The environment and the graders come with the first
    reset (before the first ``[STEP]``), the markdown parser and the stemmer with the first reply
    graded (the confusables table with the first text that is not ASCII: the policy writes none)."""
    open_database(database_url).dispose()  # migrated: a program finding it current needs no Alembic
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    proc = subprocess.run([sys.executable, "-c", FIRST_LINE, line], cwd=tmp_path,
                          env={**env, "DATABASE_URL": database_url, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"{line} {loaded}" in proc.stderr.splitlines(), proc.stderr


def test_runs_commands_list_and_show_the_run(policy_run: Run, default_database_env: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from cli.main import main

    base = ["--database-url", default_database_env]
    assert main([*base, "runs"]) == 0
    assert policy_run.run_id in capsys.readouterr().out
    assert main([*base, "runs", "--json"]) == 0
    listed = {r["run_id"]: r for r in json.loads(capsys.readouterr().out)["runs"]}
    assert listed[policy_run.run_id]["agent"] == "builtin-policy"
    assert main([*base, "runs", "show", policy_run.run_id]) == 0
    text = capsys.readouterr().out
    assert all(task_id in text for task_id in CATALOG.task_ids)
    assert main([*base, "runs", "show", policy_run.run_id, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert len(shown["episodes"]) == len(CATALOG.task_ids)
    assert all(e["in_database"] and len(e["head_hash"]) == 64 for e in shown["episodes"])
    assert main([*base, "runs", "show", "run_missing"]) == 1
    assert "no run 'run_missing'" in capsys.readouterr().out


# --------------------------------------------------------------------------- README numbers
README = REPO / "README.md"
TABLE_ROW = re.compile(r"^\| `(task_\w+)` \| (\w+) \| ([\d.]+) \| (\d+) \| ([\d.]+) \| ([\d.]+) "
                       r"\| (yes|no) \|$", re.MULTILINE)


def test_the_readme_baseline_table_is_what_the_command_prints(policy_run: Run, stored) -> None:  # type: ignore[no-untyped-def]
    """Regenerate the table with a real run when the grader or the policy changes."""
    runs, _ = stored
    section = README.read_text().split("### Baseline scores", 1)[1].split("\n### ", 1)[0]
    rows = {m[1]: m.groups()[1:] for m in TABLE_ROW.finditer(section)}
    summary = runs.get(policy_run.run_id).summary
    assert list(rows) == [b.task for b in policy_run.blocks]
    for block in policy_run.blocks:
        episode = next(e for e in summary["episodes"] if e["task_id"] == block.task)
        difficulty, threshold, steps, score, printed, success = rows[block.task]
        assert (difficulty, float(threshold), int(steps)) == (
            episode["difficulty"], episode["success_threshold"], len(block.steps))
        assert (score, printed, success == "yes") == (f"{episode['score']:.4f}", block.score, block.success)
    u = summary["uncertainty"]
    mean, rate = u["mean_score"], u["success_rate"]
    assert (f"**{summary['mean_score']:.4f}** [{mean['low']:.4f}, {mean['high']:.4f}]" in section)
    assert (f"{sum(b.success for b in policy_run.blocks)}/{len(policy_run.blocks)}, rate "
            f"{summary['success_rate']:.2f} [{rate['low']:.2f}, {rate['high']:.2f}] |") in section
    printed = (f"mean score {summary['mean_score']:.4f} [{mean['low']:.4f}, {mean['high']:.4f}], "
               f"success rate {summary['success_rate']:.2f} [{rate['low']:.2f}, {rate['high']:.2f}]")
    assert printed in policy_run.stderr  # the table holds what the summary line printed


def test_the_readme_variants_figures_are_what_the_command_prints(tmp_path: Path, database_url: str) -> None:
    run = run_inference({"DATABASE_URL": database_url, "VARIANTS": "5", "CONCURRENCY": "4"}, cwd=tmp_path)
    found = re.search(r"mean score (\d\.\d{4} \[\d\.\d{4}, \d\.\d{4}\]), success rate "
                      r"(\d\.\d\d \[\d\.\d\d, \d\.\d\d\]), pass\^1 (\d\.\d\d) \[", run.stderr)
    assert found, run.stderr
    section = README.read_text().split("### Baseline scores", 1)[1].split("\n### ", 1)[0]
    assert "`python inference.py --variants 5`" in section
    assert f"mean score {found[1]}, success rate {found[2]}" in section.replace("\n", " ")


def test_the_printed_heads_are_a_heads_file_that_verify_accepts(policy_run: Run, stored) -> None:  # type: ignore[no-untyped-def]
    from service.audit_views import Auditor
    from service.verify import check_heads, parse_heads

    _, service = stored
    heads = parse_heads(policy_run.stderr.split("Hash-chain heads", 1)[1].split("\n", 1)[1])
    assert len(heads) == len(CATALOG.task_ids)
    report = check_heads(Auditor(service.db), heads)
    assert report["ok"] and report["matched"] == len(CATALOG.task_ids), report
