import type { CreditBalances, StatementPage } from '@analyst/contracts';
import type { AuditViolation, TeamAudit } from '@analyst/domain-ledger';
import { formatBalances, sameBalances } from './credit-balances';

/** The balances a running server serves, read through its admin API (`GET /admin/v1/teams/{id}/ledger`). */
export interface ServedLedger {
  /** Where the figures come from, for the report. */
  describe: string;
  /** One page of the team's served statement (oldest line first), or null when the server does not know the team. */
  statementPage(teamId: string, cursor: string | null): Promise<StatementPage | null>;
  /** How many times to read again when the server's statement has not reached the replayed revision yet (default 5). */
  attempts?: number;
  /** Pause between those reads in ms (default 200). */
  retryDelayMs?: number;
}

export interface ServedComparison {
  teamId: string;
  /** Stream revision and id of the team's last event the replay read. */
  revision: number;
  eventId: string;
  recomputed: CreditBalances;
  /** Balances on the served line of that revision; null when the server has no such line. */
  served: CreditBalances | null;
  /** Served lines up to and including that revision. */
  servedLines: number;
  /** Served lines after it: events written after the replay read the log, not a difference. */
  newerLines: number;
  ok: boolean;
  problem: string | null;
}

/** Each team's recomputed balances against the served statement; a difference is a violation. */
export async function compareServedTeams(
  servedLedger: ServedLedger,
  teams: TeamAudit[],
  lastEvents: Map<string, { revision: number; eventId: string }>,
  violations: AuditViolation[],
): Promise<ServedComparison[]> {
  const served: ServedComparison[] = [];
  for (const team of teams) {
    const last = lastEvents.get(team.teamId)!;
    const comparison = await compareServed(servedLedger, team.teamId, last, team.balances);
    served.push(comparison);
    if (!comparison.ok) {
      violations.push({
        teamId: team.teamId,
        eventId: null,
        position: null,
        revision: last.revision,
        type: null,
        message: `served by ${servedLedger.describe}: ${comparison.problem}`,
      });
    }
  }
  return served;
}

type StatementLine = StatementPage['data'][number];

/** A team's whole served statement, split at the last revision the replay read. */
interface ServedStatement {
  /** The line of that revision; null when the statement has not reached it. */
  line: StatementLine | null;
  /** Lines up to and including that revision. */
  servedLines: number;
  /** Lines after it. */
  newerLines: number;
  /** The highest revision served (-1: no lines). */
  lastServedRevision: number;
}

/** Reads every page of the team's served statement; null when the server does not know the team. */
async function readServedStatement(
  served: ServedLedger,
  teamId: string,
  revision: number,
): Promise<ServedStatement | null> {
  const statement: ServedStatement = { line: null, servedLines: 0, newerLines: 0, lastServedRevision: -1 };
  let cursor: string | null = null;
  do {
    const page = await served.statementPage(teamId, cursor);
    if (!page) return null;
    for (const line of page.data) {
      statement.lastServedRevision = Math.max(statement.lastServedRevision, line.revision);
      if (line.revision > revision) statement.newerLines += 1;
      else statement.servedLines += 1;
      if (line.revision === revision) statement.line = line;
    }
    cursor = page.meta.hasMore ? page.meta.nextCursor : null;
  } while (cursor);
  return statement;
}

/** How the served line of the replay's last revision differs from the log (empty: it agrees). */
function servedLineProblems(
  line: StatementLine,
  servedLines: number,
  last: { revision: number; eventId: string },
  recomputed: CreditBalances,
): string[] {
  const problems: string[] = [];
  if (line.eventId !== last.eventId)
    problems.push(
      `its line at revision ${last.revision} is event ${line.eventId}, the log's is ${last.eventId}`,
    );
  if (!sameBalances(line.balances, recomputed))
    problems.push(
      `it serves ${formatBalances(line.balances)} after revision ${last.revision} but the log gives ${formatBalances(recomputed)}`,
    );
  if (servedLines !== last.revision + 1)
    problems.push(
      `it has ${servedLines} lines up to revision ${last.revision}, the log ${last.revision + 1}`,
    );
  return problems;
}

/**
 * Reads the team's whole served statement and takes the line of the last revision the replay read:
 * its balances must equal the recomputed ones, and as many lines must lead up to it. Lines after it
 * were written after the replay. A statement that has not reached that revision yet (the server's
 * projection lagging) is read again a few times before it counts as a difference.
 */
async function compareServed(
  served: ServedLedger,
  teamId: string,
  last: { revision: number; eventId: string },
  recomputed: CreditBalances,
): Promise<ServedComparison> {
  const attempts = Math.max(1, served.attempts ?? 5);
  const base = { teamId, revision: last.revision, eventId: last.eventId, recomputed };
  for (let attempt = 1; ; attempt++) {
    const statement = await readServedStatement(served, teamId, last.revision);
    if (!statement)
      return {
        ...base,
        served: null,
        servedLines: 0,
        newerLines: 0,
        ok: false,
        problem: `the server does not know team ${teamId} (404): is it running on this event log?`,
      };
    const { line, servedLines, newerLines, lastServedRevision } = statement;
    if (!line && attempt < attempts) {
      await new Promise((resolve) => setTimeout(resolve, served.retryDelayMs ?? 200));
      continue;
    }
    if (!line) {
      const ends = lastServedRevision < 0 ? 'has no lines' : `ends at revision ${lastServedRevision}`;
      return {
        ...base,
        served: null,
        servedLines,
        newerLines,
        ok: false,
        problem: `the served statement ${ends} but the log has revision ${last.revision} (${formatBalances(recomputed)})`,
      };
    }
    const problems = servedLineProblems(line, servedLines, last, recomputed);
    return {
      ...base,
      served: line.balances,
      servedLines,
      newerLines,
      ok: problems.length === 0,
      problem: problems.length ? problems.join('; ') : null,
    };
  }
}
