import type { PlanId } from '@analyst/contracts';

/** Who asks for content: the API key (recorded on posts and in the activity feed) and the team it acts on. */
export interface Requester {
  keyId: string;
  keyName: string;
  teamId: string;
  plan: PlanId;
  correlationId: string;
  /** Demo seeding marks its posts `isDemo`. */
  isDemo?: boolean;
}
