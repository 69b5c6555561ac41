import type { PlanId } from '@analyst/contracts';

/**
 * Who asks for content: the API key (recorded on posts and in the activity feed) and the team it acts on.
 * No plan: adding posts or an account does not depend on it (the gateway checked it); refresh does,
 * and takes a `RefreshRequester`.
 */
export interface Requester {
  keyId: string;
  keyName: string;
  teamId: string;
  correlationId: string;
  /** Demo seeding marks its posts `isDemo`. */
  isDemo?: boolean;
}

/** A refresh depends on the target team's plan (its cadence and whether refreshes may spend credits). */
export interface RefreshRequester extends Requester {
  plan: PlanId;
}

/** The requester of work a job goes on with (discovery, a resumed request): the key that asked for the job. */
export function jobRequester(
  job: { addedBy: { id: string; name: string }; teamId: string },
  correlationId: string,
): Requester {
  return { keyId: job.addedBy.id, keyName: job.addedBy.name, teamId: job.teamId, correlationId };
}

/** The context of the commands a requester's request appends. */
export function requesterContext(requester: Requester): { correlationId: string; teamId: string } {
  return { correlationId: requester.correlationId, teamId: requester.teamId };
}
