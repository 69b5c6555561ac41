import type { LedgerEvent } from '@analyst/contracts';
import { decide } from './decide';
import type { LedgerCommand } from './ledger-commands';
import { evolve, initialLedgerState, type LedgerState } from './ledger-state';

/** The ledger aggregate (stream `ledger-<teamId>`) as a decider. */
export const ledgerDecider = {
  initialState: initialLedgerState,
  decide,
  evolve,
} satisfies {
  initialState: () => LedgerState;
  decide: (c: LedgerCommand, s: LedgerState) => LedgerEvent[];
  evolve: (s: LedgerState, e: LedgerEvent) => LedgerState;
};
