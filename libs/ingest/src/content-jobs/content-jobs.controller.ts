import { Controller, Get, Param, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiRoute,
  ErrorMappingFilter,
  Principal,
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  ApiLimitQuery,
  envelope,
  listEnvelope,
  openApi,
  TEAM_NOT_FOUND,
} from '@analyst/platform';
import { JOB_STATUSES } from '@analyst/domain-content';
import { JOBS_DEFAULT_LIMIT, parseContentJobsQuery } from './content-jobs-query';
import { JobReader } from './job-reader';
import { jobHeaders, jobMeta, jobSummary, renderJob } from './job-view';
import { correlationIdOf, send } from '../http/http-helpers';
import { toApiError } from '../http/ingest-error.mapping';

@ApiTags('content')
@ApiKeyAuth()
@Controller('content/jobs')
@UseFilters(new ErrorMappingFilter(toApiError))
export class ContentJobsController {
  constructor(private readonly jobs: JobReader) {}

  @Get()
  @ApiRoute('GET /content/jobs')
  @ApiOperation({
    summary: 'Recent content jobs of the team, newest first, as summaries',
    description: 'Scope posts:read. Rate class content_jobs.',
  })
  @ApiQuery({
    name: 'status',
    required: false,
    description: 'Only jobs in this status.',
    schema: { type: 'string', enum: [...JOB_STATUSES] },
  })
  @ApiLimitQuery(JOBS_DEFAULT_LIMIT)
  @ApiEnvelopeResponse(
    200,
    listEnvelope(
      openApi.ref('ContentJobSummary'),
      openApi.obj({
        count: openApi.int(),
        limit: openApi.int(),
        filters: openApi.obj({ status: openApi.nullable(openApi.str()) }),
      }),
    ),
    {
      description: 'Job summaries',
    },
  )
  @ApiErrorResponses({
    400: 'Unknown query parameter, unknown status or a limit outside 1 to 100 (invalid_request)',
  })
  async list(
    @Principal() principal: Principal,
    @Query() query: Record<string, string | string[] | undefined>,
  ): Promise<unknown> {
    const { status, limit } = parseContentJobsQuery(query);
    const jobs = await this.jobs.list(principal.targetTeamId, status, limit);
    return {
      data: jobs.map(jobSummary),
      meta: { count: jobs.length, limit, filters: { status: status ?? null } },
    };
  }

  @Get(':jobId')
  @ApiRoute('GET /content/jobs/{jobId}')
  @ApiOperation({
    summary: 'Poll a content job',
    description:
      'Scope posts:read. Rate class content_jobs. Each read refreshes counts.syncing, complete and failed from the member posts and settles the job.',
  })
  @ApiEnvelopeResponse(200, envelope(openApi.ref('ContentJob'), openApi.ref('ContentJobMeta')), {
    description: 'The job; Retry-After while it is not terminal',
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  })
  @ApiErrorResponses({ 404: `Unknown or expired job (job_not_found), or ${TEAM_NOT_FOUND}` })
  async get(
    @Principal() principal: Principal,
    @Param('jobId') jobId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { job, posts } = await this.jobs.read(principal.targetTeamId, jobId, correlationIdOf(request));
    send(reply, 200, { data: renderJob(job, posts), meta: jobMeta(job) }, jobHeaders(job));
  }
}
