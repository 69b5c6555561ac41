import { Controller, Get, Inject, Param, Query, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  Principal,
  teamQueryOf,
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  ApiPostFilterQueries,
  envelope,
  listEnvelope,
  openApi,
  TEAM_NOT_FOUND,
  validateRequest,
  ErrorMappingFilter,
  checkedQueryNumber,
} from '@analyst/platform';
import { CommentReadSide, type TeamIndex, materializedOf } from '@analyst/comment-index';
import { AnalysisError } from '../errors/analysis-error';
import { toApiError } from '../errors/analysis-error.mapping';
import { refuseAs } from '../validation/refusal';
import { POST_CURSORS, type PostCursors } from './post-cursor';
import { afterCursor, echoPostQuery, findPosts, positionOf, postQueryOf } from './post-query';
import { PostPageQueryDto } from './post-query.dto';
import { postAnalysisView, postView } from './post-view';

/**
 * One page of posts: filters applied while filling the page, meta.hasMore, and a sealed cursor bound
 * to the route, the team, the filters and the limit.
 */
export function postPage(
  cursors: PostCursors,
  route: string,
  team: TeamIndex,
  query: Record<string, unknown>,
  within: Set<string> | null,
  extraEcho: Record<string, unknown> = {},
) {
  const valid = validateRequest(PostPageQueryDto, query, refuseAs('invalid_filter'));
  const limit = checkedQueryNumber(valid.limit, 25);
  const q = postQueryOf(valid);
  const rawCursor = valid.cursor;
  const echo = { ...extraEcho, ...echoPostQuery(q) };
  const binding = { route, teamId: team.teamId, filters: JSON.stringify(echo), limit };
  const cursor = rawCursor === undefined ? null : cursors.decode(String(rawCursor), binding);
  const all = findPosts(team, q, within);
  const rest = cursor ? all.filter((p) => afterCursor(p, cursor)) : all;
  const page = rest.slice(0, limit);
  const hasMore = rest.length > limit;
  return {
    data: page.map(postView),
    meta: {
      limit,
      hasMore,
      nextCursor: hasMore ? cursors.encode(binding, positionOf(page[page.length - 1])) : null,
      filters: echo,
    },
  };
}

/** Mix bars per dimension; content and topic only for score version 2 and up. */
const METRICS_MIX = openApi.obj(
  Object.fromEntries(
    ['sentiment', 'relevance', 'consensus', 'content', 'topic'].map((d) => [d, openApi.ref('Mix')]),
  ),
  ['sentiment', 'relevance', 'consensus'],
);
const POST_PAGE = listEnvelope(openApi.ref('Post'), openApi.ref('PostPageMeta'));
const POST_FILTERS_400 =
  'Invalid filter values: bad dates, out-of-range numbers, min greater than max, unknown filters (invalid_filter); or a cursor that is not one this list returned for the same route, filters and limit (invalid_cursor)';
const POST_404 = `Not a post of the target team (post_not_found), or ${TEAM_NOT_FOUND}`;
const COLLECTION_404 = `Not a collection of the target team (collection_not_found), or ${TEAM_NOT_FOUND}`;

@ApiTags('posts')
@ApiKeyAuth()
@UseFilters(new ErrorMappingFilter(toApiError))
@Controller('posts')
export class PostsController {
  constructor(
    private readonly readSide: CommentReadSide,
    @Inject(POST_CURSORS) private readonly cursors: PostCursors,
  ) {}

  private async teamPost(teamId: string, postId: string) {
    const team = await this.readSide.team(teamId);
    const post = team.postsById.get(postId);
    if (!post) throw new AnalysisError('post_not_found', `post ${postId} not found`);
    return { team, post };
  }

  @Get()
  @ApiOperation({
    summary: 'The team’s posts, newest first, one page at a time',
    description:
      'Scope posts:read. Filters are applied while filling the page: send the same filters with each cursor request.',
  })
  @ApiPostFilterQueries()
  @ApiEnvelopeResponse(200, POST_PAGE, {
    description:
      'A page of posts; meta.hasMore and meta.nextCursor page on, meta.filters echoes the active filters',
  })
  @ApiErrorResponses({ 400: POST_FILTERS_400 })
  async list(@Principal() principal: Principal, @Query() query: Record<string, unknown>) {
    return postPage(this.cursors, 'posts', await this.readSide.team(principal.targetTeamId), query, null);
  }

  @Get(':postId/analysis')
  @ApiOperation({
    summary: 'The analysis of one post, materialized when it was scored',
    description: 'Scope posts:read. Never rescores.',
  })
  @ApiEnvelopeResponse(
    200,
    envelope(
      openApi.ref('PostAnalysis'),
      openApi.obj({ status: openApi.str('The post’s processing status.') }),
    ),
    {
      description: 'Both sides of the post’s analysis; values never materialized are null or empty',
    },
  )
  @ApiErrorResponses({ 404: POST_404 })
  async analysis(@Principal() principal: Principal, @Param('postId') postId: string) {
    const { post } = await this.teamPost(principal.targetTeamId, postId);
    return { data: postAnalysisView(post, teamQueryOf(principal)), meta: { status: post.status } };
  }

  @Get(':postId/metrics')
  @ApiOperation({
    summary: 'Score rollups and mix buckets of one post, in total and per day',
    description: 'Scope posts:read.',
  })
  @ApiEnvelopeResponse(
    200,
    envelope(
      openApi.obj({
        postId: openApi.str(),
        dataVersion: openApi.int(),
        scoreVersion: openApi.int(undefined, { enum: [1, 2, 3] }),
        computedAt: openApi.timestamp(),
        totals: openApi.obj(
          { comments: openApi.int(), scores: openApi.ref('RollupScores'), mix: METRICS_MIX },
          undefined,
          { description: 'Scores and mixes over every comment.' },
        ),
        daily: openApi.arrayOf(
          openApi.obj({
            date: openApi.str('UTC day of the comments’ own timestamps.', { format: 'date' }),
            comments: openApi.int(),
            scores: openApi.ref('RollupScores'),
            mix: METRICS_MIX,
          }),
          'The same rollups per day.',
        ),
      }),
    ),
    { description: 'The post’s metrics' },
  )
  @ApiErrorResponses({ 404: `${POST_404}; or not scored yet (metrics_not_available)` })
  async metrics(@Principal() principal: Principal, @Param('postId') postId: string) {
    const { team, post } = await this.teamPost(principal.targetTeamId, postId);
    const m = materializedOf(post);
    const daily = await this.readSide.dailyMetrics(team, post);
    if (!m || !daily) {
      // Only a post still on its way will have metrics; one that ended otherwise never will (until a refresh scores it).
      const pending = post.status === 'fetching' || post.status === 'queued' || post.status === 'processing';
      const why = pending
        ? 'until scoring finishes'
        : `because it was never scored (status ${post.status}); a refresh that scores it makes them available`;
      throw new AnalysisError('metrics_not_available', `metrics of post ${postId} are not available ${why}`);
    }
    return {
      data: {
        postId: post.id,
        dataVersion: m.dataVersion,
        scoreVersion: m.metrics.totals.scores.scoreVersion,
        computedAt: m.scoredAt,
        totals: m.metrics.totals,
        daily,
      },
      meta: {},
    };
  }
}

@ApiTags('collections')
@ApiKeyAuth()
@UseFilters(new ErrorMappingFilter(toApiError))
@Controller('collections')
export class CollectionsController {
  constructor(
    private readonly readSide: CommentReadSide,
    @Inject(POST_CURSORS) private readonly cursors: PostCursors,
  ) {}

  private view(team: TeamIndex, id: string) {
    const c = team.collections.get(id)!;
    const tree = team.collectionTree(id);
    const postCount = team.posts.filter((p) => p.collectionIds.some((x) => tree.has(x))).length;
    return { id: c.id, name: c.name, type: c.type, parentId: c.parentId, postCount, createdAt: c.createdAt };
  }

  @Get()
  @ApiOperation({ summary: 'The team’s collections, newest first', description: 'Scope collections:read.' })
  @ApiEnvelopeResponse(200, listEnvelope(openApi.ref('Collection'), openApi.obj({ count: openApi.int() })), {
    description: 'Campaigns and groups',
  })
  async list(@Principal() principal: Principal) {
    const team = await this.readSide.team(principal.targetTeamId);
    const data = [...team.collections.keys()]
      .map((id) => this.view(team, id))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    return { data, meta: { count: data.length } };
  }

  @Get(':collectionId')
  @ApiOperation({ summary: 'One collection', description: 'Scope collections:read.' })
  @ApiEnvelopeResponse(200, envelope(openApi.ref('Collection')), { description: 'The collection' })
  @ApiErrorResponses({ 404: COLLECTION_404 })
  async get(@Principal() principal: Principal, @Param('collectionId') id: string) {
    const team = await this.readSide.team(principal.targetTeamId);
    if (!team.collections.has(id))
      throw new AnalysisError('collection_not_found', `collection ${id} not found`);
    return { data: this.view(team, id), meta: {} };
  }

  @Get(':collectionId/posts')
  @ApiOperation({
    summary: 'Posts of a collection (a campaign includes its groups), newest first',
    description:
      'Scope collections:read. Rate class collection_posts. Same paging and filters as GET /posts.',
  })
  @ApiPostFilterQueries()
  @ApiEnvelopeResponse(200, POST_PAGE, {
    description: 'A page of posts; meta.filters also echoes collectionId',
  })
  @ApiErrorResponses({ 400: POST_FILTERS_400, 404: COLLECTION_404 })
  async posts(
    @Principal() principal: Principal,
    @Param('collectionId') id: string,
    @Query() query: Record<string, unknown>,
  ) {
    const team = await this.readSide.team(principal.targetTeamId);
    if (!team.collections.has(id))
      throw new AnalysisError('collection_not_found', `collection ${id} not found`);
    return postPage(this.cursors, `collection:${id}`, team, query, team.collectionTree(id), {
      collectionId: id,
    });
  }
}
