import { domainErrorMapping } from '@analyst/platform';
import { IdentityError, type IdentityErrorCode } from '@analyst/domain-identity';

/** The one place identity rule breaks become HTTP statuses. */
const STATUS: Record<IdentityErrorCode, number> = {
  team_exists: 409,
  team_not_found: 404,
  parent_team_not_found: 404,
  parent_plan_without_sub_teams: 400,
  nested_sub_team: 400,
  invalid_team_name: 400,
  invalid_plan: 400,
  invalid_analysis_settings: 400,
  invalid_rate_limits: 400,
  invalid_map_allotment: 400,
  key_exists: 409,
  key_not_found: 404,
  key_revoked: 409,
  key_limit_reached: 409,
  plan_without_api: 403,
  invalid_key_name: 400,
  invalid_scopes: 400,
  invalid_key_id: 400,
};

export const toApiError = domainErrorMapping(IdentityError, STATUS);
