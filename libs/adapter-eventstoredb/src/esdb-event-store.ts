import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  DeadlineExceededError,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import {
  type AppendResult,
  ConcurrencyError,
  DependencyUnavailableError,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamReadExcept,
  type SubscribeOptions,
  type Subscription,
} from '@analyst/eventsourcing';
import { isSystemEvent, positionNumber, toEventData, toRecorded } from './esdb-mapping';
import { EsdbSubscription } from './esdb-subscription';

export type EsdbEventStoreOptions =
  /** e.g. `esdb://127.0.0.1:2113?tls=false`; `caFile`: PEM of the CA that signed the server certificates. */
  { connectionString: string; caFile?: string } | { client: EventStoreDBClient };

/**
 * The connection string with `tlsCAFile` set to `caFile`, which is how the client takes a root
 * certificate from a connection string (it reads the file and trusts it for the gRPC channel).
 */
export function withCaFile(connectionString: string, caFile: string | undefined): string {
  if (!caFile) return connectionString;
  const rest = connectionString.replace(/([?&])tlsCAFile=[^&]*&?/i, '$1').replace(/[?&]$/, '');
  return `${rest}${rest.includes('?') ? '&' : '?'}tlsCAFile=${encodeURIComponent(caFile)}`;
}

/**
 * How long an append may wait for the server. Appends run inside requests whose client wants an
 * answer in seconds; the client's default deadline is 10 s.
 */
export const APPEND_DEADLINE_MS = 3_000;

/** The server cannot be reached (or did not answer in time) as the port's typed error; others unchanged. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof UnavailableError || error instanceof DeadlineExceededError)
    return new DependencyUnavailableError('event store', error.message, { cause: error });
  return error;
}

/** One page of `$all`: our events in it, and the last record read (system events included). */
export interface AllPage {
  events: RecordedEvent[];
  last: Position;
}

/**
 * The production event store on EventStoreDB. Revisions map one to one; the global position is the
 * commit position of `$all`; system events (`$`-prefixed) never leave the adapter.
 */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<EsdbSubscription>();

  constructor(options: EsdbEventStoreOptions) {
    this.client =
      'client' in options
        ? options.client
        : EventStoreDBClient.connectionString(withCaFile(options.connectionString, options.caFile));
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const expectedRevision: AppendExpectedRevision =
      expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : BigInt(expected);
    try {
      const result = await this.client.appendToStream(streamId, events.map(toEventData), {
        expectedRevision,
        deadline: APPEND_DEADLINE_MS,
      });
      const revision = Number(result.nextExpectedRevision);
      const position = result.position
        ? positionNumber(result.position)
        : await this.positionOf(streamId, revision);
      return { nextExpectedRevision: revision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : 'no_stream';
        throw new ConcurrencyError(streamId, expected, actual);
      }
      throw asUnavailable(error);
    }
  }

  async readStream(streamId: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: BigInt(fromRevision),
        direction: FORWARDS,
      })) {
        if (resolved.event) events.push(toRecorded(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw asUnavailable(error);
    }
    return events;
  }

  /**
   * EventStoreDB filters no stream read by type on the server: every event of the stream still
   * crosses the wire and is decoded by the client; the skipped ones are dropped on arrival, before
   * they are mapped, and the last one read of any type gives the head revision.
   */
  async readStreamExcept(
    streamId: string,
    skipTypes: readonly string[],
    fromRevision = 0,
  ): Promise<StreamReadExcept> {
    const skipped = new Set(skipTypes);
    const events: RecordedEvent[] = [];
    let revision = -1;
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: BigInt(fromRevision),
        direction: FORWARDS,
      })) {
        if (!resolved.event) continue;
        revision = Number(resolved.event.revision);
        if (!skipped.has(resolved.event.type)) events.push(toRecorded(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { events: [], revision: -1 };
      throw asUnavailable(error);
    }
    if (revision < 0 && fromRevision > 0) revision = await this.headRevision(streamId);
    return { events, revision };
  }

  /** The revision of a stream's last event, -1 for no stream. */
  private async headRevision(streamId: string): Promise<number> {
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision: END,
        direction: BACKWARDS,
        maxCount: 1,
      })) {
        if (resolved.event) return Number(resolved.event.revision);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return -1;
      throw asUnavailable(error);
    }
    return -1;
  }

  async *readAll(afterPosition = -1, pageSize = 5000): AsyncIterable<RecordedEvent[]> {
    for await (const page of this.pages(await this.startAfter(afterPosition), afterPosition, pageSize)) {
      if (page.events.length > 0) yield page.events;
    }
  }

  /**
   * Pages of `$all` from `from` (a real record position, or START), keeping only our events after
   * `afterPosition`. Reads from a position include the record there, so every page asks for one
   * more than `pageSize` and the overlap is dropped by the position check.
   */
  async *pages(from: ReadPosition, afterPosition: number, pageSize: number): AsyncGenerator<AllPage> {
    let cursor = from;
    let after = afterPosition;
    for (;;) {
      const records = await collect(
        this.client.readAll({ fromPosition: cursor, maxCount: pageSize + 1, direction: FORWARDS }),
      );
      let last: Position | null = null;
      const events: RecordedEvent[] = [];
      for (const { event } of records) {
        if (!event) continue;
        last = event.position;
        if (positionNumber(event.position) <= after || isSystemEvent(event)) continue;
        events.push(toRecorded(event));
      }
      if (!last) return;
      yield { events, last };
      if (records.length < pageSize + 1) return;
      cursor = last;
      after = Math.max(after, positionNumber(last));
    }
  }

  /**
   * Where to start reading for "strictly after `afterPosition`". ESDB only reads from positions that
   * are record boundaries (anything else is an InvalidPosition error, or garbage on old servers). A
   * position this adapter handed out is one, which one probe read confirms; any other number is
   * resolved by walking `$all` backwards to the last record at or before it.
   */
  async startAfter(afterPosition: number): Promise<ReadPosition> {
    if (afterPosition < 0) return START;
    const exact: Position = { commit: BigInt(afterPosition), prepare: BigInt(afterPosition) };
    try {
      const [probe] = await collect(
        this.client.readAll({ fromPosition: exact, maxCount: 1, direction: FORWARDS }),
      );
      if (probe?.event && probe.event.position.commit === exact.commit) return exact;
    } catch {
      // Not a record boundary: fall through to the backward walk.
    }
    let cursor: ReadPosition = END;
    const pageSize = 500;
    for (;;) {
      const records = await collect(
        this.client.readAll({ fromPosition: cursor, maxCount: pageSize, direction: BACKWARDS }),
      );
      let oldest: Position | null = null;
      for (const { event } of records) {
        if (!event) continue;
        if (event.position.commit <= exact.commit) return event.position;
        oldest = event.position;
      }
      if (!oldest || records.length < pageSize) return START;
      cursor = oldest;
    }
  }

  async subscribeToAll(
    handler: (event: RecordedEvent) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    const subscription = new EsdbSubscription(this, this.client, handler, options, (s) =>
      this.subscriptions.delete(s),
    );
    this.subscriptions.add(subscription);
    subscription.start();
    return subscription;
  }

  /** Events reach this adapter one at a time (the live gRPC stream), so its pages hold one event. */
  subscribeToAllPages(
    handler: (events: readonly RecordedEvent[]) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    return this.subscribeToAll((event) => handler([event]), options);
  }

  /** The commit position of the last record in `$all` (a valid place to subscribe after), or -1. */
  async headPosition(): Promise<number> {
    const [last] = await collect(
      this.client.readAll({ fromPosition: END, maxCount: 1, direction: BACKWARDS }),
    );
    return last?.event ? positionNumber(last.event.position) : -1;
  }

  /**
   * The whole log's head: `$all` has no secondary index on a metadata field here (a server-side
   * projection per team would be a second log to run and keep up), and finding a team's last event
   * would read `$all` backwards past every other team's. The head is never below the team's
   * position, so a read that waits for it stays exact; it only does not skip other teams' writes.
   */
  teamHeadPosition(): Promise<number> {
    return this.headPosition();
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.client.dispose();
  }

  /** Fallback for servers that do not return the position of an append. */
  private async positionOf(streamId: string, revision: number): Promise<number> {
    const [event] = await this.readStream(streamId, revision);
    if (!event) throw new Error(`appended ${streamId}@${revision} but cannot read it back`);
    return event.position;
  }
}

async function collect(read: AsyncIterable<AllStreamResolvedEvent>): Promise<AllStreamResolvedEvent[]> {
  const out: AllStreamResolvedEvent[] = [];
  for await (const resolved of read) out.push(resolved);
  return out;
}
