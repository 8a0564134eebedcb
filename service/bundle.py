"""Result bundles: one self-contained file per run that anyone can verify offline.

A bundle (``ticketledger bundle RUN -o FILE``) holds every episode's stored events (with their
chain links), each episode's chain head, what the run set out to play (the split, its digest and
the manifest generator's, the trials; or the classic tasks and seeds), the grader version and
configuration the episodes record, the agent the run recorded, and the figures reported for it:
the figures with their intervals (``results.figures``) and the runner's own summary figures.
Its ``digest`` is the SHA-256 of everything else, to publish beside the file.

:func:`verify_bundle` trusts none of it. With only the code and the committed task catalog it
re-folds and re-grades every episode with the grader version its log names (``service.replay``),
walks every hash link, checks every head, checks that the episodes are exactly the instances the
run was to play (none missing, none repeated, none from another split or another run) and that
every reported figure follows from the re-graded episodes. Each failed check is named. What a
bundle cannot prove alone is that its chains were not rebuilt from scratch: compare its heads
with heads kept elsewhere (the run's stderr, ``ticketledger heads``) for that.

:func:`regrade_bundle` grades a verified bundle's episodes under another grader into a new report
naming both versions; the bundle itself is never changed, so it stays verifiable.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain import events as ev
from domain.tasks import default_catalog
from domain.tasks.catalog import Catalog
from domain.tasks.manifest import InstanceRef, instance_id
from graders.versions import UnknownGrader, grader_for
from results.figures import Outcome, RunFacts, compare, figures
from service import replay
from service.audit_views import Auditor
from service.errors import BadRequest
from service.results import (
    episode_facts,
    opening,
    planned_trials,
    recorded_trials,
    run_episodes,
    run_row,
)
from store.eventstore import RecordedEvent

FORMAT = "ticketledger-bundle/1"
REGRADE_FORMAT = "ticketledger-bundle-regrade/1"
SUMMARY_FIGURES = ("mean_score", "success_rate")


class BundleError(BadRequest):
    """A file that is not a bundle this code can read; the message says what is wrong where."""

    code = "bad_bundle"


def digest(bundle: dict[str, Any]) -> str:
    """SHA-256 of the bundle without its ``digest`` (sorted keys, compact, UTF-8)."""
    body = {k: v for k, v in bundle.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def dump_bundle(bundle: dict[str, Any]) -> str:
    return json.dumps(bundle, ensure_ascii=False, separators=(",", ":")) + "\n"


def load_bundle(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BundleError(f"not a bundle: the file is not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BundleError(f"not a bundle: its 'format' must be {FORMAT!r} "
                          "(write one with `ticketledger bundle RUN -o FILE`)")
    return data


# -------------------------------------------------------------------------------- build
def build_bundle(auditor: Auditor, run_id: str) -> dict[str, Any]:
    """The bundle of ``run_id`` (its episodes must be in this database)."""
    run = run_row(auditor, run_id)
    loaded = run_episodes(auditor, run_id)
    if not loaded:
        raise BundleError(f"run {run_id!r} has no episodes in this database to bundle")
    facts = episode_facts(((r.episode_id, r.score, events) for r, events in loaded),
                          recorded_trials(run))
    versions = sorted({f.grader_version for f in facts})
    modes = sorted({f.reward_mode for f in facts})
    judges = sorted({opening(events).judge for _, events in loaded})
    if len(versions) != 1 or len(modes) != 1:
        raise BundleError(f"run {run_id!r} mixes grader versions ({', '.join(versions)}) or reward "
                          f"modes ({', '.join(modes)}); a bundle names one of each")
    k = planned_trials(run, facts)
    config = run.config
    summary = run.summary or {}
    bundle: dict[str, Any] = {
        "format": FORMAT,
        "run": {"run_id": run.run_id, "agent": run.agent, "status": run.status,
                "started_at": run.started_at.isoformat(),
                "ended_at": run.ended_at.isoformat() if run.ended_at else None, "config": config},
        "plan": {"split": config.get("split"), "split_digest": config.get("split_digest"),
                 "manifest_generator_digest": config.get("manifest_generator_digest"),
                 "tasks": config.get("tasks") or [], "limit": config.get("limit"),
                 "task_ids": config.get("task_ids") or [], "seeds": config.get("seeds") or [None],
                 "trials": k},
        "grader": {"version": versions[0], "reward_mode": modes[0], "judge": judges[0]},
        "episodes": [{"episode_id": row.episode_id, "task_id": f.task_id, "seed": f.seed,
                      "trial": f.trial, "score": row.score, "success": f.success,
                      "chain_format": row.chain_format,
                      "events": [[e.seq, e.type, e.version, e.data_text, e.prev_hash, e.hash,
                                  e.recorded_at.isoformat()] for e in events]}
                     for (row, events), f in zip(loaded, facts, strict=True)],
        "heads": [{"episode_id": row.episode_id, "seq": row.last_seq, "head_hash": row.head_hash}
                  for row, _ in loaded],
        "reported": {
            "figures": figures([f.outcome() for f in facts], k),
            "summary": ({**{n: summary[n] for n in SUMMARY_FIGURES if n in summary},
                         "pass_k": (summary.get("pass_k") or {}).get("by_k")} if summary else None),
        },
    }
    bundle["digest"] = digest(bundle)
    return bundle


# ------------------------------------------------------------------------------- verify
@dataclass
class _Episode:
    """One bundle episode, read and re-graded."""

    episode_id: str
    claimed: dict[str, Any]
    recorded: list[RecordedEvent]
    report: replay.ReplayReport | None = None
    started: ev.EpisodeStarted | None = None


def _need(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise BundleError(f"bundle field {where} must be {name}, not {type(value).__name__}")
    return value


def _read_events(episode: dict[str, Any], index: int) -> list[RecordedEvent]:
    episode_id = _need(episode.get("episode_id"), str, f"episodes[{index}].episode_id")
    chain_format = _need(episode.get("chain_format", 1), int, f"episodes[{index}].chain_format")
    out = []
    for j, raw in enumerate(_need(episode.get("events"), list, f"episodes[{index}].events")):
        where = f"episodes[{index}].events[{j}]"
        if not isinstance(raw, list) or len(raw) != 7:
            raise BundleError(f"bundle field {where} must be [seq, type, version, data, prev_hash, "
                              "hash, recorded_at]")
        seq, type_, version, data_text, prev, hash_, at = raw
        try:
            recorded_at = dt.datetime.fromisoformat(_need(at, str, f"{where}[6]"))
        except ValueError:
            raise BundleError(f"bundle field {where}[6] must be an ISO date and time") from None
        out.append(RecordedEvent(episode_id, _need(seq, int, f"{where}[0]"),
                                 _need(type_, str, f"{where}[1]"), _need(version, int, f"{where}[2]"),
                                 _need(data_text, str, f"{where}[3]"), _need(prev, str, f"{where}[4]"),
                                 _need(hash_, str, f"{where}[5]"), recorded_at, chain_format))
    return out


def _expected_units(plan: dict[str, Any], catalog: Catalog) -> list[tuple[str, int | None]]:
    split = plan.get("split")
    if split:
        refs = list(catalog.split(split))
        if plan.get("tasks"):
            refs = [r for r in refs if r.task_id in plan["tasks"]]
        if plan.get("limit"):
            refs = refs[:plan["limit"]]
        return [(r.task_id, r.seed) for r in refs]
    return [(t, s) for t in plan.get("task_ids") or [] for s in plan.get("seeds") or [None]]


class _Checks:
    def __init__(self) -> None:
        self.checks: list[dict[str, Any]] = []
        self.discrepancies: list[dict[str, Any]] = []

    def problem(self, kind: str, message: str, episode_id: str | None = None) -> None:
        self.discrepancies.append({"kind": kind, "episode_id": episode_id, "message": message})

    def check(self, name: str, ok_detail: str, start: int) -> None:
        found = self.discrepancies[start:]
        self.checks.append({"name": name, "ok": not found,
                            "detail": ok_detail if not found else f"{len(found)} problem(s)"})


def verify_bundle(bundle: dict[str, Any], catalog: Catalog | None = None) -> dict[str, Any]:
    """Check a bundle as the module docstring says; the report lists every check and names every
    discrepancy (``ok`` only when there is none)."""
    catalog = catalog or default_catalog()
    c = _Checks()
    run = _need(bundle.get("run"), dict, "run")
    plan = _need(bundle.get("plan"), dict, "plan")
    grader = _need(bundle.get("grader"), dict, "grader")
    reported = _need(bundle.get("reported"), dict, "reported")
    raw_episodes = _need(bundle.get("episodes"), list, "episodes")
    run_id = run.get("run_id")
    version = grader.get("version")

    start = len(c.discrepancies)
    if bundle.get("digest") != digest(bundle):
        c.problem("digest", f"the bundle's digest {str(bundle.get('digest'))[:16]}… is not the "
                            f"digest of its content ({digest(bundle)[:16]}…): it was edited after "
                            "it was written")
    c.check("digest", "the content is what the digest names", start)

    episodes = []
    for i, e in enumerate(raw_episodes):
        recorded = _read_events(_need(e, dict, f"episodes[{i}]"), i)
        episodes.append(_Episode(e["episode_id"], e, recorded))

    start = len(c.discrepancies)
    for e in episodes:
        if not e.recorded:
            c.problem("log", "the episode has no events", e.episode_id)
            continue
        try:
            e.report = replay.replay(e.recorded, catalog, steps=False)
            e.started = opening(e.recorded)
        except (ValueError, KeyError, TypeError) as exc:
            c.problem("log", f"cannot replay: {exc}", e.episode_id)
            continue
        for d in e.report.divergences:
            c.problem(d.kind, d.message, e.episode_id)
    c.check("chains and re-grade", "every hash link holds and every step re-grades to its "
                                   "recorded reward and score", start)

    start = len(c.discrepancies)
    heads = {h.get("episode_id"): h for h in _need(bundle.get("heads"), list, "heads")
             if isinstance(h, dict)}
    for e in episodes:
        if not e.recorded:
            continue
        last = e.recorded[-1]
        head = heads.get(e.episode_id)
        if head is None:
            c.problem("head", "the bundle lists no chain head for this episode", e.episode_id)
        elif (head.get("seq"), head.get("head_hash")) != (last.seq, last.hash):
            c.problem("head", f"the bundle's head is event {head.get('seq')} "
                              f"{str(head.get('head_hash'))[:12]}…, the chain ends at event "
                              f"{last.seq} {last.hash[:12]}…", e.episode_id)
    for episode_id in heads.keys() - {e.episode_id for e in episodes}:
        c.problem("head", "the bundle lists a chain head for an episode it does not hold",
                  str(episode_id))
    c.check("heads", "every chain ends at the head the bundle lists", start)

    start = len(c.discrepancies)
    for e in episodes:
        if e.started is None or e.report is None:
            continue
        s = e.started
        claimed = e.claimed
        if s.run_id != run_id:
            c.problem("run", f"the episode was played in run {s.run_id!r}, not {run_id!r}",
                      e.episode_id)
        if (claimed.get("task_id"), claimed.get("seed")) != (s.task_id, s.seed):
            c.problem("identity", f"the bundle says {claimed.get('task_id')} seed "
                                  f"{claimed.get('seed')}, the log {s.task_id} seed {s.seed}",
                      e.episode_id)
        if e.report.grader_version != version:
            c.problem("grader", f"the log was graded by {e.report.grader_version}, the bundle names "
                                f"{version}", e.episode_id)
        if s.reward_mode != grader.get("reward_mode"):
            c.problem("grader", f"the log's reward mode is {s.reward_mode}, the bundle names "
                                f"{grader.get('reward_mode')}", e.episode_id)
        if claimed.get("score") != e.report.recomputed_score:
            c.problem("score", f"the bundle says score {claimed.get('score')}, the episode re-grades "
                               f"to {e.report.recomputed_score}", e.episode_id)
        success = (e.report.recomputed_score or 0.0) >= s.task.task.success_threshold
        if claimed.get("success") != success:
            c.problem("success", f"the bundle says success {claimed.get('success')}, the re-graded "
                                 f"score says {success}", e.episode_id)
    c.check("episodes", f"every episode is of run {run_id}, graded by {version}", start)

    start = len(c.discrepancies)
    _membership(c, plan, episodes, catalog)
    c.check("membership", "the episodes are exactly the planned instances x trials", start)

    start = len(c.discrepancies)
    outcomes = [Outcome(e.started.task_id, e.started.seed, int(e.claimed.get("trial") or 0),
                        e.report.recomputed_score or 0.0,
                        (e.report.recomputed_score or 0.0) >= e.started.task.task.success_threshold)
                for e in episodes if e.started is not None and e.report is not None]
    _figures(c, reported, outcomes, int(plan.get("trials") or 1))
    c.check("figures", "every reported figure follows from the re-graded episodes", start)

    return {"ok": not c.discrepancies, "run_id": run_id, "agent": run.get("agent"),
            "grader_version": version, "episodes": len(episodes), "digest": bundle.get("digest"),
            "checks": c.checks, "discrepancies": c.discrepancies}


def _membership(c: _Checks, plan: dict[str, Any], episodes: Sequence[_Episode],
                catalog: Catalog) -> None:
    split = plan.get("split")
    manifest = catalog.manifest
    if split:
        if manifest is None or split not in manifest.split_digests:
            c.problem("split", f"this catalog has no split {split!r} to check the bundle against")
            return
        if plan.get("split_digest") != manifest.split_digests[split]:
            c.problem("split", f"the bundle's {split} split has digest {plan.get('split_digest')}, "
                               f"this catalog's {manifest.split_digests[split]}: not the same "
                               "instances")
            return
    trials = int(plan.get("trials") or 1)
    expected = Counter((t, s, k) for t, s in _expected_units(plan, catalog) for k in range(trials))
    played: Counter[tuple[str, int | None, int]] = Counter()
    ids = Counter(e.episode_id for e in episodes)
    for episode_id, n in ids.items():
        if n > 1:
            c.problem("repeated", f"episode {episode_id} appears {n} times", episode_id)
    split_of: dict[tuple[str, int | None], InstanceRef] = (
        {(r.task_id, r.seed): r for r in manifest.instances} if manifest else {})
    for e in episodes:
        if e.started is None:
            continue
        key = (e.started.task_id, e.started.seed, int(e.claimed.get("trial") or 0))
        played[key] += 1
        if key not in expected:
            ref = split_of.get(key[:2])
            where = (f"instance {ref.id} of split {ref.split}" if ref is not None
                     else f"{key[0]} seed {key[1]}")
            c.problem("foreign", f"the episode plays {where} (trial {key[2]}), which the run's plan "
                                 f"({split or 'classic tasks'}, {trials} trial(s)) does not hold",
                      e.episode_id)
    for key, n in played.items():
        if key in expected and n > expected[key]:
            c.problem("repeated", f"{_name(key)} trial {key[2]} is played {n} times")
    for key in expected:
        if key not in played:
            c.problem("missing", f"{_name(key)} trial {key[2]} has no episode in the bundle")


def _name(key: tuple[str, int | None, int]) -> str:
    task_id, seed = key[0], key[1]
    if task_id.startswith("task_family_") and seed is not None:
        return instance_id(task_id.removeprefix("task_family_"), seed)
    return f"{task_id} seed {'published' if seed is None else seed}"


def _figures(c: _Checks, reported: dict[str, Any], outcomes: list[Outcome], trials: int) -> None:
    mine = json.loads(json.dumps(figures(outcomes, trials)))
    theirs = reported.get("figures")
    if not isinstance(theirs, dict):
        c.problem("figures", "the bundle reports no figures")
        return
    for key in sorted(set(mine) | set(theirs)):
        if mine.get(key) != theirs.get(key):
            c.problem("figures", f"reported {key} {_short(theirs.get(key))}, the episodes give "
                                 f"{_short(mine.get(key))}")
    summary = reported.get("summary")
    if not isinstance(summary, dict):
        return
    for name in SUMMARY_FIGURES:
        if name in summary and summary[name] != (mine.get(name) or {}).get("value"):
            c.problem("figures", f"the run's summary reports {name} {summary[name]}, the episodes "
                                 f"give {(mine.get(name) or {}).get('value')}")
    for k, value in (summary.get("pass_k") or {}).items():
        found = (mine.get("pass_hat", {}).get(k) or {}).get("value")
        # the runner rounds each task's pass^k before averaging: one unit of the 4th decimal
        if found is None or not isinstance(value, int | float) or abs(value - found) > 1.5e-4:
            c.problem("figures", f"the run's summary reports pass^{k} {value}, the episodes give "
                                 f"{found}")


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "..."


# ------------------------------------------------------------------------------ regrade
def regrade_bundle(bundle: dict[str, Any], grader_version: str,
                   catalog: Catalog | None = None) -> dict[str, Any]:
    """The bundle's episodes graded under ``grader_version``: a report with the original figures
    (the bundle's grader) and the new ones, both versions named, each episode's move, and the
    paired difference new minus original. Refused unless the bundle verifies."""
    try:
        grader = grader_for(grader_version)
    except UnknownGrader as exc:
        raise BundleError(str(exc)) from None
    verified = verify_bundle(bundle, catalog)
    if not verified["ok"]:
        first = verified["discrepancies"][0]
        raise BundleError(f"the bundle does not verify ({len(verified['discrepancies'])} "
                          f"discrepancy(ies), first: {first['kind']}: {first['message']}); "
                          "only a verified bundle is re-graded")
    trials = int(bundle["plan"].get("trials") or 1)
    before, after, moves = [], [], []
    for i, e in enumerate(bundle["episodes"]):
        recorded = _read_events(e, i)
        events = [ev.upcast(r.type, r.version, r.data) for r in recorded]
        started = opening(recorded)
        threshold = started.task.task.success_threshold
        new_score = grader.grade_episode(events).score
        old_score = float(e["score"])
        trial = int(e.get("trial") or 0)
        before.append(Outcome(started.task_id, started.seed, trial, old_score, old_score >= threshold))
        after.append(Outcome(started.task_id, started.seed, trial, new_score, new_score >= threshold))
        moves.append({"episode_id": e["episode_id"], "task_id": started.task_id,
                      "seed": started.seed, "trial": trial, "original_score": old_score,
                      "new_score": new_score, "delta": round(new_score - old_score, 4)})
    original_version = bundle["grader"]["version"]
    return {
        "format": REGRADE_FORMAT, "bundle_digest": bundle.get("digest"),
        "run_id": bundle["run"].get("run_id"), "agent": bundle["run"].get("agent"),
        "original": {"grader_version": original_version, "figures": figures(before, trials)},
        "regraded": {"grader_version": grader.version, "figures": figures(after, trials)},
        "changed": sum(1 for m in moves if m["delta"] != 0),
        "difference": compare(RunFacts(grader.version, tuple(after)),
                              RunFacts(original_version, tuple(before))),
        "episodes": moves,
    }
