import type { Projector, StepDefinition } from '@analyst/platform';
import { catalogPostsProjector } from './catalog-posts.projector';
import { catalogTeamsProjector } from './catalog-teams.projector';
import { commentChunksProjector, commentScoresProjector } from './comment-chunks.projector';
import { POST_ANALYSES, PostAnalysesStep } from './post-analyses.step';

/** The comment read models analysis and sampling both project (CommentReadSide registers these). */
export const commentReadSideProjectors: readonly Projector[] = [
  catalogTeamsProjector,
  catalogPostsProjector,
  commentChunksProjector,
  commentScoresProjector,
];

/** Post analyses materialized on `PostScored`: analysis runs this step, sampling does not. */
export const postAnalysesStepDefinition: StepDefinition = {
  collection: POST_ANALYSES,
  eventTypes: ['PostScored'],
  create: (store, log) => new PostAnalysesStep(store, log),
};
