import { Allow, IsOptional } from 'class-validator';
import { ApiError } from '@analyst/contracts';
import { IsQueryInteger, checkedQueryNumber, validateRequest } from '@analyst/platform';
import { STATEMENT_DEFAULT_LIMIT, STATEMENT_MAX_LIMIT } from '../queries/read-statement';

/** The query string of GET /admin/v1/teams/{teamId}/ledger, every rule a class-validator decorator. */
export class StatementQueryDto {
  @IsOptional()
  @IsQueryInteger(1, STATEMENT_MAX_LIMIT)
  limit?: string;

  /** An opaque token, not a request shape: readStatement decodes it and refuses what it cannot read. */
  @Allow()
  cursor?: string;
}

export interface StatementQuery {
  limit: number;
  /** An empty cursor is no cursor: the first page. */
  cursor: string | undefined;
}

/**
 * The statement's query: StatementQueryDto's rules (400), then read. The route passes only `limit`
 * and `cursor`, each as one text (Nest joins a repeated one with commas): admin routes are outside
 * the OpenAPI document, so the platform's QueryRules does not refuse other parameters there, and
 * this route has always ignored them.
 */
export function parseStatementQuery(query: { limit?: string; cursor?: string }): StatementQuery {
  const valid = validateRequest(StatementQueryDto, query, (m) => new ApiError(400, m));
  return {
    limit: checkedQueryNumber(valid.limit, STATEMENT_DEFAULT_LIMIT),
    cursor: valid.cursor || undefined,
  };
}
