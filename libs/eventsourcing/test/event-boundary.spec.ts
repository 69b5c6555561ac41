import {
  causedBy,
  deciderEvent,
  eventsOf,
  isRecordedEvent,
  recordsOf,
  type DomainEvent,
  type RecordedEvent,
} from '../src';

type Opened = DomainEvent<'Opened', { id: string; size: number }>;
type Closed = DomainEvent<'Closed', { id: string; reason: string }>;

function stored(type: string, data: unknown): RecordedEvent {
  return {
    id: 'ev_9',
    type,
    schemaVersion: 1,
    data,
    streamId: 'box-1',
    revision: 4,
    position: 40,
    metadata: {
      correlationId: 'corr-1',
      causationId: null,
      teamId: 'team-1',
      occurredAt: '2026-03-10T12:00:00.000Z',
    },
  };
}

describe('the event boundary', () => {
  it('eventsOf narrows a stored event to the union by its type, and refuses the others', () => {
    const isBoxEvent = eventsOf<Opened | Closed>(['Opened', 'Closed']);
    const event = stored('Opened', { id: 'b1', size: 3 });
    expect(isBoxEvent(stored('Painted', {}))).toBe(false);
    if (!isBoxEvent(event)) throw new Error('Opened is a box event');
    // Narrowed on type: data is Opened's, no cast.
    expect(event.type === 'Opened' ? event.data.size : event.data.reason).toBe(3);
  });

  it('recordsOf does the same for any record shape, keeping its other fields', () => {
    const isClosed = recordsOf<Closed>(['Closed']);
    const record = { type: 'Closed', data: { id: 'b1', reason: 'full' } as unknown, revision: 7 };
    expect(isClosed({ type: 'Opened', data: {} })).toBe(false);
    if (!isClosed(record)) throw new Error('a Closed record');
    expect([record.data.reason, record.revision]).toEqual(['full', 7]);
  });

  it('deciderEvent is the type and data of a stored event', () => {
    expect(deciderEvent<Opened>(stored('Opened', { id: 'b1', size: 3 }))).toEqual({
      type: 'Opened',
      data: { id: 'b1', size: 3 },
    });
  });

  it('isRecordedEvent accepts what the relay publishes and nothing shapeless', () => {
    expect(isRecordedEvent(stored('Opened', {}))).toBe(true);
    for (const payload of [
      null,
      undefined,
      'Opened',
      { type: 'Opened' },
      { ...stored('Opened', {}), metadata: null },
    ])
      expect(isRecordedEvent(payload)).toBe(false);
  });

  it('causedBy: the same correlation, caused by the event, for its team unless another is named', () => {
    const event = stored('Opened', {});
    expect(causedBy(event)).toEqual({ correlationId: 'corr-1', causationId: 'ev_9', teamId: 'team-1' });
    expect(causedBy(event, 'team-2')).toEqual({
      correlationId: 'corr-1',
      causationId: 'ev_9',
      teamId: 'team-2',
    });
  });
});
