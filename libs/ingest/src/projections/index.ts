import type { Projector, ReadModelSet } from '@analyst/platform';
import { accountsProjector } from './accounts.projector';
import { activityProjector } from './activity.projector';
import { collectionsProjector } from './collections.projector';
import { contentJobsProjector } from './content-jobs.projector';
import { postsProjector } from './posts.projector';

export * from './post-doc';
export * from './comment-doc';
export * from './posts.projector';
export * from './collections.projector';
export * from './content-jobs.projector';
export * from './activity.projector';
export * from './accounts.projector';

export const ingestProjectors: Projector[] = [
  postsProjector,
  collectionsProjector,
  contentJobsProjector,
  activityProjector,
  accountsProjector,
];

/** The ingest service's read models in the shared read store (the read-model check's list). */
export const ingestReadModels: ReadModelSet = { service: 'ingest', projectors: ingestProjectors };
