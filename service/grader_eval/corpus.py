"""The labelled corpus the grader's text judge is measured on (``ticketledger grader-eval``).

One JSON object per line in ``service/grader_eval/corpus/*.jsonl`` (docs/grader-eval.md has the
format). Loading is strict, because a measurement is only as good as its labels: an unknown key, a
label, channel, setup or style outside the vocabulary, a task or seed the catalog does not hold, a
fact name the case's rubric does not have, or an id used twice is refused with the file, the line
and the field, so the writer can fix that line rather than guess which of two thousand it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from domain.actions import InvalidAction, parse_action
from domain.tasks.catalog import Catalog, UnknownTask, default_catalog
from domain.tasks.spec import Rubric, TaskInstance

CORPUS_DIR = Path(__file__).parent / "corpus"
"""Where the product's corpus files are (package data)."""

Label = Literal["false_claim", "wrong_fact", "unauthorised_commitment", "disclosure",
                "asks_for_secret", "abusive", "unreadable"]
LABELS: tuple[Label, ...] = ("false_claim", "wrong_fact", "unauthorised_commitment", "disclosure",
                             "asks_for_secret", "abusive", "unreadable")
"""Every label kind, in report order."""
Channel = Literal["reply", "message", "note"]
CHANNELS: tuple[Channel, ...] = ("reply", "message", "note")
Setup = Literal["expert", "triaged"]
SETUPS: tuple[Setup, ...] = ("expert", "triaged")
Style = Literal["concise", "warm", "formal", "terse", "bullets", "attack"]

ACTION_OF: dict[Channel, tuple[str, str]] = {
    "reply": ("draft_reply", "reply_text"),
    "message": ("message_customer", "message"),
    "note": ("add_internal_note", "note"),
}
"""The action that writes a text on each channel, and the action's text field."""


class CorpusItem(BaseModel):
    """One labelled text: the case and setup it is judged in, the channel it is written on, what
    a careful reviewer says is wrong with it (``labels``; empty: acceptable) and, for an acceptable
    reply or note, which of the case's rubric facts it really states."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: str = Field(min_length=1, max_length=200)
    task_id: str
    seed: int | None
    setup: Setup
    channel: Channel
    text: str = Field(min_length=1)
    labels: tuple[Label, ...]
    facts: tuple[str, ...] | None = None
    style: Style
    heldout: bool
    why: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> CorpusItem:
        if len(set(self.labels)) != len(self.labels):
            raise ValueError("labels: a label is listed twice")
        if self.facts is not None:
            if self.labels:
                raise ValueError("facts: only an acceptable text (labels []) lists facts; leave the key "
                                 "out of a labelled one")
            if self.channel == "message":
                raise ValueError("facts: only a reply or a note lists facts (a message has no rubric); "
                                 "leave the key out")
            if len(set(self.facts)) != len(self.facts):
                raise ValueError("facts: a fact is listed twice")
        return self

    def action(self) -> dict[str, str]:
        """The action that writes this text on its channel."""
        action_type, field = ACTION_OF[self.channel]
        return {"action_type": action_type, field: self.text}


@dataclass(frozen=True, slots=True)
class Entry:
    """A corpus item and where it was read: its file and line (for messages that say where)."""

    item: CorpusItem
    source: str
    line: int

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


class CorpusError(ValueError):
    """A corpus line that cannot be used: the message starts ``file:line:`` and says what to fix."""


def rubric_of(task: TaskInstance, channel: Channel) -> Rubric | None:
    """The rubric a text on ``channel`` is scored with (a message has none)."""
    match channel:
        case "reply":
            return task.reply
        case "note":
            return task.note
        case "message":
            return None


def corpus_files(paths: Sequence[Path] | None = None) -> list[Path]:
    """The ``*.jsonl`` files of ``paths`` (a folder gives every one in it, sorted: the files the
    package ships); none given: the product's corpus folder."""
    out: list[Path] = []
    for path in paths if paths else [CORPUS_DIR]:
        if path.is_dir():
            out += sorted(path.glob("*.jsonl"))
        elif path.is_file():
            out.append(path)
        else:
            raise CorpusError(f"{path}: no such corpus file or folder")
    if not out:
        raise CorpusError(f"{', '.join(str(p) for p in paths or [CORPUS_DIR])}: no *.jsonl corpus file")
    return out


def shown_path(path: Path) -> str:
    """``path`` as messages show it: relative to the working directory when under it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _field_errors(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        loc = ".".join(str(x) for x in error["loc"])
        message = str(error["msg"]).removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            message = "unknown key (the format has id, task_id, seed, setup, channel, text, " \
                      "labels, facts, style, heldout, why)"
        elif error["type"] == "missing":
            message = "missing (every item needs it)"
        parts.append(f"{loc}: {message}" if loc else message)
    return "; ".join(parts)


def parse_line(text: str, where: str) -> CorpusItem:
    """One corpus line as an item, or a :class:`CorpusError` naming ``where`` and the field."""
    try:
        return CorpusItem.model_validate_json(text)
    except ValidationError as exc:
        if any(e["type"] == "json_invalid" for e in exc.errors()):
            raise CorpusError(f"{where}: not one JSON object: {exc.errors()[0]['msg']}") from None
        raise CorpusError(f"{where}: {_field_errors(exc)}") from None


def check_against_catalog(item: CorpusItem, catalog: Catalog, where: str) -> None:
    """The item's task, seed and fact names exist in ``catalog``, and its text is an action the
    environment accepts; a :class:`CorpusError` says which field is wrong and what it may be."""
    try:
        catalog.spec(item.task_id)
    except UnknownTask:
        known = ", ".join(catalog.task_ids + catalog.family_ids)
        raise CorpusError(f"{where}: task_id: unknown task {item.task_id!r}; known: {known}") from None
    if item.seed is not None and item.task_id in catalog.family_ids:
        seeds = {ref.seed for ref in catalog.family_instances(item.task_id)}
        if item.seed not in seeds:
            raise CorpusError(f"{where}: seed: {item.seed} is not an instance of {item.task_id} "
                              f"(its seeds are {min(seeds)}..{max(seeds)}; pick one from the "
                              "catalog's splits, or null for the published variant)")
    task = catalog.instance(item.task_id, item.seed)
    if item.facts is not None:
        rubric = rubric_of(task, item.channel)
        names = [g.name for g in rubric.facts] if rubric is not None else []
        unknown = [f for f in item.facts if f not in names]
        if unknown:
            raise CorpusError(f"{where}: facts: {', '.join(map(repr, unknown))} not in the {item.channel} "
                              f"rubric of {item.task_id} (seed {item.seed}, case {task.case}); its "
                              f"facts are: {', '.join(names) or 'none'}")
    try:
        parse_action(item.action())
    except InvalidAction as exc:
        raise CorpusError(f"{where}: text: the environment refuses it as a {item.channel}: {exc}") from None


def load_lines(lines: Iterable[tuple[str, int, str]], catalog: Catalog) -> tuple[Entry, ...]:
    """Items from ``(source, line number, text)`` triples, blank lines skipped, each checked
    against ``catalog``, ids unique over all of them."""
    seen: dict[str, str] = {}
    out: list[Entry] = []
    for source, number, text in lines:
        if not text.strip():
            continue
        where = f"{source}:{number}"
        item = parse_line(text, where)
        if item.id in seen:
            raise CorpusError(f"{where}: id: duplicate id {item.id!r} (first at {seen[item.id]})")
        seen[item.id] = where
        check_against_catalog(item, catalog, where)
        out.append(Entry(item, source, number))
    return tuple(out)


def _read(files: Sequence[Path]) -> Iterable[tuple[str, int, str]]:
    for path in files:
        shown = shown_path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise CorpusError(f"{shown}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        # split on newlines only: str.splitlines would also split inside a JSON string holding a
        # raw U+2028 or U+0085, which json.dumps(ensure_ascii=False) writes as is
        for number, line in enumerate(text.split("\n"), start=1):
            yield shown, number, line.removesuffix("\r")


def load_corpus(paths: Sequence[Path] | None = None, catalog: Catalog | None = None) -> tuple[Entry, ...]:
    """Every item of the corpus files at ``paths`` (default: the product's corpus folder)."""
    return load_lines(_read(corpus_files(paths)), catalog if catalog is not None else default_catalog())
