// Ledger throughput: reserve commands through the standalone stack (SQLite log, projections,
// relay), and the finance audit's replay of a 1,000,000-event ledger log.
// Run: npm run build && node dist/bench/ledger.js [reserves=20000] [auditEvents=1000000]
import 'reflect-metadata';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ledgerStream, type LedgerEvent } from '@analyst/contracts';
import {
  decideLedger,
  evolveLedger,
  initialLedgerState,
  type LedgerCommand,
  type LedgerState,
} from '@analyst/domain-ledger';
import { auditLedger, LedgerModule, LedgerService, StatementWriter } from '@analyst/ledger';
import {
  loadConfig,
  PlatformModule,
  ProjectionService,
  SqliteEventStore,
  type NewEvent,
} from '@analyst/platform';

const RESERVES = Number(process.argv[2] ?? 20_000);
const AUDIT_EVENTS = Number(process.argv[3] ?? 1_000_000);
const TEAMS = 100;

function cpuSeconds(since: NodeJS.CpuUsage): string {
  const used = process.cpuUsage(since);
  return ((used.user + used.system) / 1e6).toFixed(2);
}

function rate(count: number, startedNs: bigint): { seconds: number; perSecond: number } {
  const seconds = Number(process.hrtime.bigint() - startedNs) / 1e9;
  return { seconds, perSecond: count / seconds };
}

async function reserveThroughput(dir: string): Promise<void> {
  class BenchModule {}
  Module({
    imports: [
      PlatformModule.forRoot(loadConfig({ ANALYST_DATA_DIR: dir, LOG_LEVEL: 'silent' })),
      LedgerModule,
    ],
  })(BenchModule);
  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  const ledger = app.get(LedgerService);
  for (let t = 0; t < TEAMS; t++) {
    await ledger.grant(
      `team_${t}`,
      { commandId: 'bench-grant', pool: 'adhoc', amount: 10_000_000, reason: 'bench' },
      { correlationId: 'bench', teamId: `team_${t}` },
    );
  }
  const perTeam = Math.ceil(RESERVES / TEAMS);
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: TEAMS }, async (_, t) => {
      const teamId = `team_${t}`;
      for (let i = 0; i < perTeam; i++) {
        await ledger.reserve(
          teamId,
          {
            commandId: `r${i}`,
            reservationId: `p${i}`,
            units: 1 + (i % 3),
            unitCost: i % 10 === 0 ? 5 : 1,
            source: 'auto',
          },
          { correlationId: 'bench', teamId },
        );
      }
    }),
  );
  const { seconds, perSecond } = rate(perTeam * TEAMS, started);
  console.log(
    `reserve commands (standalone, ${TEAMS} teams concurrently, SQLite synchronous=FULL): ${perTeam * TEAMS} in ${seconds.toFixed(2)} s = ${Math.round(perSecond)} commands/s`,
  );
  const projected = process.hrtime.bigint();
  await ledger.caughtUp(600_000);
  console.log(
    `  read models caught up ${(Number(process.hrtime.bigint() - projected) / 1e9).toFixed(2)} s after the last reply`,
  );
  await app.get(ProjectionService).stop();
  await app.close();
}

/** Writes a valid ledger history of `total` events (reserve/settle/refund/grant, month turns) straight into the log. */
async function writeLedgerLog(filename: string, total: number): Promise<void> {
  const store = new SqliteEventStore({ filename, synchronous: 'NORMAL' });
  const teams = 1000;
  const perTeam = Math.ceil(total / teams);
  let written = 0;
  let id = 0;
  for (let t = 0; t < teams && written < total; t++) {
    const teamId = `team_${t}`;
    let state: LedgerState = initialLedgerState();
    const batch: NewEvent[] = [];
    const run = (command: LedgerCommand) => {
      for (const event of decideLedger(command, state) as LedgerEvent[]) {
        state = evolveLedger(state, event);
        batch.push({
          id: `ev_${++id}`,
          type: event.type,
          schemaVersion: 1,
          data: event.data,
          metadata: {
            correlationId: 'bench',
            causationId: null,
            teamId,
            occurredAt: (command.data as { at: string }).at,
          },
        });
      }
    };
    run({
      type: 'SetMapAllotment',
      data: { commandId: 'allot', allotment: 500, at: '2026-01-01T00:00:00.000Z' },
    });
    for (let i = 0; batch.length < perTeam && written + batch.length < total; i++) {
      const at = `2026-${String(1 + Math.min(11, Math.floor(i / (perTeam / 12)))).padStart(2, '0')}-10T00:00:00.000Z`;
      if (i % 50 === 0)
        run({
          type: 'GrantCredits',
          data: { commandId: `g${i}`, pool: 'adhoc', amount: 200, reason: 'bench', at },
        });
      run({
        type: 'ReserveCredits',
        data: {
          commandId: `r${i}`,
          reservationId: `p${i}`,
          units: 2,
          unitCost: i % 10 === 0 ? 5 : 1,
          source: 'auto',
          at,
        },
      });
      if (!state.reservations.has(`p${i}`)) continue;
      if (i % 7 === 0)
        run({
          type: 'RefundCredits',
          data: { commandId: `f${i}`, reservationId: `p${i}`, reason: 'failed', at },
        });
      else
        run({ type: 'SettleCredits', data: { commandId: `s${i}`, reservationId: `p${i}`, consumed: 1, at } });
    }
    for (let i = 0; i < batch.length; i += 5000)
      await store.append(ledgerStream(teamId), batch.slice(i, i + 5000), i === 0 ? 'no_stream' : i - 1);
    written += batch.length;
  }
  await store.close();
}

async function auditThroughput(dir: string): Promise<void> {
  const filename = join(dir, 'audit-events.db');
  const generated = process.hrtime.bigint();
  await writeLedgerLog(filename, AUDIT_EVENTS);
  console.log(
    `generated ${AUDIT_EVENTS} ledger events in ${rate(AUDIT_EVENTS, generated).seconds.toFixed(1)} s`,
  );
  const store = new SqliteEventStore({ filename, readonly: true });
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  // A ledger-only log: no post or job streams to cross-check charges against.
  const report = await auditLedger(store, { charges: false });
  const { seconds, perSecond } = rate(report.ledgerEvents, started);
  console.log(
    `audit replay: ${report.ledgerEvents} events, ${report.teams.length} teams in ${seconds.toFixed(2)} s (${cpuSeconds(cpuBefore)} s CPU) = ${Math.round(perSecond)} events/s (${report.ok ? 'passed' : `FAILED: ${report.violations.length} problems`}); target <= 5 s`,
  );
  const exported = process.hrtime.bigint();
  const exportCpu = process.cpuUsage();
  const writer = new StatementWriter(join(dir, 'statement.jsonl'), {
    generatedAt: new Date().toISOString(),
    team: null,
    headPosition: report.headPosition,
  });
  await auditLedger(store, { statement: writer, charges: false });
  await writer.close();
  const bytes = statSync(join(dir, 'statement.jsonl')).size;
  const exportSeconds = rate(report.ledgerEvents, exported).seconds;
  // On a shared machine the wall clock includes other work and the disk; CPU seconds show our share.
  console.log(
    `audit with hash-chained statement export: ${exportSeconds.toFixed(2)} s (${cpuSeconds(exportCpu)} s CPU), ${(bytes / 1e6).toFixed(0)} MB written = ${(bytes / 1e6 / exportSeconds).toFixed(0)} MB/s; target <= 10 s`,
  );
  await store.close();
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-bench-ledger-'));
  try {
    await reserveThroughput(dir);
    await auditThroughput(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
