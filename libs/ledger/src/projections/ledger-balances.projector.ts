import {
  LEDGER_EVENT_TYPES,
  LEDGER_STREAM_PREFIX,
  teamIdOfLedgerStream,
  type LedgerEvent,
} from '@analyst/contracts';
import type { Projector, RecordedEvent } from '@analyst/platform';
import { LEDGER_BALANCES, foldLedgerBalances, type LedgerBalancesDoc } from '@analyst/ledger-read';

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
  evolve: foldLedgerBalances,
};
