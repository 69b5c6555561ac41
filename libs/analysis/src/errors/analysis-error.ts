/**
 * What the analysis service refuses, each with a code a client can branch on. Routes, parsers and
 * the service raise these; analysis-error.mapping.ts gives each code its HTTP status in one place.
 */
export const ANALYSIS_ERROR_CODES = [
  'invalid_request',
  'invalid_filter',
  'invalid_cursor',
  'invalid_selection',
  'empty_selection',
  'analysis_not_found',
  'post_not_found',
  'metrics_not_available',
  'collection_not_found',
  'campaign_not_found',
  'insight_not_found',
  'team_not_found',
] as const;
export type AnalysisErrorCode = (typeof ANALYSIS_ERROR_CODES)[number];

export class AnalysisError extends Error {
  override readonly name = 'AnalysisError';
  constructor(
    readonly code: AnalysisErrorCode,
    message: string,
  ) {
    super(message);
  }
}
