"""Errors the client raises: one class per HTTP status the API documents, each carrying status, code and message."""

from __future__ import annotations

import json

import httpx


class AnalystError(Exception):
    """An answer the client cannot use. `status` is the HTTP status (None when no answer came back),
    `code` the API's machine-readable cause (`invalid_filter`, `rate_limited`, ...) where it gave one."""

    def __init__(
        self,
        status: int | None,
        code: str | None,
        message: str,
        *,
        candidates: list[str] | None = None,
        correlation_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}" if code else f"{status}: {message}")
        self.status = status
        self.code = code
        self.message = message
        #: Collection ids an ambiguous collection name matched (409 `collection_name_ambiguous`).
        self.candidates = candidates
        #: The `X-Correlation-Id` of the answer, to find the request in the server's logs.
        self.correlation_id = correlation_id
        #: Seconds the answer's `Retry-After` asked for, when it named any.
        self.retry_after = retry_after


class BadRequestError(AnalystError):
    """400: a malformed body, invalid filter values or bucket names, a selection that matches nothing."""


class AuthenticationError(AnalystError):
    """401: the key is missing, unknown or revoked."""


class InsufficientCreditsError(AnalystError):
    """402: none of a content batch could be funded; nothing was created."""


class PermissionDeniedError(AnalystError):
    """403: the key lacks the route's scope, or the plan does not include the API."""


class NotFoundError(AnalystError):
    """404: an unknown job, analysis, post or collection (or one of another team)."""


class ConflictError(AnalystError):
    """409: `analysis_not_ready`, `analysis_failed`, `collection_name_ambiguous` (see `candidates`)."""


class ResponseTooLargeError(AnalystError):
    """413: the answer would exceed 5 MB; ask for a smaller page."""


class RateLimitError(AnalystError):
    """429: a per-minute cap, a daily budget or the daily byte cap tripped, and waiting it out was not
    allowed by the client's bounds. `rate_class` names the class that tripped."""

    #: The rate class that tripped (`X-RateLimit-Class`), e.g. `global` or `analysis_create`.
    rate_class: str | None = None


class ServerError(AnalystError):
    """5xx: the server failed (503s are retried first)."""


class WaitTimeoutError(AnalystError):
    """`wait_for` gave up: the job or analysis was not terminal within its timeout."""


_BY_STATUS: dict[int, type[AnalystError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: InsufficientCreditsError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: ResponseTooLargeError,
    429: RateLimitError,
}


def error_from_response(response: httpx.Response, retry_after: float | None) -> AnalystError:
    """The exception for a non-2xx answer, read from the API's envelope `{ error: { message, code?, candidates? } }`."""
    message = f"{response.request.method} {response.request.url.path} answered {response.status_code}"
    code: str | None = None
    candidates: list[str] | None = None
    try:
        body = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        message = str(error.get("message", message))
        code = error["code"] if isinstance(error.get("code"), str) else None
        found = error.get("candidates")
        candidates = [str(c) for c in found] if isinstance(found, list) else None
    status = response.status_code
    kind = _BY_STATUS.get(status, ServerError if status >= 500 else AnalystError)
    error_ = kind(
        status,
        code,
        message,
        candidates=candidates,
        correlation_id=response.headers.get("x-correlation-id"),
        retry_after=retry_after,
    )
    if isinstance(error_, RateLimitError):
        error_.rate_class = response.headers.get("x-ratelimit-class")
    return error_
