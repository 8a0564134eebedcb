"""The one client (``baseline/client.py``) against a real server, over stateful HTTP and ``/ws``:
the same episode played both ways answers alike, errors carry the status or OpenEnv's code, the
cookie routes an unnamed step over HTTP, and ``ticketledger.client`` exports it."""

from __future__ import annotations

from typing import Any

import pytest

from baseline.client import RemoteError, TicketLedgerClient, action_body
from domain.actions import ClassifyPriority, CombinedAction
from domain.tasks import default_catalog
from service.gold import gold
from tests.databases import sqlite_pass_only
from tests.servers import LiveServer, episode_events

pytestmark = sqlite_pass_only("a client of the server; the store is tested on both backends elsewhere")

CATALOG = default_catalog()
TASK, SEED = "task_hard_refund_fraud_trap", 2


def _play(client: TicketLedgerClient) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """The gold player's episode of TASK and SEED: the reset answer, the step answers, the state."""
    first = client.reset(task_id=TASK, seed=SEED)
    steps = [client.step(action) for action in gold(CATALOG.instance(TASK, SEED))]
    return first, steps, client.state(client.episode_id)


@pytest.mark.parametrize("transport", ["http", "ws"])
def test_an_episode_over_either_transport(live_server: LiveServer, transport: Any) -> None:
    with TicketLedgerClient(live_server.url, transport=transport, cookies=True) as client:
        first, steps, state = _play(client)
        assert client.episode_id == first["episode_id"] == state["episode_id"]
        assert client.head_hash == state["head_hash"] == steps[-1]["head_hash"]
        assert client.grade == steps[-1]["grade"] and client.grade is not None
    assert steps[-1]["done"] is True and state["score"] == 1.0 and state["step_count"] == len(steps)
    assert round(sum(s["reward"] for s in steps), 4) == 1.0
    assert episode_events(live_server.database_url, state["episode_id"])[-1].hash == state["head_hash"]


def test_both_transports_answer_alike(live_server: LiveServer) -> None:
    answers = []
    for transport in ("http", "ws"):
        with TicketLedgerClient(live_server.url, transport=transport, cookies=True) as client:
            first, steps, _ = _play(client)
        answers.append([{k: v for k, v in a["observation"].items() if k != "episode_id"}
                        | {"reward": a["reward"], "done": a["done"]} for a in [first, *steps]])
    assert answers[0] == answers[1]


def test_many_episodes_on_one_http_client_each_named(live_server: LiveServer) -> None:
    with TicketLedgerClient(live_server.url) as client:
        one = client.reset(task_id="task_easy_password", seed=0)["episode_id"]
        two = client.reset(task_id="task_easy_password", seed=1)["episode_id"]
        client.step(ClassifyPriority(priority="high"), one)
        client.step({"action_type": "noop"}, two)
        client.step(CombinedAction(reassign_queue="account"), one)
        assert client.state(one)["step_count"] == 2 and client.state(two)["step_count"] == 1
        assert client.state(one)["queue"] == "account"


def test_the_cookie_routes_an_unnamed_step_to_this_clients_episode(live_server: LiveServer) -> None:
    with TicketLedgerClient(live_server.url, cookies=True) as mine, \
            TicketLedgerClient(live_server.url, cookies=True) as other:
        episode = mine.reset(task_id="task_easy_password", seed=0)["episode_id"]
        other.reset(task_id="task_easy_password", seed=0)  # a later reset, elsewhere
        assert mine.step(ClassifyPriority(priority="low"))["episode_id"] == episode
        assert mine.state()["episode_id"] == episode


def test_errors_carry_the_http_status_or_the_openenv_code(live_server: LiveServer) -> None:
    with TicketLedgerClient(live_server.url) as client:
        episode = client.reset(task_id="task_easy_password")["episode_id"]
        with pytest.raises(RemoteError, match="not allowed; choose one of") as refused:
            client.step({"action_type": "classify_priority", "priority": "asap"}, episode)
        assert refused.value.status == 422
        with pytest.raises(RemoteError) as missing:
            client.state("ep_nobody_has_this_one")
        assert missing.value.status == 404
    with TicketLedgerClient(live_server.url, transport="ws") as client:
        with pytest.raises(RemoteError) as early:
            client.step({"action_type": "noop"})  # no reset yet on this session
        assert early.value.code is not None and early.value.status is None
        client.reset(task_id="task_easy_password")
        with pytest.raises(RemoteError, match="not allowed; choose one of"):
            client.step({"action_type": "classify_priority", "priority": "asap"})
        assert client.step({"action_type": "noop"})["observation"]["step_count"] == 1  # carries on


def test_actions_are_models_or_mappings_and_urls_are_http() -> None:
    assert action_body(CombinedAction(reassign_queue="account")) == {
        "reassign_queue": "account", "close_ticket": False}
    assert action_body({"action_type": "noop"}) == {"action_type": "noop"}
    with pytest.raises(TypeError, match="a pydantic model or a dict"):
        action_body("noop")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="http"):
        TicketLedgerClient("ws://127.0.0.1:1")
    with pytest.raises(ValueError, match="transport"):
        TicketLedgerClient("http://127.0.0.1:1", transport="grpc")  # type: ignore[arg-type]


def test_the_public_client_module_exports_it() -> None:
    import ticketledger.client as public

    assert public.TicketLedgerClient is TicketLedgerClient and public.RemoteError is RemoteError


def test_end_closes_an_open_episode_once(live_server: LiveServer) -> None:
    """A driver that stops an episode ends it with a reason; a second end is a 409 and writes
    nothing more."""
    with TicketLedgerClient(live_server.url) as client:
        episode_id = client.reset(task_id="task_easy_password", seed=0)["episode_id"]
        client.step({"action_type": "noop"}, episode_id)
        ended = client.end(episode_id)
        assert ended["done"] is True
        assert client.state(episode_id)["done"] is True
        events = episode_events(live_server.database_url, episode_id)
        assert events[-1].type == "EpisodeEnded" and events[-1].data == {"reason": "cut_off"}
        with pytest.raises(RemoteError) as again:
            client.end(episode_id)
        assert again.value.status == 409
        assert len(episode_events(live_server.database_url, episode_id)) == len(events)
