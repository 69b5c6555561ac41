import type { LedgerEvent } from '@analyst/contracts';
import type { LedgerCommand } from './ledger-commands';

/**
 * The content of a command that its id stands for, as canonical JSON (fixed key order, `at` left
 * out): a repeated command id is only a retry when this matches what the first command said.
 * `eventFingerprint` derives the same string from the event the first command wrote, so the check
 * needs nothing beyond the stream and works for events written before it existed.
 */
export function commandFingerprint(command: Exclude<LedgerCommand, { type: 'ResetMaps' }>): string {
  switch (command.type) {
    case 'GrantCredits': {
      const { pool, amount, reason } = command.data;
      return JSON.stringify({ pool, amount, reason });
    }
    case 'ReserveCredits': {
      const { reservationId, units, unitCost, source } = command.data;
      return JSON.stringify({ reservationId, units, unitCost, source });
    }
    case 'SettleCredits': {
      const { reservationId, consumed } = command.data;
      return JSON.stringify({ reservationId, consumed });
    }
    case 'RefundCredits': {
      const { reservationId, reason } = command.data;
      return JSON.stringify({ reservationId, reason });
    }
    case 'SetMapAllotment':
      return JSON.stringify({ allotment: command.data.allotment });
    default: {
      const _never: never = command;
      return _never;
    }
  }
}

/** The fingerprint of the command that wrote `event` (see `commandFingerprint`). */
export function eventFingerprint(event: LedgerEvent): string {
  switch (event.type) {
    case 'CreditsGranted': {
      const { pool, amount, reason } = event.data;
      return JSON.stringify({ pool, amount, reason });
    }
    case 'CreditsReserved':
    case 'CreditsReservationRejected': {
      const { reservationId, requestedUnits: units, unitCost, source } = event.data;
      return JSON.stringify({ reservationId, units, unitCost, source });
    }
    case 'CreditsSettled': {
      const { reservationId, consumedUnits: consumed } = event.data;
      return JSON.stringify({ reservationId, consumed });
    }
    case 'CreditsRefunded': {
      const { reservationId, reason } = event.data;
      return JSON.stringify({ reservationId, reason });
    }
    case 'MapAllotmentSet':
      return JSON.stringify({ allotment: event.data.allotment });
    case 'MapsReset':
      return JSON.stringify({ month: event.data.month });
    default: {
      const _never: never = event;
      return _never;
    }
  }
}
