"""The client against the standalone server: the demo team's posts, content jobs, analyses, samples, errors."""

from __future__ import annotations

import pytest

from analyst_client import (
    Analysis,
    Analyst,
    AuthenticationError,
    BadRequestError,
    ContentJob,
    NotFoundError,
)

from .conftest import DEMO_POSTS, Server
from .recording import RecordingTransport, SleepRecorder

#: A link the simulated provider gives 99 comments (deterministic per link).
NEW_LINK = "https://www.youtube.com/watch?v=pyClient000"
MIX_KEYS = (
    "positive_percent",
    "lean_positive_percent",
    "neutral_percent",
    "lean_negative_percent",
    "negative_percent",
)


def assert_mix_adds_up(mix: object) -> None:
    values = [getattr(mix, key) for key in MIX_KEYS]
    assert all(0 <= v <= 100 for v in values)
    assert sum(values) == pytest.approx(100, abs=0.6)


def test_me_names_the_demo_team_and_the_key(analyst: Analyst) -> None:
    me = analyst.me()
    assert me.team.name == "Demo Team"
    assert me.key.id == "ak_pyclient1"
    assert analyst.rate_limit is not None and analyst.rate_limit.limit == 300
    assert analyst.rate_limit.policies["global-minute"][0] == analyst.rate_limit.remaining


def test_posts_iterates_every_cursor_page_once(analyst: Analyst) -> None:
    small_pages = [post.id for post in analyst.posts(page_size=7)]
    assert len(small_pages) >= DEMO_POSTS
    assert len(set(small_pages)) == len(small_pages)
    assert set(small_pages) == {post.id for post in analyst.posts(page_size=100)}
    # The same filters ride on every cursor request: 9 pages of 7 would drift without them.
    youtube = [post.platform for post in analyst.posts(page_size=3, platform=["youtube"])]
    assert youtube and set(youtube) == {"youtube"}


def test_collection_analysis_covers_exactly_the_collection(analyst: Analyst) -> None:
    campaign = next(c for c in analyst.collections() if c.name == "Spring Launch")
    assert analyst.collection(campaign.id).post_count == campaign.post_count
    member_ids = {post.id for post in analyst.collection_posts(campaign.id, page_size=4)}
    assert len(member_ids) == campaign.post_count == 30

    analysis = analyst.create_analysis(collection_id=campaign.id)
    assert analysis.status == "ready" and analysis.kind == "snapshot"
    assert analysis.post_count == 30 and set(analysis.post_ids) == member_ids
    assert analysis.scope is not None and analysis.comment_analysis is not None
    assert analysis.scope.matched_comments == analysis.comment_analysis.total_comments > 0
    for dimension in ("sentiment", "relevance", "consensus", "content", "topic"):
        assert_mix_adds_up(getattr(analysis.comment_analysis.mix, dimension))
    again = analyst.analysis(analysis.id)
    assert isinstance(again, Analysis) and again.comment_analysis == analysis.comment_analysis


def test_add_posts_then_wait_for_the_job(server: Server) -> None:
    sleeps = SleepRecorder(real=True)
    with Analyst(server.base_url, server.key, sleep=sleeps) as analyst:
        job = analyst.add_posts([NEW_LINK], tags=["#python-client"], idempotency_key="python-client-add-1")
        assert isinstance(job, ContentJob) and job.status == "syncing" and job.counts.accepted == 1
        replayed = analyst.add_posts(
            [NEW_LINK], tags=["#python-client"], idempotency_key="python-client-add-1"
        )
        assert replayed.id == job.id

        done = analyst.wait_for(job)
        assert done.id == job.id and done.status == "completed"
        assert done.counts.complete == 1 and done.counts.syncing == 0
        # Polled at the job's pollAfterMs (5 s) or the Retry-After the server sent.
        assert sleeps.waits and sleeps.waits[0] == 5.0
        [post] = analyst.posts(link=NEW_LINK)
        assert post.id == done.accepted[0].post_id
        assert post.total_comments == 99 and "python-client" in post.tags and post.status == "complete"
        assert analyst.wait_for(done) is done  # terminal: no request


def test_ai_search_follows_the_202_location(server: Server) -> None:
    transport = RecordingTransport()
    sleeps = SleepRecorder(real=True)
    with Analyst(server.base_url, server.key, transport=transport, sleep=sleeps) as analyst:
        # The two smallest posts: an AI search reads every selected comment.
        post_ids = [post.id for post in sorted(analyst.posts(), key=lambda p: p.total_comments)[:2]]
        analysis = analyst.create_analysis(post_ids=post_ids, search="too expensive")
    assert analysis.status == "ready" and analysis.kind == "search"
    assert analysis.search is not None and analysis.search.query == "too expensive"
    assert analysis.post_count == 2 and set(analysis.post_ids) == set(post_ids)
    created = next(e for e in transport.exchanges if e[0] == "POST")
    assert created[2] == 202
    polls = [e for e in transport.exchanges if e[0] == "GET" and e[1].startswith("/analyst/v1/analyses/")]
    assert polls and polls[0][1] == created[3]["location"] and polls[-1][2] == 200
    # The first wait is the 202's Retry-After; each later one what the previous poll asked.
    assert sleeps.waits[0] == float(created[3]["retry-after"])
    assert len(sleeps.waits) == len(polls)


def test_sample_narrows_to_a_bucket_and_pages_on(analyst: Analyst) -> None:
    analysis = analyst.create_analysis(posts={"platform": ["youtube", "reddit"]})
    first = analyst.sample(analysis, source="all", limit=5, sentiment=["negative", "lean_negative"])
    assert 0 < len(first.data) <= 5
    assert {row.buckets.sentiment for row in first.data} <= {"negative", "lean_negative"}
    assert first.meta.filters is not None and first.meta.total >= len(first.data)
    if first.meta.has_more:
        second = analyst.sample(
            analysis,
            source="all",
            limit=5,
            sentiment=["negative", "lean_negative"],
            cursor=first.meta.next_cursor,
        )
        assert not {r.comment_id for r in first.data} & {r.comment_id for r in second.data}
    # One bucket may be given as a plain string.
    only_negative = analyst.sample(analysis, limit=5, sentiment="negative")
    assert only_negative.data and {row.buckets.sentiment for row in only_negative.data} == {"negative"}
    post_rows = analyst.post_sample(analysis.post_ids[0], limit=3)
    assert {row.post_id for row in post_rows.data} == {analysis.post_ids[0]}


def test_errors_carry_status_code_and_message(server: Server, analyst: Analyst) -> None:
    with pytest.raises(BadRequestError) as bad_filter:
        list(analyst.posts(min_score=99))
    assert bad_filter.value.status == 400 and bad_filter.value.code == "invalid_filter"
    assert "min_score" in bad_filter.value.message and bad_filter.value.correlation_id

    with pytest.raises(BadRequestError) as empty:
        analyst.create_analysis(posts={"tag": "no-such-tag-anywhere"})
    assert (empty.value.status, empty.value.code) == (400, "empty_selection")

    with pytest.raises(NotFoundError) as missing:
        analyst.content_job("cj_doesnotexist00000000")
    assert missing.value.status == 404

    with pytest.raises(AuthenticationError) as unknown:
        Analyst(server.base_url, "ak_nobody000.wrong-secret-0123456789").me()
    assert (unknown.value.status, unknown.value.code) == (401, "invalid_api_key")
