import type { PlanId, Scope } from '@analyst/contracts';
import type { RateCaps } from '@analyst/domain-identity';
import type { ReadStore } from '@analyst/platform';

export const TEAMS_COLLECTION = 'identity_teams';
export const API_KEYS_COLLECTION = 'identity_api_keys';

export interface TeamDoc {
  _id: string;
  name: string;
  plan: PlanId;
  parentTeamId: string | null;
  monthlyMapAllotment: number;
  analysisSettings: { scoreVersion: 1 | 2 | 3; engagementWeight: number };
  rateLimits: { limits: Record<string, Partial<RateCaps>>; dailyBytes?: number };
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

export interface ApiKeyDoc {
  _id: string;
  teamId: string;
  name: string;
  scopes: Scope[];
  /** Hex SHA-256 of the secret; never leaves the gateway. */
  secretHash: string;
  status: 'active' | 'revoked';
  createdAt: string;
  rotatedAt: string | null;
  revokedAt: string | null;
  [key: string]: unknown;
}

/** Framework-free reads of the team read model, for any service that needs a team's plan or settings. */
export async function findTeam(store: ReadStore, teamId: string): Promise<TeamDoc | null> {
  return store.collection<TeamDoc>(TEAMS_COLLECTION).findOne({ _id: teamId });
}

export async function findSubTeams(store: ReadStore, teamId: string): Promise<TeamDoc[]> {
  return store
    .collection<TeamDoc>(TEAMS_COLLECTION)
    .find({ parentTeamId: teamId }, { sort: { createdAt: 1, _id: 1 } });
}

export async function findApiKey(store: ReadStore, keyId: string): Promise<ApiKeyDoc | null> {
  return store.collection<ApiKeyDoc>(API_KEYS_COLLECTION).findOne({ _id: keyId });
}

export async function findTeamKeys(store: ReadStore, teamId: string): Promise<ApiKeyDoc[]> {
  return store
    .collection<ApiKeyDoc>(API_KEYS_COLLECTION)
    .find({ teamId }, { sort: { createdAt: 1, _id: 1 } });
}
