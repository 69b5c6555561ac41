import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiError } from '@analyst/contracts';
import { Principal, teamQueryOf } from '@analyst/gateway';
import { parseLimit } from '../analyses/analyses.controller';
import type { TeamIndex } from '../index/comment-index';
import { CommentIndexService } from '../index/comment-index.service';
import { materializedOf } from '../index/index-feed';
import { afterCursor, decodeCursor, echoPostQuery, encodeCursor, findPosts, parsePostQuery } from './post-query';
import { postAnalysisView, postView } from './post-view';

/** One page of posts: filters applied while filling the page, opaque cursor, meta.hasMore. */
export function postPage(team: TeamIndex, query: Record<string, unknown>, within: Set<string> | null, extraEcho: Record<string, unknown> = {}) {
  const { limit: rawLimit, cursor: rawCursor, teamId: _teamId, ...filters } = query;
  const limit = parseLimit(rawLimit, 25);
  const q = parsePostQuery(filters);
  const cursor = rawCursor === undefined ? null : decodeCursor(String(rawCursor));
  const all = findPosts(team, q, within);
  const rest = cursor ? all.filter((p) => afterCursor(p, cursor)) : all;
  const page = rest.slice(0, limit);
  const hasMore = rest.length > limit;
  return {
    data: page.map(postView),
    meta: { limit, hasMore, nextCursor: hasMore ? encodeCursor(page[page.length - 1]) : null, filters: { ...extraEcho, ...echoPostQuery(q) } },
  };
}

@Controller('posts')
export class PostsController {
  constructor(private readonly index: CommentIndexService) {}

  private async post(teamId: string, postId: string) {
    const index = await this.index.current();
    const found = index.postById(postId);
    if (!found || found.team.teamId !== teamId) throw new ApiError(404, `post ${postId} not found`, 'post_not_found');
    return found.post;
  }

  @Get()
  async list(@Principal() principal: Principal, @Query() query: Record<string, unknown>) {
    const index = await this.index.current();
    return postPage(index.team(principal.targetTeamId), query, null);
  }

  @Get(':postId/analysis')
  async analysis(@Principal() principal: Principal, @Param('postId') postId: string) {
    const post = await this.post(principal.targetTeamId, postId);
    return { data: postAnalysisView(post, teamQueryOf(principal)), meta: { status: post.status } };
  }

  @Get(':postId/metrics')
  async metrics(@Principal() principal: Principal, @Param('postId') postId: string) {
    const post = await this.post(principal.targetTeamId, postId);
    const m = materializedOf(post);
    if (!m) throw new ApiError(404, `metrics of post ${postId} are not available until scoring finishes`, 'metrics_not_available');
    return {
      data: { postId: post.id, dataVersion: m.dataVersion, scoreVersion: m.metrics.totals.scores.scoreVersion, computedAt: m.scoredAt, totals: m.metrics.totals, daily: m.metrics.daily },
      meta: {},
    };
  }
}

@Controller('collections')
export class CollectionsController {
  constructor(private readonly index: CommentIndexService) {}

  private view(team: TeamIndex, id: string) {
    const c = team.collections.get(id)!;
    const tree = team.collectionTree(id);
    const postCount = team.posts.filter((p) => p.collectionIds.some((x) => tree.has(x))).length;
    return { id: c.id, name: c.name, type: c.type, parentId: c.parentId, postCount, createdAt: c.createdAt };
  }

  @Get()
  async list(@Principal() principal: Principal) {
    const team = (await this.index.current()).team(principal.targetTeamId);
    const data = [...team.collections.keys()].map((id) => this.view(team, id)).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    return { data, meta: { count: data.length } };
  }

  @Get(':collectionId')
  async get(@Principal() principal: Principal, @Param('collectionId') id: string) {
    const team = (await this.index.current()).team(principal.targetTeamId);
    if (!team.collections.has(id)) throw new ApiError(404, `collection ${id} not found`, 'collection_not_found');
    return { data: this.view(team, id), meta: {} };
  }

  @Get(':collectionId/posts')
  async posts(@Principal() principal: Principal, @Param('collectionId') id: string, @Query() query: Record<string, unknown>) {
    const team = (await this.index.current()).team(principal.targetTeamId);
    if (!team.collections.has(id)) throw new ApiError(404, `collection ${id} not found`, 'collection_not_found');
    return postPage(team, query, team.collectionTree(id), { collectionId: id });
  }
}
