import { Inject, Injectable } from '@nestjs/common';
import { decideRequestClaim, liveClaim, type RequestClaimState } from '@analyst/domain-content';
import { CLOCK, type Clock } from '@analyst/platform';
import { RequestClaimCommands } from '../commands/request-claim-commands';

export interface RequestIdentity {
  teamId: string;
  fingerprint: string;
  idempotencyKey: string | null;
}

/**
 * Step 4 of the add path across replicas: which job a request belongs to, decided by claim streams
 * in the event store (see request-claim.decider.ts), never by the jobs read model, which lags the log.
 */
@Injectable()
export class RequestClaims {
  constructor(
    private readonly claims: RequestClaimCommands,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The job a request already belongs to, read without writing: a live claim by its body (the
   * spec's replay check) or by its `Idempotency-Key`. Null for a new request. A reused key with
   * another body is refused here, before anything is written.
   */
  async find(identity: RequestIdentity): Promise<string | null> {
    const { teamId, fingerprint, idempotencyKey } = identity;
    const at = this.clock.now().toISOString();
    if (idempotencyKey !== null) {
      const { state } = await this.claims.state({ teamId, idempotencyKey });
      decideRequestClaim(
        { type: 'ClaimRequest', data: { teamId, jobId: '', fingerprint, idempotencyKey, expiresAt: at, at } },
        state,
      );
      if (liveClaim(state, at)) return state.jobId;
    }
    const { state } = await this.claims.state({ teamId, fingerprint });
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
    ctx: { correlationId: string; teamId: string },
  ): Promise<string> {
    const { teamId, fingerprint, idempotencyKey } = identity;
    const at = this.clock.now().toISOString();
    const command = (jobId: string, key: string | null) => ({
      type: 'ClaimRequest' as const,
      data: { teamId, jobId, fingerprint, idempotencyKey: key, expiresAt, at },
    });
    const byBody = await this.claims.handle({ teamId, fingerprint }, command(candidateJobId, null), ctx);
    const jobId = holder(byBody.state);
    if (idempotencyKey === null) return jobId;
    const byKey = await this.claims.handle({ teamId, idempotencyKey }, command(jobId, idempotencyKey), ctx);
    return holder(byKey.state);
  }
}

function holder(state: RequestClaimState): string {
  if (state.status !== 'claimed') throw new Error('a request claim was decided but the stream holds none');
  return state.jobId;
}
