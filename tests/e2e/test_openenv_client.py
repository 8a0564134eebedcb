"""The typed trainer client (``ticketledger/client.py``) against a real server: models in, models out;
and OpenEnv's own discovery (``openenv-core`` 0.3, the runtime dependency) finding it by name.
``tests/e2e/test_openenv_010.py`` does the same with ``openenv`` 0.10 in a virtual environment of
its own."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from api.models import PublicState
from domain.tasks import default_catalog
from domain.tasks.gold import gold_reply
from tests.servers import LiveServer, episode_events

# OpenEnv's client pulls in gradio, seconds of every worker's collection: each test imports it.


def test_typed_client_plays_an_episode_with_action_models(live_server: LiveServer) -> None:
    from ticketledger.client import (
        AssignQueue,
        ClassifyPriority,
        CombinedAction,
        DraftReply,
        Observation,
        ResolveTicket,
        SendPasswordResetLink,
        TicketLedgerEnv,
    )

    task = default_catalog().instance("task_easy_password", None)
    reply = gold_reply(task)
    assert reply is not None
    with TicketLedgerEnv(base_url=live_server.url).sync() as env:
        first = env.reset(task_id=task.task_id)
        assert isinstance(first.observation, Observation) and first.reward is None
        rewards = [env.step(ClassifyPriority(priority="medium")).reward,
                   env.step(CombinedAction(reassign_queue="account")).reward,
                   # the reply says the link was sent: grader 3.0 holds it to the action
                   env.step(SendPasswordResetLink()).reward,
                   env.step(DraftReply(reply_text=reply)).reward]
        last = env.step(ResolveTicket(resolution_code="awaiting_customer_confirmation"))
        state = env.state()
        episode, head = env.episode_id, env.head_hash
        with pytest.raises(RuntimeError, match="EXECUTION_ERROR") as late:  # the server's error frame
            env.step(AssignQueue(queue="billing"))
    assert last.done is True and "ended" in str(late.value)
    assert isinstance(state, PublicState) and state.score == 1.0 and state.step_count == 5
    assert round(sum(rewards) + last.reward, 4) == 1.0
    assert episode == first.observation.episode_id == state.episode_id
    assert head == episode_events(live_server.database_url, episode)[-1].hash == state.head_hash


def test_autoenv_from_env_finds_the_installed_distribution_and_plays(
        live_server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from openenv import AutoEnv
    from openenv.auto._discovery import reset_discovery

    from ticketledger.client import ClassifyPriority, Observation, TicketLedgerEnv

    # openenv-core 0.3 caches what it discovered in the temp directory, shared by every process:
    # discover afresh, into a cache of this test's own.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    reset_discovery()
    try:
        env = AutoEnv.from_env("ticketledger", base_url=live_server.url)
        assert type(env) is TicketLedgerEnv
        with env.sync() as session:
            first = session.reset(task_id="task_easy_password", seed=3)
            step = session.step(ClassifyPriority(priority="medium"))
            state = session.state()
    finally:
        reset_discovery()
    assert isinstance(first.observation, Observation) and first.observation.step_count == 0
    assert step.reward == 0.25 and step.observation.current_priority == "medium"
    assert state.episode_id == first.observation.episode_id and state.step_count == 1
