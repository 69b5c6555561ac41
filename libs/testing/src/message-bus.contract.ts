import { randomUUID } from 'node:crypto';
import { RequestFailedError, RequestTimeoutError, type BusMessage, type MessageBus } from '@analyst/platform';
import { eventually, unique } from './unique';

export interface MessageBusFixture {
  /** Two handles on the same broker, as two processes would have. */
  bus: MessageBus;
  other?: MessageBus;
  /** True when the adapter runs in deliver-twice mode. */
  duplicates?: boolean;
  teardown?: () => Promise<void>;
}

export interface MessageBusContractOptions {
  /** How long to wait for deliveries; real brokers need more. */
  timeoutMs?: number;
}

function message(key: string, payload: unknown, type = 'Test') {
  return { id: randomUUID(), key, type, payload };
}

/** Behaviour every MessageBus adapter must share: at-least-once, per-key order, groups, request-reply. */
export function messageBusContract(
  name: string,
  setup: () => Promise<MessageBusFixture>,
  options: MessageBusContractOptions = {},
): void {
  const wait = options.timeoutMs ?? 10_000;

  describe(`MessageBus contract: ${name}`, () => {
    let fixture: MessageBusFixture;
    let bus: MessageBus;

    beforeEach(async () => {
      fixture = await setup();
      bus = fixture.bus;
    });
    afterEach(async () => {
      await fixture.bus.close();
      await fixture.other?.close();
      await fixture.teardown?.();
    });

    it('delivers a published message with its key, type, payload and headers', async () => {
      const topic = unique('test.');
      const seen: BusMessage[] = [];
      const sub = await bus.subscribe(unique('g-'), [topic], async (m) => void seen.push(m));
      const sent = { ...message('k1', { a: 1 }), headers: { 'x-correlation-id': 'c1' } };
      await bus.publish(topic, [sent]);
      await eventually(() => seen.length >= 1, wait);
      await sub.close();
      expect(seen[0]).toMatchObject({ id: sent.id, key: 'k1', type: 'Test', payload: { a: 1 }, topic });
      expect(seen[0].headers['x-correlation-id']).toBe('c1');
      if (!fixture.duplicates) expect(seen).toHaveLength(1);
    });

    it('gives every group every message', async () => {
      const topic = unique('test.');
      const a: string[] = [];
      const b: string[] = [];
      const subA = await bus.subscribe(unique('ga-'), [topic], async (m) => void a.push(m.id));
      const subB = await bus.subscribe(unique('gb-'), [topic], async (m) => void b.push(m.id));
      const sent = [message('k1', 1), message('k2', 2), message('k3', 3)];
      await bus.publish(topic, sent);
      await eventually(() => new Set(a).size === 3 && new Set(b).size === 3, wait);
      await subA.close();
      await subB.close();
      expect(new Set(a)).toEqual(new Set(sent.map((m) => m.id)));
      expect(new Set(b)).toEqual(new Set(sent.map((m) => m.id)));
    });

    it('keeps order per key across 1,000 messages on several keys', async () => {
      const topic = unique('test.');
      const keys = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
      const seen = new Map<string, number[]>(keys.map((k) => [k, []]));
      const sub = await bus.subscribe(unique('g-'), [topic], async (m) => {
        seen.get(m.key)!.push((m.payload as { seq: number }).seq);
      });
      const batch = Array.from({ length: 1000 }, (_, i) => message(keys[i % keys.length], { seq: i }));
      for (let i = 0; i < batch.length; i += 100) await bus.publish(topic, batch.slice(i, i + 100));
      const distinct = () => keys.reduce((n, k) => n + new Set(seen.get(k)).size, 0);
      await eventually(() => distinct() === 1000, wait * 3);
      await sub.close();
      for (const key of keys) {
        // Duplicates may repeat a message, but never move an earlier one after a later one.
        const firstSeen = [...new Set(seen.get(key))];
        expect(firstSeen).toEqual([...firstSeen].sort((x, y) => x - y));
        expect(firstSeen).toHaveLength(200);
      }
    });

    it('redelivers a message whose handler failed (at least once)', async () => {
      const topic = unique('test.');
      let attempts = 0;
      const handled: string[] = [];
      const sub = await bus.subscribe(unique('g-'), [topic], async (m) => {
        attempts += 1;
        if (attempts === 1) throw new Error('transient');
        handled.push(m.id);
      });
      const sent = message('k', 'x');
      await bus.publish(topic, [sent]);
      await eventually(() => handled.length >= 1, wait);
      await sub.close();
      expect(attempts).toBeGreaterThanOrEqual(2);
      expect(handled[0]).toBe(sent.id);
    });

    it('an idempotent handler ends with each message applied once, even under duplicate delivery', async () => {
      const topic = unique('test.');
      const applied = new Set<string>();
      let total = 0;
      let deliveries = 0;
      const sub = await bus.subscribe(unique('g-'), [topic], async (m) => {
        deliveries += 1;
        if (applied.has(m.id)) return;
        applied.add(m.id);
        total += (m.payload as { amount: number }).amount;
      });
      const sent = Array.from({ length: 50 }, (_, i) => message(`k${i % 3}`, { amount: i + 1 }));
      await bus.publish(topic, sent);
      await eventually(() => applied.size === 50, wait);
      await sub.close();
      expect(total).toBe((50 * 51) / 2);
      if (fixture.duplicates) expect(deliveries).toBe(100);
    });

    it("hands a stopped consumer's remaining messages to its restarted successor without loss", async () => {
      const topic = unique('test.');
      const group = unique('g-');
      const handled = new Set<number>();
      let stopAt: (() => void) | null = null;
      const halfway = new Promise<void>((resolve) => (stopAt = resolve));
      const first = await bus.subscribe(group, [topic], async (m) => {
        handled.add((m.payload as { seq: number }).seq);
        if (handled.size === 50) stopAt?.();
        await new Promise((r) => setTimeout(r, 2));
      });
      await bus.publish(
        topic,
        Array.from({ length: 200 }, (_, i) => message(`k${i % 4}`, { seq: i })),
      );
      await halfway;
      await first.close();
      const before = handled.size;
      expect(before).toBeLessThan(200);
      const second = await (fixture.other ?? bus).subscribe(group, [topic], async (m) => {
        handled.add((m.payload as { seq: number }).seq);
      });
      await eventually(() => handled.size === 200, wait * 3);
      await second.close();
      expect(handled.size).toBe(200);
    });

    it('answers a request through the serving handler', async () => {
      const topic = unique('cmd.');
      const server = await bus.serve(topic, unique('srv-'), async (m) => ({
        doubled: (m.payload as number) * 2,
        key: m.key,
      }));
      const reply = await (fixture.other ?? bus).request<{ doubled: number; key: string }>(
        topic,
        message('team_1', 21),
        wait,
      );
      await server.close();
      expect(reply).toEqual({ doubled: 42, key: 'team_1' });
    });

    it('fails a request with a typed timeout when nobody answers in time', async () => {
      const topic = unique('cmd.');
      const started = Date.now();
      const failure = (await bus
        .request(topic, message('team_1', 1), 300)
        .catch((e: unknown) => e)) as RequestTimeoutError;
      expect(failure).toBeInstanceOf(RequestTimeoutError);
      expect(failure.timeoutMs).toBe(300);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    });

    it("surfaces a serving handler's error as a typed failure", async () => {
      const topic = unique('cmd.');
      const server = await bus.serve(topic, unique('srv-'), async () => {
        throw new Error('ledger unavailable');
      });
      const failure = (await bus
        .request(topic, message('team_1', 1), wait)
        .catch((e: unknown) => e)) as RequestFailedError;
      await server.close();
      expect(failure).toBeInstanceOf(RequestFailedError);
      expect(failure.remoteMessage).toBe('ledger unavailable');
    });
  });
}
