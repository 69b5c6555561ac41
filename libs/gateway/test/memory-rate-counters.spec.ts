import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayStateDb, MemoryRateCounters } from '@analyst/gateway';

describe('MemoryRateCounters: the standalone counters outlive a restart through the state db', () => {
  const dirs: string[] = [];
  const openDb = (dir: string) => GatewayStateDb.open(dir);
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const at = (iso: string) => new Date(iso);

  it('saves changed key-days and loads them in a new process: day, minute and byte counts carry on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'analyst-counters-'));
    dirs.push(dir);
    const now = at('2026-11-25T10:15:30Z');
    const db = openDb(dir);
    const first = new MemoryRateCounters(db, 60_000, { now: () => now });
    for (let i = 0; i < 3; i++) await first.charge('ak_a', ['global', 'comments'], now);
    await first.refund('ak_a', ['comments'], now);
    await first.addBytes('ak_a', 4_096, now);
    await first.recordAuthFailure('10.0.0.1', now);
    first.save(now);
    first.onApplicationShutdown();
    db.close();

    const again = openDb(dir);
    const second = new MemoryRateCounters(again, 60_000, { now: () => now });
    expect(await second.read('ak_a', now)).toEqual({
      minute: { global: 3, comments: 2 },
      day: { global: 3, comments: 2 },
      bytes: 4_096,
    });
    // The next charge in the same minute continues from the saved counts.
    expect(await second.charge('ak_a', ['global'], now)).toMatchObject({
      minute: { global: 4 },
      day: { global: 4 },
    });
    // Failed authentications are a minute's memory only.
    expect(await second.authFailures('10.0.0.1', now)).toBe(0);
    second.onApplicationShutdown();
    again.close();
  });

  it('drops key-days older than yesterday from memory and from the file, and saves only what changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'analyst-counters-'));
    dirs.push(dir);
    const db = openDb(dir);
    const monday = at('2026-11-23T23:59:59Z');
    const counters = new MemoryRateCounters(db, 60_000, { now: () => monday });
    await counters.charge('ak_old', ['global'], monday);
    counters.save(monday);
    const rows = () =>
      (db.db.prepare('SELECT id FROM rate_counters ORDER BY id').all() as { id: string }[]).map((r) => r.id);
    expect(rows()).toHaveLength(1);
    // Tuesday: Monday's document is yesterday's, still kept for a late refund.
    const tuesday = at('2026-11-24T00:00:01Z');
    await counters.refund('ak_old', ['global'], monday);
    counters.save(tuesday);
    expect((await counters.read('ak_old', monday)).day).toEqual({ global: 0 });
    // Wednesday: gone from both.
    const wednesday = at('2026-11-25T08:00:00Z');
    await counters.charge('ak_new', ['global'], wednesday);
    counters.save(wednesday);
    expect(rows()).toEqual([`ak_new:${Math.floor(wednesday.getTime() / 86_400_000)}`]);
    expect(await counters.read('ak_old', monday)).toEqual({ minute: {}, day: {}, bytes: 0 });
    counters.onApplicationShutdown();
    db.close();
  });

  it('keeps the last few minutes apart: a charge in a new minute starts it from zero while the day goes on', async () => {
    const counters = new MemoryRateCounters();
    const t0 = at('2026-11-25T10:00:10Z');
    const t1 = at('2026-11-25T10:01:10Z');
    await counters.charge('ak_m', ['global', 'analysis_create'], t0);
    await counters.charge('ak_m', ['global'], t1);
    // A refund for the earlier minute still lands in it.
    await counters.refund('ak_m', ['analysis_create'], t0);
    expect(await counters.read('ak_m', t0)).toMatchObject({ minute: { global: 1, analysis_create: 0 } });
    expect(await counters.read('ak_m', t1)).toEqual({
      minute: { global: 1 },
      day: { global: 2, analysis_create: 0 },
      bytes: 0,
    });
  });
});
