import {
  InProcessBus,
  KeyedQueue,
  NO_BUS_TRACING,
  eventTopic,
  streamCategory,
  type BusMessage,
  type InProcessBusTracing,
} from '../src';

// The MessageBus contract (ordering, redelivery, groups, request-reply) runs against the platform's
// InProcessBus, this class with tracing hooks, in libs/platform/test/embedded-adapters.spec.ts. Here:
// what the core adds on its own, the injected tracing.

const message = (id: string, headers?: Record<string, string>) => ({
  id,
  key: 'team-1',
  type: 'Thing',
  payload: { id },
  headers,
});

describe('InProcessBus (core) tracing hooks', () => {
  it('without hooks, delivers the headers as published and runs the handler as it is', async () => {
    const bus = new InProcessBus({ awaitHandled: true });
    const seen: BusMessage[] = [];
    await bus.subscribe('g', ['t'], async (m) => {
      seen.push(m);
    });
    await bus.publish('t', [message('m1', { a: '1' }), message('m2')]);
    await bus.close();
    expect(seen.map((m) => [m.id, m.headers])).toEqual([
      ['m1', { a: '1' }],
      ['m2', {}],
    ]);
    expect(NO_BUS_TRACING.outgoing(undefined)).toEqual({});
  });

  it('passes published and requested headers through `outgoing`, and runs every handler in `consume` with its group or served topic', async () => {
    const consumed: string[] = [];
    const tracing: InProcessBusTracing = {
      outgoing: (headers) => ({ ...headers, traceparent: 'tp-1' }),
      consume: async (group, m, handler) => {
        consumed.push(`${group}:${m.id}`);
        return handler();
      },
    };
    const bus = new InProcessBus({ tracing, awaitHandled: true });
    const seen: BusMessage[] = [];
    await bus.subscribe('group-a', ['t'], async (m) => {
      seen.push(m);
    });
    await bus.serve('commands', 'servers', async (m) => ({ echoed: m.headers }));
    await bus.publish('t', [message('m1', { a: '1' })]);
    const reply = await bus.request('commands', message('r1'), 1_000);
    await bus.close();
    expect(seen[0]!.headers).toEqual({ a: '1', traceparent: 'tp-1' });
    expect(reply).toEqual({ echoed: { traceparent: 'tp-1' } });
    expect(consumed).toEqual(['group-a:m1', 'commands:r1']);
  });
});

describe('KeyedQueue', () => {
  it('runs one key in order and other keys alongside', async () => {
    const queue = new KeyedQueue();
    const order: string[] = [];
    let releaseA!: () => void;
    const a1 = queue.push('a', () =>
      new Promise<void>((resolve) => (releaseA = resolve)).then(() => void order.push('a1')),
    );
    const a2 = queue.push('a', async () => void order.push('a2'));
    const b1 = queue.push('b', async () => void order.push('b1'));
    await b1;
    expect(order).toEqual(['b1']);
    releaseA();
    await Promise.all([a1, a2]);
    await queue.drain();
    expect(order).toEqual(['b1', 'a1', 'a2']);
  });

  it('keeps a key going after one of its tasks fails', async () => {
    const queue = new KeyedQueue();
    const failed = queue.push('a', async () => {
      throw new Error('boom');
    });
    const next = queue.push('a', async () => undefined);
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBeUndefined();
  });

  it("resolves each task's own result, in the key's order", async () => {
    const queue = new KeyedQueue();
    let releaseFirst!: () => void;
    const first = queue.push('a', () => new Promise<number>((resolve) => (releaseFirst = () => resolve(1))));
    const second = queue.push('a', async () => ({ name: 'second' }));
    const seen: unknown[] = [];
    void second.then((value) => seen.push(value));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
    releaseFirst();
    await expect(first).resolves.toBe(1);
    await expect(second).resolves.toEqual({ name: 'second' });
    expect(seen).toEqual([{ name: 'second' }]);
  });
});

describe('stream categories and topics', () => {
  it('names a stream by its prefix and a category by its topic', () => {
    expect(streamCategory('ledger-team_1')).toBe('ledger');
    expect(streamCategory('standalone')).toBe('standalone');
    expect(eventTopic('post')).toBe('analyst.events.post');
  });
});
