import type { PlanId } from './plans';
import type { Scope } from './scopes';

/**
 * Events of the gateway's team and key streams (`team-<id>`, `apikey-<id>`). Other services (the
 * ledger's MAP allotment, ingest's plan checks) consume them, so their shapes are shared here.
 */
export interface TeamCreated {
  type: 'TeamCreated';
  data: {
    teamId: string;
    name: string;
    plan: PlanId;
    parentTeamId: string | null;
    monthlyMapAllotment: number;
  };
}
export interface TeamPlanChanged {
  type: 'TeamPlanChanged';
  data: { teamId: string; plan: PlanId; monthlyMapAllotment: number };
}
/** Operator override of the plan's monthly MAP allotment. */
export interface TeamMapAllotmentSet {
  type: 'TeamMapAllotmentSet';
  data: { teamId: string; monthlyMapAllotment: number };
}
export interface TeamAnalysisSettingsChanged {
  type: 'TeamAnalysisSettingsChanged';
  data: { teamId: string; scoreVersion: 1 | 2 | 3; engagementWeight: number };
}
/** Operator raise of rate limits; absent classes keep the contract's defaults. */
export interface TeamRateLimitsSet {
  type: 'TeamRateLimitsSet';
  data: {
    teamId: string;
    limits: Record<string, { perMinute?: number; perDay?: number }>;
    dailyBytes?: number;
  };
}
export type TeamEvent =
  TeamCreated | TeamPlanChanged | TeamMapAllotmentSet | TeamAnalysisSettingsChanged | TeamRateLimitsSet;

export interface ApiKeyCreated {
  type: 'ApiKeyCreated';
  data: { keyId: string; teamId: string; name: string; scopes: Scope[]; secretHash: string };
}
export interface ApiKeyRotated {
  type: 'ApiKeyRotated';
  data: { keyId: string; teamId: string; secretHash: string };
}
export interface ApiKeyRevoked {
  type: 'ApiKeyRevoked';
  data: { keyId: string; teamId: string };
}
export type ApiKeyEvent = ApiKeyCreated | ApiKeyRotated | ApiKeyRevoked;

export const teamStream = (teamId: string): string => `team-${teamId}`;
export const apiKeyStream = (keyId: string): string => `apikey-${keyId}`;
