import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '@analyst/contracts';
import { ApiRoute, Principal } from '@analyst/gateway';
import { JOB_STATUSES, type JobStatus } from '@analyst/domain-content';
import { JobReader } from '../jobs/job-reader';
import { jobHeaders, jobMeta, jobSummary, renderJob } from '../jobs/job-view';
import { correlationIdOf, send } from './http-helpers';

const DEFAULT_LIST_LIMIT = 50;

@Controller('content/jobs')
export class ContentJobsController {
  constructor(private readonly jobs: JobReader) {}

  @Get()
  @ApiRoute('GET /content/jobs')
  async list(@Principal() principal: Principal, @Query() query: Record<string, string | string[] | undefined>): Promise<unknown> {
    const unknown = Object.keys(query).filter((k) => !['status', 'limit', 'teamId'].includes(k));
    if (unknown.length > 0) throw new ApiError(400, `unknown query parameter(s): ${unknown.join(', ')}`);
    const status = query.status;
    if (status !== undefined && (typeof status !== 'string' || !(JOB_STATUSES as readonly string[]).includes(status))) {
      throw new ApiError(400, `status must be one of: ${JOB_STATUSES.join(', ')}`);
    }
    let limit = DEFAULT_LIST_LIMIT;
    if (query.limit !== undefined) {
      limit = Number(query.limit);
      if (typeof query.limit !== 'string' || !Number.isInteger(limit) || limit < 1 || limit > 100) throw new ApiError(400, 'limit must be an integer from 1 to 100');
    }
    const jobs = await this.jobs.list(principal.targetTeamId, status as JobStatus | undefined, limit);
    return { data: jobs.map(jobSummary), meta: { count: jobs.length, limit, filters: { status: status ?? null } } };
  }

  @Get(':jobId')
  @ApiRoute('GET /content/jobs/{jobId}')
  async get(@Principal() principal: Principal, @Param('jobId') jobId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { job, posts } = await this.jobs.read(principal.targetTeamId, jobId, correlationIdOf(request));
    send(reply, 200, { data: renderJob(job, posts), meta: jobMeta(job) }, jobHeaders(job));
  }
}
