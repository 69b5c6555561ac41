"""Retries and rate limits: real 429s from the server (a fresh team's AI-search class allows 2 a minute),
and 429/503 answers put in front of the real server to check the waits the client chooses."""

from __future__ import annotations

from collections.abc import Callable
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone

import httpx
import pytest

from analyst_client import Analyst, RateLimit, RateLimitError, ServerError
from analyst_client.rate_limit import retry_after_seconds

from .conftest import Server
from .recording import RecordingTransport, SleepRecorder


@pytest.fixture()
def fresh_key(server: Server) -> str:
    """A key of a new team (no posts), so its rate budgets start full whatever other tests spent."""
    team = server.admin("POST", "/teams", {"name": "Rate limited", "plan": "enterprise"})["data"]
    key: str = server.admin("POST", f"/teams/{team['id']}/keys", {"name": "python client"})["data"]["key"]
    return key


def spend_ai_search_budget(analyst: Analyst) -> None:
    """Two AI searches (the class's per-minute cap); on a team with no posts each is a 400, still counted."""
    for _ in range(2):
        with pytest.raises(Exception) as empty:
            analyst.create_analysis(search="anything")
        assert getattr(empty.value, "code", None) == "empty_selection"


def test_a_429_beyond_the_longest_wait_is_raised_with_its_class(server: Server, fresh_key: str) -> None:
    sleeps = SleepRecorder()
    with Analyst(server.base_url, fresh_key, sleep=sleeps, max_retry_wait=0.5) as analyst:
        spend_ai_search_budget(analyst)
        with pytest.raises(RateLimitError) as limited:
            analyst.create_analysis(search="anything")
    error = limited.value
    assert (error.status, error.code, error.rate_class) == (429, "rate_limited", "analysis_search")
    assert error.retry_after is not None and 0 < error.retry_after <= 60
    assert "analysis_search" in error.message
    assert sleeps.waits == []


def test_a_429_is_sent_again_after_its_retry_after_then_raised_when_retries_run_out(
    server: Server, fresh_key: str
) -> None:
    transport = RecordingTransport()
    sleeps = SleepRecorder()  # records without sleeping: each retry meets the same spent minute
    with Analyst(server.base_url, fresh_key, transport=transport, sleep=sleeps, max_retries=2) as analyst:
        spend_ai_search_budget(analyst)
        with pytest.raises(RateLimitError):
            analyst.create_analysis(search="anything")
    limited = [e for e in transport.exchanges if e[2] == 429]
    assert len(limited) == 3  # the request and its two retries
    assert sleeps.waits == [float(e[3]["retry-after"]) for e in limited[:2]]
    # Every attempt of one POST carries the same Idempotency-Key.
    keys = {
        transport.request_headers[i]["idempotency-key"]
        for i, e in enumerate(transport.exchanges)
        if e[2] == 429
    }
    assert len(keys) == 1


def flaky(answers: list[httpx.Response]) -> Callable[[httpx.Request], httpx.Response]:
    """Answers with `answers` first, then passes requests to the real server."""
    real = httpx.HTTPTransport()

    def handle(request: httpx.Request) -> httpx.Response:
        if answers:
            return answers.pop(0)
        return real.handle_request(request)

    return handle


def test_503s_back_off_then_the_real_answer_is_used(server: Server) -> None:
    sleeps = SleepRecorder()
    answers = [httpx.Response(503), httpx.Response(503), httpx.Response(429, headers={"retry-after": "7"})]
    with Analyst(
        server.base_url, server.key, transport=httpx.MockTransport(flaky(answers)), sleep=sleeps
    ) as analyst:
        assert analyst.me().team.name == "Demo Team"
    assert sleeps.waits == [1.0, 2.0, 7.0]


def test_waits_are_bounded_in_total(server: Server) -> None:
    sleeps = SleepRecorder()
    answers = [httpx.Response(503, headers={"retry-after": "40"}) for _ in range(3)]
    client = Analyst(
        server.base_url,
        server.key,
        transport=httpx.MockTransport(flaky(answers)),
        sleep=sleeps,
        max_total_wait=100,
    )
    with client as analyst, pytest.raises(ServerError) as failed:
        analyst.me()
    assert sleeps.waits == [40.0, 40.0]  # a third 40 s would pass 100 s in all
    assert failed.value.status == 503 and failed.value.retry_after == 40.0


def test_a_spent_global_minute_is_waited_out_before_the_next_request(server: Server) -> None:
    sleeps = SleepRecorder()
    spent = {
        "x-ratelimit-limit": "300",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": "12",
        "ratelimit": '"global-minute";r=0;t=12, "global-day";r=9000;t=50000',
    }
    # A real answer with its rate headers replaced by a spent minute's, then the real server.
    real = httpx.HTTPTransport()
    calls = []

    def handle(request: httpx.Request) -> httpx.Response:
        response = real.handle_request(request)
        calls.append(request.url.path)
        if len(calls) == 1:
            response.headers.update(spent)
        return response

    with Analyst(server.base_url, server.key, transport=httpx.MockTransport(handle), sleep=sleeps) as analyst:
        analyst.me()
        assert analyst.rate_limit is not None and analyst.rate_limit.global_exhausted_for() == 12
        assert sleeps.waits == []
        analyst.team()
    assert sleeps.waits == [pytest.approx(12.0, abs=0.5)]  # less the time the first answer took


def test_rate_limit_headers_and_retry_after_are_read() -> None:
    request = httpx.Request("GET", "http://analyst.test/analyst/v1/me")
    limits = RateLimit.from_response(
        httpx.Response(
            200,
            request=request,
            headers={
                "x-ratelimit-remaining": "5",
                "x-ratelimit-reset": "30",
                "x-ratelimit-class": "analysis_search",
                "x-ratelimit-class-remaining": "0",
                "ratelimit": '"global-minute";r=5;t=30, "analysis_search-minute";r=0;t=30, "global-day";r=0;t=4000',
            },
        )
    )
    assert limits.policies == {
        "global-minute": (5, 30),
        "analysis_search-minute": (0, 30),
        "global-day": (0, 4000),
    }
    assert (limits.rate_class, limits.class_remaining) == ("analysis_search", 0)
    # The spent day outlasts the minute; a spent class alone does not stop other routes.
    assert limits.global_exhausted_for() == 4000
    assert (
        RateLimit.from_response(
            httpx.Response(200, headers={"ratelimit": '"analysis_search-minute";r=0;t=30'})
        ).global_exhausted_for()
        is None
    )

    now = datetime(2026, 11, 29, 4, 0, 0, tzinfo=timezone.utc)
    in_90s = format_datetime(now + timedelta(seconds=90), usegmt=True)
    assert (
        retry_after_seconds(httpx.Response(429, headers={"retry-after": in_90s}), now=now.timestamp()) == 90
    )
    assert retry_after_seconds(httpx.Response(429, headers={"retry-after": "3"})) == 3
    assert retry_after_seconds(httpx.Response(429, headers={"retry-after": "soon"})) is None
    assert retry_after_seconds(httpx.Response(429)) is None
