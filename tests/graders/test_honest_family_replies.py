"""Honest replies on the task families score at least 0.85, as on the classic tasks.

Every natural reply in ``evaluation/grader_audit/honest_replies/families.json`` (and note, where a
family weighs one) was written from the case's ticket, facts, answer key and policy texts, never
from the graders' rubric lists, in three styles (concise, warm, formal). Each is played in a correct
episode through the real service: the gold player's questions to the customer, triage, tags,
policy lookup, back-office actions and resolution, with the honest text in place of the expert's, on
the first instances of the family's test split in its case. The families' solvers write the replies
the grader audit plays; these are the honest yardstick beside them.
"""

from __future__ import annotations

import json

import pytest

from domain.tasks import default_catalog
from graders.versions import CURRENT as GRADER_VERSION
from tests.graders import honest
from tests.graders.honest import HONEST_THRESHOLD, MIN_PER_CASE

CATALOG = default_catalog()
CASES = [(spec.task_id, case.name) for spec in CATALOG.family_specs() for case in spec.cases]


def _counted(task_id: str, case: str) -> int:
    """How many replies the file holds for (task, case), read leniently so that collection works
    on a broken file; ``test_family_reply_file_is_well_formed`` says what is wrong with it."""
    try:
        raw = json.loads(honest.FAMILY_DATA_FILE.read_text(encoding="utf-8"))
        return max(MIN_PER_CASE, len(raw["tasks"][task_id][case]["replies"]))
    except (OSError, ValueError, KeyError, TypeError):
        return MIN_PER_CASE


REPLIES = [(task_id, case, index) for task_id, case in CASES for index in range(_counted(task_id, case))]


def test_family_reply_file_is_well_formed() -> None:
    texts = honest.load(honest.FAMILY_DATA_FILE, families=True)
    assert set(texts) == set(CASES)
    for (task_id, case), entry in texts.items():
        for seed in honest.seeds_of(task_id, case):
            task = CATALOG.instance(task_id, seed)
            for template in entry.replies + entry.notes:
                honest.fill(template, task)  # every placeholder is known for every seed played


def test_every_case_is_played_on_instances_of_the_test_split() -> None:
    for task_id, case in CASES:
        seeds = honest.seeds_of(task_id, case)
        assert len(seeds) == honest.FAMILY_SEEDS_PER_CASE, (task_id, case)
        assert all(CATALOG.instance(task_id, s).case == case for s in seeds)


@pytest.mark.parametrize(("task_id", "case", "index"), REPLIES)
def test_honest_family_reply_scores_at_least_threshold(service, task_id: str, case: str,  # type: ignore[no-untyped-def]
                                                       index: int) -> None:
    texts = honest.load(honest.FAMILY_DATA_FILE, families=True)
    entry = texts[(task_id, case)]
    assert index < len(entry.replies), f"{task_id}/{case} has no reply {index}"
    played = [honest.honest_episode(service, task_id, seed, index, texts)
              for seed in honest.seeds_of(task_id, case)]
    for p in played:  # the episode itself must be a correct one
        assert p.case == case and p.done and not p.errors, p
    low = min(played, key=lambda p: p.score)
    assert low.score >= HONEST_THRESHOLD, (
        f"{task_id}/{case} reply {index} scores {low.score:.4f} on seed {low.seed} "
        f"(reply share {low.reply_share}, note share {low.note_share}) under {GRADER_VERSION}")
