import type { CreditBalances } from '@analyst/contracts';
import { readTeamCredits } from '@analyst/ledger';
import type { ReadStore } from '@analyst/platform';

/** `credits` of `GET /team`, from the ledger's balances read model (zeros before the ledger has seen the team). */
export function readCredits(store: ReadStore, teamId: string): Promise<CreditBalances> {
  return readTeamCredits(store, teamId);
}
