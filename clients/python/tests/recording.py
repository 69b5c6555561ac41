"""Test helpers: a transport that keeps every answer the server gave, and a sleep that only records."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx


class RecordingTransport(httpx.HTTPTransport):
    """Sends to the real server and keeps (method, path, status, headers) of each exchange."""

    def __init__(self) -> None:
        super().__init__()
        self.exchanges: list[tuple[str, str, int, httpx.Headers]] = []
        self.request_headers: list[httpx.Headers] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        self.exchanges.append((request.method, request.url.path, response.status_code, response.headers))
        self.request_headers.append(request.headers)
        return response


@dataclass
class SleepRecorder:
    """Stands in for time.sleep: keeps each wait; `real` also sleeps it."""

    real: bool = False
    waits: list[float] = field(default_factory=list)

    def __call__(self, seconds: float) -> None:
        import time

        self.waits.append(seconds)
        if self.real:
            time.sleep(seconds)
