import type { CreditBalances } from '@analyst/contracts';
import { monthOf } from './month';

/**
 * What a stored balance carries (the `ledger_balances` read model, or a folded `LedgerState`):
 * the figures, the MAP month they belong to and the allotment in force.
 */
export interface StoredBalances extends CreditBalances {
  /** MAP month the figures belong to; null (or absent) before the ledger has any event. */
  month: string | null | undefined;
  allotment: number;
}

/**
 * Pure: the balances a team has at `at`. When `at` falls in a later UTC month than the stored
 * figures, the reset the decider would write first is applied here too: last month's MAPs expire
 * and the month's allotment is granted (`maps = allotment`), Ad Hoc is unchanged, and credits held
 * by open reservations stay held (their MAP part expires when they resolve, as `expiredOnReturn`).
 * Within the stored month (or for an instant before it, as the decider never resets backwards)
 * the stored figures are the answer.
 *
 * Readers (the fund pre-check, `GET /team`) use this so they never see last month's MAPs between
 * the turn of the month and the team's first ledger command or the scheduler's reset.
 */
export function balancesAt(stored: StoredBalances, at: string | Date): CreditBalances {
  const figures = { maps: stored.maps, adhoc: stored.adhoc, reserved: stored.reserved };
  if (!stored.month || monthOf(at) <= stored.month) return figures;
  return { ...figures, maps: stored.allotment };
}
