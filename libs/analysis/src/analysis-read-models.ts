import { analysesProjector, savedAnalysesProjector } from '@analyst/analyses-read';
import { commentReadSideProjectors, postAnalysesStepDefinition } from '@analyst/comment-index';
import type { ReadModelSet } from '@analyst/platform';

/**
 * Every read model the analysis service writes to the shared read store: the analyses read models,
 * and the comment read models with the post analyses step, which its `CommentReadSide` registers.
 */
export const analysisReadModels: ReadModelSet = {
  service: 'analysis',
  projectors: [analysesProjector, savedAnalysesProjector, ...commentReadSideProjectors],
  steps: [postAnalysesStepDefinition],
};
