/** Read-model collections of the ledger. */
export { LEDGER_BALANCES } from '@analyst/ledger-read';
export const LEDGER_RESERVATIONS = 'ledger_reservations';
export const LEDGER_STATEMENT = 'ledger_statement';
/** Statement lines per stored document: keeps documents small and the line count per team unbounded. */
export const STATEMENT_CHUNK = 100;
