"""Every error as JSON: ``{"detail": "<what went wrong and what to do>", "code": "...", ...}``.

``detail`` is always a sentence (FastAPI clients print it); ``code`` is stable for programs.
Invalid actions add ``field`` (and ``allowed`` where a vocabulary applies). An unexpected
exception is a bug: it is logged with its traceback and answered with a 500 that says so.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.protocol import decode_error
from domain.actions import InvalidAction
from domain.tasks import UnknownTask
from service.errors import ServiceError

log = logging.getLogger("ticketledger.api")

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 409: "conflict", 413: "body_too_large",
              415: "unsupported_media_type", 422: "invalid_request", 429: "too_many_requests"}


def error_body(status: int, detail: str, code: str, **extra: Any) -> dict[str, Any]:
    return {"detail": detail, "code": code, "status": status,
            **{k: v for k, v in extra.items() if v is not None}}


def describe(exc: Exception) -> tuple[int, dict[str, Any]]:
    """Status and body for the errors the service and domain raise on purpose (else 500)."""
    if isinstance(exc, InvalidAction):
        return 422, error_body(422, str(exc), "invalid_action", field=exc.field, allowed=exc.allowed)
    if isinstance(exc, UnknownTask):
        return 404, error_body(404, str(exc), "unknown_task")
    if isinstance(exc, ServiceError):
        return exc.status, error_body(exc.status, str(exc), exc.code)
    return 500, error_body(500, "internal error: this is a bug in TicketLedger; the server log has "
                                "the traceback", "internal_error")


async def _known(_request: Request, exc: Exception) -> JSONResponse:
    status, body = describe(exc)
    return JSONResponse(body, status_code=status)


async def _http(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else "request failed"
    if exc.status_code == 404 and detail == "Not Found":
        detail = "no such route; GET /docs lists the routes"
    elif exc.status_code == 405:
        detail = "method not allowed on this route; GET /docs lists the routes and their methods"
    elif exc.status_code == 400 and isinstance(exc.__cause__, (ValueError, RecursionError)):
        # FastAPI's own body reading (the audit routes' bodies) failed past its JSON decoder: too
        # deep, or a number too long for Python. A malformed body is 422 on every route.
        return JSONResponse(error_body(422, decode_error(exc.__cause__, "request body"),
                                       "invalid_request"), status_code=422)
    code = getattr(exc, "code", None) or HTTP_CODES.get(exc.status_code, "http_error")
    return JSONResponse(error_body(exc.status_code, detail, code), status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def _validation(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = jsonable_encoder(exc.errors(), exclude={"input", "ctx", "url"})
    first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
    where = ".".join(str(p) for p in first.get("loc", []))
    detail = f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
    return JSONResponse(error_body(422, detail, "invalid_request", errors=errors), status_code=422)


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    status, body = describe(exc)
    return JSONResponse(body, status_code=status)


def install(app: FastAPI) -> None:
    for kind in (InvalidAction, UnknownTask, ServiceError):
        app.add_exception_handler(kind, _known)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(Exception, _unexpected)
