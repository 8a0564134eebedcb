"""``ticketledger serve``: the HTTP server (same options as ``python -m server.app``).

It listens on 127.0.0.1 unless ``--host`` or ``$HOST`` names another interface: a first
``ticketledger serve`` is reachable from this machine only, where its audit surface and ``/ui`` are
open without a token. Containers and Spaces name ``--host 0.0.0.0`` (the Dockerfile does)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="serve the environment over HTTP and WebSocket "
                       "(127.0.0.1 unless --host or $HOST says otherwise; port $PORT, default 7860)")
    from server.app import LOOPBACK_HOST, add_arguments

    add_arguments(p, LOOPBACK_HOST)
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from server.app import serve, with_flags

    return serve(with_flags(args.settings, args), args.log_level, access_log=args.access_log,
                 ws_compression=args.ws_compression)
