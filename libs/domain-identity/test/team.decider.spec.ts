import type { TeamEvent } from '@analyst/contracts';
import { IdentityError, teamDecider, type TeamCommand } from '@analyst/domain-identity';

const given = (events: TeamEvent[]) => ({
  when: (command: TeamCommand) => {
    const state = events.reduce(teamDecider.evolve, teamDecider.initialState());
    return {
      then: (expected: TeamEvent[]) => expect(teamDecider.decide(command, state)).toEqual(expected),
      thenFails: (code: string) => {
        try {
          teamDecider.decide(command, state);
        } catch (error) {
          expect(error).toBeInstanceOf(IdentityError);
          expect((error as IdentityError).code).toBe(code);
          return;
        }
        throw new Error(`expected ${code}`);
      },
    };
  },
});

const created: TeamEvent = {
  type: 'TeamCreated',
  data: { teamId: 'tm_1', name: 'Acme', plan: 'enterprise', parentTeamId: null, monthlyMapAllotment: 10000 },
};

describe('team decider', () => {
  it('creates a team with its plan allotment', () => {
    given([])
      .when({
        type: 'CreateTeam',
        teamId: 'tm_1',
        name: ' Acme ',
        plan: 'enterprise',
        parentTeamId: null,
        parent: null,
      })
      .then([created]);
  });

  it('refuses unknown plans, blank names and a second creation', () => {
    given([])
      .when({ type: 'CreateTeam', teamId: 'tm_1', name: 'A', plan: 'gold', parentTeamId: null, parent: null })
      .thenFails('invalid_plan');
    given([])
      .when({
        type: 'CreateTeam',
        teamId: 'tm_1',
        name: ' ',
        plan: 'growth',
        parentTeamId: null,
        parent: null,
      })
      .thenFails('invalid_team_name');
    given([created])
      .when({
        type: 'CreateTeam',
        teamId: 'tm_1',
        name: 'A',
        plan: 'growth',
        parentTeamId: null,
        parent: null,
      })
      .thenFails('team_exists');
  });

  it('creates sub-teams only under an Enterprise team that is not itself a sub-team', () => {
    const base = {
      type: 'CreateTeam' as const,
      teamId: 'tm_2',
      name: 'Sub',
      plan: 'growth',
      parentTeamId: 'tm_1',
    };
    given([])
      .when({ ...base, parent: { teamId: 'tm_1', plan: 'enterprise', parentTeamId: null } })
      .then([
        {
          type: 'TeamCreated',
          data: {
            teamId: 'tm_2',
            name: 'Sub',
            plan: 'growth',
            parentTeamId: 'tm_1',
            monthlyMapAllotment: 500,
          },
        },
      ]);
    given([])
      .when({ ...base, parent: null })
      .thenFails('parent_team_not_found');
    given([])
      .when({ ...base, parent: { teamId: 'tm_1', plan: 'scale', parentTeamId: null } })
      .thenFails('parent_plan_without_sub_teams');
    given([])
      .when({ ...base, parent: { teamId: 'tm_1', plan: 'enterprise', parentTeamId: 'tm_0' } })
      .thenFails('nested_sub_team');
  });

  it('changes plan with the new allotment, and ignores a change to the same plan', () => {
    given([created])
      .when({ type: 'ChangePlan', plan: 'starter' })
      .then([
        { type: 'TeamPlanChanged', data: { teamId: 'tm_1', plan: 'starter', monthlyMapAllotment: 100 } },
      ]);
    given([created]).when({ type: 'ChangePlan', plan: 'enterprise' }).then([]);
    given([]).when({ type: 'ChangePlan', plan: 'growth' }).thenFails('team_not_found');
  });

  it('overrides the MAP allotment', () => {
    given([created])
      .when({ type: 'SetMapAllotment', monthlyMapAllotment: 42 })
      .then([{ type: 'TeamMapAllotmentSet', data: { teamId: 'tm_1', monthlyMapAllotment: 42 } }]);
    given([created])
      .when({ type: 'SetMapAllotment', monthlyMapAllotment: -1 })
      .thenFails('invalid_map_allotment');
  });

  it('changes analysis settings within range', () => {
    given([created])
      .when({ type: 'ChangeAnalysisSettings', scoreVersion: 2, engagementWeight: 0.5 })
      .then([
        {
          type: 'TeamAnalysisSettingsChanged',
          data: { teamId: 'tm_1', scoreVersion: 2, engagementWeight: 0.5 },
        },
      ]);
    given([created]).when({ type: 'ChangeAnalysisSettings', scoreVersion: 3, engagementWeight: 1 }).then([]);
    given([created])
      .when({ type: 'ChangeAnalysisSettings', scoreVersion: 4, engagementWeight: 1 })
      .thenFails('invalid_analysis_settings');
    given([created])
      .when({ type: 'ChangeAnalysisSettings', scoreVersion: 3, engagementWeight: 11 })
      .thenFails('invalid_analysis_settings');
  });

  it('raises rate limits but never lowers them below the contract', () => {
    given([created])
      .when({ type: 'SetRateLimits', limits: { analysis_create: { perMinute: 20 } }, dailyBytes: 1024 ** 3 })
      .then([
        {
          type: 'TeamRateLimitsSet',
          data: { teamId: 'tm_1', limits: { analysis_create: { perMinute: 20 } }, dailyBytes: 1024 ** 3 },
        },
      ]);
    given([created])
      .when({ type: 'SetRateLimits', limits: { analysis_create: { perMinute: 9 } } })
      .thenFails('invalid_rate_limits');
    given([created])
      .when({ type: 'SetRateLimits', limits: { nope: { perMinute: 900 } } })
      .thenFails('invalid_rate_limits');
    given([created])
      .when({ type: 'SetRateLimits', limits: {}, dailyBytes: 1 })
      .thenFails('invalid_rate_limits');
    // A cap given as a bare number (or an object naming no window) must not be stored as an empty raise.
    given([created])
      .when({ type: 'SetRateLimits', limits: { global: 5 as never } })
      .thenFails('invalid_rate_limits');
    given([created])
      .when({ type: 'SetRateLimits', limits: { global: {} } })
      .thenFails('invalid_rate_limits');
    given([created])
      .when({ type: 'SetRateLimits', limits: { global: { perHour: 900 } as never } })
      .thenFails('invalid_rate_limits');
  });
});
