import { Allow, IsIn, IsOptional } from 'class-validator';
import { IsPageLimit } from '../validation/page-limit.rules';

export const ANALYSIS_KINDS = ['snapshot', 'search', 'report', 'all'] as const;

/** GET /analyses: a page of the team's analyses of one kind. */
export class AnalysisListQueryDto {
  @IsPageLimit()
  limit?: string;

  @IsOptional()
  @IsIn(ANALYSIS_KINDS, { message: `kind must be one of ${ANALYSIS_KINDS.join(', ')}` })
  kind?: string;

  /** The Enterprise key's target team: the gateway reads and checks it. */
  @Allow()
  teamId?: unknown;
}
