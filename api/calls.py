"""How routes run the blocking service: inline on the event loop or in the thread pool.

See ``Settings.blocking_calls``. Routes call ``app.state.call(fn, *args)`` and never choose.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

from service import EnvironmentService
from service.settings import Settings

Runner = Callable[..., Awaitable[Any]]


async def inline(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


def runner(settings: Settings, service: EnvironmentService) -> Runner:
    mode = settings.blocking_calls
    if mode == "auto":
        mode = "inline" if service.db.dialect == "sqlite" else "thread"
    return inline if mode == "inline" else run_in_threadpool
