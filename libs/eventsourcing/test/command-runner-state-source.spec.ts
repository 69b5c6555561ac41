import {
  CatchUpStateSource,
  CommandRunner,
  ConcurrencyError,
  FixedClock,
  SequentialIdGenerator,
  type Decider,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
} from '@analyst/eventsourcing';

type Added = { type: 'Added'; data: { n: number } };
type Add = { n: number; at: string };

const counter: Decider<Add, Added, number> = {
  initialState: () => 0,
  decide: (command) => [{ type: 'Added', data: { n: command.n } }],
  evolve: (total, event) => total + event.data.n,
};

/** Just enough event store for the runner: one list per stream, expected-revision appends. */
class ListStore {
  readonly streams = new Map<string, RecordedEvent[]>();
  readonly reads: { streamId: string; fromRevision: number }[] = [];
  private position = -1;

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    this.reads.push({ streamId, fromRevision });
    return (this.streams.get(streamId) ?? []).filter((e) => e.revision >= fromRevision);
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
    const stream = this.streams.get(streamId) ?? [];
    const actual = stream.length === 0 ? 'no_stream' : stream.length - 1;
    if (expected !== 'any' && expected !== actual) throw new ConcurrencyError(streamId, expected, actual);
    for (const e of events)
      stream.push({ ...e, streamId, revision: stream.length, position: ++this.position });
    this.streams.set(streamId, stream);
    return { nextExpectedRevision: stream.length - 1, position: this.position };
  }

  asEventStore(): EventStore {
    return this as unknown as EventStore;
  }
}

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
