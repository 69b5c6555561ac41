import type { LedgerBusRequest } from '@analyst/contracts';
import {
  checkGrantCredits,
  checkRefundCredits,
  checkReserveCredits,
  checkSettleCredits,
  LedgerError,
  requireId,
} from '@analyst/domain-ledger';

/** Any object read from the wire: its fields are unknown until a check reads them. */
function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/**
 * A bus message's type and payload, as it came off the wire (untrusted JSON), checked into the
 * request it is: the type one of the four, the payload's `teamId` a non-empty string, then the
 * command's fields with the decider's own checks. A malformed message throws `invalid_command`
 * naming what is wrong, in this order; a payload that is not an object has no `teamId`.
 */
export function parseLedgerBusRequest(type: string, payload: unknown): LedgerBusRequest {
  const fields = isObject(payload) ? payload : {};
  const teamIdOf = (): string => requireId(fields.teamId, 'teamId');
  switch (type) {
    case 'ReserveCredits':
      return { type, payload: { teamId: teamIdOf(), ...checkReserveCredits(fields) } };
    case 'SettleCredits':
      return { type, payload: { teamId: teamIdOf(), ...checkSettleCredits(fields) } };
    case 'RefundCredits':
      return { type, payload: { teamId: teamIdOf(), ...checkRefundCredits(fields) } };
    case 'GrantCredits':
      return { type, payload: { teamId: teamIdOf(), ...checkGrantCredits(fields) } };
    default:
      throw new LedgerError('invalid_command', `unknown ledger command type ${type}`);
  }
}
