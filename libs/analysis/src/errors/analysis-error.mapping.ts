import { domainErrorMapping } from '@analyst/platform';
import { AnalysisError, type AnalysisErrorCode } from './analysis-error';

/** The HTTP status of each analysis error; the envelope carries its code and message as raised. */
export const ANALYSIS_ERROR_STATUS: Record<AnalysisErrorCode, number> = {
  invalid_request: 400,
  invalid_filter: 400,
  invalid_cursor: 400,
  invalid_selection: 400,
  empty_selection: 400,
  analysis_not_found: 404,
  post_not_found: 404,
  metrics_not_available: 404,
  collection_not_found: 404,
  campaign_not_found: 404,
  insight_not_found: 404,
  team_not_found: 404,
};

/** The one place analysis errors become HTTP answers; anything else passes through. */
export const toApiError = domainErrorMapping(AnalysisError, ANALYSIS_ERROR_STATUS);
