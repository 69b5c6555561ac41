import { CodedError } from '@analyst/contracts';

/**
 * Rule breaks of the identity aggregates. Each code maps to one HTTP status, in one place, in the
 * gateway (`identity-error.mapping.ts`).
 */
export const IDENTITY_ERROR_CODES = [
  'team_exists',
  'team_not_found',
  'parent_team_not_found',
  'parent_plan_without_sub_teams',
  'nested_sub_team',
  'invalid_team_name',
  'invalid_plan',
  'invalid_analysis_settings',
  'invalid_rate_limits',
  'invalid_map_allotment',
  'key_exists',
  'key_not_found',
  'key_revoked',
  'key_limit_reached',
  'plan_without_api',
  'invalid_key_name',
  'invalid_scopes',
  'invalid_key_id',
] as const;
export type IdentityErrorCode = (typeof IDENTITY_ERROR_CODES)[number];

export class IdentityError extends CodedError<IdentityErrorCode> {}
