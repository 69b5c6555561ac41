import { Injectable } from '@nestjs/common';
import {
  fingerprintClaimStream,
  idempotencyKeyClaimStream,
  requestClaimDecider,
  type ClaimRequest,
  type RequestClaimEvent,
  type RequestClaimState,
} from '@analyst/domain-content';
import { CommandHandler, CommandRunner } from '@analyst/platform';

/**
 * Names one request claim: by the body's fingerprint (an identical body within the retention
 * window) or by the client's Idempotency-Key. Both kinds share the request claim decider.
 */
export type RequestClaimKey =
  { teamId: string; fingerprint: string } | { teamId: string; idempotencyKey: string };

function requestClaimStream(key: RequestClaimKey): string {
  return 'fingerprint' in key
    ? fingerprintClaimStream(key.teamId, key.fingerprint)
    : idempotencyKeyClaimStream(key.teamId, key.idempotencyKey);
}

/** A request's claim streams bound to the request claim decider. */
@Injectable()
export class RequestClaimCommands extends CommandHandler<
  RequestClaimKey,
  ClaimRequest,
  RequestClaimEvent,
  RequestClaimState
> {
  constructor(runner: CommandRunner) {
    super(runner, { decider: requestClaimDecider, streamOf: requestClaimStream });
  }
}
