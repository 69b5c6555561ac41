import type { PostCreated, PostEvent, ProviderPost } from '@analyst/contracts';
import {
  POST_PAYLOAD_EVENT_TYPES,
  postDecider,
  type PostCommand,
  type PostState,
} from '@analyst/domain-content';
import { commentsOfVersion } from '@analyst/testing';

const AT = '2026-03-10T12:00:00.000Z';
const POST_ID = 'po_1';

const created: PostCreated['data'] = {
  postId: POST_ID,
  teamId: 'tm_1',
  link: 'https://youtube.com/watch?v=a',
  normalizedLink: 'https://youtube.com/watch?v=a',
  platform: 'youtube',
  collectionIds: ['col_1'],
  tags: ['launch'],
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
};

const providerPost: ProviderPost = {
  link: created.link,
  platform: 'youtube',
  creator: { username: 'c', name: 'C' },
  title: 't',
  caption: 'c',
  description: null,
  engagement: { views: 1, likes: 1, comments: 600, shares: 0 },
  postedAt: AT,
  postType: 'video',
  thumbnail: null,
};

const fetch = (dataVersion: number, comments: number): PostCommand => ({
  type: 'RecordFetch',
  data: {
    dataVersion,
    at: AT,
    result: {
      status: 'ok',
      post: providerPost,
      comments: commentsOfVersion(POST_ID, dataVersion, comments).fetched,
    },
  },
});
const score = (dataVersion: number, comments: number): PostCommand => ({
  type: 'RecordScores',
  data: {
    dataVersion,
    at: AT,
    scorer: { name: 'test', version: '1' },
    topics: [],
    messages: [],
    comments: commentsOfVersion(POST_ID, dataVersion, comments).scored,
  },
});
const refresh = (jobId: string): PostCommand => ({
  type: 'RequestRefresh',
  data: {
    jobId,
    reservationId: `rs_${jobId}`,
    creditSource: 'credit',
    unitCost: 1,
    fullRead: true,
    commentLimit: null,
    requestedAt: AT,
  },
});

/**
 * A post's life as the decider writes it: created, fetched and scored (chunks of 250), tagged,
 * refreshed and held, resumed, fetched and scored again, refreshed a third time, fetched and
 * cancelled before its scores. Every state the post passes through, and every event.
 */
function postLife(): { events: PostEvent[]; states: PostState[] } {
  const commands: PostCommand[] = [
    { type: 'CreatePost', data: created },
    fetch(1, 600),
    score(1, 600),
    { type: 'TagPost', data: { collectionIds: ['col_2'], tags: ['review'], at: AT } },
    refresh('cj_2'),
    {
      type: 'RecordFetch',
      data: { dataVersion: 2, at: AT, result: { status: 'holding', reason: 'quota', retryAt: AT } },
    },
    { type: 'ResumeHeld', data: { dataVersion: 2, reservationId: 'rs_resume', at: AT } },
    fetch(2, 520),
    score(2, 520),
    refresh('cj_3'),
    fetch(3, 251),
    { type: 'CancelPost', data: { reason: 'team asked', at: AT } },
  ];
  const events: PostEvent[] = [];
  const states: PostState[] = [postDecider.initialState()];
  for (const command of commands) {
    for (const event of postDecider.decide(command, states[states.length - 1])) {
      events.push(event);
      states.push(postDecider.evolve(states[states.length - 1], event));
    }
  }
  return { events, states };
}

const isPayload = (event: PostEvent) => (POST_PAYLOAD_EVENT_TYPES as readonly string[]).includes(event.type);

describe('POST_PAYLOAD_EVENT_TYPES: the post events a post state is folded without', () => {
  const { events, states } = postLife();

  it('are the comment chunks, which a realistic post stream is mostly made of', () => {
    expect([...POST_PAYLOAD_EVENT_TYPES].sort()).toEqual(['CommentsFetched', 'CommentsScored']);
    expect(events.filter(isPayload).length).toBe(3 + 3 + 3 + 3 + 2);
    expect(events.filter((e) => !isPayload(e)).map((e) => e.type)).toEqual([
      'PostCreated',
      'PostFetched',
      'PostScored',
      'PostTagged',
      'PostRefreshRequested',
      'PostFetchFailed',
      'PostHoldResumed',
      'PostFetched',
      'PostScored',
      'PostRefreshRequested',
      'PostFetched',
      'PostCancelled',
    ]);
  });

  it('leave every state the post passes through as it is', () => {
    const payloads = events.filter(isPayload);
    for (const state of states) {
      for (const payload of payloads) expect(postDecider.evolve(state, payload)).toBe(state);
    }
  });

  it('fold to the same state whether the stream is read whole or without them', () => {
    const whole = events.reduce(postDecider.evolve, postDecider.initialState());
    const without = events
      .filter((e) => !isPayload(e))
      .reduce(postDecider.evolve, postDecider.initialState());
    expect(without).toEqual(whole);
    expect(whole).toMatchObject({
      status: 'cancelled',
      dataVersion: 3,
      fetchedComments: 251,
      collectionIds: ['col_1', 'col_2'],
      tags: ['launch', 'review'],
    });
  });
});
