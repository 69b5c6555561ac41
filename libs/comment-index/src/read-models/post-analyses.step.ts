import type { CommentsFetched, CommentsScored, PostScored } from '@analyst/contracts';
import {
  DuplicateKeyError,
  eventsOf,
  type Doc,
  type EventStore,
  type ProjectionStep,
  type ReadStore,
  type RecordedEvent,
} from '@analyst/platform';
import { FoldedTeams, foldIntoTeams } from '../team-index/folded-teams';
import { hasDailyMetrics, materializedOf, type MaterializedPost } from '../team-index/materialized-post';
import { CATALOG_TEAMS, settingsAt, type CatalogTeamDoc } from './catalog-teams.projector';

export const POST_ANALYSES = 'post_analyses';

/** A post version's analysis and metrics, computed once when it was scored (GET /posts/{id}/analysis, /metrics). */
export interface PostAnalysisDoc extends Doc {
  teamId: string;
  postId: string;
  dataVersion: number;
  materialized: MaterializedPost;
}

export const postAnalysisId = (postId: string, dataVersion: number): string => `${postId}:${dataVersion}`;

const isPostScored = eventsOf<PostScored>(['PostScored']);
const isCommentChunk = eventsOf<CommentsFetched | CommentsScored>(['CommentsFetched', 'CommentsScored']);

/**
 * On `PostScored`: folds the post's own stream (an indexed read on every event store) with the log
 * fold itself, under the team's settings at that position, and stores the post analysis it
 * materializes. The catalog then serves every post list and post analysis without a post's
 * comments in memory. Deterministic, so a replica or a retry writing it again writes the same
 * document: a duplicate key is success.
 */
export class PostAnalysesStep implements ProjectionStep {
  readonly name = 'post-analyses';
  readonly collection = POST_ANALYSES;
  readonly eventTypes = ['PostScored'];
  readonly indexes = [{ keys: { teamId: 1 as const, postId: 1 as const }, name: 'team_post' }];

  constructor(
    private readonly store: ReadStore,
    private readonly log: Pick<EventStore, 'readStream'>,
  ) {}

  async apply(event: RecordedEvent): Promise<void> {
    if (!isPostScored(event)) return;
    const { postId, dataVersion } = event.data;
    const materialized = await this.materialize(event, postId, dataVersion);
    if (!materialized) return;
    try {
      await this.store.collection<PostAnalysisDoc>(POST_ANALYSES).insertOne(
        {
          _id: postAnalysisId(postId, dataVersion),
          teamId: materialized.teamId,
          postId,
          dataVersion,
          materialized: materialized.value,
        },
        { idOnly: true },
      );
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }

  /** The post analysis the fold materializes at this event; null when the fold ignores it (a stale version). */
  private async materialize(
    scored: RecordedEvent,
    postId: string,
    dataVersion: number,
  ): Promise<{ teamId: string; value: MaterializedPost } | null> {
    const teams = new FoldedTeams();
    for (const event of await this.log.readStream(scored.streamId)) {
      if (event.revision > scored.revision) break;
      // Comments of other versions never reach this version's rows: skipping them saves the tokenizing.
      if (isCommentChunk(event) && event.data.dataVersion !== dataVersion) continue;
      if (event.revision === scored.revision) {
        const found = teams.postById(postId);
        if (!found) return null;
        const teamDoc = await this.store
          .collection<CatalogTeamDoc>(CATALOG_TEAMS)
          .findOne({ _id: found.team.teamId });
        found.team.settings = settingsAt(teamDoc?.settings ?? [], scored.position);
      }
      foldIntoTeams(teams, event);
    }
    const found = teams.postById(postId);
    const value = found ? materializedOf(found.post) : null;
    // The fold computes the analysis itself, daily metrics included.
    return found && value && hasDailyMetrics(value) && value.dataVersion === dataVersion
      ? { teamId: found.team.teamId, value }
      : null;
  }
}
