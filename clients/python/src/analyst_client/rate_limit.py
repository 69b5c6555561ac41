"""Reading the API's waiting instructions: `Retry-After` and the rate-limit headers of an answer."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

import httpx

_POLICY = re.compile(r'"?(?P<name>[\w-]+)"?\s*;(?P<params>[^,]*)')


def retry_after_seconds(response: httpx.Response, now: float | None = None) -> float | None:
    """`Retry-After` in seconds (it may be a number of seconds or an HTTP date); None when absent or unreadable."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        at = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, at - (time.time() if now is None else now))


def _int(response: httpx.Response, name: str) -> int | None:
    value = response.headers.get(name)
    return int(value) if value is not None and value.strip().isdigit() else None


@dataclass(frozen=True)
class RateLimit:
    """What the last answer said about the key's budgets (None where it did not say)."""

    #: Global requests per UTC minute, left this minute, seconds until the minute resets.
    limit: int | None
    remaining: int | None
    reset_seconds: int | None
    #: Global requests left today.
    daily_remaining: int | None
    #: The rate class the request was charged to, and what is left of it this minute and today.
    rate_class: str | None
    class_remaining: int | None
    class_daily_remaining: int | None
    #: Response bytes left today under the daily byte cap.
    bytes_remaining: int | None
    #: The `RateLimit` header's policies: name -> (requests left, seconds to reset).
    policies: dict[str, tuple[int, int]]

    @classmethod
    def from_response(cls, response: httpx.Response) -> RateLimit:
        return cls(
            limit=_int(response, "x-ratelimit-limit"),
            remaining=_int(response, "x-ratelimit-remaining"),
            reset_seconds=_int(response, "x-ratelimit-reset"),
            daily_remaining=_int(response, "x-ratelimit-daily-remaining"),
            rate_class=response.headers.get("x-ratelimit-class"),
            class_remaining=_int(response, "x-ratelimit-class-remaining"),
            class_daily_remaining=_int(response, "x-ratelimit-class-daily-remaining"),
            bytes_remaining=_int(response, "x-ratelimit-bytes-remaining"),
            policies=_policies(response.headers.get("ratelimit", "")),
        )

    def global_exhausted_for(self) -> float | None:
        """Seconds until the key's spent global budget refills: the longest reset among the global
        policies with nothing left (a day outlasts a minute), else the minute's reset when it has none
        left; None while requests remain. A spent class budget is left out: other routes still answer."""
        spent = [
            reset for name, (left, reset) in self.policies.items() if name.startswith("global") and left <= 0
        ]
        if spent:
            return float(max(spent))
        if self.remaining == 0 and self.reset_seconds is not None:
            return float(self.reset_seconds)
        return None


def _policies(header: str) -> dict[str, tuple[int, int]]:
    """`"global-minute";r=299;t=13, "global-day";r=9999;t=64693` -> {global-minute: (299, 13), ...}."""
    policies: dict[str, tuple[int, int]] = {}
    for match in _POLICY.finditer(header):
        params = dict(part.strip().split("=", 1) for part in match["params"].split(";") if "=" in part)
        left, reset = params.get("r", ""), params.get("t", "")
        if left.isdigit() and reset.isdigit():
            policies[match["name"]] = (int(left), int(reset))
    return policies
