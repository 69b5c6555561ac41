import type { LedgerErrorReply } from '@analyst/contracts';
import { domainErrorMapping } from '@analyst/platform';
import { LedgerError, type LedgerRuleCode } from '@analyst/domain-ledger';

/** The one place a ledger rule break becomes an HTTP status. */
const STATUS: Record<LedgerRuleCode, number> = {
  invalid_command: 400,
  reservation_not_found: 404,
  reservation_exists: 409,
  reservation_already_settled: 409,
  reservation_already_refunded: 409,
  settle_exceeds_reservation: 409,
  command_id_conflict: 409,
  idempotency_key_reused: 409,
};

export const toApiError = domainErrorMapping(LedgerError, STATUS);

export function toErrorReply(error: LedgerError): LedgerErrorReply {
  return { error: { code: error.code, message: error.message } };
}
