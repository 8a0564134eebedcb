"""Grader versions: each episode is graded, replayed and forked with the grader it recorded; new
episodes record the current one; an episode of the retired 1.1 replays from its recorded grades and
is neither continued nor forked."""

from __future__ import annotations

from fractions import Fraction

import pytest

from domain.decide import start
from domain.events import EpisodeStarted, StepGraded
from domain.tasks.catalog import default_catalog
from graders import grader as v2_0
from graders import versions
from service import EnvironmentService, environment
from service.audit_views import Auditor
from service.environment import to_domain
from service.errors import GraderRetiredError
from service.fork import fork
from tests.play import play

V1_1 = "ticketledger-grader/1.1"
NOOP = {"action_type": "noop"}


def test_the_registry_has_the_frozen_2_0_to_3_15_and_the_current_3_16_and_1_1_is_retired() -> None:
    assert versions.CURRENT == versions.V3_16 == "ticketledger-grader/3.16"
    assert versions.V3_15 == "ticketledger-grader/3.15"
    assert versions.V3_14 == "ticketledger-grader/3.14"
    assert versions.V3_13 == "ticketledger-grader/3.13"
    assert versions.V3_12 == "ticketledger-grader/3.12"
    assert versions.V3_11 == "ticketledger-grader/3.11"
    assert versions.V3_10 == "ticketledger-grader/3.10"
    assert versions.V3_9 == "ticketledger-grader/3.9"
    assert versions.V3_8 == "ticketledger-grader/3.8"
    assert versions.V3_7 == "ticketledger-grader/3.7"
    assert versions.V3_6 == "ticketledger-grader/3.6"
    assert versions.V3_5 == "ticketledger-grader/3.5"
    assert versions.V3_4 == "ticketledger-grader/3.4"
    assert versions.V3_3 == "ticketledger-grader/3.3"
    assert versions.V3_2 == "ticketledger-grader/3.2"
    assert versions.V3_1 == "ticketledger-grader/3.1"
    assert versions.V3_0 == "ticketledger-grader/3.0"
    assert versions.V2_1 == "ticketledger-grader/2.1"
    assert v2_0.GRADER_VERSION == "ticketledger-grader/2.0"
    assert versions.FALLBACK == V1_1
    assert versions.grader_for(v2_0.GRADER_VERSION).grade_step is v2_0.grade_step
    assert list(versions.GRADERS) == [v2_0.GRADER_VERSION, versions.V2_1, versions.V3_0, versions.V3_1,
                                      versions.V3_2, versions.V3_3, versions.V3_4, versions.V3_5,
                                      versions.V3_6, versions.V3_7, versions.V3_8, versions.V3_9,
                                      versions.V3_10, versions.V3_11, versions.V3_12, versions.V3_13,
                                      versions.V3_14, versions.V3_15, versions.V3_16]
    with pytest.raises(versions.UnknownGrader, match=r"'x/9'.*ticketledger-grader/2\.0"):
        versions.grader_for("x/9")
    with pytest.raises(versions.GraderRetired, match=r"^grader 1\.1 is retired .* this code grades with "
                       r"ticketledger-grader/2\.0"):
        versions.grader_for(V1_1)


def test_recorded_version_reads_the_opening_event_then_the_first_grade_then_falls_back() -> None:
    variant = default_catalog().variant("task_easy_password")
    graded = StepGraded(1, 0.0, 0.0, 0, 0, 0, 0, (), (), False, "some/1.0")
    assert versions.recorded_version([start("e", variant, grader_version="a/1")]) == "a/1"
    assert versions.recorded_version([start("e", variant), graded]) == "some/1.0"
    assert versions.recorded_version([start("e", variant)]) == V1_1


def _opened_under(version: str, service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> str:
    """An episode as a release whose current grader was ``version`` opened it."""
    with monkeypatch.context() as patch:
        patch.setattr(environment, "CURRENT", version)
        return service.reset("task_easy_password").episode_id


def test_an_episode_of_a_retired_grader_is_neither_continued_nor_forked(
        service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    episode_id = _opened_under(V1_1, service, monkeypatch)
    before = service.load_events(episode_id)
    with pytest.raises(GraderRetiredError, match=f"^episode {episode_id} cannot be continued: "
                       "grader 1.1 is retired") as refused:
        service.step(episode_id, NOOP)
    assert refused.value.status == 409 and refused.value.code == "grader_retired"
    assert service.load_events(episode_id) == before
    auditor = Auditor(service.db)
    with pytest.raises(GraderRetiredError, match=f"^episode {episode_id} cannot be forked: a fork "
                       "keeps its source's grader, and grader 1.1 is retired"):
        fork(auditor, episode_id, 0)
    report = auditor.replay(episode_id)
    assert report["consistent"] and report["grader_version"] == V1_1
    assert report["recorded_grader_version"] == V1_1 and "grader 1.1 is retired" in report["notes"][0]


def test_an_old_episode_is_stepped_replayed_and_forked_with_its_own_grader(
        service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    old = v2_0.GRADER_VERSION
    episode_id = _opened_under(old, service, monkeypatch)
    for _ in range(8):
        service.step(episode_id, NOOP)
    events = [to_domain(r) for r in service.load_events(episode_id)]
    graded = [e for e in events if isinstance(e, StepGraded)]
    assert {g.grader_version for g in graded} == {old}
    assert [g.reward for g in graded] == versions.grader_for(old).grade_episode(events).rewards
    auditor = Auditor(service.db)
    report = auditor.replay(episode_id)
    assert report["consistent"] and report["grader_version"] == old
    assert report["recorded_grader_version"] == old

    made = fork(auditor, episode_id, 3)
    forked = [to_domain(r) for r in service.load_events(made["episode_id"])]
    opening = forked[0]
    assert isinstance(opening, EpisodeStarted) and opening.grader_version == old
    assert [e.reward for e in forked if isinstance(e, StepGraded)] == [g.reward for g in graded[:3]]
    after = service.step(made["episode_id"], NOOP)
    assert after.grade is not None and after.grade.grader_version == old
    assert auditor.replay(made["episode_id"])["consistent"]


def test_an_episode_recording_no_version_is_one_of_the_retired_1_1(
        service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Logs from before ``EpisodeStarted.grader_version`` was filled were written by 1.1: the
    state falls back the same way the log does, so such an episode is not continued either."""
    episode_id = _opened_under("", service, monkeypatch)
    opening = to_domain(service.load_events(episode_id)[0])
    assert isinstance(opening, EpisodeStarted) and opening.grader_version == ""
    with pytest.raises(GraderRetiredError, match=r"grader 1\.1 is retired"):
        service.step(episode_id, NOOP)
    assert Auditor(service.db).replay(episode_id)["grader_version"] == V1_1


def test_new_episodes_record_and_use_the_current_grader(service: EnvironmentService) -> None:
    results = play(service, "task_easy_password")
    opening = to_domain(service.load_events(results[0].episode_id)[0])
    assert isinstance(opening, EpisodeStarted) and opening.grader_version == versions.CURRENT
    assert {r.grade.grader_version for r in results[1:] if r.grade} == {versions.CURRENT}


def test_a_changed_catalog_is_a_note_for_an_old_grader_and_a_divergence_for_the_current(
        service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new grader may come with new rubrics and answer keys: an episode of an older grader still
    replays consistently (graded with the task its log records), with a note saying the catalog
    moved."""
    from domain.tasks.variant import TaskVariant
    from service.replay import replay

    old = _opened_under(v2_0.GRADER_VERSION, service, monkeypatch)
    for _ in range(8):
        service.step(old, NOOP)
    new = play(service, "task_easy_password")[0].episode_id
    changed = TaskVariant.of(default_catalog().instance("task_easy_password")
                             .model_copy(update={"max_steps": 9}))
    monkeypatch.setattr(service.catalog, "variant", lambda task_id, seed=None: changed)
    old_report = replay(service.load_events(old), service.catalog)
    assert old_report.consistent and len(old_report.notes) == 1
    assert "catalog changed" in old_report.notes[0] and v2_0.GRADER_VERSION in old_report.notes[0]
    new_report = replay(service.load_events(new), service.catalog)
    assert not new_report.consistent and new_report.first_divergence is not None
    assert new_report.first_divergence.kind == "catalog" and new_report.notes == []


def _reply_share(task_id: str, seed: int | None, text: str, version: str) -> Fraction:
    from graders import rubric
    from graders.lexicon import foreign_groups

    task = default_catalog().instance(task_id, seed)
    assert task.reply is not None
    source = f"{task.ticket.subject}\n{task.ticket.message}"
    return rubric.evaluate(task.reply, text, task.first_name, foreign_groups(task_id), source,
                           versions.LEXICONS[version]).fraction


def test_grader_2_1_reads_natural_phrasings_2_0_missed_and_2_0_reads_them_as_it_did() -> None:
    """Grader 2.1 differs from 2.0 only in its lexicon (data): "as soon as" is "once", a fronted
    "once ...," clause states its fact with the main clause after it, regret is empathy. Phrasings
    written here, not taken from the honest replies; 2.0 must keep its old (lower) scores."""
    v20, v21 = v2_0.GRADER_VERSION, versions.V2_1
    hold = default_catalog().instance("task_hard_gdpr_deletion", 0)
    assert hold.case == "legal_hold"
    for text in (
        "Hi {n}, your account has an open chargeback, so it is under a legal hold. As soon as the "
        "dispute is resolved, we will start deleting your data; that takes up to 30 days. Regards, Sam",
        "Hi {n}, there is an open billing dispute on your account, which puts it under a legal hold. "
        "Once the dispute is closed, the deletion starts and finishes within 30 days. Regards, Sam",
    ):
        filled = text.format(n=hold.first_name)
        assert _reply_share(hold.task_id, 0, filled, v21) == 1, filled
        assert _reply_share(hold.task_id, 0, filled, v20) < 1, filled
    denial = default_catalog().instance("task_hard_refund_policy_denial", None)
    assert denial.case == "outside_window"
    for regret in ("I'm afraid", "Unfortunately,", "Sadly,", "We regret that"):
        text = (f"Hi {denial.first_name}, thanks for writing. {regret} your order is outside the 30-day "
                "refund window, so we are unable to refund it. We can offer store credit instead. "
                "Best regards, Sam")
        assert _reply_share(denial.task_id, None, text, v21) == 1, regret
        assert _reply_share(denial.task_id, None, text, v20) == Fraction(9, 10), regret
    # a bare fronted clause is still a mention, not a statement: the main clause must say something
    bare = (f"Hi {hold.first_name}, about your data. Once the dispute is closed, yes. There is a "
            "dispute and a legal hold on the account, 30 days. Regards, Sam")
    assert _reply_share(hold.task_id, 0, bare, v21) < 1


def test_one_episode_graded_by_2_0_and_2_1_keeps_each_versions_score(service: EnvironmentService) -> None:
    """The same log re-graded by each 2.x: 2.0 as recorded before 2.1 existed, 2.1 crediting the
    paraphrase; the code is shared, the lexicon is what differs."""
    from tests.graders import honest

    task = default_catalog().instance("task_hard_gdpr_deletion", 0)
    reply = (f"Hi {task.first_name}, your account has an open billing dispute, so it is under a legal "
             "hold. As soon as the dispute is resolved, we will begin deleting your data, and it will "
             "be completed within 30 days. Kind regards, Alex")
    result = service.reset(task.task_id, seed=0)
    for action in honest.actions(task, reply, None):
        result = service.step(result.episode_id, action)
    events = [to_domain(r) for r in service.load_events(result.episode_id)]
    assert result.state.grader_version == versions.CURRENT
    by_2_1 = versions.grader_for(versions.V2_1).grade_episode(events)
    by_2_0 = versions.grader_for(v2_0.GRADER_VERSION).grade_episode(events)
    assert by_2_1.score == result.state.score == 1.0  # 3.0 reads the rubric as 2.1 does
    assert by_2_0.score < by_2_1.score
    assert {s.grader_version for s in by_2_0.steps} == {v2_0.GRADER_VERSION}
    assert {s.grader_version for s in by_2_1.steps} == {versions.V2_1}
