import { DeadlineExceededError, UnavailableError, type EventStoreDBClient } from '@eventstore/db-client';
import { DependencyUnavailableError, type NewEvent } from '@analyst/eventsourcing';
import { APPEND_DEADLINE_MS, EsdbEventStore } from '../src/esdb-event-store';

/** A client whose every call fails with `failure`, recording the options it was given. */
function failingClient(failure: Error) {
  const calls: { deadline?: number }[] = [];
  const client = {
    appendToStream: async (_stream: string, _events: unknown, options: { deadline?: number }) => {
      calls.push(options);
      throw failure;
    },
    // eslint-disable-next-line require-yield
    readStream: async function* () {
      throw failure;
    },
  };
  return { client: client as unknown as EventStoreDBClient, calls };
}

const EVENT: NewEvent = {
  id: '0b9f4f6e-8a53-4c2e-9d55-1c1f5a3e2b10',
  type: 'TeamCreated',
  schemaVersion: 1,
  data: { teamId: 't1' },
  metadata: { correlationId: 'c1', causationId: null, teamId: 't1', occurredAt: '2026-03-10T12:00:00.000Z' },
};

describe('EventStoreDB that cannot be reached is the port’s DependencyUnavailableError', () => {
  it('an append waits at most APPEND_DEADLINE_MS (3 s) and a refused one is DependencyUnavailableError naming the event store', async () => {
    const refused = new UnavailableError({ message: '14 UNAVAILABLE: No connection established' } as never);
    const { client, calls } = failingClient(refused);
    const error = await new EsdbEventStore({ client })
      .append('team-t1', [EVENT], 'no_stream')
      .catch((e) => e);
    expect({
      deadline: calls[0]?.deadline,
      type: error?.constructor,
      dependency: error?.dependency,
      cause: error?.cause,
    }).toEqual({
      deadline: 3_000,
      type: DependencyUnavailableError,
      dependency: 'event store',
      cause: refused,
    });
    expect(APPEND_DEADLINE_MS).toBe(3_000);
  });

  it('a read past its deadline is DependencyUnavailableError naming the event store', async () => {
    const late = new DeadlineExceededError({ message: '4 DEADLINE_EXCEEDED: Deadline exceeded' } as never);
    const read = await new EsdbEventStore(failingClient(late)).readStream('team-t1').catch((e) => e);
    expect([read?.constructor, read?.dependency, read?.cause]).toEqual([
      DependencyUnavailableError,
      'event store',
      late,
    ]);
  });
});
