/** Read model of the ledger's balances: one document per team, written by the ledger's projector. */
export const LEDGER_BALANCES = 'ledger_balances';

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
