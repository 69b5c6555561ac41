import {
  analysisDecider,
  AnalysisRuleError,
  type AnalysisEvent,
  type AnalysisCreatedData,
  type AnalysisResult,
} from '../src';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

const created: AnalysisCreatedData = {
  analysisId: 'an_1',
  teamId: 'tm_1',
  kind: 'snapshot',
  selection: { type: 'postIds', postIds: ['p1'] },
  filters: null,
  search: null,
  include: [],
  postIds: ['p1'],
  postCount: 1,
  selectionTruncated: false,
  settings: { scoreVersion: 3, engagementWeight: 1 },
  createdAt: '2026-03-10T12:00:00.000Z',
  expiresAt: '2026-03-17T12:00:00.000Z',
};
/** A result the decider carries unread: an empty selection's. */
const mix = {
  positivePercent: 0,
  leanPositivePercent: 0,
  neutralPercent: 0,
  leanNegativePercent: 0,
  negativePercent: 0,
};
const result: AnalysisResult = {
  scope: {
    postCount: 1,
    totalComments: 0,
    matchedComments: 0,
    matchedPosts: 0,
    shareOfComments: 0,
    shareOfContent: 0,
  },
  content: {
    postCount: 1,
    posts: [],
    postsTruncated: false,
    topics: [],
    messages: [],
    scores: { content: null, topic: null },
    mix: { content: mix, topic: mix },
  },
  commentAnalysis: {
    briefSummary: null,
    scores: {
      scoreVersion: 3,
      serviceScore: null,
      sentiment: null,
      relevance: null,
      consensus: null,
      content: null,
      topic: null,
    },
    mix: { sentiment: mix, content: mix, topic: mix, relevance: mix, consensus: mix },
    topics: [],
    outliers: [],
    notableComments: [],
    wordCloud: null,
    emojiCloud: null,
    totalComments: 0,
    completeness: 'unavailable',
  },
};
/** No mocks, only the analysis decider's pure functions. */
const given = (events: AnalysisEvent[]) => DeciderSpecification.for(analysisDecider).given(events);
const at = '2026-03-10T12:00:01.000Z';

describe('analysis decider', () => {
  const createdEvent: AnalysisEvent = { type: 'AnalysisCreated', data: created };
  const start: AnalysisEvent = {
    type: 'AnalysisStarted',
    data: { analysisId: 'an_1', phase: 'loading', percent: 0, at },
  };

  describe('creates queued, or ready in one append when the result comes with it', () => {
    it('creates a queued analysis', () => {
      given([])
        .when({ type: 'CreateAnalysis', data: created })
        .then([{ type: 'AnalysisCreated', data: created }]);
    });
    it('creates and completes in one append when the result comes with it', () => {
      given([])
        .when({ type: 'CreateAnalysis', data: { ...created, result } })
        .then([
          { type: 'AnalysisCreated', data: created },
          {
            type: 'AnalysisCompleted',
            data: { analysisId: 'an_1', result, at: created.createdAt },
          },
        ]);
    });
  });

  describe('queued → running → ready', () => {
    it('starts a queued analysis', () => {
      given([createdEvent])
        .when({ type: 'StartAnalysis', data: { phase: 'loading', at } })
        .then([start]);
    });
    it('writes nothing to start a running analysis', () => {
      given([createdEvent, start])
        .when({ type: 'StartAnalysis', data: { phase: 'loading', at } })
        .then([]);
    });
    it('reports the progress of a running analysis', () => {
      given([createdEvent, start])
        .when({ type: 'ReportProgress', data: { phase: 'searching', percent: 40, at } })
        .then([
          { type: 'AnalysisProgressed', data: { analysisId: 'an_1', phase: 'searching', percent: 40, at } },
        ]);
    });
    it('completes a running analysis', () => {
      given([createdEvent, start])
        .when({ type: 'CompleteAnalysis', data: { result, at } })
        .then([{ type: 'AnalysisCompleted', data: { analysisId: 'an_1', result, at } }]);
    });
  });

  describe('claims: one worker at a time, another once the first goes quiet, failed after three', () => {
    const claimAt = (minute: number) => `2026-03-10T12:${String(minute).padStart(2, '0')}:00.000Z`;
    const claim = (worker: string, minute: number, staleBefore: string) => ({
      type: 'ClaimAnalysis' as const,
      data: { worker, phase: 'loading_comments', at: claimAt(minute), staleBefore, maxAttempts: 3 },
    });
    const claimed = (worker: string, attempt: number, minute: number): AnalysisEvent => ({
      type: 'AnalysisClaimed',
      data: { analysisId: 'an_1', worker, attempt, phase: 'loading_comments', at: claimAt(minute) },
    });
    const progressed = (minute: number): AnalysisEvent => ({
      type: 'AnalysisProgressed',
      data: { analysisId: 'an_1', phase: 'searching', percent: 10, at: claimAt(minute) },
    });
    it('grants a queued job to the first worker that asks', () => {
      given([createdEvent])
        .when(claim('w1', 1, claimAt(0)))
        .then([claimed('w1', 1, 1)]);
    });
    it('refuses a running job whose worker reported after the stale bound', () => {
      given([createdEvent, claimed('w1', 1, 1), progressed(5)])
        .when(claim('w2', 6, claimAt(4)))
        .then([]);
    });
    it('grants a running job quiet since before the stale bound to another worker, as attempt 2', () => {
      given([createdEvent, claimed('w1', 1, 1), progressed(2)])
        .when(claim('w2', 9, claimAt(8)))
        .then([claimed('w2', 2, 9)]);
    });
    it('counts a job started before claims existed as its first attempt', () => {
      given([createdEvent, start])
        .when(claim('w2', 9, claimAt(8)))
        .then([claimed('w2', 2, 9)]);
    });
    it('fails a job whose third worker went quiet too, with a message that says so', () => {
      given([createdEvent, claimed('w1', 1, 1), claimed('w2', 2, 3), claimed('w3', 3, 5)])
        .when(claim('w4', 9, claimAt(8)))
        .then([
          {
            type: 'AnalysisFailed',
            data: {
              analysisId: 'an_1',
              message:
                'analysis failed: the worker running it stopped 3 time(s) before finishing (last heard of at ' +
                `${claimAt(5)}); create it again, with fewer posts if it keeps failing`,
              at: claimAt(9),
            },
          },
        ]);
    });
    it('writes nothing to claim a finished job', () => {
      given([
        createdEvent,
        claimed('w1', 1, 1),
        { type: 'AnalysisCompleted', data: { analysisId: 'an_1', result, at } },
      ])
        .when(claim('w2', 30, claimAt(29)))
        .then([]);
    });
  });

  describe('fails from queued or running; terminal states never move', () => {
    const failed: AnalysisEvent[] = [
      createdEvent,
      { type: 'AnalysisFailed', data: { analysisId: 'an_1', message: 'x', at } },
    ];
    it('fails a queued analysis', () => {
      given([createdEvent])
        .when({ type: 'FailAnalysis', data: { message: 'boom', at } })
        .then([{ type: 'AnalysisFailed', data: { analysisId: 'an_1', message: 'boom', at } }]);
    });
    it('writes nothing to fail a failed analysis', () => {
      given(failed)
        .when({ type: 'FailAnalysis', data: { message: 'again', at } })
        .then([]);
    });
    it('refuses to complete a failed analysis', () => {
      given(failed)
        .when({ type: 'CompleteAnalysis', data: { result, at } })
        .thenFails('invalid_transition', AnalysisRuleError);
    });
    it('refuses to create an analysis that exists', () => {
      expect(() => given([createdEvent]).when({ type: 'CreateAnalysis', data: created }).events()).toThrow(
        'exists',
      );
    });
  });

  describe('records the matches of a running search in chunks of 5,000 ids, one empty chunk for none; only for a running search', () => {
    const search: AnalysisEvent = { type: 'AnalysisCreated', data: { ...created, kind: 'search' } };
    const ids = Array.from({ length: 12_001 }, (_, i) => `c${i}`);
    const events = given([search, start])
      .when({ type: 'RecordSearchMatches', data: { commentIds: ids, at } })
      .events();

    it('records 12,001 ids in chunks of 5,000, in order', () => {
      expect(events.map((e) => e.type)).toEqual([
        'AnalysisSearchMatched',
        'AnalysisSearchMatched',
        'AnalysisSearchMatched',
      ]);
      expect(
        events.map((e) => [
          (e.data as { chunk: number }).chunk,
          (e.data as { chunks: number }).chunks,
          (e.data as { commentIds: string[] }).commentIds.length,
        ]),
      ).toEqual([
        [0, 3, 5000],
        [1, 3, 5000],
        [2, 3, 2001],
      ]);
      expect(events.flatMap((e) => (e.data as { commentIds: string[] }).commentIds)).toEqual(ids);
    });
    it('records one empty chunk for no matches', () => {
      given([search, start])
        .when({ type: 'RecordSearchMatches', data: { commentIds: [], at } })
        .then([
          {
            type: 'AnalysisSearchMatched',
            data: { analysisId: 'an_1', chunk: 0, chunks: 1, commentIds: [], at },
          },
        ]);
    });
    // Still running afterwards; a snapshot or a queued search records nothing.
    it('leaves the search running afterwards', () => {
      expect(
        given([search, start, ...events])
          .when({ type: 'CompleteAnalysis', data: { result, at } })
          .events(),
      ).toHaveLength(1);
    });
    it('refuses to record matches for a snapshot', () => {
      expect(() =>
        given([createdEvent, start])
          .when({ type: 'RecordSearchMatches', data: { commentIds: [], at } })
          .events(),
      ).toThrow(AnalysisRuleError);
    });
    it('refuses to record matches for a queued search', () => {
      expect(() =>
        given([search])
          .when({ type: 'RecordSearchMatches', data: { commentIds: [], at } })
          .events(),
      ).toThrow('not a running search');
    });
  });
});
