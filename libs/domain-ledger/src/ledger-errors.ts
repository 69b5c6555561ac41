import type { LedgerErrorCode } from '@analyst/contracts';

/** A rule of the ledger was broken. The code is stable; services map it to a status in one place. */
export class LedgerError extends Error {
  override readonly name = 'LedgerError';
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isLedgerError(error: unknown): error is LedgerError {
  return error instanceof LedgerError;
}
