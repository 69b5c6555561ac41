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
import { analysisSummary } from '../analyses/analysis-view';
import { AnalysisError } from '../errors/analysis-error';
import { toApiError } from '../errors/analysis-error.mapping';
import { SaveAnalysisBody, SaveReportBody } from './admin-reports.dto';
import { SaveReportHandler } from './save-report.handler';
import { SavedAnalysisCommands } from './saved-analysis-commands';

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

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
    private readonly saveReport: SaveReportHandler,
    private readonly readSide: CommentReadSide,
    private readonly savedAnalyses: SavedAnalysisCommands,
    private readonly projections: ProjectionService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  @Post('reports')
  @HttpCode(201)
  async report(@Param('teamId') teamId: string, @Body() body: SaveReportBody) {
    const doc = await this.saveReport.save({
      teamId,
      campaignId: body.campaignId.trim(),
      title: body.title.trim(),
      summary: body.summary.trim(),
      savedBy: textOrNull(body.savedBy),
    });
    return { data: { ...analysisSummary(doc), postIds: doc.postIds } };
  }

  @Post('saved-analyses')
  @HttpCode(201)
  async save(@Param('teamId') teamId: string, @Body() body: SaveAnalysisBody) {
    // Like every other admin route: an unknown team is 404, and nothing is written for it.
    if (!(await this.readSide.team(teamId)).known)
      throw new AnalysisError('team_not_found', `team ${teamId} not found`);
    const savedId = this.ids.next('sa_');
    const emails = Array.isArray(body.inviteEmails)
      ? body.inviteEmails.filter((e): e is string => typeof e === 'string')
      : [];
    const data: SavedAnalysisData = {
      savedId,
      teamId,
      name: body.name.trim(),
      kind: (body.kind ?? 'snapshot').trim(),
      analysisId: textOrNull(body.analysisId),
      savedBy: textOrNull(body.savedBy),
      payload: body.payload ?? null,
      shareToken: textOrNull(body.shareToken),
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
