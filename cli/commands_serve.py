"""``ticketledger serve``: the HTTP server (same options as ``python -m server.app``)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="serve the environment over HTTP and WebSocket "
                       "(port $PORT, default 7860)")
    from server.app import add_arguments

    add_arguments(p)
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from server.app import serve, with_flags

    return serve(with_flags(args.settings, args), args.log_level, access_log=args.access_log,
                 ws_compression=args.ws_compression)
