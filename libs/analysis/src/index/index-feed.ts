import type { FetchedComment, Platform, ProviderPost, ScoredComment, TeamAnalysisSettingsChanged, CreatorMessage, CreatorTopic } from '@analyst/contracts';
import { dailyMetrics, NO_COMMENT_FILTER, rollup, type DailyMetric, type Mix, type RollupScores } from '@analyst/domain-analysis';
import type { RecordedEvent } from '@analyst/platform';
import { computeAnalysis, type AnalysisResult } from '../analyses/compute-analysis';
import type { CommentIndex, PostEntry, TeamIndex } from './comment-index';

/** What the post routes serve once a version is scored: computed then, never again. */
export interface MaterializedPost {
  dataVersion: number;
  scoredAt: string;
  analysis: Pick<AnalysisResult, 'content' | 'commentAnalysis'>;
  metrics: { daily: DailyMetric[]; totals: { comments: number; scores: RollupScores; mix: Partial<Record<string, Mix>> } };
}

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
  'PostCancelled',
] as const;

interface PostCreatedData {
  postId: string;
  teamId: string;
  link: string;
  normalizedLink: string;
  platform: Platform;
  collectionIds: string[];
  tags: string[];
  addedVia: string;
  addedBy?: { id: string; name: string };
  isDemo?: boolean;
  dataVersion: number;
  requestedAt: string;
}

const materialized = new WeakMap<PostEntry, MaterializedPost>();

export function materializedOf(post: PostEntry): MaterializedPost | null {
  return materialized.get(post) ?? null;
}

function materialize(team: TeamIndex, post: PostEntry): void {
  const scored = post.scored!;
  const result = computeAnalysis({ team, posts: [post], filter: NO_COMMENT_FILTER, settings: scored.settings, include: ['wordCloud', 'emojiCloud'] });
  const visible = scored.rows.filter((r) => team.columns.hidden[r] === 0);
  const totals = rollup(team.columns, visible, scored.settings);
  const { content, topic, ...rest } = totals.mix;
  materialized.set(post, {
    dataVersion: scored.dataVersion,
    scoredAt: scored.scoredAt,
    analysis: { content: result.content, commentAnalysis: result.commentAnalysis },
    metrics: {
      daily: dailyMetrics(team.columns, visible, scored.settings),
      totals: { comments: totals.comments, scores: totals.scores, mix: scored.settings.scoreVersion >= 2 ? { ...rest, content, topic } : rest },
    },
  });
}

/** Folds one event into the index. Unknown posts (another service's stream out of order) are ignored. */
export function applyToIndex(index: CommentIndex, event: RecordedEvent): void {
  const data = event.data as Record<string, unknown>;
  switch (event.type) {
    case 'TeamCreated':
      index.team(data.teamId as string);
      return;
    case 'TeamAnalysisSettingsChanged': {
      const d = data as TeamAnalysisSettingsChanged['data'];
      index.team(d.teamId).settings = { scoreVersion: d.scoreVersion, engagementWeight: d.engagementWeight };
      return;
    }
    case 'CollectionCreated': {
      const d = data as { collectionId: string; teamId: string; name: string; type: 'campaign' | 'group'; parentId: string | null; at: string };
      index.team(d.teamId).collections.set(d.collectionId, {
        id: d.collectionId,
        teamId: d.teamId,
        name: d.name,
        type: d.type,
        parentId: d.parentId,
        createdAt: d.at ?? event.metadata.occurredAt,
      });
      return;
    }
    case 'PostCreated': {
      const d = data as unknown as PostCreatedData;
      const team = index.team(d.teamId);
      if (team.postsById.has(d.postId)) return;
      const post: PostEntry = {
        id: d.postId,
        teamId: d.teamId,
        index: team.posts.length,
        link: d.link,
        normalizedLink: d.normalizedLink,
        platform: d.platform,
        collectionIds: [...d.collectionIds],
        tags: [...d.tags],
        addedVia: d.addedVia,
        addedBy: d.addedBy ?? null,
        isDemo: d.isDemo ?? false,
        status: 'fetching',
        dataVersion: d.dataVersion,
        createdAt: d.requestedAt,
        updatedAt: d.requestedAt,
        lastRefreshedAt: d.requestedAt,
        creator: null,
        title: null,
        caption: null,
        description: null,
        engagement: null,
        postedAt: null,
        postType: null,
        thumbnail: null,
        totalComments: 0,
        scored: null,
        pending: null,
      };
      team.posts.push(post);
      team.postsById.set(post.id, post);
      index.registerPost(d.teamId, d.postId);
      return;
    }
    default:
      break;
  }
  const found = typeof data.postId === 'string' ? index.postById(data.postId) : null;
  if (!found) return;
  const { team, post } = found;
  const at = (data.at as string | undefined) ?? event.metadata.occurredAt;
  switch (event.type) {
    case 'PostTagged':
      post.collectionIds.push(...(data.addedCollectionIds as string[]));
      post.tags.push(...(data.addedTags as string[]));
      post.updatedAt = at;
      return;
    case 'PostRefreshRequested':
      post.status = 'fetching';
      post.dataVersion = data.dataVersion as number;
      post.lastRefreshedAt = (data.requestedAt as string) ?? at;
      post.updatedAt = post.lastRefreshedAt;
      return;
    case 'PostFetched': {
      const p = data.post as ProviderPost;
      post.status = 'processing';
      post.creator = p.creator;
      post.title = p.title;
      post.caption = p.caption;
      post.description = p.description;
      post.engagement = p.engagement;
      post.postedAt = p.postedAt;
      post.postType = p.postType;
      post.thumbnail = p.thumbnail;
      post.updatedAt = at;
      return;
    }
    case 'CommentsFetched':
      team.addComments(post, data.dataVersion as number, data.comments as FetchedComment[]);
      return;
    case 'CommentsScored':
      team.addScores(post, data.dataVersion as number, data.comments as ScoredComment[]);
      return;
    case 'PostScored':
      if ((data.dataVersion as number) !== post.dataVersion) return;
      team.completeVersion(post, post.dataVersion, data.topics as CreatorTopic[], data.messages as CreatorMessage[], at);
      post.status = 'complete';
      post.totalComments = data.totalComments as number;
      post.updatedAt = at;
      materialize(team, post);
      return;
    case 'PostFetchFailed':
      post.status = data.outcome as string;
      post.pending = null;
      post.updatedAt = at;
      return;
    case 'PostCancelled':
      post.status = 'cancelled';
      post.pending = null;
      post.updatedAt = at;
      return;
    default:
      return;
  }
}
