import { CONTENT_PROVIDER, type ContentProvider } from '@analyst/contracts';
import { simulatedCommentCount } from '@analyst/provider-sim';
import {
  AddPostsHandler,
  RefreshPostsHandler,
  CONTENT_JOBS,
  INGEST_OPTIONS,
  POSTS,
  QueuingJobResumer,
  type IngestOptions,
} from '@analyst/ingest';
import { contentJobDecider, contentJobStream, type ContentJob } from '@analyst/domain-content';
import {
  CLOCK,
  CommandRunner,
  ID_GENERATOR,
  MemoryReadStore,
  ProjectionService,
  type Clock,
  type Doc,
  type IdGenerator,
  type ReadCollection,
  type ReadStore,
} from '@analyst/platform';
import { CollectionsResolver } from '../src/steps/collections-resolver';
import { Dedupe } from '../src/steps/dedupe';
import { FundCheck } from '../src/steps/fund-check';
import { ReserveAndCreate } from '../src/steps/reserve-and-create';
import { TeamQueue } from '../src/request/team-queue';
import { LedgerClient } from '../src/pipeline/ledger-client';
import { ingestTest, LINKS, type IngestTest } from './ingest-fixture';
import { CollectionCommands } from '../src/commands/collection-commands';
import { ContentJobCommands } from '../src/commands/content-job-commands';
import { LinkClaimCommands } from '../src/commands/link-claim-commands';
import { PostCommands } from '../src/commands/post-commands';
import { RequestClaimCommands } from '../src/commands/request-claim-commands';

/**
 * A second ingest replica in the same log: its own in-process team queue, and read models that have
 * not seen any post or job yet (a replica whose projection lags the log). Credits are read through,
 * so its fund check passes as a live one would.
 */
class LaggingReadStore implements ReadStore {
  private readonly blank = new MemoryReadStore();
  constructor(private readonly real: ReadStore) {}
  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return name === POSTS || name === CONTENT_JOBS
      ? this.blank.collection<T>(name)
      : this.real.collection<T>(name);
  }
  listCollections = () => this.real.listCollections();
  ping = () => this.real.ping();
  close = async () => {};
}

/** A ledger client whose process dies after `survive` reservations: every later call throws. */
class DyingLedgerClient extends LedgerClient {
  private reservations = 0;
  constructor(
    private readonly inner: LedgerClient,
    private readonly survive: number,
  ) {
    super(undefined as never, undefined as never);
  }
  override reserve(...args: Parameters<LedgerClient['reserve']>) {
    if (++this.reservations > this.survive) return Promise.reject(new Error('process killed'));
    return this.inner.reserve(...args);
  }
  override settle(...args: Parameters<LedgerClient['settle']>) {
    return this.inner.settle(...args);
  }
  override refund(...args: Parameters<LedgerClient['refund']>) {
    return this.inner.refund(...args);
  }
  override checkReachable() {
    return this.inner.checkReachable();
  }
}

function secondReplica(f: IngestTest, ledger?: LedgerClient): AddPostsHandler {
  const app = f.t.app;
  const store = new LaggingReadStore(f.store);
  const ids = app.get<IdGenerator>(ID_GENERATOR);
  const clock = app.get<Clock>(CLOCK);
  const ledgerClient: LedgerClient = ledger ?? app.get(LedgerClient);
  return new AddPostsHandler(
    ids,
    clock,
    app.get<ContentProvider>(CONTENT_PROVIDER),
    new TeamQueue(),
    new CollectionsResolver(store, ids, clock, app.get(CollectionCommands)),
    app.get(RequestClaimCommands),
    new Dedupe(store),
    new FundCheck(store, clock, ledgerClient),
    new ReserveAndCreate(ids, clock, app.get(PostCommands), app.get(LinkClaimCommands), ledgerClient),
    app.get(ContentJobCommands),
    app.get(ProjectionService),
  );
}

function requesterFor(teamId: string, key: { id: string; name: string }) {
  return {
    keyId: key.id,
    keyName: key.name,
    teamId,
    plan: 'scale' as const,
    correlationId: `replica-b-${teamId}`,
  };
}

/** Every PostCreated of the team in the log, by normalized link. */
async function postsPerLink(f: IngestTest, teamId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const page of f.events.readAll(-1)) {
    for (const e of page) {
      const d = e.data as { teamId?: string; normalizedLink?: string };
      if (e.type === 'PostCreated' && d.teamId === teamId)
        counts.set(d.normalizedLink!, (counts.get(d.normalizedLink!) ?? 0) + 1);
    }
  }
  return counts;
}

async function eventTypes(f: IngestTest, afterPosition: number): Promise<string[]> {
  const types: string[] = [];
  for await (const page of f.events.readAll(afterPosition)) types.push(...page.map((e) => e.type));
  return types;
}

/** Credits a batch ends up charged: posts the simulated provider finds empty are refunded. */
const charged = (batch: string[]) => batch.filter((l) => (simulatedCommentCount(l) ?? 0) > 0).length;

const links = (prefix: string, from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) =>
    LINKS.youtube(`${prefix}${String(from + i).padStart(3, '0')}`),
  );

describe('content adds across replicas: one job per request, one post per link, decided by the event store', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest()));
  afterAll(() => f.close());

  it('the same body at once on two replicas: one job, one post per link, one charge per post', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 50 });
    const key = await f.key(teamId);
    const body = { links: links('rpa', 1, 10), credits: { source: 'adhoc' as const } };
    const [viaA, viaB] = await Promise.all([
      f.post('/content/posts/add', key.key, body),
      secondReplica(f).add(requesterFor(teamId, key), body),
    ]);
    expect(viaA.body.data.id).toBe(viaB.job.jobId);
    // Exactly one of the two opened the job; the other answered with it.
    expect([viaA.status === 202, !viaB.replayed].filter(Boolean)).toHaveLength(1);
    const perLink = await postsPerLink(f, teamId);
    expect(perLink.size).toBe(10);
    expect([...perLink.values()].every((n) => n === 1)).toBe(true);
    const done = await f.settle(viaA.body.data.id, key.key);
    expect(done.body.data.counts).toEqual({
      requested: 10,
      accepted: 10,
      skipped: 0,
      rejected: 0,
      syncing: 0,
      complete: 10,
      failed: 0,
    });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 50 - charged(body.links), reserved: 0 });
    const jobs = await f.get('/content/jobs', key.key);
    expect(jobs.body.data.map((j: { id: string }) => j.id)).toEqual([viaA.body.data.id]);
  });

  it('overlapping bodies at once on two replicas: each shared link is accepted by exactly one job and skipped by the other', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 50 });
    const key = await f.key(teamId);
    const first = links('rpb', 1, 10);
    const second = links('rpb', 6, 15);
    const [viaA, viaB] = await Promise.all([
      f.post('/content/posts/add', key.key, { links: first }),
      secondReplica(f).add(requesterFor(teamId, key), { links: second }),
    ]);
    expect(viaA.status).toBe(202);
    expect(viaB.replayed).toBe(false);
    const jobA = viaA.body.data;
    const jobB = viaB.job;
    const perLink = await postsPerLink(f, teamId);
    expect(perLink.size).toBe(15);
    expect([...perLink.values()].every((n) => n === 1)).toBe(true);
    for (const link of links('rpb', 6, 10)) {
      const inA = jobA.accepted.some((a: { link: string }) => a.link === link);
      const inB = jobB.accepted.some((a) => a.link === link);
      expect(inA !== inB).toBe(true);
      const skipped = (inA ? jobB.skipped : jobA.skipped).find((s: { link: string }) => s.link === link);
      expect(['already_processing', 'already_complete']).toContain(skipped?.reason);
    }
    expect(jobA.accepted.length + jobB.accepted.length).toBe(15);
    await f.settle(jobA.id, key.key);
    await f.settle(jobB.jobId, key.key);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({
      maps: 0,
      adhoc: 50 - charged(links('rpb', 1, 15)),
      reserved: 0,
    });
  });

  it('an Idempotency-Key names one request: the same key replays its job, the same key with another body is 409 and writes nothing', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 10 });
    const key = await f.key(teamId);
    const post = (body: unknown, idempotencyKey: string) =>
      f.t.request('POST', '/analyst/v1/content/posts/add', {
        headers: { authorization: `Bearer ${key.key}`, 'idempotency-key': idempotencyKey },
        body,
      });
    const body = { links: links('rpc', 1, 2) };
    const first = await post(body, 'order-7f3a9c');
    expect(first.status).toBe(202);
    const again = await post(body, 'order-7f3a9c');
    expect(again.status).toBe(200);
    expect(again.body.meta.replayed).toBe(true);
    expect(again.body.data.id).toBe(first.body.data.id);
    await f.settle(first.body.data.id, key.key);
    await f.idle(teamId);
    const head = await f.events.headPosition();
    const reused = await post({ links: links('rpc', 3, 4) }, 'order-7f3a9c');
    expect(reused.status).toBe(409);
    expect(reused.body.error).toEqual({
      code: 'idempotency_key_reused',
      message: expect.stringContaining(first.body.data.id),
    });
    const malformed = await post(body, 'has spaces in it');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toContain('Idempotency-Key');
    expect(await f.events.headPosition()).toBe(head);
    expect((await postsPerLink(f, teamId)).size).toBe(2);
  });

  it('a replica that dies mid-add leaves the job queuing; the client retry on another replica finishes that job, once per link', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const key = await f.key(teamId);
    const body = { links: links('rpd', 1, 8) };
    const dying = secondReplica(f, new DyingLedgerClient(f.t.app.get(LedgerClient), 3));
    await expect(dying.add(requesterFor(teamId, key), body)).rejects.toThrow('process killed');
    const interrupted = await f.t.app
      .get(CommandRunner)
      .load(contentJobStream(await onlyJobId(f, teamId)), contentJobDecider);
    expect(interrupted.state.status).toBe('queuing');
    expect((await postsPerLink(f, teamId)).size).toBe(3);

    const retried = await f.post('/content/posts/add', key.key, body);
    expect(retried.status).toBe(200);
    expect(retried.body.meta.replayed).toBe(true);
    expect(retried.body.data.id).toBe((interrupted.state as ContentJob).jobId);
    expect(retried.body.data.counts).toMatchObject({ requested: 8, accepted: 8, skipped: 0, rejected: 0 });
    const perLink = await postsPerLink(f, teamId);
    expect(perLink.size).toBe(8);
    expect([...perLink.values()].every((n) => n === 1)).toBe(true);
    await f.settle(retried.body.data.id, key.key);
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 20 - charged(body.links), reserved: 0 });
  });

  it('without any retry, the resumer finishes a job quiet in queuing past the bound, and every reserved credit ends', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const key = await f.key(teamId);
    const body = { links: links('rpe', 1, 6) };
    const dying = secondReplica(f, new DyingLedgerClient(f.t.app.get(LedgerClient), 2));
    await expect(dying.add(requesterFor(teamId, key), body)).rejects.toThrow('process killed');
    const jobId = await onlyJobId(f, teamId);
    const resumer = f.t.app.get(QueuingJobResumer);
    // Inside the bound the job may still be a live request elsewhere: left alone.
    expect(await resumer.runOnce()).toEqual({ resumed: [], failed: [] });
    f.clock.advance(f.t.app.get<IngestOptions>(INGEST_OPTIONS).queuingResumeAfterMs + 1);
    expect(await resumer.runOnce()).toEqual({ resumed: [jobId], failed: [] });
    const { state } = await f.t.app.get(CommandRunner).load(contentJobStream(jobId), contentJobDecider);
    expect(state.status).not.toBe('queuing');
    expect((state as ContentJob).accepted).toHaveLength(6);
    const done = await f.settle(jobId, key.key);
    expect(done.body.data.counts).toMatchObject({ accepted: 6, syncing: 0, complete: charged(body.links) });
    await f.idle(teamId);
    expect(await f.credits(teamId)).toEqual({ maps: 0, adhoc: 20 - charged(body.links), reserved: 0 });
    expect(await resumer.runOnce()).toEqual({ resumed: [], failed: [] });
  });

  it('a refresh interrupted between reservations is finished by the resumer: done posts accepted, the rest refunded and rejected', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 20 });
    const key = await f.key(teamId);
    const added = links('rpg', 1, 3);
    const add = await f.post('/content/posts/add', key.key, { links: added });
    await f.settle(add.body.data.id, key.key);
    await f.idle(teamId);
    const postIds = add.body.data.accepted.map((a: { postId: string }) => a.postId);
    f.clock.advance(13 * 3_600_000); // past the 12-hour floor, inside Scale's daily cadence: every refresh is paid
    const app = f.t.app;
    const dyingLedger = new DyingLedgerClient(app.get(LedgerClient), 1);
    const store = new LaggingReadStore(f.store);
    const ids = app.get<IdGenerator>(ID_GENERATOR);
    const clock = app.get<Clock>(CLOCK);
    const posts = app.get(PostCommands);
    const dying = new RefreshPostsHandler(
      f.store,
      ids,
      clock,
      app.get(ContentJobCommands),
      posts,
      app.get(ProjectionService),
      new FundCheck(store, clock, dyingLedger),
      dyingLedger,
      new TeamQueue(),
    );
    await expect(dying.refresh(requesterFor(teamId, key), { postIds })).rejects.toThrow('process killed');
    const jobId = (await f.get('/content/jobs?status=queuing', key.key)).body.data[0].id;
    f.clock.advance(app.get<IngestOptions>(INGEST_OPTIONS).queuingResumeAfterMs + 1);
    expect(await app.get(QueuingJobResumer).runOnce()).toEqual({ resumed: [jobId], failed: [] });
    const done = await f.settle(jobId, key.key);
    expect(
      done.body.data.accepted.map((a: { postId: string; creditSource: string; dataVersion: number }) => [
        a.postId,
        a.creditSource,
        a.dataVersion,
      ]),
    ).toEqual([[postIds[0], 'credit', 2]]);
    expect(done.body.data.rejected.map((r: { reason: string }) => r.reason)).toEqual([
      'create_failed',
      'create_failed',
    ]);
    await f.idle(teamId);
    const refreshCharge = charged([added[0]]);
    expect(await f.credits(teamId)).toEqual({
      maps: 0,
      adhoc: 20 - charged(added) - refreshCharge,
      reserved: 0,
    });
  });

  it('a link released after its funding failed can be claimed by a later request', async () => {
    const teamId = await f.team('scale', { maps: 0, adhoc: 1 });
    const key = await f.key(teamId);
    const [a, b] = links('rpf', 1, 2);
    const first = await f.post('/content/posts/add', key.key, { links: [a, b] });
    expect(first.body.data.rejected).toEqual([{ link: b, reason: 'insufficient_credits' }]);
    await f.settle(first.body.data.id, key.key);
    await f.idle(teamId);
    await f.grant(teamId, 1);
    const second = await f.post('/content/posts/add', key.key, { links: [b] });
    expect(second.status).toBe(202);
    expect(second.body.data.accepted.map((x: { link: string }) => x.link)).toEqual([b]);
    const claims = (await eventTypes(f, -1)).filter(
      (t) => t === 'PostLinkClaimed' || t === 'PostLinkReleased',
    );
    expect(claims.length).toBeGreaterThanOrEqual(4); // a, b claimed; b released; b claimed again
    const perLink = await postsPerLink(f, teamId);
    expect(perLink.size).toBe(2);
  });
});

async function onlyJobId(f: IngestTest, teamId: string): Promise<string> {
  const ids: string[] = [];
  for await (const page of f.events.readAll(-1)) {
    for (const e of page)
      if (e.type === 'ContentJobOpened' && (e.data as { teamId: string }).teamId === teamId)
        ids.push((e.data as { jobId: string }).jobId);
  }
  expect(ids).toHaveLength(1);
  return ids[0];
}

describe('ANALYST_QUEUING_RESUME_AFTER_MS', () => {
  it('sets the bound and a sweep of about a quarter of it; a bad value names the variable', async () => {
    const { ingestOptionsFromEnv } = await import('@analyst/ingest');
    expect(ingestOptionsFromEnv({})).toMatchObject({ queuingResumeAfterMs: 120_000, queuingSweepMs: 15_000 });
    expect(ingestOptionsFromEnv({ ANALYST_QUEUING_RESUME_AFTER_MS: '20000' })).toMatchObject({
      queuingResumeAfterMs: 20_000,
      queuingSweepMs: 5_000,
    });
    expect(() => ingestOptionsFromEnv({ ANALYST_QUEUING_RESUME_AFTER_MS: 'soon' })).toThrow(
      /ANALYST_QUEUING_RESUME_AFTER_MS must be an integer .* got "soon"/,
    );
    expect(() => ingestOptionsFromEnv({ ANALYST_QUEUING_RESUME_AFTER_MS: '10' })).toThrow(
      /ANALYST_QUEUING_RESUME_AFTER_MS/,
    );
  });
});
