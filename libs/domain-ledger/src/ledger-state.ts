import type {
  CreditBalances,
  GrantResult,
  LedgerEvent,
  RefundResult,
  ReserveResult,
  SettleResult,
} from '@analyst/contracts';
import { PersistentMap } from './persistent-map';
import type { ReservationTerms } from './reservation-terms';

export type ReservationStatus = 'open' | 'settled' | 'refunded';

export interface Reservation extends ReservationTerms {
  status: ReservationStatus;
}

/**
 * The first answer given to a command id; a repeated id gets it back. `fingerprint` is the content
 * of the command that earned it (`commandFingerprint`), so the same id with other content is refused.
 */
export type LedgerAnswer = (
  | { kind: 'grant'; result: GrantResult }
  | { kind: 'reserve'; result: ReserveResult }
  | { kind: 'settle'; result: SettleResult }
  | { kind: 'refund'; result: RefundResult }
  | { kind: 'allotment'; result: { allotment: number; adjustment: number } }
  | { kind: 'reset'; result: { month: string; expired: number; granted: number } }
) & { fingerprint: string };

export interface LedgerState {
  /** MAP month the balances belong to; null before the first event. */
  month: string | null;
  allotment: number;
  maps: number;
  adhoc: number;
  reserved: number;
  /**
   * MAPs granted this month by `CreditsGranted` (pool `map`), on top of the allotment. Zeroed by
   * `MapsReset`. With `mapsUsed`, what a mid-month allotment change needs.
   */
  mapsGranted: number;
  /**
   * MAPs used this month: drawn by this month's reservations and consumed by a settle or still
   * held; MAPs a settle or refund releases (returned, or expired on return) stop counting. Zeroed
   * by `MapsReset`; an earlier month's reservation never counts.
   */
  mapsUsed: number;
  reservations: PersistentMap<string, Reservation>;
  answers: PersistentMap<string, LedgerAnswer>;
}

export function initialLedgerState(): LedgerState {
  return {
    month: null,
    allotment: 0,
    maps: 0,
    adhoc: 0,
    reserved: 0,
    mapsGranted: 0,
    mapsUsed: 0,
    reservations: PersistentMap.empty(),
    answers: PersistentMap.empty(),
  };
}

/**
 * The signed change an event makes to each figure. Events carry every amount they move, so this is
 * a function of the event alone: the decider, the projectors, the statement and the audit share it.
 */
export function balanceChange(event: LedgerEvent): CreditBalances {
  switch (event.type) {
    case 'CreditsGranted':
      return event.data.pool === 'map'
        ? { maps: event.data.amount, adhoc: 0, reserved: 0 }
        : { maps: 0, adhoc: event.data.amount, reserved: 0 };
    case 'MapsReset':
      return { maps: event.data.granted - event.data.expired, adhoc: 0, reserved: 0 };
    case 'MapAllotmentSet':
      return { maps: event.data.adjustment, adhoc: 0, reserved: 0 };
    case 'CreditsReserved':
      return { maps: -event.data.fromMaps, adhoc: -event.data.fromAdhoc, reserved: event.data.amount };
    case 'CreditsReservationRejected':
      return { maps: 0, adhoc: 0, reserved: 0 };
    case 'CreditsSettled': {
      const { charged, returned, expiredOnReturn } = event.data;
      const released = charged.maps + charged.adhoc + returned.maps + returned.adhoc + expiredOnReturn;
      return { maps: returned.maps, adhoc: returned.adhoc, reserved: -released };
    }
    case 'CreditsRefunded': {
      const { returned, expiredOnReturn } = event.data;
      return {
        maps: returned.maps,
        adhoc: returned.adhoc,
        reserved: -(returned.maps + returned.adhoc + expiredOnReturn),
      };
    }
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

export function applyChange(balances: CreditBalances, change: CreditBalances): CreditBalances {
  return {
    maps: balances.maps + change.maps,
    adhoc: balances.adhoc + change.adhoc,
    reserved: balances.reserved + change.reserved,
  };
}
