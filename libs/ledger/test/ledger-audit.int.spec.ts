import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { SqliteEventStore } from '@analyst/platform';
import { auditLedger, StatementWriter, verifyStatement } from '@analyst/ledger';
import { adminCall } from '../../gateway/src/cli/admin-client';
import { registerLedgerCli } from '../src/cli/ledger-cli';
import { ledgerKit, type LedgerKit } from './ledger-test-kit';

async function someActivity(k: LedgerKit): Promise<void> {
  await k.createTeam('team_a', 'growth', 20);
  await k.createTeam('team_b', 'scale', 5);
  for (const teamId of ['team_a', 'team_b']) {
    const ctx = { correlationId: 'c', teamId };
    await k.ledger.grant(
      teamId,
      { commandId: `g-${teamId}`, pool: 'adhoc', amount: 30, reason: 'purchase' },
      ctx,
    );
    for (let i = 0; i < 12; i++) {
      await k.ledger.reserve(
        teamId,
        {
          commandId: `r${i}`,
          reservationId: `p${i}`,
          units: 2,
          unitCost: i % 4 === 0 ? 5 : 1,
          source: i % 3 ? 'auto' : 'adhoc',
        },
        ctx,
      );
      if (i % 3 === 0)
        await k.ledger
          .refund(teamId, { commandId: `f${i}`, reservationId: `p${i}`, reason: 'failed' }, ctx)
          .catch(() => undefined);
      else if (i % 3 === 1)
        await k.ledger
          .settle(teamId, { commandId: `s${i}`, reservationId: `p${i}`, consumed: 1 }, ctx)
          .catch(() => undefined);
    }
  }
  // April: an idle reset and a refund of March MAPs that expire on return.
  k.clock.set('2026-04-02T08:00:00.000Z');
  await k.ledger.refund(
    'team_a',
    { commandId: 'late', reservationId: 'p2', reason: 'holding' },
    { correlationId: 'c', teamId: 'team_a' },
  );
  await k.ledger.resetMaps('team_b', { correlationId: 'c', teamId: 'team_b' });
  await k.ledger.caughtUp();
}

describe('ledger audit (replay from the first event)', () => {
  let k: LedgerKit;
  let dir: string;
  beforeAll(async () => {
    k = await ledgerKit();
    dir = mkdtempSync(join(tmpdir(), 'ledger-audit-'));
    await someActivity(k);
  });
  afterAll(async () => {
    await k.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const openLog = () => new SqliteEventStore({ filename: join(k.t.dataDir, 'events.db'), readonly: true });

  it('recomputes the live balances from the log alone and finds every invariant holding', async () => {
    const log = openLog();
    const report = await auditLedger(log, { liveReadModels: k.store, charges: false });
    await log.close();
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.teams.map((t) => t.teamId)).toEqual(['team_a', 'team_b']);
    for (const team of report.teams) expect(team.balances).toEqual(await k.ledger.balances(team.teamId));
    expect(report.comparisons.filter((c) => c.source === 'live')).toHaveLength(2);
    const a = report.teams[0];
    expect(a.pools.map.refundedToNothing).toBeGreaterThan(0);
    expect(a.pools.map.granted).toBe(40); // March and April allotments
  });

  it('exports a hash-chained statement that verifies, and detects an edited, dropped or reordered line', async () => {
    const log = openLog();
    const path = join(dir, 'statement.jsonl');
    const writer = new StatementWriter(path, {
      generatedAt: '2026-04-02T08:00:00.000Z',
      team: null,
      headPosition: await log.headPosition(),
    });
    const report = await auditLedger(log, { statement: writer, charges: false });
    const { lines } = await writer.close();
    await log.close();
    expect(lines).toBe(report.ledgerEvents);
    expect(await verifyStatement(path)).toMatchObject({ ok: true, lines });

    const original = readFileSync(path, 'utf8').trimEnd().split('\n');
    const tamper = async (name: string, mutate: (rows: string[]) => string[]) => {
      const file = join(dir, `${name}.jsonl`);
      writeFileSync(file, `${mutate([...original]).join('\n')}\n`);
      return verifyStatement(file);
    };
    const edited = await tamper('edited', (rows) => {
      rows[5] = rows[5].replace(/"adhoc":(\d+)/, (_m, n) => `"adhoc":${Number(n) + 1}`);
      return rows;
    });
    expect(edited).toMatchObject({ ok: false, failedAt: 6 });
    expect((await tamper('dropped', (rows) => rows.filter((_, i) => i !== 7))).ok).toBe(false);
    expect((await tamper('reordered', (rows) => [rows[0], rows[2], rows[1], ...rows.slice(3)])).ok).toBe(
      false,
    );
    expect((await tamper('truncated', (rows) => rows.slice(0, -2))).problem).toContain(
      'end record is missing',
    );
    expect((await tamper('no-end', (rows) => rows.slice(0, -1))).ok).toBe(false);
  });

  it('fails and names the event when the log holds a second settle of one reservation', async () => {
    const copyDir = mkdtempSync(join(tmpdir(), 'ledger-tamper-'));
    const store = new SqliteEventStore({ filename: join(copyDir, 'events.db') });
    const log = openLog();
    for await (const page of log.readAll()) for (const e of page) await store.append(e.streamId, [e], 'any');
    const settled = (await store.readStream('ledger-team_a')).find((e) => e.type === 'CreditsSettled')!;
    await store.append(
      'ledger-team_a',
      [{ ...settled, id: 'ev_forged', data: { ...(settled.data as object), commandId: 'forged' } }],
      'any',
    );
    const report = await auditLedger(store, { charges: false });
    await store.close();
    await log.close();
    rmSync(copyDir, { recursive: true, force: true });
    expect(report.ok).toBe(false);
    expect(report.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          eventId: 'ev_forged',
          message: expect.stringContaining('after it was already settled'),
        }),
      ]),
    );
  });

  it('runs as `analyst ledger audit --out` and `ledger verify` through the CLI, exiting 0 when clean', async () => {
    const out: string[] = [];
    const spy = jest.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
    try {
      const program = new Command('analyst').option('--json');
      registerLedgerCli(program, { admin: adminCall });
      const file = join(dir, 'cli.jsonl');
      process.exitCode = undefined;
      await program.parseAsync(
        ['node', 'analyst', 'ledger', 'audit', '--ledger-only', '--data-dir', k.t.dataDir, '--out', file],
        { from: 'node' },
      );
      expect(process.exitCode).toBeUndefined();
      await program.parseAsync(['node', 'analyst', 'ledger', 'verify', file], { from: 'node' });
      expect(process.exitCode).toBeUndefined();
      const text = out.join('\n');
      expect(text).toContain('audit passed');
      expect(text).toMatch(/team_a\s+map\s+/);
      expect(text).toContain('statement verified');
      await program.parseAsync(
        [
          'node',
          'analyst',
          'ledger',
          'audit',
          '--ledger-only',
          '--data-dir',
          k.t.dataDir,
          '--out',
          join(dir, 'cli.csv'),
          '--team',
          'team_b',
        ],
        { from: 'node' },
      );
      expect(readFileSync(join(dir, 'cli.csv'), 'utf8').split('\n')[0]).toBe(
        'seq,teamId,revision,position,eventId,occurredAt,type,commandId,reservationId,month,mapsChange,adhocChange,reservedChange,maps,adhoc,reserved,note,prev,hash',
      );
    } finally {
      spy.mockRestore();
      process.exitCode = undefined;
    }
  });
});
