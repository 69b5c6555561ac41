import type { Command, Decider } from '@analyst/eventsourcing';
import {
  PLANS,
  isPlanId,
  type PlanId,
  type TeamAnalysisSettingsChanged,
  type TeamCreated,
  type TeamEvent,
  type TeamMapAllotmentSet,
  type TeamPlanChanged,
  type TeamRateLimitsSet,
} from '@analyst/contracts';
import { IdentityError } from './identity-errors';
import { RATE_CLASSES, DAILY_RESPONSE_BYTES, isRateClassId, type RateCaps } from './rate-classes';

export const DEFAULT_ANALYSIS_SETTINGS = { scoreVersion: 3 as 1 | 2 | 3, engagementWeight: 1 };
export const MAX_ENGAGEMENT_WEIGHT = 10;

export interface TeamRateLimits {
  limits: Record<string, Partial<RateCaps>>;
  dailyBytes?: number;
}

export type TeamState =
  | { status: 'none' }
  | {
      status: 'active';
      teamId: string;
      name: string;
      plan: PlanId;
      parentTeamId: string | null;
      monthlyMapAllotment: number;
      analysisSettings: { scoreVersion: 1 | 2 | 3; engagementWeight: number };
      rateLimits: TeamRateLimits;
    };

/** What the service knows about the parent named in `CreateTeam` (null: no such team). */
export interface ParentTeamFacts {
  teamId: string;
  plan: PlanId;
  parentTeamId: string | null;
}

export type TeamCommand =
  | Command<
      'CreateTeam',
      {
        teamId: string;
        name: string;
        plan: string;
        parentTeamId: string | null;
        parent: ParentTeamFacts | null;
      }
    >
  | Command<'ChangePlan', { plan: string }>
  | Command<'SetMapAllotment', { monthlyMapAllotment: number }>
  | Command<'ChangeAnalysisSettings', { scoreVersion: number; engagementWeight: number }>
  | Command<'SetRateLimits', { limits: Record<string, Partial<RateCaps>>; dailyBytes?: number }>;

function requireActive(state: TeamState): Extract<TeamState, { status: 'active' }> {
  if (state.status !== 'active') throw new IdentityError('team_not_found', 'team not found');
  return state;
}

function requirePlan(plan: string): PlanId {
  if (!isPlanId(plan))
    throw new IdentityError('invalid_plan', `plan must be one of ${Object.keys(PLANS).join(', ')}`);
  return plan;
}

function createTeam(command: Extract<TeamCommand, { type: 'CreateTeam' }>, state: TeamState): TeamEvent[] {
  if (state.status !== 'none')
    throw new IdentityError('team_exists', `team ${command.data.teamId} already exists`);
  const name = command.data.name.trim();
  if (name.length === 0 || name.length > 200)
    throw new IdentityError('invalid_team_name', 'name must be 1 to 200 characters');
  const plan = requirePlan(command.data.plan);
  if (command.data.parentTeamId !== null) {
    const parent = command.data.parent;
    if (!parent || parent.teamId !== command.data.parentTeamId) {
      throw new IdentityError('parent_team_not_found', `parent team ${command.data.parentTeamId} not found`);
    }
    if (!PLANS[parent.plan].subTeams) {
      throw new IdentityError(
        'parent_plan_without_sub_teams',
        `parent team is on the ${parent.plan} plan, which has no sub-teams`,
      );
    }
    if (parent.parentTeamId !== null)
      throw new IdentityError('nested_sub_team', 'a sub-team cannot have sub-teams of its own');
  }
  const created: TeamCreated = {
    type: 'TeamCreated',
    data: {
      teamId: command.data.teamId,
      name,
      plan,
      parentTeamId: command.data.parentTeamId,
      monthlyMapAllotment: PLANS[plan].monthlyMapAllotment,
    },
  };
  return [created];
}

function changePlan(command: Extract<TeamCommand, { type: 'ChangePlan' }>, state: TeamState): TeamEvent[] {
  const team = requireActive(state);
  const plan = requirePlan(command.data.plan);
  if (plan === team.plan) return [];
  // A plan change brings the new plan's allotment; an operator override must be set again.
  const changed: TeamPlanChanged = {
    type: 'TeamPlanChanged',
    data: { teamId: team.teamId, plan, monthlyMapAllotment: PLANS[plan].monthlyMapAllotment },
  };
  return [changed];
}

function setMapAllotment(
  command: Extract<TeamCommand, { type: 'SetMapAllotment' }>,
  state: TeamState,
): TeamEvent[] {
  const team = requireActive(state);
  const { monthlyMapAllotment } = command.data;
  if (!Number.isInteger(monthlyMapAllotment) || monthlyMapAllotment < 0) {
    throw new IdentityError('invalid_map_allotment', 'monthlyMapAllotment must be an integer of at least 0');
  }
  if (monthlyMapAllotment === team.monthlyMapAllotment) return [];
  const set: TeamMapAllotmentSet = {
    type: 'TeamMapAllotmentSet',
    data: { teamId: team.teamId, monthlyMapAllotment },
  };
  return [set];
}

function changeAnalysisSettings(
  command: Extract<TeamCommand, { type: 'ChangeAnalysisSettings' }>,
  state: TeamState,
): TeamEvent[] {
  const team = requireActive(state);
  const { scoreVersion, engagementWeight } = command.data;
  if (scoreVersion !== 1 && scoreVersion !== 2 && scoreVersion !== 3) {
    throw new IdentityError('invalid_analysis_settings', 'scoreVersion must be 1, 2 or 3');
  }
  if (
    !Number.isFinite(engagementWeight) ||
    engagementWeight < 0 ||
    engagementWeight > MAX_ENGAGEMENT_WEIGHT
  ) {
    throw new IdentityError(
      'invalid_analysis_settings',
      `engagementWeight must be a number from 0 to ${MAX_ENGAGEMENT_WEIGHT}`,
    );
  }
  const current = team.analysisSettings;
  if (current.scoreVersion === scoreVersion && current.engagementWeight === engagementWeight) return [];
  const changed: TeamAnalysisSettingsChanged = {
    type: 'TeamAnalysisSettingsChanged',
    data: { teamId: team.teamId, scoreVersion, engagementWeight },
  };
  return [changed];
}

/** One rate class's raised caps: an object of perMinute and/or perDay, each no lower than the class's default. */
function raisedCaps(id: string, caps: Partial<RateCaps>): Partial<RateCaps> {
  if (!isRateClassId(id)) throw new IdentityError('invalid_rate_limits', `unknown rate class ${id}`);
  if (caps === null || typeof caps !== 'object' || Array.isArray(caps)) {
    throw new IdentityError('invalid_rate_limits', `limits.${id} must be an object { perMinute?, perDay? }`);
  }
  const unknown = Object.keys(caps).filter((k) => k !== 'perMinute' && k !== 'perDay');
  if (unknown.length > 0)
    throw new IdentityError(
      'invalid_rate_limits',
      `limits.${id}.${unknown[0]} is not a limit; use perMinute or perDay`,
    );
  if (caps.perMinute === undefined && caps.perDay === undefined) {
    throw new IdentityError(
      'invalid_rate_limits',
      `limits.${id} raises nothing; give perMinute, perDay or both`,
    );
  }
  const raised: Partial<RateCaps> = {};
  for (const window of ['perMinute', 'perDay'] as const) {
    const value = caps[window];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < RATE_CLASSES[id][window]) {
      throw new IdentityError(
        'invalid_rate_limits',
        `limits.${id}.${window} must be an integer of at least ${RATE_CLASSES[id][window]} (limits can only be raised)`,
      );
    }
    raised[window] = value;
  }
  return raised;
}

function setRateLimits(
  command: Extract<TeamCommand, { type: 'SetRateLimits' }>,
  state: TeamState,
): TeamEvent[] {
  const { teamId } = requireActive(state);
  const limits: Record<string, Partial<RateCaps>> = {};
  for (const [id, caps] of Object.entries(command.data.limits)) limits[id] = raisedCaps(id, caps);
  const { dailyBytes } = command.data;
  if (dailyBytes !== undefined && (!Number.isInteger(dailyBytes) || dailyBytes < DAILY_RESPONSE_BYTES)) {
    throw new IdentityError(
      'invalid_rate_limits',
      `dailyBytes must be an integer of at least ${DAILY_RESPONSE_BYTES} (limits can only be raised)`,
    );
  }
  const set: TeamRateLimitsSet = {
    type: 'TeamRateLimitsSet',
    data: { teamId, limits, ...(dailyBytes !== undefined ? { dailyBytes } : {}) },
  };
  return [set];
}

export function decideTeam(command: TeamCommand, state: TeamState): TeamEvent[] {
  switch (command.type) {
    case 'CreateTeam':
      return createTeam(command, state);
    case 'ChangePlan':
      return changePlan(command, state);
    case 'SetMapAllotment':
      return setMapAllotment(command, state);
    case 'ChangeAnalysisSettings':
      return changeAnalysisSettings(command, state);
    case 'SetRateLimits':
      return setRateLimits(command, state);
    default: {
      const _never: never = command;
      throw new Error(`unknown team command ${JSON.stringify(_never)}`);
    }
  }
}

export function evolveTeam(state: TeamState, event: TeamEvent): TeamState {
  switch (event.type) {
    case 'TeamCreated':
      return {
        status: 'active',
        teamId: event.data.teamId,
        name: event.data.name,
        plan: event.data.plan,
        parentTeamId: event.data.parentTeamId,
        monthlyMapAllotment: event.data.monthlyMapAllotment,
        analysisSettings: { ...DEFAULT_ANALYSIS_SETTINGS },
        rateLimits: { limits: {} },
      };
    case 'TeamPlanChanged':
      return state.status === 'active'
        ? { ...state, plan: event.data.plan, monthlyMapAllotment: event.data.monthlyMapAllotment }
        : state;
    case 'TeamMapAllotmentSet':
      return state.status === 'active'
        ? { ...state, monthlyMapAllotment: event.data.monthlyMapAllotment }
        : state;
    case 'TeamAnalysisSettingsChanged':
      return state.status === 'active'
        ? {
            ...state,
            analysisSettings: {
              scoreVersion: event.data.scoreVersion,
              engagementWeight: event.data.engagementWeight,
            },
          }
        : state;
    case 'TeamRateLimitsSet':
      return state.status === 'active'
        ? { ...state, rateLimits: { limits: event.data.limits, dailyBytes: event.data.dailyBytes } }
        : state;
    default: {
      const _never: never = event;
      return state;
    }
  }
}

export const teamDecider: Decider<TeamCommand, TeamEvent, TeamState> = {
  initialState: (): TeamState => ({ status: 'none' }),
  decide: decideTeam,
  evolve: evolveTeam,
};
