import type { Command, Decider } from '@analyst/eventsourcing';
import { createHash } from 'node:crypto';
import { ContentError } from './content-errors';

/**
 * One job per request, decided by the event store. A content request is claimed twice over: by its
 * fingerprint (the spec's replay check: same team and same normalized body) and, when the client
 * sends one, by its `Idempotency-Key`. Each claim is a stream appended with the revision its
 * claimer read, so a retry on any replica finds the first job. A claim lapses with the job's
 * retention (30 days): after that an identical request opens a new job.
 */
export interface ContentRequestClaimed {
  type: 'ContentRequestClaimed';
  data: {
    teamId: string;
    jobId: string;
    fingerprint: string;
    idempotencyKey: string | null;
    expiresAt: string;
    at: string;
  };
}
export type RequestClaimEvent = ContentRequestClaimed;

export type RequestClaimState =
  { status: 'free' } | { status: 'claimed'; jobId: string; fingerprint: string; expiresAt: string };

/** A claim carries exactly what its event records. */
export type ClaimRequest = Command<'ClaimRequest', ContentRequestClaimed['data']>;

function hash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 40);
}

export function fingerprintClaimStream(teamId: string, fingerprint: string): string {
  return `contentrequest-${teamId}-f${hash(fingerprint)}`;
}

export function idempotencyKeyClaimStream(teamId: string, idempotencyKey: string): string {
  return `contentrequest-${teamId}-k${hash(idempotencyKey)}`;
}

/** True when the stream holds a claim that has not lapsed at `now`. */
export function liveClaim(
  state: RequestClaimState,
  now: string,
): state is Extract<RequestClaimState, { status: 'claimed' }> {
  return state.status === 'claimed' && state.expiresAt > now;
}

export function decideRequestClaim(command: ClaimRequest, state: RequestClaimState): RequestClaimEvent[] {
  if (liveClaim(state, command.data.at)) {
    // An Idempotency-Key names one request: the same key with another body is refused, not replayed.
    if (command.data.idempotencyKey !== null && state.fingerprint !== command.data.fingerprint) {
      throw new ContentError(
        'idempotency_key_reused',
        `Idempotency-Key "${command.data.idempotencyKey}" was already used for a different request (job ${state.jobId})`,
      );
    }
    return [];
  }
  const { teamId, jobId, fingerprint, idempotencyKey, expiresAt, at } = command.data;
  return [
    { type: 'ContentRequestClaimed', data: { teamId, jobId, fingerprint, idempotencyKey, expiresAt, at } },
  ];
}

export function evolveRequestClaim(_state: RequestClaimState, event: RequestClaimEvent): RequestClaimState {
  return {
    status: 'claimed',
    jobId: event.data.jobId,
    fingerprint: event.data.fingerprint,
    expiresAt: event.data.expiresAt,
  };
}

export const requestClaimDecider: Decider<ClaimRequest, RequestClaimEvent, RequestClaimState> = {
  initialState: (): RequestClaimState => ({ status: 'free' }),
  decide: decideRequestClaim,
  evolve: evolveRequestClaim,
};
