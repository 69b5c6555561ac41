import {
  LEDGER_EVENT_TYPES,
  LEDGER_STREAM_PREFIX,
  teamIdOfLedgerStream,
  type LedgerEvent,
} from '@analyst/contracts';
import { balanceChange } from '@analyst/domain-ledger';
import type { Projector, RecordedEvent } from '@analyst/platform';
import { LEDGER_BALANCES } from '../ledger.tokens';

/** Balance per pool for one team: what `GET /team` shows as `credits`. */
export type LedgerBalancesDoc = {
  _id: string;
  teamId: string;
  maps: number;
  adhoc: number;
  reserved: number;
  /** MAP month the balances belong to. */
  month: string;
  allotment: number;
  updatedAt: string;
};

export function ledgerTeamIds(event: RecordedEvent): string[] {
  return event.streamId.startsWith(LEDGER_STREAM_PREFIX) ? [teamIdOfLedgerStream(event.streamId)] : [];
}

export const ledgerBalancesProjector: Projector<LedgerBalancesDoc> = {
  name: 'ledger-balances',
  collection: LEDGER_BALANCES,
  eventTypes: LEDGER_EVENT_TYPES,
  documentIds: ledgerTeamIds,
  evolve(doc, recorded, id) {
    const event = { type: recorded.type, data: recorded.data } as LedgerEvent;
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
      updatedAt: recorded.metadata.occurredAt,
    };
  },
};
