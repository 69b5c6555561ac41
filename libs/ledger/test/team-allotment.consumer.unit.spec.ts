import type {
  TeamAnalysisSettingsChanged,
  TeamCreated,
  TeamMapAllotmentSet,
  TeamPlanChanged,
} from '@analyst/contracts';
import type { MessageBus } from '@analyst/platform';
import { delivered, recorded } from '@analyst/testing';
import { TeamAllotmentConsumer } from '../src/bus/team-allotment.consumer';
import type { LedgerService } from '../src/ledger.service';
import { ledgerKit } from './ledger-test-kit';

class RecordingLedger {
  readonly sent: unknown[][] = [];
  async setMapAllotment(...args: unknown[]): Promise<void> {
    this.sent.push(args);
  }
}

const at = { id: 'ev_team_7', streamId: 'team-t1', correlationId: 'corr-2', teamId: 'admin' };
const created: TeamCreated = {
  type: 'TeamCreated',
  data: { teamId: 't1', name: 'Makers', plan: 'growth', parentTeamId: null, monthlyMapAllotment: 300 },
};
const planChanged: TeamPlanChanged = {
  type: 'TeamPlanChanged',
  data: { teamId: 't1', plan: 'enterprise', monthlyMapAllotment: 1000 },
};
const overridden: TeamMapAllotmentSet = {
  type: 'TeamMapAllotmentSet',
  data: { teamId: 't1', monthlyMapAllotment: 25 },
};

describe('TeamAllotmentConsumer: given a team event, expect SetMapAllotment', () => {
  let ledger: RecordingLedger;
  let consumer: TeamAllotmentConsumer;
  beforeEach(() => {
    ledger = new RecordingLedger();
    consumer = new TeamAllotmentConsumer({} as MessageBus, ledger as unknown as LedgerService);
  });

  it.each([
    ['TeamCreated', created, 300],
    ['TeamPlanChanged', planChanged, 1000],
    ['TeamMapAllotmentSet', overridden, 25],
  ] as const)(
    '%s → the allotment it carries, the event id as command id, for the team of the data',
    async (_name, event, allotment) => {
      await consumer.handle(delivered(recorded(event, at)));
      expect(ledger.sent).toEqual([
        [
          't1',
          { commandId: 'ev_team_7', allotment },
          { correlationId: 'corr-2', causationId: 'ev_team_7', teamId: 't1' },
        ],
      ]);
    },
  );

  it('a team event that does not touch the allotment → no command', async () => {
    const settings: TeamAnalysisSettingsChanged = {
      type: 'TeamAnalysisSettingsChanged',
      data: { teamId: 't1', scoreVersion: 2, engagementWeight: 0.5 },
    };
    await consumer.handle(delivered(recorded(settings, at)));
    expect(ledger.sent).toEqual([]);
  });

  it('a redelivered team event appends nothing new to the ledger', async () => {
    const k = await ledgerKit();
    try {
      const real = k.t.app.get(TeamAllotmentConsumer);
      const event = recorded(
        { ...created, data: { ...created.data, teamId: 'team_dup' } },
        {
          ...at,
          id: 'ev_team_dup',
          streamId: 'team-team_dup',
        },
      );
      await real.handle(delivered(event));
      const once = await k.ledgerEvents('team_dup');
      expect(once.map((e) => e.type)).toContain('MapAllotmentSet');
      await real.handle(delivered(event));
      expect(await k.ledgerEvents('team_dup')).toEqual(once);
    } finally {
      await k.close();
    }
  });
});
