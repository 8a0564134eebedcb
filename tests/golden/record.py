"""Recorder of the golden reference data: ``python -m tests.golden.record [--version v1]``.

NEVER REGENERATE A VERSION THAT IS ALREADY COMMITTED. The data under ``tests/golden/v1/`` was made
with the code of ``ticketledger-grader/1.1`` (the commit is in ``v1/meta.json``) and is the
reference that later code is checked against: rewriting it with later code would make the replay
tests pass by definition. When behaviour changes on purpose (a new grader version, a new event
shape), record a NEW version directory (``--version v2``) with the code that introduces it, add
its replay tests beside v1's, and keep v1 as it is: old logs must go on reading, and the v1 tests
say which of today's behaviours are kept. The recorder refuses to overwrite an existing directory.

It writes, into ``tests/golden/<version>/``:

* ``episodes-<player>.jsonl``: one episode per line (see ``tests/golden/episodes.py`` for the shape), played
  in-process through the environment service: every task over ``scenarios.SEEDS`` by the
  built-in policy and by the scripted expert, and the odd sequences of ``scenarios.ODD``;
* ``log.sql``: the episodes of ``scenarios.DUMP_SEEDS`` (and the odd ones) written into a real,
  Alembic-migrated SQLite file through the normal store, as text (``sqlite3`` ``iterdump``);
* ``wire.json``: the conversations of ``scenarios.conversations()`` with a real server (HTTP in
  both seeds' dialects, OpenEnv's ``/ws``, ``/mcp``), normalised by ``tests/golden/wire.py``;
* ``meta.json``: grader version, the code's commit, the seeds and the counts.
"""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

from tests.golden import episodes, scenarios, seams, wire

HERE = Path(__file__).resolve().parent


def record_episodes(database_url: str, chosen: list[scenarios.Episode], *,
                    prefixes: bool = False) -> list[dict[str, Any]]:
    """Play ``chosen`` on a fresh database; with ``prefixes``, episodes that have a
    ``dump_prefix`` stop after that many steps."""
    out = []
    with seams.environment(database_url) as env:
        for e in chosen:
            actions = e.actions
            if prefixes and e.dump_prefix is not None:
                assert actions is not None
                actions = actions[:e.dump_prefix]
            out.append(episodes.play(env, name=e.name, player=e.player, task_id=e.task_id,
                                     seed=e.seed, episode_id=e.episode_id, actions=actions,
                                     reward_mode=e.reward_mode))
    return out


def dump_sqlite(path: Path) -> str:
    connection = sqlite3.connect(path)
    try:
        return "\n".join(connection.iterdump()) + "\n"
    finally:
        connection.close()


def record_wire(work: Path) -> list[dict[str, Any]]:
    """The conversations, recorded twice, each time against a fresh server: the two recordings must agree,
    or something random went unnamed (``wire.Names``) and the reference would not replay."""
    runs = []
    for attempt in (1, 2):
        conversations = scenarios.conversations()
        with seams.server(f"sqlite:///{work / f'wire-{attempt}.db'}") as url:
            for conversation in conversations:
                conversation["exchanges"] = wire.play(url, conversation)
        runs.append(conversations)
    if runs[0] != runs[1]:
        raise SystemExit("two recordings of the wire conversations differ: normalise what varies")
    return runs[0]


def _commit() -> str:
    found = subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True, text=True,
                           check=False)
    dirty = subprocess.run(["git", "status", "--porcelain", "--", ":(top,exclude)tests"], cwd=HERE,
                           capture_output=True, text=True, check=False).stdout.strip()
    return found.stdout.strip() + (" (with uncommitted changes outside tests/)" if dirty else "")


def _libraries() -> dict[str, str]:
    """Versions of what shapes the recorded bytes besides our code (JSON schemas come from pydantic,
    some error answers from FastAPI and Starlette, the dump's DDL from SQLAlchemy and Alembic)."""
    names = ("pydantic", "fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "orjson",
             "httpx", "websockets")
    return {"python": platform.python_version(), **{n: metadata.version(n) for n in names},
            "sqlite": sqlite3.sqlite_version}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="v1", help="directory under tests/golden to create")
    args = parser.parse_args(argv)
    target = HERE / args.version
    if target.exists():
        print(f"{target} exists: recorded data is never regenerated; record a new version",
              file=sys.stderr)
        return 2
    chosen = scenarios.all_episodes()
    with tempfile.TemporaryDirectory(prefix="golden_") as tmp:
        work = Path(tmp)
        played = record_episodes(f"sqlite:///{work / 'episodes.db'}", chosen)
        logged = record_episodes(f"sqlite:///{work / 'log.db'}",
                                 [e for e in chosen if e.in_dump], prefixes=True)
        sql = dump_sqlite(work / "log.db")
        conversations = record_wire(work)
    by_name = {r["name"]: r for r in played}
    for r in logged:  # the log holds the same episodes (or their starts)
        full = by_name[r["name"]]
        assert r["reset"] == full["reset"] and r["steps"] == full["steps"][:len(r["steps"])], r["name"]
    target.mkdir()
    for player in sorted({r["player"] for r in played}):  # one file per player, each under 2 MiB
        with (target / f"episodes-{player}.jsonl").open("w", encoding="utf-8") as out:
            for r in played:
                if r["player"] == player:
                    out.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
    (target / "log.sql").write_text(sql, encoding="utf-8")
    (target / "wire.json").write_text(json.dumps(conversations, ensure_ascii=False, indent=1) + "\n",
                                      encoding="utf-8")
    meta = {
        "version": args.version,
        "grader_version": seams.grader_version(),
        "made_with_commit": _commit(),
        "libraries": _libraries(),
        "seeds": list(scenarios.SEEDS),
        "dump_seeds": list(scenarios.DUMP_SEEDS),
        "episodes": len(played),
        "episodes_in_log": len(logged),
        "in_log": [r["episode_id"] for r in logged],
        "open_in_log": {e.episode_id: e.dump_prefix for e in chosen if e.dump_prefix is not None},
        "conversations": len(conversations),
        "exchanges": sum(len(c["exchanges"]) for c in conversations),
    }
    (target / "meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(meta, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
