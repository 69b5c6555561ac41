import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@analyst/platform';
import { type AnalysisDoc } from '@analyst/analyses-read';
import { CommentReadSide } from '@analyst/comment-index';
import { AnalysisCommands } from '../analyses/analysis-commands';
import { AnalysisQueries } from '../analyses/analysis-queries';
import { MAX_SELECTION } from '../create-analysis/analysis-request.dto';
import { AnalysisError } from '../errors/analysis-error';
import { findPosts, NO_POST_FILTERS } from '../posts/post-query';

/** A teammate's report on a campaign, saved by the app (admin POST .../reports) over the campaign's complete posts. */
@Injectable()
export class SaveReportHandler {
  constructor(
    private readonly commands: AnalysisCommands,
    private readonly queries: AnalysisQueries,
    private readonly readSide: CommentReadSide,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  async save(input: {
    teamId: string;
    campaignId: string;
    title: string;
    summary: string;
    savedBy: string | null;
  }): Promise<AnalysisDoc> {
    const team = await this.readSide.team(input.teamId);
    const campaign = team.collections.get(input.campaignId);
    if (!campaign || campaign.type !== 'campaign')
      throw new AnalysisError(
        'campaign_not_found',
        `campaign ${input.campaignId} not found on team ${input.teamId}`,
      );
    const posts = findPosts(team, NO_POST_FILTERS, team.collectionTree(input.campaignId)).slice(
      0,
      MAX_SELECTION,
    );
    const analysisId = this.ids.next('an_');
    await this.commands.recordAndProject(analysisId, input.teamId, {
      type: 'SaveReport',
      data: {
        analysisId,
        ...input,
        postIds: posts.map((p) => p.id),
        at: this.clock.now().toISOString(),
        expiresAt: null,
      },
    });
    return (await this.queries.find(input.teamId, analysisId))!;
  }
}
