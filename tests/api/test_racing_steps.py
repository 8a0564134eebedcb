"""Two steps on one episode over real HTTP, on the default setup (one server process, SQLite file).

What the docs say (docs/operations.md, "Racing steps"): a step on an episode that arrives while
another step on that episode is in progress in the same process (being decided, graded and
committed) is refused with 409 ``conflict`` at once, not queued; a step that arrives after the other
was committed is applied on top of it. The overlap is forced, never left to timing: the server
judges replies with an LLM (a fake OpenAI-compatible server on 127.0.0.1 that takes its time), so a
``draft_reply`` step stays in progress for as long as the judge is thinking.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.baseline.fake_openai import FakeOpenAI
from tests.databases import sqlite_pass_only
from tests.servers import LiveServer, episode_events, start_server

pytestmark = sqlite_pass_only("the default setup is an SQLite file (PostgreSQL: tests/e2e/test_workers.py)")

JUDGE_S = 2.0
REPLY = {"action_type": "draft_reply", "reply_text": "Hi, we have sent you a reset link; please try it "
                                                     "and let us know. Best regards, Support"}
NOTE = {"action_type": "add_internal_note", "note": "checked the account"}


@pytest.fixture(scope="module")
def judge() -> Iterator[FakeOpenAI]:
    with FakeOpenAI({"slow-judge": f"hang:{JUDGE_S}"}) as fake:
        yield fake


@pytest.fixture(scope="module")
def server(judge: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('racing') / 'racing.db'}"
    env = {"JUDGE_MODEL": "slow-judge", "JUDGE_BASE_URL": judge.base_url, "JUDGE_API_KEY": "k",
           "JUDGE_TIMEOUT": str(JUDGE_S * 5)}
    with start_server(url, env=env) as live:
        yield live


def _step(http: httpx.Client, eid: str, action: dict[str, object]) -> httpx.Response:
    return http.post("/step", json={"episode_id": eid, "action": action})


def test_a_step_arriving_while_another_is_in_progress_is_409_and_one_after_it_is_applied(
        server: LiveServer, judge: FakeOpenAI) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as first, \
            httpx.Client(base_url=server.url, timeout=30) as second:
        eid = first.post("/reset", json={"task_id": "task_easy_password"}).json()["episode_id"]
        judged_before = judge.calls("slow-judge")
        slow: list[httpx.Response] = []
        thread = threading.Thread(target=lambda: slow.append(_step(first, eid, REPLY)))
        thread.start()
        deadline = time.monotonic() + 20
        while judge.calls("slow-judge") == judged_before:  # the reply step is in progress
            assert time.monotonic() < deadline, "the reply step never reached the judge"
            time.sleep(0.02)
        started = time.monotonic()
        racing = _step(second, eid, NOTE)
        refused_in = time.monotonic() - started
        thread.join(30)
        after = _step(second, eid, NOTE)  # sent after the reply step was committed

    assert racing.status_code == 409, racing.text
    assert racing.json()["code"] == "conflict" and "in progress" in racing.json()["detail"]
    assert refused_in < JUDGE_S / 2, "refused at once, not queued behind the step in progress"
    assert slow[0].status_code == 200, slow[0].text
    assert slow[0].json()["observation"]["step_count"] == 1
    assert after.status_code == 200, after.text
    assert after.json()["observation"]["step_count"] == 2  # on top of the reply step
    steps = [(r.data["step"], r.data["actions"][0]["action_type"])
             for r in episode_events(server.database_url, eid) if r.type == "ActionReceived"]
    assert steps == [(1, "draft_reply"), (2, "add_internal_note")]  # the refused one left no trace
