import {
  applyAccountFilters,
  contentJobDecider,
  jobCounts,
  jobCredits,
  type ContentJob,
  type ContentJobEvent,
  type JobRequest,
} from '@analyst/domain-content';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

const given = (events: ContentJobEvent[]) => DeciderSpecification.for(contentJobDecider).given(events);
const AT = '2026-03-10T12:00:00.000Z';
const request: JobRequest = {
  jobId: 'cj_1',
  teamId: 'tm_1',
  kind: 'posts',
  fingerprint: 'f',
  createdAt: AT,
  expiresAt: '2026-04-09T12:00:00.000Z',
  collections: [],
  tags: [],
  credits: { source: 'auto', perPost: 1 },
  capture: { fullRead: false, commentLimit: null },
  requested: 3,
  addedBy: { id: 'ak_1', name: 'k' },
  account: null,
  dryRun: null,
  filters: null,
};
const opened: ContentJobEvent = { type: 'ContentJobOpened', data: request };
/** An account job of the same request (the decider reads only `dryRun` of the account fields). */
const accountRequest = (dryRun: boolean): JobRequest => ({
  ...request,
  kind: 'account',
  account: { url: 'https://x.com/a', platform: 'x' },
  dryRun,
  filters: applyAccountFilters(undefined, new Date(AT)),
});
const accepted = (postId: string) => ({
  link: `https://x.com/a/status/${postId}`,
  postId,
  postStatus: 'fetching' as const,
  creditSource: 'credit' as const,
  creditCost: 1,
  dataVersion: 1,
});
const queued: ContentJobEvent = {
  type: 'ContentJobQueued',
  data: { accepted: [accepted('po_1'), accepted('po_2')], skipped: [], rejected: [], at: AT },
};
const fold = (events: ContentJobEvent[]) =>
  events.reduce(contentJobDecider.evolve, contentJobDecider.initialState()) as ContentJob;

describe('content job decider', () => {
  it('opens posts jobs as queuing', () => {
    expect(fold([opened]).status).toBe('queuing');
  });

  it('opens account jobs as discovering', () => {
    expect(fold([{ type: 'ContentJobOpened', data: accountRequest(false) }]).status).toBe('discovering');
  });

  it('queues accepted posts and moves to syncing', () => {
    const job = fold([
      opened,
      ...given([opened])
        .when({
          type: 'QueueJob',
          data: { accepted: queued.data.accepted, skipped: [], rejected: [], at: AT },
        })
        .events(),
    ]);
    expect(job.status).toBe('syncing');
    expect(jobCounts(job)).toEqual({
      requested: 3,
      discovered: null,
      accepted: 2,
      skipped: 0,
      rejected: 0,
      syncing: 2,
      complete: 0,
      failed: 0,
    });
  });

  describe('a job with nothing accepted', () => {
    const unfunded = given([opened])
      .when({
        type: 'QueueJob',
        data: {
          accepted: [],
          skipped: [],
          rejected: [{ link: 'l', reason: 'insufficient_credits' }],
          at: AT,
        },
      })
      .events();

    it('is queued', () => {
      expect(unfunded.map((e) => e.type)).toEqual(['ContentJobQueued']);
    });

    it('is syncing once queued', () => {
      expect(fold([opened, ...unfunded]).status).toBe('syncing');
    });

    it('settles failed on the next outcome record, naming insufficient credits when that was the cause', () => {
      expect(
        given([opened, ...unfunded])
          .when({ type: 'RecordPostOutcomes', data: { outcomes: [], at: AT } })
          .events(),
      ).toEqual([
        {
          type: 'JobSettled',
          data: {
            status: 'failed',
            error: { code: 'insufficient_credits', message: 'no post could be funded' },
            at: AT,
          },
        },
      ]);
    });

    it('settles failed with nothing_added when every link was skipped', () => {
      const dup = given([opened])
        .when({
          type: 'QueueJob',
          data: { accepted: [], skipped: [{ link: 'l', reason: 'already_complete' }], rejected: [], at: AT },
        })
        .events();
      expect(
        given([opened, ...dup])
          .when({ type: 'RecordPostOutcomes', data: { outcomes: [], at: AT } })
          .events()[0].data,
      ).toMatchObject({ status: 'failed', error: { code: 'nothing_added' } });
    });
  });

  it('settles completed when every member completed and nothing was skipped', () => {
    const events = given([opened, queued])
      .when({
        type: 'RecordPostOutcomes',
        data: {
          outcomes: [
            { postId: 'po_1', status: 'complete', charged: true },
            { postId: 'po_2', status: 'complete', charged: false },
          ],
          at: AT,
        },
      })
      .events();
    expect(events.map((e) => e.type)).toEqual([
      'JobPostOutcomeRecorded',
      'JobPostOutcomeRecorded',
      'JobSettled',
    ]);
    const job = fold([opened, queued, ...events]);
    expect(job.status).toBe('completed');
    expect(jobCredits(job)).toMatchObject({ reserved: 2, settled: 1, refunded: 1 });
  });

  it('settles partial when some member failed', () => {
    const partial = given([opened, queued])
      .when({
        type: 'RecordPostOutcomes',
        data: {
          outcomes: [
            { postId: 'po_1', status: 'complete', charged: true },
            { postId: 'po_2', status: 'unreachable', charged: false },
          ],
          at: AT,
        },
      })
      .events();
    expect(partial[2].data).toMatchObject({ status: 'partial' });
  });

  it('settles failed when no member completed', () => {
    const failed = given([opened, queued])
      .when({
        type: 'RecordPostOutcomes',
        data: {
          outcomes: [
            { postId: 'po_1', status: 'failed', charged: false },
            { postId: 'po_2', status: 'cancelled', charged: false },
          ],
          at: AT,
        },
      })
      .events();
    expect(failed[2].data).toMatchObject({ status: 'failed', error: { code: 'processing_failed' } });
  });

  describe('a member holding', () => {
    const first = given([opened, queued])
      .when({
        type: 'RecordPostOutcomes',
        data: {
          outcomes: [
            { postId: 'po_1', status: 'complete', charged: true },
            { postId: 'po_2', status: 'holding', charged: false },
          ],
          at: AT,
        },
      })
      .events();

    it('has its outcome recorded without settling the job', () => {
      expect(first.map((e) => e.type)).toEqual(['JobPostOutcomeRecorded', 'JobPostOutcomeRecorded']);
    });

    it('keeps the job syncing', () => {
      expect(fold([opened, queued, ...first]).status).toBe('syncing');
    });

    it('has each outcome recorded once', () => {
      given([opened, queued, ...first])
        .when({
          type: 'RecordPostOutcomes',
          data: {
            outcomes: [
              { postId: 'po_1', status: 'complete', charged: true },
              { postId: 'po_2', status: 'holding', charged: false },
            ],
            at: AT,
          },
        })
        .then([]);
    });
  });

  it('settles once a held member is resumed and completes, charging the resumed fetch', () => {
    const first = given([opened, queued])
      .when({
        type: 'RecordPostOutcomes',
        data: {
          outcomes: [
            { postId: 'po_1', status: 'complete', charged: true },
            { postId: 'po_2', status: 'holding', charged: false },
          ],
          at: AT,
        },
      })
      .events();
    const events = given([opened, queued, ...first])
      .when({
        type: 'RecordPostOutcomes',
        data: { outcomes: [{ postId: 'po_2', status: 'complete', charged: true }], at: AT },
      })
      .events();
    expect(events.map((e) => e.type)).toEqual(['JobPostOutcomeRecorded', 'JobSettled']);
    expect(events[0].data).toMatchObject({ postId: 'po_2', status: 'complete', charged: true });
    const job = fold([opened, queued, ...first, ...events]);
    expect(job.status).toBe('completed');
    expect(job.outcomes.po_2).toEqual({ status: 'complete', charged: true });
  });

  it.each([
    {
      type: 'RecordPostOutcomes' as const,
      data: { outcomes: [{ postId: 'po_1', status: 'complete' as const, charged: true }], at: AT },
    },
    { type: 'QueueJob' as const, data: { accepted: [], skipped: [], rejected: [], at: AT } },
    { type: 'FailJob' as const, data: { error: { code: 'x', message: 'x' }, at: AT } },
  ])('never reopens a terminal job with $type', (command) => {
    const settled: ContentJobEvent = { type: 'JobSettled', data: { status: 'failed', error: null, at: AT } };
    given([opened, queued, settled]).when(command).then([]);
  });

  it('completes a dry run at discovery, with the estimate', () => {
    const account: ContentJobEvent = {
      type: 'ContentJobOpened',
      data: { ...accountRequest(true), credits: { source: 'auto', perPost: 5 } },
    };
    const found = [
      { link: 'l', postedAt: AT, postType: 'video' as const, engagement: { views: 1, likes: 1 } },
    ];
    const events = given([account])
      .when({ type: 'RecordDiscovery', data: { discovered: found, at: AT } })
      .events();
    const job = fold([account, ...events]);
    expect(job).toMatchObject({ status: 'completed', discovered: found, estimated: 5 });
    expect(jobCounts(job).discovered).toBe(1);
  });

  it('completes an account job with no match at discovery', () => {
    const none = given([{ type: 'ContentJobOpened', data: accountRequest(false) }])
      .when({ type: 'RecordDiscovery', data: { discovered: [], at: AT } })
      .events();
    expect(none.map((e) => e.type)).toEqual(['AccountDiscovered', 'JobSettled']);
  });
});

describe('content job decider: outcomes that arrive before the job is queued', () => {
  const early = given([opened])
    .when({
      type: 'RecordPostOutcomes',
      data: {
        outcomes: [
          { postId: 'po_1', status: 'complete', charged: true },
          { postId: 'po_2', status: 'complete', charged: true },
        ],
        at: AT,
      },
    })
    .events();

  it('keeps them while queuing', () => {
    expect(early.map((e) => e.type)).toEqual(['JobPostOutcomeRecorded', 'JobPostOutcomeRecorded']);
  });

  it('settles when the job is queued', () => {
    const events = given([opened, ...early])
      .when({ type: 'QueueJob', data: { accepted: queued.data.accepted, skipped: [], rejected: [], at: AT } })
      .events();
    expect(events.map((e) => e.type)).toEqual(['ContentJobQueued', 'JobSettled']);
    expect(fold([opened, ...early, ...events]).status).toBe('completed');
  });
});
