import type { DomainEvent, MessageHandler, Recorded } from '@analyst/eventsourcing';
import { delivered, recorded } from '@analyst/testing';
import { EventConsumer, InProcessBus, MalformedEventError, type MessageBus } from '../src';

type Opened = DomainEvent<'Opened', { n: number }>;
type Closed = DomainEvent<'Closed', { why: string }>;

class Rejection extends Error {}
class Repeat extends Error {}

/** Records what reaches `on`, already narrowed; `fail` makes the next call throw. */
class Recorder extends EventConsumer<Opened | Closed> {
  readonly seen: Recorded<Opened | Closed>[] = [];
  readonly wrapped: string[] = [];
  fail: Error | null = null;

  constructor(bus: MessageBus) {
    super(bus, {
      name: 'Recorder',
      group: 'recorder',
      topics: ['analyst.events.thing'],
      types: ['Opened', 'Closed'],
      wrap: (handler: MessageHandler) => async (message) => {
        this.wrapped.push(message.id);
        return handler(message);
      },
    });
  }

  protected async on(event: Recorded<Opened | Closed>): Promise<void> {
    if (this.fail) throw this.fail;
    // The union narrows on `type`: no cast of `data`.
    if (event.type === 'Opened') expect(typeof event.data.n).toBe('number');
    else expect(typeof event.data.why).toBe('string');
    this.seen.push(event);
  }

  protected override alreadyHandled(error: unknown): boolean {
    return error instanceof Repeat;
  }

  protected override refused(error: unknown): boolean {
    return error instanceof Rejection;
  }
}

const opened = recorded<Opened>({ type: 'Opened', data: { n: 1 } }, { id: 'ev_1', streamId: 'thing-1' });

describe('EventConsumer', () => {
  it('subscribes at module start through the wrap, and receives nothing after module end', async () => {
    const bus = new InProcessBus({ awaitHandled: true });
    const consumer = new Recorder(bus);
    await consumer.onModuleInit();
    await bus.publish('analyst.events.thing', [
      { id: 'ev_1', key: 'thing-1', type: 'Opened', payload: opened },
    ]);
    expect(consumer.seen.map((e) => e.id)).toEqual(['ev_1']);
    expect(consumer.wrapped).toEqual(['ev_1']);
    await consumer.onModuleDestroy();
    await consumer.onModuleDestroy(); // twice is harmless
    void bus.publish('analyst.events.thing', [
      { id: 'ev_2', key: 'thing-1', type: 'Opened', payload: opened },
    ]);
    await new Promise((r) => setTimeout(r, 20));
    expect(consumer.seen.map((e) => e.id)).toEqual(['ev_1']);
    await bus.close();
  });

  it('hands over only the types it lists', async () => {
    const consumer = new Recorder({} as MessageBus);
    await consumer.handle(delivered(recorded({ type: 'Renamed', data: { to: 'x' } })));
    await consumer.handle(delivered(recorded<Closed>({ type: 'Closed', data: { why: 'done' } })));
    expect(consumer.seen.map((e) => e.type)).toEqual(['Closed']);
  });

  it('fails on a payload that is not a stored event, so the bus delivers it again', async () => {
    const consumer = new Recorder({} as MessageBus);
    const message = { ...delivered(opened), payload: null };
    await expect(consumer.handle(message)).rejects.toBeInstanceOf(MalformedEventError);
    await expect(consumer.handle({ ...message, payload: { type: 'Opened' } })).rejects.toBeInstanceOf(
      MalformedEventError,
    );
    expect(consumer.seen).toEqual([]);
  });

  it('settles failures through its hooks: already handled and refused end the delivery, anything else is rethrown', async () => {
    const consumer = new Recorder({} as MessageBus);
    consumer.fail = new Repeat('done before');
    await expect(consumer.handle(delivered(opened))).resolves.toBeUndefined();
    consumer.fail = new Rejection('a rule said no');
    await expect(consumer.handle(delivered(opened))).resolves.toBeUndefined();
    const down = new Error('store down');
    consumer.fail = down;
    await expect(consumer.handle(delivered(opened))).rejects.toBe(down);
  });
});
