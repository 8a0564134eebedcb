"""FastAPI dependencies shared by every router: the service, settings and the audit guard."""

from __future__ import annotations

import secrets

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from service import EnvironmentService
from service.settings import Settings

_bearer = HTTPBearer(auto_error=False)


def get_service(request: Request) -> EnvironmentService:
    return request.app.state.service


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def require_audit_token(
    settings: Settings = Depends(get_settings),
    credentials: HTTPAuthorizationCredentials | None = Depends(_bearer),
) -> None:
    """Audit routes need ``Authorization: Bearer $TICKETLEDGER_AUDIT_TOKEN`` when one is set."""
    expected = settings.audit_token
    if not expected:
        return
    given = credentials.credentials if credentials else ""
    if not secrets.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(
            status_code=401,
            detail="audit routes need 'Authorization: Bearer <TICKETLEDGER_AUDIT_TOKEN>'",
            headers={"WWW-Authenticate": "Bearer"},
        )
