import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import type { ReadStore } from '@analyst/platform';
import { auditLedger, type AuditReport } from '../audit/ledger-audit';
import { openEventLog } from '../audit/open-event-log';
import { StatementWriter } from '../audit/statement-export';
import { verifyStatement } from '../audit/verify-statement';

interface AuditFlags {
  team?: string;
  out?: string;
  dataDir?: string;
  eventstoreUrl?: string;
  mongoUrl?: string;
}

function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => (typeof c === 'number' ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join('  ')).join('\n');
}

export function printAuditReport(report: AuditReport, log: (line: string) => void = console.log): void {
  const rows: (string | number)[][] = [['team', 'pool', 'granted', 'consumed', 'refunded-to-nothing', 'expired', 'outstanding', 'balance', 'read model', 'ok']];
  for (const team of report.teams) {
    const comparison = report.comparisons.find((c) => c.teamId === team.teamId && c.source === 'rebuilt');
    for (const pool of ['map', 'adhoc'] as const) {
      const t = team.pools[pool];
      const readModel = comparison ? (pool === 'map' ? comparison.readModel.maps : comparison.readModel.adhoc) : '-';
      const balanced = t.granted - t.consumed - t.refundedToNothing - t.expired - t.outstanding === t.balance && readModel === t.balance;
      rows.push([team.teamId, pool, t.granted, t.consumed, t.refundedToNothing, t.expired, t.outstanding, t.balance, readModel, balanced ? 'yes' : 'NO']);
    }
    const reserved = comparison ? comparison.readModel.reserved : '-';
    rows.push([team.teamId, 'reserved', team.reservedFlow.reserved, team.reservedFlow.settled, '', team.reservedFlow.refunded, team.reservations.open, team.balances.reserved, reserved, reserved === team.balances.reserved ? 'yes' : 'NO']);
  }
  log(table(rows));
  log('(reserved row: reserved, released by settles, -, released by refunds, open reservations, balance)');
  log(`${report.ledgerEvents} ledger events of ${report.events} in the log, ${report.teams.length} teams, ${report.seconds.toFixed(2)} s`);
  if (report.violations.length === 0) {
    log('audit passed: every invariant holds and the read models match the log');
    return;
  }
  log(`audit FAILED: ${report.violations.length} problem(s)`);
  for (const v of report.violations) {
    const where = v.eventId ? ` event ${v.eventId} (${v.type}, position ${v.position}, revision ${v.revision})` : '';
    log(`  team ${v.teamId}${where}: ${v.message}`);
  }
}

/** `analyst ledger audit|verify`: finance's replay of the ledger and the statement check. */
export function registerLedgerCommands(program: Command): void {
  const ledger = program.command('ledger').description('credit ledger: audit replay and statement verification');

  ledger
    .command('audit')
    .description('replay every ledger stream from the first event, recompute balances, check invariants, compare with the read models')
    .option('--team <teamId>', 'audit one team only')
    .option('--out <file>', 'export the hash-chained statement (.jsonl, or .csv for a spreadsheet view)')
    .option('--data-dir <dir>', 'standalone data directory (default ANALYST_DATA_DIR or ./data)')
    .option('--eventstore-url <url>', 'EventStoreDB connection string (default EVENTSTORE_URL)')
    .option('--mongo-url <url>', 'also compare with the live MongoDB read models (default MONGO_URL when ANALYST_MODE=distributed)')
    .option('--mongo-db <name>', 'database of those read models (default MONGO_DB or analyst)')
    .action(async (flags: AuditFlags & { mongoDb?: string }) => {
      const json = Boolean(program.opts().json);
      const { store, describe } = await openEventLog({
        dataDir: flags.dataDir ?? process.env.ANALYST_DATA_DIR,
        eventStoreUrl: flags.eventstoreUrl ?? process.env.EVENTSTORE_URL,
      });
      let live: ReadStore | undefined;
      // MongoDB holds the live read models only in the distributed topology; standalone keeps them in memory.
      const mongoUrl = flags.mongoUrl ?? (process.env.ANALYST_MODE === 'distributed' ? process.env.MONGO_URL : undefined);
      try {
        if (mongoUrl) {
          const { MongoReadStore } = await import('@analyst/platform');
          live = await MongoReadStore.connect(mongoUrl, flags.mongoDb ?? process.env.MONGO_DB ?? 'analyst');
        }
        const head = await store.headPosition();
        const writer = flags.out ? new StatementWriter(flags.out, { generatedAt: new Date().toISOString(), team: flags.team ?? null, headPosition: head }) : undefined;
        const bar = process.stdout.isTTY && !json ? new SingleBar({ format: 'replaying {bar} {percentage}% | {value}/{total} positions | {eta_formatted}' }, Presets.shades_classic) : null;
        bar?.start(Math.max(head, 0), 0);
        const report = await auditLedger(store, {
          team: flags.team,
          statement: writer,
          liveReadModels: live,
          onProgress: (position) => bar?.update(position),
        });
        bar?.update(Math.max(head, 0));
        bar?.stop();
        const exported = writer ? await writer.close() : null;
        if (json) {
          console.log(JSON.stringify({ source: describe, ...report, statement: exported && { path: flags.out, ...exported } }, null, 2));
        } else {
          console.log(`event log: ${describe}`);
          if (!live) console.log('read models: rebuilt from the log through the ledger projectors (standalone keeps them in the server\'s memory)');
          printAuditReport(report);
          if (exported) console.log(`statement: ${exported.lines} lines written to ${flags.out} (chain head ${exported.head})`);
        }
        if (!report.ok) process.exitCode = 1;
      } finally {
        await store.close();
        await live?.close();
      }
    });

  ledger
    .command('verify')
    .description('check the hash chain of an exported statement (.jsonl): any edited, dropped or reordered line fails')
    .argument('<file>', 'statement written by `ledger audit --out`')
    .action(async (file: string) => {
      const result = await verifyStatement(file);
      if (program.opts().json) console.log(JSON.stringify(result, null, 2));
      else if (result.ok) console.log(`statement verified: ${result.lines} lines, chain head ${result.head}`);
      else console.log(`statement FAILED verification at line ${result.failedAt ?? '-'}: ${result.problem}`);
      if (!result.ok) process.exitCode = 1;
    });
}
