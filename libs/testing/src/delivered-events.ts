import type { BusMessage, DomainEvent, Recorded } from '@analyst/eventsourcing';

/** Where a delivered test event stands; each field can be overridden. */
export interface DeliveredAt {
  id?: string;
  streamId?: string;
  revision?: number;
  position?: number;
  correlationId?: string;
  teamId?: string | null;
  occurredAt?: string;
}

/** A domain event as the store records it, for "given this event" tests of process managers. */
export function recorded<E extends DomainEvent>(event: E, at: DeliveredAt = {}): Recorded<E> {
  const stored = {
    id: at.id ?? 'ev_1',
    type: event.type,
    schemaVersion: 1,
    data: event.data,
    streamId: at.streamId ?? 'stream-1',
    revision: at.revision ?? 0,
    position: at.position ?? 1,
    metadata: {
      correlationId: at.correlationId ?? 'corr-1',
      causationId: null,
      teamId: at.teamId === undefined ? 'team-1' : at.teamId,
      occurredAt: at.occurredAt ?? '2026-03-10T12:00:00.000Z',
    },
  };
  return stored as Recorded<E>;
}

/** The bus message the relay publishes for a recorded event. */
export function delivered(event: Recorded<DomainEvent>, topic = 'analyst.events.test'): BusMessage {
  return { id: event.id, key: event.streamId, type: event.type, topic, headers: {}, payload: event };
}
