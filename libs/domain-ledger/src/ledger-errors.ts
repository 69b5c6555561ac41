import { CodedError, type LedgerErrorCode } from '@analyst/contracts';

/**
 * The codes a ledger rule break carries: the shared `LEDGER_ERROR_CODES` of `@analyst/contracts`,
 * which include `idempotency_key_reused` (a command id sent again with different content).
 */
export type LedgerRuleCode = LedgerErrorCode;

/** A rule of the ledger was broken. The code is stable; services map it to a status in one place. */
export class LedgerError extends CodedError<LedgerRuleCode> {}

export function isLedgerError(error: unknown): error is LedgerError {
  return error instanceof LedgerError;
}
