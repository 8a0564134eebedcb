"""Secrets out of text that came from elsewhere, before it is recorded anywhere.

An upstream error (a model server's 401 body, a proxy's message, an exception's text) may echo what
the request carried: the ``Authorization`` header, an API key, a bearer token, credentials in a
URL. The event log can never be edited, and run records and logs are read by more people than hold
the keys, so every such text goes through :func:`redact` before it is written: the judge's and the
customer's fallback reasons (``service.judge``, ``service.customer``) and an agent's failed LLM
calls (``baseline.llm``). The server's log (``api.logs``) goes through :func:`redact_log_line`,
which also masks the values of secret-named query parameters (:func:`redact_query`): a request's
path may carry a capability of our own (``/ws?session_id=<id>``, ``/ui?token=...``). This is the one
place that knows what a secret looks like.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote_plus

MASK = "***"
"""What a secret is replaced with."""

_SECRET_NAME = (r"(?:proxy[-_ ]?)?authorization|x[-_]?api[-_]?key|api[-_ ]?key|apikey|"
                r"(?:access|refresh|id|auth|audit|session)[-_]?token|token|"
                r"(?:client[-_]?|run[-_]?)?secret|password|passwd|pwd|credentials?")
_VALUE = r"[^\s\"'&,;)}\]]+"

_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # a header, JSON field, keyword or query parameter named as a secret, with an optional
    # authentication scheme: the name and the scheme stay, the value goes
    (re.compile(rf"(?i)(\b(?:{_SECRET_NAME})\b[\"']?\s*(?:[:=]|=>)\s*[\"']?\s*"
                rf"(?:(?:bearer|basic|token|digest)\s+)?){_VALUE}"), rf"\g<1>{MASK}"),
    # a bearer or basic credential wherever it appears
    (re.compile(rf"(?i)(\b(?:bearer|basic)\s+){_VALUE}"), rf"\g<1>{MASK}"),
    # credentials inside a URL: scheme://user:password@host
    (re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://)[^/\s:@]+:[^/\s@]+@"), rf"\g<1>{MASK}@"),
    # keys recognisable by their shape: OpenAI, Anthropic, Hugging Face, Groq, xAI, GitHub,
    # Slack, AWS access key ids, JSON web tokens
    (re.compile(r"\b(?:sk|rk|pk)-[A-Za-z0-9_-]{8,}|\bsk-ant-[A-Za-z0-9_-]{8,}|\bhf_[A-Za-z0-9]{8,}"
                r"|\bgsk_[A-Za-z0-9]{8,}|\bxai-[A-Za-z0-9]{8,}|\bgh[pousr]_[A-Za-z0-9]{8,}"
                r"|\bgithub_pat_[A-Za-z0-9_]{8,}|\bxox[abposr]-[A-Za-z0-9-]{8,}"
                r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"
                r"|\beyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}"), MASK),
)


def redact(text: str, known: Iterable[str | None] = ()) -> str:
    """``text`` with every secret replaced by :data:`MASK`: the ``known`` secrets (the keys the
    caller holds, whatever their shape; values shorter than 4 characters are ignored, as
    masking them would mask ordinary words), then anything named or shaped as a secret."""
    for secret in sorted({k for k in known if k and len(k) >= 4}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


QUERY_PARAMETER = re.compile(r"(?P<lead>[?&;])(?P<name>[^=&;#\s\"?]*)=(?P<value>[^&;#\s\"]*)")
"""A ``name=value`` pair of a query string, as a server writes it (still percent-encoded)."""

SECRET_QUERY_NAME = re.compile(r"token|secret|passw|key|session|auth|credential|signature|episode_id",
                               re.IGNORECASE)
"""What a query parameter's name holds when its value is a secret or a capability: tokens (the
audit token), secrets (run secrets), passwords, keys (API keys, ``X-Episode-Key`` values), session
ids (``/ws?session_id=``), credentials, signatures and episode ids (an id is all a request needs to
reach an episode). On the safe side: ``tokens_used`` or ``monkey`` are masked too."""


def _masked_parameter(match: re.Match[str]) -> str:
    if SECRET_QUERY_NAME.search(unquote_plus(match["name"])):
        return f"{match['lead']}{match['name']}={MASK}"
    return match[0]


def redact_query(text: str) -> str:
    """``text`` with the value of every secret-named query parameter (its name percent-decoded,
    any case) replaced by :data:`MASK`."""
    if "=" not in text:
        return text
    return QUERY_PARAMETER.sub(_masked_parameter, text)


def redact_log_line(text: str) -> str:
    """A log line with secret query values and anything named or shaped as a secret masked."""
    return redact(redact_query(text))
