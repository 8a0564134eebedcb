"""The typed trainer client (``client.py``) against a real server: models in, models out."""

from __future__ import annotations

import pytest

from api.models import PublicState
from client import (
    AssignQueue,
    ClassifyPriority,
    CombinedAction,
    DraftReply,
    Observation,
    ResolveTicket,
    TicketLedgerEnv,
)
from domain.tasks import default_catalog
from service.scripted import REPLIES
from tests.servers import LiveServer, episode_events


def test_typed_client_plays_an_episode_with_action_models(live_server: LiveServer) -> None:
    task = default_catalog().instance("task_easy_password", None)
    reply = REPLIES[(task.task_id, task.case)].format(first=task.first_name, **task.variables)
    with TicketLedgerEnv(base_url=live_server.url).sync() as env:
        first = env.reset(task_id=task.task_id)
        assert isinstance(first.observation, Observation) and first.reward is None
        rewards = [env.step(ClassifyPriority(priority="medium")).reward,
                   env.step(CombinedAction(reassign_queue="account")).reward,
                   env.step(DraftReply(reply_text=reply)).reward]
        last = env.step(ResolveTicket(resolution_code="awaiting_customer_confirmation"))
        state = env.state()
        episode, head = env.episode_id, env.head_hash
        with pytest.raises(RuntimeError, match="EXECUTION_ERROR") as late:  # the server's error frame
            env.step(AssignQueue(queue="billing"))
    assert last.done is True and "ended" in str(late.value)
    assert isinstance(state, PublicState) and state.score == 1.0 and state.step_count == 4
    assert round(sum(rewards) + last.reward, 4) == 1.0
    assert episode == first.observation.episode_id == state.episode_id
    assert head == episode_events(live_server.database_url, episode)[-1].hash == state.head_hash
