import {
  LEDGER_EVENT_TYPES,
  LEDGER_STREAM_PREFIX,
  teamIdOfLedgerStream,
  type LedgerEvent,
} from '@analyst/contracts';
import { balanceChange } from '@analyst/domain-ledger';
import type { Projector, RecordedEvent } from '@analyst/platform';
import { LEDGER_BALANCES, type LedgerBalancesDoc } from '@analyst/ledger-read';

/** The document shape is the read API's (`@analyst/ledger-read`), which gateway and ingest read. */
export type { LedgerBalancesDoc };

export function ledgerTeamIds(event: RecordedEvent): string[] {
  return event.streamId.startsWith(LEDGER_STREAM_PREFIX) ? [teamIdOfLedgerStream(event.streamId)] : [];
}

export const ledgerBalancesProjector: Projector<LedgerBalancesDoc, LedgerEvent> = {
  name: 'ledger-balances',
  collection: LEDGER_BALANCES,
  eventTypes: LEDGER_EVENT_TYPES,
  documentIds: ledgerTeamIds,
  contiguousStreams: true, // every event of a team's ledger stream changes its balances
  evolve(doc, event, id) {
    const change = balanceChange(event);
    const current = doc ?? {
      _id: id,
      teamId: id,
      maps: 0,
      adhoc: 0,
      reserved: 0,
      month: event.data.month,
      allotment: 0,
      updatedAt: '',
    };
    return {
      ...current,
      maps: current.maps + change.maps,
      adhoc: current.adhoc + change.adhoc,
      reserved: current.reserved + change.reserved,
      month: event.type === 'MapsReset' ? event.data.month : current.month,
      allotment: event.type === 'MapAllotmentSet' ? event.data.allotment : current.allotment,
      updatedAt: event.metadata.occurredAt,
    };
  },
};
