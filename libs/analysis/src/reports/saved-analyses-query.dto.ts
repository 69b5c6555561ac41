import { Allow, IsNotEmpty } from 'class-validator';
import { IsPageLimit } from '../validation/page-limit.rules';

/** GET /saved-analyses: a page of saved analyses, of one kind if given. */
export class SavedAnalysisListQueryDto {
  @IsPageLimit()
  limit?: string;

  /** Any kind the app saved under; an unknown one lists nothing. */
  @Allow()
  kind?: unknown;

  /** The Enterprise key's target team: the gateway reads and checks it. */
  @Allow()
  teamId?: unknown;
}

/** GET /insights: one saved analysis. */
export class InsightsQueryDto {
  @IsNotEmpty({ message: 'snapshot_id is required (an id from the saved-analyses list)' })
  snapshot_id!: string;

  /** The Enterprise key's target team: the gateway reads and checks it. */
  @Allow()
  teamId?: unknown;
}
