"""The FastAPI application factory.

Routers live in their own modules and are included here; each gets the service through
``api.deps.get_service``. Importing this module must not import openenv or gradio.
"""

from __future__ import annotations

from fastapi import FastAPI

from api import routes_audit, routes_openenv, routes_ui
from service import EnvironmentService
from service.settings import Settings, read
from store import open_database

ROUTERS = (
    routes_openenv,  # /health /metadata /schema /reset /step /state /tasks /ws /mcp
    routes_audit,  # /episodes... /runs... /regrade /export (read-only audit; token when set)
    routes_ui,  # /ui web viewer
)


def create_app(settings: Settings | None = None, service: EnvironmentService | None = None) -> FastAPI:
    settings = settings or read()
    app = FastAPI(title="TicketLedger", version="0.1.0",
                  description="Event-sourced customer-support environment for AI agents (OpenEnv).")
    app.state.settings = settings
    app.state.service = service or EnvironmentService(open_database(settings.database_url))
    for module in ROUTERS:
        module.install(app)
    return app
