import type { CreatedKey } from '../identity/identity.service';
import type { ApiKeyDoc, TeamDoc } from '../identity/identity-read-models';

export function teamView(team: TeamDoc) {
  return {
    id: team._id,
    name: team.name,
    plan: team.plan,
    parentTeamId: team.parentTeamId,
    monthlyMapAllotment: team.monthlyMapAllotment,
    analysisSettings: team.analysisSettings,
    rateLimits: team.rateLimits,
    createdAt: team.createdAt,
    updatedAt: team.updatedAt,
  };
}

/** A key as operators see it: never the secret or its hash. */
export function keyView(key: ApiKeyDoc) {
  return {
    id: key._id,
    teamId: key.teamId,
    name: key.name,
    scopes: key.scopes,
    status: key.status,
    createdAt: key.createdAt,
    rotatedAt: key.rotatedAt,
    revokedAt: key.revokedAt,
  };
}

/** A key as created or rotated: the only answer that shows its secret and the full key. */
export function createdKeyView(key: CreatedKey) {
  return {
    id: key.id,
    name: key.name,
    teamId: key.teamId,
    secret: key.secret,
    scopes: key.scopes,
    key: key.key,
  };
}
