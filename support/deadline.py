"""A call given up after a wall-clock deadline, whatever its socket does.

An OpenAI-compatible server that trickles a byte now and then never trips the client's own read
timeout, so the service's LLM judge and simulated customer and the agents' LLM calls all wait on
the call from outside it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


class Deadline(Exception):
    """An LLM call (the judge's, the simulated customer's, or an agent's in ``baseline.llm``) gave
    no answer in time."""


def call_with_deadline(fn: Callable[[], Any], seconds: float) -> Any:
    """``fn()`` on a daemon thread, given up after ``seconds`` whatever the socket does (a server
    that trickles a byte now and then never trips the client's own read timeout)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True, name="llm-judge-call")
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise Deadline(f"no answer within {seconds:g}s")
    if "error" in box:
        raise box["error"]
    return box["value"]
