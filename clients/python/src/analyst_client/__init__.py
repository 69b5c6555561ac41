"""Python client of the Analyst API.

    from analyst_client import Analyst
    analyst = Analyst()  # ANALYST_BASE_URL and ANALYST_API_KEY from the environment
    job = analyst.wait_for(analyst.add_posts(["https://www.youtube.com/watch?v=..."]))

`analyst_client.models` holds the request and response models generated from the OpenAPI document;
`analyst_client.frames` (the `[pandas]` extra) turns posts, mixes and samples into DataFrames.
Push: `verify_webhook_signature` checks a webhook delivery; `Analyst.iter_events` reads `GET /events`.
"""

from .client import PREFIX, AnalysisReport, Analyst, CommentSample
from .errors import (
    AnalystError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InsufficientCreditsError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ResponseTooLargeError,
    ServerError,
    WaitTimeoutError,
)
from .models import Analysis, Collection, CommentRow, ContentJob, Mix, Post, PostAnalysis
from .events import StreamedEvent
from .rate_limit import RateLimit
from .webhooks import SignatureCheck, verify_webhook_signature

__all__ = [
    "PREFIX",
    "Analysis",
    "AnalysisReport",
    "Analyst",
    "AnalystError",
    "AuthenticationError",
    "BadRequestError",
    "Collection",
    "CommentRow",
    "CommentSample",
    "ConflictError",
    "ContentJob",
    "InsufficientCreditsError",
    "Mix",
    "NotFoundError",
    "PermissionDeniedError",
    "Post",
    "PostAnalysis",
    "RateLimit",
    "RateLimitError",
    "ResponseTooLargeError",
    "ServerError",
    "SignatureCheck",
    "StreamedEvent",
    "WaitTimeoutError",
    "verify_webhook_signature",
]
