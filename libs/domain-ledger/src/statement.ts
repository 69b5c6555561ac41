import {
  teamIdOfLedgerStream,
  type CreditBalances,
  type LedgerEvent,
  type StatementLine,
} from '@analyst/contracts';
import { deciderEvent } from '@analyst/eventsourcing';
import { applyChange, balanceChange } from './ledger-state';
import type { LedgerRecord } from './ledger-record';

function noteOf(event: LedgerEvent): string {
  switch (event.type) {
    case 'CreditsGranted':
      return `granted ${event.data.amount} ${event.data.pool === 'map' ? 'MAP' : 'Ad Hoc'} credits: ${event.data.reason}`;
    case 'MapsReset':
      return `MAPs for ${event.data.month}: ${event.data.expired} expired, ${event.data.granted} granted`;
    case 'MapAllotmentSet':
      return `monthly MAP allotment ${event.data.previous} -> ${event.data.allotment} (${event.data.adjustment >= 0 ? '+' : ''}${event.data.adjustment} this month)`;
    case 'CreditsReserved':
      return `reserved ${event.data.fundedUnits} of ${event.data.requestedUnits} units at ${event.data.unitCost} (${event.data.source})`;
    case 'CreditsReservationRejected':
      return `rejected ${event.data.requestedUnits} units at ${event.data.unitCost} (${event.data.source}): ${event.data.reason}`;
    case 'CreditsSettled':
      return `settled ${event.data.consumedUnits} units${event.data.expiredOnReturn > 0 ? `; ${event.data.expiredOnReturn} MAPs expired on return` : ''}`;
    case 'CreditsRefunded':
      return `refunded: ${event.data.reason}${event.data.expiredOnReturn > 0 ? `; ${event.data.expiredOnReturn} MAPs expired on return` : ''}`;
    default: {
      const _never: never = event;
      return _never;
    }
  }
}

/** One statement line: the event, its change to each figure, and the figures after it. */
export function statementLine(record: LedgerRecord, before: CreditBalances): StatementLine {
  const event = deciderEvent<LedgerEvent>(record);
  const change = balanceChange(event);
  const data: { commandId: string; month: string; reservationId?: string } = event.data;
  return {
    teamId: teamIdOfLedgerStream(record.streamId),
    revision: record.revision,
    position: record.position,
    eventId: record.id,
    occurredAt: record.metadata.occurredAt,
    type: event.type,
    commandId: data.commandId,
    reservationId: data.reservationId ?? null,
    month: data.month,
    change,
    balances: applyChange(before, change),
    note: noteOf(event),
  };
}
