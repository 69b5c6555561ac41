import type { PlanId } from '@analyst/contracts';

/** Who asks for content: the API key (recorded on posts and in the activity feed) and the team it acts on. */
export interface Requester {
  keyId: string;
  keyName: string;
  teamId: string;
  correlationId: string;
  /** Demo seeding marks its posts `isDemo`. */
  isDemo?: boolean;
  /**
   * Not read: adding posts or an account does not depend on the plan (the gateway checked it).
   * Only so that callers that still set it compile; refresh takes a `RefreshRequester`.
   * @deprecated remove once discovery.manager stops setting it.
   */
  plan?: PlanId;
}

/** A refresh depends on the target team's plan (its cadence and whether refreshes may spend credits). */
export interface RefreshRequester extends Requester {
  plan: PlanId;
}
