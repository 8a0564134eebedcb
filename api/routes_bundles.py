"""``POST /bundles/verify``: check a result bundle (``ticketledger bundle``) on the server.

The body is the bundle file as ``ticketledger bundle`` wrote it; the answer is the report of
``ticketledger verify-bundle --json`` (``service.bundle.verify_bundle``): every check, every
discrepancy named, ``ok`` only when there is none. A bundle that verifies and one that does not
are both answered 200 (the report is the answer); a body that is not a bundle is a 422 saying what
is wrong. Behind the audit token like every audit route (``api.deps.require_audit_token``). A
bundle holds every event of a run, so this path takes bodies up to :data:`MAX_BUNDLE_BYTES`
(``api.limits.LARGER_BODIES``); the route reads the body only after the token check.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request

from api.deps import Env, require_audit_token
from api.limits import LARGER_BODIES

router = APIRouter(tags=["audit"], dependencies=[Depends(require_audit_token)])

MAX_BUNDLE_BYTES = 64 * 1024 * 1024
"""A run of the whole test split with 4 trials writes a bundle of about 30 MB."""
PATH = "/bundles/verify"


@router.post(PATH, summary="Verify a result bundle: re-fold, re-grade, chains, heads, membership, "
                           "figures")
async def verify_bundle(request: Request, env: Env) -> dict[str, Any]:
    from service.bundle import load_bundle
    from service.bundle import verify_bundle as verify

    text = (await request.body()).decode("utf-8", errors="replace")
    bundle = load_bundle(text)
    return await env.run(verify, bundle, env.auditor.catalog)


def install(app: FastAPI) -> None:
    LARGER_BODIES[PATH] = MAX_BUNDLE_BYTES
    app.include_router(router)
