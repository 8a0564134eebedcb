"""``ticketledger``: one entry point, one module per group of subcommands.

Each ``cli/commands_*.py`` module exposes ``register(subparsers)``, adding its subcommands with a
``func(args) -> int`` default. Modules are imported lazily per invocation so ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMAND_MODULES = ("cli.commands_core", "cli.commands_audit", "cli.commands_serve", "cli.commands_runs")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ticketledger",
        description="TicketLedger: an event-sourced customer-support environment for AI agents.",
    )
    parser.add_argument("--database-url", default=None,
                        help="SQLAlchemy URL of the event log (default: $DATABASE_URL or "
                             "sqlite:///data/ticketledger.db)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
