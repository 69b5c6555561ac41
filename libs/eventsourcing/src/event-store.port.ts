/** Metadata every stored event carries, so any event can be traced back to its request and team. */
export interface EventMetadata {
  correlationId: string;
  causationId: string | null;
  teamId: string | null;
  occurredAt: string;
  /**
   * W3C trace context of the span that appended the event (absent when tracing is off): the relay
   * carries it to Kafka, so a process manager reacting to the event, however much later, continues that trace.
   */
  traceparent?: string;
}

/** An event as a producer hands it to the store. */
export interface NewEvent<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  schemaVersion: number;
  data: TData;
  metadata: EventMetadata;
}

/** An event as the store hands it back: with its place in its stream and in the global log. */
export interface RecordedEvent<TType extends string = string, TData = unknown> extends NewEvent<
  TType,
  TData
> {
  streamId: string;
  /** 0-based position of the event inside its stream. */
  revision: number;
  /** Position in the global log; strictly increasing, gaps allowed. */
  position: number;
}

/**
 * Optimistic concurrency for an append:
 * - 'no_stream': the stream must not exist yet
 * - 'any': no check
 * - a number: the revision of the stream's last event
 */
export type ExpectedRevision = 'no_stream' | 'any' | number;

export interface AppendResult {
  /** Revision of the last event written. */
  nextExpectedRevision: number;
  /** Global position of the last event written. */
  position: number;
}

export interface Subscription {
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /** Deliver events with a global position strictly greater than this; -1 (or omitted) for the whole log. */
  afterPosition?: number;
  /** Called once the subscription has delivered every event stored when it started. */
  onCaughtUp?: () => void;
  onError?: (error: unknown) => void;
}

/** A stream read that left some event types out, and where the whole stream stood when it was read. */
export interface StreamReadExcept {
  /** The stream's events from the asked revision, in order, less those of the skipped types. */
  events: RecordedEvent[];
  /**
   * Revision of the stream's last event of any type, a skipped one included (-1 for no stream): the
   * expected revision of an append decided on `events`, read at the same moment as they were.
   */
  revision: number;
}

export interface EventStore {
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream from `fromRevision` (inclusive). Empty when the stream does not exist. */
  readStream(streamId: string, fromRevision?: number): Promise<RecordedEvent[]>;
  /**
   * Events of one stream from `fromRevision` (inclusive) except those whose type is in `skipTypes`,
   * with the stream's head revision as of the same read. For a decider that ignores bulky events
   * (a post's comment chunks): a store that can filter where the events lie never reads or parses
   * the skipped ones' data (SQLite, PostgreSQL); one that cannot drops them on arrival (EventStoreDB).
   */
  readStreamExcept(
    streamId: string,
    skipTypes: readonly string[],
    fromRevision?: number,
  ): Promise<StreamReadExcept>;
  /** Every event after `afterPosition`, in global order, in pages. */
  readAll(afterPosition?: number, pageSize?: number): AsyncIterable<RecordedEvent[]>;
  /** Catch up from `afterPosition`, then stay live. The handler is awaited event by event. */
  subscribeToAll(
    handler: (event: RecordedEvent) => Promise<void>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /**
   * The same subscription, handed over as the pages read from the log (each non-empty, in order,
   * awaited one by one), so a consumer can fold the events of one append before it writes. An
   * adapter that receives events one at a time delivers pages of one.
   */
  subscribeToAllPages(
    handler: (events: readonly RecordedEvent[]) => Promise<void>,
    options?: SubscribeOptions,
  ): Promise<Subscription>;
  /** Highest global position written so far, or -1 for an empty log. */
  headPosition(): Promise<number>;
  /**
   * Highest global position of an event whose `metadata.teamId` is this team or null (a system
   * event may touch any team), or -1 when there is none: what a read of one team must have projected
   * to see every write that can change it, without waiting for other teams' writes. An adapter
   * without a team index may answer `headPosition()` (never less than the exact figure).
   */
  teamHeadPosition(teamId: string): Promise<number>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EventStore');
