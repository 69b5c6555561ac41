import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '@analyst/contracts';
import { locationOf, Principal, teamQueryOf } from '@analyst/gateway';
import { AnalysisService, POLL_AFTER_MS } from './analysis.service';
import { parseAnalysisRequest } from './analysis-request';
import { analysisMeta, analysisSummary, analysisView } from './analysis-view';

const RETRY_AFTER_SECONDS = String(Math.ceil(POLL_AFTER_MS / 1000));
const KINDS = ['snapshot', 'search', 'report', 'all'];

export function parseLimit(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < 1 || n > 100) throw new ApiError(400, `limit must be an integer from 1 to 100, got "${String(value)}"`, 'invalid_filter');
  return n;
}

@Controller('analyses')
export class AnalysesController {
  constructor(private readonly analyses: AnalysisService) {}

  @Post()
  @HttpCode(201)
  async create(@Principal() principal: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const request = parseAnalysisRequest(body);
    const doc = await this.analyses.create(principal.targetTeamId, request);
    if (doc.status !== 'ready' && doc.status !== 'failed') {
      reply.status(202);
      reply.header('Location', locationOf(`/analyses/${doc._id}`, principal));
      reply.header('Retry-After', RETRY_AFTER_SECONDS);
    }
    return { data: analysisView(doc, teamQueryOf(principal)), meta: analysisMeta(doc) };
  }

  @Get()
  async list(@Principal() principal: Principal, @Query() query: Record<string, unknown>) {
    for (const key of Object.keys(query)) if (!['limit', 'kind', 'teamId'].includes(key)) throw new ApiError(400, `unknown query parameter "${key}"`, 'invalid_filter');
    const limit = parseLimit(query.limit, 50);
    const kind = query.kind === undefined ? 'all' : String(query.kind);
    if (!KINDS.includes(kind)) throw new ApiError(400, `kind must be one of ${KINDS.join(', ')}`, 'invalid_filter');
    const docs = await this.analyses.list(principal.targetTeamId, kind, limit);
    return { data: docs.map(analysisSummary), meta: { kind, limit, count: docs.length } };
  }

  @Get(':analysisId')
  async get(@Principal() principal: Principal, @Param('analysisId') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const doc = await this.analyses.find(principal.targetTeamId, id);
    if (doc?.kind === 'report') return { data: { ...analysisSummary(doc), postIds: doc.postIds }, meta: { status: doc.status } };
    if (!doc) throw new ApiError(404, `analysis ${id} not found (analyses expire 7 days after creation)`, 'analysis_not_found');
    if (doc.status === 'queued' || doc.status === 'running') reply.header('Retry-After', RETRY_AFTER_SECONDS);
    return { data: analysisView(doc, teamQueryOf(principal)), meta: analysisMeta(doc) };
  }
}
