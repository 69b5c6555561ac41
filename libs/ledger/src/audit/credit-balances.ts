import type { CreditBalances } from '@analyst/contracts';

/** Whether two sets of balances agree on every figure. */
export function sameBalances(a: CreditBalances, b: CreditBalances): boolean {
  return a.maps === b.maps && a.adhoc === b.adhoc && a.reserved === b.reserved;
}

/** Balances as the audit's messages write them: `maps 3 / adhoc 0 / reserved 1`. */
export function formatBalances(b: CreditBalances): string {
  return `maps ${b.maps} / adhoc ${b.adhoc} / reserved ${b.reserved}`;
}
