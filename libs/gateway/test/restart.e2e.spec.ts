import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES } from '@analyst/contracts';
import { GatewayModule, IdentityService } from '@analyst/gateway';
import { FixedClock } from '@analyst/platform';
import { createTestApp, type TestApp } from '@analyst/testing';
import { SpecRoutesModule } from './spec-routes';

const ctx = { correlationId: 'test', teamId: null };

describe('a standalone restart keeps rate counters, the byte budget and usage (spec: Limits)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-gw-restart-'));
  const clock = new FixedClock('2026-03-10T12:00:10.000Z');
  const boot = () => createTestApp({ modules: [GatewayModule, SpecRoutesModule], clock, dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a burst cap used up before the restart still refuses after it; daily, byte and usage figures carry on', async () => {
    let t: TestApp = await boot();
    const identity = t.app.get(IdentityService);
    const { teamId } = await identity.createTeam({ name: 'Restart', plan: 'enterprise' }, ctx);
    const { key } = await identity.createKey(teamId, { name: 'k', scopes: [...SCOPES] }, ctx);
    const auth = { authorization: `Bearer ${key}` };
    const search = () =>
      t.request('POST', '/analyst/v1/analyses', { headers: auth, body: { search: { query: 'q' } } });
    const sent: string[] = [];
    // analysis_search allows 2 per minute.
    for (let i = 0; i < 2; i++) {
      const ok = await search();
      expect(ok.status).toBe(201);
      sent.push(ok.raw);
    }
    const before = await t.request('GET', '/analyst/v1/me', { headers: auth });
    sent.push(before.raw);
    const { remainingDailyRequests, remainingBytes } = before.body.data.rateLimit;
    expect(remainingDailyRequests).toBe(10_000 - 3);
    await t.close(); // graceful: the counters and usage are saved

    t = await boot();
    try {
      const refused = await search();
      expect(refused.status).toBe(429);
      expect(refused.headers['x-ratelimit-class']).toBe('analysis_search');
      sent.push(refused.raw);
      const after = await t.request('GET', '/analyst/v1/me', { headers: auth });
      // Every request counts against the global budget, the refused one too: this /me is the 5th of the day.
      expect(after.body.data.rateLimit.remainingDailyRequests).toBe(10_000 - 5);
      // Bytes sent before the restart (the previous /me's own body) and the 429 are still counted.
      expect(after.body.data.rateLimit.remainingBytes).toBe(
        remainingBytes - Buffer.byteLength(before.raw) - Buffer.byteLength(refused.raw),
      );
      sent.push(after.raw);
      const usage = await t.admin('GET', `/admin/v1/teams/${teamId}/usage`);
      expect(usage.body.data.keys[0].totals).toEqual({
        requests: 5,
        bytes: sent.reduce((n, raw) => n + Buffer.byteLength(raw), 0),
      });
    } finally {
      await t.close();
    }
  });
});
