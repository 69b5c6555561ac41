"""`GET /events` (server-sent events): the frame parser and the reconnecting reader behind
`Analyst.iter_events`."""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field

import httpx

from .errors import AnalystError, error_from_response
from .models import (
    AnalysisWebhookEvent,
    ContentJobWebhookEvent,
    PostUpdatedWebhookEvent,
    WebhookEvent,
    WebhookPingEvent,
)
from .rate_limit import retry_after_seconds

__all__ = ["ServerSentEvent", "SseParser", "StreamedEvent", "read_events"]

#: One event's model, told apart by its `type`.
AnyWebhookEvent = ContentJobWebhookEvent | AnalysisWebhookEvent | PostUpdatedWebhookEvent | WebhookPingEvent

#: The server's `retry:` (in seconds) until it sends one (it starts every stream with `retry: 3000`).
DEFAULT_RETRY_SECONDS = 3.0

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class ServerSentEvent:
    """One dispatched event: the stream's last `id:`, `event:` (`message` when none) and the joined `data:` lines."""

    id: str
    event: str
    data: str


@dataclass(frozen=True)
class StreamedEvent:
    """One event of `GET /events`: `id` is the frame's `id:` (a log position), to resume after it."""

    id: str
    event: AnyWebhookEvent


@dataclass
class SseParser:
    """Incremental `text/event-stream` parser (the HTML standard's interpretation): fed text cut
    anywhere, it returns the events each piece completes; comments (`: heartbeat`) are skipped."""

    last_event_id: str = ""
    #: The last valid `retry:`, in seconds; None before the server sent one.
    retry_seconds: float | None = None
    _buffer: str = ""
    _started: bool = False
    _ended_with_cr: bool = False
    _event_type: str = ""
    _data: list[str] = field(default_factory=list)

    def push(self, chunk: str) -> list[ServerSentEvent]:
        text = chunk
        if not self._started and text:
            self._started = True
            text = text.removeprefix("\ufeff")
        # A `\r\n` cut between two chunks: the `\r` ended the line already.
        if self._ended_with_cr and text.startswith("\n"):
            text = text[1:]
        self._ended_with_cr = text.endswith("\r")
        lines = _LINE_BREAK.split(self._buffer + text)
        self._buffer = lines.pop()
        events = []
        for line in lines:
            event = self._line(line)
            if event is not None:
                events.append(event)
        return events

    def _line(self, line: str) -> ServerSentEvent | None:
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "event":
            self._event_type = value
        elif name == "data":
            self._data.append(value)
        elif name == "id" and "\0" not in value:
            self.last_event_id = value
        elif name == "retry" and value.isdigit():
            self.retry_seconds = int(value) / 1000
        return None

    def _dispatch(self) -> ServerSentEvent | None:
        data, event_type = self._data, self._event_type
        self._data, self._event_type = [], ""
        if not data:
            return None
        return ServerSentEvent(self.last_event_id, event_type or "message", "\n".join(data))


class _Reconnect(Exception):
    """A dropped or refused connection that a later one may overcome."""


def read_events(
    http: httpx.Client,
    path: str,
    params: dict[str, str],
    *,
    last_event_id: str | None,
    sleep: Callable[[float], None],
    max_reconnects: int,
    read_timeout: float,
) -> Generator[StreamedEvent, None, None]:
    """The stream's events in order across reconnections (see `Analyst.iter_events`)."""
    resume_after = last_event_id or ""
    retry = DEFAULT_RETRY_SECONDS
    failures = 0
    while True:
        parser = SseParser()
        try:
            headers = {"accept": "text/event-stream"}
            if resume_after:
                headers["last-event-id"] = resume_after
            timeout = httpx.Timeout(http.timeout.connect, read=read_timeout)
            with http.stream("GET", path, params=params, headers=headers, timeout=timeout) as response:
                if response.status_code == 503:
                    raise _Reconnect(f"GET {path} answered 503")
                if response.status_code != 200:
                    response.read()
                    raise error_from_response(response, retry_after_seconds(response))
                failures = 0
                for chunk in response.iter_text():
                    for frame in parser.push(chunk):
                        resume_after = frame.id
                        event = WebhookEvent.model_validate_json(frame.data).root
                        yield StreamedEvent(frame.id, event)
                    # An `id:` on a frame without data still moves the resume point.
                    resume_after = parser.last_event_id or resume_after
                    if parser.retry_seconds is not None:
                        retry = parser.retry_seconds
            raise _Reconnect(f"GET {path} ended")
        except (_Reconnect, httpx.TransportError) as dropped:
            failures += 1
            if failures > max_reconnects:
                raise AnalystError(
                    None, "connection_lost", f"{dropped} ({failures} connections in a row failed)"
                ) from dropped
            sleep(retry)


def types_param(types: Sequence[str] | None, team_id: str | None) -> dict[str, str]:
    """The query of `GET /events`: `types` comma-separated, an Enterprise key's `teamId`."""
    params: dict[str, str] = {}
    if types:
        params["types"] = ",".join(types)
    if team_id:
        params["teamId"] = team_id
    return params
