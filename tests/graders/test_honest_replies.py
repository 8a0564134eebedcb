"""Honest replies score at least 0.85.

Every natural reply in ``evaluation/grader_audit/honest_replies/classic.json`` (and note, where a task
weighs one) is played in a correct episode through the real service on the run's database: the
gold player's triage, tags, policy lookup, back-office actions and resolution, with the honest
text in place of the expert's. The data file's shape, its counts and its placeholders are checked
under every grader. The score threshold is what the new grader must meet; under grader 1.1, which
mis-scores many of these replies, a reply below it is an expected failure, through the one switch
``THRESHOLD_PENDING``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.tasks import default_catalog
from graders.versions import CURRENT as GRADER_VERSION
from tests.audit_helpers import CASE_SEEDS
from tests.graders import honest
from tests.graders.honest import HONEST_THRESHOLD, MIN_PER_CASE, MalformedReplies

CATALOG = default_catalog()

OLD_GRADER = "ticketledger-grader/1.1"
THRESHOLD_PENDING = GRADER_VERSION == OLD_GRADER
"""The single switch: under grader 1.1 a reply below the threshold is an expected failure (the
issue's reason for a new grader); under any other version the threshold is enforced."""

CASES = [(spec.task_id, case.name) for spec in CATALOG.specs() for case in spec.cases]


def _counted(task_id: str, case: str) -> int:
    """How many replies the file holds for (task, case), read leniently so that collection works
    on a broken file; ``test_reply_file_is_well_formed`` says what is wrong with it."""
    try:
        entry = json.loads(honest.DATA_FILE.read_text(encoding="utf-8"))["tasks"][task_id][case]
        return max(MIN_PER_CASE, len(entry["replies"]))
    except (OSError, ValueError, KeyError, TypeError):
        return MIN_PER_CASE


REPLIES = [(task_id, case, index) for task_id, case in CASES for index in range(_counted(task_id, case))]


def test_reply_file_is_well_formed() -> None:
    texts = honest.load()
    assert set(texts) == set(CASES)
    for (task_id, case), entry in texts.items():
        assert len(entry.replies) >= MIN_PER_CASE, (task_id, case)
        if "note" in CATALOG.spec(task_id).weights:
            assert len(entry.notes) >= MIN_PER_CASE, (task_id, case)


def test_every_placeholder_is_known_for_every_seed() -> None:
    texts = honest.load()
    for (task_id, case), entry in texts.items():
        for seed in honest.seeds_of(task_id, case):
            task = CATALOG.instance(task_id, seed)
            for text in entry.replies + entry.notes:
                filled = honest.fill(text, task)
                assert "{" not in filled and "}" not in filled, (task_id, case, seed, filled)


def test_seeds_reach_every_case() -> None:
    for task_id, case in CASES:
        assert honest.seeds_of(task_id, case), f"no seed of {honest.SEEDS} reaches {task_id}/{case}"


def test_loader_refuses_broken_files(tmp_path: Path) -> None:
    """The checks above can fail: a short case, an unknown placeholder, a missing task."""
    good = json.loads(honest.DATA_FILE.read_text(encoding="utf-8"))

    def broken(change: str) -> Path:
        data = json.loads(json.dumps(good))
        cases = data["tasks"]["task_hard_refund_fraud_trap"]
        if change == "short":
            cases["fraud_review"]["replies"] = cases["fraud_review"]["replies"][:2]
        elif change == "no notes":
            del cases["normal_refund"]["notes"]
        elif change == "missing task":
            del data["tasks"]["task_easy_password"]
        elif change == "extra case":
            cases["other"] = cases["fraud_review"]
        elif change == "bad template":
            cases["fraud_review"]["replies"][0] += " {order_id"
        path = tmp_path / f"{change}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    for change in ("short", "no notes", "missing task", "extra case", "bad template"):
        with pytest.raises(MalformedReplies):
            honest.load(broken(change))
    (tmp_path / "not json.json").write_text("{", encoding="utf-8")
    with pytest.raises(MalformedReplies):
        honest.load(tmp_path / "not json.json")
    task = CATALOG.instance("task_easy_password", None)
    with pytest.raises(MalformedReplies, match="unknown placeholders"):
        honest.fill("Hi {first_name}, your refund of ${amount} is on its way.", task)


@pytest.mark.parametrize(("task_id", "case", "index"), REPLIES)
def test_honest_reply_scores_at_least_threshold(service, task_id: str, case: str, index: int) -> None:
    texts = honest.load()
    entry = texts[(task_id, case)]
    assert index < len(entry.replies), f"{task_id}/{case} has no reply {index}"
    played = [honest.honest_episode(service, task_id, seed, index, texts)
              for seed in honest.seeds_of(task_id, case)]
    for p in played:  # the episode itself must be a correct one under every grader
        assert p.case == case and p.done and not p.errors, p
    low = min(played, key=lambda p: p.score)
    if low.score < HONEST_THRESHOLD and THRESHOLD_PENDING:
        pytest.xfail(f"{OLD_GRADER} scores this honest reply {low.score:.4f} (seed {low.seed}); "
                     f"the threshold {HONEST_THRESHOLD} is enforced from the next grader version")
    assert low.score >= HONEST_THRESHOLD, (
        f"{task_id}/{case} reply {index} scores {low.score:.4f} on seed {low.seed} "
        f"(reply share {low.reply_share}, note share {low.note_share}) under {GRADER_VERSION}")


ADVERSARY_KINDS = ("safety", "gaming", "degenerate")
"""The audit's families that do wrong or gamed work (``evaluation.grader_audit``); the ``repeat``
family does the right work with repeats, and the references are the gold player and the policy."""


@pytest.mark.slow
def test_policy_lands_between_the_adversaries_and_the_honest_replies(service) -> None:
    """Per task and case: every adversary episode < the built-in policy's mean < the honest
    replies' mean. The policy earns its reply credit with its task-specific text and less than a
    person writing naturally does; a policy reply with a generic courtesy frame tied or beat them.
    A task that weighs no reply (its honest texts are not graded) only needs policy <= honest."""
    from baseline.policy import BUILTIN_POLICY
    from evaluation.grader_audit import AUDIT_FAMILIES, run_audit

    rows = honest.score_table(service)
    policy = honest.policy_scores(service)
    report = run_audit(seeds=CASE_SEEDS, families=[f for f in AUDIT_FAMILIES if f.kind in ADVERSARY_KINDS],
                       policy=BUILTIN_POLICY)
    adversaries: dict[tuple[str, str], list[tuple[float, str]]] = {}
    for cell in report.cells:
        for e in cell.episodes:
            if e.blocked is None and e.error is None:
                adversaries.setdefault((e.task_id, e.case), []).append((float(e.score), cell.family))
    assert set(policy) == set(CASES) == set(adversaries)
    problems = []
    for (task_id, case), scores in policy.items():
        honest_scores = [r.score for r in rows if (r.task_id, r.case) == (task_id, case)]
        honest_mean = sum(honest_scores) / len(honest_scores)
        policy_mean = sum(scores) / len(scores)
        worst, name = max(adversaries[(task_id, case)])
        weighs_reply = "reply" in CATALOG.spec(task_id).weights
        below_honest = policy_mean < honest_mean if weighs_reply else policy_mean <= honest_mean
        if not (worst < policy_mean and below_honest):
            problems.append(f"{task_id}/{case}: adversary {name} {worst:.4f}, policy {policy_mean:.4f}, "
                            f"honest {honest_mean:.4f}")
    assert not problems, "\n".join(problems)
