"""A task materialised for one seed, together with what is derived from it once.

Every episode of a variant shares one :class:`TaskVariant` (the catalog builds it once per task and
seed); an episode read back from its log gets one built from the JSON recorded at reset, which is
what it was graded against. Everything here is immutable, so sharing it is safe.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.jsontext import JsonObject
from domain.tasks.spec import COMPONENTS, TaskInstance, Ticket


@dataclass(frozen=True, slots=True)
class PublicView:
    """What an agent may see of a task: the fields every observation repeats. Built from public
    fields only, so the observation, which reads nothing else of the task, cannot show the answer
    key."""

    task_id: str
    title: str
    difficulty: str
    objective: str
    ticket: Ticket
    max_steps: int


@dataclass(frozen=True, slots=True)
class AnswerKey:
    """The end state a correct agent reaches, as the plain values the state holds, and the
    components the task weighs (in report order) with their weights."""

    priority: str | None
    queue: str | None
    tags: frozenset[str]
    policy: str | None
    statuses: tuple[str, ...]
    codes: tuple[str | None, ...]
    weights: tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class TaskVariant:
    """A materialised task and its derived forms.

    ``json_text`` is the task's JSON form as recorded in ``EpisodeStarted.task``: sorted keys, no
    spaces, ASCII. Kept as text so no episode and no event can change it; :meth:`json_form` hands
    out a fresh copy. ``digest`` is a fingerprint of that text, recorded at reset so that replay
    notices when the catalog's variant changed since.
    """

    task: TaskInstance
    json_text: str
    digest: str
    public: PublicView
    key: AnswerKey

    @classmethod
    def of(cls, task: TaskInstance) -> TaskVariant:
        text = json.dumps(task.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return cls(task, text, hashlib.sha256(text.encode()).hexdigest()[:16], _public(task),
                   _answer_key(task))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TaskVariant:
        """The variant recorded in a log (validated: a log is data, not code)."""
        return cls.of(TaskInstance.model_validate(data))

    def json_form(self) -> JsonObject:
        """The task as JSON data: a fresh dict on every call, the caller's to keep or change."""
        data: JsonObject = json.loads(self.json_text)
        return data


def _public(task: TaskInstance) -> PublicView:
    return PublicView(task_id=task.task_id, title=task.title, difficulty=task.difficulty.value,
                      objective=task.objective, ticket=task.ticket, max_steps=task.max_steps)


def _answer_key(task: TaskInstance) -> AnswerKey:
    e = task.expected
    return AnswerKey(
        priority=e.priority.value if e.priority else None,
        queue=e.queue.value if e.queue else None,
        tags=frozenset(tag.value for tag in e.tags),
        policy=e.policy.value if e.policy else None,
        statuses=tuple(s.value for s in e.status),
        codes=tuple(c.value if c is not None else None for c in e.resolution_code),
        weights=tuple((name, task.weights[name]) for name in COMPONENTS if name in task.weights),
    )
