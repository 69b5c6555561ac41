import { GatewayModule } from '@analyst/gateway';
import { LedgerModule } from '@analyst/ledger';
import {
  EVENT_STORE,
  FixedClock,
  READ_STORE,
  type EventStore,
  type IdGenerator,
  type ReadStore,
} from '@analyst/platform';
import { createTestApp, eventually, type TestApp, type TestResponse } from '@analyst/testing';
import { IngestModule, type IngestModuleOptions } from '@analyst/ingest';

/** How long a job may take to settle: what a loaded machine needs, well inside the 60 s test bound. */
const SETTLE_WITHIN_MS = 45_000;

export const START = '2026-03-10T12:00:00.000Z';

export interface IngestTest {
  t: TestApp;
  clock: FixedClock;
  events: EventStore;
  store: ReadStore;
  /** A team on `plan` whose monthly MAPs (the plan's allotment, or `maps`) have landed in the ledger. */
  team(plan?: string, options?: { parentTeamId?: string; maps?: number; adhoc?: number }): Promise<string>;
  key(teamId: string, scopes?: string[], name?: string): Promise<{ key: string; id: string; name: string }>;
  grant(teamId: string, amount: number, pool?: 'adhoc' | 'map'): Promise<void>;
  credits(teamId: string): Promise<{ maps: number; adhoc: number; reserved: number }>;
  post(url: string, key: string, body: unknown): Promise<TestResponse>;
  get(url: string, key: string): Promise<TestResponse>;
  /** Polls GET /content/jobs/{id} until the job is terminal (or `until` says so). */
  settle(jobId: string, key: string, until?: (body: TestResponse['body']) => boolean): Promise<TestResponse>;
  /** Waits until the process managers have nothing left to do: the credits stop being reserved. */
  idle(teamId: string): Promise<void>;
  close(): Promise<void>;
}

export const ALL_SCOPES = [
  'analyses:run',
  'analyses:read',
  'comments:read',
  'posts:read',
  'posts:write',
  'accounts:write',
  'collections:read',
  'team:read',
  'insights:read',
];

export async function ingestTest(
  options: {
    ingest?: IngestModuleOptions;
    duplicateDelivery?: boolean;
    ids?: IdGenerator;
    clock?: FixedClock;
  } = {},
): Promise<IngestTest> {
  const clock = options.clock ?? new FixedClock(START);
  const ingest = IngestModule.forRoot({
    discoveryBackoffMs: [5, 10, 20],
    fetchBackoffMs: [1, 1, 1],
    ...options.ingest,
  });
  const t = await createTestApp({
    modules: [GatewayModule, LedgerModule, ingest],
    clock,
    duplicateDelivery: options.duplicateDelivery,
    ids: options.ids,
  });
  const store = t.app.get<ReadStore>(READ_STORE);
  const credits = async (teamId: string) => {
    const { readTeamCredits } = await import('@analyst/ledger-read');
    return readTeamCredits(store, teamId);
  };
  const fixture: IngestTest = {
    t,
    clock,
    events: t.app.get<EventStore>(EVENT_STORE),
    store,
    async team(plan = 'scale', opts = {}) {
      const created = await t.admin('POST', '/admin/v1/teams', {
        name: `Team ${plan}`,
        plan,
        parentTeamId: opts.parentTeamId,
      });
      if (created.status !== 201) throw new Error(`team: ${created.status} ${created.raw}`);
      const teamId = created.body.data.id as string;
      const allotment = created.body.data.monthlyMapAllotment as number;
      await eventually(async () => (await credits(teamId)).maps === allotment);
      if (opts.maps !== undefined && opts.maps !== allotment) {
        await t.admin('PUT', `/admin/v1/teams/${teamId}/map-allotment`, { monthlyMapAllotment: opts.maps });
        await eventually(async () => (await credits(teamId)).maps === opts.maps);
      }
      if (opts.adhoc) await fixture.grant(teamId, opts.adhoc);
      return teamId;
    },
    async key(teamId, scopes = ALL_SCOPES, name = 'ingest key') {
      const res = await t.admin('POST', `/admin/v1/teams/${teamId}/keys`, { name, scopes });
      if (res.status !== 201) throw new Error(`key: ${res.status} ${res.raw}`);
      return { key: res.body.data.key, id: res.body.data.id, name };
    },
    async grant(teamId, amount, pool = 'adhoc') {
      const res = await t.admin('POST', `/admin/v1/teams/${teamId}/credits`, {
        pool,
        amount,
        reason: 'test',
      });
      if (res.status !== 201) throw new Error(`grant: ${res.status} ${res.raw}`);
    },
    credits,
    post: (url, key, body) =>
      t.request('POST', `/analyst/v1${url}`, { headers: { authorization: `Bearer ${key}` }, body }),
    get: (url, key) => t.request('GET', `/analyst/v1${url}`, { headers: { authorization: `Bearer ${key}` } }),
    async settle(jobId, key, until = (b) => ['completed', 'partial', 'failed'].includes(b.data.status)) {
      // Polled less often the longer it takes (10 ms doubling to 500 ms): on the fixed clock the key's
      // request budget never refills, so a fixed fast poll on a loaded machine ends in 429s.
      const deadline = Date.now() + SETTLE_WITHIN_MS;
      for (let wait = 10; ; wait = Math.min(wait * 2, 500)) {
        const last = await fixture.get(`/content/jobs/${jobId}`, key);
        if (last.status === 200 && until(last.body)) return last;
        if (Date.now() > deadline)
          throw new Error(
            `job ${jobId} not settled within ${SETTLE_WITHIN_MS} ms: ${last.status} ${last.raw}`,
          );
        await new Promise((r) => setTimeout(r, wait));
      }
    },
    async idle(teamId) {
      await eventually(async () => (await credits(teamId)).reserved === 0, SETTLE_WITHIN_MS);
    },
    close: () => t.close(),
  };
  return fixture;
}

/** Post links of every platform that the link classifier takes. */
export const LINKS = {
  youtube: (id: string) => `https://www.youtube.com/watch?v=${id.padEnd(11, 'x').slice(0, 11)}`,
  tiktok: (n: number) => `https://www.tiktok.com/@creator/video/73000000000${String(n).padStart(8, '0')}`,
  x: (n: number) => `https://x.com/someone/status/18000000000${String(n).padStart(8, '0')}`,
  reddit: (id: string) => `https://www.reddit.com/r/test/comments/${id}/a_slug/`,
  instagram: (code: string) => `https://www.instagram.com/p/${code}/`,
  threads: (code: string) => `https://www.threads.net/@someone/post/${code}`,
  facebook: (n: number) => `https://www.facebook.com/somepage/posts/${String(10000000 + n)}`,
  linkedin: (n: number) =>
    `https://www.linkedin.com/feed/update/urn:li:activity:71000000000${String(n).padStart(8, '0')}/`,
};
