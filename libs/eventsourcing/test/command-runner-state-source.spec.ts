import {
  CatchUpStateSource,
  CommandRunner,
  ConcurrencyError,
  FixedClock,
  SequentialIdGenerator,
  SkippingStateSource,
  type Decider,
} from '@analyst/eventsourcing';
import { ListStore } from './list-store';

type Added = { type: 'Added'; data: { n: number } };
type Add = { n: number; at: string };

const counter: Decider<Add, Added, number> = {
  initialState: () => 0,
  decide: (command) => [{ type: 'Added', data: { n: command.n } }],
  evolve: (total, event) => total + event.data.n,
};

const context = { correlationId: 'c1', teamId: 't1' };

describe('CommandRunner with a StateSource', () => {
  it('decides on the catch-up source and reads only the events after the revision it holds', async () => {
    const store = new ListStore();
    const source = new CatchUpStateSource(store.asEventStore(), counter);
    const runner = new CommandRunner(
      store.asEventStore(),
      new FixedClock('2026-01-01T00:00:00.000Z'),
      new SequentialIdGenerator(),
    );
    await runner.run('counter-1', counter, { n: 2, at: 'x' }, context, { source });
    const second = await runner.run('counter-1', counter, { n: 3, at: 'x' }, context, { source });
    expect(second.state).toBe(5);
    expect(second.revision).toBe(1);
    expect(store.reads).toEqual([
      { streamId: 'counter-1', fromRevision: 0 },
      { streamId: 'counter-1', fromRevision: 1 },
    ]);
  });

  it('catches up and decides again when another writer appended first', async () => {
    const store = new ListStore();
    const source = new CatchUpStateSource(store.asEventStore(), counter);
    const ids = new SequentialIdGenerator();
    const runner = new CommandRunner(store.asEventStore(), new FixedClock('2026-01-01T00:00:00.000Z'), ids);
    await runner.run('counter-1', counter, { n: 1, at: 'x' }, context, { source });
    // Another process appends behind this source's back.
    const other = new CommandRunner(store.asEventStore(), new FixedClock('2026-01-01T00:00:00.000Z'), ids);
    await other.run('counter-1', counter, { n: 10, at: 'x' }, context);
    const outcome = await runner.run('counter-1', counter, { n: 100, at: 'x' }, context, { source });
    expect(outcome.state).toBe(111);
    expect(outcome.revision).toBe(2);
    expect((await source.load('counter-1')).state).toBe(111);
  });

  it('stamps occurredAt from the command when asked, the clock otherwise', async () => {
    const store = new ListStore();
    const runner = new CommandRunner(
      store.asEventStore(),
      new FixedClock('2026-01-01T00:00:00.000Z'),
      new SequentialIdGenerator(),
    );
    await runner.run('counter-1', counter, { n: 1, at: '2026-02-02T00:00:00.000Z' }, context, {
      occurredAt: (c) => c.at,
    });
    await runner.run('counter-1', counter, { n: 1, at: '2026-02-02T00:00:00.000Z' }, context);
    expect(store.streams.get('counter-1')!.map((e) => e.metadata.occurredAt)).toEqual([
      '2026-02-02T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);
  });
});

type CounterEvent = Added | { type: 'Attached'; data: { payload: string } };
type CounterCommand = { n: number; attach?: string };

/** A counter that also records payloads beside it, which its decisions never look at. */
const counterWithPayloads: Decider<CounterCommand, CounterEvent, number> = {
  initialState: () => 0,
  decide: (command) => [
    { type: 'Added', data: { n: command.n } },
    ...(command.attach ? [{ type: 'Attached' as const, data: { payload: command.attach } }] : []),
  ],
  evolve: (total, event) => {
    switch (event.type) {
      case 'Added':
        return total + event.data.n;
      case 'Attached':
        return total;
    }
  },
};

describe('CommandRunner with a SkippingStateSource', () => {
  const clock = new FixedClock('2026-01-01T00:00:00.000Z');

  it('folds without the skipped types and appends after the last event of any type', async () => {
    const store = new ListStore();
    const runner = new CommandRunner(store.asEventStore(), clock, new SequentialIdGenerator());
    const source = new SkippingStateSource(store.asEventStore(), counterWithPayloads, ['Attached']);
    await runner.run('counter-1', counterWithPayloads, { n: 2, attach: 'a' }, context, { source });
    expect(await source.load('counter-1')).toEqual({ state: 2, revision: 1 });
    const second = await runner.run('counter-1', counterWithPayloads, { n: 3, attach: 'b' }, context, {
      source,
    });
    expect(second).toMatchObject({ state: 5, revision: 3 });
    expect(store.streams.get('counter-1')!.map((e) => [e.type, e.revision])).toEqual([
      ['Added', 0],
      ['Attached', 1],
      ['Added', 2],
      ['Attached', 3],
    ]);
    expect(store.reads.filter((r) => r.skipTypes)).toEqual([
      { streamId: 'counter-1', fromRevision: 0, skipTypes: ['Attached'] },
      { streamId: 'counter-1', fromRevision: 0, skipTypes: ['Attached'] },
      { streamId: 'counter-1', fromRevision: 0, skipTypes: ['Attached'] },
    ]);
  });

  it('reports a skipped event appended by another writer as the head, so a stale state is refused', async () => {
    const store = new ListStore();
    const ids = new SequentialIdGenerator();
    const runner = new CommandRunner(store.asEventStore(), clock, ids);
    const source = new SkippingStateSource(store.asEventStore(), counterWithPayloads, ['Attached']);
    await runner.run('counter-1', counterWithPayloads, { n: 1 }, context, { source });
    const before = await source.load('counter-1');
    // Another process appends a payload only.
    await new CommandRunner(store.asEventStore(), clock, ids).run(
      'counter-1',
      counterWithPayloads,
      { n: 0, attach: 'x' },
      context,
    );
    expect(await source.load('counter-1')).toEqual({ state: 1, revision: 2 });
    const stale = { load: async () => before };
    await expect(
      runner.run('counter-1', counterWithPayloads, { n: 10 }, context, { source: stale }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    const outcome = await runner.run('counter-1', counterWithPayloads, { n: 10 }, context, { source });
    expect(outcome).toMatchObject({ state: 11, revision: 3 });
  });
});
