"""Start the TicketLedger HTTP server (``server``, ``python -m server.app``, ``ticketledger serve``).

OpenEnv's tooling expects this file: ``main()``, the ``__main__`` guard at the end, and ``app``
(``openenv.yaml``: ``app: server.app:app``). ``app`` is built on first access only, so importing
this module to call ``main`` opens no database. Nothing here imports openenv or gradio.

With SQLite the server runs one worker process (SQLite allows one writer process; the log would
serialise them anyway); several workers need PostgreSQL, where every worker can step every
episode because each step re-reads the episode's stored head.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

    from service.settings import Settings

DEFAULT_PORT = 7860
LOOPBACK_HOST = "127.0.0.1"
"""Where ``ticketledger serve`` listens unless told otherwise: this machine only, so a newcomer's
first server is reachable from nowhere else and its audit surface (``/ui``, which ``GET /``
advertises) is open to them."""
CONTAINER_HOST = "0.0.0.0"
"""Where the ``server`` entry point (``python -m server.app``) listens unless told otherwise:
OpenEnv's tooling and container images start it expecting every interface, as its own template
does; the Dockerfile still names it explicitly."""
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def add_arguments(parser: argparse.ArgumentParser, default_host: str) -> None:
    """The server's flags; each one given overrides its setting (``service.settings``).
    ``default_host``: the interface when neither ``--host`` nor ``$HOST`` names one."""
    parser.set_defaults(default_host=default_host)
    parser.add_argument("--host", help=f"interface to listen on (default: $HOST or {default_host})")
    parser.add_argument("--port", type=int, help=f"port (default: $PORT or {DEFAULT_PORT})")
    parser.add_argument("--workers", type=int,
                        help="worker processes (default: $WEB_CONCURRENCY or 1; more than one "
                             "needs PostgreSQL)")
    parser.add_argument("--log-level", default="info", choices=LOG_LEVELS, type=str.lower,
                        help="uvicorn log level (default: info)")
    parser.add_argument("--access-log", action="store_true",
                        help="log every request (off by default: it costs throughput)")
    parser.add_argument("--ws-compression", action="store_true",
                        help="offer per-message deflate on WebSocket sessions (off by default: it "
                             "halves session throughput; worth it only on slow links)")


def with_flags(settings: Settings, args: argparse.Namespace) -> Settings:
    """``settings`` with the flags of :func:`add_arguments` that were given, and the entry point's
    default interface when neither ``--host`` nor ``$HOST`` named one."""
    host = args.host or settings.host or args.default_host
    return settings.override(host=host, port=args.port, workers=args.workers)


def serving_app(settings: Settings | None = None) -> FastAPI:
    """The app a server process serves: :func:`api.app.create_app`, then everything made so far
    moved out of the garbage collector's reach (``gc.freeze``).

    Why: what a process makes at start-up (the modules, the task catalog, the grader's compiled
    patterns; some 140,000 objects) lives as long as the process, yet every full collection walks
    all of it, and while it does, the one event loop that serves every session stands still. On a
    2-core machine a full collection took 60-200 ms under 256 ``/ws`` sessions, which is what their
    p99 step latency showed. Frozen, those objects are left out of every later collection; objects
    made afterwards (episodes, the graders' bounded caches) are collected as before. The text
    libraries the first graded text would load (:func:`graders.load_text_libraries`) are loaded
    first, so they are frozen with the rest."""
    from api.app import create_app
    from graders import load_text_libraries

    app = create_app(settings)
    load_text_libraries()
    gc.freeze()
    return app


def serve(settings: Settings, log_level: str = "info", *, access_log: bool = False,
          ws_compression: bool = False) -> int:
    """Apply migrations, then serve until interrupted. Returns the exit status."""
    url, workers = settings.database_url, settings.workers
    if workers < 1:
        print("--workers must be at least 1", file=sys.stderr)
        return 2
    if workers > 1 and url.startswith("sqlite"):
        print(f"--workers {workers} needs PostgreSQL: SQLite allows one writer process. Set "
              "DATABASE_URL=postgresql+psycopg://USER:PASSWORD@HOST:5432/DBNAME (and "
              "pip install -e '.[postgres]'), or run with --workers 1.", file=sys.stderr)
        return 2

    import uvicorn

    from api.listening import LOOPBACK_ADDRESSES, plain_address
    from api.logs import log_config

    host = settings.host or CONTAINER_HOST
    audit_off = not settings.audit_token and host.lower() != "localhost" and (
        plain_address(host) not in LOOPBACK_ADDRESSES)

    options: dict[str, Any] = {
        "host": host, "port": settings.port, "log_level": log_level,
        "log_config": log_config(log_level),
        "access_log": access_log, "ws_max_size": max(4 * settings.max_body_bytes, 1 << 20),
        "server_header": False, "ws_per_message_deflate": ws_compression,
        # Bounds what slow clients can hold: uvicorn has no header timeout (docs/operations.md).
        "limit_concurrency": settings.max_connections,
    }
    if workers == 1:
        app = serving_app(settings)  # migrates on creation: a database that cannot open stops here
        _say_audit_off(host, log_level, audit_off)
        uvicorn.run(app, **options)
    else:
        from store import open_database

        open_database(url).dispose()  # migrate once, before the workers race to
        _say_audit_off(host, log_level, audit_off)
        # uvicorn's worker processes import the app by name and read their settings from the
        # environment, the one channel to them: a --database-url flag goes there. (Each worker
        # finds the socket it inherited for the audit surface's rule: api.listening.)
        os.environ["DATABASE_URL"] = url
        uvicorn.run("server.app:serving_app", factory=True, workers=workers, **options)
    return 0


def _say_audit_off(host: str, log_level: str, off: bool) -> None:
    """Log at start-up, once, that the audit surface is off, when the address about to be bound
    says so (every audit request will answer it: ``api.listening`` decides per request), with
    logging set up as uvicorn will set it up."""
    if not off:
        return
    import logging.config  # deferred: `ticketledger` imports this module for every command's help

    from api.deps import announce_audit_off
    from api.logs import log_config

    logging.config.dictConfig(log_config(log_level))
    announce_audit_off(host)


def main(argv: list[str] | None = None) -> None:
    from service.settings import SettingsError, read

    parser = argparse.ArgumentParser(prog="server", description="Serve TicketLedger over HTTP "
                                     "(OpenEnv routes, WebSocket sessions, audit API, web viewer).")
    add_arguments(parser, CONTAINER_HOST)
    args = parser.parse_args(argv)
    try:
        settings = with_flags(read(), args)
    except SettingsError as exc:
        sys.exit(f"error: {exc}")
    from store import DatabaseUnavailable

    try:
        status = serve(settings, args.log_level, access_log=args.access_log,
                       ws_compression=args.ws_compression)
    except DatabaseUnavailable as exc:  # one line, exit 2, as ``ticketledger serve`` says it
        print(f"error: {exc}", file=sys.stderr)
        status = 2
    sys.exit(status)


def __getattr__(name: str) -> Any:
    """``server.app:app`` for ``uvicorn server.app:app``: built from the environment on first use."""
    if name == "app":
        application = serving_app()
        globals()["app"] = application
        return application
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
