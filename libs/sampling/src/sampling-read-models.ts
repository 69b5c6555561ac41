import { commentReadSideProjectors } from '@analyst/comment-index';
import type { ReadModelSet } from '@analyst/platform';

/**
 * Every read model the sampling service writes to the shared read store: the comment read models,
 * which its `CommentReadSide` registers with the service's projections.
 */
export const samplingReadModels: ReadModelSet = {
  service: 'sampling',
  projectors: commentReadSideProjectors,
};
