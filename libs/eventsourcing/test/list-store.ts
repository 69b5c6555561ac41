import {
  ConcurrencyError,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
} from '@analyst/eventsourcing';

/** Just enough event store for the runner: one list per stream, expected-revision appends. */
export class ListStore {
  readonly streams = new Map<string, RecordedEvent[]>();
  readonly reads: { streamId: string; fromRevision: number; skipTypes?: readonly string[] }[] = [];
  private position = -1;

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    this.reads.push({ streamId, fromRevision });
    return (this.streams.get(streamId) ?? []).filter((e) => e.revision >= fromRevision);
  }

  async readStreamExcept(streamId: string, skipTypes: readonly string[], fromRevision = 0) {
    this.reads.push({ streamId, fromRevision, skipTypes });
    const stream = this.streams.get(streamId) ?? [];
    const events = stream.filter((e) => e.revision >= fromRevision && !skipTypes.includes(e.type));
    return { events, revision: stream.length - 1 };
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
