import {
  LEDGER_STREAM_PREFIX,
  ledgerStream,
  teamIdOfLedgerStream,
  type CreditBalances,
  type StatementPage,
} from '@analyst/contracts';
import {
  ChargeAuditor,
  LedgerAuditor,
  statementLine,
  type AuditViolation,
  type ChargeAudit,
  type TeamAudit,
} from '@analyst/domain-ledger';
import { ledgerBalancesProjector, ledgerReservationsProjector } from '../projections';
import {
  type CheckpointStore,
  type EventStore,
  type ReadStore,
  type RecordedEvent,
  ProjectorFold,
} from '@analyst/platform';
import { readOutstandingReservations } from '../queries/read-reservations';
import { readTeamCredits } from '@analyst/ledger-read';
import type { StatementWriter } from './statement-export';
import {
  compareLiveReadModels,
  type LiveReadModelCheck,
  type ReadModelComparison,
  type ReadModelLag,
} from './live-read-models';

export type { ReadModelComparison, ReadModelLag };

export interface AuditOptions {
  team?: string;
  statement?: StatementWriter;
  /** Called every page with the last position read. */
  onProgress?: (position: number, events: number) => void;
  /**
   * Live read models to compare with as well (MongoDB in the distributed topology), each document at
   * the revision it has applied: lag is reported (`lag`), not a violation.
   */
  liveReadModels?: ReadStore;
  /** The live projection's checkpoint: an event below it that a document never applied was lost, not late. */
  liveCheckpoint?: { store: CheckpointStore; name: string };
  /** A running server's statement (admin API) to compare the recomputed balances with. */
  served?: ServedLedger;
  /**
   * The content-side cross-check: every charge has a post data version with comments behind it, no
   * version or link is charged twice, every refund has a failing outcome, no reservation stays open
   * longer than `maxOpenMinutes` (default 30) as of `now` (default the wall clock). `false` for a
   * log that holds only ledger events (the ledger's own tests, the bench).
   */
  charges?: false | { now?: string; maxOpenMinutes?: number };
}

export const DEFAULT_MAX_OPEN_MINUTES = 30;

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

export interface AuditReport {
  ok: boolean;
  events: number;
  ledgerEvents: number;
  headPosition: number;
  teams: TeamAudit[];
  comparisons: ReadModelComparison[];
  /** Live documents behind the replay, compared at what they had applied (empty without live read models). */
  lag: ReadModelLag[];
  /** The live projection's checkpoint read before its documents; null without one. */
  liveCheckpoint: { name: string; position: number } | null;
  violations: AuditViolation[];
  /** The content-side cross-check; null when it was switched off. Its findings are violations too. */
  charges: ChargeAudit | null;
  /** Comparison with a running server's served statement (empty unless `served` was given). */
  served: ServedComparison[];
  servedBy: string | null;
  seconds: number;
}

/**
 * Finance's audit: replays the ledger streams from the first event without touching any read
 * model, recomputes every balance, checks the invariants, then compares the result with the read
 * models rebuilt through the projectors (and with live ones when given, each document at the
 * revision it has applied, so a busy system's lag is reported as lag). In the same pass it
 * cross-checks every charge and refund against the post and job streams (`ChargeAuditor`).
 */
export async function auditLedger(events: EventStore, options: AuditOptions = {}): Promise<AuditReport> {
  const started = Date.now();
  const chargeAuditor = options.charges === false ? null : new ChargeAuditor();
  const headPosition = await events.headPosition();
  const replay = await replayLedger(events, options, chargeAuditor);
  const { teams, violations } = replay.auditor.finish();
  if (options.team && replay.ledgerEvents === 0) violations.push(teamWithoutEvents(options.team));
  const charges = finishCharges(chargeAuditor, options);
  const rebuilt = await replay.fold.toReadStore();
  const comparisons = await compareRebuilt(rebuilt, teams, violations);
  const live = await compareLive(events, options, replay.fold, teams, violations);
  comparisons.push(...live.comparisons);
  const served = options.served
    ? await compareServedTeams(options.served, teams, replay.lastEvents, violations)
    : [];
  return {
    ok: violations.length === 0 && (charges?.findings.length ?? 0) === 0,
    events: replay.events,
    ledgerEvents: replay.ledgerEvents,
    headPosition,
    teams,
    comparisons,
    lag: live.lag,
    liveCheckpoint: live.checkpoint,
    violations,
    charges,
    served,
    servedBy: options.served?.describe ?? null,
    seconds: (Date.now() - started) / 1000,
  };
}

/** `--team` named a team the log has no ledger events of. */
function teamWithoutEvents(teamId: string): AuditViolation {
  return {
    teamId,
    eventId: null,
    position: null,
    revision: null,
    type: null,
    message: `team ${teamId} has no ledger events in this log`,
  };
}

/** The content-side cross-check's findings as of `now`; null when it was switched off. */
function finishCharges(chargeAuditor: ChargeAuditor | null, options: AuditOptions): ChargeAudit | null {
  if (!chargeAuditor || options.charges === false) return null;
  return chargeAuditor.finish({
    now: options.charges?.now ?? new Date().toISOString(),
    maxOpenMinutes: options.charges?.maxOpenMinutes ?? DEFAULT_MAX_OPEN_MINUTES,
    team: options.team,
  });
}

/**
 * Events per page of the replay. Small pages keep few events alive at once, so most die young: with
 * 10,000 the garbage collector copied whole pages and took a fifth of the audit's time.
 */
const PAGE_SIZE = 1000;

/** Each team's last ledger event, updated in place (one object per team, not one per event). */
function noteLastEvent(
  lastEvents: Map<string, { revision: number; eventId: string }>,
  event: RecordedEvent,
): void {
  const teamId = teamIdOfLedgerStream(event.streamId);
  const last = lastEvents.get(teamId);
  if (last) {
    last.revision = event.revision;
    last.eventId = event.id;
  } else lastEvents.set(teamId, { revision: event.revision, eventId: event.id });
}

interface LedgerReplay {
  auditor: LedgerAuditor;
  fold: ProjectorFold;
  /** Each team's last ledger event. */
  lastEvents: Map<string, { revision: number; eventId: string }>;
  events: number;
  ledgerEvents: number;
}

/**
 * One pass over the whole log: every event to the charge auditor, the ledger events (of the team,
 * with `team`) to the ledger auditor, the projector fold and the statement.
 */
async function replayLedger(
  events: EventStore,
  options: AuditOptions,
  chargeAuditor: ChargeAuditor | null,
): Promise<LedgerReplay> {
  const auditor = new LedgerAuditor();
  // The statement read model is a view of the same events; the balances and open reservations are
  // what the figures must agree on, so only those two are refolded (it keeps 1M events under 10 s).
  const fold = new ProjectorFold([ledgerBalancesProjector, ledgerReservationsProjector]);
  const running = new Map<string, CreditBalances>();
  const wantedStream = options.team ? ledgerStream(options.team) : null;
  const lastEvents = new Map<string, { revision: number; eventId: string }>();
  let count = 0;
  let ledgerCount = 0;
  for await (const page of events.readAll(-1, PAGE_SIZE)) {
    for (const event of page) {
      count += 1;
      // Every team's posts and jobs, even with --team: a charge may name another team's post.
      chargeAuditor?.feed(event);
      if (wantedStream ? event.streamId !== wantedStream : !event.streamId.startsWith(LEDGER_STREAM_PREFIX))
        continue;
      ledgerCount += 1;
      auditor.feed(event);
      fold.apply(event);
      noteLastEvent(lastEvents, event);
      if (options.statement) {
        const flushed = writeLine(options.statement, running, event);
        if (flushed) await flushed;
      }
    }
    options.onProgress?.(page[page.length - 1].position, count);
  }
  return { auditor, fold, lastEvents, events: count, ledgerEvents: ledgerCount };
}

/**
 * The live read models when given (nothing otherwise), each document at the revision it has
 * applied, after reading the projection's checkpoint.
 */
async function compareLive(
  events: EventStore,
  { liveReadModels: store, liveCheckpoint: checkpointStore }: AuditOptions,
  fold: ProjectorFold,
  teams: TeamAudit[],
  violations: AuditViolation[],
): Promise<LiveReadModelCheck & { checkpoint: AuditReport['liveCheckpoint'] }> {
  if (!store) return { comparisons: [], lag: [], checkpoint: null };
  // Read before the documents: whatever it covers, they have applied by the time they are read.
  const checkpoint = checkpointStore
    ? { name: checkpointStore.name, position: await checkpointStore.store.load(checkpointStore.name) }
    : null;
  const known = checkpoint && checkpoint.position >= 0 ? checkpoint.position : null;
  const check = await compareLiveReadModels({
    events,
    live: store,
    fold,
    teams,
    checkpoint: known,
    violations,
  });
  return { ...check, checkpoint };
}

/** Each team's recomputed balances and open reservations against the rebuilt read models; a difference is a violation. */
async function compareRebuilt(
  store: ReadStore,
  teams: TeamAudit[],
  violations: AuditViolation[],
): Promise<ReadModelComparison[]> {
  const comparisons: ReadModelComparison[] = [];
  for (const team of teams) {
    const readModel = await readTeamCredits(store, team.teamId);
    const open = (await readOutstandingReservations(store, team.teamId)).length;
    const ok = sameBalances(readModel, team.balances) && open === team.reservations.open;
    comparisons.push({
      source: 'rebuilt',
      teamId: team.teamId,
      recomputed: team.balances,
      readModel,
      openReservations: { recomputed: team.reservations.open, readModel: open },
      appliedRevisions: null,
      ok,
    });
    if (!ok) {
      violations.push({
        teamId: team.teamId,
        eventId: null,
        position: null,
        revision: null,
        type: null,
        message: `rebuilt read model shows ${fmt(readModel)} (${open} open) but the log gives ${fmt(team.balances)} (${team.reservations.open} open)`,
      });
    }
  }
  return comparisons;
}

/** Each team's recomputed balances against the served statement; a difference is a violation. */
async function compareServedTeams(
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
      `it serves ${fmt(line.balances)} after revision ${last.revision} but the log gives ${fmt(recomputed)}`,
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
        problem: `the served statement ${ends} but the log has revision ${last.revision} (${fmt(recomputed)})`,
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

function sameBalances(a: CreditBalances, b: CreditBalances): boolean {
  return a.maps === b.maps && a.adhoc === b.adhoc && a.reserved === b.reserved;
}

const NO_BALANCES: CreditBalances = { maps: 0, adhoc: 0, reserved: 0 };

/** Returns the writer's back-pressure promise when it has one, so most lines cost no await. */
function writeLine(
  writer: StatementWriter,
  running: Map<string, CreditBalances>,
  event: RecordedEvent,
): Promise<void> | undefined {
  const line = statementLine(event, running.get(event.streamId) ?? NO_BALANCES);
  // The line's balances are the figures after the event: applyChange(before, balanceChange(event)).
  running.set(event.streamId, line.balances);
  return writer.write(line);
}

function fmt(b: CreditBalances): string {
  return `maps ${b.maps} / adhoc ${b.adhoc} / reserved ${b.reserved}`;
}
