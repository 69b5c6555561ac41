import { contentJobDecider, contentJobStream, type JobRequest } from '@analyst/domain-content';
import {
  CommandRunner,
  eventTopic,
  FixedClock,
  HttpMetrics,
  MESSAGE_BUS,
  MemoryReadStore,
  type MessageBus,
} from '@analyst/platform';
import { eventually } from '@analyst/testing';
import {
  CONTENT_JOBS,
  DEFAULT_INGEST_OPTIONS,
  INGEST_OPTIONS,
  QueuingJobResumer,
  type IngestOptions,
} from '@analyst/ingest';
import { IngestMetrics } from '../src/metrics/ingest-metrics';
import { ingestTest, LINKS, START, type IngestTest } from './ingest-fixture';

async function value(
  metrics: HttpMetrics,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`${name} is not registered`);
  const { values } = await metric.get();
  return values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

/** A posts job whose request died right after opening it: it stays `queuing` until the resumer. */
function openedJob(jobId: string, teamId: string, at: string): JobRequest {
  return {
    jobId,
    teamId,
    kind: 'posts',
    fingerprint: `fp-${jobId}`,
    createdAt: at,
    expiresAt: '2026-04-30T00:00:00.000Z',
    collections: [],
    tags: [],
    credits: { source: 'auto', perPost: 1 },
    capture: { fullRead: false, commentLimit: null },
    requested: 1,
    links: [LINKS.youtube(jobId)],
    addedBy: { id: 'key_1', name: 'metrics test' },
    account: null,
    dryRun: null,
    filters: null,
  };
}

describe('ingest metrics', () => {
  let f: IngestTest;
  let http: HttpMetrics;
  let metrics: IngestMetrics;

  beforeEach(async () => {
    f = await ingestTest();
    http = f.t.app.get(HttpMetrics);
    metrics = f.t.app.get(IngestMetrics);
  });
  afterEach(() => f.close());

  it('counts jobs per open status, and those quiet in queuing past ANALYST_QUEUING_RESUME_AFTER_MS', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const key = await f.key(teamId);
    // A job that ran to the end is not counted under any open status.
    const done = await f.post('/content/posts/add', key.key, { links: [LINKS.youtube('metricsdone')] });
    await f.settle(done.body.data.id, key.key);

    const runner = f.t.app.get(CommandRunner);
    const bound = f.t.app.get<IngestOptions>(INGEST_OPTIONS).queuingResumeAfterMs;
    await runner.run(
      contentJobStream('job_old'),
      contentJobDecider,
      { type: 'OpenJob', data: openedJob('job_old', teamId, f.clock.now().toISOString()) },
      { correlationId: 'c1', teamId },
    );
    f.clock.advance(bound - 30_000);
    await runner.run(
      contentJobStream('job_new'),
      contentJobDecider,
      { type: 'OpenJob', data: openedJob('job_new', teamId, f.clock.now().toISOString()) },
      { correlationId: 'c2', teamId },
    );
    f.clock.advance(30_001);
    await eventually(async () => (await f.store.collection(CONTENT_JOBS).count({ status: 'queuing' })) === 2);

    await metrics.refresh();
    expect(await value(http, 'analyst_content_jobs', { status: 'queuing' })).toBe(2);
    expect(await value(http, 'analyst_content_jobs', { status: 'syncing' })).toBe(0);
    expect(await value(http, 'analyst_content_jobs', { status: 'discovering' })).toBe(0);
    // Only job_old has been quiet for longer than the bound (by 1 ms).
    expect(await value(http, 'analyst_content_jobs_queuing_overdue')).toBe(1);

    // The resumer finishes it; the next refresh shows it gone from queuing.
    expect((await f.t.app.get(QueuingJobResumer).runOnce()).resumed).toEqual(['job_old']);
    await eventually(async () => (await f.store.collection(CONTENT_JOBS).count({ status: 'queuing' })) === 1);
    await metrics.refresh();
    expect(await value(http, 'analyst_content_jobs', { status: 'queuing' })).toBe(1);
    expect(await value(http, 'analyst_content_jobs_queuing_overdue')).toBe(0);
  });

  it('starts every manager at 0 and counts a process manager handler failure, which the bus then redelivers', async () => {
    for (const manager of [
      'ingest-fetch',
      'ingest-credits',
      'ingest-jobs',
      'ingest-discovery',
      'queuing-resumer',
    ]) {
      expect(await value(http, 'analyst_process_manager_errors_total', { manager })).toBe(0);
    }
    // A malformed event on the discovery manager's topic: its handler throws on every delivery.
    void f.t.app
      .get<MessageBus>(MESSAGE_BUS)
      .publish(eventTopic('contentjob'), [
        { id: 'poison', key: 'contentjob-poison', type: 'ContentJobOpened', payload: null },
      ])
      .catch(() => undefined);
    await eventually(
      async () =>
        ((await value(http, 'analyst_process_manager_errors_total', { manager: 'ingest-discovery' })) ?? 0) >=
        2,
    );
    expect(await value(http, 'analyst_process_manager_errors_total', { manager: 'ingest-fetch' })).toBe(0);
  });
});

describe('ingest metrics: the queuing resumer errors', () => {
  it('moves the counter by what the resumer added since the last scrape, never backwards', async () => {
    const resumer = { errors: 0 } as QueuingJobResumer;
    const http = new HttpMetrics('ingest');
    new IngestMetrics(new MemoryReadStore(), new FixedClock(START), DEFAULT_INGEST_OPTIONS, resumer, http);
    expect(await value(http, 'analyst_process_manager_errors_total', { manager: 'queuing-resumer' })).toBe(0);
    resumer.errors = 2;
    expect(await value(http, 'analyst_process_manager_errors_total', { manager: 'queuing-resumer' })).toBe(2);
    expect(await value(http, 'analyst_process_manager_errors_total', { manager: 'queuing-resumer' })).toBe(2);
    resumer.errors = 5;
    expect(await http.registry.metrics()).toContain(
      'analyst_process_manager_errors_total{manager="queuing-resumer",service="ingest"} 5',
    );
  });
});
