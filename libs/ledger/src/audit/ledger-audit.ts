import {
  LEDGER_STREAM_PREFIX,
  ledgerStream,
  teamIdOfLedgerStream,
  type CreditBalances,
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
import { formatBalances, sameBalances } from './credit-balances';
import { compareServedTeams, type ServedComparison, type ServedLedger } from './served-statement';
import type { StatementWriter } from './statement-export';
import {
  compareLiveReadModels,
  type LiveReadModelCheck,
  type ReadModelComparison,
  type ReadModelLag,
} from './live-read-models';

export type { ReadModelComparison, ReadModelLag };
export type { ServedComparison, ServedLedger };

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
        message: `rebuilt read model shows ${formatBalances(readModel)} (${open} open) but the log gives ${formatBalances(team.balances)} (${team.reservations.open} open)`,
      });
    }
  }
  return comparisons;
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
