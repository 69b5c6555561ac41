import type { Decider } from '@analyst/eventsourcing';
import type { CreditSource, LedgerEvent, ReserveResult } from '@analyst/contracts';
import {
  checkGrantCredits,
  checkMapAllotment,
  checkRefundCredits,
  checkReserveCredits,
  checkSettleCredits,
  requireInstant,
} from './ledger-command.checks';
import type { LedgerCommand } from './ledger-command.types';
import { commandFingerprint, eventFingerprint } from './fingerprint';
import { LedgerError } from './ledger-errors';
import {
  balanceChange,
  initialLedgerState,
  type LedgerAnswer,
  type LedgerState,
  type ReservationStatus,
} from './ledger-state';
import { mapsResetCommandId, monthOf } from './month';
import { reservationTerms } from './reservation-terms';

const KIND_OF: Record<Exclude<LedgerCommand['type'], 'ResetMaps'>, LedgerAnswer['kind']> = {
  GrantCredits: 'grant',
  ReserveCredits: 'reserve',
  SettleCredits: 'settle',
  RefundCredits: 'refund',
  SetMapAllotment: 'allotment',
};

/** Throws `invalid_command` naming the first field that is missing or wrong (the checks' order). */
function validate(command: LedgerCommand): void {
  requireInstant(command.data.at);
  switch (command.type) {
    case 'GrantCredits':
      checkGrantCredits(command.data);
      return;
    case 'ReserveCredits':
      checkReserveCredits(command.data);
      return;
    case 'SettleCredits':
      checkSettleCredits(command.data);
      return;
    case 'RefundCredits':
      checkRefundCredits(command.data);
      return;
    case 'SetMapAllotment':
      checkMapAllotment(command.data);
      return;
    case 'ResetMaps':
      return;
    default: {
      const _never: never = command;
      return _never;
    }
  }
}

/** The month a command acts in: its own, but never earlier than the stream's (clocks may skew). */
function effectiveMonth(state: LedgerState, at: string): string {
  const month = monthOf(at);
  return state.month !== null && state.month > month ? state.month : month;
}

/** When the month has turned, the reset comes first: last month's MAPs expire, the allotment is granted. */
function rollover(state: LedgerState, month: string): LedgerEvent[] {
  if (state.month === month) return [];
  return [
    {
      type: 'MapsReset',
      data: {
        commandId: mapsResetCommandId(month),
        month,
        previousMonth: state.month,
        expired: state.maps,
        granted: state.allotment,
      },
    },
  ];
}

/** Credits per pool that a reservation funds; units are whole, a unit may draw on both pools. */
export function fund(
  state: Pick<LedgerState, 'maps' | 'adhoc'>,
  units: number,
  unitCost: number,
  source: CreditSource,
): { fundedUnits: number; amount: number; fromMaps: number; fromAdhoc: number } {
  const available = source === 'auto' ? state.maps + state.adhoc : state.adhoc;
  const fundedUnits = Math.min(units, Math.floor(available / unitCost));
  const amount = fundedUnits * unitCost;
  const fromMaps = source === 'auto' ? Math.min(state.maps, amount) : 0;
  return { fundedUnits, amount, fromMaps, fromAdhoc: amount - fromMaps };
}

/**
 * The MAPs a team is entitled to hold this month with `allotment` in force and `used` MAPs used:
 * what it would have had if that allotment had applied since the month began, never below zero.
 * That is the allotment plus the MAPs granted this month (`CreditsGranted`, pool `map`), less the
 * MAPs used this month (consumed by settles or held by this month's open reservations).
 */
export function mapsEntitled(
  state: Pick<LedgerState, 'mapsGranted'>,
  allotment: number,
  used: number,
): number {
  return Math.max(0, allotment + state.mapsGranted - used);
}

/**
 * MAPs a team has this month once its allotment becomes `allotment` mid-month (`mapsEntitled` with
 * this month's usage). MAPs already spent are never handed back by a downgrade followed by an
 * upgrade: growth 500 with 465 used → starter 100 leaves 0 (−35) → growth 500 gives 35 (+35).
 */
export function mapsAfterAllotmentChange(
  state: Pick<LedgerState, 'mapsGranted' | 'mapsUsed'>,
  allotment: number,
): number {
  return mapsEntitled(state, allotment, state.mapsUsed);
}

function decideInMonth(
  command: Exclude<LedgerCommand, { type: 'ResetMaps' }>,
  state: LedgerState,
  month: string,
): LedgerEvent[] {
  switch (command.type) {
    case 'GrantCredits': {
      const { commandId, pool, amount, reason } = command.data;
      return [{ type: 'CreditsGranted', data: { commandId, month, pool, amount, reason } }];
    }
    case 'SetMapAllotment': {
      const { commandId, allotment } = command.data;
      const adjustment = mapsAfterAllotmentChange(state, allotment) - state.maps;
      return [
        {
          type: 'MapAllotmentSet',
          data: { commandId, month, allotment, previous: state.allotment, adjustment },
        },
      ];
    }
    case 'ReserveCredits': {
      const { commandId, reservationId, units, unitCost, source } = command.data;
      if (state.reservations.has(reservationId)) {
        throw new LedgerError('reservation_exists', `reservation ${reservationId} already exists`);
      }
      const funded = fund(state, units, unitCost, source);
      if (funded.fundedUnits === 0) {
        return [
          {
            type: 'CreditsReservationRejected',
            data: {
              commandId,
              month,
              reservationId,
              source,
              requestedUnits: units,
              unitCost,
              reason: 'insufficient_credits',
              available: { maps: state.maps, adhoc: state.adhoc },
            },
          },
        ];
      }
      return [
        {
          type: 'CreditsReserved',
          data: { commandId, month, reservationId, source, requestedUnits: units, unitCost, ...funded },
        },
      ];
    }
    case 'SettleCredits':
    case 'RefundCredits': {
      const { commandId, reservationId } = command.data;
      const reservation = state.reservations.get(reservationId);
      if (!reservation) throw new LedgerError('reservation_not_found', `no reservation ${reservationId}`);
      if (reservation.status === 'settled') {
        throw new LedgerError(
          'reservation_already_settled',
          `reservation ${reservationId} was already settled`,
        );
      }
      if (reservation.status === 'refunded') {
        throw new LedgerError(
          'reservation_already_refunded',
          `reservation ${reservationId} was already refunded`,
        );
      }
      let chargedMaps = 0;
      let chargedAdhoc = 0;
      if (command.type === 'SettleCredits') {
        const { consumed } = command.data;
        if (consumed > reservation.fundedUnits) {
          throw new LedgerError(
            'settle_exceeds_reservation',
            `cannot settle ${consumed} units of reservation ${reservationId}: only ${reservation.fundedUnits} were funded`,
          );
        }
        // Charge the expiring MAPs first, so what goes back is the Ad Hoc that does not expire.
        const charged = consumed * reservation.unitCost;
        chargedMaps = Math.min(reservation.fromMaps, charged);
        chargedAdhoc = charged - chargedMaps;
      }
      const backToMaps = reservation.fromMaps - chargedMaps;
      // MAPs reserved in a month that has ended cannot come back: they expire instead. MAPs of this
      // month come back up to what the allotment in force allows once they are no longer used; the
      // rest expires too. That only bites after a downgrade below the month's usage (the pool was
      // cut to 0 while these MAPs were held); otherwise the pool is exactly at its entitlement.
      const stale = reservation.month !== month;
      const returnedMaps = stale
        ? 0
        : Math.max(
            0,
            Math.min(
              backToMaps,
              mapsEntitled(state, state.allotment, state.mapsUsed - backToMaps) - state.maps,
            ),
          );
      const returned = { maps: returnedMaps, adhoc: reservation.fromAdhoc - chargedAdhoc };
      const expiredOnReturn = backToMaps - returnedMaps;
      if (command.type === 'SettleCredits') {
        return [
          {
            type: 'CreditsSettled',
            data: {
              commandId,
              month,
              reservationId,
              consumedUnits: command.data.consumed,
              charged: { maps: chargedMaps, adhoc: chargedAdhoc },
              returned,
              expiredOnReturn,
            },
          },
        ];
      }
      return [
        {
          type: 'CreditsRefunded',
          data: { commandId, month, reservationId, reason: command.data.reason, returned, expiredOnReturn },
        },
      ];
    }
    default: {
      const _never: never = command;
      return _never;
    }
  }
}

/**
 * Pure: the events a command adds to a team's ledger, or a LedgerError. A command id already in
 * the stream with the same content yields no events (the caller reads the first answer from the
 * state); with other content it is `idempotency_key_reused`, with another kind `command_id_conflict`.
 */
export function decideLedger(command: LedgerCommand, state: LedgerState): LedgerEvent[] {
  validate(command);
  if (command.type === 'ResetMaps') return rollover(state, effectiveMonth(state, command.data.at));
  const previous = state.answers.get(command.data.commandId);
  if (previous) {
    if (previous.kind !== KIND_OF[command.type]) {
      throw new LedgerError(
        'command_id_conflict',
        `command id ${command.data.commandId} was already used for a ${previous.kind}`,
      );
    }
    const fingerprint = commandFingerprint(command);
    if (previous.fingerprint === fingerprint) return [];
    throw new LedgerError(
      'idempotency_key_reused',
      `command id ${command.data.commandId} was already used for a ${previous.kind} with different content ` +
        `(first ${previous.fingerprint}, now ${fingerprint}); nothing was applied. A repeated id (Idempotency-Key) ` +
        `must repeat the same request; use a new one for a new request.`,
    );
  }
  const month = effectiveMonth(state, command.data.at);
  const reset = rollover(state, month);
  const current = reset.reduce(evolveLedger, state);
  return [...reset, ...decideInMonth(command, current, month)];
}

/** The answer recorded for a command id, once its events are folded in. */
export function answerOf(state: LedgerState, commandId: string): LedgerAnswer | undefined {
  return state.answers.get(commandId);
}

/** Folds one event into a team's ledger state. */
function resolve(
  state: LedgerState,
  reservationId: string,
  status: ReservationStatus,
): LedgerState['reservations'] {
  const reservation = state.reservations.get(reservationId);
  return reservation ? state.reservations.set(reservationId, { ...reservation, status }) : state.reservations;
}

/**
 * MAPs a settle or refund stops using this month: the MAPs it released (returned or expired on
 * return), when the reservation drew them this month. An earlier month's reservation never counted.
 */
function releasedThisMonth(state: LedgerState, reservationId: string, releasedMaps: number): number {
  const reservation = state.reservations.get(reservationId);
  return reservation !== undefined && reservation.month === state.month ? releasedMaps : 0;
}

/**
 * A settle or refund folded in (`next` holds its balance change): the reservation ends with
 * `status`, the MAPs it released stop counting as used this month, and the answer is recorded.
 */
function releaseReservation(
  state: LedgerState,
  next: LedgerState,
  release: Extract<LedgerEvent, { type: 'CreditsSettled' | 'CreditsRefunded' }>['data'],
  status: ReservationStatus,
  answer: LedgerAnswer,
): LedgerState {
  const { commandId, reservationId, returned, expiredOnReturn } = release;
  return {
    ...next,
    mapsUsed: state.mapsUsed - releasedThisMonth(state, reservationId, returned.maps + expiredOnReturn),
    reservations: resolve(state, reservationId, status),
    answers: state.answers.set(commandId, answer),
  };
}

export function evolveLedger(state: LedgerState, event: LedgerEvent): LedgerState {
  const change = balanceChange(event);
  const next: LedgerState = {
    ...state,
    maps: state.maps + change.maps,
    adhoc: state.adhoc + change.adhoc,
    reserved: state.reserved + change.reserved,
  };
  const fingerprint = eventFingerprint(event);
  switch (event.type) {
    case 'CreditsGranted':
      return {
        ...next,
        mapsGranted: event.data.pool === 'map' ? state.mapsGranted + event.data.amount : state.mapsGranted,
        answers: state.answers.set(event.data.commandId, {
          kind: 'grant',
          result: { pool: event.data.pool, amount: event.data.amount },
          fingerprint,
        }),
      };
    case 'MapsReset': {
      const { month, expired, granted } = event.data;
      return {
        ...next,
        month,
        mapsGranted: 0,
        mapsUsed: 0,
        answers: state.answers.set(event.data.commandId, {
          kind: 'reset',
          result: { month, expired, granted },
          fingerprint,
        }),
      };
    }
    case 'MapAllotmentSet': {
      const { allotment, adjustment } = event.data;
      return {
        ...next,
        month: state.month ?? event.data.month,
        allotment,
        answers: state.answers.set(event.data.commandId, {
          kind: 'allotment',
          result: { allotment, adjustment },
          fingerprint,
        }),
      };
    }
    case 'CreditsReserved': {
      const d = event.data;
      const result: ReserveResult = {
        reservationId: d.reservationId,
        fundedUnits: d.fundedUnits,
        amount: d.amount,
        fromMaps: d.fromMaps,
        fromAdhoc: d.fromAdhoc,
      };
      return {
        ...next,
        // The decider resets before reserving, so a reservation always draws on the stream's month.
        mapsUsed: d.month === next.month ? state.mapsUsed + d.fromMaps : state.mapsUsed,
        reservations: state.reservations.set(d.reservationId, { ...reservationTerms(d), status: 'open' }),
        answers: state.answers.set(d.commandId, { kind: 'reserve', result, fingerprint }),
      };
    }
    case 'CreditsReservationRejected': {
      const result: ReserveResult = {
        reservationId: event.data.reservationId,
        fundedUnits: 0,
        amount: 0,
        fromMaps: 0,
        fromAdhoc: 0,
      };
      return {
        ...next,
        answers: state.answers.set(event.data.commandId, { kind: 'reserve', result, fingerprint }),
      };
    }
    case 'CreditsSettled': {
      const { reservationId, consumedUnits, charged, returned, expiredOnReturn } = event.data;
      const result = { reservationId, consumedUnits, charged, returned, expiredOnReturn };
      return releaseReservation(state, next, event.data, 'settled', { kind: 'settle', result, fingerprint });
    }
    case 'CreditsRefunded': {
      const { reservationId, returned, expiredOnReturn } = event.data;
      const result = { reservationId, returned, expiredOnReturn };
      return releaseReservation(state, next, event.data, 'refunded', { kind: 'refund', result, fingerprint });
    }
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

/** The ledger aggregate (stream `ledger-<teamId>`) as a decider. */
export const ledgerDecider: Decider<LedgerCommand, LedgerEvent, LedgerState> = {
  initialState: initialLedgerState,
  decide: decideLedger,
  evolve: evolveLedger,
};
