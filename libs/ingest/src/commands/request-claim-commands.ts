import { Inject, Injectable } from '@nestjs/common';
import {
  decideRequestClaim,
  fingerprintClaimStream,
  idempotencyKeyClaimStream,
  liveClaim,
  requestClaimDecider,
  type ClaimRequest,
  type RequestClaimEvent,
  type RequestClaimState,
} from '@analyst/domain-content';
import { CLOCK, CommandHandler, CommandRunner, type Clock, type CommandContext } from '@analyst/platform';

/**
 * Names one request claim: by the body's fingerprint (an identical body within the retention
 * window) or by the client's Idempotency-Key. Both kinds share the request claim decider.
 */
export type RequestClaimKey =
  { teamId: string; fingerprint: string } | { teamId: string; idempotencyKey: string };

/** What a content request is claimed by: its team, its body's fingerprint and its Idempotency-Key, if any. */
export interface RequestIdentity {
  teamId: string;
  fingerprint: string;
  idempotencyKey: string | null;
}

function requestClaimStream(key: RequestClaimKey): string {
  return 'fingerprint' in key
    ? fingerprintClaimStream(key.teamId, key.fingerprint)
    : idempotencyKeyClaimStream(key.teamId, key.idempotencyKey);
}

/**
 * A request's claim streams bound to the request claim decider: one job per request across
 * replicas, decided by the claim streams in the event store, never by the jobs read model (it lags
 * the log). The add routes' replay check reads them (`find`); their claim appends to them (`claim`).
 */
@Injectable()
export class RequestClaimCommands extends CommandHandler<
  RequestClaimKey,
  ClaimRequest,
  RequestClaimEvent,
  RequestClaimState
> {
  constructor(
    runner: CommandRunner,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super(runner, { decider: requestClaimDecider, streamOf: requestClaimStream });
  }

  /**
   * The replay check: the job a request already belongs to, read without writing: a live claim by
   * its body (the spec's replay check) or by its `Idempotency-Key`. Null for a new request. A
   * reused key with another body is refused here (409), before anything is written.
   */
  async find(identity: RequestIdentity): Promise<string | null> {
    const { teamId, fingerprint, idempotencyKey } = identity;
    const at = this.clock.now().toISOString();
    if (idempotencyKey !== null) {
      const { state } = await this.state({ teamId, idempotencyKey });
      decideRequestClaim(
        { type: 'ClaimRequest', data: { teamId, jobId: '', fingerprint, idempotencyKey, expiresAt: at, at } },
        state,
      );
      if (liveClaim(state, at)) return state.jobId;
    }
    const { state } = await this.state({ teamId, fingerprint });
    return liveClaim(state, at) ? state.jobId : null;
  }

  /**
   * Claims the request for `candidateJobId` and returns the id of the job that owns it: the
   * candidate when this request is the first, otherwise the first request's job (which may not be
   * open yet if its request stopped right after claiming; the caller then opens it under that id).
   */
  async claim(
    identity: RequestIdentity,
    candidateJobId: string,
    expiresAt: string,
    ctx: CommandContext,
  ): Promise<string> {
    const { teamId, fingerprint, idempotencyKey } = identity;
    const at = this.clock.now().toISOString();
    const command = (jobId: string, key: string | null): ClaimRequest => ({
      type: 'ClaimRequest',
      data: { teamId, jobId, fingerprint, idempotencyKey: key, expiresAt, at },
    });
    const byBody = await this.handle({ teamId, fingerprint }, command(candidateJobId, null), ctx);
    const jobId = holder(byBody.state);
    if (idempotencyKey === null) return jobId;
    const byKey = await this.handle({ teamId, idempotencyKey }, command(jobId, idempotencyKey), ctx);
    return holder(byKey.state);
  }
}

function holder(state: RequestClaimState): string {
  if (state.status !== 'claimed') throw new Error('a request claim was decided but the stream holds none');
  return state.jobId;
}
