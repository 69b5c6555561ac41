import type { Projector } from '@analyst/platform';
import {
  CONTENT_JOB_EVENT_TYPES,
  evolveContentJob,
  type ContentJob,
  type ContentJobEvent,
} from '@analyst/domain-content';
import { CONTENT_JOBS } from '../ingest.tokens';

/** A content job (`_id` = job id): the job decider's own state, folded by its own `evolve`. */
export type ContentJobDoc = ContentJob & { _id: string; [key: string]: unknown };

export const contentJobsProjector: Projector<ContentJobDoc, ContentJobEvent> = {
  name: 'ingest-content-jobs',
  collection: CONTENT_JOBS,
  eventTypes: CONTENT_JOB_EVENT_TYPES,
  // status + updatedAt: the resumer's sweep and the job gauges, without a collection scan.
  indexes: [
    { keys: { teamId: 1, createdAt: -1 } },
    { keys: { teamId: 1, fingerprint: 1 } },
    { keys: { status: 1, updatedAt: 1 } },
  ],
  documentIds: (event) => [event.streamId.slice('contentjob-'.length)],
  contiguousStreams: true, // a job's stream feeds only its document
  evolve(doc, event, id) {
    const { _id: _ignored, ...job } = doc ?? ({ status: 'absent' } as unknown as ContentJobDoc);
    const next = evolveContentJob(job as ContentJob, event) as ContentJob;
    return { ...next, _id: id };
  },
};
