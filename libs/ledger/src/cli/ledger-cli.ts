import { Option, type Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import type { CreditBalances, StatementLine, StatementPage } from '@analyst/contracts';
import type { EventStore } from '@analyst/platform';
import { auditLedger, DEFAULT_MAX_OPEN_MINUTES, type ServedLedger } from '../audit/ledger-audit';
import { printAuditJson, printAuditText } from './audit-report';
import { table } from './table';
import { auditLocations, openAuditStores } from '../audit/audit-stores';
import { checkStatementKey, STATEMENT_KEY_ENV, StatementWriter } from '../audit/statement-export';
import { verifyStatement } from '../audit/verify-statement';
import { STATEMENT_MAX_LIMIT } from '../queries/read-statement';

/**
 * The admin API client the CLI runs with (`adminCall` of the gateway CLI): passed in by the entry
 * point because the gateway library depends on this one, not the other way round. It throws on a
 * non-2xx answer with the HTTP `status` and the envelope's `code` on the error.
 */
export type AdminCaller = <T = unknown>(
  connection: { url: string; token?: string },
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  options?: { headers?: Record<string, string> },
) => Promise<T>;

export interface LedgerCliDeps {
  admin: AdminCaller;
}

const DEFAULT_URL = 'http://127.0.0.1:8080';

interface AuditFlags {
  team?: string;
  out?: string;
  dataDir?: string;
  eventstoreUrl?: string;
  mongoUrl?: string;
  mongoDb?: string;
  against?: string;
  adminToken?: string;
  key?: string;
  ledgerOnly?: boolean;
  maxOpenMinutes: string;
  asOf?: string;
}

/** A usage error of this CLI; `--json` reports its code. */
function invalidArgument(message: string): Error {
  return Object.assign(new Error(message), { code: 'invalid_argument' });
}

function fmt(b: CreditBalances): string {
  return `maps ${b.maps} / adhoc ${b.adhoc} / reserved ${b.reserved}`;
}

/** `--against`: the served statement through the admin API, a 404 `team_not_found` as null. */
function servedLedger(admin: AdminCaller, url: string, token: string | undefined): ServedLedger {
  return {
    describe: url,
    async statementPage(teamId: string, cursor: string | null): Promise<StatementPage | null> {
      const query = `limit=${STATEMENT_MAX_LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      try {
        return await admin<StatementPage>(
          { url, token },
          'GET',
          `/admin/v1/teams/${encodeURIComponent(teamId)}/ledger?${query}`,
        );
      } catch (error) {
        const { status, code } = error as { status?: unknown; code?: unknown };
        if (status === 404 && code === 'team_not_found') return null;
        throw error;
      }
    },
  };
}

function statementKey(flag: string | undefined): string | undefined {
  const key = flag ?? (process.env[STATEMENT_KEY_ENV] || undefined);
  if (key !== undefined) {
    try {
      checkStatementKey(key);
    } catch (error) {
      throw invalidArgument(`--key / ${STATEMENT_KEY_ENV}: ${(error as Error).message}`);
    }
  }
  return key;
}

function positiveInt(text: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^[1-9]\d*$/.test(text) || Number(text) > max)
    throw invalidArgument(`${flag} must be a whole number from 1 to ${max}`);
  return Number(text);
}

/** Adds `--url` and `--token` to a leaf command, as the `teams` and `keys` commands have them. */
function connected(command: Command): Command {
  return command
    .addOption(
      new Option('--url <url>', 'base URL of the Analyst server').env('ANALYST_URL').default(DEFAULT_URL),
    )
    .option('--token <token>', 'admin token (default $ANALYST_ADMIN_TOKEN)');
}

function connectionOf(command: Command): { url: string; token?: string; json: boolean } {
  const flags = command.optsWithGlobals<{ url: string; token?: string; json?: boolean }>();
  return { url: flags.url, token: flags.token ?? process.env.ANALYST_ADMIN_TOKEN, json: Boolean(flags.json) };
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

function changeText(change: CreditBalances): string {
  const parts = (['maps', 'adhoc', 'reserved'] as const)
    .filter((f) => change[f] !== 0)
    .map((f) => `${f} ${signed(change[f])}`);
  return parts.length ? parts.join(' ') : '-';
}

interface AuditSettings {
  key: string | undefined;
  adminToken: string | undefined;
  maxOpenMinutes: number;
  /** The instant open reservations are aged at. */
  asOf: string;
}

/** The audit's flags checked against each other, with their environment defaults. */
function auditSettings(flags: AuditFlags): AuditSettings {
  const key = statementKey(flags.key);
  if (key !== undefined && isCsv(flags.out))
    throw invalidArgument('--key signs the end record of a .jsonl statement; a .csv export has none');
  const adminToken = flags.adminToken ?? process.env.ANALYST_ADMIN_TOKEN;
  if (flags.against && !adminToken)
    throw invalidArgument('--against needs the admin token: pass --admin-token or set ANALYST_ADMIN_TOKEN');
  const maxOpenMinutes = positiveInt(flags.maxOpenMinutes, '--max-open-minutes');
  if (
    flags.asOf !== undefined &&
    (!/^\d{4}-\d{2}-\d{2}T/.test(flags.asOf) || Number.isNaN(Date.parse(flags.asOf)))
  ) {
    throw invalidArgument('--as-of must be an ISO 8601 instant, e.g. 2026-03-10T12:00:00Z');
  }
  const asOf = flags.asOf === undefined ? new Date().toISOString() : new Date(flags.asOf).toISOString();
  return { key, adminToken, maxOpenMinutes, asOf };
}

function isCsv(out: string | undefined): boolean {
  return Boolean(out?.toLowerCase().endsWith('.csv'));
}

/** The statement `--out` asks for, headed with the log's head; none without `--out`. */
function statementWriter(
  flags: AuditFlags,
  head: number,
  key: string | undefined,
): StatementWriter | undefined {
  if (!flags.out) return undefined;
  const header = { generatedAt: new Date().toISOString(), team: flags.team ?? null, headPosition: head };
  return new StatementWriter(flags.out, header, { key });
}

/** The replay's progress over the log's positions, on a terminal only. */
function replayProgressBar(): SingleBar | null {
  if (!process.stdout.isTTY) return null;
  return new SingleBar(
    { format: 'replaying {bar} {percentage}% | {value}/{total} positions | {eta_formatted}' },
    Presets.shades_classic,
  );
}

/** The log's head: the audit's first read, so an unreachable store is named here, not in a driver's bare message. */
async function readHead(store: EventStore, describe: string): Promise<number> {
  try {
    return await store.headPosition();
  } catch (error) {
    throw new Error(
      `cannot read the event log (${describe}): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * `analyst ledger audit|verify|lines` and `analyst credits grant`: finance's replay of the ledger,
 * the statement check, and a team's credits over the admin API.
 */
export function registerLedgerCli(program: Command, deps: LedgerCliDeps): void {
  const ledger = program
    .command('ledger')
    .description("credit ledger: audit replay, statement verification, a team's statement lines");

  ledger
    .command('audit')
    .description(
      'replay every ledger stream from the first event, recompute balances, check invariants, cross-check every charge with the post and job streams, compare with the read models',
    )
    .option('--team <teamId>', 'audit one team only (fails when the log has no ledger event of it)')
    .option(
      '--out <file>',
      'export the hash-chained statement (.jsonl to verify later, or .csv for a spreadsheet view that cannot be verified)',
    )
    .option(
      '--key <key>',
      `sign the statement's end record with HMAC-SHA256 under this key (default $${STATEMENT_KEY_ENV})`,
    )
    .option('--data-dir <dir>', 'standalone data directory (default ANALYST_DATA_DIR or ./data)')
    .option(
      '--eventstore-url <url>',
      'EventStoreDB connection string (default EVENTSTORE_URL; else ANALYST_EVENTSTORE=sqlite:<path>, else the data directory)',
    )
    .option(
      '--mongo-url <url>',
      'also compare with the live MongoDB read models (default MONGO_URL in the distributed topology: ANALYST_MODE=distributed, or EVENTSTORE_URL / ANALYST_EVENTSTORE set)',
    )
    .option('--mongo-db <name>', 'database of those read models (default MONGO_DB or analyst)')
    .option(
      '--against <url>',
      'also compare with the balances a running server serves (its admin API, e.g. http://127.0.0.1:8080)',
    )
    .option('--admin-token <token>', 'admin token for --against (default $ANALYST_ADMIN_TOKEN)')
    .option(
      '--max-open-minutes <n>',
      'an open reservation older than this is a violation (every reservation must end)',
      String(DEFAULT_MAX_OPEN_MINUTES),
    )
    .option(
      '--as-of <instant>',
      'age open reservations as of this ISO instant (default now), e.g. for a copy of an older log',
    )
    .option(
      '--ledger-only',
      'skip the cross-check of charges against the post and job streams (a log that holds only ledger events)',
    )
    .action(async (flags: AuditFlags) => {
      const json = Boolean(program.opts().json);
      const settings = auditSettings(flags);
      const stores = await openAuditStores(auditLocations(flags));
      const { events: store, describe, live } = stores;
      const readModels = live?.describe ?? null;
      try {
        const head = await readHead(store, describe);
        const writer = statementWriter(flags, head, settings.key);
        const bar = json ? null : replayProgressBar();
        bar?.start(Math.max(head, 0), 0);
        const report = await auditLedger(store, {
          team: flags.team,
          statement: writer,
          liveReadModels: live?.store,
          liveCheckpoint: live?.checkpoint,
          served: flags.against ? servedLedger(deps.admin, flags.against, settings.adminToken) : undefined,
          onProgress: (position) => bar?.update(position),
          charges: flags.ledgerOnly ? false : { now: settings.asOf, maxOpenMinutes: settings.maxOpenMinutes },
        });
        bar?.update(Math.max(head, 0));
        bar?.stop();
        const exported = writer ? await writer.close() : null;
        const run = { describe, live: readModels, out: flags.out, csv: isCsv(flags.out), exported };
        if (json) printAuditJson(report, run);
        else printAuditText(report, run);
        if (!report.ok) process.exitCode = 1;
      } finally {
        await stores.close();
      }
    });

  ledger
    .command('verify')
    .description(
      'check an exported .jsonl statement: hash chain, per-line arithmetic, end totals; with --head or --key also a rewritten statement fails',
    )
    .argument('<file>', 'statement written by `ledger audit --out statement.jsonl`')
    .option('--head <hash>', 'the chain head `ledger audit` printed: fail when the statement ends in another')
    .option(
      '--key <key>',
      `the key the end record was signed with (default $${STATEMENT_KEY_ENV}): fail when unsigned or signed otherwise`,
    )
    .action(async (file: string, flags: { head?: string; key?: string }) => {
      if (flags.head !== undefined && !/^[0-9a-fA-F]{64}$/.test(flags.head))
        throw invalidArgument('--head must be the 64-hex-digit chain head `ledger audit` printed');
      const result = await verifyStatement(file, { head: flags.head, key: statementKey(flags.key) });
      if (program.opts().json) console.log(JSON.stringify(result, null, 2));
      else if (result.ok) {
        const checks = [
          result.headCheck === 'matched' ? 'chain head matches --head' : null,
          result.signature === 'valid' ? 'end record HMAC valid' : null,
        ].filter(Boolean);
        console.log(
          `statement verified: ${result.lines} lines of ${result.teams} team(s), chain head ${result.head}${checks.length ? ` (${checks.join(', ')})` : ''}`,
        );
        if (result.headCheck === 'not pinned' && result.signature !== 'valid') {
          console.log(
            `note: the chain and the arithmetic hold, but a statement rewritten whole with a recomputed chain passes these too; pass --head <the head recorded at audit time>${result.signature === 'not checked' ? ' or --key (the statement is signed)' : ''} to rule that out`,
          );
        }
      } else
        console.log(`statement FAILED verification at line ${result.failedAt ?? '-'}: ${result.problem}`);
      if (!result.ok) process.exitCode = 1;
    });

  connected(ledger.command('lines <teamId>'))
    .description(
      "a team's statement lines, oldest first, as the server serves them (GET /admin/v1/teams/{id}/ledger)",
    )
    .option('--limit <n>', 'how many lines (pages of up to 1000 are fetched as needed)', '100')
    .option('--cursor <cursor>', 'continue where an earlier listing stopped (its nextCursor)')
    .action(async (teamId: string, flags: { limit: string; cursor?: string }, command: Command) => {
      const connection = connectionOf(command);
      const limit = positiveInt(flags.limit, '--limit');
      const data: StatementLine[] = [];
      let cursor: string | null = flags.cursor ?? null;
      do {
        const query = `limit=${Math.min(STATEMENT_MAX_LIMIT, limit - data.length)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = await deps.admin<StatementPage>(
          connection,
          'GET',
          `/admin/v1/teams/${encodeURIComponent(teamId)}/ledger?${query}`,
        );
        data.push(...page.data);
        cursor = page.meta.hasMore ? page.meta.nextCursor : null;
      } while (cursor && data.length < limit);
      const body: StatementPage = { data, meta: { nextCursor: cursor, hasMore: cursor !== null } };
      if (connection.json) {
        console.log(JSON.stringify(body, null, 2));
        return;
      }
      if (data.length === 0) {
        console.log(`team ${teamId}: no statement lines${flags.cursor ? ' after that cursor' : ''}`);
        return;
      }
      const rows: (string | number)[][] = [
        ['revision', 'occurredAt', 'type', 'change', 'maps', 'adhoc', 'reserved', 'note'],
      ];
      for (const l of data)
        rows.push([
          l.revision,
          l.occurredAt,
          l.type,
          changeText(l.change),
          l.balances.maps,
          l.balances.adhoc,
          l.balances.reserved,
          l.note,
        ]);
      console.log(table(rows));
      console.log(
        cursor
          ? `${data.length} lines; more with --cursor ${cursor}`
          : `${data.length} lines, to the end of the statement`,
      );
    });

  const credits = program.command('credits').description("a team's credits (admin API)");
  connected(credits.command('grant <teamId>'))
    .description('grant MAP or Ad Hoc credits (POST /admin/v1/teams/{id}/credits)')
    .requiredOption('--pool <pool>', "map (this month's MAPs, expire at month end) or adhoc (never expire)")
    .requiredOption('--amount <n>', 'whole number of credits, 1 to 1000000000')
    .option(
      '--reason <text>',
      'why, shown on the statement (1 to 500 characters)',
      'granted with the analyst CLI',
    )
    .option('--idempotency-key <key>', 'a grant retried with the same key is applied once')
    .action(
      async (
        teamId: string,
        flags: { pool: string; amount: string; reason: string; idempotencyKey?: string },
        command: Command,
      ) => {
        if (flags.pool !== 'map' && flags.pool !== 'adhoc')
          throw invalidArgument('--pool must be map or adhoc');
        const amount = positiveInt(flags.amount, '--amount', 1_000_000_000);
        const connection = connectionOf(command);
        type Granted = {
          data: { teamId: string; pool: 'map' | 'adhoc'; amount: number; balances: CreditBalances };
        };
        const body = await deps.admin<Granted>(
          connection,
          'POST',
          `/admin/v1/teams/${encodeURIComponent(teamId)}/credits`,
          { pool: flags.pool, amount, reason: flags.reason },
          flags.idempotencyKey ? { headers: { 'idempotency-key': flags.idempotencyKey } } : undefined,
        );
        if (connection.json) console.log(JSON.stringify(body, null, 2));
        else {
          const { data } = body;
          console.log(
            `granted ${data.amount} ${data.pool === 'map' ? 'MAP' : 'Ad Hoc'} credits to team ${data.teamId}${flags.idempotencyKey ? ` (idempotency key ${flags.idempotencyKey})` : ''}`,
          );
          console.log(`balances: ${fmt(data.balances)}`);
        }
      },
    );
}
