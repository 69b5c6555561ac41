"""iter_events against a local server writing SSE frames: frames cut across chunks, heartbeats,
resuming with Last-Event-ID after a dropped connection, 410/429 raised, 503 retried, and the
frame parser on its own."""

from __future__ import annotations

import json
import threading
import time
from datetime import datetime, timezone
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import islice
from typing import Any

import pytest

from analyst_client import AnalystError, RateLimitError
from analyst_client.client import Analyst
from analyst_client.events import ServerSentEvent, SseParser
from analyst_client.models import AnalysisWebhookEvent, PostUpdatedWebhookEvent

from .conftest import Server
from .recording import SleepRecorder

KEY = "ak_stream01.secret"
AT = "2026-03-10T12:00:00.000Z"


def analysis_event(n: int, type_: str = "analysis.ready") -> dict[str, Any]:
    return {
        "id": f"evt_{n}",
        "type": type_,
        "createdAt": AT,
        "teamId": "tm_1",
        "data": {
            "object": "analysis",
            "id": f"an_{n}",
            "status": "ready",
            "postCount": 1,
            "totalComments": 10,
            "matchedComments": 4,
            "error": None,
            "completedAt": AT,
            "path": f"/analyses/an_{n}",
        },
    }


POST_EVENT = {
    "id": "evt_p",
    "type": "post.updated",
    "createdAt": AT,
    "teamId": "tm_1",
    "data": {
        "object": "post",
        "id": "p_1",
        "status": "complete",
        "dataVersion": 2,
        "reason": "refreshed",
        "totalComments": 52,
        "jobId": "cj_5",
        "updatedAt": AT,
        "path": "/posts/p_1/analysis",
    },
}


def frame(position: int, event: dict[str, Any]) -> str:
    return f"id: {position}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n"


Script = Callable[[BaseHTTPRequestHandler], None]


def stream(*pieces: str, hold: threading.Event | None = None) -> Script:
    """A 200 event stream writing each piece as its own flushed chunk; held open until `hold` is set."""

    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("content-type", "text/event-stream; charset=utf-8")
        handler.end_headers()
        for piece in pieces:
            handler.wfile.write(piece.encode())
            handler.wfile.flush()
            time.sleep(0.005)
        if hold is not None:
            hold.wait(5)

    return answer


def error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Script:
    def answer(handler: BaseHTTPRequestHandler) -> None:
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        handler.send_response(status)
        handler.send_header("content-type", "application/json")
        handler.send_header("content-length", str(len(body)))
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(body)

    return answer


def drop(handler: BaseHTTPRequestHandler) -> None:
    """Closes the connection before answering: a network error for the client."""
    handler.close_connection = True
    handler.connection.close()


class ScriptedServer:
    """Answers its n-th request with the n-th script entry (the last one repeats); keeps what each asked."""

    def __init__(self, *script: Script) -> None:
        self.requests: list[dict[str, str | None]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                outer.requests.append(
                    {
                        "path": self.path,
                        "authorization": self.headers.get("authorization"),
                        "accept": self.headers.get("accept"),
                        "last-event-id": self.headers.get("last-event-id"),
                    }
                )
                script[min(len(outer.requests), len(script)) - 1](self)

            def log_message(self, *_: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.http.server_address[1]}"

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture()
def scripted() -> Iterator[Callable[..., ScriptedServer]]:
    servers: list[ScriptedServer] = []

    def start(*script: Script) -> ScriptedServer:
        servers.append(ScriptedServer(*script))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def test_yields_typed_events_with_their_ids_from_frames_cut_across_chunks(
    scripted: Callable[..., ScriptedServer],
) -> None:
    body = "retry: 3000\n\n" + frame(11, analysis_event(1)) + ": heartbeat\n\n" + frame(12, POST_EVENT)
    hold = threading.Event()
    server = scripted(stream(body[:17], body[17:60], body[60:141], body[141:], hold=hold))
    with Analyst(server.base_url, KEY) as analyst:
        got = list(islice(analyst.iter_events(types=["analysis.ready", "post.updated"]), 2))
    hold.set()
    assert [item.id for item in got] == ["11", "12"]
    first, second = got[0].event, got[1].event
    assert isinstance(first, AnalysisWebhookEvent) and first.data.matched_comments == 4
    assert (first.id, first.type, first.team_id, first.data.id, first.data.path) == (
        "evt_1",
        "analysis.ready",
        "tm_1",
        "an_1",
        "/analyses/an_1",
    )
    assert first.created_at == datetime(2026, 3, 10, 12, tzinfo=timezone.utc)
    assert isinstance(second, PostUpdatedWebhookEvent) and second.data.reason == "refreshed"
    assert server.requests == [
        {
            "path": "/analyst/v1/events?types=analysis.ready%2Cpost.updated",
            "authorization": f"Bearer {KEY}",
            "accept": "text/event-stream",
            "last-event-id": None,
        }
    ]


def test_resumes_with_last_event_id_after_a_dropped_connection_without_missing_or_repeating(
    scripted: Callable[..., ScriptedServer],
) -> None:
    hold = threading.Event()
    server = scripted(
        stream("retry: 1500\n\n" + frame(21, analysis_event(1)) + frame(22, analysis_event(2))),  # then it ends
        drop,  # the first reconnection fails
        stream(frame(23, analysis_event(3)) + frame(24, analysis_event(4)), hold=hold),
    )
    sleeps = SleepRecorder()
    with Analyst(server.base_url, KEY, sleep=sleeps) as analyst:
        got = list(islice(analyst.iter_events(last_event_id="20", team_id="tm_sub"), 4))
    hold.set()
    assert [(item.id, item.event.id) for item in got] == [
        ("21", "evt_1"),
        ("22", "evt_2"),
        ("23", "evt_3"),
        ("24", "evt_4"),
    ]
    assert [(r["path"], r["last-event-id"]) for r in server.requests] == [
        ("/analyst/v1/events?teamId=tm_sub", "20"),
        ("/analyst/v1/events?teamId=tm_sub", "22"),
        ("/analyst/v1/events?teamId=tm_sub", "22"),
    ]
    assert sleeps.waits == [1.5, 1.5]


def test_raises_410_and_429_at_once(scripted: Callable[..., ScriptedServer]) -> None:
    server = scripted(
        error(410, "last_event_id_expired", "Last-Event-ID 5 is older than the retention window"),
        error(429, "too_many_streams", "This key has 5 open streams", {"retry-after": "7"}),
    )
    with Analyst(server.base_url, KEY, sleep=SleepRecorder()) as analyst:
        with pytest.raises(AnalystError) as expired:
            next(analyst.iter_events(last_event_id="5"))
        assert (expired.value.status, expired.value.code) == (410, "last_event_id_expired")
        assert expired.value.message == "Last-Event-ID 5 is older than the retention window"
        with pytest.raises(RateLimitError) as too_many:
            next(analyst.iter_events())
        assert (too_many.value.code, too_many.value.retry_after) == ("too_many_streams", 7.0)
    assert len(server.requests) == 2


def test_retries_a_503_and_gives_up_after_max_reconnects_in_a_row(
    scripted: Callable[..., ScriptedServer],
) -> None:
    server = scripted(error(503, "unavailable", "notifier starting"))
    sleeps = SleepRecorder()
    with Analyst(server.base_url, KEY, sleep=sleeps) as analyst:
        with pytest.raises(AnalystError) as lost:
            next(analyst.iter_events(max_reconnects=2))
    assert lost.value.code == "connection_lost"
    assert len(server.requests) == 3
    assert sleeps.waits == [3.0, 3.0]


def test_a_silent_connection_past_the_read_timeout_is_dropped_and_resumed(
    scripted: Callable[..., ScriptedServer],
) -> None:
    hold = threading.Event()
    server = scripted(
        stream(frame(31, analysis_event(1)), hold=hold),  # then silence: no heartbeat
        stream(frame(32, analysis_event(2)), hold=hold),
    )
    with Analyst(server.base_url, KEY, sleep=SleepRecorder()) as analyst:
        got = list(islice(analyst.iter_events(read_timeout=0.3), 2))
    hold.set()
    assert [item.id for item in got] == ["31", "32"]
    assert server.requests[1]["last-event-id"] == "31"


STREAM = (
    "\ufeffretry: 3000\n\n"
    ": heartbeat\n\n"
    'id: 41\nevent: analysis.ready\ndata: {"a":1}\n\n'
    "id: 42\r\nevent: post.updated\r\ndata: line1\r\ndata: line2\r\n\r\n"
    "id: 43\rdata:no-space\r\r"
    "id: 44\n\n"
    "data: after-44\n\n"
)
EXPECTED = [
    ServerSentEvent("41", "analysis.ready", '{"a":1}'),
    ServerSentEvent("42", "post.updated", "line1\nline2"),
    ServerSentEvent("43", "message", "no-space"),
    ServerSentEvent("44", "message", "after-44"),
]


def test_the_parser_gives_the_same_events_however_the_stream_is_cut() -> None:
    whole = SseParser()
    assert whole.push(STREAM) == EXPECTED
    assert (whole.retry_seconds, whole.last_event_id) == (3.0, "44")
    for cut in range(1, len(STREAM)):
        parser = SseParser()
        assert parser.push(STREAM[:cut]) + parser.push(STREAM[cut:]) == EXPECTED
    one_by_one = SseParser()
    assert [event for char in STREAM for event in one_by_one.push(char)] == EXPECTED


def test_against_the_server_an_analysis_made_after_the_stream_opened_arrives_and_resumes(
    analyst: Analyst, server: Server
) -> None:
    post_ids = [post.id for post in islice(analyst.posts(), 2)]
    made: list[str] = []

    def make_analysis() -> None:
        with Analyst(server.base_url, server.key) as other:
            made.append(other.create_analysis(post_ids=post_ids).id)

    # The stream opens on the first next(); the analysis is made once it is open.
    timer = threading.Timer(1.0, make_analysis)
    timer.start()
    stream = analyst.iter_events(types=["analysis.ready"])
    first = next(stream)
    stream.close()
    timer.join()
    assert isinstance(first.event, AnalysisWebhookEvent)
    assert (first.event.type, first.event.data.id, first.event.data.path) == (
        "analysis.ready",
        made[0],
        f"/analyses/{made[0]}",
    )
    second = analyst.create_analysis(post_ids=post_ids).id
    resumed = analyst.iter_events(types=["analysis.ready"], last_event_id=first.id)
    after = next(resumed)
    resumed.close()
    assert after.event.data.id == second and int(after.id) > int(first.id)
    with pytest.raises(AnalystError) as unknown:
        next(analyst.iter_events(types=["no.such"]))
    assert unknown.value.status == 400
