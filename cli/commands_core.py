"""Core subcommands: ``tasks`` and ``db upgrade``."""

from __future__ import annotations

import argparse
import json

from support.terminal import print_table


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("tasks", help="list the task catalog (the classic tasks; --split or --family "
                                     "lists task-family instances)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--split", choices=("train", "dev", "test"), default=None,
                   help="list the instances of this frozen split (docs/tasks.md)")
    p.add_argument("--family", default=None, metavar="FAMILY",
                   help="list the instances of this task family (its name or task id)")
    p.set_defaults(func=cmd_tasks)
    from cli.commands_tasks import register_tasks

    register_tasks(p)

    db = sub.add_parser("db", help="database administration")
    dbsub = db.add_subparsers(dest="db_command", metavar="DB_COMMAND", required=True)
    up = dbsub.add_parser("upgrade", help="apply pending schema migrations")
    up.add_argument("--json", action="store_true")
    up.set_defaults(func=cmd_db_upgrade)


def cmd_tasks(args: argparse.Namespace) -> int:
    from domain.tasks import default_catalog

    if args.split or args.family:
        from cli.commands_tasks import cmd_instances

        return cmd_instances(args)
    rows = [{"task_id": s.task_id, "difficulty": s.difficulty.value, "title": s.title,
             "max_steps": s.max_steps, "success_threshold": s.success_threshold,
             "source": s.source} for s in default_catalog().specs()]
    if args.json:
        print(json.dumps({"tasks": rows}, indent=2))
    else:
        print_table(rows, ["task_id", "difficulty", "title", "max_steps", "success_threshold"])
    return 0


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from store import open_database
    from store.migrate import current_revision, upgrade

    db = open_database(args.settings.database_url, migrate_schema=False)
    before = current_revision(db.engine)
    after = upgrade(db.engine)
    if args.json:
        print(json.dumps({"database": db.url, "from": before, "to": after}))
    else:
        print(f"{db.url}: {before or 'empty'} -> {after}")
    return 0
