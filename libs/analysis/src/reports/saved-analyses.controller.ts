import { Controller, Get, Inject, Query, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  Principal,
  ApiEnvelopeResponse,
  ApiErrorResponses,
  ApiKeyAuth,
  ApiLimitQuery,
  envelope,
  listEnvelope,
  openApi,
  READ_STORE,
  TEAM_NOT_FOUND,
  type ReadStore,
  validateRequest,
  ErrorMappingFilter,
  checkedQueryNumber,
} from '@analyst/platform';
import { SAVED_ANALYSES, type SavedAnalysisDoc } from '@analyst/analyses-read';
import { AnalysisError } from '../errors/analysis-error';
import { toApiError } from '../errors/analysis-error.mapping';
import { refuseAs } from '../validation/refusal';
import { InsightsQueryDto, SavedAnalysisListQueryDto } from './saved-analyses-query.dto';

/** Sanitized row: never share tokens, invite emails or payloads. */
const savedRow = (d: SavedAnalysisDoc) => ({
  id: d._id,
  name: d.name,
  kind: d.kind,
  analysisId: d.analysisId,
  savedBy: d.savedBy,
  createdAt: d.createdAt,
});

const SAVED_ROW = openApi.obj({
  id: openApi.str('Use as snapshot_id with GET /insights.'),
  name: openApi.str(),
  kind: openApi.str(),
  analysisId: openApi.nullable(openApi.str()),
  savedBy: openApi.nullable(openApi.str()),
  createdAt: openApi.timestamp(),
});

@ApiTags('insights')
@ApiKeyAuth()
@UseFilters(new ErrorMappingFilter(toApiError))
@Controller()
export class SavedAnalysesController {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  @Get('saved-analyses')
  @ApiOperation({
    summary: 'Analyses teammates saved or shared in the app, newest first',
    description: 'Scope insights:read. Sanitized: never share tokens, invite emails or payloads.',
  })
  @ApiLimitQuery(50)
  @ApiQuery({
    name: 'kind',
    required: false,
    description: 'Only saved analyses of this kind.',
    schema: openApi.str(),
  })
  @ApiEnvelopeResponse(
    200,
    listEnvelope(SAVED_ROW, openApi.obj({ limit: openApi.int(), count: openApi.int() })),
    { description: 'Saved-analysis summaries' },
  )
  @ApiErrorResponses({ 400: 'A limit outside 1 to 100 (invalid_filter)' })
  async list(@Principal() principal: Principal, @Query() query: Record<string, unknown>) {
    const valid = validateRequest(SavedAnalysisListQueryDto, query, refuseAs('invalid_filter'));
    const limit = checkedQueryNumber(valid.limit, 50);
    const filter: Record<string, unknown> = { teamId: principal.targetTeamId };
    if (valid.kind !== undefined) filter.kind = String(valid.kind);
    const docs = await this.store
      .collection<SavedAnalysisDoc>(SAVED_ANALYSES)
      .find(filter, { sort: { createdAt: -1, _id: -1 }, limit });
    return { data: docs.map(savedRow), meta: { limit, count: docs.length } };
  }

  @Get('insights')
  @ApiOperation({ summary: 'The stored insights of one saved analysis', description: 'Scope insights:read.' })
  @ApiQuery({
    name: 'snapshot_id',
    required: true,
    description: 'An id from the saved-analyses list.',
    schema: openApi.str(),
  })
  @ApiEnvelopeResponse(
    200,
    envelope({
      allOf: [
        SAVED_ROW,
        openApi.obj({ insights: { description: 'The saved payload, as the app stored it.' } }),
      ],
    }),
    { description: 'The saved analysis and its insights' },
  )
  @ApiErrorResponses({
    400: 'snapshot_id is missing (invalid_filter)',
    404: `Unknown saved analysis (insight_not_found), or ${TEAM_NOT_FOUND}`,
  })
  async insights(@Principal() principal: Principal, @Query() query: Record<string, unknown>) {
    const { snapshot_id: snapshotId } = validateRequest(InsightsQueryDto, query, refuseAs('invalid_filter'));
    const doc = await this.store.collection<SavedAnalysisDoc>(SAVED_ANALYSES).findOne({ _id: snapshotId });
    if (!doc || doc.teamId !== principal.targetTeamId)
      throw new AnalysisError('insight_not_found', `saved analysis ${snapshotId} not found`);
    return { data: { ...savedRow(doc), insights: doc.payload }, meta: {} };
  }
}
