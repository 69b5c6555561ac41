import type { ApiKeyEvent, TeamEvent } from '@analyst/contracts';
import { DEFAULT_ANALYSIS_SETTINGS } from '@analyst/domain-identity';
import type { Projector, ReadModelSet, RecordedEvent } from '@analyst/platform';
import { API_KEYS_COLLECTION, TEAMS_COLLECTION, type ApiKeyDoc, type TeamDoc } from './identity-read-models';

function missing(name: string, event: RecordedEvent): Error {
  return new Error(`${name}: ${event.type} on ${event.streamId} before the document exists`);
}

/** One document per team: plan, allotment, analysis settings and rate-limit raises. */
export const teamsProjector: Projector<TeamDoc, TeamEvent> = {
  name: 'identity-teams',
  collection: TEAMS_COLLECTION,
  eventTypes: [
    'TeamCreated',
    'TeamPlanChanged',
    'TeamMapAllotmentSet',
    'TeamAnalysisSettingsChanged',
    'TeamRateLimitsSet',
  ],
  indexes: [{ keys: { parentTeamId: 1 } }],
  documentIds: (event) => [event.data.teamId],
  evolve(doc, e) {
    const at = e.metadata.occurredAt;
    if (e.type === 'TeamCreated') {
      return {
        _id: e.data.teamId,
        name: e.data.name,
        plan: e.data.plan,
        parentTeamId: e.data.parentTeamId,
        monthlyMapAllotment: e.data.monthlyMapAllotment,
        analysisSettings: { ...DEFAULT_ANALYSIS_SETTINGS },
        rateLimits: { limits: {} },
        createdAt: at,
        updatedAt: at,
      };
    }
    if (!doc) throw missing('identity-teams', e);
    switch (e.type) {
      case 'TeamPlanChanged':
        return { ...doc, plan: e.data.plan, monthlyMapAllotment: e.data.monthlyMapAllotment, updatedAt: at };
      case 'TeamMapAllotmentSet':
        return { ...doc, monthlyMapAllotment: e.data.monthlyMapAllotment, updatedAt: at };
      case 'TeamAnalysisSettingsChanged':
        return {
          ...doc,
          analysisSettings: { scoreVersion: e.data.scoreVersion, engagementWeight: e.data.engagementWeight },
          updatedAt: at,
        };
      case 'TeamRateLimitsSet':
        return {
          ...doc,
          rateLimits: {
            limits: e.data.limits,
            ...(e.data.dailyBytes !== undefined ? { dailyBytes: e.data.dailyBytes } : {}),
          },
          updatedAt: at,
        };
      default: {
        const _never: never = e;
        return doc;
      }
    }
  },
};

/** One document per key, with the secret's hash (the only copy the read side holds). */
export const apiKeysProjector: Projector<ApiKeyDoc, ApiKeyEvent> = {
  name: 'identity-api-keys',
  collection: API_KEYS_COLLECTION,
  eventTypes: ['ApiKeyCreated', 'ApiKeyRotated', 'ApiKeyRevoked'],
  indexes: [{ keys: { teamId: 1 } }],
  documentIds: (event) => [event.data.keyId],
  evolve(doc, e) {
    const at = e.metadata.occurredAt;
    if (e.type === 'ApiKeyCreated') {
      return {
        _id: e.data.keyId,
        teamId: e.data.teamId,
        name: e.data.name,
        scopes: e.data.scopes,
        secretHash: e.data.secretHash,
        status: 'active',
        createdAt: at,
        rotatedAt: null,
        revokedAt: null,
      };
    }
    if (!doc) throw missing('identity-api-keys', e);
    switch (e.type) {
      case 'ApiKeyRotated':
        return { ...doc, secretHash: e.data.secretHash, rotatedAt: at };
      case 'ApiKeyRevoked':
        return { ...doc, status: 'revoked', revokedAt: at };
      default: {
        const _never: never = e;
        return doc;
      }
    }
  },
};

/** The gateway's read models in the shared read store (the read-model check's list). */
export const identityReadModels: ReadModelSet = {
  service: 'gateway',
  projectors: [teamsProjector, apiKeysProjector],
};
