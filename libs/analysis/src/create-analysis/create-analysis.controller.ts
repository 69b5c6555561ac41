import { Body, Controller, HttpCode, Post, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  locationOf,
  Principal,
  teamQueryOf,
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiJsonBody,
  ApiKeyAuth,
  envelope,
  openApi,
  pollHeaders,
  ErrorMappingFilter,
} from '@analyst/platform';
import { toApiError } from '../errors/analysis-error.mapping';
import { analysisMeta, analysisView, RETRY_AFTER_SECONDS } from '../analyses/analysis-view';
import { parseAnalysisRequest } from './analysis-request';
import { CreateAnalysisHandler } from './create-analysis.handler';

const ANALYSIS = envelope(openApi.ref('Analysis'), openApi.ref('AnalysisMeta'));

/** POST /analyses: the body read once into an AnalysisRequest, then created inline (201) or queued as a job (202). */
@ApiTags('analyses')
@ApiKeyAuth()
@UseFilters(new ErrorMappingFilter(toApiError))
@Controller('analyses')
export class CreateAnalysisController {
  constructor(private readonly createAnalysis: CreateAnalysisHandler) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create an analysis over a selection of posts',
    description:
      'Scope analyses:run. Rate class analysis_create (analysis_search with an AI search). Without search (or with a keyword search) and at most 100 posts it is computed inline: 201 ready. ' +
      'An AI search or more than 100 posts runs as a job: 202 queued; poll the Location.',
  })
  @ApiJsonBody('AnalysisRequest')
  @ApiEnvelopeResponse(201, ANALYSIS, {
    description: 'Computed inline: status ready (or failed), payload populated',
  })
  @ApiEnvelopeResponse(202, ANALYSIS, {
    description: 'Queued as a job: status queued, pollAfterMs 3000; poll the Location',
    headers: pollHeaders('/analyst/v1/analyses/<analysis_id>'),
  })
  @ApiErrorResponses({
    400: 'Invalid body, a selection that matches nothing, or invalid filter values (invalid_request, invalid_selection, empty_selection)',
  })
  async create(
    @Principal() principal: Principal,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const request = parseAnalysisRequest(body);
    const { doc, result } = await this.createAnalysis.create(principal.targetTeamId, request);
    if (doc.status !== 'ready' && doc.status !== 'failed') {
      reply.status(202);
      reply.header('Location', locationOf(`/analyses/${doc._id}`, principal));
      reply.header('Retry-After', RETRY_AFTER_SECONDS);
    }
    return { data: analysisView(doc, result, teamQueryOf(principal)), meta: analysisMeta(doc) };
  }
}
