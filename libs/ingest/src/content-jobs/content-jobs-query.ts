import { Allow, IsIn, IsOptional } from 'class-validator';
import { IsQueryInteger, checkedQueryNumber, validateRequest } from '@analyst/platform';
import { JOB_STATUSES, type JobStatus } from '@analyst/domain-content';
import { IntakeError } from '../request/intake-error';

export const JOBS_DEFAULT_LIMIT = 50;

/** The query string of GET /content/jobs as sent, every rule a class-validator decorator. */
export class ContentJobsQueryDto {
  @IsOptional()
  @IsIn(JOB_STATUSES, { message: `status must be one of: ${JOB_STATUSES.join(', ')}` })
  status?: JobStatus;

  @IsOptional()
  @IsQueryInteger(1, 100)
  limit?: string;

  /** The Enterprise key's target team: the gateway reads and checks it. */
  @Allow()
  teamId?: unknown;
}

export interface ContentJobsQuery {
  status: JobStatus | undefined;
  limit: number;
}

/** The query of GET /content/jobs: ContentJobsQueryDto's rules (400 invalid_request), then read. */
export function parseContentJobsQuery(query: Record<string, unknown>): ContentJobsQuery {
  const valid = validateRequest(ContentJobsQueryDto, query, (m) => new IntakeError('invalid_request', m));
  return {
    status: valid.status,
    limit: checkedQueryNumber(valid.limit, JOBS_DEFAULT_LIMIT),
  };
}
