"""The task families beside the classic tasks: loading, the committed manifest, the splits."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from domain.tasks.catalog import load_catalog
from domain.tasks.generate import ManifestError, build_manifest, generator_digest
from domain.tasks.manifest import (
    FAMILIES_DIR,
    MANIFEST_FILE,
    MIN_CASE_SHARE,
    REBUILD,
    SPLITS,
    instance_id,
    load_manifest,
    parse_instance_id,
    split_digest,
)
from domain.tasks.variant import TaskVariant
from domain.vocabulary import BACK_OFFICE_ACTIONS

CATALOG = load_catalog()
CLASSIC = [p.name.split("_", 1)[1].removesuffix(".json")
           for p in sorted((Path(__file__).parents[2] / "domain/tasks/data").glob("*.json"))]


def test_the_classic_tasks_stay_the_default_list_and_every_family_folder_is_loaded() -> None:
    assert CATALOG.task_ids == CLASSIC and len(CLASSIC) == 12
    assert [s.task_id for s in CATALOG.specs()] == CLASSIC
    assert {CATALOG.pick_task_id(seed) for seed in range(200)} <= set(CLASSIC)
    folders = sorted(p.parent.name for p in FAMILIES_DIR.glob("*/spec.json"))
    assert CATALOG.family_ids == [f"task_family_{name}" for name in folders]
    assert {"task_family_refund_request", "task_family_account_access"} <= set(CATALOG.family_ids)
    for task_id in CATALOG.family_ids:
        spec = CATALOG.spec(task_id)
        assert CATALOG.variant(task_id, 42).task.seed == 42
        assert set(CATALOG.judging[task_id]) == {c.name for c in spec.cases}  # the LLM judge's rubric
        task = CATALOG.instance(task_id, 7)
        rubric = CATALOG.judging_rubric(task)
        assert rubric is not None and "{" not in rubric.must


def test_each_family_has_three_cases_that_differ_in_back_office_actions() -> None:
    for spec in CATALOG.family_specs():
        assert len(spec.cases) >= 3, spec.task_id
        decisions = {(frozenset(r.describe() for r in c.expected.required_actions),
                      frozenset(r.describe() for r in c.expected.forbidden_actions))
                     for c in spec.cases}
        assert len(decisions) == len(spec.cases), spec.task_id
        for case in spec.cases:
            assert {r.action for r in case.expected.forbidden_actions} <= set(BACK_OFFICE_ACTIONS)


def test_the_committed_manifest_is_what_the_generator_builds_now() -> None:
    fresh = build_manifest(load_catalog(manifest_file=None))
    committed = MANIFEST_FILE.read_text(encoding="utf-8") if MANIFEST_FILE.exists() else ""
    assert fresh.text() == committed, (
        f"domain/tasks/families/manifest.json is stale (the families changed since it was built); "
        f"rebuild it with `{REBUILD}` and commit it")


def test_the_runtime_catalog_loads_the_manifest_it_does_not_rebuild_it() -> None:
    manifest = CATALOG.manifest
    assert manifest is not None and manifest == load_manifest()
    assert set(manifest.families) == {t.removeprefix("task_family_") for t in CATALOG.family_ids}
    for ref in manifest.instances[::37]:  # the recorded digest is the task a reset plays
        assert TaskVariant.of(CATALOG.materialise(CATALOG.spec(ref.task_id), ref.seed)).digest == ref.digest


def test_every_instance_is_distinct_and_every_case_is_at_least_a_tenth_of_its_family() -> None:
    manifest = CATALOG.manifest
    assert manifest is not None
    for name, entry in manifest.families.items():
        refs = manifest.family_instances(name)
        assert len(refs) == entry.instances == manifest.instances_per_family
        assert len({r.digest for r in refs}) == len(refs)
        assert [r.id for r in refs] == [instance_id(name, s) for s in range(entry.instances)]
        for case, count in entry.cases.items():
            assert count / entry.instances >= MIN_CASE_SHARE, (name, case)
            assert count == sum(r.case == case for r in refs)


def test_the_splits_partition_the_instances_with_every_family_and_case_in_each() -> None:
    manifest = CATALOG.manifest
    assert manifest is not None
    seen: list[str] = []
    for split in SPLITS:
        refs = manifest.split(split)
        seen += [r.id for r in refs]
        assert {r.split for r in refs} == {split}
        assert {r.family for r in refs} == set(manifest.families)
        assert {(r.family, r.case) for r in refs} == {(r.family, r.case) for r in manifest.instances}
        assert split_digest(refs) == manifest.split_digests[split]
    assert sorted(seen) == sorted(r.id for r in manifest.instances)
    data = json.loads(MANIFEST_FILE.read_text(encoding="utf-8"))
    assert data["splits"]["test"]["ids"] == [r.id for r in manifest.split("test")]
    assert len(manifest.split("train")) > len(manifest.split("dev")) > 0


def test_split_index_and_instance_lookups_say_what_is_valid() -> None:
    test = CATALOG.split("test")
    assert CATALOG.split_instance("test", 0) == test[0]
    with pytest.raises(ValueError, match=rf"from 0 to {len(test) - 1}"):
        CATALOG.split_instance("test", len(test))
    with pytest.raises(ValueError, match="train, dev, test"):
        CATALOG.split("holdout")
    assert parse_instance_id("refund_request-0042") == ("refund_request", 42)
    assert parse_instance_id("refund_request") is None
    assert instance_id("refund_request", 42) == "refund_request-0042"


def _copy_families(tmp_path: Path) -> Path:
    target = tmp_path / "families"
    for folder in sorted(p for p in FAMILIES_DIR.iterdir() if p.is_dir()):  # every family's
        shutil.copytree(folder, target / folder.name)
    return target


def test_changing_a_family_changes_the_generator_digest_and_the_split_digests(tmp_path: Path) -> None:
    families = _copy_families(tmp_path)
    before = build_manifest(load_catalog(families_dir=families, manifest_file=None), families)
    spec = families / "refund_request" / "spec.json"
    data = json.loads(spec.read_text())
    data["variables"]["product"]["choices"][0] = "walnut standing desk"
    spec.write_text(json.dumps(data))
    after = build_manifest(load_catalog(families_dir=families, manifest_file=None), families)
    assert before.generator_digest == generator_digest(FAMILIES_DIR)  # the copy: the same generator
    assert after.generator_digest == generator_digest(families)
    assert before.generator_digest != after.generator_digest
    assert before.split_digests != after.split_digests


def test_a_case_drawn_for_under_a_tenth_of_instances_fails_the_build_and_says_which(tmp_path: Path) -> None:
    families = _copy_families(tmp_path)
    spec = families / "refund_request" / "spec.json"
    data = json.loads(spec.read_text())
    bundles = data["variables"]["situation"]["choices"]
    # one fraud bundle among 25: about 4% of the seeds draw the case
    data["variables"]["situation"]["choices"] = [b for b in bundles if b["case"] != "fraud_review"] * 3 \
        + [bundles[0]]
    spec.write_text(json.dumps(data))
    with pytest.raises(ManifestError, match=r"refund_request: case 'fraud_review' is \d+ of 120"):
        build_manifest(load_catalog(families_dir=families, manifest_file=None), families)


def test_a_family_whose_task_id_does_not_match_its_folder_is_refused(tmp_path: Path) -> None:
    families = _copy_families(tmp_path)
    (families / "account_access").rename(families / "login_help")
    with pytest.raises(ValueError, match="task_family_login_help"):
        load_catalog(families_dir=families, manifest_file=None)


def test_a_new_family_leaves_every_existing_instance_in_its_split(tmp_path: Path) -> None:
    families = _copy_families(tmp_path)
    both = build_manifest(load_catalog(families_dir=families, manifest_file=None), families)
    shutil.rmtree(families / "account_access")
    alone = build_manifest(load_catalog(families_dir=families, manifest_file=None), families)
    assert {r.id: r.split for r in alone.instances} == \
        {r.id: r.split for r in both.instances if r.family != "account_access"}
    assert alone.split_digests != both.split_digests


def test_the_manifest_is_read_when_first_asked_for(tmp_path: Path) -> None:
    """Loading the catalog does not read the manifest (most programs ask for no split); the first
    question does, and a broken file then fails as it did at load."""
    broken = tmp_path / "manifest.json"
    broken.write_text("{}", encoding="utf-8")
    catalog = load_catalog(manifest_file=broken)
    assert catalog.spec(catalog.family_ids[0]).task_id == catalog.family_ids[0]
    with pytest.raises(ValueError, match=r"invalid task-family manifest manifest\.json"):
        catalog.split("train")
    assert load_catalog().manifest == load_manifest()
