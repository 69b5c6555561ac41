import { Controller, Get, Param, Query, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  Principal,
  teamQueryOf,
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  ApiLimitQuery,
  envelope,
  listEnvelope,
  openApi,
  TEAM_NOT_FOUND,
  validateRequest,
  ErrorMappingFilter,
  checkedQueryNumber,
} from '@analyst/platform';
import { AnalysisError } from '../errors/analysis-error';
import { toApiError } from '../errors/analysis-error.mapping';
import { refuseAs } from '../validation/refusal';
import { ANALYSIS_KINDS, AnalysisListQueryDto } from './analysis-list-query.dto';
import { AnalysisQueries } from './analysis-queries';
import { analysisMeta, analysisSummary, analysisView, RETRY_AFTER_SECONDS } from './analysis-view';

/** GET /analyses and GET /analyses/{id}: reads (POST /analyses is create-analysis/). */
@ApiTags('analyses')
@ApiKeyAuth()
@UseFilters(new ErrorMappingFilter(toApiError))
@Controller('analyses')
export class AnalysesController {
  constructor(private readonly analyses: AnalysisQueries) {}

  @Get()
  @ApiOperation({
    summary: 'Analyses of the team, newest first: API-created ones and saved reports',
    description: 'Scope analyses:read.',
  })
  @ApiLimitQuery(50)
  @ApiQuery({
    name: 'kind',
    required: false,
    description: 'Which kind to list (default all).',
    schema: { type: 'string', enum: [...ANALYSIS_KINDS], default: 'all' },
  })
  @ApiEnvelopeResponse(
    200,
    listEnvelope(
      openApi.ref('AnalysisSummary'),
      openApi.obj({ kind: openApi.str(), limit: openApi.int(), count: openApi.int() }),
    ),
    {
      description: 'Summaries; each row carries kind and status',
    },
  )
  @ApiErrorResponses({ 400: 'Unknown query parameter, or an invalid limit or kind (invalid_filter)' })
  async list(@Principal() principal: Principal, @Query() query: Record<string, unknown>) {
    const valid = validateRequest(AnalysisListQueryDto, query, refuseAs('invalid_filter'));
    const limit = checkedQueryNumber(valid.limit, 50);
    const kind = valid.kind ?? 'all';
    const docs = await this.analyses.list(principal.targetTeamId, kind, limit);
    return { data: docs.map(analysisSummary), meta: { kind, limit, count: docs.length } };
  }

  @Get(':analysisId')
  @ApiOperation({
    summary: 'One analysis',
    description:
      'Scope analyses:read. Rate class analysis_read. While queued or running it carries Retry-After, meta.pollAfterMs and progress.',
  })
  @ApiEnvelopeResponse(
    200,
    envelope(
      {
        anyOf: [
          openApi.ref('Analysis'),
          {
            allOf: [
              openApi.ref('AnalysisSummary'),
              openApi.obj({
                kind: { type: 'string', enum: ['report'] },
                postIds: openApi.arrayOf(openApi.str()),
              }),
            ],
            description: 'A report',
          },
        ],
      },
      openApi.ref('AnalysisMeta'),
    ),
    {
      description: 'The analysis (a report is its summary with postIds); Retry-After while queued or running',
      headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
    },
  )
  @ApiErrorResponses({
    404: `Unknown analysis, or expired: analyses expire 7 days after creation (analysis_not_found); or ${TEAM_NOT_FOUND}`,
  })
  async get(
    @Principal() principal: Principal,
    @Param('analysisId') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const found = await this.analyses.findWithResult(principal.targetTeamId, id);
    const doc = found?.doc;
    if (doc?.kind === 'report')
      return { data: { ...analysisSummary(doc), postIds: doc.postIds }, meta: { status: doc.status } };
    if (!found || !doc)
      throw new AnalysisError(
        'analysis_not_found',
        `analysis ${id} not found (analyses expire 7 days after creation)`,
      );
    if (doc.status === 'queued' || doc.status === 'running') reply.header('Retry-After', RETRY_AFTER_SECONDS);
    return {
      data: analysisView(doc, found.result, teamQueryOf(principal)),
      meta: analysisMeta(doc),
    };
  }
}
