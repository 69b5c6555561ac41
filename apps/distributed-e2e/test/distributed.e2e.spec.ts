import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestProjectors } from '@analyst/ingest';
import {
  MemoryReadStore,
  MongoReadStore,
  ProjectionRuntime,
  type Doc,
  type Projector,
} from '@analyst/platform';
import { unique } from '@analyst/testing';
import { ROOT, call, clusterConfig, startApp, stopAll, stopApp, until, type Cluster } from './cluster';
import { E2eEventLog, e2eStoreKinds, storeTitle, type E2eStoreKind } from './e2e-event-store';

const ready = Boolean(process.env.KAFKA_BROKERS && process.env.MONGO_URL);
/**
 * Short enough to run on every store available (SQLite always, PostgreSQL where the local stack
 * runs it; E2E_EVENTSTORE pins one), so the SQLite path the longer suites leave stays tested.
 */
const STORES: [string, E2eStoreKind][] = e2eStoreKinds().map((kind) => [storeTitle(kind), kind]);

/** 11-character YouTube ids, one per post, unique to this run. */
function links(prefix: string, count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) =>
      `https://www.youtube.com/watch?v=${(prefix + String(i).padStart(4, '0')).slice(-11).padStart(11, 'x')}`,
  );
}

interface TeamCredits {
  maps: number;
  adhoc: number;
  reserved: number;
}

(ready ? describe.each(STORES) : describe.skip.each(STORES))(
  'distributed topology: every service its own process over Kafka, MongoDB and the shared log on %s',
  (_title, kind) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'analyst-e2e-'));
    const run = unique('e2e');
    let cluster: Cluster;
    let log: E2eEventLog;
    let key = '';
    let teamId = '';

    async function credits(): Promise<TeamCredits> {
      return (await call(cluster, 'GET', '/analyst/v1/team', { key })).body.data.credits;
    }

    async function settledJob(jobId: string): Promise<any> {
      return until(
        `job ${jobId} to settle`,
        async () => {
          const job = await call(cluster, 'GET', `/analyst/v1/content/jobs/${jobId}`, { key });
          return ['completed', 'partial', 'failed'].includes(job.body.data?.status) ? job.body.data : null;
        },
        60_000,
      );
    }

    beforeAll(async () => {
      log = await E2eEventLog.create(kind, 'distributed', dataDir);
      console.log(`distributed e2e on ${log.describe()}`);
      cluster = clusterConfig({
        dataDir,
        logDir: join(tmpdir(), `analyst-e2e-logs-${run}`), // kept after the run, for post-mortems
        basePort: 19300 + Math.floor(Math.random() * 500) * 7,
        namespace: `${run}.`,
        database: `analyst_${run}`,
        eventStore: log.location,
      });
      // Ledger, ingest, analysis, sampling and the notifier first, so the gateway's demo seed finds the ledger.
      await startApp(cluster, 'relay');
      await Promise.all([
        startApp(cluster, 'ledger'),
        startApp(cluster, 'ingest'),
        startApp(cluster, 'analysis'),
        startApp(cluster, 'sampling'),
        startApp(cluster, 'notifier'),
      ]);
      await startApp(cluster, 'gateway');
    }, 300_000);

    afterAll(async () => {
      await stopAll(cluster);
      await log.dispose();
      const mongo = await MongoReadStore.connect(process.env.MONGO_URL!, cluster.env.MONGO_DB);
      await mongo.database.dropDatabase();
      await mongo.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('creates a team and key, grants credits, adds posts, analyses, samples and audits through the gateway', async () => {
      const team = await call(cluster, 'POST', '/admin/v1/teams', {
        admin: true,
        body: { name: 'E2E', plan: 'scale' },
      });
      expect(team.status).toBe(201);
      teamId = team.body.data.id;
      const created = await call(cluster, 'POST', `/admin/v1/teams/${teamId}/keys`, {
        admin: true,
        body: {
          name: 'e2e',
          scopes: [
            'posts:read',
            'posts:write',
            'analyses:run',
            'analyses:read',
            'comments:read',
            'team:read',
            'collections:read',
          ],
        },
      });
      expect(created.status).toBe(201);
      key = created.body.data.key;

      const grant = await call(cluster, 'POST', `/admin/v1/teams/${teamId}/credits`, {
        admin: true,
        body: { pool: 'adhoc', amount: 200, reason: 'e2e' },
      });
      expect(grant.status).toBe(201);
      expect(grant.body.data.balances.adhoc).toBe(200);

      const added = await call(cluster, 'POST', '/analyst/v1/content/posts/add', {
        key,
        body: {
          links: [...links(`${run}a`, 4), 'https://youtu.be/sim-empty-1'],
          credits: { source: 'adhoc' },
        },
      });
      expect(added.status).toBe(202);
      expect(added.headers.get('location')).toBe(`/analyst/v1/content/jobs/${added.body.data.id}`);
      const job = await settledJob(added.body.data.id);
      expect(['completed', 'partial']).toContain(job.status);
      const postIds: string[] = job.accepted.map((a: { postId: string }) => a.postId);
      // A post that finished with comments is charged one credit; one with none (sim-empty, or a
      // simulated section that happens to be empty) is refunded.
      const listed = await call(cluster, 'GET', '/analyst/v1/posts?status=all&limit=100', { key });
      const charged = listed.body.data.filter(
        (p: { id: string; totalComments: number }) => postIds.includes(p.id) && p.totalComments > 0,
      ).length;
      expect(charged).toBeGreaterThanOrEqual(1);
      expect(charged).toBeLessThanOrEqual(4);
      await until('credits to settle', async () => {
        const c = await credits();
        return c.reserved === 0 && c.adhoc === 200 - charged ? c : null;
      });

      const snapshot = await call(cluster, 'POST', '/analyst/v1/analyses', {
        key,
        body: { selection: { postIds } },
      });
      expect(snapshot.status).toBe(201);
      expect(snapshot.body.data.status).toBe('ready');
      expect(snapshot.body.data.scope.postCount).toBe(5);
      expect(snapshot.body.data.scope.totalComments).toBeGreaterThan(0);
      expect(snapshot.body.data.scope.shareOfComments).toBeCloseTo(
        snapshot.body.data.scope.matchedComments / snapshot.body.data.scope.totalComments,
        6,
      );

      const search = await call(cluster, 'POST', '/analyst/v1/analyses', {
        key,
        body: { selection: { postIds }, search: { query: 'great video' } },
      });
      expect(search.status).toBe(202);
      expect(search.headers.get('x-ratelimit-class')).toBe('analysis_search');
      const searched = await until('the AI search to finish', async () => {
        const a = await call(cluster, 'GET', `/analyst/v1/analyses/${search.body.data.id}`, { key });
        return ['ready', 'failed'].includes(a.body.data?.status) ? a.body.data : null;
      });
      expect(searched.status).toBe('ready');

      const sample = await call(
        cluster,
        'GET',
        `/analyst/v1/analyses/${snapshot.body.data.id}/comments?limit=10`,
        { key },
      );
      expect(sample.status).toBe(200);
      expect(sample.body.data.length).toBeGreaterThan(0);
      expect(sample.body.data.length).toBeLessThanOrEqual(10);
      for (const row of sample.body.data) expect(postIds).toContain(row.postId);

      const audit = spawnSync(
        process.execPath,
        ['-r', '@swc-node/register', join(ROOT, 'tools/analyst-cli.ts'), 'ledger', 'audit', '--team', teamId],
        {
          cwd: ROOT,
          env: { ...process.env, ...cluster.env },
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      if (audit.status !== 0)
        throw new Error(`ledger audit failed (${audit.status}):\n${audit.stdout}\n${audit.stderr}`);
      expect(audit.stderr).toBe('');
      expect(audit.stdout).toContain(teamId);
    });

    it('settles a 50-post batch exactly once although ingest is killed with SIGKILL in the middle of it', async () => {
      const before = await credits();
      const added = await call(cluster, 'POST', '/analyst/v1/content/posts/add', {
        key,
        body: { links: links(`${run}b`, 50), credits: { source: 'adhoc' } },
      });
      expect(added.status).toBe(202);
      expect(added.body.data.counts.accepted).toBe(50);
      // The posts are created and their credits reserved; fetching and scoring is still under way.
      expect(added.body.data.status).toBe('syncing');
      expect(added.body.data.credits.reserved).toBe(50);

      await stopApp(cluster, 'ingest', 'SIGKILL');
      await startApp(cluster, 'ingest');

      const job = await settledJob(added.body.data.id);
      expect(job.status).toBe('completed');
      expect(job.counts.complete).toBe(50);
      const after = await until('credits to settle after the restart', async () => {
        const c = await credits();
        return c.reserved === 0 ? c : null;
      });
      // Each post that finished with comments is charged once; one that finished with none is refunded.
      const batch = new Set(job.accepted.map((a: { postId: string }) => a.postId));
      const listed = await call(cluster, 'GET', '/analyst/v1/posts?status=all&limit=100', { key });
      const withComments = listed.body.data.filter(
        (p: { id: string; totalComments: number }) => batch.has(p.id) && p.totalComments > 0,
      );
      expect(listed.body.data.filter((p: { id: string }) => batch.has(p.id))).toHaveLength(50);
      expect(after.adhoc).toBe(before.adhoc - withComments.length);
      expect(after.maps).toBe(before.maps);

      // Replaying the ledger finds every reservation resolved exactly once and the balances agree.
      const audit = spawnSync(
        process.execPath,
        ['-r', '@swc-node/register', join(ROOT, 'tools/analyst-cli.ts'), 'ledger', 'audit', '--team', teamId],
        {
          cwd: ROOT,
          env: { ...process.env, ...cluster.env },
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      if (audit.status !== 0)
        throw new Error(`ledger audit failed (${audit.status}):\n${audit.stdout}\n${audit.stderr}`);

      // The ingest read models in MongoDB equal a fresh fold of the log.
      const fresh = new MemoryReadStore();
      await new ProjectionRuntime(fresh, ingestProjectors as unknown as Projector[]).rebuild(log.store);
      const mongo = await MongoReadStore.connect(process.env.MONGO_URL!, cluster.env.MONGO_DB);
      const strip = ({
        _streams: _s,
        _version: _v,
        ...rest
      }: Doc & { _streams?: unknown; _version?: unknown }) => rest;
      for (const projector of ingestProjectors as unknown as Projector[]) {
        const live = (await mongo.collection(projector.collection).find({}, { sort: { _id: 1 } })).map(strip);
        const rebuilt = (await fresh.collection(projector.collection).find({}, { sort: { _id: 1 } })).map(
          strip,
        );
        expect({ collection: projector.collection, docs: live }).toEqual({
          collection: projector.collection,
          docs: rebuilt,
        });
      }
      await mongo.close();
    });
  },
);
