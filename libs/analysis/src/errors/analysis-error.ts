import { CodedError } from '@analyst/contracts';

/**
 * What the analysis service refuses, each with a code a client can branch on. Routes, parsers and
 * the service raise these; analysis-error.mapping.ts gives each code its HTTP status in one place.
 */
export type AnalysisErrorCode =
  | 'invalid_request'
  | 'invalid_filter'
  | 'invalid_cursor'
  | 'invalid_selection'
  | 'empty_selection'
  | 'analysis_not_found'
  | 'post_not_found'
  | 'metrics_not_available'
  | 'collection_not_found'
  | 'campaign_not_found'
  | 'insight_not_found'
  | 'team_not_found';

export class AnalysisError extends CodedError<AnalysisErrorCode> {}
