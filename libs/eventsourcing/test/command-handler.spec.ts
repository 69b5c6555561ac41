import {
  CatchUpStateSource,
  CommandHandler,
  CommandRunner,
  FixedClock,
  SequentialIdGenerator,
  type Decider,
} from '@analyst/eventsourcing';
import { ListStore } from './list-store';

type Deposited = { type: 'Deposited'; data: { amount: number } };
type Deposit = { amount: number; at: string };

/** Refuses nothing and appends nothing for a zero deposit, so a no-op outcome can be checked. */
const account: Decider<Deposit, Deposited, number> = {
  initialState: () => 0,
  decide: (command) =>
    command.amount === 0 ? [] : [{ type: 'Deposited', data: { amount: command.amount } }],
  evolve: (balance, event) => balance + event.data.amount,
};

const context = { correlationId: 'c1', teamId: 't1' };

function setUp() {
  const store = new ListStore();
  const runner = new CommandRunner(
    store.asEventStore(),
    new FixedClock('2026-01-01T00:00:00.000Z'),
    new SequentialIdGenerator(),
  );
  const accounts = new CommandHandler(runner, {
    decider: account,
    streamOf: (owner: string) => `account-${owner}`,
    options: { versions: { Deposited: 2 }, occurredAt: (c) => c.at },
  });
  return { store, accounts };
}

describe('CommandHandler', () => {
  it('appends to the stream its key names, with the bound versions and times', async () => {
    const { store, accounts } = setUp();
    const first = await accounts.handle('ann', { amount: 5, at: '2026-02-01T00:00:00.000Z' }, context);
    const second = await accounts.handle('ann', { amount: 7, at: '2026-02-02T00:00:00.000Z' }, context);

    expect([first.state, second.state]).toEqual([5, 12]);
    expect([first.revision, second.revision]).toEqual([0, 1]);
    const recorded = store.streams.get('account-ann') ?? [];
    expect(recorded.map((e) => [e.type, e.schemaVersion, e.data, e.metadata.occurredAt])).toEqual([
      ['Deposited', 2, { amount: 5 }, '2026-02-01T00:00:00.000Z'],
      ['Deposited', 2, { amount: 7 }, '2026-02-02T00:00:00.000Z'],
    ]);
    expect([...store.streams.keys()]).toEqual(['account-ann']);
  });

  it('lets one command override a bound option', async () => {
    const { store, accounts } = setUp();
    await accounts.handle('bo', { amount: 1, at: '2026-02-01T00:00:00.000Z' }, context, { versions: {} });
    expect(store.streams.get('account-bo')?.[0].schemaVersion).toBe(1);
  });

  it('reads a stream state by key: the fold and the last revision, or the initial state at -1', async () => {
    const { accounts } = setUp();
    expect(await accounts.state('cy')).toEqual({ state: 0, revision: -1 });
    await accounts.handle('cy', { amount: 3, at: '2026-02-01T00:00:00.000Z' }, context);
    await accounts.handle('cy', { amount: 4, at: '2026-02-01T00:00:00.000Z' }, context);
    expect(await accounts.state('cy')).toEqual({ state: 7, revision: 1 });
  });

  it('appends nothing for a command its decider answers with no events', async () => {
    const { store, accounts } = setUp();
    const outcome = await accounts.handle('di', { amount: 0, at: '2026-02-01T00:00:00.000Z' }, context);
    expect(outcome).toEqual({ state: 0, events: [], position: -1, revision: -1 });
    expect(store.streams.has('account-di')).toBe(false);
  });

  it('reads state from the bound source when it has one, catching up only the events after what it holds', async () => {
    const store = new ListStore();
    const runner = new CommandRunner(
      store.asEventStore(),
      new FixedClock('2026-01-01T00:00:00.000Z'),
      new SequentialIdGenerator(),
    );
    const source = new CatchUpStateSource(store.asEventStore(), account);
    const accounts = new CommandHandler(runner, {
      decider: account,
      streamOf: (o: string) => `account-${o}`,
      options: { source },
    });
    await accounts.handle('ed', { amount: 2, at: 'x' }, context);
    await accounts.handle('ed', { amount: 3, at: 'x' }, context);
    store.reads.length = 0;
    expect(await accounts.state('ed')).toEqual({ state: 5, revision: 1 });
    expect(store.reads).toEqual([{ streamId: 'account-ed', fromRevision: 2 }]);
  });
});
