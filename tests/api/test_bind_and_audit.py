"""Where each documented way of serving listens, and the audit surface decided by the sockets bound.

``ticketledger serve`` listens on 127.0.0.1 unless told otherwise; the ``server`` entry point
(OpenEnv's, the container's) on every interface. Whether the audit surface is served without a
token follows the socket really bound and the address each connection arrived on
(``api.listening``), never ``HOST``: with ``HOST=127.0.0.1`` in the environment but uvicorn bound to
0.0.0.0, a connection over 127.0.0.1 still needs the token.

A socket bound to 127.0.0.1 does not accept connections to 127.0.0.2, while one bound to 0.0.0.0
does: that tells the two apart without leaving this machine.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.databases import sqlite_pass_only
from tests.servers import ROOT, free_port, wait_healthy

pytestmark = sqlite_pass_only("each server here has a SQLite file of its own")

TOKEN = "bind-test-token-0123456789"
OTHER_LOOPBACK = "127.0.0.2"


@contextmanager
def serving(command: Sequence[str], tmp_path: Path, port: int,
            env: dict[str, str] | None = None) -> Iterator[Path]:
    """Run ``command`` (a server on ``port``) until the block ends; yields its log's path. ``HOST``
    and the audit token are taken out of the inherited environment: each test says its own."""
    inherited = {k: v for k, v in os.environ.items() if k not in ("HOST", "TICKETLEDGER_AUDIT_TOKEN")}
    full_env = {**inherited, "DATABASE_URL": f"sqlite:///{tmp_path / 'bind.db'}",
                "PORT": str(port), **(env or {})}
    log_path = tmp_path / f"server-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(list(command), cwd=ROOT, env=full_env, stdout=log,
                                   stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log_path)
        yield log_path
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def reachable(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(5)
        return sock.connect_ex((host, port)) == 0


def test_ticketledger_serve_listens_on_this_machine_only_and_serves_the_viewer(
        tmp_path: Path) -> None:
    port = free_port()
    with serving([sys.executable, "-m", "cli.main", "serve", "--log-level", "info"], tmp_path,
                 port) as log_path:
        assert reachable("127.0.0.1", port)
        assert not reachable(OTHER_LOOPBACK, port), "ticketledger serve listens beyond 127.0.0.1"
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/ui", timeout=30).status_code == 200  # what GET / advertises
        assert httpx.get(base + "/runs", timeout=30).status_code == 200
        log = log_path.read_text()
    assert f"Uvicorn running on http://127.0.0.1:{port}" in log, log
    assert "audit surface is off" not in log


def test_the_server_entry_point_listens_everywhere_and_keeps_the_audit_surface_off(
        tmp_path: Path) -> None:
    port = free_port()
    with serving([sys.executable, "-m", "server.app", "--log-level", "info"], tmp_path,
                 port) as log_path:
        assert reachable(OTHER_LOOPBACK, port), "the server entry point binds 0.0.0.0"
        refused = httpx.get(f"http://127.0.0.1:{port}/runs", timeout=30)
        assert refused.status_code == 403, refused.text
        assert "0.0.0.0" in refused.json()["detail"]
        assert httpx.get(f"http://127.0.0.1:{port}/ui", timeout=30).status_code == 403
    assert log_path.read_text().count("audit surface is off") == 1, log_path.read_text()


@pytest.mark.parametrize("entry", [
    ["-m", "uvicorn", "server.app:app", "--host", "0.0.0.0"],
    ["-m", "cli.main", "serve", "--host", "0.0.0.0"],
], ids=["uvicorn", "ticketledger-serve"])
def test_host_in_the_environment_does_not_open_the_audit_surface_of_a_wider_socket(
        entry: list[str], tmp_path: Path) -> None:
    """``HOST=127.0.0.1`` says loopback; the socket is bound to 0.0.0.0. A request over 127.0.0.1
    (whose local address is loopback) is still refused without the token, and the log says why
    once."""
    port = free_port()
    command = [sys.executable, *entry, "--port", str(port)]
    with serving(command, tmp_path, port, env={"HOST": "127.0.0.1"}) as log_path:
        assert reachable(OTHER_LOOPBACK, port)
        base = f"http://127.0.0.1:{port}"
        for path in ("/runs", "/episodes", "/ui", "/export"):
            refused = httpx.get(base + path, timeout=30)
            assert refused.status_code == 403, (path, refused.text)
            assert "TICKETLEDGER_AUDIT_TOKEN" in refused.text and "0.0.0.0" in refused.text
        assert httpx.post(base + "/reset", json={}, timeout=30).status_code == 200  # agents play
    assert log_path.read_text().count("audit surface is off") == 1, log_path.read_text()


def test_on_a_wider_socket_a_token_is_what_opens_the_audit_surface(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "server.app:app", "--host", "0.0.0.0", "--port",
               str(port)]
    with serving(command, tmp_path, port, env={"HOST": "127.0.0.1",
                                               "TICKETLEDGER_AUDIT_TOKEN": TOKEN}):
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(base + "/runs", timeout=30).status_code == 401
        opened = httpx.get(base + "/runs", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
        assert opened.status_code == 200, opened.text


def test_plain_uvicorn_on_loopback_needs_no_host_setting(tmp_path: Path) -> None:
    """``uvicorn server.app:app`` binds 127.0.0.1 by default: the audit surface is open, with no
    ``HOST`` to keep in step with it."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "server.app:app", "--port", str(port)]
    with serving(command, tmp_path, port, env={"HOST": "0.0.0.0"}):
        assert not reachable(OTHER_LOOPBACK, port)
        assert httpx.get(f"http://127.0.0.1:{port}/runs", timeout=30).status_code == 200
