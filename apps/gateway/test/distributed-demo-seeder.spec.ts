import { IdentityService } from '@analyst/gateway';
import { InProcessBus, MemoryReadStore, loadConfig, type MessageBus } from '@analyst/platform';
import { DistributedDemoSeeder } from '../src/distributed-demo-seeder';

/** An identity service that records what it was asked to create. */
function recordingIdentity(calls: string[]): IdentityService {
  return {
    createTeam: async () => {
      calls.push('createTeam');
      return { teamId: 'team_demo' };
    },
    createKey: async () => {
      calls.push('createKey');
      return { key: 'ak_composedemo.local-only-demo-secret-0001' };
    },
  } as unknown as IdentityService;
}

describe('distributed demo seeder (ANALYST_DEMO)', () => {
  it('creates nothing on an empty installation unless ANALYST_DEMO=1', async () => {
    const calls: string[] = [];
    const seeder = new DistributedDemoSeeder(
      recordingIdentity(calls),
      new MemoryReadStore(),
      new InProcessBus(),
      loadConfig({}),
    );
    expect(await seeder.seedIfEmpty()).toBeNull();
    expect(calls).toEqual([]);
  });

  it('with ANALYST_DEMO=1 creates the team and key and grants 1,000 Ad Hoc credits through the ledger topic', async () => {
    const calls: string[] = [];
    const grants: unknown[] = [];
    const bus = {
      request: async (topic: string, message: { payload: unknown }) => {
        grants.push([topic, message.payload]);
        return { balance: 1000 };
      },
    } as unknown as MessageBus;
    const seeder = new DistributedDemoSeeder(
      recordingIdentity(calls),
      new MemoryReadStore(),
      bus,
      loadConfig({ ANALYST_DEMO: '1' }),
    );
    expect(await seeder.seedIfEmpty()).toEqual({
      teamId: 'team_demo',
      key: 'ak_composedemo.local-only-demo-secret-0001',
    });
    expect(calls).toEqual(['createTeam', 'createKey']);
    expect(grants).toEqual([
      [
        'analyst.commands.ledger',
        {
          teamId: 'team_demo',
          commandId: 'demo-grant-team_demo',
          pool: 'adhoc',
          amount: 1000,
          reason: 'demo credits',
        },
      ],
    ]);
  });

  it('with ANALYST_DEMO=1 leaves an installation that already has a team alone', async () => {
    const calls: string[] = [];
    const store = new MemoryReadStore();
    await store.collection('identity_teams').insertOne({ _id: 'team_existing' });
    const seeder = new DistributedDemoSeeder(
      recordingIdentity(calls),
      store,
      new InProcessBus(),
      loadConfig({ ANALYST_DEMO: '1' }),
    );
    expect(await seeder.seedIfEmpty()).toBeNull();
    expect(calls).toEqual([]);
  });
});
