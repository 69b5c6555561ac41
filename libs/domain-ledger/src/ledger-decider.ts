import type { LedgerEvent } from '@analyst/contracts';
import type { Decider } from '@analyst/eventsourcing';
import { decide } from './decide';
import type { LedgerCommand } from './ledger-commands';
import { evolve, initialLedgerState, type LedgerState } from './ledger-state';

/** The ledger aggregate (stream `ledger-<teamId>`) as a decider. */
export const ledgerDecider: Decider<LedgerCommand, LedgerEvent, LedgerState> = {
  initialState: initialLedgerState,
  decide,
  evolve,
};
