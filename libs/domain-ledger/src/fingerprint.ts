import type {
  GrantCreditsCommand,
  LedgerEvent,
  RefundCreditsCommand,
  ReserveCreditsCommand,
  SettleCreditsCommand,
} from '@analyst/contracts';
import type { LedgerCommand } from './ledger-command.types';

/**
 * Each command kind's fingerprint, one format for both sides: from the command, and from the event
 * it wrote (whose fields may be named otherwise). The key order is the canonical one.
 */
const FINGERPRINT = {
  grant: ({ pool, amount, reason }: Omit<GrantCreditsCommand, 'commandId'>) =>
    JSON.stringify({ pool, amount, reason }),
  reserve: ({ reservationId, units, unitCost, source }: Omit<ReserveCreditsCommand, 'commandId'>) =>
    JSON.stringify({ reservationId, units, unitCost, source }),
  settle: ({ reservationId, consumed }: Omit<SettleCreditsCommand, 'commandId'>) =>
    JSON.stringify({ reservationId, consumed }),
  refund: ({ reservationId, reason }: Omit<RefundCreditsCommand, 'commandId'>) =>
    JSON.stringify({ reservationId, reason }),
  allotment: ({ allotment }: { allotment: number }) => JSON.stringify({ allotment }),
};

/**
 * The content of a command that its id stands for, as canonical JSON (fixed key order, `at` left
 * out): a repeated command id is only a retry when this matches what the first command said.
 * `eventFingerprint` derives the same string from the event the first command wrote, so the check
 * needs nothing beyond the stream and works for events written before it existed.
 */
export function commandFingerprint(command: Exclude<LedgerCommand, { type: 'ResetMaps' }>): string {
  switch (command.type) {
    case 'GrantCredits':
      return FINGERPRINT.grant(command.data);
    case 'ReserveCredits':
      return FINGERPRINT.reserve(command.data);
    case 'SettleCredits':
      return FINGERPRINT.settle(command.data);
    case 'RefundCredits':
      return FINGERPRINT.refund(command.data);
    case 'SetMapAllotment':
      return FINGERPRINT.allotment(command.data);
    default: {
      const _never: never = command;
      return _never;
    }
  }
}

/** The fingerprint of the command that wrote `event` (see `commandFingerprint`). */
export function eventFingerprint(event: LedgerEvent): string {
  switch (event.type) {
    case 'CreditsGranted':
      return FINGERPRINT.grant(event.data);
    case 'CreditsReserved':
    case 'CreditsReservationRejected':
      return FINGERPRINT.reserve({ ...event.data, units: event.data.requestedUnits });
    case 'CreditsSettled':
      return FINGERPRINT.settle({ ...event.data, consumed: event.data.consumedUnits });
    case 'CreditsRefunded':
      return FINGERPRINT.refund(event.data);
    case 'MapAllotmentSet':
      return FINGERPRINT.allotment(event.data);
    case 'MapsReset':
      return JSON.stringify({ month: event.data.month });
    default: {
      const _never: never = event;
      return _never;
    }
  }
}
