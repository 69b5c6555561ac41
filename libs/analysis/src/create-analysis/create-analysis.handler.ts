import { Inject, Injectable } from '@nestjs/common';
import {
  ANALYSIS_RETENTION_MS,
  type AnalysisCreatedData,
  type AnalysisEvent,
  type AnalysisSelection,
} from '@analyst/domain-analysis';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@analyst/platform';
import { foldAnalysisDoc, type AnalysisDoc } from '@analyst/analyses-read';
import {
  CommentReadSide,
  compileFilters,
  computeAnalysis,
  type AnalysisResult,
  type PostEntry,
  type TeamIndex,
} from '@analyst/comment-index';
import { AnalysisCommands } from '../analyses/analysis-commands';
import { AnalysisError } from '../errors/analysis-error';
import { echoPostQuery, findPosts, NO_POST_FILTERS, type PostQuery } from '../posts/post-query';
import { AnalysisJobWorker } from '../analyses/analysis-job-worker';
import { MAX_SELECTION, type AnalysisRequest, type RequestedSelection } from './analysis-request';

/** Most posts an analysis without AI search is computed over inline (201); more make it a job (202). */
export const INLINE_LIMIT = 100;

/**
 * POST /analyses once its body is read: the selection resolved, then either a snapshot computed
 * here and recorded created and completed in one append (no AI search, at most 100 posts), or a job
 * queued for the worker.
 */
@Injectable()
export class CreateAnalysisHandler {
  constructor(
    private readonly commands: AnalysisCommands,
    private readonly jobs: AnalysisJobWorker,
    private readonly readSide: CommentReadSide,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** Creates an analysis; an inline one comes back with its result as computed here, never read back. */
  async create(
    teamId: string,
    request: AnalysisRequest,
  ): Promise<{ doc: AnalysisDoc; result: AnalysisResult | null }> {
    const team = await this.readSide.team(teamId);
    const { posts, truncated } = resolveSelection(team, request.selection);
    const now = this.clock.now();
    const analysisId = this.ids.next('an_');
    const ai = request.search?.mode === 'ai';
    const data: AnalysisCreatedData = {
      analysisId,
      teamId,
      // A keyword search stays a synchronous snapshot (spec, Kinds of analysis); only AI search is kind search.
      kind: ai ? 'search' : 'snapshot',
      selection: recordedSelection(request.selection),
      filters: request.filters,
      search: request.search,
      include: request.include,
      postIds: posts.map((p) => p.id),
      postCount: posts.length,
      selectionTruncated: truncated,
      settings: { ...team.settings },
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ANALYSIS_RETENTION_MS).toISOString(),
    };
    let result: AnalysisResult | null = null;
    let events: AnalysisEvent[];
    if (!ai && posts.length <= INLINE_LIMIT) {
      await this.readSide.rows(team, posts);
      result = computeAnalysis({
        team,
        posts,
        filter: compileFilters(request.filters, team),
        settings: data.settings,
        include: request.include,
      });
      ({ events } = await this.commands.record(analysisId, teamId, {
        type: 'CreateAnalysis',
        data: { ...data, result },
      }));
    } else {
      ({ events } = await this.commands.record(analysisId, teamId, { type: 'CreateAnalysis', data }));
      this.jobs.enqueue(analysisId);
    }
    // The document as the projection wrote it, folded from the events this request appended: the
    // creating request never reads it back (a lookup costs more as analyses pile up on some stores).
    const doc = foldAnalysisDoc(analysisId, events);
    if (!doc) throw new Error(`CreateAnalysis appended no AnalysisCreated for ${analysisId}`);
    return { doc, result: doc.status === 'ready' ? result : null };
  }
}

/** Every post of the team, whatever its status: the order an explicit id list is resolved in. */
const ANY_STATUS: PostQuery = { ...NO_POST_FILTERS, status: 'all' };

/** The team's posts a selection names, newest first, cut at 1,000; refused when it names none or another team's. */
export function resolveSelection(
  team: TeamIndex,
  selection: RequestedSelection,
): { posts: PostEntry[]; truncated: boolean } {
  const posts = selectedPosts(team, selection);
  if (posts.length === 0) throw new AnalysisError('empty_selection', 'the selection matches no posts');
  return { posts: posts.slice(0, MAX_SELECTION), truncated: posts.length > MAX_SELECTION };
}

function selectedPosts(team: TeamIndex, s: RequestedSelection): PostEntry[] {
  if (s.type === 'postIds') {
    const unknown = s.postIds.filter((id) => !team.postsById.has(id));
    if (unknown.length > 0)
      throw new AnalysisError(
        'invalid_selection',
        `selection.postIds: not posts of this team: ${unknown.slice(0, 10).join(', ')}`,
      );
    return findPosts(team, ANY_STATUS).filter((p) => s.postIds.includes(p.id));
  }
  if (s.type === 'posts') return findPosts(team, s.posts);
  if (!team.collections.has(s.collectionId))
    throw new AnalysisError(
      'invalid_selection',
      `selection.collectionId ${s.collectionId} is not a collection of this team`,
    );
  return findPosts(team, s.posts ?? NO_POST_FILTERS, team.collectionTree(s.collectionId));
}

/**
 * The selection as AnalysisCreated records it: post filters echoed as GET /posts echoes them
 * (normalized links, accounts, tags and dates), their status beside them.
 */
export function recordedSelection(selection: RequestedSelection): AnalysisSelection {
  if (selection.type === 'postIds') return selection;
  const { status, ...posts } = echoPostQuery(selection.posts ?? NO_POST_FILTERS);
  if (selection.type === 'posts') return { type: 'posts', posts, status };
  return selection.posts
    ? { type: 'collection', collectionId: selection.collectionId, posts, status }
    : { type: 'collection', collectionId: selection.collectionId, status };
}
