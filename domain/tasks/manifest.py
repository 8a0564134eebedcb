"""The committed manifest of the task families: every instance, its case and digest, and the splits.

A family (``domain/tasks/families/<family>/spec.json``) generates one instance per seed; the
manifest fixes which seeds are instances (``0 .. instances_per_family - 1``), names each one
(``<family>-<seed, 4 digits>``, e.g. ``refund_request-0042``), records the case it draws and the
digest of its task JSON (:attr:`domain.tasks.variant.TaskVariant.digest`), and assigns it to one
frozen split (train, dev or test). It is written by an offline command
(``ticketledger tasks build-manifest``, :mod:`domain.tasks.generate`) and committed; the runtime
only reads it, so a reset by split and index costs a list lookup, and a split is the same list of
instances on every machine until someone rebuilds the manifest on purpose.

``generator_digest`` fingerprints the generator (every family's ``spec.json`` and
:data:`GENERATOR_VERSION`): changing a family changes it, and with it the instances' digests and
the splits' digests; a test rebuilds the manifest in memory and fails when the committed one is
stale.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FAMILIES_DIR = Path(__file__).parent / "families"
MANIFEST_FILE = FAMILIES_DIR / "manifest.json"
SPLITS = ("train", "dev", "test")
SPLIT_SHARES = {"train": 0.6, "dev": 0.2, "test": 0.2}
"""Each (family, case) group's instances go 60/20/20 to train/dev/test."""
INSTANCES_PER_FAMILY = 120
MIN_CASE_SHARE = 0.10
GENERATOR_VERSION = "1"
"""Bump when the materialisation code (``domain.tasks.catalog``) changes what a spec generates."""
REBUILD = "ticketledger tasks build-manifest"


def instance_id(family: str, seed: int) -> str:
    """``refund_request-0042``: the family's name and the seed (at least 4 digits)."""
    return f"{family}-{seed:04d}"


def parse_instance_id(text: str) -> tuple[str, int] | None:
    """``(family, seed)`` of an instance id, None when ``text`` is not one."""
    family, sep, seed = text.rpartition("-")
    if not sep or not family or not seed.isdigit():
        return None
    return family, int(seed)


def split_digest(refs: tuple[InstanceRef, ...]) -> str:
    """A split's fingerprint: its instance ids and their task digests, in order."""
    text = "\n".join(f"{r.id}:{r.digest}" for r in refs)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class InstanceRef:
    """One instance: what a reset by split and index plays (``task_id`` at ``seed``)."""

    id: str
    family: str
    task_id: str
    seed: int
    case: str
    digest: str
    split: str


@dataclass(frozen=True, slots=True)
class FamilyEntry:
    name: str
    task_id: str
    instances: int
    cases: dict[str, int]


@dataclass(frozen=True)
class Manifest:
    version: int
    generator_digest: str
    instances_per_family: int
    families: dict[str, FamilyEntry]
    instances: tuple[InstanceRef, ...]
    split_digests: dict[str, str]
    _splits: dict[str, tuple[InstanceRef, ...]] = field(init=False, repr=False, compare=False)
    _by_id: dict[str, InstanceRef] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_split: dict[str, list[InstanceRef]] = {s: [] for s in SPLITS}
        for ref in self.instances:
            by_split[ref.split].append(ref)
        object.__setattr__(self, "_splits", {k: tuple(v) for k, v in by_split.items()})
        object.__setattr__(self, "_by_id", {r.id: r for r in self.instances})

    def split(self, name: str) -> tuple[InstanceRef, ...]:
        splits: dict[str, tuple[InstanceRef, ...]] = self._splits
        if name not in splits:
            raise ValueError(f"unknown split {name!r}; one of {', '.join(SPLITS)}")
        return splits[name]

    def split_instance(self, name: str, index: int) -> InstanceRef:
        refs = self.split(name)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(refs):
            raise ValueError(f"index must be an integer from 0 to {len(refs) - 1} for split "
                             f"{name!r} ({len(refs)} instances), not {index!r}")
        return refs[index]

    def instance(self, instance_id_: str) -> InstanceRef:
        by_id: dict[str, InstanceRef] = self._by_id
        if instance_id_ not in by_id:
            raise ValueError(f"unknown instance {instance_id_!r}; ids look like "
                             f"{self.instances[0].id if self.instances else 'refund_request-0042'}")
        return by_id[instance_id_]

    def family_instances(self, family: str) -> tuple[InstanceRef, ...]:
        name = family.removeprefix("task_family_")
        if name not in self.families:
            raise ValueError(f"unknown family {family!r}; known: {', '.join(self.families)}")
        return tuple(r for r in self.instances if r.family == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "generator_digest": self.generator_digest,
            "rebuild": REBUILD,
            "instances_per_family": self.instances_per_family,
            "families": {
                f.name: {"task_id": f.task_id, "instances": f.instances, "cases": f.cases,
                         "shares": {c: round(n / f.instances, 4) for c, n in f.cases.items()}}
                for f in self.families.values()},
            "splits": {s: {"instances": len(self.split(s)), "digest": self.split_digests[s],
                           "ids": [r.id for r in self.split(s)]} for s in SPLITS},
            "instances": [[r.id, r.family, r.task_id, r.seed, r.case, r.digest, r.split]
                          for r in self.instances],
        }

    def text(self) -> str:
        """The manifest file's text: stable, one instance per line."""
        data = self.to_json()
        instances = data.pop("instances")
        head = json.dumps(data, indent=1, sort_keys=False)
        rows = ",\n".join("  " + json.dumps(row) for row in instances)
        return head[:-2] + ',\n "instances": [\n' + rows + "\n ]\n}\n"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        families = {name: FamilyEntry(name, f["task_id"], int(f["instances"]),
                                      {str(c): int(n) for c, n in f["cases"].items()})
                    for name, f in data["families"].items()}
        instances = tuple(InstanceRef(str(i), str(f), str(t), int(s), str(c), str(d), str(sp))
                          for i, f, t, s, c, d, sp in data["instances"])
        return cls(int(data["version"]), str(data["generator_digest"]),
                   int(data["instances_per_family"]), families, instances,
                   {s: str(data["splits"][s]["digest"]) for s in SPLITS})


def load_manifest(path: Path = MANIFEST_FILE) -> Manifest:
    """Read the committed manifest (the runtime never regenerates it)."""
    try:
        return Manifest.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"invalid task-family manifest {path.name}: {exc}; rebuild it with "
                         f"`{REBUILD}`") from exc
