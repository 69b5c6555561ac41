import type { StatementClose } from '../audit/statement-export';
import type { AuditReport } from '../audit/ledger-audit';
import { printChargeReport } from './charge-report';
import { table } from './table';

/*
 * What `analyst ledger audit` prints: as text, the sources, the balances table per team and pool,
 * the live read models' lag, the served balances, the charge cross-check, the verdict and the
 * exported statement's chain head; with `--json`, the report as one object.
 */

/** Where the audit read from and what it exported, for either output. */
export interface AuditRun {
  describe: string;
  /** The live read models compared, by description; null when none were reachable. */
  live: string | null;
  out: string | undefined;
  csv: boolean;
  exported: StatementClose | null;
}

/** `--json`: the report with its sources and the exported statement. */
export function printAuditJson(report: AuditReport, run: AuditRun): void {
  const statement = run.exported && { path: run.out, format: run.csv ? 'csv' : 'jsonl', ...run.exported };
  console.log(JSON.stringify({ source: run.describe, readModels: run.live, ...report, statement }, null, 2));
}

export function printAuditReport(report: AuditReport, log: (line: string) => void = console.log): void {
  log(table(balanceRows(report)));
  log('(reserved row: reserved, released by settles, -, released by refunds, open reservations, balance)');
  printLiveReadModels(report, log);
  if (report.servedBy) {
    log('');
    log(
      `served by ${report.servedBy} (the line of the last replayed event in GET /admin/v1/teams/{id}/ledger):`,
    );
    log(table(servedRows(report)));
  }
  if (report.charges) {
    log('');
    printChargeReport(report.charges, log);
  }
  log(
    `${report.ledgerEvents} ledger events of ${report.events} in the log, ${report.teams.length} teams, ${report.seconds.toFixed(2)} s`,
  );
  printAuditVerdict(report, log);
}

/**
 * The live read models: each document compared at the revision it has applied, and the ones that
 * have not applied every event the replay read (lag, with its size: not a difference).
 */
function printLiveReadModels(report: AuditReport, log: (line: string) => void): void {
  const live = report.comparisons.filter((c) => c.source === 'live');
  if (live.length === 0) return;
  log('');
  const checkpoint = report.liveCheckpoint
    ? `; the live projection's checkpoint ${report.liveCheckpoint.name} is at position ${report.liveCheckpoint.position}`
    : '';
  log(
    `live read models: ${live.filter((c) => c.ok).length} of ${live.length} teams match the log at the revisions their documents applied${checkpoint}`,
  );
  for (const lag of report.lag) {
    const applied =
      lag.appliedRevision < 0
        ? 'has applied no event of the team yet'
        : `applied revision ${lag.appliedRevision} (position ${lag.appliedPosition})`;
    log(
      `  lag: ${lag.readModel}/${lag.documentId} ${applied}; ${lag.events} event(s) behind, up to position ${lag.headPosition} (compared at what it applied: lag, not a difference)`,
    );
  }
}

/** Per team, a row per pool (flows, balance and the rebuilt read model's) and the reserved row. */
function balanceRows(report: AuditReport): (string | number)[][] {
  const rows: (string | number)[][] = [
    [
      'team',
      'pool',
      'granted',
      'consumed',
      'refunded-to-nothing',
      'expired',
      'outstanding',
      'balance',
      'read model',
      'ok',
    ],
  ];
  for (const team of report.teams) {
    const comparison = report.comparisons.find((c) => c.teamId === team.teamId && c.source === 'rebuilt');
    for (const pool of ['map', 'adhoc'] as const) {
      const t = team.pools[pool];
      const readModel = comparison
        ? pool === 'map'
          ? comparison.readModel.maps
          : comparison.readModel.adhoc
        : '-';
      const balanced =
        t.granted - t.consumed - t.refundedToNothing - t.expired - t.outstanding === t.balance &&
        readModel === t.balance;
      rows.push([
        team.teamId,
        pool,
        t.granted,
        t.consumed,
        t.refundedToNothing,
        t.expired,
        t.outstanding,
        t.balance,
        readModel,
        balanced ? 'yes' : 'NO',
      ]);
    }
    const reserved = comparison ? comparison.readModel.reserved : '-';
    rows.push([
      team.teamId,
      'reserved',
      team.reservedFlow.reserved,
      team.reservedFlow.settled,
      '',
      team.reservedFlow.refunded,
      team.reservations.open,
      team.balances.reserved,
      reserved,
      reserved === team.balances.reserved ? 'yes' : 'NO',
    ]);
  }
  return rows;
}

/** The recomputed balances against the served ones, a row per team. */
function servedRows(report: AuditReport): (string | number)[][] {
  const served: (string | number)[][] = [
    [
      'team',
      'revision',
      'maps',
      'adhoc',
      'reserved',
      'served maps',
      'served adhoc',
      'served reserved',
      'newer lines',
      'ok',
    ],
  ];
  for (const c of report.served) {
    served.push([
      c.teamId,
      c.revision,
      c.recomputed.maps,
      c.recomputed.adhoc,
      c.recomputed.reserved,
      c.served?.maps ?? '-',
      c.served?.adhoc ?? '-',
      c.served?.reserved ?? '-',
      c.newerLines,
      c.ok ? 'yes' : 'NO',
    ]);
  }
  return served;
}

/** `audit passed` with what was checked, or `audit FAILED` with every violation and charge finding. */
function printAuditVerdict(report: AuditReport, log: (line: string) => void): void {
  const findings = report.charges?.findings ?? [];
  if (report.violations.length === 0 && findings.length === 0) {
    const charges = report.charges
      ? ', every charge and refund has its reason in the content log'
      : ' (charges not cross-checked: --ledger-only)';
    log(
      `audit passed: every invariant holds${charges}, and the read models${report.servedBy ? ' and the served balances' : ''} match the log`,
    );
    return;
  }
  log(`audit FAILED: ${report.violations.length + findings.length} problem(s)`);
  for (const v of report.violations) {
    const where = v.eventId
      ? ` event ${v.eventId} (${v.type}, position ${v.position}, revision ${v.revision})`
      : '';
    // A message about the team as a whole already names it.
    log(
      !v.eventId && v.message.startsWith(`team ${v.teamId} `)
        ? `  ${v.message}`
        : `  team ${v.teamId}${where}: ${v.message}`,
    );
  }
  for (const f of findings) log(`  team ${f.teamId}: ${f.rule}: ${f.message}`);
}

/** The audit's text output: the sources, the report and the exported statement. */
export function printAuditText(report: AuditReport, run: AuditRun): void {
  console.log(`event log: ${run.describe}`);
  if (run.live) {
    console.log(
      `read models: rebuilt from the log through the ledger projectors, and the live ones in ${run.live}, each document compared at the revision it has applied`,
    );
  } else {
    console.log(
      `read models: rebuilt from the log through the ledger projectors (standalone keeps them in the server's memory)${report.servedBy ? `; served balances read from ${report.servedBy}` : '; pass --against <url> to compare with a running server'}`,
    );
  }
  printAuditReport(report);
  const exported = run.exported;
  if (exported && run.csv) {
    console.log(
      `statement: ${exported.lines} lines written to ${run.out} (a spreadsheet view: it carries the line hashes but not the chain's header and end records, so \`ledger verify\` cannot check it; export .jsonl for a verifiable statement)`,
    );
  } else if (exported) {
    printExportedStatement(exported, run.out);
  }
}

/** A .jsonl statement written: its chain head and how to pin it. */
function printExportedStatement(exported: StatementClose, out: string | undefined): void {
  console.log(
    `statement: ${exported.lines} lines written to ${out}${exported.signed ? ', end record signed with HMAC-SHA256' : ''}`,
  );
  console.log('');
  console.log(`  chain head: ${exported.head}`);
  console.log('');
  console.log(
    '  Record this chain head where whoever holds the statement cannot change it (the audit ticket, the finance system).',
  );
  console.log(
    '  The chain and the arithmetic alone cannot tell a statement rewritten with a recomputed chain from this one;',
  );
  console.log(
    `  \`analyst ledger verify ${out} --head ${exported.head}\` can${exported.signed ? ', as can `--key` with the signing key' : ''}.`,
  );
}
