"""The audit CLI: every command has --help and --json (the same JSON as REST), tables for people,
and exit codes that scripts can rely on (1 on a divergence, 2 on bad input)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from cli.main import main
from service import EnvironmentService
from service.audit_views import Auditor
from store.queries import EpisodeFilter
from tests.audit_helpers import play_weak
from tests.play import play
from tests.servers import ROOT

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test

COMMANDS = ["episodes", "show", "replay", "verify", "heads", "diff", "regrade", "export", "fork"]


@pytest.fixture
def cli(database_url: str, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """Run ``ticketledger --database-url URL ARGS``; returns (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        code = main(["--database-url", database_url, *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def episodes(service: EnvironmentService) -> dict[str, str]:
    return {"expert": play(service, "task_easy_password", run_id="run_cli")[0].episode_id,
            "weak": play_weak(service, "task_easy_password", run_id="run_cli")[0].episode_id}


def test_every_command_has_help() -> None:
    for command in COMMANDS:
        done = subprocess.run([sys.executable, "-m", "cli.main", command, "--help"], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "--json" in done.stdout and "usage:" in done.stdout


def test_json_output_equals_the_service_views(cli, service, episodes) -> None:  # type: ignore[no-untyped-def]
    auditor = Auditor(service.db)
    expert, weak = episodes["expert"], episodes["weak"]
    code, out, _ = cli("episodes", "--run", "run_cli", "--json")
    assert code == 0 and json.loads(out) == auditor.list_episodes(EpisodeFilter(run_id="run_cli"), 50)
    code, out, _ = cli("show", expert, "--json")
    assert code == 0 and json.loads(out) == json.loads(json.dumps(auditor.show(expert)))
    code, out, _ = cli("replay", expert, "--json")
    assert code == 0 and json.loads(out) == json.loads(json.dumps(auditor.replay(expert)))
    code, out, _ = cli("diff", expert, weak, "--json")
    assert code == 0
    assert json.loads(out)["first_divergence"] == auditor.diff(expert, weak)["first_divergence"]
    code, out, _ = cli("verify", "--json")
    assert code == 0 and json.loads(out)["episodes"] == 2 and json.loads(out)["ok"]


def test_people_output(cli, service, episodes) -> None:  # type: ignore[no-untyped-def]
    expert = episodes["expert"]
    code, out, _ = cli("episodes")
    assert code == 0 and out.splitlines()[0].split()[:3] == ["EPISODE_ID", "TASK_ID", "SEED"]
    assert expert in out and "\x1b[" not in out  # no colour off a terminal
    code, out, _ = cli("show", expert)
    header = next(line for line in out.splitlines() if line.startswith("STEP"))
    assert header.split() == ["STEP", "ACTION", "EVENTS", "CHANGE", "REWARD", "SCORE", "REASON"]
    assert "priority set to" in out and "final grade" in out
    code, out, _ = cli("replay", expert)
    assert code == 0 and "RECORDED_REWARD" in out and "RECOMPUTED_REWARD" in out and "consistent" in out


def test_replay_and_verify_fail_naming_the_step(cli, service, episodes) -> None:  # type: ignore[no-untyped-def]
    expert = episodes["expert"]
    recorded = service.store.load(expert)
    target = next(r for r in recorded if r.type == "ReplyDrafted")
    step = max(r.data["step"] for r in recorded if r.type == "ActionReceived" and r.seq < target.seq)
    with service.db.write() as conn:
        if service.db.dialect == "sqlite":
            conn.execute(text("DROP TRIGGER events_no_update"))
        else:
            conn.execute(text("DROP TRIGGER events_no_update_delete ON events"))
        tampered = target.data_text.replace("Hi ", "Hi!", 1)
        assert len(tampered) == len(target.data_text) and tampered != target.data_text
        conn.execute(text("UPDATE events SET data = :d WHERE episode_id = :e AND seq = :s"),
                     {"d": tampered, "e": expert, "s": target.seq})
    code, out, _ = cli("replay", expert)
    assert code == 1 and f"DIVERGED at step {step}" in out
    code, out, _ = cli("replay", expert, "--json")
    assert code == 1 and json.loads(out)["first_divergence"]["step"] == step
    code, out, _ = cli("verify")
    assert code == 1 and f"FAIL {expert}" in out and "1 inconsistent" in out


def test_heads_round_trip_and_verify_heads(cli, tmp_path: Path, episodes) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("heads")
    assert code == 0 and out.startswith("# ticketledger heads v1")
    heads = tmp_path / "heads.txt"
    heads.write_text(out)
    code, out, _ = cli("verify", "--heads", str(heads), "--json")
    data = json.loads(out)
    assert code == 0 and data["heads"]["matched"] == 2
    heads.write_text(heads.read_text() + f"ep_gone 4 {'0' * 64}\n")
    code, out, _ = cli("verify", "--heads", str(heads))
    assert code == 1 and "HEAD ep_gone missing" in out


def test_regrade_export_fork(cli, service, tmp_path: Path, episodes) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("regrade", "--run", "run_cli", "--dry-run", "--json")
    data = json.loads(out)
    assert code == 0 and data["dry_run"] and data["episodes"] == 2 and data["records_appended"] == 0
    code, out, _ = cli("regrade", "--run", "run_cli")
    assert code == 0 and "appended 2 regrade records" in out
    target = tmp_path / "out.jsonl"
    code, _, err = cli("export", "--run", "run_cli", "--format", "jsonl", "--output", str(target))
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert code == 0 and "exported 2 episodes" in err
    assert {r["episode_id"] for r in lines} == set(episodes.values())
    code, out, _ = cli("fork", episodes["weak"], "--at", "1", "--json")
    made = json.loads(out)
    assert code == 0 and made["forked_from"] == {"episode_id": episodes["weak"], "at": 1}
    assert service.step(made["episode_id"], {"action_type": "noop"}).state.step_count == 2
    assert "customer" not in made  # an all-scripted fork answers as it always did
    code, out, _ = cli("fork", episodes["weak"], "--at", "1", "--customer", "llm")
    assert code == 0 and "the customer: llm (the original's: scripted)" in out
    code, out, _ = cli("fork", episodes["weak"], "--at", "1", "--customer", "llm", "--json")
    assert json.loads(out)["customer"] == {"fork": "llm", "original": "scripted"}


def test_errors_exit_2_with_a_message(cli, episodes) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("show", "ep_nope")
    assert code == 2 and "no episode 'ep_nope'" in err
    code, out, _ = cli("show", "ep_nope", "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "episode_not_found"
    code, _, err = cli("fork", episodes["expert"], "--at", "99")
    assert code == 2 and "at must be a step number" in err
    code, _, err = cli("episodes", "--cursor", "garbage")
    assert code == 2 and "cursor" in err


def test_show_says_how_an_episode_ended_from_outside_a_step_was_closed(
        cli, service: EnvironmentService) -> None:  # type: ignore[no-untyped-def]
    opened = service.reset("task_easy_password", 0)
    service.step(opened.episode_id, {"action_type": "classify_priority", "priority": "low"})
    service.end(opened.episode_id, "cut_off")
    code, out, _ = cli("show", opened.episode_id)
    assert code == 0 and "status   ended after 1 steps" in out
    assert "closed   cut_off after step 1 (event 5: ended from outside a step" in out
    code, out, _ = cli("replay", opened.episode_id)
    assert code == 0 and "consistent" in out
    code, out, _ = cli("show", opened.episode_id, "--json")
    assert json.loads(out)["closing"] == {"reason": "cut_off", "seq": 5, "after_step": 1,
                                          "truncated": True}
