"""Loading the catalog and drawing a task's variant from a seed.

Reading the packaged JSON files is the only I/O near the domain; it happens once, when the catalog
loads (the task families' manifest when first asked for), never while deciding or folding.
Variant drawing is a pure function of (task, seed): ``random.Random`` seeded with a string is
stable across processes and platforms.
"""

from __future__ import annotations

import datetime as dt
import json
import operator
import random
import threading
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path

from domain.tasks.judging import JUDGING_FILE, Judging, JudgingRubric, judging_from, load_judging
from domain.tasks.manifest import FAMILIES_DIR, MANIFEST_FILE, InstanceRef, Manifest, load_manifest
from domain.tasks.spec import (
    Account,
    AccountTemplate,
    ActionRule,
    Case,
    Condition,
    Expected,
    HiddenFact,
    Rubric,
    TaskInstance,
    TaskSpec,
    Ticket,
)
from domain.tasks.variant import TaskVariant
from domain.vocabulary import PolicyId

DATA_DIR = Path(__file__).parent / "data"
POLICIES_FILE = Path(__file__).parent / "policies.json"


class UnknownTask(LookupError):
    """Raised for a task id the catalog does not hold; the message lists the known ids."""


class Catalog:
    """An ordered, validated set of task specs plus the policy dictionary they consult.

    ``specs`` are the classic tasks: the default task list (:attr:`task_ids`, :meth:`specs`,
    :meth:`pick_task_id`). ``families`` are the generated task families (``task_family_<name>``,
    :attr:`family_ids`): :meth:`spec`, :meth:`variant` and the judging rubrics know them too, but
    a client gets them only by asking for one (its task id, an instance, a split). ``manifest``:
    the committed list of their instances and splits (:mod:`domain.tasks.manifest`), read, never
    regenerated, at runtime; ``manifest`` may be a function reading it, called the first time the
    manifest is asked for (the file lists every instance, and most programs ask for none).
    """

    def __init__(self, specs: list[TaskSpec], policies: dict[PolicyId, str],
                 judging: Judging | None = None, *, families: list[TaskSpec] | None = None,
                 manifest: Manifest | Callable[[], Manifest] | None = None):
        self._classic = [s.task_id for s in specs]
        self._family_ids = [s.task_id for s in families or []]
        self._specs = {s.task_id: s for s in [*specs, *(families or [])]}
        self.judging: Judging = judging or {}
        self._manifest_value = manifest
        if len(self._specs) != len(specs) + len(families or []):
            raise ValueError("duplicate task ids in the catalog")
        self.policies = policies
        self._variants: dict[tuple[str, int | None], TaskVariant] = {}
        self._lock = threading.Lock()  # services call from several threads

    @property
    def manifest(self) -> Manifest | None:
        """The task families' manifest (None: there is none)."""
        found = self._manifest_value
        if callable(found):
            with self._lock:
                if callable(self._manifest_value):
                    self._manifest_value = self._manifest_value()
                found = self._manifest_value
        return found

    @property
    def task_ids(self) -> list[str]:
        """The classic tasks: the default task list everywhere (families are asked for)."""
        return list(self._classic)

    @property
    def family_ids(self) -> list[str]:
        """The task ids of the task families (``task_family_<name>``), in folder order."""
        return list(self._family_ids)

    def family_specs(self) -> list[TaskSpec]:
        return [self._specs[t] for t in self._family_ids]

    def split(self, name: str) -> tuple[InstanceRef, ...]:
        """The instances of the frozen split ``name`` (train, dev, test), in manifest order."""
        return self._manifest().split(name)

    def split_instance(self, name: str, index: int) -> InstanceRef:
        """Instance ``index`` of split ``name``; a ValueError names the valid splits or range."""
        return self._manifest().split_instance(name, index)

    def family_instances(self, family: str) -> tuple[InstanceRef, ...]:
        """Every instance of ``family`` (its name or its task id), by seed."""
        return self._manifest().family_instances(family)

    def _manifest(self) -> Manifest:
        manifest = self.manifest
        if manifest is None:
            raise ValueError("this catalog has no task-family manifest (no splits or instances); "
                             "build it with `ticketledger tasks build-manifest`")
        return manifest

    def spec(self, task_id: str) -> TaskSpec:
        try:
            return self._specs[task_id]
        except KeyError:
            raise UnknownTask(
                f"unknown task_id {task_id!r}; known tasks: {', '.join(self._classic)}"
            ) from None

    def specs(self) -> list[TaskSpec]:
        """The classic tasks' specs (:meth:`all_specs` adds the families')."""
        return [self._specs[t] for t in self._classic]

    def all_specs(self) -> list[TaskSpec]:
        return list(self._specs.values())

    def pick_task_id(self, seed: int | None) -> str:
        """The task a reset without ``task_id`` gets: a pure function of the seed (absent = 0)."""
        ids = self.task_ids
        return ids[random.Random(f"pick:{seed or 0}").randrange(len(ids))]

    def variant(self, task_id: str, seed: int | None = None) -> TaskVariant:
        """Materialise ``task_id`` for ``seed`` (``None``: the seed's published variant), with its
        JSON form, digest, public view and answer key.

        Built once per (task, seed) and kept (a bounded dict, oldest entry out first): every reset
        of the variant records its JSON and digest, and every observation and grade reads its
        public view and answer key. A variant is immutable, so its episodes share it.
        """
        key = (task_id, seed)
        with self._lock:
            found = self._variants.get(key)
        if found is None:
            found = TaskVariant.of(_materialise(self.spec(task_id), seed))
            with self._lock:
                if len(self._variants) >= VARIANT_CACHE_SIZE:
                    self._variants.pop(next(iter(self._variants)))
                self._variants[key] = found
        return found

    def instance(self, task_id: str, seed: int | None = None) -> TaskInstance:
        """The materialised task of :meth:`variant`."""
        return self.variant(task_id, seed).task

    def policy_text(self, policy_id: PolicyId) -> str:
        return self.policies[policy_id]

    def judging_rubric(self, task: TaskInstance) -> JudgingRubric | None:
        """The LLM judge's rubric for ``task``'s case, filled with its values (None: none loaded)."""
        rubric = self.judging.get(task.task_id, {}).get(task.case)
        return rubric.filled(task.variables) if rubric is not None else None

    def materialise(self, spec: TaskSpec, seed: int | None) -> TaskInstance:
        """``spec`` for ``seed`` without the cache (the offline manifest build uses it)."""
        return _materialise(spec, seed)


VARIANT_CACHE_SIZE = 4096
"""Variants a catalog keeps: far more than the tasks times the seeds a run uses at once."""


def _draw(spec: TaskSpec, seed: int | None) -> dict[str, int | str]:
    rng = random.Random(f"{spec.task_id}:{seed}")
    drawn: dict[str, int | str] = {}
    for name, var in sorted(spec.variables.items()):
        choices = var.choices or []
        if var.range is not None:
            low, high = var.range
            drawn[name] = var.published if seed is None else rng.randint(low, high)
        elif choices and isinstance(choices[0], dict):  # a bundle: its keys are drawn together
            bundles = [c for c in choices if isinstance(c, dict)]
            drawn.update(bundles[int(var.published) if seed is None else rng.randrange(len(bundles))])
        else:
            values = [c for c in choices if isinstance(c, str)]
            drawn[name] = var.published if seed is None else rng.choice(values)
    return drawn


def _derived(values: dict[str, int | str]) -> dict[str, int | str]:
    """Values computed from drawn ones: names split for greetings, dates from day offsets."""
    out = dict(values)
    name = str(out.get("customer_name", ""))
    if name:
        out["first_name"] = name.split()[0]
        out["first_name_lower"] = name.split()[0].lower()
    if "ticket_date" in out and "days_since_purchase" in out:
        ticket_day = dt.date.fromisoformat(str(out["ticket_date"]))
        order_day = ticket_day - dt.timedelta(days=int(out["days_since_purchase"]))
        out["order_date"] = order_day.isoformat()
    for _ in range(3):  # values may name other values ("{first_name_lower}@..."): settle them
        out = {k: _fill(v, out) if isinstance(v, str) else v for k, v in out.items()}
    return out


def _holds(cond: Condition | None, values: dict[str, int | str]) -> bool:
    if cond is None:
        return True
    left = values[cond.variable]
    right = cond.value
    if cond.op == "eq":
        return left == right
    if cond.op == "ne":
        return left != right
    if type(left) is not type(right):
        raise ValueError(f"cannot order {cond.variable}={left!r} against {right!r}")
    return _ORDER[cond.op](left, right)


_ORDER: dict[str, Callable[[int | str, int | str], bool]] = {
    "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge}


def _fill(text: str, values: dict[str, int | str]) -> str:
    return text.format_map(values)


def _fill_rubric(rubric: Rubric | None, values: dict[str, int | str]) -> Rubric | None:
    if rubric is None:
        return None
    data = rubric.model_dump()
    for group in data["facts"] + data["forbidden"]:
        group["any_of"] = [_fill(p, values) for p in group["any_of"]]
    return Rubric.model_validate(data)


def _fill_rules(rules: tuple[ActionRule, ...], values: dict[str, int | str]) -> tuple[ActionRule, ...]:
    return tuple(rule.model_copy(update={"fields": {k: _fill(v, values) for k, v in rule.fields.items()}})
                 for rule in rules)


def _fill_expected(expected: Expected, values: dict[str, int | str]) -> Expected:
    """The case's answer key with its action rules' field templates filled for this variant."""
    if not any(r.fields for r in expected.required_actions + expected.forbidden_actions):
        return expected
    return expected.model_copy(update={
        "required_actions": _fill_rules(expected.required_actions, values),
        "forbidden_actions": _fill_rules(expected.forbidden_actions, values)})


def _account(template: AccountTemplate, ticket: Ticket, values: dict[str, int | str]) -> Account:
    charged = _fill(template.charged, values) if template.charged is not None else None
    return Account(email=_fill(template.email, values) if template.email else ticket.customer_email,
                   charged=round(float(charged.lstrip("$")), 2) if charged is not None else None)


def _materialise(spec: TaskSpec, seed: int | None) -> TaskInstance:
    values = _derived(_draw(spec, seed))
    case: Case = next(c for c in spec.cases if _holds(c.when, values))
    template = spec.ticket.model_dump()
    facts = {k: _fill(v, values) for k, v in template.pop("facts").items()}
    hidden = {name: HiddenFact(value=_fill(h["value"], values), answer=_fill(h["answer"], values),
                               asked_by=tuple(_fill(w, values) for w in h["asked_by"]),
                               label=h["label"])
              for name, h in template.pop("hidden_facts").items()}
    for name, fact in hidden.items():
        if fact.value not in fact.answer:  # the customer's answer is how the value reaches the agent
            raise ValueError(f"hidden fact {name!r}: its answer {fact.answer!r} does not contain "
                             f"its value {fact.value!r}")
    ticket = Ticket.model_validate({**{k: _fill(v, values) for k, v in template.items()},
                                    "facts": facts})
    return TaskInstance(
        task_id=spec.task_id,
        title=spec.title,
        difficulty=spec.difficulty,
        source=spec.source,
        objective=spec.objective,
        max_steps=spec.max_steps,
        success_threshold=spec.success_threshold,
        policies=spec.policies,
        weights=spec.weights,
        seed=seed,
        variables=values,
        ticket=ticket,
        case=case.name,
        expected=_fill_expected(case.expected, values),
        reply=_fill_rubric(case.reply, values),
        note=_fill_rubric(case.note, values),
        account=_account(spec.account, ticket, values),
        hidden_facts=hidden,
    )


def _load_spec(path: Path, name: str) -> TaskSpec:
    try:
        spec = TaskSpec.model_validate_json(path.read_text(encoding="utf-8"))
        _materialise(spec, None)  # a template naming an unknown variable fails here, at load
    except ValueError as exc:
        raise ValueError(f"invalid task file {name}: {exc}") from exc
    except KeyError as exc:
        raise ValueError(f"invalid task file {name}: a template names the unknown "
                         f"variable {exc}") from exc
    return spec


def _check_judging(specs: list[TaskSpec], judging: Judging) -> None:
    for spec in specs:  # every {variable} a judging text names must exist: fill them now
        values = _derived(_draw(spec, None))  # every case draws the same variables
        try:
            for rubric in judging[spec.task_id].values():
                rubric.filled(values)
        except KeyError as exc:
            raise ValueError(f"judging rubric of {spec.task_id} names the unknown "
                             f"variable {exc}") from exc


FAMILY_TASK_PREFIX = "task_family_"


def family_dirs(families_dir: Path = FAMILIES_DIR) -> list[Path]:
    """Every family's folder (one holding a ``spec.json``), in name order."""
    return sorted(p.parent for p in families_dir.glob("*/spec.json"))


def load_families(families_dir: Path = FAMILIES_DIR, *, with_judging: bool = True
                  ) -> tuple[list[TaskSpec], Judging]:
    """Every family under ``families_dir`` (``<family>/spec.json`` and ``<family>/judging.json``),
    validated like the classic files; a family's task id must be ``task_family_<folder name>``."""
    specs: list[TaskSpec] = []
    judging: Judging = {}
    for folder in family_dirs(families_dir):
        name = f"families/{folder.name}/spec.json"
        spec = _load_spec(folder / "spec.json", name)
        if spec.task_id != FAMILY_TASK_PREFIX + folder.name:
            raise ValueError(f"invalid task file {name}: task_id must be "
                             f"{FAMILY_TASK_PREFIX + folder.name!r}, not {spec.task_id!r}")
        if with_judging:
            one = load_judging_of(spec, folder / "judging.json")
            _check_judging([spec], one)
            judging.update(one)
        specs.append(spec)
    return specs, judging


def load_judging_of(spec: TaskSpec, path: Path) -> Judging:
    """A family's ``judging.json`` (``{case: {must, must_not}}``) as the catalog's judging entry."""
    name = f"families/{path.parent.name}/judging.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"invalid {name}: {exc}") from exc
    return judging_from({spec.task_id: raw}, [spec], name)


def load_catalog(data_dir: Path = DATA_DIR, policies_file: Path = POLICIES_FILE,
                 judging_file: Path | None = JUDGING_FILE,
                 families_dir: Path | None = FAMILIES_DIR,
                 manifest_file: Path | None = MANIFEST_FILE) -> Catalog:
    """Read and validate every task file (in file-name order); an invalid one fails with its name.
    Then the task families under ``families_dir`` and their committed manifest, read when first
    asked for (absent: the families play by task id and seed, but there are no splits)."""
    specs = [_load_spec(path, path.name) for path in sorted(data_dir.glob("*.json"))]
    raw = json.loads(policies_file.read_text(encoding="utf-8"))
    policies = {PolicyId(k): v for k, v in raw.items()}
    missing = set(PolicyId) - set(policies)
    if missing:
        raise ValueError(f"policies.json lacks {sorted(p.value for p in missing)}")
    judging = load_judging(specs, judging_file) if judging_file is not None else None
    if judging is not None:
        _check_judging(specs, judging)
    families: list[TaskSpec] = []
    if families_dir is not None:
        families, family_judging = load_families(families_dir, with_judging=judging is not None)
        if judging is not None:
            judging = {**judging, **family_judging}
    manifest = (partial(load_manifest, manifest_file)
                if families and manifest_file is not None and manifest_file.exists() else None)
    return Catalog(specs, policies, judging, families=families, manifest=manifest)


@cache
def default_catalog() -> Catalog:
    """The packaged catalog, loaded once per process."""
    return load_catalog()


@cache
def policy_texts() -> dict[str, str]:
    """The packaged policy texts by policy id: what an agent reads when it looks a policy up, and
    what grader 3.0 reads as the episode's knowledge of the policies it looked up."""
    raw: dict[str, str] = json.loads(POLICIES_FILE.read_text(encoding="utf-8"))
    return dict(raw)
