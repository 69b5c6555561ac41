import {
  ANALYSIS_INCLUDES,
  postDetailsOf,
  type TeamAnalysisSettingsChanged,
  type TeamCreated,
  type CollectionCreated,
  type PostEvent,
} from '@analyst/contracts';
import {
  dailyMetrics,
  NO_COMMENT_FILTER,
  rollup,
  type DailyMetric,
  type Mix,
  type RollupScores,
} from '@analyst/domain-analysis';
import { eventsOf, type RecordedEvent } from '@analyst/platform';
import { computeAnalysis, type AnalysisResult } from './compute-analysis';
import { collectionEntryOf, createdPostFields } from './catalog-entries';
import type { CommentIndex, PostEntry, TeamIndex } from './comment-index';

/** What the post routes serve once a version is scored: computed then, never again. */
export interface MaterializedPost {
  dataVersion: number;
  scoredAt: string;
  analysis: Pick<AnalysisResult, 'content' | 'commentAnalysis'>;
  metrics: {
    daily: DailyMetric[];
    totals: { comments: number; scores: RollupScores; mix: Partial<Record<string, Mix>> };
  };
}

/**
 * A post analysis as a replica holds it. Its daily metrics are most of its bytes (a day per day of
 * comments) and only GET /posts/{id}/metrics reads them, so a catalog leaves them in the read store:
 * `null` until that route reads them.
 */
export type HeldPostAnalysis = Omit<MaterializedPost, 'metrics'> & {
  metrics: { daily: DailyMetric[] | null; totals: MaterializedPost['metrics']['totals'] };
};

/** Whether the held analysis carries its daily metrics (computed here, or read already). */
export const hasDailyMetrics = (held: HeldPostAnalysis): held is MaterializedPost =>
  held.metrics.daily !== null;

/** The event types the index folds (ingest's post and collection streams, the gateway's team stream). */
export const INDEX_EVENT_TYPES = [
  'TeamCreated',
  'TeamAnalysisSettingsChanged',
  'CollectionCreated',
  'PostCreated',
  'PostTagged',
  'PostRefreshRequested',
  'PostFetched',
  'CommentsFetched',
  'CommentsScored',
  'PostScored',
  'PostFetchFailed',
  'PostHoldResumed',
  'PostCancelled',
] as const;

const materialized = new WeakMap<PostEntry, HeldPostAnalysis>();

export function materializedOf(post: PostEntry): HeldPostAnalysis | null {
  return materialized.get(post) ?? null;
}

/** Attaches a post analysis computed elsewhere (the read store's, or null to drop a stale one). */
export function setMaterialized(post: PostEntry, value: HeldPostAnalysis | null): void {
  if (value) materialized.set(post, value);
  else materialized.delete(post);
}

/** The post analysis and metrics of the post's scored version, from its rows (computed once per version). */
export function materializePost(team: TeamIndex, post: PostEntry): MaterializedPost {
  const scored = post.scored;
  if (!scored) throw new Error(`post ${post.id} has no scored rows to materialize`);
  const result = computeAnalysis({
    team,
    posts: [post],
    filter: NO_COMMENT_FILTER,
    settings: scored.settings,
    include: [...ANALYSIS_INCLUDES],
  });
  const visible = scored.rows.filter((r) => team.columns.hidden[r] === 0);
  const totals = rollup(team.columns, visible, scored.settings);
  const { content, topic, ...rest } = totals.mix;
  const value: MaterializedPost = {
    dataVersion: scored.dataVersion,
    scoredAt: scored.scoredAt,
    analysis: { content: result.content, commentAnalysis: result.commentAnalysis },
    metrics: {
      daily: dailyMetrics(team.columns, visible, scored.settings),
      totals: {
        comments: totals.comments,
        scores: totals.scores,
        mix: scored.settings.scoreVersion >= 2 ? { ...rest, content, topic } : rest,
      },
    },
  };
  materialized.set(post, value);
  return value;
}

/** The events the index folds, typed as their producers declare them (ingest, gateway). */
type IndexedEvent = TeamCreated | TeamAnalysisSettingsChanged | CollectionCreated | PostEvent;
const isIndexed = eventsOf<IndexedEvent>(INDEX_EVENT_TYPES);

/** Folds one event into the index. Unknown posts (another service's stream out of order) are ignored. */
export function applyToIndex(index: CommentIndex, recorded: RecordedEvent): void {
  if (!isIndexed(recorded)) return;
  const event = recorded;
  switch (event.type) {
    case 'TeamCreated':
      index.team(event.data.teamId).known = true;
      return;
    case 'TeamAnalysisSettingsChanged': {
      const d = event.data;
      index.team(d.teamId).settings = { scoreVersion: d.scoreVersion, engagementWeight: d.engagementWeight };
      return;
    }
    case 'CollectionCreated': {
      const d = event.data;
      index.team(d.teamId).known = true;
      index
        .team(d.teamId)
        .collections.set(d.collectionId, collectionEntryOf(d, recorded.metadata.occurredAt));
      return;
    }
    case 'PostCreated': {
      const d = event.data;
      const team = index.team(d.teamId);
      team.known = true;
      if (team.postsById.has(d.postId)) return;
      const post: PostEntry = {
        id: d.postId,
        index: team.posts.length,
        ...createdPostFields(d),
        version: null,
        scored: null,
        pending: null,
      };
      team.posts.push(post);
      team.postsById.set(post.id, post);
      index.registerPost(d.teamId, d.postId);
      return;
    }
    case 'PostTagged':
    case 'PostRefreshRequested':
    case 'PostFetched':
    case 'CommentsFetched':
    case 'CommentsScored':
    case 'PostScored':
    case 'PostFetchFailed':
    case 'PostHoldResumed':
    case 'PostCancelled':
      applyToPost(index, event, recorded.metadata.occurredAt);
      return;
    default:
      return;
  }
}

/** A later event of a post already in the index. */
function applyToPost(
  index: CommentIndex,
  event: Exclude<PostEvent, { type: 'PostCreated' }>,
  occurredAt: string,
): void {
  const found = index.postById(event.data.postId);
  if (!found) return;
  const { team, post } = found;
  const at = ('at' in event.data ? event.data.at : undefined) ?? occurredAt;
  switch (event.type) {
    case 'PostTagged':
      post.collectionIds.push(...event.data.addedCollectionIds);
      post.tags.push(...event.data.addedTags);
      post.updatedAt = at;
      return;
    case 'PostRefreshRequested':
      post.status = 'fetching';
      post.dataVersion = event.data.dataVersion;
      post.lastRefreshedAt = event.data.requestedAt ?? at;
      post.updatedAt = post.lastRefreshedAt;
      return;
    case 'PostFetched': {
      post.status = 'processing';
      Object.assign(post, postDetailsOf(event.data.post));
      post.updatedAt = at;
      return;
    }
    case 'CommentsFetched':
      team.addComments(post, event.data.dataVersion, event.data.comments);
      return;
    case 'CommentsScored':
      team.addScores(post, event.data.dataVersion, event.data.comments);
      return;
    case 'PostScored':
      if (event.data.dataVersion !== post.dataVersion) return;
      team.completeVersion(post, post.dataVersion, event.data.topics, event.data.messages, at);
      post.status = 'complete';
      post.totalComments = event.data.totalComments;
      post.updatedAt = at;
      materializePost(team, post);
      return;
    case 'PostFetchFailed':
      post.status = event.data.outcome;
      team.dropPending(post);
      post.updatedAt = at;
      return;
    case 'PostHoldResumed':
      post.status = 'fetching';
      post.updatedAt = at;
      return;
    case 'PostCancelled':
      post.status = 'cancelled';
      team.dropPending(post);
      post.updatedAt = at;
      return;
  }
}
