import { seedDemoContent } from '@analyst/ingest';
import { auditLedger } from '@analyst/ledger';
import { ingestTest, type IngestTest } from '../../ingest/test/ingest-fixture';

/**
 * The other half of the charge cross-check's tests: planted logs prove it catches what it should;
 * this log, written by the real content path (gateway, ingest, ledger in one app), proves it flags
 * nothing that path does on purpose: failed and unreachable demo posts refunded, empty ones
 * refunded, two concurrent requests for one link, free refreshes with no reservation.
 */
describe('the charge cross-check over a log the real content path wrote', () => {
  let f: IngestTest;
  beforeAll(async () => (f = await ingestTest()));
  afterAll(() => f.close());

  it('finds every charge and refund explained, nothing open, no duplicate post', async () => {
    const teamId = await f.team('enterprise', { maps: 0, adhoc: 1000 });
    const key = await f.key(teamId, undefined, 'Demo key');
    await seedDemoContent(f.t.app, teamId, { id: key.id, name: key.name });
    await f.idle(teamId);
    const link = 'https://www.youtube.com/watch?v=abcdefghijk';
    const [a, b] = await Promise.all([
      f.post('/content/posts/add', key.key, { links: [link, link] }),
      f.post('/content/posts/add', key.key, { links: [link] }),
    ]);
    const accepted = [...a.body.data.accepted, ...b.body.data.accepted];
    expect(accepted).toHaveLength(1);
    await f.idle(teamId);
    f.clock.set('2026-03-11T13:00:00.000Z');
    expect((await f.post('/content/posts/refresh', key.key, { postIds: [accepted[0].postId] })).status).toBe(
      202,
    );
    await f.idle(teamId);

    const report = await auditLedger(f.events, {
      charges: { now: '2026-03-11T13:05:00.000Z', maxOpenMinutes: 30 },
    });
    expect(report.violations).toEqual([]);
    expect(report.charges!.findings).toEqual([]);
    expect(report.charges!.open).toEqual([]);
    const [team] = report.charges!.teams;
    expect(team).toMatchObject({ teamId, posts: 61, reservations: 61, open: 0, findings: 0 });
    expect(team.settled + team.refunded).toBe(61);
    expect(team.settled).toBe(1000 - (await f.credits(teamId)).adhoc);
    expect(report.ok).toBe(true);
  }, 60_000);
});
