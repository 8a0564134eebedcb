"""The FastAPI application factory.

Routers live in their own modules and are included here; each reaches the environment through the
one dependency of ``api.deps``. Importing this module must not import openenv or gradio.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from api import guard, logs, routes_audit, routes_bundles, routes_openenv, routes_runs, routes_ui
from api.deps import Environment
from domain.tasks.catalog import default_catalog
from service import EnvironmentService
from service.customer import LLMCustomer
from service.judge import LLMJudge
from service.settings import Settings, read
from store import open_database

ROUTERS = (
    routes_openenv,  # /health /metadata /schema /reset /step /state /tasks /ws /mcp
    routes_runs,  # POST /runs, POST /runs/{id}/finish (agent-facing: the run's secret)
    routes_audit,  # /episodes... /runs... /regrade /export (audit: token, or loopback only)
    routes_ui,  # /ui web viewer
    routes_bundles,  # POST /bundles/verify (audit)
)


def create_app(settings: Settings | None = None, service: EnvironmentService | None = None) -> FastAPI:
    """The app over ``service`` (default: one on ``settings.database_url``, migrated). Without
    ``settings`` (``uvicorn server.app:app``, worker processes) they are read here, once."""
    settings = settings or read()
    logs.install()  # no secret in uvicorn's lines, however the server was started
    if service is None:
        catalog = default_catalog()
        service = EnvironmentService(open_database(settings.database_url), catalog,
                                     judge=LLMJudge.from_settings(settings, catalog),
                                     customer=LLMCustomer.from_settings(settings))
    environment = Environment(service, settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        environment.close()  # the service threads finish what they hold, then stop

    app = FastAPI(title="TicketLedger", version="0.1.0", lifespan=lifespan,
                  description="Event-sourced customer-support environment for AI agents (OpenEnv).")
    app.state.environment = environment
    for module in ROUTERS:
        module.install(app)
    guard.install(app, settings)  # outermost: Host and Origin are checked before anything else
    return app
