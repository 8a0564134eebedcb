"""Generating the task families' manifest (offline: ``ticketledger tasks build-manifest``).

Materialises every instance of every family (seeds ``0 .. instances_per_family - 1``), checks the
family is fit to train on (every instance distinct, every case at least 10% of the family's
instances) and assigns the frozen splits. Deterministic: the same spec files give byte-identical
manifest text on every machine, which is what lets a test say the committed manifest is stale.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from pathlib import Path

from domain.tasks.catalog import FAMILY_TASK_PREFIX, Catalog, family_dirs
from domain.tasks.manifest import (
    FAMILIES_DIR,
    GENERATOR_VERSION,
    INSTANCES_PER_FAMILY,
    MIN_CASE_SHARE,
    SPLIT_SHARES,
    SPLITS,
    FamilyEntry,
    InstanceRef,
    Manifest,
    instance_id,
    split_digest,
)
from domain.tasks.variant import TaskVariant

MANIFEST_VERSION = 1


class ManifestError(ValueError):
    """A family that cannot go into the manifest; the message says which and why."""


def generator_digest(families_dir: Path = FAMILIES_DIR) -> str:
    """The fingerprint of the generator: :data:`GENERATOR_VERSION` and every family's spec file."""
    h = hashlib.sha256(f"generator:{GENERATOR_VERSION}\n".encode())
    for folder in family_dirs(families_dir):
        h.update(f"{folder.name}\n".encode())
        h.update((folder / "spec.json").read_bytes())
    return h.hexdigest()[:16]


def _rank(iid: str) -> str:
    return hashlib.sha256(f"split:{iid}".encode()).hexdigest()


def build_manifest(catalog: Catalog, families_dir: Path = FAMILIES_DIR,
                   per_family: int = INSTANCES_PER_FAMILY) -> Manifest:
    """Every instance of ``catalog``'s families, checked, with its split (raises ManifestError)."""
    refs: list[tuple[str, str, str, int, str, str]] = []
    entries: dict[str, FamilyEntry] = {}
    problems: list[str] = []
    for spec in catalog.family_specs():
        family = spec.task_id.removeprefix(FAMILY_TASK_PREFIX)
        seen: dict[str, int] = {}
        cases: Counter[str] = Counter()
        for seed in range(per_family):
            variant = TaskVariant.of(catalog.materialise(spec, seed))
            if variant.digest in seen:
                problems.append(f"{family}: seeds {seen[variant.digest]} and {seed} give the same "
                                "task; add variables so every seed draws a distinct instance")
                break
            seen[variant.digest] = seed
            cases[variant.task.case] += 1
            refs.append((instance_id(family, seed), family, spec.task_id, seed,
                         variant.task.case, variant.digest))
        for case in spec.cases:
            share = cases[case.name] / per_family
            if share < MIN_CASE_SHARE:
                problems.append(f"{family}: case {case.name!r} is {cases[case.name]} of {per_family} "
                                f"instances ({share:.0%}); every case must be at least "
                                f"{MIN_CASE_SHARE:.0%} of its family")
        entries[family] = FamilyEntry(family, spec.task_id, per_family,
                                      {c.name: cases[c.name] for c in spec.cases})
    if problems:
        raise ManifestError("; ".join(problems))
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for iid, family, _, _, case_name, _ in refs:
        groups[(family, case_name)].append(iid)
    split_of: dict[str, str] = {}
    for ids in groups.values():  # stratified: each (family, case) group splits 60/20/20
        ranked = sorted(ids, key=_rank)
        cut_train = round(len(ranked) * SPLIT_SHARES["train"])
        cut_dev = round(len(ranked) * (SPLIT_SHARES["train"] + SPLIT_SHARES["dev"]))
        for k, iid in enumerate(ranked):
            split_of[iid] = "train" if k < cut_train else "dev" if k < cut_dev else "test"
    instances = tuple(InstanceRef(iid, fam, tid, seed, case, digest, split_of[iid])
                      for iid, fam, tid, seed, case, digest in refs)
    digests = {s: split_digest(tuple(r for r in instances if r.split == s)) for s in SPLITS}
    return Manifest(MANIFEST_VERSION, generator_digest(families_dir), per_family, entries,
                    instances, digests)
