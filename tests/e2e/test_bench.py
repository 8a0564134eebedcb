"""``python -m bench --quick`` runs every section end to end, so the benchmark cannot rot.

No timing is asserted (speed belongs in the bench's own table); only that every section ran,
produced finite figures, wrote its JSON, and printed the table.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import SECTIONS
from tests.databases import sqlite_pass_only

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@sqlite_pass_only("the bench picks its own databases (its postgres section uses "
                  "TICKETLEDGER_PG_URL in both passes)")
def test_quick_bench_runs_every_section(tmp_path: Path) -> None:
    out = tmp_path / "results"
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--out", str(out),
                           "--workdir", str(tmp_path / "work"), "--baseline", str(ROOT)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    latest = json.loads((out / "latest.json").read_text())
    assert latest["meta"]["quick"] is True and latest["table"] in done.stdout
    keys = {f["key"] for f in latest["figures"]}
    own = {k for k in keys if not k.startswith("host.steal.")}  # every section has a steal row
    for section in SECTIONS:
        if section != "postgres":  # its figures are http.postgres-*; skipped if PG is unreachable
            assert any(k.startswith(section + ".") for k in own), section
    assert "host.speed" in keys
    assert {"http.sqlite.vs_baseline", "ws.sqlite.vs_baseline",
            "startup.start.vs_baseline"} <= keys  # this code against itself
    for figure in latest["figures"]:
        assert figure["runs"] and all(math.isfinite(v) and v >= 0 for v in figure["runs"]), figure
    assert not list((tmp_path / "work").glob("**/*.db")), "the bench left databases behind"


@pytest.mark.slow
@sqlite_pass_only("the bench picks its own databases (SQLite, and PostgreSQL at TICKETLEDGER_PG_URL)")
def test_sessions_table_covers_every_configuration_without_errors(tmp_path: Path) -> None:
    """``python -m bench.sessions --quick``: every configuration of the per-worker table (one
    SQLite worker; 2 and 4 PostgreSQL workers) runs its back-to-back and thinking rounds over real
    ``/ws`` sessions with no error, prints a row for each, and leaves no database behind. One
    session count (8) keeps it to three servers; the rows' arithmetic is tested below."""
    from bench.sessions import Config
    from tests.databases import pg_admin, pg_unavailable

    try:
        with pg_admin():
            postgres = True
    except Exception as exc:
        if os.environ.get("CI"):
            pg_unavailable(exc)  # fails: CI must cover the PostgreSQL rows
        postgres = False
    out = tmp_path / "results"
    done = subprocess.run([sys.executable, "-m", "bench.sessions", "--quick", "--sessions", "8",
                           "--out", str(out), "--workdir", str(tmp_path / "work")], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and "sessions |" not in line]
    expected = [Config("sqlite", 1, 8)] + (
        [Config("postgres", w, 8) for w in (2, 4)] if postgres else [])
    assert [tuple(c.strip() for c in row.strip("|").split("|")[:2]) for row in rows] == [
        (config.name, str(config.sessions)) for config in expected]
    assert all(row.rstrip(" |").endswith("| 0") for row in rows), rows  # the errors column
    latest = json.loads((out / "latest.json").read_text())
    assert latest["meta"]["matrix"] in done.stdout
    keys = {f["key"] for f in latest["figures"]}
    for config in expected:
        key = f"ws.{config.key}"
        assert {f"{key}.{k}" for k in ("throughput", "p50", "p99", "thinking_p50", "thinking_p99",
                                       "errors", "thinking_errors")} <= keys, key
    for figure in latest["figures"]:
        assert figure["runs"] and all(math.isfinite(v) and v >= 0 for v in figure["runs"]), figure
    assert not list((tmp_path / "work").glob("**/*.db")), "the bench left databases behind"


@pytest.mark.slow
@sqlite_pass_only("the bench picks its own databases")
def test_sessions_table_counts_refused_sessions_and_fails(tmp_path: Path) -> None:
    """A server that refuses half the sessions (a cap of 4, 8 sessions) is reported: the errors
    column counts each refused session of both phases (4 in the first; 4 or, while the server
    still releases the first phase's sessions, a few more in the second), the reason is logged,
    the exit status is 1."""
    done = subprocess.run([sys.executable, "-m", "bench.sessions", "--quick", "--sessions", "8",
                           "--workers", "0", "--out", str(tmp_path / "results"), "--workdir",
                           str(tmp_path / "work")], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TICKETLEDGER_MAX_SESSIONS": "4"})
    assert done.returncode == 1, done.stderr[-3000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| SQLite")]
    assert len(rows) == 1 and 8 <= int(rows[0].rstrip(" |").rsplit("|", 1)[1]) <= 12, rows
    assert "CAPACITY_REACHED" in done.stderr and " error(s): every session must" in done.stderr


def test_sessions_table_rows_are_the_medians_of_each_configuration() -> None:
    """The per-worker table reads each row's figures by its configuration's key: medians over the
    rounds (the longest thinking step's too), the throughput's spread, both ways' errors summed; a
    configuration not measured (PostgreSQL
    unreachable) has no row. Session counts below 256 play more back-to-back steps each."""
    from bench import ws
    from bench.common import Figure
    from bench.sessions import FULL, Config, errors, matrix, shape_for

    one, four = Config("sqlite", 1, 64), Config("postgres", 4, 256)
    figures = [
        Figure("ws.sqlite-1w-64s.throughput", "", "steps/s", [900.0, 1200.0, 1000.0]),
        Figure("ws.sqlite-1w-64s.p50", "", "ms", [30.0, 50.0, 40.0]),
        Figure("ws.sqlite-1w-64s.p99", "", "ms", [120.0, 90.0, 100.0]),
        Figure("ws.sqlite-1w-64s.thinking_p50", "", "ms", [2.0, 3.0, 2.5]),
        Figure("ws.sqlite-1w-64s.thinking_p99", "", "ms", [20.0, 60.0, 30.0]),
        Figure("ws.sqlite-1w-64s.thinking_max", "", "ms", [70.0, 140.0, 90.0]),
        Figure("ws.sqlite-1w-64s.errors", "", "count", [0.0, 2.0, 0.0]),
        Figure("ws.sqlite-1w-64s.thinking_errors", "", "count", [1.0, 0.0, 0.0]),
    ]
    lines = matrix(figures, [one, four]).splitlines()
    assert len(lines) == 3 and lines[0].startswith("| server | sessions |")
    assert lines[2] == "| SQLite, 1 worker | 64 | 1,000 (900-1,200) | 40.0 | 100 | 2.5 | 30.0 | 90.0 | 3 |"
    assert errors(figures) == 3
    assert four.name == "PostgreSQL, 4 workers" and four.key == "postgres-4w-256s"
    assert shape_for(256, FULL) == FULL
    assert shape_for(64, FULL) == ws.Shape(64, FULL.rounds, 4 * FULL.fast_steps, FULL.slow_steps)


PROC_STAT = """cpu  4705 150 1120 1644800 120 0 85 900 0 0
cpu0 2352 75 560 822400 60 0 42 450 0 0
intr 123
"""


def test_cpu_steal_is_read_from_proc_stat() -> None:
    from bench.common import cpu_times, steal_percent

    assert cpu_times(PROC_STAT) == (900, 4705 + 150 + 1120 + 0 + 85 + 900)  # idle left out
    assert cpu_times("intr 1\n") is None
    assert steal_percent((100, 1000), (350, 2000)) == 25.0
    assert steal_percent(None, (1, 2)) is None and steal_percent((5, 10), (5, 10)) is None


def test_host_loops_count_what_they_wrote_and_clean_up(tmp_path: Path) -> None:
    """The calibration loops check their own work (a row count, a fold) and leave no file."""
    from bench.host import PAYLOAD, append_rate, read_fold_rate

    assert len(PAYLOAD) == 300 and json.loads(PAYLOAD)["step"] == 3
    path = tmp_path / "host.db"
    assert append_rate(path, 0.05) > 0
    assert append_rate(path, 0.05, batch=100) > 0
    assert read_fold_rate(path, 1_005) > 0  # 101 streams, the last one short
    assert not list(tmp_path.iterdir())


def _service_head(plan, episode_id: str) -> str:  # type: ignore[no-untyped-def]
    """The chain head the service records for ``plan`` (a log of its own: one id per log)."""
    from service import EnvironmentService
    from store import open_database

    db = open_database("sqlite://")
    try:
        service = EnvironmentService(db)
        result = service.reset(plan.task_id, plan.seed, episode_id)
        for action in plan.actions:
            result = service.step(result.episode_id, action)
        return result.head_hash
    finally:
        db.dispose()


def test_parts_time_the_services_pipeline_and_refuse_an_unfinished_episode() -> None:
    """The parts play exactly what the service records (the same chain head per episode, so the
    same events byte for byte), every part is timed, and a plan that stops early is an error."""
    import dataclasses

    from bench.parts import EPISODE_ID, PARTS, play
    from bench.workload import plans, steps_in

    work = plans(seeds=(None, 2))[::5]
    spent, steps, heads = play(work)
    assert steps == steps_in(work)
    assert set(spent) == set(PARTS) and all(seconds > 0 for seconds in spent.values())
    assert heads == [_service_head(plan, EPISODE_ID) for plan in work]
    cut = dataclasses.replace(work[0], actions=work[0].actions[:-1])
    with pytest.raises(AssertionError, match="did not end"):
        play([cut])


def test_a_play_cut_after_a_part_runs_only_the_parts_up_to_it() -> None:
    """``play(upto=...)``, from which the instructions section counts each part: the parts after
    ``upto`` take no time, the steps are all still played, chain heads come only from a play that
    runs the chain, and an unknown part is refused by name."""
    from bench.parts import PARTS, play
    from bench.workload import plans, steps_in

    work = plans(seeds=(None,))[::4]
    for i, upto in enumerate(PARTS):
        spent, steps, heads = play(work, upto)
        assert steps == steps_in(work)
        assert [part for part in PARTS if spent[part] > 0] == list(PARTS[:i + 1]), upto
        assert len(heads) == (len(work) if upto == "chain" else 0)
    with pytest.raises(ValueError, match="unknown part 'render'; one of reset, parse"):
        play(work, "render")

@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("TICKETLEDGER_BENCH_VALGRIND"),
                    reason="the instructions section's own check (minutes under valgrind): run it "
                           "with TICKETLEDGER_BENCH_VALGRIND=1")
@sqlite_pass_only("no database: the domain's pipeline in a child process under valgrind")
def test_instruction_counts_leave_out_start_up_and_need_valgrind(monkeypatch: pytest.MonkeyPatch) -> None:
    """The difference of two callgrind runs is the measured passes alone: one pass of the parts
    workload (~200 steps) costs ~0.5M instructions a step here, while the child's start-up and
    warm-up are over a billion; a figure that let those in would be millions a step.

    Not part of the plain run or CI: an instruction count is a bench figure, and valgrind takes
    minutes. Asked for by name, it needs valgrind and fails without it."""
    from bench import instructions

    assert shutil.which("valgrind"), "valgrind is not installed (Debian: apt-get install valgrind)"
    per_step = instructions.per_unit("parts", 1)
    assert 100_000 < per_step < 3_000_000, per_step
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    with pytest.raises(instructions.Unavailable, match="valgrind"):
        instructions.count("parts", 1)
    assert instructions.run(Path("."), quick=True) == []  # the section skips itself, with a log line


def test_the_bench_imports_nothing_from_tests() -> None:
    """The bench is a tool users run; the test suite is not part of what it needs."""
    import ast

    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not [n for n in names if n == "tests" or n.startswith("tests.")], path.name


def test_the_yardstick_plays_the_seeds_flow_and_penalties() -> None:
    """The yardstick does the seed's work: its four-step flow scores 1.0 on every task, rewards add
    up to the score, and a no-op, a missing field or an early resolve earns nothing."""
    import httpx

    from bench import servers
    from bench.http import play, post
    from bench.workload import flat, seed_episodes

    work = seed_episodes()
    assert len(work) == 6 and all(len(plan.actions) == 4 for plan in work)
    with servers.yardstick() as server, httpx.Client(base_url=server.url, timeout=30) as client:
        assert play(client, work, len(work)) == 4 * len(work)
        for plan in work:
            post(client, "/reset", {"task_id": plan.task_id})
            answers = [post(client, "/step", action) for action in plan.actions]
            rewards = [a["reward"]["score"] for a in answers]
            assert answers[-1]["info"] == {"task_score": 1.0, "step_count": 4}, plan.task_id
            assert round(sum(rewards), 4) == 1.0 and answers[-1]["done"] is True
        post(client, "/reset", {"task_id": "task_easy_password"})
        for action in (flat("noop"), flat("classify_priority"),
                       flat("resolve_ticket", resolution_code="awaiting_customer_confirmation")):
            answer = post(client, "/step", action)
            assert answer["reward"]["score"] == 0.0 and answer["reward"]["reason"] != "progress"
            assert answer["done"] is False
        state = client.get("/state").json()
        assert state["step_count"] == 3 and state["action_history"] == [
            "noop", "classify_priority", "resolve_ticket"]
        assert client.post("/step", json={"action_type": "shout"}).status_code == 422
        assert client.post("/reset", json={"task_id": "nope"}).status_code == 404
