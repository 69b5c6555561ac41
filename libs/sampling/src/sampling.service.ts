import { Inject, Injectable } from '@nestjs/common';
import type { ScoreVersion } from '@analyst/contracts';
import { NO_COMMENT_FILTER, analysisStream } from '@analyst/domain-analysis';
import { analysisDocOfStream, type AnalysisDoc } from '@analyst/analyses-read';
import {
  CommentReadSide,
  compileFilters,
  fnv1a32,
  type CommentFilters,
  type PostEntry,
  type RowDetails,
  type SearchSpec,
  type TeamIndex,
} from '@analyst/comment-index';
import { CLOCK, EVENT_STORE, type Clock, type EventStore } from '@analyst/platform';
import { SamplingError } from './errors/sampling-error';
import { commentRow, type CommentRowView, type RowContext } from './sample/comment-row';
import { drawSample, type SampleGroup, type SampleInput } from './sample/draw-sample';
import { CursorCodec, type CursorBinding } from './sample/sample-cursor';
import { queryFingerprint, type SampleQuery } from './sample/sample-query';
import { SearchMatches } from './sample/search-matches';

export const CURSOR_CODEC = Symbol('SamplingCursorCodec');
export const SEARCH_MATCHES = Symbol('SamplingSearchMatches');

/** Over this many posts the analysis comments route answers 400 (the spec's limit). */
export const MAX_ANALYSIS_POSTS = 1000;

export interface SamplePageView {
  data: CommentRowView[];
  meta: Record<string, unknown>;
}

/** Both comment routes: resolve the scope, draw the page, shape rows and meta. */
@Injectable()
export class SamplingService {
  constructor(
    private readonly readSide: CommentReadSide,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
    @Inject(SEARCH_MATCHES) private readonly searches: SearchMatches,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  /**
   * The analysis as its read model shows it, folded from its own stream (an indexed read on every
   * event store, and never behind the log); null when it has none.
   */
  private async analysis(analysisId: string): Promise<AnalysisDoc | null> {
    return analysisDocOfStream(analysisId, await this.events.readStream(analysisStream(analysisId)));
  }

  async analysisSample(teamId: string, analysisId: string, query: SampleQuery): Promise<SamplePageView> {
    const doc = await this.analysis(analysisId);
    if (!doc || doc.teamId !== teamId || this.expired(doc)) {
      throw new SamplingError(
        'analysis_not_found',
        `analysis ${analysisId} not found (analyses expire 7 days after creation)`,
      );
    }
    if (doc.status === 'queued' || doc.status === 'running') {
      throw new SamplingError('analysis_not_ready', 'analysis_not_ready');
    }
    if (doc.status === 'failed') throw new SamplingError('analysis_failed', 'analysis_failed');
    if (doc.postIds.length > MAX_ANALYSIS_POSTS) {
      throw new SamplingError(
        'analysis_too_large',
        `analysis ${analysisId} has ${doc.postIds.length} posts; comment samples are limited to analyses of at most ${MAX_ANALYSIS_POSTS}`,
      );
    }
    const team = await this.readSide.team(teamId);
    const posts = doc.postIds
      .map((id) => team.postsById.get(id))
      .filter((p): p is PostEntry => p !== undefined);
    await this.readSide.rows(team, posts);
    const filters = doc.filters ?? null;
    const search = doc.search ?? null;
    // The search matches are row numbers: keep them valid until the page is drawn.
    const release = team.hold();
    try {
      const searchMatch =
        search?.mode === 'ai' ? await this.searches.matcher(analysisId, team, posts, search) : null;
      // A report (a teammate's write-up over a campaign) has no version of its own: its posts are sampled under the team's.
      const version = doc.settings?.scoreVersion ?? team.settings.scoreVersion;
      return this.page(team, team.details, query, {
        scope: `analysis:${analysisId}`,
        posts,
        baseFilter: compileFilters(filters, team),
        searchMatch,
        version,
        context: { analysisFiltered: hasFilters(filters, search), searched: search !== null },
        echo: { analysisId },
      });
    } finally {
      release();
    }
  }

  async postSample(teamId: string, postId: string, query: SampleQuery): Promise<SamplePageView> {
    const team = await this.readSide.team(teamId);
    const post = team.postsById.get(postId);
    if (!post) throw new SamplingError('post_not_found', `post ${postId} not found`);
    if (post.version) await this.readSide.rows(team, [post]);
    const scored = post.scored;
    if (!scored)
      throw new SamplingError(
        'comments_not_available',
        `comments of post ${postId} are not available until scoring finishes`,
      );
    return this.page(team, team.details, query, {
      scope: `post:${postId}:v${scored.dataVersion}`,
      posts: [post],
      baseFilter: NO_COMMENT_FILTER,
      searchMatch: null,
      // The version the post analysis was materialized with (it is never recomputed), so a bucket's
      // sample is the comments its bar counts even after the team changes version.
      version: scored.settings.scoreVersion,
      context: { analysisFiltered: false, searched: false },
      echo: { postId, dataVersion: scored.dataVersion },
    });
  }

  private expired(doc: AnalysisDoc): boolean {
    return doc.expiresAt !== null && Date.parse(doc.expiresAt) <= this.clock.now().getTime();
  }

  private page(
    team: TeamIndex,
    details: RowDetails,
    query: SampleQuery,
    scope: {
      scope: string;
      posts: PostEntry[];
      baseFilter: SampleInput['baseFilter'];
      searchMatch: SampleInput['searchMatch'];
      version: ScoreVersion;
      context: Pick<RowContext, 'analysisFiltered' | 'searched'>;
      echo: Record<string, unknown>;
    },
  ): SamplePageView {
    const binding: CursorBinding = {
      teamId: team.teamId,
      scope: scope.scope,
      query: queryFingerprint(query),
      scoreVersion: scope.version,
    };
    const position = query.cursor ? this.cursors.decode(query.cursor, binding) : null;
    const result = drawSample({
      team,
      details,
      posts: scope.posts,
      baseFilter: scope.baseFilter,
      searchMatch: scope.searchMatch,
      buckets: query.buckets,
      emotions: query.emotions,
      version: scope.version,
      source: query.source,
      seed: fnv1a32(scope.scope),
      after: position?.after ?? null,
      limit: query.limit,
    });
    const context: RowContext = {
      version: scope.version,
      // An emotion is a bar of the emotions mix: filtering on it is filtering on a bucket.
      bucketFiltered: Object.keys(query.buckets).length > 0 || query.emotions.length > 0,
      ...scope.context,
    };
    const served = (position?.served ?? 0) + result.rows.length;
    const hasMore = result.remaining > 0 && result.last !== null;
    return {
      data: result.rows.map((row, i) => commentRow(team, details, row, result.flags[i], context)),
      meta: {
        ...scope.echo,
        source: query.source,
        scoreVersion: scope.version,
        limit: query.limit,
        filters: filtersEcho(query),
        total: result.total,
        offset: served - result.rows.length,
        hasMore,
        nextCursor: hasMore ? this.cursors.encode(binding, result.last!, served) : null,
        groups: result.groups.map((g) => groupView(team, g, scope.posts.length > 1)),
      },
    };
  }
}

/** `meta.filters`: the bucket filters, and the emotion filter (an extension of the spec) when given. */
function filtersEcho(query: SampleQuery): Record<string, unknown> {
  return query.emotions.length > 0 ? { ...query.buckets, emotion: query.emotions } : query.buckets;
}

function hasFilters(filters: CommentFilters | null, search: SearchSpec | null): boolean {
  if (!filters) return false;
  const keys = Object.keys(filters).filter(
    (k) => !(k === 'keywords' && search?.mode === 'keyword' && filters.keywords?.length === 1),
  );
  return keys.length > 0;
}

function groupView(team: TeamIndex, group: SampleGroup, withPost: boolean): Record<string, unknown> {
  const ids = group.sampleRows.map((r) => team.commentIds[r]);
  const where = withPost ? { postId: group.post.id } : {};
  if (group.type === 'topic') {
    const t = group.post.scored!.topics[group.index];
    return {
      type: 'topic',
      ...where,
      title: t.title,
      description: t.description,
      commentCount: group.commentCount,
      sampleCommentIds: ids,
    };
  }
  const m = group.post.scored!.messages[group.index];
  return {
    type: 'message',
    ...where,
    topic: m.topic,
    stance: m.stance,
    commentCount: group.commentCount,
    sampleCommentIds: ids,
  };
}
