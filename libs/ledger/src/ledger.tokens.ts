/** Read-model collections of the ledger. */
export const LEDGER_BALANCES = 'ledger_balances';
export const LEDGER_RESERVATIONS = 'ledger_reservations';
export const LEDGER_STATEMENT = 'ledger_statement';
/** Statement lines per stored document: keeps documents small and the line count per team unbounded. */
export const STATEMENT_CHUNK = 100;
