"""Episode listings: filters and keyset pagination (every episode once, newest first, stable while
new episodes arrive), paginated events, per-run task tables, and clear errors for bad input."""

from __future__ import annotations

import pytest

from service import EnvironmentService
from service.audit_views import Auditor
from service.errors import BadRequest, EpisodeNotFound
from store.queries import EpisodeFilter
from store.runs import RunStore
from tests.audit_helpers import play_weak
from tests.play import play

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test


@pytest.fixture
def populated(service: EnvironmentService) -> dict[str, list[str]]:
    RunStore(service.db).start("run_a", "policy:weak", {})
    RunStore(service.db).start("run_b", "model:gpt-test", {})
    made: dict[str, list[str]] = {"run_a": [], "run_b": [], "none": []}
    for seed in range(3):
        made["run_a"].append(play(service, "task_easy_password", seed=seed, run_id="run_a")[0].episode_id)
        made["run_b"].append(play_weak(service, "task_medium_double_charge", seed=seed,
                                       run_id="run_b")[0].episode_id)
    made["none"].append(service.reset("task_easy_password").episode_id)
    return made


def _all_pages(auditor: Auditor, where: EpisodeFilter, limit: int) -> list[str]:
    seen, cursor = [], None
    while True:
        page = auditor.list_episodes(where, limit, cursor)
        assert len(page["episodes"]) <= limit
        seen += [e["episode_id"] for e in page["episodes"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return seen


def test_pagination_visits_every_episode_once_newest_first(service, populated) -> None:  # type: ignore[no-untyped-def]
    auditor = Auditor(service.db)
    everything = auditor.list_episodes(EpisodeFilter(), 500)["episodes"]
    assert len(everything) == 7
    keys = [(e["created_at"], e["episode_id"]) for e in everything]
    assert keys == sorted(keys, reverse=True)
    for limit in (1, 2, 3, 7):
        assert _all_pages(auditor, EpisodeFilter(), limit) == [e["episode_id"] for e in everything]
    # a page boundary stays put when new episodes are added meanwhile
    first = auditor.list_episodes(EpisodeFilter(), 3)
    service.reset("task_easy_password")
    second = auditor.list_episodes(EpisodeFilter(), 3, first["next_cursor"])
    assert [e["episode_id"] for e in second["episodes"]] == [e["episode_id"] for e in everything[3:6]]


def test_filters(service, populated) -> None:  # type: ignore[no-untyped-def]
    auditor = Auditor(service.db)

    def ids(**kw) -> set[str]:  # type: ignore[no-untyped-def]
        return set(_all_pages(auditor, EpisodeFilter(**kw), 2))

    assert ids(run_id="run_a") == set(populated["run_a"])
    assert ids(task_id="task_medium_double_charge") == set(populated["run_b"])
    every = [e for group in populated.values() for e in group]
    assert ids(status="open") == {e for e in every if not service.state(e).done}
    assert ids(status="ended") == {e for e in every if service.state(e).done}
    assert ids(model="gpt") == set(populated["run_b"])
    assert ids(min_score=1.0) == set(populated["run_a"])
    weak_scores = {e: service.state(e).score for e in populated["run_b"]}
    top = max(weak_scores.values())
    assert ids(run_id="run_b", max_score=top) == set(populated["run_b"])
    assert ids(min_score=0.0, max_score=0.0) == {e for e in populated["none"]} | {
        e for e, s in weak_scores.items() if s == 0.0}


@pytest.mark.parametrize("kwargs, message", [
    ({"limit": 0}, "limit"), ({"limit": 501}, "limit"), ({"cursor": "not-a-cursor"}, "cursor"),
    ({"where": EpisodeFilter(min_score=2)}, "min_score"),
    ({"where": EpisodeFilter(min_score=0.9, max_score=0.1)}, "swap"),
    ({"where": EpisodeFilter(status="closed")}, "status"),
    ({"where": EpisodeFilter(run_id="run_b\n")}, "run must be 1-64 characters"),
    ({"where": EpisodeFilter(task_id="")}, "task must be 1-64 characters"),
    ({"where": EpisodeFilter(model="gpt\x00")}, "without NUL"),
])
def test_bad_parameters_are_refused_clearly(service: EnvironmentService, kwargs, message) -> None:  # type: ignore[no-untyped-def]
    args = {"where": EpisodeFilter(), "limit": 10, "cursor": None, **kwargs}
    with pytest.raises(BadRequest, match=message):
        Auditor(service.db).list_episodes(args["where"], args["limit"], args["cursor"])


def test_events_pages_and_unknown_ids(service: EnvironmentService) -> None:
    episode_id = play(service, "task_easy_password")[0].episode_id
    auditor = Auditor(service.db)
    seqs, cursor = [], None
    while True:
        page = auditor.events(episode_id, 4, cursor)
        seqs += [e["seq"] for e in page["events"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seqs == [r.seq for r in service.store.load(episode_id)]
    with pytest.raises(BadRequest):
        auditor.events(episode_id, 4, "-3")
    for cursor in (str(2**31), str(2**63), "9" * 5000, "1_0", "\u0661"):  # the CLI has no length cap
        with pytest.raises(BadRequest, match="a sequence number from 0 to 2147483647"):
            auditor.events(episode_id, 4, cursor)
    with pytest.raises(EpisodeNotFound):
        auditor.summary("ep_does_not_exist")
    with pytest.raises(BadRequest):
        auditor.summary("not a valid id!")


def test_run_task_table(service, populated) -> None:  # type: ignore[no-untyped-def]
    auditor = Auditor(service.db)
    run = auditor.run("run_b")
    (row,) = run["tasks"]
    scores = [service.state(e).score for e in populated["run_b"]]
    assert row["task_id"] == "task_medium_double_charge" and row["episodes"] == 3
    assert row["mean_score"] == pytest.approx(sum(scores) / 3, abs=1e-4)
    assert (row["min_score"], row["max_score"]) == (min(scores), max(scores))
    assert {e["episode_id"] for e in run["episodes"]} == set(populated["run_b"])
    listed = auditor.list_runs(1)
    assert len(listed["runs"]) == 1 and listed["next_cursor"]
    rest = auditor.list_runs(5, listed["next_cursor"])["runs"]
    assert {r["run_id"] for r in listed["runs"] + rest} == {"run_a", "run_b"}
    assert {r["episodes"] for r in listed["runs"] + rest} == {3}
