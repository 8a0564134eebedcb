"""Starting the server: ``python -m server.app`` and ``ticketledger serve`` (same options), ``$PORT``,
the SQLite one-worker rule, and several workers sharing episodes on PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from domain.tasks import default_catalog
from service.gold import gold
from tests.databases import sqlite_pass_only
from tests.servers import ROOT, LiveServer, episode_events, free_port, start_server, wait_healthy

CATALOG = default_catalog()


@sqlite_pass_only("the command names its own SQLite file")
@pytest.mark.parametrize("entry", [["-m", "server.app"], ["-m", "cli.main", "serve"]],
                         ids=["server", "ticketledger-serve"])
def test_sqlite_with_several_workers_is_refused_with_what_to_do(entry: list[str],
                                                                tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, *entry, "--workers", "2", "--port", str(free_port())],
                            cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"})
    assert result.returncode == 2
    assert "needs PostgreSQL" in result.stderr
    assert "DATABASE_URL=postgresql+psycopg://" in result.stderr
    assert not (tmp_path / "x.db").exists()  # refused before touching the database


@sqlite_pass_only("the command names its own SQLite file")
def test_serve_listens_on_port_from_the_environment(tmp_path: Path) -> None:
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "--database-url", f"sqlite:///{tmp_path / 'p.db'}",
             "serve", "--host", "127.0.0.1", "--log-level", "warning"],
            cwd=ROOT, env={**os.environ, "PORT": str(port)}, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log_path)
        assert httpx.post(f"http://127.0.0.1:{port}/reset").status_code == 200
        assert (tmp_path / "p.db").exists()  # --database-url reached the server
    finally:
        process.terminate()
        process.wait(timeout=10)


@sqlite_pass_only("help needs no database")
def test_serve_help_lists_the_options() -> None:
    result = subprocess.run([sys.executable, "-m", "server.app", "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    for option in ("--host", "--port", "--workers", "--log-level", "--ws-compression", "$PORT",
                   "7860"):
        assert option in result.stdout


@pytest.mark.slow
@pytest.mark.postgres
def test_several_workers_on_postgresql_step_any_episode(pg_url: str) -> None:
    """Connections are not kept alive, so consecutive steps of one episode land on either worker."""
    plans = [(t, gold(CATALOG.instance(t, 30 + i)), 30 + i)
             for i, t in enumerate(CATALOG.task_ids[:6])]
    with start_server(pg_url, args=["--workers", "2", "--log-level", "info"]) as server:
        deadline = time.monotonic() + 30  # /health answers as soon as the first worker is up
        while server.log().count("Started server process") < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        started = server.log().count("Started server process")
        clients = [httpx.Client(base_url=server.url, timeout=30,
                                limits=httpx.Limits(max_keepalive_connections=0)) for _ in plans]
        episodes = [c.post("/reset", json={"task_id": t, "seed": s}).json()["episode_id"]
                    for c, (t, _, s) in zip(clients, plans, strict=True)]
        finals: dict[int, dict] = {}  # type: ignore[type-arg]
        for index in range(max(len(p) for _, p, _ in plans)):
            for who, (_, plan, _) in enumerate(plans):
                if index < len(plan):
                    finals[who] = clients[who].post("/step", json={"action": plan[index]}).json()
        # --host 127.0.0.1 reaches every worker (through $HOST): the audit surface is open in each
        audits = [clients[0].get(f"/episodes/{e}").status_code for e in episodes * 2]
        for c in clients:
            c.close()
    assert audits == [200] * len(audits) and "audit surface is off" not in server.log()
    assert started >= 2, server.log()
    for who, (_, plan, _) in enumerate(plans):
        assert finals[who]["done"] is True, finals[who]
        recorded = episode_events(pg_url, episodes[who])
        assert [e.seq for e in recorded] == list(range(1, len(recorded) + 1))
        assert sum(e.type == "ActionReceived" for e in recorded) == len(plan)
        assert recorded[-1].data["score"] == 1.0


def test_live_server_is_the_shared_fixture(live_server: LiveServer) -> None:
    """Other test modules reuse ``live_server``; it runs the real entry point on the suite backend."""
    assert live_server.process.poll() is None
    assert httpx.get(live_server.url + "/health").json() == {"status": "healthy"}


@sqlite_pass_only("the check builds its app on a SQLite file of its own")
def test_the_served_app_leaves_start_up_objects_out_of_collections(tmp_path: Path) -> None:
    """``server.app.serving_app`` (what ``python -m server.app``, its workers and
    ``server.app:app`` serve) freezes what start-up made: the task catalog is no longer among the
    objects a collection walks, while an object made afterwards still is. In a child process, so
    this test process's own heap is left as it is."""
    probe = (
        "import gc\n"
        "from server.app import serving_app\n"
        "from service.settings import Settings\n"
        f"app = serving_app(Settings(database_url='sqlite:///{tmp_path / 'frozen.db'}'))\n"
        "catalog = app.state.environment.service.catalog\n"
        "from graders import load_text_libraries\n"
        "load_text_libraries()  # what the first graded text does\n"
        "later = [object()]\n"
        "walked = gc.get_objects()\n"
        "print(gc.get_freeze_count() > 0, any(o is catalog for o in walked),"
        " any(o is later for o in walked),"
        " any(type(o).__module__.startswith('snowballstemmer') for o in walked))\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "False", "True", "False"]
