"""verify_webhook_signature: known answers (openssl), rotation, forgeries, stale times, malformed headers."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from analyst_client import SignatureCheck, verify_webhook_signature

BODY = '{"id":"evt_1","type":"post.updated"}'
T = 1_700_000_000
#: HMAC-SHA256 of `1700000000.<BODY>` with `whsec_known`, from `openssl dgst -sha256 -hmac whsec_known`
#: (the TypeScript client's tests check the same value).
KNOWN = "f60cdd123661eeff5386e430ff5ceca794020b2e38425fcd07c91499a27cf5a2"
NOW = T + 10


def sign(*secrets: str, body: str = BODY, t: int = T) -> str:
    """The header as the server writes it: one v1 per active secret, newest first."""
    v1 = [f"v1={hmac.new(s.encode(), f'{t}.{body}'.encode(), hashlib.sha256).hexdigest()}" for s in secrets]
    return ",".join([f"t={t}", *v1])


def test_the_helper_writes_the_known_answer() -> None:
    assert sign("whsec_known") == f"t={T},v1={KNOWN}"


def test_accepts_the_raw_body_as_bytes_or_text_within_the_tolerance() -> None:
    header = f"t={T},v1={KNOWN}"
    assert verify_webhook_signature(BODY, header, "whsec_known", now=NOW) == SignatureCheck(True, T)
    assert verify_webhook_signature(BODY.encode(), header, "whsec_known", now=NOW)


def test_after_a_rotation_either_secret_verifies_and_no_other() -> None:
    header = sign("whsec_new", "whsec_known")
    assert verify_webhook_signature(BODY, header, "whsec_new", now=NOW).ok
    assert verify_webhook_signature(BODY, header, "whsec_known", now=NOW).ok
    assert verify_webhook_signature(BODY, header, "whsec_other", now=NOW) == SignatureCheck(False, T, "mismatch")


@pytest.mark.parametrize(
    ("body", "header", "secret"),
    [
        (BODY.replace("post.updated", "analysis.ready"), f"t={T},v1={KNOWN}", "whsec_known"),  # forged body
        (BODY, f"t={T},v1={KNOWN[:-1]}{'1' if KNOWN.endswith('0') else '0'}", "whsec_known"),  # forged signature
        (BODY, f"t={T},v1={KNOWN}", "whsec_wrong"),
        (BODY, f"t={T + 5},v1={KNOWN}", "whsec_known"),  # a fresher time under the old signature
    ],
)
def test_rejects_forgeries(body: str, header: str, secret: str) -> None:
    check = verify_webhook_signature(body, header, secret, now=NOW)
    assert not check and check.reason == "mismatch"


def test_rejects_a_time_outside_the_tolerance_either_way() -> None:
    header = f"t={T},v1={KNOWN}"
    assert verify_webhook_signature(BODY, header, "whsec_known", now=T + 300).ok
    assert verify_webhook_signature(BODY, header, "whsec_known", now=T + 301).reason == "stale"
    assert verify_webhook_signature(BODY, header, "whsec_known", now=T - 301).reason == "stale"
    assert verify_webhook_signature(BODY, header, "whsec_known", 30, now=T + 60).reason == "stale"
    assert verify_webhook_signature(BODY, header, "whsec_known", 7200, now=T + 3600).ok


@pytest.mark.parametrize(
    "header",
    [
        "garbage",
        f"v1={KNOWN}",
        f"t={T}",
        f"t=abc,v1={KNOWN}",
        f"t={T},t={T},v1={KNOWN}",
        f"t={T},v1={KNOWN[2:]}",
        f"t={T},v1={KNOWN.upper()}",
        f"t={T},v1={'z' * 64}",
        f"t={T},,v1={KNOWN}",
    ],
)
def test_rejects_a_malformed_header(header: str) -> None:
    assert verify_webhook_signature(BODY, header, "whsec_known", now=NOW).reason == "malformed"


def test_a_missing_header_a_skipped_scheme_and_a_header_repeated_by_a_proxy() -> None:
    assert verify_webhook_signature(BODY, None, "s", now=NOW).reason == "missing"
    assert verify_webhook_signature(BODY, "", "s", now=NOW).reason == "missing"
    assert verify_webhook_signature(BODY, f"t={T},v0=abc,v1={KNOWN}", "whsec_known", now=NOW).ok
    assert verify_webhook_signature(BODY, [f"t={T}", f"v1={KNOWN}"], "whsec_known", now=NOW).ok
