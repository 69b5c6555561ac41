import { ledgerStream, type CreditBalances } from '@analyst/contracts';
import type { AuditViolation, TeamAudit } from '@analyst/domain-ledger';
import {
  appliedRevision,
  withoutMeta,
  type Doc,
  type EventStore,
  type Projected,
  type Projector,
  type ReadStore,
  type RecordedEvent,
  ProjectorFold,
} from '@analyst/platform';
import type { LedgerBalancesDoc } from '@analyst/ledger-read';
import { ledgerBalancesProjector, ledgerReservationsProjector } from '../projections';
import type { LedgerReservationsDoc } from '../projections/ledger-reservations.projector';
import { formatBalances, sameBalances } from './credit-balances';

/**
 * A live read-model document that has not applied every event of its team the replay read. It is
 * compared with the log at the revision it has applied, so lag is never a difference.
 */
export interface ReadModelLag {
  /** The collection, e.g. `ledger_reservations`. */
  readModel: string;
  teamId: string;
  documentId: string;
  /** Last revision of the team's ledger stream the document applied; -1 for none (no document yet). */
  appliedRevision: number;
  /** Log position of that event; -1 for none. */
  appliedPosition: number;
  /** Log position of the team's last event of this read model that the replay read. */
  headPosition: number;
  /** Events of this read model between the two: what the document has still to apply. */
  events: number;
}

/** One team's balances and open reservations, recomputed against a read model's. */
export interface ReadModelComparison {
  source: 'rebuilt' | 'live';
  teamId: string;
  recomputed: CreditBalances;
  readModel: CreditBalances;
  openReservations: { recomputed: number; readModel: number };
  /**
   * Live only: the revision of the team's ledger stream each document was compared at (the one it
   * had applied), by collection. Null for the rebuilt read models, compared at the replay's end.
   */
  appliedRevisions: Record<string, number> | null;
  ok: boolean;
}

export interface LiveReadModelCheck {
  comparisons: ReadModelComparison[];
  lag: ReadModelLag[];
}

export interface LiveReadModelInput {
  events: EventStore;
  live: ReadStore;
  /** The replay's fold of the same projectors, at the replay's end. */
  fold: ProjectorFold;
  teams: TeamAudit[];
  /**
   * The live projection's checkpoint: every event at or below it has been applied. A document that
   * misses such an event lost it (not lag). Null when unknown.
   */
  checkpoint: number | null;
  violations: AuditViolation[];
}

const LIVE_PROJECTORS = [ledgerBalancesProjector, ledgerReservationsProjector] as const;

/** One team's ledger stream, read once and only when a document needs it, indexed by revision. */
class TeamStream {
  private events: RecordedEvent[] | null = null;
  private byRevision = new Map<number, RecordedEvent>();

  constructor(
    private readonly store: EventStore,
    readonly streamId: string,
  ) {}

  async all(): Promise<RecordedEvent[]> {
    if (!this.events) {
      this.events = await this.store.readStream(this.streamId);
      this.byRevision = new Map(this.events.map((e) => [e.revision, e]));
    }
    return this.events;
  }

  async at(revision: number): Promise<RecordedEvent | undefined> {
    await this.all();
    return this.byRevision.get(revision);
  }
}

/**
 * Compares each audited team's live documents (balances, open reservations) with the log at the
 * revision each document has applied (its `_streams` memo): a document behind the replay is lag,
 * reported with its size; one ahead of it (written during the audit) is compared further along the
 * stream. Only a real difference at the same revision, or an event the projection's checkpoint has
 * passed but the document never applied, is a violation, naming the team, the document and the events.
 */
export async function compareLiveReadModels(input: LiveReadModelInput): Promise<LiveReadModelCheck> {
  const comparisons: ReadModelComparison[] = [];
  const lag: ReadModelLag[] = [];
  for (const team of input.teams) {
    const stream = new TeamStream(input.events, ledgerStream(team.teamId));
    const docs = new Map<Projector, { expected: Doc | null; actual: Doc | null; revision: number }>();
    for (const projector of LIVE_PROJECTORS) {
      const checked = await checkDocument(input, projector, team.teamId, stream, lag);
      if (checked) docs.set(projector, checked);
    }
    comparisons.push(comparison(team.teamId, docs));
  }
  return { comparisons, lag };
}

async function checkDocument(
  input: LiveReadModelInput,
  projector: Projector,
  teamId: string,
  stream: TeamStream,
  lag: ReadModelLag[],
): Promise<{ expected: Doc | null; actual: Doc | null; revision: number } | null> {
  const name = `${projector.collection}/${teamId}`;
  const raw = await input.live.collection<Projected<Doc>>(projector.collection).findOne({ _id: teamId });
  const actual = raw ? withoutMeta(raw) : null;
  const applied = raw ? appliedRevision(raw, stream.streamId) : -1;
  const replayed = input.fold.entry(projector, teamId, stream.streamId);
  const replayRevision = replayed?.revision ?? -1;
  let expected: Doc | null = replayed?.doc ?? null;
  if (applied !== replayRevision) {
    const events = await stream.all();
    const last = events.length ? events[events.length - 1].revision : -1;
    if (applied > last) {
      input.violations.push({
        ...teamOnly(teamId),
        message: `live read model ${name} says it applied revision ${applied} of ${stream.streamId}, but the log's stream ends at revision ${last}`,
      });
      return null;
    }
    expected = foldTo(projector, teamId, stream.streamId, events, applied);
    if (applied < replayRevision)
      await noteLag(input, projector, teamId, stream, applied, replayRevision, lag);
  }
  const problem = await difference(projector, teamId, applied, expected, actual, stream);
  if (problem) input.violations.push(problem);
  return { expected, actual, revision: applied };
}

/**
 * A document behind the replay: its lag, and a violation when the projection's checkpoint has
 * passed the first event it misses (lost, not late).
 */
async function noteLag(
  input: LiveReadModelInput,
  projector: Projector,
  teamId: string,
  stream: TeamStream,
  applied: number,
  replayRevision: number,
  lag: ReadModelLag[],
): Promise<void> {
  const pending = (await stream.all()).filter(
    (e) => e.revision > applied && e.revision <= replayRevision && projector.eventTypes.includes(e.type),
  );
  lag.push({
    readModel: projector.collection,
    teamId,
    documentId: teamId,
    appliedRevision: applied,
    appliedPosition: (await stream.at(applied))?.position ?? -1,
    headPosition: pending[pending.length - 1].position,
    events: pending.length,
  });
  const skipped = pending[0];
  if (input.checkpoint !== null && skipped.position <= input.checkpoint) {
    input.violations.push({
      ...eventOf(teamId, skipped),
      message: `live read model ${projector.collection}/${teamId} applied revision ${applied} of ${stream.streamId} but not ${describe(skipped)}, although the projection's checkpoint (position ${input.checkpoint}) is past it: the read model skipped it`,
    });
  }
}

/** The document the projector makes from the stream's events up to `revision` (null: none yet). */
function foldTo(
  projector: Projector,
  teamId: string,
  streamId: string,
  events: readonly RecordedEvent[],
  revision: number,
): Doc | null {
  const fold = new ProjectorFold([projector]);
  for (const event of events) if (event.revision <= revision) fold.apply(event);
  return fold.entry(projector, teamId, streamId)?.doc ?? null;
}

/** The violation a live document that differs from the log at its own revision is, or null. */
async function difference(
  projector: Projector,
  teamId: string,
  applied: number,
  expected: Doc | null,
  actual: Doc | null,
  stream: TeamStream,
): Promise<AuditViolation | null> {
  const name = `${projector.collection}/${teamId}`;
  const at = applied < 0 ? 'before any event of the team' : `at revision ${applied}`;
  if (projector === ledgerReservationsProjector)
    return reservationsDifference(
      name,
      teamId,
      at,
      applied,
      expected as LedgerReservationsDoc | null,
      actual as LedgerReservationsDoc | null,
      stream,
    );
  const want = balancesOf(expected as LedgerBalancesDoc | null);
  const have = balancesOf(actual as LedgerBalancesDoc | null);
  if (sameBalances(want, have)) return null;
  const last = applied < 0 ? undefined : await stream.at(applied);
  return {
    ...(last ? eventOf(teamId, last) : teamOnly(teamId)),
    message: `live read model ${name} shows ${formatBalances(have)} but the log gives ${formatBalances(want)} ${at}${last ? ` (its last applied event: ${describe(last)})` : ''}`,
  };
}

/** Open reservations the document and the log disagree on, each named with the events behind it. */
async function reservationsDifference(
  name: string,
  teamId: string,
  at: string,
  applied: number,
  expected: LedgerReservationsDoc | null,
  actual: LedgerReservationsDoc | null,
  stream: TeamStream,
): Promise<AuditViolation | null> {
  const want = new Set((expected?.open ?? []).map((r) => r.reservationId));
  const have = new Set((actual?.open ?? []).map((r) => r.reservationId));
  const extra = [...have].filter((id) => !want.has(id));
  const missing = [...want].filter((id) => !have.has(id));
  if (extra.length === 0 && missing.length === 0) return null;
  const events = (await stream.all()).filter((e) => e.revision <= applied);
  const named: RecordedEvent[] = [];
  const parts: string[] = [];
  for (const id of extra) {
    const closing = events.find((e) => reservationOf(e) === id && e.type !== 'CreditsReserved');
    const reserved = events.find((e) => reservationOf(e) === id && e.type === 'CreditsReserved');
    if (closing) named.push(closing);
    parts.push(
      closing
        ? `lists reservation ${id} as open, but the log closed it with ${describe(closing)}${reserved ? ` (reserved by ${describe(reserved)})` : ''}`
        : `lists reservation ${id} as open, but the log never reserved it`,
    );
  }
  for (const id of missing) {
    const reserved = events.find((e) => reservationOf(e) === id && e.type === 'CreditsReserved')!;
    named.push(reserved);
    parts.push(`does not list reservation ${id}, which the log holds open since ${describe(reserved)}`);
  }
  return {
    ...(named.length ? eventOf(teamId, named[0]) : teamOnly(teamId)),
    message: `live read model ${name} (${have.size} open) disagrees with the log (${want.size} open) ${at}: it ${parts.join('; it ')}`,
  };
}

function comparison(
  teamId: string,
  docs: Map<Projector, { expected: Doc | null; actual: Doc | null; revision: number }>,
): ReadModelComparison {
  const balances = docs.get(ledgerBalancesProjector);
  const reservations = docs.get(ledgerReservationsProjector);
  const recomputed = balancesOf((balances?.expected ?? null) as LedgerBalancesDoc | null);
  const readModel = balancesOf((balances?.actual ?? null) as LedgerBalancesDoc | null);
  const open = (doc: Doc | null | undefined) => (doc as LedgerReservationsDoc | null)?.open?.length ?? 0;
  const openReservations = {
    recomputed: open(reservations?.expected),
    readModel: open(reservations?.actual),
  };
  const appliedRevisions: Record<string, number> = {};
  for (const [projector, doc] of docs) appliedRevisions[projector.collection] = doc.revision;
  const sameOpen =
    reservations !== undefined &&
    sameIds(
      reservations.expected as LedgerReservationsDoc | null,
      reservations.actual as LedgerReservationsDoc | null,
    );
  return {
    source: 'live',
    teamId,
    recomputed,
    readModel,
    openReservations,
    appliedRevisions,
    ok: balances !== undefined && sameBalances(recomputed, readModel) && sameOpen,
  };
}

function sameIds(a: LedgerReservationsDoc | null, b: LedgerReservationsDoc | null): boolean {
  const ids = (doc: LedgerReservationsDoc | null) =>
    (doc?.open ?? [])
      .map((r) => r.reservationId)
      .sort()
      .join('\n');
  return ids(a) === ids(b);
}

function reservationOf(event: RecordedEvent): string | undefined {
  return (event.data as { reservationId?: string }).reservationId;
}

function balancesOf(doc: LedgerBalancesDoc | null): CreditBalances {
  return doc
    ? { maps: doc.maps, adhoc: doc.adhoc, reserved: doc.reserved }
    : { maps: 0, adhoc: 0, reserved: 0 };
}

function describe(event: RecordedEvent): string {
  return `${event.type} ${event.id} (position ${event.position}, revision ${event.revision})`;
}

function eventOf(teamId: string, event: RecordedEvent): Omit<AuditViolation, 'message'> {
  return { teamId, eventId: event.id, position: event.position, revision: event.revision, type: event.type };
}

function teamOnly(teamId: string): Omit<AuditViolation, 'message'> {
  return { teamId, eventId: null, position: null, revision: null, type: null };
}
