"""verify over the whole log, and tamper evidence beyond the database: a heads file kept elsewhere
catches a rewrite that re-chains the log consistently (which the in-database check cannot)."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text

from service import EnvironmentService
from service.audit_views import Auditor
from service.errors import BadRequest
from service.verify import check_heads, current_heads, format_heads, parse_heads, verify
from store.chain import link
from store.queries import EpisodeFilter
from tests.audit_helpers import play_weak
from tests.play import play

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test


def _rewrite_and_rechain(service: EnvironmentService, episode_id: str) -> int:
    """What an attacker with write access does: change a reply, recompute every later hash and the
    index row, so the chain checks out internally. Returns the seq of the changed event."""
    with service.db.write() as conn:
        if service.db.dialect == "sqlite":
            conn.execute(text("DROP TRIGGER events_no_update"))
        else:
            conn.execute(text("DROP TRIGGER events_no_update_delete ON events"))
        rows = conn.execute(text("SELECT seq, type, version, data FROM events WHERE episode_id = :e "
                                 "ORDER BY seq"), {"e": episode_id}).all()
        changed = next(r.seq for r in rows if r.type == "PriorityClassified")
        prev = "0" * 64
        for r in rows:
            data = r.data
            if r.seq == changed:
                payload = json.loads(data)
                payload["priority"] = "urgent" if payload["priority"] != "urgent" else "low"
                data = json.dumps(payload, sort_keys=True, separators=(",", ":"))
            digest = link(prev, r.seq, r.type, r.version, data)
            conn.execute(text("UPDATE events SET data = :d, prev_hash = :p, hash = :h "
                              "WHERE episode_id = :e AND seq = :s"),
                         {"d": data, "p": prev, "h": digest, "e": episode_id, "s": r.seq})
            prev = digest
        conn.execute(text("UPDATE episodes SET head_hash = :h WHERE episode_id = :e"),
                     {"h": prev, "e": episode_id})
    return changed


def test_verify_all_and_by_run(service: EnvironmentService) -> None:
    play(service, "task_easy_password", run_id="r1")
    play_weak(service, "task_medium_double_charge", run_id="r1")
    play(service, "task_easy_password")
    seen: list[tuple[int, int]] = []
    report = verify(Auditor(service.db), EpisodeFilter(), lambda done, total: seen.append((done, total)))
    assert report["ok"] and report["episodes"] == 3 and report["inconsistent"] == 0
    assert seen[-1] == (3, 3)
    assert verify(Auditor(service.db), EpisodeFilter(run_id="r1"))["episodes"] == 2


def test_heads_file_catches_a_rechained_rewrite(service: EnvironmentService) -> None:
    victim = play(service, "task_easy_password")[0].episode_id
    bystander = play_weak(service, "task_easy_password")[0].episode_id
    auditor = Auditor(service.db)
    heads_text = "".join(format_heads(current_heads(auditor, EpisodeFilter())))
    heads = parse_heads(heads_text)
    assert {h.episode_id for h in heads} == {victim, bystander}
    assert check_heads(auditor, heads)["ok"]

    # an episode that goes on after the heads were taken still checks out (its prefix is unchanged)
    extra = service.reset("task_medium_double_charge")
    service.step(extra.episode_id, {"action_type": "noop"})
    early = parse_heads("".join(format_heads(current_heads(auditor, EpisodeFilter(
        task_id="task_medium_double_charge")))))
    service.step(extra.episode_id, {"action_type": "noop"})
    assert check_heads(auditor, early)["ok"]

    changed_seq = _rewrite_and_rechain(service, victim)
    inside = verify(auditor, EpisodeFilter())
    # the re-chained log is internally consistent except that the recorded grades no longer fit
    assert all(f["first_divergence"]["kind"] != "chain" for f in inside["failures"])
    result = check_heads(auditor, heads)
    assert not result["ok"] and result["matched"] == 1
    (failure,) = result["failures"]
    assert failure["episode_id"] == victim and failure["problem"] == "mismatch"
    assert changed_seq <= failure["seq"]


def test_heads_file_formats_and_errors(service: EnvironmentService) -> None:
    episode_id = play(service, "task_easy_password")[0].episode_id
    auditor = Auditor(service.db)
    head = next(current_heads(auditor, EpisodeFilter()))
    as_json = json.dumps(head.to_json())
    two_columns = f"{head.episode_id} {head.head_hash}"
    for text_ in (as_json, two_columns, "# comment\n\n" + head.line()):
        assert check_heads(auditor, parse_heads(text_))["ok"]
    missing = parse_heads(f"ep_missing 3 {'a' * 64}")
    assert check_heads(auditor, missing)["failures"][0]["problem"] == "missing"
    truncated = parse_heads(f"{episode_id} 999 {head.head_hash}")
    assert check_heads(auditor, truncated)["failures"][0]["problem"] == "truncated"
    for bad in ("just-one-field", f"{episode_id} x {head.head_hash}", f"{episode_id} 1 abc",
                f"{episode_id} 0 {head.head_hash}"):
        with pytest.raises(BadRequest, match="line 1"):
            parse_heads(bad)


def test_verify_in_worker_processes_finds_the_same(service: EnvironmentService) -> None:
    """``jobs`` > 1 replays pages of episodes in worker processes: the same summary, in the same
    order, a tampered episode named with its first divergence, progress up to the total."""
    if service.db.in_memory:
        pytest.skip("an in-memory database is not shared with worker processes")
    opened = service.reset_many([("task_easy_password", seed) for seed in range(230)])
    service.step_many([(r.episode_id, {"action_type": "classify_priority", "priority": "medium"})
                       for r in opened])  # type: ignore[union-attr]
    victim = opened[150].episode_id  # type: ignore[union-attr]
    with service.db.write() as conn:
        if service.db.dialect == "sqlite":
            conn.execute(text("DROP TRIGGER events_no_update"))
        else:
            conn.execute(text("DROP TRIGGER events_no_update_delete ON events"))
        conn.execute(text("UPDATE events SET data = replace(data, 'medium', 'urgent') "
                          "WHERE episode_id = :e AND type = 'PriorityClassified'"), {"e": victim})
    seen: list[tuple[int, int]] = []
    inline = verify(Auditor(service.db), EpisodeFilter())
    parallel = verify(Auditor(service.db), EpisodeFilter(), lambda d, t: seen.append((d, t)), jobs=2)
    assert parallel == inline
    assert parallel["episodes"] == 230 and parallel["inconsistent"] == 1
    assert parallel["failures"][0]["episode_id"] == victim
    assert parallel["failures"][0]["first_divergence"]["kind"] == "chain"
    assert seen[-1] == (230, 230) and len(seen) > 1
    with pytest.raises(BadRequest):
        verify(Auditor(service.db), EpisodeFilter(), jobs=0)


def test_an_episode_in_an_unknown_chain_format_is_refused_with_its_reason(
        service: EnvironmentService) -> None:
    """The chain is checked in the format its episode records (``episodes.chain_format``); one this
    code does not know is reported as such, not as tampering, by verify, replay and the heads check."""
    known = play(service, "task_easy_password")[0].episode_id
    unknown = play(service, "task_easy_password")[0].episode_id
    auditor = Auditor(service.db)
    heads = parse_heads("".join(format_heads(current_heads(auditor, EpisodeFilter()))))
    with service.db.write() as conn:
        conn.execute(text("UPDATE episodes SET chain_format = 2 WHERE episode_id = :e"), {"e": unknown})
    report = verify(auditor, EpisodeFilter())
    assert report["episodes"] == 2 and report["inconsistent"] == 1
    (failure,) = report["failures"]
    first = failure["first_divergence"]
    assert failure["episode_id"] == unknown and first["kind"] == "chain" and first["seq"] == 1
    assert "format 2, which this version of TicketLedger cannot check" in first["message"]
    replayed = auditor.replay(unknown)
    assert not replayed["chain_ok"] and "format 2" in replayed["first_divergence"]["message"]
    assert auditor.replay(known)["chain_ok"]
    checked = check_heads(auditor, heads)
    assert checked["matched"] == 1 and checked["failures"][0]["problem"] == "chain"
    assert "format 2" in checked["failures"][0]["message"]
