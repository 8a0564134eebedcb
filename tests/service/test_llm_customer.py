"""The optional LLM customer with the real ``openai`` client against the loopback fake server:
its replies are recorded as events, so replay, diff, fork and regrade never call the model; what
a reply reveals stays the scripted rules' decision; failures fall back to the scripted reply and
say why; a fork continues with the scripted customer or a fresh LLM call, and says which."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from domain import events as ev
from domain.tasks import default_catalog
from service import EnvironmentService
from service.audit_views import Auditor
from service.customer import CUSTOMER_VERSION, LLMCustomer, prompt_digest
from service.environment import to_domain
from service.fork import fork
from service.regrade import regrade_episode
from store import Database, open_database
from tests.baseline.fake_openai import FakeOpenAI

TASK = "task_family_missing_order"
SEED = 5
ASK = {"action_type": "message_customer", "message": "Could you send me your order number?"}
SMALL_TALK = {"action_type": "message_customer", "message": "Lovely weather today, isn't it?"}


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


def llm_service(db: Database, fake: FakeOpenAI | None, model: str = "customer") -> EnvironmentService:
    customer = None if fake is None else LLMCustomer(model, "test-key", base_url=fake.base_url,
                                                    timeout_s=5.0)
    return EnvironmentService(db, default_catalog(), customer=customer)


def replies(service: EnvironmentService, episode_id: str) -> list[ev.CustomerReplied]:
    return [e for e in map(to_domain, service.load_events(episode_id))
            if isinstance(e, ev.CustomerReplied)]


def order_value() -> str:
    return default_catalog().instance(TASK, SEED).hidden_facts["order"].value


def test_an_llm_reply_is_recorded_and_reveals_what_the_rules_reveal(db: Database) -> None:
    value = order_value()
    said = f"Ugh, fine: it's {value}, and the tracking hasn't moved in ages."
    with FakeOpenAI({"customer": [f"say:{said}", "say:What do you mean?"]}) as fake:
        service = llm_service(db, fake)
        result = service.reset(TASK, seed=SEED)
        started = to_domain(service.load_events(result.episode_id)[0])
        assert isinstance(started, ev.EpisodeStarted) and started.customer == "llm"
        result = service.step(result.episode_id, ASK)
        result = service.step(result.episode_id, SMALL_TALK)
        prompts = [r["messages"] for r in fake.requests]
    first, second = replies(service, result.episode_id)
    assert (first.text, first.source, first.model, first.kind) == (said, "llm", "customer", "answer")
    assert first.revealed == ("order",) and first.fallback is None
    assert first.prompt_digest == prompt_digest("customer", prompts[0])
    assert first.customer_version == CUSTOMER_VERSION  # which persona prompt worded it
    assert (second.kind, second.revealed) == ("clarify", ())
    assert result.state.revealed == (("order", 1),)
    assert [m.text for m in result.observation.conversation][1] == said
    # the persona is told the fact to give now and nothing of the answer key
    task = default_catalog().instance(TASK, SEED)
    prompt = str(prompts[0])
    assert value in prompt and task.case not in prompt.replace("in transit", "")
    assert not any(code in prompt for code in ("refund_issued", "fraud_review_opened",
                                               "awaiting_customer_confirmation"))
    assert value not in str(prompts[1]).split("conversation_so_far")[0]


@pytest.mark.parametrize(("behaviour", "why"), [
    ("say:Sure, let me check and get back to you.", "omitted: the reply left out"),
    ("http_500", "http_500"),
    ("say:", "empty"),
])
def test_a_failed_or_unfaithful_reply_falls_back_to_the_scripted_one(
        db: Database, behaviour: str, why: str) -> None:
    with FakeOpenAI({"customer": behaviour}) as fake:
        service = llm_service(db, fake)
        result = service.step(service.reset(TASK, seed=SEED).episode_id, ASK)
    (reply,) = replies(service, result.episode_id)
    assert reply.source == "scripted" and reply.fallback is not None
    assert reply.customer_version == CUSTOMER_VERSION  # a model was asked, with this prompt
    assert reply.fallback.startswith(why), reply.fallback
    assert order_value() in reply.text and reply.revealed == ("order",)


def test_replay_diff_and_regrade_need_no_model(db: Database) -> None:
    value = order_value()
    with FakeOpenAI({"customer": f"say:It is {value}."}) as fake:
        service = llm_service(db, fake)
        result = service.reset(TASK, seed=SEED)
        for action in (ASK, SMALL_TALK):
            result = service.step(result.episode_id, action)
        calls = fake.calls("customer")
    # the fake server is gone: nothing below can reach a model
    auditor = Auditor(db)
    report = auditor.replay(result.episode_id)
    assert report["consistent"], report["first_divergence"]
    assert calls == 2
    row = auditor.row(result.episode_id)
    regraded = regrade_episode(row, auditor.load(result.episode_id))
    assert regraded["new_score"] == regraded["recorded_score"] == result.state.score
    # a scripted fork at step 1 parts from the LLM original at step 2, where the replies differ
    made = fork(auditor, result.episode_id, 1, customer="scripted")
    llm_service(db, None).step(made["episode_id"], SMALL_TALK)
    compared = auditor.diff(result.episode_id, made["episode_id"])
    assert compared["first_divergence"]["step"] == 2
    talk = compared["first_divergence"]["state_differences"]["conversation"]
    assert talk["a"][:2] == talk["b"][:2] and talk["a"][3] != talk["b"][3]


def _forked_events(db: Database, fork_id: str) -> list[ev.Event]:
    return [to_domain(r) for r in Auditor(db).load(fork_id)]


def test_a_fork_continues_with_the_scripted_customer_and_says_so(db: Database) -> None:
    value = order_value()
    with FakeOpenAI({"customer": f"say:It is {value}."}) as fake:
        service = llm_service(db, fake)
        original = service.step(service.reset(TASK, seed=SEED).episode_id, ASK)
    made: dict[str, Any] = fork(Auditor(db), original.episode_id, 1,
                                customer="scripted")
    assert made["customer"] == {"fork": "scripted", "original": "llm"}
    plain = llm_service(db, None)  # no model configured: the scripted customer answers the fork
    result = plain.step(made["episode_id"], SMALL_TALK)
    copied, fresh = replies(plain, made["episode_id"])
    assert copied.source == "llm" and copied.text == f"It is {value}."  # as recorded
    assert fresh.source == "scripted" and fresh.fallback is None and fresh.kind == "clarify"
    assert fresh.customer_version is None  # no model asked: nothing to version
    started = _forked_events(db, made["episode_id"])[0]
    assert isinstance(started, ev.EpisodeStarted) and started.customer == "scripted"
    assert result.state.revealed == (("order", 1),)


def test_a_fork_continues_with_a_fresh_llm_call(db: Database) -> None:
    value = order_value()
    with FakeOpenAI({"customer": [f"say:It is {value}.", "say:Why are you asking me that?"]}) as fake:
        service = llm_service(db, fake)
        original = service.step(service.reset(TASK, seed=SEED).episode_id, ASK)
        made = fork(Auditor(db), original.episode_id, 1)
        assert made["customer"] == {"fork": "llm", "original": "llm"}
        service.step(made["episode_id"], SMALL_TALK)
        assert fake.calls("customer") == 2
    fresh = replies(service, made["episode_id"])[-1]
    assert (fresh.source, fresh.text) == ("llm", "Why are you asking me that?")
    # an LLM fork stepped where no model is configured records why the scripted reply stands in
    made = fork(Auditor(db), original.episode_id, 1, customer="llm")
    llm_service(db, None).step(made["episode_id"], SMALL_TALK)
    last = replies(service, made["episode_id"])[-1]
    assert last.source == "scripted" and (last.fallback or "").startswith("unavailable")


def test_an_upstream_401_echoing_the_key_is_recorded_redacted(db: Database) -> None:
    key = "zz-customer-key-77f0a9"
    with FakeOpenAI({"customer": "echo_401"}) as fake:
        customer = LLMCustomer("customer", key, base_url=fake.base_url, timeout_s=5.0)
        service = EnvironmentService(db, default_catalog(), customer=customer)
        result = service.step(service.reset(TASK, seed=SEED).episode_id, ASK)
    (reply,) = replies(service, result.episode_id)
    assert (reply.fallback or "").startswith("http_401: ") and "Bearer ***" in (reply.fallback or "")
    assert key not in str([r.data for r in service.load_events(result.episode_id)])
