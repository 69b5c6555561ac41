import type { ContentJob } from '@analyst/domain-content';

/** What an add route answers with: the job, and whether the request replayed an earlier one. */
export interface AddOutcome {
  job: ContentJob;
  replayed: boolean;
}
