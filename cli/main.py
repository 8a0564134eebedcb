"""``ticketledger``: one entry point, one module per group of subcommands.

Each ``cli/commands_*.py`` module exposes ``register(subparsers)``, adding its subcommands with a
``func(args) -> int`` default. Modules are imported lazily per invocation so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.terminal import CLOSED_PIPE_EXIT, detach_stdout

COMMAND_MODULES = ("cli.commands_core", "cli.commands_audit", "cli.commands_serve", "cli.commands_runs",
                   "cli.commands_grader", "cli.commands_grader_eval", "cli.commands_results")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ticketledger",
        description="TicketLedger: an event-sourced customer-support environment for AI agents.",
    )
    parser.add_argument("--database-url", default=None,
                        help="SQLAlchemy URL of the event log (default: $DATABASE_URL or "
                             "sqlite:///data/ticketledger.db); commands that read the log never "
                             "create it")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command. Exit 2 with one line on stderr for a setting or database that cannot be
    used, 130 on Ctrl-C, 141 (as SIGPIPE would) when stdout's reader went away (``| head``)."""
    try:
        return _run(argv)
    except BrokenPipeError:
        detach_stdout()
        return CLOSED_PIPE_EXIT


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    with _start_up():
        from service.settings import SettingsError, read
        from store.errors import DatabaseUnavailable, NoDatabase

    try:
        args.settings = read().override(database_url=args.database_url)
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # a reader that went away shows here, not in the interpreter's exit
        return status
    except SettingsError as exc:
        return _fail(args, "bad_setting", str(exc))
    except NoDatabase as exc:
        return _fail(args, "no_database", no_database(exc.path))
    except DatabaseUnavailable as exc:
        return _fail(args, "database_unavailable", str(exc))
    except KeyboardInterrupt:
        return 130


_started = False
"""Whether this process has loaded the settings' modules under :func:`_start_up` already."""


@contextmanager
def _start_up() -> Iterator[None]:
    """Load the modules every command needs (the settings, the database layer: SQLAlchemy and
    pydantic) with the garbage collector paused, then freeze everything made so far, once per
    process.

    Why: those objects live as long as the process, yet each full collection while a command loads
    (its own modules, the task catalog) walked all of them, and the collection at exit once more;
    frozen, they are left out of both (as the server freezes its start-up, ``server.app``). Objects
    made afterwards are collected as before. Once per process, because a caller that runs several
    commands in one process (the tests) would otherwise freeze the garbage of the ones before."""
    global _started
    if _started:
        yield
        return
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        _started = True
        gc.freeze()
        if collecting:
            gc.enable()


def no_database(path: str) -> str:
    """What to do when a command that reads the log finds none where it looked."""
    return (f"no database at {path} (looked for {Path(path).expanduser().absolute()}); nothing has "
            "been recorded there. Point at the log you mean with --database-url URL or "
            "DATABASE_URL=URL (sqlite:///path/to/file.db or postgresql+psycopg://...)")


def _fail(args: argparse.Namespace, code: str, message: str) -> int:
    if getattr(args, "json", False):
        print(json.dumps({"error": {"code": code, "message": message}}, indent=2))
    print(f"error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
