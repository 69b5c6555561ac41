"""DataFrames of posts, mixes and comment samples (the `[pandas]` extra: pip install 'analyst-client[pandas]')."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .models import Analysis, CommentRow, Mix, Post, PostAnalysis

if TYPE_CHECKING:
    import pandas as pd

#: The five buckets of a mix, in the order the API lists them, as the DataFrame's columns.
BUCKETS = ("positive", "lean_positive", "neutral", "lean_negative", "negative")


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as missing:
        raise ImportError("DataFrames need pandas: pip install 'analyst-client[pandas]'") from missing
    return pandas


def _mix_row(mix: Mix | None) -> dict[str, float | None]:
    values = mix.model_dump() if mix is not None else {}
    return {bucket: values.get(f"{bucket}_percent") for bucket in BUCKETS}


def posts_frame(posts: Iterable[Post]) -> pd.DataFrame:
    """One row a post, indexed by id: platform, link, creator, title, posted_at, status, total_comments,
    engagement, the scores (service_score, sentiment) and the sentiment mix's percentages."""
    rows = []
    for post in posts:
        engagement = post.engagement
        rows.append(
            {
                "id": post.id,
                "platform": post.platform,
                "link": post.link,
                "creator": post.creator.username if post.creator else None,
                "title": post.title,
                "posted_at": post.posted_at,
                "status": post.status,
                "total_comments": post.total_comments,
                "views": engagement.views if engagement else None,
                "likes": engagement.likes if engagement else None,
                "service_score": post.scores.service_score if post.scores else None,
                "sentiment": post.scores.sentiment if post.scores else None,
                **{
                    f"sentiment_{bucket}_percent": value
                    for bucket, value in _mix_row(post.sentiment_mix).items()
                },
            }
        )
    frame: pd.DataFrame = _pandas().DataFrame(rows, columns=_POST_COLUMNS)
    return frame.set_index("id")


_POST_COLUMNS = [
    "id",
    "platform",
    "link",
    "creator",
    "title",
    "posted_at",
    "status",
    "total_comments",
    "views",
    "likes",
    "service_score",
    "sentiment",
    *(f"sentiment_{bucket}_percent" for bucket in BUCKETS),
]


def mix_frame(analysis: Analysis | PostAnalysis) -> pd.DataFrame:
    """An analysis's mixes as a table: one row a dimension (the audience side's sentiment, relevance,
    consensus, content and topic), one column a bucket, values in percent (0 to 100)."""
    side = analysis.comment_analysis
    if side is None:
        raise ValueError("the analysis has no comment analysis yet: wait_for it to be ready")
    dimensions = ("sentiment", "relevance", "consensus", "content", "topic")
    rows = {dimension: _mix_row(getattr(side.mix, dimension)) for dimension in dimensions}
    frame: pd.DataFrame = _pandas().DataFrame.from_dict(rows, orient="index", columns=list(BUCKETS))
    frame.index.name = "dimension"
    return frame


def sample_frame(rows: Iterable[CommentRow]) -> pd.DataFrame:
    """One row a sampled comment, indexed by comment id: post, author, body, likes, posted_at, is_reply,
    each dimension's score (`<dimension>_score`) and bucket (`<dimension>_bucket`), and why it was sampled."""
    records = []
    for row in rows:
        scores = row.scores.model_dump()
        buckets = row.buckets.model_dump()
        records.append(
            {
                "comment_id": row.comment_id,
                "post_id": row.post_id,
                "author": row.author_username,
                "body": row.body,
                "likes": row.likes,
                "posted_at": row.posted_at,
                "is_reply": row.is_reply,
                **{f"{name}_score": value for name, value in scores.items()},
                **{f"{name}_bucket": value for name, value in buckets.items()},
                "sample_reasons": list(row.sample_reasons),
            }
        )
    frame: pd.DataFrame = _pandas().DataFrame(records)
    return frame.set_index("comment_id") if records else frame
