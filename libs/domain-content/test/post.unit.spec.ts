import {
  type FetchedComment,
  type ProviderPost,
  type ScoredComment,
  versionIsCharged,
  type PostCreated,
  type PostEvent,
} from '@analyst/contracts';
import { evolvePost, postDecider, type PostState } from '@analyst/domain-content';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

const given = (events: PostEvent[]) => DeciderSpecification.for(postDecider).given(events);
const AT = '2026-03-10T12:00:00.000Z';

const created: PostCreated = {
  type: 'PostCreated',
  data: {
    postId: 'po_1',
    teamId: 'tm_1',
    link: 'https://youtube.com/watch?v=a',
    normalizedLink: 'https://youtube.com/watch?v=a',
    platform: 'youtube',
    collectionIds: ['col_1'],
    tags: ['Launch'],
    addedVia: 'api',
    addedBy: { id: 'ak_1', name: 'key' },
    isDemo: false,
    dataVersion: 1,
    jobId: 'cj_1',
    reservationId: 'rs_1',
    creditSource: 'credit',
    unitCost: 1,
    fullRead: false,
    commentLimit: null,
    requestedAt: AT,
  },
};

const providerPost: ProviderPost = {
  link: created.data.link,
  platform: 'youtube',
  creator: { username: 'c', name: 'C' },
  title: 't',
  caption: 'c',
  description: null,
  engagement: { views: 1, likes: 1, comments: 3, shares: 0 },
  postedAt: AT,
  postType: 'video',
  thumbnail: null,
};
const comment = (i: number): FetchedComment => ({
  id: `c${i}`,
  parentId: null,
  authorUsername: 'u',
  authorIsCreator: false,
  body: 'hi',
  likes: 0,
  postedAt: AT,
  hidden: false,
});
const scored = (i: number): ScoredComment => ({
  commentId: `c${i}`,
  scores: { sentiment: 5, content: 5, topic: 5, relevance: 5, consensus: 5 },
  topicIndex: null,
  messageIndex: null,
  scorer: { name: 's', version: '1' },
});
const fetched = (n: number, chunkSize = 2): PostEvent[] =>
  postDecider.decide(
    {
      type: 'RecordFetch',
      data: {
        dataVersion: 1,
        at: AT,
        result: { status: 'ok', post: providerPost, comments: [...Array(n).keys()].map(comment) },
        chunkSize,
      },
    },
    postDecider.evolve(postDecider.initialState(), created),
  );

describe('post decider', () => {
  it('creates a post as fetching, version 1, with normalized tags', () => {
    const events = given([])
      .when({ type: 'CreatePost', data: { ...created.data, tags: [' #Launch ', 'launch', 'Q1'] } })
      .events();
    expect(events).toEqual([{ type: 'PostCreated', data: { ...created.data, tags: ['Launch', 'Q1'] } }]);
    const state = evolvePost({ status: 'absent' }, events[0]);
    expect(state).toMatchObject({ status: 'fetching', dataVersion: 1, lastRefreshedAt: AT });
  });

  it('refuses to create a post twice', () => {
    given([created]).when({ type: 'CreatePost', data: created.data }).thenFails('post_exists');
  });

  it('merges only new collections and tags, case-insensitively', () => {
    given([created])
      .when({
        type: 'TagPost',
        data: { collectionIds: ['col_1', 'col_2'], tags: ['#launch', 'Summer'], at: AT },
      })
      .then([
        {
          type: 'PostTagged',
          data: { postId: 'po_1', addedCollectionIds: ['col_2'], addedTags: ['Summer'], at: AT },
        },
      ]);
  });

  it('writes nothing when every collection and tag is already there, whatever its case', () => {
    given([created])
      .when({ type: 'TagPost', data: { collectionIds: ['col_1'], tags: ['LAUNCH'], at: AT } })
      .then([]);
  });

  it('records a fetch as PostFetched plus comment chunks and moves to processing', () => {
    const events = fetched(5);
    expect(events.map((e) => e.type)).toEqual([
      'PostFetched',
      'CommentsFetched',
      'CommentsFetched',
      'CommentsFetched',
    ]);
    expect(events[0].data).toMatchObject({ totalComments: 5, chunks: 3, dataVersion: 1 });
    expect(events.slice(1).map((e) => (e.data as { comments: unknown[] }).comments.length)).toEqual([
      2, 2, 1,
    ]);
    const state = [created, ...events].reduce(evolvePost, { status: 'absent' } as PostState);
    expect(state.status).toBe('processing');
  });

  it('ignores a redelivered fetch once the version moved past fetching', () => {
    given([created, ...fetched(1)])
      .when({
        type: 'RecordFetch',
        data: { dataVersion: 1, at: AT, result: { status: 'failed', reason: 'x' } },
      })
      .then([]);
  });

  it.each(['failed', 'unreachable'] as const)(
    'records a %s fetch with the reservation to return',
    (outcome) => {
      given([created])
        .when({
          type: 'RecordFetch',
          data: { dataVersion: 1, at: AT, result: { status: outcome, reason: 'why' } },
        })
        .then([
          {
            type: 'PostFetchFailed',
            data: {
              postId: 'po_1',
              dataVersion: 1,
              jobId: 'cj_1',
              reservationId: 'rs_1',
              outcome,
              reason: 'why',
              at: AT,
            },
          },
        ]);
    },
  );

  describe('a held fetch', () => {
    const reopens = '2026-03-11T08:00:00.000Z';
    const base = given([created]);
    const held = base.when({
      type: 'RecordFetch',
      data: { dataVersion: 1, at: AT, result: { status: 'holding', reason: 'quota', retryAt: reopens } },
    });

    it('is recorded with the reservation to return and when the window reopens', () => {
      held.then([
        {
          type: 'PostFetchFailed',
          data: {
            postId: 'po_1',
            dataVersion: 1,
            jobId: 'cj_1',
            reservationId: 'rs_1',
            outcome: 'holding',
            reason: 'quota',
            retryAt: reopens,
            at: AT,
          },
        },
      ]);
    });

    it('leaves the post holding, counting the hold and until when', () => {
      expect(held.events().reduce(evolvePost, base.state)).toMatchObject({
        status: 'holding',
        holds: 1,
        heldUntil: reopens,
      });
    });

    it('records a null retryAt when the platform did not say when the window reopens', () => {
      const unknown = given([created])
        .when({
          type: 'RecordFetch',
          data: { dataVersion: 1, at: AT, result: { status: 'holding', reason: 'quota' } },
        })
        .events();
      expect(unknown[0].data).toMatchObject({ retryAt: null });
    });
  });
});

describe('post decider: a held version', () => {
  const held: PostEvent = {
    type: 'PostFetchFailed',
    data: {
      postId: 'po_1',
      dataVersion: 1,
      jobId: 'cj_1',
      reservationId: 'rs_1',
      outcome: 'holding',
      reason: 'quota',
      retryAt: null,
      at: AT,
    },
  };
  const later = '2026-03-11T12:00:00.000Z';

  describe('resumed', () => {
    const state = given([created, held]);
    const events = state
      .when({ type: 'ResumeHeld', data: { dataVersion: 1, reservationId: 'rs_2', at: later } })
      .events();
    const resumed = events.reduce(evolvePost, state.state);

    it('as the same version and job with a fresh reservation', () => {
      expect(events).toEqual([
        {
          type: 'PostHoldResumed',
          data: { postId: 'po_1', dataVersion: 1, jobId: 'cj_1', reservationId: 'rs_2', at: later },
        },
      ]);
    });

    it('is fetched again, no longer held', () => {
      expect(resumed).toMatchObject({
        status: 'fetching',
        dataVersion: 1,
        holds: 1,
        heldUntil: null,
        current: { jobId: 'cj_1', reservationId: 'rs_2' },
      });
    });

    it('ends its fetch with the new reservation, which the credit manager settles', () => {
      const scored = postDecider.decide(
        {
          type: 'RecordFetch',
          data: { dataVersion: 1, at: later, result: { status: 'holding', reason: 'again' } },
        },
        resumed,
      );
      expect(scored[0].data).toMatchObject({ reservationId: 'rs_2', outcome: 'holding' });
      expect(postDecider.evolve(resumed, scored[0])).toMatchObject({ holds: 2 });
    });
  });

  it('is resumed once: a second resume does nothing', () => {
    const resumed: PostEvent = {
      type: 'PostHoldResumed',
      data: { postId: 'po_1', dataVersion: 1, jobId: 'cj_1', reservationId: 'rs_2', at: later },
    };
    given([created, held, resumed])
      .when({ type: 'ResumeHeld', data: { dataVersion: 1, reservationId: 'rs_2', at: later } })
      .then([]);
  });

  it('is not resumed by a resume for another version', () => {
    given([created, held])
      .when({ type: 'ResumeHeld', data: { dataVersion: 2, reservationId: 'rs_2', at: later } })
      .then([]);
  });

  it('a resume of a post that is not held does nothing', () => {
    given([created])
      .when({ type: 'ResumeHeld', data: { dataVersion: 1, reservationId: 'rs_2', at: later } })
      .then([]);
  });

  it('fails without a reservation when it is abandoned (its hold was already refunded)', () => {
    given([created, held])
      .when({ type: 'AbandonHeld', data: { dataVersion: 1, reason: 'no credits', at: later } })
      .then([
        {
          type: 'PostFetchFailed',
          data: {
            postId: 'po_1',
            dataVersion: 1,
            jobId: 'cj_1',
            reservationId: null,
            outcome: 'failed',
            reason: 'no credits',
            at: later,
          },
        },
      ]);
  });

  it('an abandon of a post that is not held does nothing', () => {
    given([created])
      .when({ type: 'AbandonHeld', data: { dataVersion: 1, reason: 'x', at: later } })
      .then([]);
  });

  it('is not replaced by a refresh while it waits', () => {
    given([created, held])
      .when({ type: 'RequestRefresh', data: { ...created.data, requestedAt: later } })
      .thenFails('post_in_flight');
  });

  it('records scores in chunks tagged with the scorer, then PostScored completes the post', () => {
    const state = given([created, ...fetched(3)]);
    const events = state
      .when({
        type: 'RecordScores',
        data: {
          dataVersion: 1,
          at: AT,
          scorer: { name: 's', version: '1' },
          topics: [],
          messages: [],
          comments: [0, 1, 2].map(scored),
          chunkSize: 2,
        },
      })
      .events();
    expect(events.map((e) => e.type)).toEqual(['CommentsScored', 'CommentsScored', 'PostScored']);
    const last = events[2];
    expect(last.data).toMatchObject({
      totalComments: 3,
      reservationId: 'rs_1',
      jobId: 'cj_1',
      scorer: { name: 's', version: '1' },
    });
    expect(versionIsCharged(last as never)).toBe(true);
    expect(events.reduce(evolvePost, state.state).status).toBe('complete');
  });

  it('does not charge a version scored with zero comments', () => {
    const events = given([created, ...fetched(0)])
      .when({
        type: 'RecordScores',
        data: {
          dataVersion: 1,
          at: AT,
          scorer: { name: 's', version: '1' },
          topics: [],
          messages: [],
          comments: [],
        },
      })
      .events();
    expect(events.map((e) => e.type)).toEqual(['PostScored']);
    expect(versionIsCharged(events[0] as never)).toBe(false);
  });

  it('never refreshes a post in flight', () => {
    given([created])
      .when({ type: 'RequestRefresh', data: { ...created.data, requestedAt: AT } })
      .thenFails('post_in_flight');
  });

  it('refreshes a finished post into a new data version', () => {
    const done = given([
      created,
      {
        type: 'PostFetchFailed',
        data: {
          postId: 'po_1',
          dataVersion: 1,
          jobId: 'cj_1',
          reservationId: 'rs_1',
          outcome: 'failed',
          reason: 'x',
          at: AT,
        },
      },
    ]);
    const later = '2026-03-11T12:00:00.000Z';
    const events = done
      .when({
        type: 'RequestRefresh',
        data: {
          jobId: 'cj_2',
          reservationId: null,
          creditSource: 'included',
          unitCost: 0,
          fullRead: false,
          commentLimit: null,
          requestedAt: later,
        },
      })
      .events();
    expect(events[0]).toMatchObject({
      type: 'PostRefreshRequested',
      data: { dataVersion: 2, jobId: 'cj_2' },
    });
    expect(events.reduce(evolvePost, done.state)).toMatchObject({
      status: 'fetching',
      dataVersion: 2,
      lastRefreshedAt: later,
      lastIncludedRefreshAt: later,
    });
  });

  it('cancels a post that is fetching', () => {
    expect(
      given([created])
        .when({ type: 'CancelPost', data: { reason: 'x', at: AT } })
        .events()[0].type,
    ).toBe('PostCancelled');
  });

  it('decides a cancel of a post that is processing without throwing', () => {
    given([created, ...fetched(0)])
      .when({ type: 'CancelPost', data: { reason: 'x', at: AT } })
      .events();
  });
});
