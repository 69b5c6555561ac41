import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SCOPES } from '@analyst/contracts';
import { FixedClock, createHttpApp, loadConfig } from '@analyst/platform';
import { StandaloneModule } from '../src/app.module';
import { DEMO_ADHOC_CREDITS, DemoSeeder } from '../src/demo-seeder';

const ROOT = join(__dirname, '../../..');
const DEMO_KEY = 'ak_demo0001.demo-secret-0123456789abcdef';

async function boot(dataDir: string): Promise<NestFastifyApplication> {
  const config = loadConfig({ ANALYST_DATA_DIR: dataDir, ANALYST_DEMO_KEY: DEMO_KEY, LOG_LEVEL: 'silent' });
  return createHttpApp(
    StandaloneModule.forRoot(config, { clock: new FixedClock('2026-11-22T10:00:00.000Z') }),
    {
      structuredLogs: false,
    },
  );
}

describe('standalone app', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'analyst-standalone-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seeds a demo team and key on an empty data dir, serves /me with it, and keeps it across a restart', async () => {
    let app = await boot(dataDir);
    let creditsBefore: unknown;
    const seed = await app.get(DemoSeeder).seedIfEmpty();
    expect(seed).toMatchObject({ created: true, key: DEMO_KEY });
    const me = await app.inject({
      method: 'GET',
      url: '/analyst/v1/me',
      headers: { authorization: `Bearer ${DEMO_KEY}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.key).toMatchObject({ id: 'ak_demo0001', name: 'Demo key' });
    expect([...me.json().data.key.scopes].sort()).toEqual([...SCOPES].sort());
    expect(me.json().data.rateLimit).toMatchObject({ remainingRequests: 299, remainingDailyRequests: 9999 });
    const team = await app.inject({
      method: 'GET',
      url: '/analyst/v1/team',
      headers: { 'x-api-key': DEMO_KEY },
    });
    expect(team.statusCode).toBe(200);
    expect(team.json().data).toMatchObject({ id: seed!.teamId, plan: { id: 'enterprise' } });
    // The demo posts spend credits (MAPs first once the plan's allotment landed, else Ad Hoc).
    expect(seed!.posts).toBe(60);
    const posts = await app.inject({
      method: 'GET',
      url: '/analyst/v1/posts?status=all&limit=100',
      headers: { 'x-api-key': DEMO_KEY },
    });
    expect(posts.statusCode).toBe(200);
    expect(posts.json().data).toHaveLength(60);
    expect(posts.json().data.every((p: { isDemo: boolean }) => p.isDemo)).toBe(true);
    // Let the pipeline finish every demo post, so the balances are final before the restart.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const current = await app.inject({
        method: 'GET',
        url: '/analyst/v1/team',
        headers: { 'x-api-key': DEMO_KEY },
      });
      creditsBefore = current.json().data.credits;
      if ((creditsBefore as { reserved: number }).reserved === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(creditsBefore).toMatchObject({ reserved: 0 });
    expect((creditsBefore as { adhoc: number }).adhoc).toBeLessThanOrEqual(DEMO_ADHOC_CREDITS);
    await app.close();

    // Restart on the same data dir: no second demo team, and the key still works (read models rebuilt).
    app = await boot(dataDir);
    expect(await app.get(DemoSeeder).seedIfEmpty()).toBeNull();
    const again = await app.inject({
      method: 'GET',
      url: '/v1/client/me',
      headers: { authorization: `Bearer ${DEMO_KEY}` },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.key.id).toBe('ak_demo0001');
    const teamAgain = await app.inject({
      method: 'GET',
      url: '/analyst/v1/team',
      headers: { 'x-api-key': DEMO_KEY },
    });
    expect(teamAgain.json().data.credits).toEqual(creditsBefore);
    const postsAgain = await app.inject({
      method: 'GET',
      url: '/analyst/v1/posts?status=all&limit=100',
      headers: { 'x-api-key': DEMO_KEY },
    });
    expect(postsAgain.json().data).toHaveLength(60);
    await app.close();
  });

  it('fails fast with every bad setting named', () => {
    const result = spawnSync(
      process.execPath,
      ['-r', '@swc-node/register', join(ROOT, 'apps/standalone/src/main.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
          PORT: 'eighty',
          ANALYST_DEMO_KEY: 'short',
          ANALYST_DATA_DIR: dataDir,
        },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('ANALYST_DEMO_KEY must look like ak_<id>.<secret>');
  });
});
