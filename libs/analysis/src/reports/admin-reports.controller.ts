import { Body, Controller, HttpCode, Inject, Param, Post, UseGuards, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  AdminTokenGuard,
  CLOCK,
  ID_GENERATOR,
  ProjectionService,
  type Clock,
  type IdGenerator,
  ErrorMappingFilter,
} from '@analyst/platform';
import { CommentReadSide } from '@analyst/comment-index';
import type { SavedAnalysisData } from '@analyst/domain-analysis';
import { AnalysisService } from '../analyses/analysis.service';
import { analysisSummary } from '../analyses/analysis-view';
import { AnalysisError } from '../errors/analysis-error';
import { toApiError } from '../errors/analysis-error.mapping';
import { SavedAnalysisCommands } from './saved-analysis-commands';

const text = (v: unknown, name: string, max = 20_000): string => {
  if (typeof v !== 'string' || v.trim() === '' || v.length > max)
    throw new AnalysisError(
      'invalid_request',
      `${name} must be a non-empty string of at most ${max} characters`,
    );
  return v.trim();
};

/**
 * The app backend stores what teammates write and save: reports on a campaign (listed under
 * GET /analyses?kind=report) and saved analyses (GET /saved-analyses, GET /insights).
 */
@ApiExcludeController()
@UseGuards(AdminTokenGuard)
@UseFilters(new ErrorMappingFilter(toApiError))
@Controller('admin/v1/teams/:teamId')
export class AdminReportsController {
  constructor(
    private readonly analyses: AnalysisService,
    private readonly readSide: CommentReadSide,
    private readonly savedAnalyses: SavedAnalysisCommands,
    private readonly projections: ProjectionService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Post('reports')
  @HttpCode(201)
  async report(@Param('teamId') teamId: string, @Body() body: Record<string, unknown>) {
    const doc = await this.analyses.saveReport({
      teamId,
      campaignId: text(body?.campaignId, 'campaignId', 200),
      title: text(body?.title, 'title', 500),
      summary: text(body?.summary, 'summary'),
      savedBy: typeof body?.savedBy === 'string' ? body.savedBy : null,
    });
    return { data: { ...analysisSummary(doc), postIds: doc.postIds } };
  }

  @Post('saved-analyses')
  @HttpCode(201)
  async save(@Param('teamId') teamId: string, @Body() body: Record<string, unknown>) {
    // Like every other admin route: an unknown team is 404, and nothing is written for it.
    if (!(await this.readSide.team(teamId)).known)
      throw new AnalysisError('team_not_found', `team ${teamId} not found`);
    const savedId = this.ids.next('sa_');
    const emails = Array.isArray(body?.inviteEmails)
      ? body.inviteEmails.filter((e): e is string => typeof e === 'string')
      : [];
    const data: SavedAnalysisData = {
      savedId,
      teamId,
      name: text(body?.name, 'name', 500),
      kind: text(body?.kind ?? 'snapshot', 'kind', 50),
      analysisId: typeof body?.analysisId === 'string' ? body.analysisId : null,
      savedBy: typeof body?.savedBy === 'string' ? body.savedBy : null,
      payload: body?.payload ?? null,
      shareToken: typeof body?.shareToken === 'string' ? body.shareToken : null,
      inviteEmails: emails,
      at: this.clock.now().toISOString(),
    };
    const outcome = await this.savedAnalyses.handle(
      savedId,
      { type: 'SaveAnalysisInApp', data },
      { correlationId: savedId, teamId },
    );
    await this.projections.waitFor(outcome.position);
    return { data: { id: savedId, name: data.name, kind: data.kind, createdAt: data.at } };
  }
}
