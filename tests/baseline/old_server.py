"""A server as it was before ``POST /runs``, for the client's fallback test: today's app
without the run routes, filing a reset under any ``run_id`` it is given, as servers did then; and
without ``POST /end``, which came later still (the TRL adapter's fallback test).

``python -m tests.baseline.old_server PORT`` serves it on 127.0.0.1 over ``DATABASE_URL``.
"""

from __future__ import annotations

import sys

import uvicorn

from api import app as app_module
from api import deps, routes_openenv, routes_runs


def _files_under_any_run(*_args: object) -> None:
    """Servers before the routing release checked nothing."""


def main() -> None:
    app_module.ROUTERS = tuple(m for m in app_module.ROUTERS if m is not routes_runs)
    deps.check_filing = _files_under_any_run  # type: ignore[assignment]
    routes_openenv.router.routes = [r for r in routes_openenv.router.routes
                                    if getattr(r, "path", None) != "/end"]
    uvicorn.run(app_module.create_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")


if __name__ == "__main__":
    main()
