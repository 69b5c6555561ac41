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
