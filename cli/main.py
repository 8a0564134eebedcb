"""``ticketledger``: one entry point, one module per group of subcommands.

Each ``cli/commands_*.py`` module exposes ``register(subparsers)``, adding its subcommands with a
``func(args) -> int`` default. Modules are imported lazily per invocation so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
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
