import type { TeamEvent } from '@analyst/contracts';
import { IdentityError, teamDecider } from '@analyst/domain-identity';
import { DeciderSpecification } from '@analyst/eventsourcing/testing';

/** No mocks, only the team decider's pure functions; a failure must be an IdentityError with that code. */
const given = (events: TeamEvent[]) => DeciderSpecification.for(teamDecider).given(events);

const created: TeamEvent = {
  type: 'TeamCreated',
  data: { teamId: 'tm_1', name: 'Acme', plan: 'enterprise', parentTeamId: null, monthlyMapAllotment: 10000 },
};

describe('team decider', () => {
  it('creates a team with its plan allotment', () => {
    given([])
      .when({
        type: 'CreateTeam',
        data: {
          teamId: 'tm_1',
          name: ' Acme ',
          plan: 'enterprise',
          parentTeamId: null,
          parent: null,
        },
      })
      .then([created]);
  });

  describe('refuses unknown plans, blank names and a second creation', () => {
    it('refuses: invalid_plan', () => {
      given([])
        .when({
          type: 'CreateTeam',
          data: {
            teamId: 'tm_1',
            name: 'A',
            plan: 'gold',
            parentTeamId: null,
            parent: null,
          },
        })
        .thenFails('invalid_plan', IdentityError);
    });
    it('refuses: invalid_team_name', () => {
      given([])
        .when({
          type: 'CreateTeam',
          data: {
            teamId: 'tm_1',
            name: ' ',
            plan: 'growth',
            parentTeamId: null,
            parent: null,
          },
        })
        .thenFails('invalid_team_name', IdentityError);
    });
    it('refuses: team_exists', () => {
      given([created])
        .when({
          type: 'CreateTeam',
          data: {
            teamId: 'tm_1',
            name: 'A',
            plan: 'growth',
            parentTeamId: null,
            parent: null,
          },
        })
        .thenFails('team_exists', IdentityError);
    });
  });

  describe('creates sub-teams only under an Enterprise team that is not itself a sub-team', () => {
    const base = {
      teamId: 'tm_2',
      name: 'Sub',
      plan: 'growth',
      parentTeamId: 'tm_1',
    };
    it('emits TeamCreated', () => {
      given([])
        .when({
          type: 'CreateTeam',
          data: { ...base, parent: { teamId: 'tm_1', plan: 'enterprise', parentTeamId: null } },
        })
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
    });
    it('refuses: parent_team_not_found', () => {
      given([])
        .when({ type: 'CreateTeam', data: { ...base, parent: null } })
        .thenFails('parent_team_not_found', IdentityError);
    });
    it('refuses: parent_plan_without_sub_teams', () => {
      given([])
        .when({
          type: 'CreateTeam',
          data: { ...base, parent: { teamId: 'tm_1', plan: 'scale', parentTeamId: null } },
        })
        .thenFails('parent_plan_without_sub_teams', IdentityError);
    });
    it('refuses: nested_sub_team', () => {
      given([])
        .when({
          type: 'CreateTeam',
          data: { ...base, parent: { teamId: 'tm_1', plan: 'enterprise', parentTeamId: 'tm_0' } },
        })
        .thenFails('nested_sub_team', IdentityError);
    });
  });

  describe('changes plan with the new allotment, and ignores a change to the same plan', () => {
    it('emits TeamPlanChanged', () => {
      given([created])
        .when({ type: 'ChangePlan', data: { plan: 'starter' } })
        .then([
          { type: 'TeamPlanChanged', data: { teamId: 'tm_1', plan: 'starter', monthlyMapAllotment: 100 } },
        ]);
    });
    it('writes nothing', () => {
      given([created])
        .when({ type: 'ChangePlan', data: { plan: 'enterprise' } })
        .then([]);
    });
    it('refuses: team_not_found', () => {
      given([])
        .when({ type: 'ChangePlan', data: { plan: 'growth' } })
        .thenFails('team_not_found', IdentityError);
    });
  });

  describe('overrides the MAP allotment', () => {
    it('emits TeamMapAllotmentSet', () => {
      given([created])
        .when({ type: 'SetMapAllotment', data: { monthlyMapAllotment: 42 } })
        .then([{ type: 'TeamMapAllotmentSet', data: { teamId: 'tm_1', monthlyMapAllotment: 42 } }]);
    });
    it('refuses: invalid_map_allotment', () => {
      given([created])
        .when({ type: 'SetMapAllotment', data: { monthlyMapAllotment: -1 } })
        .thenFails('invalid_map_allotment', IdentityError);
    });
  });

  describe('changes analysis settings within range', () => {
    it('emits TeamAnalysisSettingsChanged', () => {
      given([created])
        .when({ type: 'ChangeAnalysisSettings', data: { scoreVersion: 2, engagementWeight: 0.5 } })
        .then([
          {
            type: 'TeamAnalysisSettingsChanged',
            data: { teamId: 'tm_1', scoreVersion: 2, engagementWeight: 0.5 },
          },
        ]);
    });
    it('writes nothing for the settings already in force', () => {
      given([created])
        .when({ type: 'ChangeAnalysisSettings', data: { scoreVersion: 3, engagementWeight: 1 } })
        .then([]);
    });
    it('refuses score version 4: invalid_analysis_settings', () => {
      given([created])
        .when({ type: 'ChangeAnalysisSettings', data: { scoreVersion: 4, engagementWeight: 1 } })
        .thenFails('invalid_analysis_settings', IdentityError);
    });
    it('refuses engagement weight 11: invalid_analysis_settings', () => {
      given([created])
        .when({ type: 'ChangeAnalysisSettings', data: { scoreVersion: 3, engagementWeight: 11 } })
        .thenFails('invalid_analysis_settings', IdentityError);
    });
  });

  describe('raises rate limits but never lowers them below the contract', () => {
    it('emits TeamRateLimitsSet', () => {
      given([created])
        .when({
          type: 'SetRateLimits',
          data: { limits: { analysis_create: { perMinute: 20 } }, dailyBytes: 1024 ** 3 },
        })
        .then([
          {
            type: 'TeamRateLimitsSet',
            data: { teamId: 'tm_1', limits: { analysis_create: { perMinute: 20 } }, dailyBytes: 1024 ** 3 },
          },
        ]);
    });
    it('refuses a cap below the contract: invalid_rate_limits', () => {
      given([created])
        .when({ type: 'SetRateLimits', data: { limits: { analysis_create: { perMinute: 9 } } } })
        .thenFails('invalid_rate_limits', IdentityError);
    });
    it('refuses an unknown rate class: invalid_rate_limits', () => {
      given([created])
        .when({ type: 'SetRateLimits', data: { limits: { nope: { perMinute: 900 } } } })
        .thenFails('invalid_rate_limits', IdentityError);
    });
    it('refuses a daily byte cap below the contract: invalid_rate_limits', () => {
      given([created])
        .when({ type: 'SetRateLimits', data: { limits: {}, dailyBytes: 1 } })
        .thenFails('invalid_rate_limits', IdentityError);
    });
    // A cap given as a bare number (or an object naming no window) must not be stored as an empty raise.
    it('refuses a cap given as a bare number: invalid_rate_limits', () => {
      given([created])
        .when({ type: 'SetRateLimits', data: { limits: { global: 5 as never } } })
        .thenFails('invalid_rate_limits', IdentityError);
    });
    it('refuses a cap naming no window: invalid_rate_limits', () => {
      given([created])
        .when({ type: 'SetRateLimits', data: { limits: { global: {} } } })
        .thenFails('invalid_rate_limits', IdentityError);
    });
    it('refuses a cap naming an unknown window: invalid_rate_limits', () => {
      given([created])
        .when({ type: 'SetRateLimits', data: { limits: { global: { perHour: 900 } as never } } })
        .thenFails('invalid_rate_limits', IdentityError);
    });
  });
});
