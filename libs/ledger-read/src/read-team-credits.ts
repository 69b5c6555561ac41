import type { CreditBalances } from '@analyst/contracts';
import { balancesAt } from '@analyst/domain-ledger';
import type { ReadStore } from '@analyst/eventsourcing';
import { LEDGER_BALANCES, type LedgerBalancesDoc } from './ledger-balances';

const NONE: CreditBalances = { maps: 0, adhoc: 0, reserved: 0 };

/**
 * The team's balances as the read model stores them (the figures after its last ledger event),
 * zeros for a team with no ledger yet. This is what the audit compares a replay with; anything that
 * shows or spends a balance wants `readTeamCreditsAt`, which also knows the month has turned.
 */
export async function readTeamCredits(store: ReadStore, teamId: string): Promise<CreditBalances> {
  const doc = await store.collection<LedgerBalancesDoc>(LEDGER_BALANCES).findOne({ _id: teamId });
  return doc ? { maps: doc.maps, adhoc: doc.adhoc, reserved: doc.reserved } : { ...NONE };
}

/**
 * `credits` of `GET /team` and the fund pre-check: the team's balances at `at`. When the month has
 * turned since the stored figures, the pending MAP reset is applied (`balancesAt`): MAPs are the
 * month's allotment, Ad Hoc and reserved unchanged, exactly what the reset the next command or the
 * scheduler writes will leave. Zeros for a team with no ledger yet.
 */
export async function readTeamCreditsAt(
  store: ReadStore,
  teamId: string,
  at: Date | string,
): Promise<CreditBalances> {
  const doc = await store.collection<LedgerBalancesDoc>(LEDGER_BALANCES).findOne({ _id: teamId });
  return teamCreditsAt(doc, at);
}

/** `readTeamCreditsAt` over a balances document already read (null: no ledger yet). */
export function teamCreditsAt(doc: LedgerBalancesDoc | null, at: Date | string): CreditBalances {
  return doc ? balancesAt(doc, at) : { ...NONE };
}
