import type { LedgerEvent } from '@analyst/contracts';
import { balanceChange } from '@analyst/domain-ledger';
import type { RecordedEvent } from '@analyst/eventsourcing';
import type { LedgerBalancesDoc } from './ledger-balances';

/**
 * The balances document after one event of the team's ledger stream: the ledger's projector folds
 * the log with it, and the gateway folds the stream with it to answer `GET /team` from the log.
 */
export function foldLedgerBalances(
  doc: LedgerBalancesDoc | null,
  event: RecordedEvent & LedgerEvent,
  teamId: string,
): LedgerBalancesDoc {
  const change = balanceChange(event);
  const current = doc ?? {
    _id: teamId,
    teamId,
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
}
