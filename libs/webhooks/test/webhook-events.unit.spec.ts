import { SqliteEventStore } from '@analyst/adapter-sqlite';
import type { PostCreated, ProviderPost } from '@analyst/contracts';
import {
  analysisDecider,
  analysisStream,
  type AnalysisCommand,
  type AnalysisCreatedData,
  type AnalysisResult,
} from '@analyst/domain-analysis';
import {
  contentJobDecider,
  contentJobStream,
  postDecider,
  postStream,
  type ContentJobCommand,
  type JobRequest,
  type PostCommand,
} from '@analyst/domain-content';
import {
  CommandRunner,
  FixedClock,
  SequentialIdGenerator,
  type Decider,
  type RecordedEvent,
} from '@analyst/eventsourcing';
import { commentsOfVersion } from '@analyst/testing';
import {
  isSubscribableWebhookEvent,
  toWebhookEvent,
  webhookEndpointDecider,
  webhookEndpointsStream,
  webhookEventId,
  WEBHOOK_SOURCE_EVENT_TYPES,
  type WebhookEndpointCommand,
  type WebhookEvent,
} from '../src';

const TEAM = 'tm_1';
const AT = '2026-03-10T12:00:00.000Z';
const LATER = '2026-03-11T08:30:00.000Z';

/**
 * The deciders run through the command runner on an in-memory SQLite log, so the mapped events are
 * recorded events as the services store them (ids, metadata, streams, positions).
 */
class RecordedLog {
  readonly store = new SqliteEventStore({ filename: ':memory:' });
  readonly clock = new FixedClock(AT);
  private readonly runner = new CommandRunner(this.store, this.clock, new SequentialIdGenerator());

  async run<C, E extends { type: string; data: unknown }, S>(
    stream: string,
    decider: Decider<C, E, S>,
    command: C,
  ): Promise<void> {
    await this.runner.run(stream, decider, command, { correlationId: 'req_1', teamId: TEAM });
  }

  async all(): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    for await (const page of this.store.readAll()) events.push(...page);
    return events;
  }

  async webhookEvents(): Promise<WebhookEvent[]> {
    return (await this.all()).map(toWebhookEvent).filter((e): e is WebhookEvent => e !== null);
  }
}

const jobRequest = (jobId: string): JobRequest => ({
  jobId,
  teamId: TEAM,
  kind: 'posts',
  fingerprint: 'f',
  createdAt: AT,
  expiresAt: '2026-04-09T12:00:00.000Z',
  collections: [],
  tags: [],
  credits: { source: 'auto', perPost: 1 },
  capture: { fullRead: false, commentLimit: null },
  requested: 2,
  addedBy: { id: 'ak_1', name: 'k' },
  account: null,
  dryRun: null,
  filters: null,
});
const accepted = (postId: string) => ({
  link: `https://x.com/a/status/${postId}`,
  postId,
  postStatus: 'fetching' as const,
  creditSource: 'credit' as const,
  creditCost: 1,
  dataVersion: 1,
});

async function settleJob(
  log: RecordedLog,
  jobId: string,
  outcomes: ('complete' | 'failed')[],
  rejected: { link: string; reason: 'invalid_url' }[] = [],
): Promise<void> {
  const run = (command: ContentJobCommand) => log.run(contentJobStream(jobId), contentJobDecider, command);
  const postIds = outcomes.map((_, i) => `po_${jobId}_${i}`);
  await run({ type: 'OpenJob', data: jobRequest(jobId) });
  await run({ type: 'QueueJob', data: { accepted: postIds.map(accepted), skipped: [], rejected, at: AT } });
  log.clock.set(LATER);
  await run({
    type: 'RecordPostOutcomes',
    data: {
      outcomes: outcomes.map((status, i) => ({ postId: postIds[i], status, charged: true })),
      at: LATER,
    },
  });
}

const scope = {
  postCount: 3,
  totalComments: 1200,
  matchedComments: 150,
  matchedPosts: 2,
  shareOfComments: 0.125,
  shareOfContent: 0.6667,
};
/** The rest of a result is carried unread by the mapping; the scope is what it reads. */
const result = { scope } as unknown as AnalysisResult;
const analysisCreated = (analysisId: string): AnalysisCreatedData => ({
  analysisId,
  teamId: TEAM,
  kind: 'search',
  selection: { type: 'postIds', postIds: ['po_1', 'po_2', 'po_3'] },
  filters: null,
  search: { mode: 'ai', query: 'battery', minRelevance: 0.82 },
  include: [],
  postIds: ['po_1', 'po_2', 'po_3'],
  postCount: 3,
  selectionTruncated: false,
  settings: { scoreVersion: 3, engagementWeight: 1 },
  createdAt: AT,
  expiresAt: '2026-03-17T12:00:00.000Z',
});

const providerPost: ProviderPost = {
  link: 'https://youtube.com/watch?v=a',
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
const postCreated = (postId: string): PostCreated['data'] => ({
  postId,
  teamId: TEAM,
  link: providerPost.link,
  normalizedLink: providerPost.link,
  platform: 'youtube',
  collectionIds: [],
  tags: [],
  addedVia: 'api',
  addedBy: { id: 'ak_1', name: 'key' },
  isDemo: false,
  dataVersion: 1,
  jobId: 'cj_add',
  reservationId: 'rs_1',
  creditSource: 'credit',
  unitCost: 1,
  fullRead: false,
  commentLimit: null,
  requestedAt: AT,
});

async function scoreVersion(log: RecordedLog, postId: string, version: number, count: number) {
  const run = (command: PostCommand) => log.run(postStream(postId), postDecider, command);
  const { fetched, scored } = commentsOfVersion(postId, version, count);
  await run({
    type: 'RecordFetch',
    data: {
      dataVersion: version,
      at: LATER,
      result: { status: 'ok', post: providerPost, comments: fetched },
    },
  });
  await run({
    type: 'RecordScores',
    data: {
      dataVersion: version,
      at: LATER,
      scorer: { name: 'test', version: '1' },
      topics: [],
      messages: [],
      comments: scored,
    },
  });
  return fetched.map((c) => c.body);
}

describe('webhook events from the log', () => {
  let log: RecordedLog;
  beforeEach(() => {
    log = new RecordedLog();
  });
  afterEach(() => log.store.close());

  it('a content job that settles completed, partial or failed is one content_job event of that status', async () => {
    await settleJob(log, 'cj_done', ['complete', 'complete']);
    await settleJob(log, 'cj_some', ['complete'], [{ link: 'nope', reason: 'invalid_url' }]);
    await settleJob(log, 'cj_none', ['failed']);
    const events = await log.webhookEvents();
    expect(events.map((e) => [e.type, e.data.id])).toEqual([
      ['content_job.completed', 'cj_done'],
      ['content_job.partial', 'cj_some'],
      ['content_job.failed', 'cj_none'],
    ]);
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'content_job.completed',
      // When the log recorded the fact.
      createdAt: LATER,
      teamId: TEAM,
      data: {
        object: 'content_job',
        id: 'cj_done',
        status: 'completed',
        error: null,
        completedAt: LATER,
        path: '/content/jobs/cj_done',
      },
    });
    expect(events[2].data).toMatchObject({
      status: 'failed',
      error: { code: 'processing_failed', message: 'no post could be processed' },
    });
  });

  it('a job that fails before it is queued (FailJob) is content_job.failed with its error', async () => {
    const run = (command: ContentJobCommand) =>
      log.run(contentJobStream('cj_broke'), contentJobDecider, command);
    await run({ type: 'OpenJob', data: jobRequest('cj_broke') });
    await run({
      type: 'FailJob',
      data: { error: { code: 'no_active_plan', message: 'the team has no active plan' }, at: LATER },
    });
    const [event] = await log.webhookEvents();
    expect(event.type).toBe('content_job.failed');
    expect(event.data).toEqual({
      object: 'content_job',
      id: 'cj_broke',
      status: 'failed',
      error: { code: 'no_active_plan', message: 'the team has no active plan' },
      completedAt: LATER,
      path: '/content/jobs/cj_broke',
    });
  });

  it('an analysis that completes is analysis.ready with its scope counts; one that fails is analysis.failed', async () => {
    const run = (id: string, command: AnalysisCommand) =>
      log.run(analysisStream(id), analysisDecider, command);
    await run('an_ok', { type: 'CreateAnalysis', data: analysisCreated('an_ok') });
    await run('an_ok', { type: 'StartAnalysis', data: { phase: 'searching', at: AT } });
    await run('an_ok', { type: 'CompleteAnalysis', data: { result, at: LATER } });
    await run('an_bad', { type: 'CreateAnalysis', data: analysisCreated('an_bad') });
    await run('an_bad', {
      type: 'FailAnalysis',
      data: { message: 'the search model is unavailable', at: LATER },
    });
    const events = await log.webhookEvents();
    expect(events.map((e) => [e.type, e.teamId, e.data])).toEqual([
      [
        'analysis.ready',
        TEAM,
        {
          object: 'analysis',
          id: 'an_ok',
          status: 'ready',
          postCount: 3,
          totalComments: 1200,
          matchedComments: 150,
          error: null,
          completedAt: LATER,
          path: '/analyses/an_ok',
        },
      ],
      [
        'analysis.failed',
        TEAM,
        {
          object: 'analysis',
          id: 'an_bad',
          status: 'failed',
          postCount: null,
          totalComments: null,
          matchedComments: null,
          error: { message: 'the search model is unavailable' },
          completedAt: LATER,
          path: '/analyses/an_bad',
        },
      ],
    ]);
  });

  it('an analysis computed inline (created ready) is analysis.ready too', async () => {
    await log.run(analysisStream('an_inline'), analysisDecider, {
      type: 'CreateAnalysis',
      data: { ...analysisCreated('an_inline'), kind: 'snapshot', result },
    });
    expect((await log.webhookEvents()).map((e) => [e.type, e.data.id])).toEqual([
      ['analysis.ready', 'an_inline'],
    ]);
  });

  it("a post's scored version is post.updated (added, then refreshed), without a comment body", async () => {
    const run = (command: PostCommand) => log.run(postStream('po_9'), postDecider, command);
    await run({ type: 'CreatePost', data: postCreated('po_9') });
    const bodies = await scoreVersion(log, 'po_9', 1, 4);
    await run({
      type: 'RequestRefresh',
      data: {
        jobId: 'cj_refresh',
        reservationId: null,
        creditSource: 'included',
        unitCost: 0,
        fullRead: false,
        commentLimit: null,
        requestedAt: LATER,
      },
    });
    bodies.push(...(await scoreVersion(log, 'po_9', 2, 5)));
    const events = await log.webhookEvents();
    expect(events.map((e) => e.data)).toEqual([
      {
        object: 'post',
        id: 'po_9',
        status: 'complete',
        dataVersion: 1,
        reason: 'added',
        totalComments: 4,
        jobId: 'cj_add',
        updatedAt: LATER,
        path: '/posts/po_9/analysis',
      },
      {
        object: 'post',
        id: 'po_9',
        status: 'complete',
        dataVersion: 2,
        reason: 'refreshed',
        totalComments: 5,
        jobId: 'cj_refresh',
        updatedAt: LATER,
        path: '/posts/po_9/analysis',
      },
    ]);
    expect(events.every((e) => e.type === 'post.updated')).toBe(true);
    const pushed = JSON.stringify(events);
    expect(bodies).toHaveLength(9);
    for (const body of bodies) expect(pushed).not.toContain(body);
  });

  it('every other event of those streams maps to none', async () => {
    await settleJob(log, 'cj_x', ['complete']);
    const run = (command: PostCommand) => log.run(postStream('po_x'), postDecider, command);
    await run({ type: 'CreatePost', data: postCreated('po_x') });
    await scoreVersion(log, 'po_x', 1, 3);
    const all = await log.all();
    const mapped = all.filter((e) => toWebhookEvent(e) !== null).map((e) => e.type);
    expect(mapped).toEqual(['JobSettled', 'PostScored']);
    expect(all.length).toBeGreaterThan(6);
    expect(new Set(WEBHOOK_SOURCE_EVENT_TYPES)).toEqual(
      new Set([
        'JobSettled',
        'ContentJobFailed',
        'AnalysisCompleted',
        'AnalysisFailed',
        'PostScored',
        'WebhookEndpointPinged',
      ]),
    );
  });

  it('the same recorded event gives the same event id however often it is read; different events differ', async () => {
    await settleJob(log, 'cj_a', ['complete']);
    await settleJob(log, 'cj_b', ['complete']);
    const first = await log.webhookEvents();
    const again = await log.webhookEvents();
    expect(again).toEqual(first);
    const settled = (await log.all()).filter((e) => e.type === 'JobSettled');
    expect(first.map((e) => e.id)).toEqual(settled.map((e) => webhookEventId(e.id)));
    expect(new Set(first.map((e) => e.id)).size).toBe(2);
    expect(webhookEventId('ev_0mk1abc')).toBe('evt_0mk1abc');
  });

  it('an event without a team, or a job event outside a job stream, is not pushed', async () => {
    await settleJob(log, 'cj_t', ['complete']);
    const [settled] = (await log.all()).filter((e) => e.type === 'JobSettled');
    expect(toWebhookEvent(settled)).not.toBeNull();
    expect(toWebhookEvent({ ...settled, metadata: { ...settled.metadata, teamId: null } })).toBeNull();
    expect(toWebhookEvent({ ...settled, streamId: 'ledger-tm_1' })).toBeNull();
  });

  it("a ping is webhook.ping for its endpoint, of the endpoint's team; the endpoint's other events map to none", async () => {
    const run = (command: WebhookEndpointCommand) =>
      log.run(webhookEndpointsStream(TEAM), webhookEndpointDecider, command);
    const url = new URL('https://hooks.example.com/analyst');
    await run({
      type: 'RegisterWebhookEndpoint',
      data: {
        endpointId: 'we_pinged0001',
        teamId: TEAM,
        urlCheck: { ok: true, url, addresses: ['93.184.216.34'] },
        events: ['analysis.ready'],
        secret: 'whsec_test',
        at: AT,
      },
    });
    await run({
      type: 'PingWebhookEndpoint',
      data: { endpointId: 'we_pinged0001', pingId: 'ping_1', at: LATER },
    });
    await run({ type: 'DeleteWebhookEndpoint', data: { endpointId: 'we_pinged0001', at: LATER } });
    const all = await log.all();
    const pinged = all.find((e) => e.type === 'WebhookEndpointPinged')!;
    expect(await log.webhookEvents()).toEqual([
      {
        id: webhookEventId(pinged.id),
        type: 'webhook.ping',
        createdAt: pinged.metadata.occurredAt,
        teamId: TEAM,
        data: { object: 'webhook_endpoint', id: 'we_pinged0001', path: '/webhooks/we_pinged0001' },
      },
    ]);
    // The endpoint's team, even when the append's metadata names another (an Enterprise parent's key).
    const asParent = toWebhookEvent({ ...pinged, metadata: { ...pinged.metadata, teamId: 'tm_parent' } });
    expect(asParent?.teamId).toBe(TEAM);
    expect(isSubscribableWebhookEvent(asParent!)).toBe(false);
  });
});
