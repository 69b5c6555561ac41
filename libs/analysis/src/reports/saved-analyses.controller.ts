import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiError } from '@analyst/contracts';
import { Principal } from '@analyst/gateway';
import { READ_STORE, type ReadStore } from '@analyst/platform';
import { parseLimit } from '../analyses/analyses.controller';
import { SAVED_ANALYSES, type SavedAnalysisDoc } from '../analyses/analyses.projector';

/** Sanitized row: never share tokens, invite emails or payloads. */
const savedRow = (d: SavedAnalysisDoc) => ({ id: d._id, name: d.name, kind: d.kind, analysisId: d.analysisId, savedBy: d.savedBy, createdAt: d.createdAt });

@Controller()
export class SavedAnalysesController {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  @Get('saved-analyses')
  async list(@Principal() principal: Principal, @Query() query: Record<string, unknown>) {
    const limit = parseLimit(query.limit, 50);
    const filter: Record<string, unknown> = { teamId: principal.targetTeamId };
    if (query.kind !== undefined) filter.kind = String(query.kind);
    const docs = await this.store.collection<SavedAnalysisDoc>(SAVED_ANALYSES).find(filter, { sort: { createdAt: -1, _id: -1 }, limit });
    return { data: docs.map(savedRow), meta: { limit, count: docs.length } };
  }

  @Get('insights')
  async insights(@Principal() principal: Principal, @Query('snapshot_id') snapshotId?: string) {
    if (!snapshotId) throw new ApiError(400, 'snapshot_id is required (an id from the saved-analyses list)', 'invalid_filter');
    const doc = await this.store.collection<SavedAnalysisDoc>(SAVED_ANALYSES).findOne({ _id: snapshotId });
    if (!doc || doc.teamId !== principal.targetTeamId) throw new ApiError(404, `saved analysis ${snapshotId} not found`, 'insight_not_found');
    return { data: { ...savedRow(doc), insights: doc.payload }, meta: {} };
  }
}
