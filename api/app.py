"""The FastAPI application factory.

Routers live in their own modules and are included here; each gets the service through
``api.deps.get_service``. Importing this module must not import openenv or gradio.
"""

from __future__ import annotations

import importlib

from fastapi import FastAPI

from api.settings import Settings
from service import EnvironmentService
from store import open_database

ROUTER_MODULES = (
    "api.routes_openenv",  # /health /metadata /schema /reset /step /state /tasks /ws /mcp  (issue 7)
    "api.routes_audit",  # /episodes... /runs...  (issues 7 and 4)
    "api.routes_ui",  # /ui web viewer  (issue 4)
)


def create_app(settings: Settings | None = None, service: EnvironmentService | None = None) -> FastAPI:
    settings = settings or Settings()
    app = FastAPI(title="TicketLedger", version="0.1.0",
                  description="Event-sourced customer-support environment for AI agents (OpenEnv).")
    app.state.settings = settings
    app.state.service = service or EnvironmentService(open_database(settings.database_url))
    for name in ROUTER_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.install(app)
    return app
