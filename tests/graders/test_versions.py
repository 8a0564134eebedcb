"""Grader versions: each episode is graded, replayed and forked with the grader it recorded; new
episodes record the current one; the frozen 1.1 copy reads nothing from the live catalog."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest

from domain.decide import start
from domain.events import EpisodeStarted, StepGraded
from domain.tasks.catalog import default_catalog
from graders import grader as v2_0
from graders import v1_1, versions
from graders.v1_1 import lexicon as frozen_lexicon
from graders.v1_1.rubric import evaluate as evaluate_1_1
from service import EnvironmentService, environment
from service.audit_views import Auditor
from service.environment import to_domain
from service.fork import fork
from tests.audit_helpers import play

V1_1 = "ticketledger-grader/1.1"
NOOP = {"action_type": "noop"}


def test_the_registry_has_the_frozen_1_1_to_3_0_and_the_current_3_1() -> None:
    assert versions.CURRENT == versions.V3_1 == "ticketledger-grader/3.1"
    assert versions.V3_0 == "ticketledger-grader/3.0"
    assert versions.V2_1 == "ticketledger-grader/2.1"
    assert v2_0.GRADER_VERSION == "ticketledger-grader/2.0"
    assert versions.FALLBACK == v1_1.GRADER_VERSION == V1_1
    assert versions.grader_for(V1_1).grade_step is v1_1.grade_step  # grade_episode: checked first
    assert versions.grader_for(v2_0.GRADER_VERSION).grade_step is v2_0.grade_step
    assert list(versions.GRADERS) == [V1_1, v2_0.GRADER_VERSION, versions.V2_1, versions.V3_0,
                                      versions.V3_1]
    with pytest.raises(versions.UnknownGrader, match=r"'x/9'.*ticketledger-grader/1\.1"):
        versions.grader_for("x/9")


def test_the_frozen_copy_imports_only_itself_and_the_domain() -> None:
    """No import of a live grader module or of the catalog: 1.1 must judge as it judged. The one
    exception, ``graders.memo``, only remembers results (bounded by the text it holds) and decides
    nothing."""
    package = Path(v1_1.__file__).parent
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                module = node.module
                assert (module.startswith(("graders.v1_1", "graders.memo", "domain.events", "domain.state",
                                           "domain.actions", "domain.tasks.variant",
                                           "domain.tasks.spec"))
                        or not module.startswith(("graders", "domain"))), (path.name, module)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith(("graders", "domain")) for a in node.names)


def test_frozen_foreign_groups_cover_every_task_and_catch_a_shotgun_reply() -> None:
    catalog = default_catalog()
    assert sorted(catalog.task_ids) == sorted(frozen_lexicon._frozen())
    task = catalog.instance("task_easy_password")
    assert task.reply is not None
    foreign = frozen_lexicon.foreign_groups(task.task_id)
    assert len(foreign) >= frozen_lexicon.SHOTGUN_GROUPS
    # a reply that makes the points of six other tickets, in otherwise ordinary prose
    points = ", and ".join(group[0] for group in foreign[:6])
    text = (f"Hi Ava, thanks for reaching out about this. We can confirm {points}. "
            "We will follow up with you about the next steps. Best regards, the support team")
    result = evaluate_1_1(task.reply, text, task.first_name, foreign)
    assert result.fraction == 0 and "other tickets" in result.public
    assert evaluate_1_1(task.reply, text, task.first_name, ()).public != result.public


def test_recorded_version_reads_the_opening_event_then_the_first_grade_then_falls_back() -> None:
    variant = default_catalog().variant("task_easy_password")
    graded = StepGraded(1, 0.0, 0.0, 0, 0, 0, 0, (), (), False, "some/1.0")
    assert versions.recorded_version([start("e", variant, grader_version="a/1")]) == "a/1"
    assert versions.recorded_version([start("e", variant), graded]) == "some/1.0"
    assert versions.recorded_version([start("e", variant)]) == V1_1


def _played_under_1_1(service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> str:
    """An episode as a 1.1 release recorded it: reset while 1.1 was current, then ten no-ops (the
    stalling sequence whose last reward 1.1 refunds)."""
    with monkeypatch.context() as patch:
        patch.setattr(environment, "CURRENT", V1_1)
        episode_id = service.reset("task_easy_password").episode_id
    for _ in range(8):
        service.step(episode_id, NOOP)
    return episode_id


def test_an_old_episode_is_stepped_replayed_and_forked_with_its_own_grader(
        service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    episode_id = _played_under_1_1(service, monkeypatch)
    events = [to_domain(r) for r in service.load_events(episode_id)]
    graded = [e for e in events if isinstance(e, StepGraded)]
    assert {g.grader_version for g in graded} == {V1_1}
    assert [g.reward for g in graded] == v1_1.grade_episode(events).rewards
    auditor = Auditor(service.db)
    report = auditor.replay(episode_id)
    assert report["consistent"] and report["grader_version"] == V1_1
    assert report["recorded_grader_version"] == V1_1

    made = fork(auditor, episode_id, 3)
    forked = [to_domain(r) for r in service.load_events(made["episode_id"])]
    opening = forked[0]
    assert isinstance(opening, EpisodeStarted) and opening.grader_version == V1_1
    assert [e.reward for e in forked if isinstance(e, StepGraded)] == [g.reward for g in graded[:3]]
    after = service.step(made["episode_id"], NOOP)
    assert after.grade is not None and after.grade.grader_version == V1_1
    assert auditor.replay(made["episode_id"])["consistent"]


def test_an_episode_recording_no_version_is_graded_by_its_first_grade_or_1_1(
        service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Logs from before ``EpisodeStarted.grader_version`` was filled: the state falls back the
    same way the log does."""
    with monkeypatch.context() as patch:
        patch.setattr(environment, "CURRENT", "")
        episode_id = service.reset("task_easy_password").episode_id
    result = service.step(episode_id, NOOP)
    assert result.grade is not None and result.grade.grader_version == V1_1
    assert versions.version_of(result.state) == V1_1
    opening = to_domain(service.load_events(episode_id)[0])
    assert isinstance(opening, EpisodeStarted) and opening.grader_version == ""
    assert Auditor(service.db).replay(episode_id)["grader_version"] == V1_1


def test_new_episodes_record_and_use_the_current_grader(service: EnvironmentService) -> None:
    results = play(service, "task_easy_password")
    opening = to_domain(service.load_events(results[0].episode_id)[0])
    assert isinstance(opening, EpisodeStarted) and opening.grader_version == versions.CURRENT
    assert {r.grade.grader_version for r in results[1:] if r.grade} == {versions.CURRENT}


def test_a_changed_catalog_is_a_note_for_an_old_grader_and_a_divergence_for_the_current(
        service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15 rewrites rubrics and answer keys: an episode of grader 1.1 still replays
    consistently (graded with the task its log records), with a note saying the catalog moved."""
    from domain.tasks.variant import TaskVariant
    from service.replay import replay

    old = _played_under_1_1(service, monkeypatch)
    new = play(service, "task_easy_password")[0].episode_id
    changed = TaskVariant.of(default_catalog().instance("task_easy_password")
                             .model_copy(update={"max_steps": 9}))
    monkeypatch.setattr(service.catalog, "variant", lambda task_id, seed=None: changed)
    old_report = replay(service.load_events(old), service.catalog)
    assert old_report.consistent and len(old_report.notes) == 1
    assert "catalog changed" in old_report.notes[0] and V1_1 in old_report.notes[0]
    new_report = replay(service.load_events(new), service.catalog)
    assert not new_report.consistent and new_report.first_divergence is not None
    assert new_report.first_divergence.kind == "catalog" and new_report.notes == []


def test_an_older_grader_refuses_a_task_weighing_a_component_it_does_not_know() -> None:
    """Grader 1.1 has no scorer for the ``outcome`` component the TicketLedger tasks weigh since
    2.0; asked to re-grade such an episode it says so, instead of failing on the component's name."""
    variant = default_catalog().variant("task_hard_gdpr_deletion", None)
    opening = start("ep_cannot_judge", variant, grader_version=v2_0.GRADER_VERSION)
    with pytest.raises(versions.GraderCannotJudge, match="cannot judge task_hard_gdpr_deletion: "
                       "it weighs outcome"):
        versions.grader_for(v1_1.GRADER_VERSION).grade_episode([opening])
    seed_task = start("ep_can_judge", default_catalog().variant("task_easy_password", None))
    assert versions.grader_for(v1_1.GRADER_VERSION).grade_episode([seed_task]).steps == ()


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
