import type { Command } from 'commander';
import { auditLocations, openAuditStores } from '../libs/ledger/src/audit/audit-stores';
import { checkReadModels, type ReadModelCheckReport } from '../libs/platform/src/projection/read-model-check';
import { SHARED_READ_MODELS } from './shared-read-models';

interface CheckFlags {
  collection?: string[];
  dataDir?: string;
  eventstoreUrl?: string;
  mongoUrl?: string;
  mongoDb?: string;
  settleMs: string;
  rounds: string;
}

/**
 * `analyst read-models check`: the SRE's audit of the shared read models (the ledger's included),
 * each document compared with the log at the events it has applied. Exit 1 on a difference; lag
 * alone passes.
 */
export function registerReadModelCommands(program: Command): void {
  const readModels = program.command('read-models').description('the shared MongoDB read models');
  readModels
    .command('check')
    .description(
      'fold the whole log through every service projector and compare each live read-model document with it; documents still catching up are reported as lag, never as a difference',
    )
    .option(
      '--collection <name...>',
      'check only these collections (the fold is held in memory: bound it on a large log)',
    )
    .option(
      '--eventstore-url <url>',
      'EventStoreDB connection string (default EVENTSTORE_URL; else ANALYST_EVENTSTORE)',
    )
    .option('--data-dir <dir>', 'data directory holding events.db (when the log is a SQLite file there)')
    .option('--mongo-url <url>', 'the read store (default MONGO_URL)')
    .option('--mongo-db <name>', 'its database (default MONGO_DB or analyst)')
    .option('--settle-ms <ms>', 'wait before reading again a document behind or past the replay', '2000')
    .option('--rounds <n>', 'how many times to read such documents again before calling them lag', '3')
    .action(async (flags: CheckFlags) => {
      const json = Boolean(program.opts().json);
      const stores = await openAuditStores(
        auditLocations({ ...flags, mongoUrl: flags.mongoUrl ?? process.env.MONGO_URL }),
      );
      try {
        if (!stores.live) throw new Error('no read store to check: set MONGO_URL or pass --mongo-url');
        const report = await checkReadModels({
          events: stores.events,
          live: stores.live.store,
          checkpoints: stores.live.checkpoint.store,
          sets: SHARED_READ_MODELS,
          collections: flags.collection,
          settleMs: positive(flags.settleMs, '--settle-ms'),
          rounds: positive(flags.rounds, '--rounds'),
        });
        if (json)
          console.log(
            JSON.stringify({ source: stores.describe, readModels: stores.live.describe, ...report }, null, 2),
          );
        else printReport(report, stores.describe, stores.live.describe);
        if (!report.ok) process.exitCode = 1;
      } finally {
        await stores.close();
      }
    });
}

function positive(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${flag} must be a whole number, got ${text}`);
  return value;
}

function printReport(report: ReadModelCheckReport, log: string, readStore: string): void {
  console.log(`log: ${log}, replayed to position ${report.head}`);
  console.log(`read models: ${readStore}`);
  console.log('');
  const rows = report.collections.map((c) => [
    c.collection,
    c.services.join(','),
    String(c.expected),
    String(c.live),
    String(c.checkpoint),
    String(c.lagging),
    String(c.differing),
  ]);
  const header = ['collection', 'services', 'from log', 'live', 'checkpoint', 'lagging', 'differing'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  if (report.lag.length) {
    const behind = report.lag.filter((l) => l.state === 'behind');
    console.log('');
    console.log(
      `lag: ${behind.length} document(s) behind by ${behind.reduce((n, l) => n + l.events, 0)} event(s), ${report.lag.length - behind.length} written past the replay`,
    );
  }
  for (const difference of report.differences)
    console.log(
      `DIFFERENCE ${difference.kind}${difference.teamId ? ` (team ${difference.teamId})` : ''}: ${difference.message}`,
    );
  console.log('');
  console.log(report.ok ? 'read models agree with the log' : `${report.differences.length} difference(s)`);
}
