import { ANALYSIS_INCLUDES } from '@analyst/contracts';
import {
  dailyMetrics,
  NO_COMMENT_FILTER,
  rollup,
  type DailyMetric,
  type Mix,
  type RollupScores,
} from '@analyst/domain-analysis';
import { computeAnalysis, type AnalysisResult } from '../compute-analysis';
import type { PostEntry, TeamIndex } from './team-index';

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
