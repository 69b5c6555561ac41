import { EMOTIONS, type FetchedComment, type ScoredComment } from '@analyst/contracts';
import type { RecordedEvent } from '@analyst/platform';

/**
 * Ingest's post events for one post version, built by hand (the shapes of `@analyst/domain-content`),
 * for tests that fold them into the in-memory indexes without the fetch/score pipeline.
 */
export const POST_EVENTS_AT = '2026-03-10T12:00:00.000Z';

export function postEvent(type: string, data: unknown): RecordedEvent {
  return { type, data, metadata: { occurredAt: POST_EVENTS_AT } } as unknown as RecordedEvent;
}

/** Comments of one version of a post: bodies, authors, likes and scores all differ by version. */
export function commentsOfVersion(
  postId: string,
  version: number,
  count: number,
): { fetched: FetchedComment[]; scored: ScoredComment[] } {
  const fetched = Array.from({ length: count }, (_, i) => ({
    id: `${postId}-v${version}-c${i}`,
    parentId: i % 3 === 2 ? `${postId}-v${version}-c0` : null,
    authorUsername: `author${version}${i}`,
    authorIsCreator: i === 0,
    body: `version ${version} comment ${i} battery ${i % 2 ? 'great' : 'awful'}?`,
    likes: version * 10 + i,
    postedAt: `2026-03-0${1 + (i % 9)}T10:00:00.000Z`,
    hidden: i === count - 1,
  }));
  const scored = fetched.map((c, i): ScoredComment => {
    const s = 1 + ((i * 7 + version * 3) % 10) * 0.9;
    return {
      commentId: c.id,
      scores: { sentiment: s, content: s, topic: 11 - s, relevance: s, consensus: 11 - s },
      topicIndex: null,
      messageIndex: null,
      // Every emotion, and none on every eighth comment (one the scorer did not read as English).
      emotion: i % 8 === 7 ? null : EMOTIONS[(i + version) % EMOTIONS.length],
      scorer: { name: 'test', version: '1' },
    };
  });
  return { fetched, scored };
}

export function postCreated(postId: string, teamId: string): RecordedEvent {
  const link = `https://www.youtube.com/watch?v=${postId}`;
  return postEvent('PostCreated', {
    postId,
    teamId,
    link,
    normalizedLink: link,
    platform: 'youtube',
    collectionIds: [],
    tags: [],
    addedVia: 'api',
    addedBy: null,
    isDemo: false,
    dataVersion: 1,
    jobId: 'cj',
    reservationId: null,
    creditSource: 'credit',
    unitCost: 1,
    fullRead: false,
    commentLimit: null,
    requestedAt: POST_EVENTS_AT,
  });
}

/** The events of one fetched (and, unless `unscored`, scored) version. */
export function postVersion(postId: string, v: number, count: number, unscored = false): RecordedEvent[] {
  const { fetched, scored } = commentsOfVersion(postId, v, count);
  const events = [
    postEvent('PostFetched', {
      postId,
      dataVersion: v,
      totalComments: count,
      chunks: 1,
      at: POST_EVENTS_AT,
      post: {
        link: postId,
        platform: 'youtube',
        creator: { username: 'c', name: 'C' },
        title: 't',
        caption: 'c',
        description: null,
        engagement: null,
        postedAt: POST_EVENTS_AT,
        postType: 'video',
        thumbnail: null,
      },
    }),
    postEvent('CommentsFetched', { postId, dataVersion: v, chunk: 0, comments: fetched }),
  ];
  if (!unscored) {
    events.push(
      postEvent('CommentsScored', {
        postId,
        dataVersion: v,
        chunk: 0,
        scorer: { name: 'test', version: '1' },
        comments: scored,
      }),
      postEvent('PostScored', {
        postId,
        dataVersion: v,
        jobId: 'cj',
        reservationId: null,
        scorer: { name: 'test', version: '1' },
        topics: [],
        messages: [],
        totalComments: count,
        at: POST_EVENTS_AT,
      }),
    );
  }
  return events;
}

export const postRefresh = (postId: string, v: number): RecordedEvent =>
  postEvent('PostRefreshRequested', {
    postId,
    dataVersion: v,
    requestedAt: POST_EVENTS_AT,
    jobId: 'cj',
    reservationId: null,
  });
