"""A receiver's check of a webhook delivery's `Analyst-Signature` header.

`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one `v1` per active secret (after a
rotation the replaced secret signs for 24 h more, so either secret verifies). The same rules as the
TypeScript client's `verifyWebhookSignature`.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["DEFAULT_TOLERANCE_SECONDS", "SignatureCheck", "verify_webhook_signature"]

#: How far the signed time may be from the receiver's clock, either way, by default: older is a replay.
DEFAULT_TOLERANCE_SECONDS = 300

_SIGNATURE_HEX = re.compile(r"^[0-9a-f]{64}$")
_TIMESTAMP = re.compile(r"^\d{1,12}$")

Reason = Literal["missing", "malformed", "stale", "mismatch"]


@dataclass(frozen=True)
class SignatureCheck:
    """The verdict: true when the body was signed with the secret within the tolerance; else `reason`."""

    ok: bool
    #: The signed time (unix seconds) when the header could be read.
    timestamp: int | None = None
    reason: Reason | None = None

    def __bool__(self) -> bool:
        return self.ok


def _parse(header: str) -> tuple[int, list[str]] | None:
    timestamp: int | None = None
    signatures: list[str] = []
    for part in header.split(","):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key:
            return None
        if key == "t":
            if timestamp is not None or not _TIMESTAMP.match(value):
                return None
            timestamp = int(value)
        elif key == "v1":
            if not _SIGNATURE_HEX.match(value):
                return None
            signatures.append(value)
        # Other schemes (a later v2) are skipped, so a receiver keeps working when one is added.
    if timestamp is None or not signatures:
        return None
    return timestamp, signatures


def verify_webhook_signature(
    raw_body: bytes | str,
    header: str | Sequence[str] | None,
    secret: str,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    *,
    now: float | None = None,
) -> SignatureCheck:
    """Whether `raw_body` (the bytes received, before any JSON parsing) was signed with `secret`
    (`whsec_...`) within `tolerance_seconds` of `now` (default: the clock). A header a proxy repeated
    arrives as a list: its values read as one comma-separated header. Each `v1` is compared in
    constant time (`hmac.compare_digest`); any one matching is enough."""
    value = header if isinstance(header, str) else ",".join(header) if header is not None else ""
    if value == "":
        return SignatureCheck(False, reason="missing")
    parsed = _parse(value)
    if parsed is None:
        return SignatureCheck(False, reason="malformed")
    timestamp, signatures = parsed
    clock = time.time() if now is None else now
    if abs(int(clock) - timestamp) > tolerance_seconds:
        return SignatureCheck(False, timestamp, "stale")
    body = raw_body.encode() if isinstance(raw_body, str) else raw_body
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    if any(hmac.compare_digest(expected, signature) for signature in signatures):
        return SignatureCheck(True, timestamp)
    return SignatureCheck(False, timestamp, "mismatch")
