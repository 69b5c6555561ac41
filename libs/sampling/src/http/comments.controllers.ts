import { Controller, Get, Param, Query, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiRoute,
  Principal,
  ApiCommentSampleQueries,
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  ErrorMappingFilter,
  listEnvelope,
  openApi,
  TEAM_NOT_FOUND,
} from '@analyst/platform';
import { toApiError } from '../errors/sampling-error.mapping';
import { parseSampleQuery } from '../sample/parse-sample-query';
import { SamplingService, type SamplePageView } from '../sampling.service';

const SAMPLE = listEnvelope(openApi.ref('CommentRow'), openApi.ref('CommentSampleMeta'));

const INVALID_QUERY =
  'Unknown query parameter, an invalid limit, source or cursor, an invalid bucket name, or an unknown emotion name (invalid_filter, invalid_bucket, invalid_cursor)';

/** GET /analyses/{analysisId}/comments: scopes analyses:read + comments:read, class analysis_comments (gateway). */
@ApiTags('comments')
@ApiKeyAuth()
@Controller('analyses')
@UseFilters(new ErrorMappingFilter(toApiError))
export class AnalysisCommentsController {
  constructor(private readonly sampling: SamplingService) {}

  @Get(':analysisId/comments')
  @ApiRoute('GET /analyses/{analysisId}/comments')
  @ApiOperation({
    summary: 'A sample of the comments behind an analysis',
    description:
      'Scopes analyses:read and comments:read. Rate class analysis_comments. The analysis’s own filters and search apply first; the bucket parameters narrow the sample. ' +
      'Every page re-reads every post of the analysis: take one sample per analysis rather than paging through it.',
  })
  @ApiCommentSampleQueries()
  @ApiEnvelopeResponse(200, SAMPLE, { description: 'Comment rows; meta carries filters and groups' })
  @ApiErrorResponses({
    400: `${INVALID_QUERY}; or an analysis over 1,000 posts (analysis_too_large)`,
    404: `Unknown or expired analysis (analysis_not_found), or ${TEAM_NOT_FOUND}`,
    409: 'The analysis is queued or running (analysis_not_ready, with Retry-After) or failed (analysis_failed)',
  })
  sample(
    @Principal() principal: Principal,
    @Param('analysisId') analysisId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<SamplePageView> {
    return this.sampling.analysisSample(principal.targetTeamId, analysisId, parseSampleQuery(query));
  }
}

/** GET /posts/{postId}/analysis/comments: scopes posts:read + comments:read, class comments (gateway). */
@ApiTags('comments')
@ApiKeyAuth()
@Controller('posts')
@UseFilters(new ErrorMappingFilter(toApiError))
export class PostCommentsController {
  constructor(private readonly sampling: SamplingService) {}

  @Get(':postId/analysis/comments')
  @ApiRoute('GET /posts/{postId}/analysis/comments')
  @ApiOperation({
    summary: 'A sample of the comments of one post',
    description:
      'Scopes posts:read and comments:read. Rate class comments. Same sampling, parameters and rows as the analysis comments route. Hidden comments are excluded.',
  })
  @ApiCommentSampleQueries()
  @ApiEnvelopeResponse(200, SAMPLE, { description: 'Comment rows; meta carries filters and groups' })
  @ApiErrorResponses({
    400: INVALID_QUERY,
    404: `Not a post of the target team (post_not_found), not scored yet (comments_not_available), or ${TEAM_NOT_FOUND}`,
  })
  sample(
    @Principal() principal: Principal,
    @Param('postId') postId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<SamplePageView> {
    return this.sampling.postSample(principal.targetTeamId, postId, parseSampleQuery(query));
  }
}
