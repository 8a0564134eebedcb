"""``ticketledger regrade --judge llm``: re-judges recorded episodes' replies with the LLM judge into
regrade records, never into the log; the default judge grades with the verdicts the log holds."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cli.main import main
from domain import events as ev
from domain.tasks.catalog import default_catalog
from service import EnvironmentService
from service.environment import to_domain
from service.judge import LLMJudge
from store import open_database
from store.regrades import RegradeStore
from tests.baseline.fake_openai import FakeOpenAI
from tests.play import play
from tests.service.test_llm_judge import ACTIONS, TASK, verdict

pytestmark = pytest.mark.fresh_database


def _play(service: EnvironmentService, run_id: str) -> str:
    return play(service, TASK, ACTIONS, run_id=run_id)[0].episode_id


def _regrade(database_url: str, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, Any]:
    code = main(["--database-url", database_url, "regrade", "--run", "r1", "--json", *flags])
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


def test_regrade_judge_llm_writes_regrade_records(database_url: str, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = open_database(database_url)
    service = EnvironmentService(db)
    episode_id = _play(service, "r1")
    recorded_score = service.state(episode_id).score
    log_before = [r.hash for r in service.load_events(episode_id)]

    with FakeOpenAI({"judge": verdict(facts=1.0, tone=1.0)}) as fake:
        monkeypatch.setenv("JUDGE_MODEL", "judge")
        monkeypatch.setenv("JUDGE_BASE_URL", fake.base_url)
        monkeypatch.setenv("JUDGE_API_KEY", "test-key")
        code, report = _regrade(database_url, capsys, "--judge", "llm")
        calls = fake.calls("judge")
    assert code == 0 and calls == 2
    assert report["judge"] == "llm" and report["judge_model"] == "judge"
    assert report["episodes"] == 1 and report["records_appended"] == 1
    change = report["changes"][0]
    assert change["recorded_score"] == recorded_score < change["new_score"]
    assert set(change["components_moved"]) == {"reply"}
    records = RegradeStore(db).of_episode(episode_id)
    assert len(records) == 1 and records[0].new_score == change["new_score"]
    assert records[0].report["judge"] == "llm"
    verdicts = records[0].report["verdicts"]
    assert len(verdicts) == 2 and verdicts[0]["verdict"]["facts"] == 1.0
    assert [r.hash for r in service.load_events(episode_id)] == log_before  # the log is untouched
    db.dispose()


def test_regrade_judge_llm_without_a_model_exits_2(database_url: str, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    db = open_database(database_url)
    _play(EnvironmentService(db), "r1")
    monkeypatch.delenv("JUDGE_MODEL", raising=False)
    code = main(["--database-url", database_url, "regrade", "--judge", "llm"])
    assert code == 2 and "JUDGE_MODEL" in capsys.readouterr().err
    assert RegradeStore(db).of_episode("x") == []
    db.dispose()


def test_default_regrade_of_an_llm_judged_episode_changes_nothing(
        database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    db = open_database(database_url)
    catalog = default_catalog()
    with FakeOpenAI({"judge": verdict(facts=1.0, tone=0.0)}) as fake:
        judge = LLMJudge("judge", "k", catalog, base_url=fake.base_url)
        episode_id = _play(EnvironmentService(db, catalog, judge=judge), "r1")
    events = [to_domain(r) for r in EnvironmentService(db).load_events(episode_id)]
    assert any(isinstance(e, ev.ReplyJudged) and e.verdict for e in events)
    code, report = _regrade(database_url, capsys, "--dry-run")  # the server is gone
    assert code == 0 and report["judge"] == "deterministic"
    assert report["episodes"] == 1 and report["changed"] == 0
    db.dispose()
