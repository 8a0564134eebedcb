"""Steps that wait on a model never hold the threads plain steps need (``api.deps.ServiceThreads``).

A real server on 127.0.0.1 judges replies with an LLM, the loopback OpenAI-compatible server made
slow (each verdict takes JUDGE_S seconds). Six sessions draft a reply one after another, more than
the server's service threads, so six judge calls are in flight; while they are, other sessions' plain
steps (no reply to judge) must come back at once, not after the judge. What is measured is how
long a plain step takes while every judge call is still pending, a bound the slow judge would
break by seconds (each blocked step would wait out a verdict), asserted with a wide margin and on
the median as well as the worst of many steps.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.baseline.fake_openai import FakeOpenAI
from tests.servers import LiveServer, episode_events, start_server

JUDGE_S = 3.0
WAITING = 6
"""Sessions whose step waits on the judge at once (the server runs at most four service threads)."""
TASK = "task_easy_password"
REPLY = {"action_type": "draft_reply", "reply_text": "Hi, we have sent you a reset link; please try "
                                                     "it and let us know. Best regards, Support"}
PLAIN = [{"action_type": "add_internal_note", "note": "checked the account"},
         {"action_type": "noop"}, {"action_type": "classify_priority", "priority": "medium"}]
VERDICT = json.dumps({"facts": 1, "tone": 1, "violation": None, "reason": "fine"})


@pytest.fixture(scope="module")
def judge() -> Iterator[FakeOpenAI]:
    with FakeOpenAI({"slow-judge": f"late:{JUDGE_S}:{VERDICT}"}) as fake:
        yield fake


@pytest.fixture(scope="module")
def server(judge: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('lane') / 'lane.db'}"
    env = {"JUDGE_MODEL": "slow-judge", "JUDGE_BASE_URL": judge.base_url, "JUDGE_API_KEY": "k",
           "JUDGE_TIMEOUT": str(JUDGE_S * 5)}
    with start_server(url, env=env) as live:
        yield live


def _reset(http: httpx.Client) -> str:
    answer = http.post("/reset", json={"task_id": TASK})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["episode_id"])


def test_plain_steps_do_not_wait_behind_steps_waiting_on_a_slow_judge(
        server: LiveServer, judge: FakeOpenAI) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        drafting = [_reset(http) for _ in range(WAITING)]
        plain = [_reset(http) for _ in range(3)]
        http.post("/step", json={"episode_id": plain[0], "action": PLAIN[1]})  # warm the path
    asked = judge.calls("slow-judge")
    judged: dict[str, httpx.Response] = {}

    def draft(eid: str) -> None:
        with httpx.Client(base_url=server.url, timeout=60) as own:
            judged[eid] = own.post("/step", json={"episode_id": eid, "action": REPLY})

    # one after another, each once the one before reached the judge, so that no two are taken in
    # one batch: each on its own would hold a service thread for as long as its judge call
    waiting = [threading.Thread(target=draft, args=(eid,)) for eid in drafting]
    deadline = time.monotonic() + 30
    for count, thread in enumerate(waiting, start=1):
        thread.start()
        while judge.calls("slow-judge") < asked + count:
            assert time.monotonic() < deadline, f"reply step {count} never reached the judge"
            time.sleep(0.01)
    in_flight_since = time.monotonic()

    took: list[float] = []
    with httpx.Client(base_url=server.url, timeout=60) as http:
        for eid in plain:
            for action in PLAIN:
                began = time.monotonic()
                answer = http.post("/step", json={"episode_id": eid, "action": action})
                took.append(time.monotonic() - began)
                assert answer.status_code == 200, answer.text
    measured_within = time.monotonic() - in_flight_since
    pending = [eid for eid in drafting if eid not in judged]
    for thread in waiting:
        thread.join(60)

    # the plain steps ran while every judge call was still pending...
    assert measured_within < JUDGE_S and len(pending) == WAITING, (measured_within, pending)
    # ...and none waited behind them (a plain step queued behind a judge call waits seconds)
    assert statistics.median(took) < 0.5 and max(took) < 1.0, took
    # the judged steps were answered, each with its verdict recorded
    assert sorted(judged) == sorted(drafting)
    for eid, answer in judged.items():
        assert answer.status_code == 200, answer.text
        kinds = [r.type for r in episode_events(server.database_url, eid)]
        assert kinds.count("ReplyJudged") == 1, kinds
