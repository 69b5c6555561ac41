"""The [pandas] extra: posts, mixes and samples as DataFrames, their values the models' own."""

from __future__ import annotations

import pytest

from analyst_client import Analyst
from analyst_client.frames import BUCKETS, mix_frame, posts_frame, sample_frame


def test_posts_frame_has_a_row_a_post_with_its_scores_and_mix(analyst: Analyst) -> None:
    posts = list(analyst.posts(platform=["reddit", "youtube"]))
    frame = posts_frame(posts)
    assert list(frame.index) == [post.id for post in posts]
    first = posts[0]
    row = frame.loc[first.id]
    assert row["platform"] == first.platform and row["total_comments"] == first.total_comments
    assert first.scores is not None and row["service_score"] == first.scores.service_score
    assert first.sentiment_mix is not None
    assert row["sentiment_negative_percent"] == first.sentiment_mix.negative_percent
    mix_columns = [f"sentiment_{bucket}_percent" for bucket in BUCKETS]
    # A post with comments splits them over the five buckets (to rounding); one with none reads 0.
    sums = frame[mix_columns].sum(axis=1)
    with_comments = frame["total_comments"] > 0
    assert with_comments.any()
    assert sums[with_comments].tolist() == pytest.approx([100.0] * int(with_comments.sum()), abs=0.6)
    assert (sums[~with_comments] == 0).all()
    assert len(posts_frame([])) == 0


def test_mix_frame_is_the_analysis_mixes_by_dimension(analyst: Analyst) -> None:
    analysis = analyst.create_analysis(posts={"platform": ["reddit"]})
    frame = mix_frame(analysis)
    assert list(frame.index) == ["sentiment", "relevance", "consensus", "content", "topic"]
    assert list(frame.columns) == list(BUCKETS)
    assert analysis.comment_analysis is not None
    assert (
        frame.loc["sentiment", "lean_negative"]
        == analysis.comment_analysis.mix.sentiment.lean_negative_percent
    )
    assert frame.loc["consensus", "positive"] == analysis.comment_analysis.mix.consensus.positive_percent
    assert frame.sum(axis=1).tolist() == pytest.approx([100.0] * 5, abs=0.6)
    post = mix_frame(analyst.post_analysis(analysis.post_ids[0]))
    assert post.shape == (5, 5)


def test_sample_frame_has_a_row_a_comment_with_scores_and_buckets(analyst: Analyst) -> None:
    analysis = analyst.create_analysis(posts={"platform": ["youtube"]})
    sample = analyst.sample(analysis, limit=10, sentiment=["positive"])
    frame = sample_frame(sample.data)
    assert list(frame.index) == [row.comment_id for row in sample.data]
    assert set(frame["sentiment_bucket"]) == {"positive"}
    assert frame["sentiment_score"].between(1, 10).all()
    assert frame["body"].tolist() == [row.body for row in sample.data]
    assert len(sample_frame([])) == 0
