import type { DomainEvent } from './decider';
import type { RecordedEvent } from './event-store.port';

/**
 * A stored event that is one member of the domain union `E`. It distributes over `E`, so a
 * `switch (event.type)` narrows `event.data` to that member's data.
 */
export type Recorded<E extends DomainEvent> = E extends DomainEvent
  ? RecordedEvent<E['type'], E['data']>
  : never;

/** A guard that says whether a stored event belongs to the union it was built for. */
export type EventGuard<E extends DomainEvent> = (event: RecordedEvent) => event is Recorded<E>;

/**
 * The event boundary: a stored (or relayed) event is a member of `E` exactly when its type is one of
 * `types`. The data is trusted, not validated: only the decider that owns a type appends it, and
 * schema changes are versioned at the store. Every consumer (process manager, projector) narrows
 * here, so no handler casts `event.data`.
 */
export function eventsOf<E extends DomainEvent>(types: readonly E['type'][]): EventGuard<E> {
  const known = new Set<string>(types);
  return (event): event is Recorded<E> => known.has(event.type);
}

/** Any shape of a stored event that carries its type and data (a `RecordedEvent`, or a domain's own subset of it). */
export interface EventRecord {
  type: string;
  data: unknown;
}

/**
 * `eventsOf` for a record of any shape: it keeps the record's own fields and types its `type` and
 * `data` as the member of `E` it is (for code that reads a domain's subset of a stored event).
 */
export function recordsOf<E extends DomainEvent>(
  types: readonly E['type'][],
): <R extends EventRecord>(record: R) => record is R & E {
  const known = new Set<string>(types);
  return <R extends EventRecord>(record: R): record is R & E => known.has(record.type);
}

/**
 * A stored event of a stream that one decider alone writes, as that decider's event: how a decider's
 * state is folded from its own stream. The only cast of a stored event, trusted because the
 * decider's stream holds nothing else (a runner never appends another decider's events to it).
 */
export function deciderEvent<E extends DomainEvent>(event: EventRecord): E {
  return { type: event.type, data: event.data } as E;
}

/** A bus payload that has the shape of a stored event (the relay publishes each `RecordedEvent` unchanged). */
export function isRecordedEvent(payload: unknown): payload is RecordedEvent {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    'id' in payload &&
    typeof payload.id === 'string' &&
    'type' in payload &&
    typeof payload.type === 'string' &&
    'streamId' in payload &&
    typeof payload.streamId === 'string' &&
    'metadata' in payload &&
    typeof payload.metadata === 'object' &&
    payload.metadata !== null
  );
}

/**
 * The command context of a reaction to `event`: the same correlation, caused by the event, for the
 * event's team unless the handler names another.
 */
export function causedBy(event: RecordedEvent): ReactionContext<string | null>;
export function causedBy<T extends string | null>(event: RecordedEvent, teamId: T): ReactionContext<T>;
export function causedBy(
  event: RecordedEvent,
  teamId = event.metadata.teamId,
): ReactionContext<string | null> {
  return { correlationId: event.metadata.correlationId, causationId: event.id, teamId };
}

export interface ReactionContext<T extends string | null> {
  correlationId: string;
  causationId: string;
  teamId: T;
}
