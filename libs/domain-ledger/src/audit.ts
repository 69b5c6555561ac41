import {
  LEDGER_EVENT_TYPES,
  teamIdOfLedgerStream,
  type CreditBalances,
  type CreditPool,
  type LedgerEvent,
} from '@analyst/contracts';
import { recordsOf } from '@analyst/eventsourcing';
import { applyChange, balanceChange } from './ledger-state';
import type { LedgerRecord } from './ledger-record';

const isLedgerRecord = recordsOf<LedgerEvent>(LEDGER_EVENT_TYPES);

export interface PoolTotals {
  granted: number;
  consumed: number;
  /** MAPs that came back from a reservation after their month ended. */
  refundedToNothing: number;
  expired: number;
  /** Held by open reservations. */
  outstanding: number;
  balance: number;
}

export interface TeamAudit {
  teamId: string;
  events: number;
  balances: CreditBalances;
  pools: Record<CreditPool, PoolTotals>;
  reservations: { reserved: number; settled: number; refunded: number; open: number; rejected: number };
  /** Credits: reserved − released by settles − released by refunds. */
  reservedFlow: { reserved: number; settled: number; refunded: number };
}

export interface AuditViolation {
  teamId: string;
  eventId: string | null;
  position: number | null;
  revision: number | null;
  type: string | null;
  message: string;
}

interface OpenReservation {
  fromMaps: number;
  fromAdhoc: number;
  amount: number;
  unitCost: number;
  fundedUnits: number;
  status: 'open' | 'settled' | 'refunded';
}

interface TeamBook {
  teamId: string;
  lastRevision: number;
  events: number;
  balances: CreditBalances;
  pools: Record<CreditPool, Omit<PoolTotals, 'outstanding' | 'balance'>>;
  reservations: Map<string, OpenReservation>;
  commandIds: Set<string>;
  counts: TeamAudit['reservations'];
  reservedFlow: TeamAudit['reservedFlow'];
}

const emptyPool = () => ({ granted: 0, consumed: 0, refundedToNothing: 0, expired: 0 });

type Flag = (message: string) => void;
type LedgerEventOf<T extends LedgerEvent['type']> = Extract<LedgerEvent, { type: T }>;

function checkGrant(book: TeamBook, event: LedgerEventOf<'CreditsGranted'>, flag: Flag): void {
  if (event.data.amount <= 0) flag(`grant of ${event.data.amount} is not positive`);
  book.pools[event.data.pool].granted += event.data.amount;
}

function checkMapsReset(book: TeamBook, event: LedgerEventOf<'MapsReset'>, flag: Flag): void {
  if (event.data.expired !== book.balances.maps) {
    flag(`reset expired ${event.data.expired} MAPs but ${book.balances.maps} were left`);
  }
  book.pools.map.granted += event.data.granted;
  book.pools.map.expired += event.data.expired;
}

function applyMapAllotment(book: TeamBook, event: LedgerEventOf<'MapAllotmentSet'>): void {
  if (event.data.adjustment >= 0) book.pools.map.granted += event.data.adjustment;
  else book.pools.map.expired -= event.data.adjustment;
}

function checkReserve(book: TeamBook, event: LedgerEventOf<'CreditsReserved'>, flag: Flag): void {
  const d = event.data;
  if (book.reservations.has(d.reservationId)) flag(`reservation ${d.reservationId} was reserved twice`);
  if (d.fundedUnits <= 0 || d.fundedUnits > d.requestedUnits)
    flag(`funded ${d.fundedUnits} of ${d.requestedUnits} units`);
  if (
    d.amount !== d.fundedUnits * d.unitCost ||
    d.fromMaps + d.fromAdhoc !== d.amount ||
    d.fromMaps < 0 ||
    d.fromAdhoc < 0
  ) {
    flag(`reservation ${d.reservationId} amounts do not add up`);
  }
  book.reservations.set(d.reservationId, {
    fromMaps: d.fromMaps,
    fromAdhoc: d.fromAdhoc,
    amount: d.amount,
    unitCost: d.unitCost,
    fundedUnits: d.fundedUnits,
    status: 'open',
  });
  book.counts.reserved += 1;
  book.reservedFlow.reserved += d.amount;
}

type ReleaseEvent = LedgerEventOf<'CreditsSettled' | 'CreditsRefunded'>;

/** The open reservation a settle or refund releases; flags (and gives none) when there is none. */
function reservationToRelease(
  book: TeamBook,
  d: ReleaseEvent['data'],
  verb: string,
  flag: Flag,
): OpenReservation | null {
  const reservation = book.reservations.get(d.reservationId);
  if (!reservation) {
    flag(`reservation ${d.reservationId} ${verb} but never reserved`);
    return null;
  }
  if (reservation.status !== 'open') {
    flag(`reservation ${d.reservationId} ${verb} after it was already ${reservation.status}`);
    return null;
  }
  return reservation;
}

function checkSettleUnits(
  event: LedgerEventOf<'CreditsSettled'>,
  reservation: OpenReservation,
  flag: Flag,
): void {
  const d = event.data;
  if (d.charged.maps + d.charged.adhoc !== d.consumedUnits * reservation.unitCost) {
    flag(
      `settle of ${d.reservationId} charged ${d.charged.maps + d.charged.adhoc} for ${d.consumedUnits} units`,
    );
  }
  if (d.consumedUnits > reservation.fundedUnits) {
    flag(`settle of ${d.reservationId} consumed more units than were funded`);
  }
}

function checkReleasePerPool(
  d: ReleaseEvent['data'],
  charged: { maps: number; adhoc: number },
  reservation: OpenReservation,
  verb: string,
  flag: Flag,
): void {
  if (
    charged.maps + d.returned.maps + d.expiredOnReturn !== reservation.fromMaps ||
    charged.adhoc + d.returned.adhoc !== reservation.fromAdhoc
  ) {
    flag(`${verb} ${d.reservationId} does not release exactly what was reserved per pool`);
  }
}

function checkRelease(book: TeamBook, event: ReleaseEvent, flag: Flag): void {
  const d = event.data;
  const verb = event.type === 'CreditsSettled' ? 'settled' : 'refunded';
  const reservation = reservationToRelease(book, d, verb, flag);
  if (!reservation) return;
  const charged = event.type === 'CreditsSettled' ? event.data.charged : { maps: 0, adhoc: 0 };
  if (event.type === 'CreditsSettled') checkSettleUnits(event, reservation, flag);
  checkReleasePerPool(d, charged, reservation, verb, flag);
  reservation.status = event.type === 'CreditsSettled' ? 'settled' : 'refunded';
  book.pools.map.consumed += charged.maps;
  book.pools.adhoc.consumed += charged.adhoc;
  book.pools.map.refundedToNothing += d.expiredOnReturn;
  const released = charged.maps + charged.adhoc + d.returned.maps + d.returned.adhoc + d.expiredOnReturn;
  if (event.type === 'CreditsSettled') {
    book.counts.settled += 1;
    book.reservedFlow.settled += released;
  } else {
    book.counts.refunded += 1;
    book.reservedFlow.refunded += released;
  }
}

/**
 * Recomputes every team's balances from the ledger events alone, in log order, and checks the
 * invariants finance relies on. Pure bookkeeping: feed it records, then ask for the result.
 */
export class LedgerAuditor {
  private readonly books = new Map<string, TeamBook>();
  readonly violations: AuditViolation[] = [];

  private book(teamId: string): TeamBook {
    let book = this.books.get(teamId);
    if (!book) {
      book = {
        teamId,
        lastRevision: -1,
        events: 0,
        balances: { maps: 0, adhoc: 0, reserved: 0 },
        pools: { map: emptyPool(), adhoc: emptyPool() },
        reservations: new Map(),
        commandIds: new Set(),
        counts: { reserved: 0, settled: 0, refunded: 0, open: 0, rejected: 0 },
        reservedFlow: { reserved: 0, settled: 0, refunded: 0 },
      };
      this.books.set(teamId, book);
    }
    return book;
  }

  feed(record: LedgerRecord): void {
    const teamId = teamIdOfLedgerStream(record.streamId);
    const book = this.book(teamId);
    const flag = (message: string) =>
      this.violations.push({
        teamId,
        eventId: record.id,
        position: record.position,
        revision: record.revision,
        type: record.type,
        message,
      });
    if (record.revision !== book.lastRevision + 1) {
      flag(
        `stream revision ${record.revision} follows ${book.lastRevision}: events are missing or out of order`,
      );
    }
    book.lastRevision = record.revision;
    book.events += 1;
    if (!isLedgerRecord(record)) {
      flag(`unknown event type ${record.type} in a ledger stream`);
      return;
    }
    const event = record;
    if (book.commandIds.has(event.data.commandId)) flag(`command ${event.data.commandId} was applied twice`);
    book.commandIds.add(event.data.commandId);
    this.check(book, event, flag);
    book.balances = applyChange(book.balances, balanceChange(event));
    for (const key of ['maps', 'adhoc', 'reserved'] as const) {
      if (book.balances[key] < 0) flag(`${key} balance went negative (${book.balances[key]})`);
    }
  }

  private check(book: TeamBook, event: LedgerEvent, flag: Flag): void {
    switch (event.type) {
      case 'CreditsGranted':
        return checkGrant(book, event, flag);
      case 'MapsReset':
        return checkMapsReset(book, event, flag);
      case 'MapAllotmentSet':
        return applyMapAllotment(book, event);
      case 'CreditsReserved':
        return checkReserve(book, event, flag);
      case 'CreditsReservationRejected':
        book.counts.rejected += 1;
        return;
      case 'CreditsSettled':
      case 'CreditsRefunded':
        return checkRelease(book, event, flag);
      default: {
        const _never: never = event;
        return _never;
      }
    }
  }

  /** Closes the books: end-of-log invariants per team and pool. */
  finish(): { teams: TeamAudit[]; violations: AuditViolation[] } {
    const teams: TeamAudit[] = [];
    for (const book of [...this.books.values()].sort((a, b) =>
      a.teamId < b.teamId ? -1 : a.teamId > b.teamId ? 1 : 0,
    )) {
      const flag = (message: string) =>
        this.violations.push({
          teamId: book.teamId,
          eventId: null,
          position: null,
          revision: null,
          type: null,
          message,
        });
      let outMaps = 0;
      let outAdhoc = 0;
      let open = 0;
      for (const r of book.reservations.values()) {
        if (r.status !== 'open') continue;
        open += 1;
        outMaps += r.fromMaps;
        outAdhoc += r.fromAdhoc;
      }
      const pools: Record<CreditPool, PoolTotals> = {
        map: { ...book.pools.map, outstanding: outMaps, balance: book.balances.maps },
        adhoc: { ...book.pools.adhoc, outstanding: outAdhoc, balance: book.balances.adhoc },
      };
      for (const pool of ['map', 'adhoc'] as const) {
        const t = pools[pool];
        const expected = t.granted - t.consumed - t.refundedToNothing - t.expired - t.outstanding;
        if (expected !== t.balance) {
          flag(
            `${pool}: granted ${t.granted} − consumed ${t.consumed} − refunded-to-nothing ${t.refundedToNothing} − expired ${t.expired} − outstanding ${t.outstanding} = ${expected}, but the balance is ${t.balance}`,
          );
        }
      }
      const flow = book.reservedFlow;
      if (
        flow.reserved - flow.settled - flow.refunded !== outMaps + outAdhoc ||
        book.balances.reserved !== outMaps + outAdhoc
      ) {
        flag(
          `outstanding reservations ${outMaps + outAdhoc} ≠ reserved ${flow.reserved} − settled ${flow.settled} − refunded ${flow.refunded}, reserved balance ${book.balances.reserved}`,
        );
      }
      teams.push({
        teamId: book.teamId,
        events: book.events,
        balances: book.balances,
        pools,
        reservations: { ...book.counts, open },
        reservedFlow: flow,
      });
    }
    return { teams, violations: this.violations };
  }
}
