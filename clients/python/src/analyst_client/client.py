"""The hand-written layer over the generated models: key auth, retries, polling and cursor pages."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from typing import Any, Literal, TypeVar, overload

import httpx
from pydantic import BaseModel

from .errors import AnalystError, WaitTimeoutError, error_from_response
from .events import StreamedEvent, read_events, types_param
from .models import (
    Analysis,
    AnalysisSummary,
    AnalystV1AnalysesAnalysisIdCommentsGetResponse,
    AnalystV1AnalysesAnalysisIdGetResponse,
    AnalystV1AnalysesGetResponse,
    AnalystV1AnalysesPostResponse,
    AnalystV1CollectionsCollectionIdGetResponse,
    AnalystV1CollectionsGetResponse,
    AnalystV1ContentJobsGetResponse,
    AnalystV1ContentPostsRefreshPostResponse,
    AnalystV1MeGetResponse,
    AnalystV1MeGetResponseData,
    AnalystV1PostsGetResponse,
    AnalystV1PostsPostIdAnalysisGetResponse,
    AnalystV1TeamGetResponse,
    AnalystV1TeamGetResponseData,
    Collection,
    ContentJob,
    ContentJobSummary,
    Post,
    PostAnalysis,
)
from .models import Data as AnalysisReport
from .rate_limit import RateLimit, retry_after_seconds

__all__ = ["Analyst", "AnalysisReport", "CommentSample", "PREFIX"]

#: Every route is served under this prefix; `Location` headers already carry it.
PREFIX = "/analyst/v1"
#: One page of a comment sample: `data` (rows) and `meta` (`total`, `groups`, `next_cursor`, ...).
CommentSample = AnalystV1AnalysesAnalysisIdCommentsGetResponse

JOB_TERMINAL = frozenset({"completed", "partial", "failed"})
ANALYSIS_TERMINAL = frozenset({"ready", "failed"})
# The spec's defaults when an answer names no wait: 5 s for content jobs, 3 s for analyses.
JOB_POLL_SECONDS = 5.0
ANALYSIS_POLL_SECONDS = 3.0

M = TypeVar("M", bound=BaseModel)
Params = Mapping[str, str | int | float | bool | Sequence[str] | None]


class Analyst:
    """A client of the Analyst API.

    `base_url` is where the API is, as `npm start` prints it (`http://127.0.0.1:8080/analyst/v1`; the
    `/analyst/v1` suffix may be left off); `api_key` is `ak_<id>.<secret>`. Both default to the
    environment: ANALYST_BASE_URL (else http://127.0.0.1:8080) and ANALYST_API_KEY.

    A 429 or 503 is sent again after what `Retry-After` says (else the rate-limit headers' reset,
    else 1, 2, 4 s), at most `max_retries` times; one wait longer than `max_retry_wait` seconds (a
    daily budget resets at UTC midnight) or waits adding up past `max_total_wait` raise
    `RateLimitError` / `ServerError` instead. When the last answer said the key's global budget is
    spent, the next request waits for its reset first (within `max_retry_wait`).
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 3,
        max_retry_wait: float = 60.0,
        max_total_wait: float = 180.0,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        base = base_url or os.environ.get("ANALYST_BASE_URL") or "http://127.0.0.1:8080"
        key = api_key or os.environ.get("ANALYST_API_KEY")
        if not key:
            raise ValueError("no API key: pass api_key= or set ANALYST_API_KEY")
        base = base.rstrip("/")
        if base.endswith(PREFIX):
            base = base[: -len(PREFIX)]
        self.base_url = base
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.max_total_wait = max_total_wait
        #: What the last answer said about the key's budgets; None before the first request.
        self.rate_limit: RateLimit | None = None
        self._sleep = sleep
        self._clock = clock
        self._budget_resets_at: float | None = None
        self._http = httpx.Client(
            base_url=base,
            headers={"authorization": f"Bearer {key}", "user-agent": "analyst-client-python/0.1.0"},
            timeout=timeout,
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Analyst:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- who am I -------------------------------------------------------------------------------

    def me(self) -> AnalystV1MeGetResponseData:
        """The key, its team, scopes and what is left of its rate limits."""
        return self._call(AnalystV1MeGetResponse, "GET", "/me").data

    def team(self) -> AnalystV1TeamGetResponseData:
        """The key's team: plan, credits, analysis settings (score version)."""
        return self._call(AnalystV1TeamGetResponse, "GET", "/team").data

    # --- content ---------------------------------------------------------------------------------

    def add_posts(
        self,
        links: Sequence[str],
        *,
        collections: Sequence[Mapping[str, str]] | None = None,
        tags: Sequence[str] | None = None,
        full_read: bool = False,
        idempotency_key: str | None = None,
    ) -> ContentJob:
        """POST /content/posts/add: a content job (202 `syncing`, or 200 when an identical request's job
        is replayed). `collections` are `{"id": ...}` or `{"name": ..., "type"?: ...}`. Wait for it with
        `wait_for(job)`."""
        body: dict[str, Any] = {"links": list(links)}
        if collections is not None:
            body["collections"] = [dict(c) for c in collections]
        if tags is not None:
            body["tags"] = list(tags)
        if full_read:
            body["capture"] = {"fullRead": True}
        return self._content_job("/content/posts/add", body, idempotency_key)

    def add_account(
        self,
        url: str,
        *,
        filters: Mapping[str, Any] | None = None,
        dry_run: bool = False,
        collections: Sequence[Mapping[str, str]] | None = None,
        tags: Sequence[str] | None = None,
        idempotency_key: str | None = None,
    ) -> ContentJob:
        """POST /content/accounts/add: an account's recent public posts (`filters`: since, until, limit,
        keywords, minViews, minLikes, postType). With `dry_run` the job only discovers and prices."""
        body: dict[str, Any] = {"account": {"url": url}, "dryRun": dry_run}
        if filters is not None:
            body["filters"] = dict(filters)
        if collections is not None:
            body["collections"] = [dict(c) for c in collections]
        if tags is not None:
            body["tags"] = list(tags)
        return self._content_job("/content/accounts/add", body, idempotency_key)

    def refresh_posts(
        self,
        post_ids: Sequence[str] | None = None,
        links: Sequence[str] | None = None,
        *,
        full_read: bool = False,
        idempotency_key: str | None = None,
    ) -> ContentJob:
        """POST /content/posts/refresh: re-fetch and re-score posts already on the team (once per 12 h each)."""
        body: dict[str, Any] = {}
        if post_ids is not None:
            body["postIds"] = list(post_ids)
        if links is not None:
            body["links"] = list(links)
        if full_read:
            body["capture"] = {"fullRead": True}
        return self._content_job("/content/posts/refresh", body, idempotency_key)

    def content_job(self, job_id: str) -> ContentJob:
        """GET /content/jobs/{id}: each read refreshes the job's counts from its posts."""
        return self._call(AnalystV1ContentPostsRefreshPostResponse, "GET", f"/content/jobs/{job_id}").data

    def content_jobs(self, status: str | None = None) -> list[ContentJobSummary]:
        """GET /content/jobs: the team's recent jobs, newest first."""
        return self._call(
            AnalystV1ContentJobsGetResponse, "GET", "/content/jobs", params={"status": status}
        ).data

    # --- posts and collections -------------------------------------------------------------------

    def posts(
        self, *, page_size: int = 100, **filters: str | int | float | Sequence[str] | None
    ) -> Iterator[Post]:
        """Every post of GET /posts matching `filters` (the API's query names: status, platform, tag,
        posted_since, min_score, ...), page after page with the same filters on each cursor request."""
        return self._pages("/posts", {**filters, "limit": page_size})

    def collections(self) -> list[Collection]:
        return self._call(AnalystV1CollectionsGetResponse, "GET", "/collections").data

    def collection(self, collection_id: str) -> Collection:
        return self._call(
            AnalystV1CollectionsCollectionIdGetResponse, "GET", f"/collections/{collection_id}"
        ).data

    def collection_posts(
        self, collection_id: str, *, page_size: int = 100, **filters: str | int | float | Sequence[str] | None
    ) -> Iterator[Post]:
        """Every post of a collection (a campaign includes its groups), as `posts()` pages them."""
        return self._pages(f"/collections/{collection_id}/posts", {**filters, "limit": page_size})

    def post_analysis(self, post_id: str) -> PostAnalysis:
        """GET /posts/{id}/analysis: the analysis stored when the post was scored."""
        return self._call(AnalystV1PostsPostIdAnalysisGetResponse, "GET", f"/posts/{post_id}/analysis").data

    # --- analyses --------------------------------------------------------------------------------

    def create_analysis(
        self,
        *,
        post_ids: Sequence[str] | None = None,
        collection_id: str | None = None,
        posts: Mapping[str, Any] | None = None,
        filters: Mapping[str, Any] | None = None,
        search: str | None = None,
        search_mode: Literal["ai", "keyword"] = "ai",
        min_relevance: float | None = None,
        include: Sequence[str] | None = None,
        wait: bool = True,
        timeout: float = 600.0,
    ) -> Analysis:
        """POST /analyses, then the spec's client loop: a 201 is the ready analysis; a 202 (an AI search,
        or more than 100 posts) is polled at its `Location`, waiting `Retry-After` between polls, until
        `ready` or `failed` (unless `wait=False`). Select by `post_ids`, `collection_id` and/or `posts`
        (GET /posts filters); with neither, the team's complete posts."""
        selection: dict[str, Any] = {}
        if post_ids is not None:
            selection["postIds"] = list(post_ids)
        if collection_id is not None:
            selection["collectionId"] = collection_id
        if posts is not None or not selection:
            selection["posts"] = dict(posts or {})
        body: dict[str, Any] = {"selection": selection}
        if filters is not None:
            body["filters"] = dict(filters)
        if search is not None:
            body["search"] = {"query": search, "mode": search_mode}
            if min_relevance is not None:
                body["search"]["minRelevance"] = min_relevance
        if include is not None:
            body["include"] = list(include)
        response = self._send("POST", PREFIX + "/analyses", json=body, idempotency_key=None)
        analysis = self._parse(AnalystV1AnalysesPostResponse, response).data
        if response.status_code != 202 or not wait:
            return analysis
        location = response.headers.get("location") or f"{PREFIX}/analyses/{analysis.id}"
        first = self._next_wait(response, analysis.poll_after_ms, ANALYSIS_POLL_SECONDS)
        return self._poll_analysis(location, first, timeout)

    def analysis(self, analysis_id: str) -> Analysis | AnalysisReport:
        """GET /analyses/{id}: an analysis (or a saved report's summary)."""
        return self._call(AnalystV1AnalysesAnalysisIdGetResponse, "GET", f"/analyses/{analysis_id}").data

    def analyses(self, *, kind: str | None = None, limit: int | None = None) -> list[AnalysisSummary]:
        """GET /analyses: the team's analyses and reports, newest first."""
        return self._call(
            AnalystV1AnalysesGetResponse, "GET", "/analyses", params={"kind": kind, "limit": limit}
        ).data

    def sample(
        self,
        analysis: Analysis | str,
        *,
        source: Literal["notables", "content", "all"] | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        **buckets: Sequence[str],
    ) -> CommentSample:
        """GET /analyses/{id}/comments: one page of the comments behind an analysis (`buckets`:
        sentiment, content, topic, relevance, consensus, each a list of bucket keys or labels). Take one
        sample per analysis; `meta.next_cursor` pages on when you must."""
        analysis_id = analysis if isinstance(analysis, str) else analysis.id
        return self._sample(f"/analyses/{analysis_id}/comments", source, limit, cursor, buckets)

    def post_sample(
        self,
        post_id: str,
        *,
        source: Literal["notables", "content", "all"] | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        **buckets: Sequence[str],
    ) -> CommentSample:
        """GET /posts/{id}/analysis/comments: one page of a post's comments, as `sample()`."""
        return self._sample(f"/posts/{post_id}/analysis/comments", source, limit, cursor, buckets)

    # --- waiting ---------------------------------------------------------------------------------

    @overload
    def wait_for(self, resource: ContentJob, *, timeout: float = ...) -> ContentJob: ...
    @overload
    def wait_for(self, resource: Analysis, *, timeout: float = ...) -> Analysis: ...

    def wait_for(self, resource: ContentJob | Analysis, *, timeout: float = 600.0) -> ContentJob | Analysis:
        """Polls a content job or an analysis until it is terminal (`completed`, `partial` or `failed` for
        jobs; `ready` or `failed` for analyses) and returns its last state, waiting between polls what each
        answer asks (`Retry-After`, else `pollAfterMs`). Raises `WaitTimeoutError` after `timeout` seconds."""
        if isinstance(resource, ContentJob):
            if resource.status in JOB_TERMINAL:
                return resource
            first = (resource.poll_after_ms / 1000) if resource.poll_after_ms else JOB_POLL_SECONDS
            return self._poll_job(f"{PREFIX}/content/jobs/{resource.id}", first, timeout)
        if resource.status in ANALYSIS_TERMINAL:
            return resource
        first = (resource.poll_after_ms / 1000) if resource.poll_after_ms else ANALYSIS_POLL_SECONDS
        return self._poll_analysis(f"{PREFIX}/analyses/{resource.id}", first, timeout)

    def _poll_job(self, path: str, wait: float, timeout: float) -> ContentJob:
        deadline = self._clock() + timeout
        while True:
            self._wait_until(wait, deadline, path)
            response = self._send("GET", path)
            body = self._parse(AnalystV1ContentPostsRefreshPostResponse, response)
            if body.data.status in JOB_TERMINAL:
                return body.data
            wait = self._next_wait(response, body.meta.poll_after_ms, JOB_POLL_SECONDS)

    def _poll_analysis(self, path: str, wait: float, timeout: float) -> Analysis:
        deadline = self._clock() + timeout
        while True:
            self._wait_until(wait, deadline, path)
            response = self._send("GET", path)
            body = self._parse(AnalystV1AnalysesAnalysisIdGetResponse, response)
            if not isinstance(body.data, Analysis):
                raise AnalystError(
                    response.status_code, "unexpected_report", f"{path} is a saved report, not an analysis"
                )
            if body.data.status in ANALYSIS_TERMINAL:
                return body.data
            wait = self._next_wait(response, body.meta.poll_after_ms, ANALYSIS_POLL_SECONDS)

    def _wait_until(self, wait: float, deadline: float, path: str) -> None:
        if self._clock() + wait > deadline:
            raise WaitTimeoutError(None, "timeout", f"{path} was not finished before the wait's timeout")
        self._sleep(wait)

    @staticmethod
    def _next_wait(response: httpx.Response, poll_after_ms: int | None, default: float) -> float:
        after = retry_after_seconds(response)
        if after is not None:
            return after
        return poll_after_ms / 1000 if poll_after_ms else default

    # --- push ------------------------------------------------------------------------------------

    def iter_events(
        self,
        types: Sequence[str] | None = None,
        last_event_id: str | None = None,
        *,
        team_id: str | None = None,
        max_reconnects: int = 10,
        read_timeout: float = 60.0,
    ) -> Generator[StreamedEvent, None, None]:
        """GET /events: the team's events as they happen (server-sent events), an endless iterator of
        `StreamedEvent` (`.id`, `.event`: a `ContentJobWebhookEvent`, `AnalysisWebhookEvent` or
        `PostUpdatedWebhookEvent`). `types` filters (`["analysis.ready"]`); `last_event_id` resumes after
        the `id` of an earlier stream (within the server's retention window, 24 h by default).

        A dropped connection, a network error, a 503 or `read_timeout` seconds without a byte (the
        server sends a heartbeat every 15 s) is followed by a new connection after the server's
        `retry:` with `Last-Event-ID`, so no event is missed or repeated; `max_reconnects` failures in
        a row raise `AnalystError` code `connection_lost`. Other answers raise at once: 410
        `last_event_id_expired`, 429 `too_many_streams` (`RateLimitError`, with `retry_after`), 400 for
        an unknown type. `close()` the iterator (or drop it after a `break`) to close the stream."""
        return read_events(
            self._http,
            PREFIX + "/events",
            types_param(types, team_id),
            last_event_id=last_event_id,
            sleep=self._sleep,
            max_reconnects=max_reconnects,
            read_timeout=read_timeout,
        )

    # --- HTTP ------------------------------------------------------------------------------------

    def _content_job(self, path: str, body: dict[str, Any], idempotency_key: str | None) -> ContentJob:
        response = self._send("POST", PREFIX + path, json=body, idempotency_key=idempotency_key)
        return self._parse(AnalystV1ContentPostsRefreshPostResponse, response).data

    def _sample(
        self,
        path: str,
        source: str | None,
        limit: int | None,
        cursor: str | None,
        buckets: Mapping[str, Sequence[str]],
    ) -> CommentSample:
        params: dict[str, str | int | None] = {"source": source, "limit": limit, "cursor": cursor}
        params.update({name: _query_value(values) for name, values in buckets.items()})
        return self._call(CommentSample, "GET", path, params=params)

    def _pages(self, path: str, params: Mapping[str, Any]) -> Iterator[Post]:
        cursor: str | None = None
        while True:
            page = self._call(AnalystV1PostsGetResponse, "GET", path, params={**params, "cursor": cursor})
            yield from page.data
            cursor = page.meta.next_cursor if page.meta.has_more else None
            if not cursor:
                return

    def _call(self, model: type[M], method: str, path: str, *, params: Params | None = None) -> M:
        return self._parse(model, self._send(method, PREFIX + path, params=params))

    def _parse(self, model: type[M], response: httpx.Response) -> M:
        if response.is_success:
            return model.model_validate_json(response.content)
        raise error_from_response(response, retry_after_seconds(response))

    def _send(
        self,
        method: str,
        path: str,
        *,
        params: Params | None = None,
        json: Any = None,
        idempotency_key: str | None = None,
    ) -> httpx.Response:
        """One request, sent again on 429 and 503 within the client's bounds; the last answer is returned."""
        headers = {}
        if method == "POST":
            # The same key on every attempt: a POST sent again is answered with the first one's result.
            headers["idempotency-key"] = idempotency_key or str(uuid.uuid4())
        query = {name: _query_value(value) for name, value in (params or {}).items() if value is not None}
        waited = 0.0
        attempt = 0
        while True:
            self._wait_for_spent_budget()
            response = self._http.request(method, path, params=query, json=json, headers=headers)
            self._note_rate_limit(response)
            if response.status_code not in (429, 503):
                return response
            wait = self._retry_wait(response, attempt)
            if (
                attempt >= self.max_retries
                or wait > self.max_retry_wait
                or waited + wait > self.max_total_wait
            ):
                return response
            self._sleep(wait)
            self._budget_resets_at = None  # the wait just taken covers it
            waited += wait
            attempt += 1

    def _retry_wait(self, response: httpx.Response, attempt: int) -> float:
        after = retry_after_seconds(response)
        if after is not None:
            return after
        if response.status_code == 429 and self.rate_limit is not None:
            spent = self.rate_limit.global_exhausted_for()
            if spent is not None:
                return spent
        return float(2**attempt)

    def _note_rate_limit(self, response: httpx.Response) -> None:
        if "x-ratelimit-limit" not in response.headers and "ratelimit" not in response.headers:
            return
        self.rate_limit = RateLimit.from_response(response)
        spent = self.rate_limit.global_exhausted_for()
        self._budget_resets_at = None if spent is None else self._clock() + spent

    def _wait_for_spent_budget(self) -> None:
        """Waits out a global budget the last answer said is spent, rather than spending a request on a 429."""
        if self._budget_resets_at is None:
            return
        wait = self._budget_resets_at - self._clock()
        self._budget_resets_at = None
        if 0 < wait <= self.max_retry_wait:
            self._sleep(wait)


def _query_value(value: str | int | float | bool | Sequence[str]) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return ",".join(value)
