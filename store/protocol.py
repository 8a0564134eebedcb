"""What the environment service needs from an event log, whichever backend keeps it.

Two backends keep one: :class:`store.eventstore.EventStore` over SQL (an SQLite file, PostgreSQL)
and :class:`store.memory.MemoryEventStore` in the process (offline play: the grader audit, ``tasks
verify``, an agent played in memory). Both give the same answers to the same calls, which
``tests/store/test_store_contract.py`` checks once for all of them: streams hash-chained in the
same format, appends conditional on the head they follow (a lost race is a :class:`Conflict` that
writes nothing), a taken id a :class:`Conflict`, an unknown one :class:`NotFound`, events in
sequence order, and the index row (status, step count, score, head) moved with every append.

The protocol is the stream side only: creating, appending and reading episodes, which is all a
step needs. Runs, regrades, audit queries and SQLite's checkpoints are the SQL log's business
(``store.runs``, ``store.regrades``, ``store.queries``), read by the audit views over a
``Database``; nothing that plays offline uses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from store.errors import Conflict
from store.records import Append, Create, EpisodeRow, Projection, RecordedEvent, Storable


class EventLog(Protocol):
    """Append-only streams, one per episode, with optimistic concurrency.

    Every method may be called from several threads at once. A batch (``create_many``,
    ``append_many``) answers each item on its own: the records, or the :class:`Conflict` that item
    met (returned, not raised), and writes nothing of an item that lost."""

    def create(self, episode_id: str, task_id: str, seed: int | None, new: Sequence[Storable],
               projection: Projection, *, run_id: str | None = None,
               forked_from: str | None = None, fork_step: int | None = None) -> list[RecordedEvent]:
        """Open a new stream with its first events; :class:`Conflict` if the id is taken."""
        ...

    def create_many(self, creates: Sequence[Create]) -> list[list[RecordedEvent] | Conflict]:
        """Open several streams; only the taken ids come back as :class:`Conflict`."""
        ...

    def append(self, episode_id: str, expected_seq: int, prev_hash: str,
               new: Sequence[Storable], projection: Projection, *,
               expected_status: str | None = None) -> list[RecordedEvent]:
        """Append after ``expected_seq`` atomically, or raise :class:`Conflict` and write nothing
        (the episode moved on, or there is no such episode)."""
        ...

    def append_many(self, appends: Sequence[Append]) -> list[list[RecordedEvent] | Conflict]:
        """Several appends, each conditional on its own head as in :meth:`append`; an episode
        named twice follows the head the append before it left."""
        ...

    def load(self, episode_id: str, after_seq: int = 0,
             upto_seq: int | None = None) -> list[RecordedEvent]:
        """Events of one stream in sequence order, those after ``after_seq`` up to ``upto_seq``
        (an unknown episode has none)."""
        ...

    def load_many(self, episode_ids: Sequence[str]) -> dict[str, list[RecordedEvent]]:
        """:meth:`load` of several episodes, keyed in the order asked."""
        ...

    def head(self, episode_id: str) -> tuple[int, str]:
        """(last sequence number, its hash); :class:`NotFound` if there is no such episode."""
        ...

    def heads(self, episode_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """:meth:`head` of several episodes (absent ones are left out)."""
        ...

    def episode(self, episode_id: str) -> EpisodeRow:
        """The episode's index row; :class:`NotFound` if there is none."""
        ...

    def count_events(self) -> int:
        """Events in the whole log."""
        ...
