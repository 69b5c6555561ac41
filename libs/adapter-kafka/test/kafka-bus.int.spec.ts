import { randomUUID } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import { RequestTimeoutError, type BusMessage } from '@analyst/eventsourcing';
import { eventually, messageBusContract, unique } from '@analyst/testing';
import { KafkaBus, type KafkaBusOptions } from '../src/kafka-bus';

const brokers = process.env.KAFKA_BROKERS?.split(',')
  .map((b) => b.trim())
  .filter(Boolean);
const PARTITIONS = 4;

function message(key: string, payload: unknown) {
  return { id: randomUUID(), key, type: 'Test', payload };
}

/** Where the producer's murmur2 partitioner puts a key, so tests can pick keys on distinct partitions. */
function partitionOf(key: string): number {
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionMetadata = Array.from({ length: PARTITIONS }, (_, partitionId) => ({
    partitionId,
    leader: 1,
    partitionErrorCode: 0,
    replicas: [1],
    isr: [1],
  }));
  return partitioner({ topic: 't', partitionMetadata, message: { key, value: null } });
}

/** One key per partition. */
function keysOnEveryPartition(): string[] {
  const byPartition = new Map<number, string>();
  for (let i = 0; byPartition.size < PARTITIONS; i++) {
    const key = `team_${i}`;
    if (!byPartition.has(partitionOf(key))) byPartition.set(partitionOf(key), key);
  }
  return [...byPartition.entries()].sort(([a], [b]) => a - b).map(([, key]) => key);
}

if (brokers && brokers.length > 0) {
  const where = brokers.join(',');
  const make = (extra: Partial<KafkaBusOptions> = {}) =>
    new KafkaBus({ brokers, partitions: PARTITIONS, retryDelayMs: 20, ...extra });

  describe(`Kafka topic settings at ${where}`, () => {
    it('creates topics with KAFKA_MIN_INSYNC_REPLICAS as min.insync.replicas, and the replication factor asked for', async () => {
      const namespace = `${unique('isr')}.`;
      const bus = make({ namespace, replicationFactor: 1, minInsyncReplicas: 2 });
      const { Kafka } = await import('kafkajs');
      const admin = new Kafka({ brokers, logLevel: 0 }).admin();
      await admin.connect();
      try {
        await bus.ensureTopics([`${namespace}analyst.events.isr`]);
        const described = await admin.describeConfigs({
          includeSynonyms: false,
          resources: [
            { type: 2, name: `${namespace}analyst.events.isr`, configNames: ['min.insync.replicas'] },
          ],
        });
        expect(
          described.resources[0].configEntries.find((e) => e.configName === 'min.insync.replicas')
            ?.configValue,
        ).toBe('2');
        const topics = await admin.fetchTopicMetadata({ topics: [`${namespace}analyst.events.isr`] });
        expect(topics.topics[0].partitions).toHaveLength(PARTITIONS);
        expect(topics.topics[0].partitions.every((p) => p.replicas.length === 1)).toBe(true);
      } finally {
        await admin
          .connect()
          .then(() => admin.deleteTopics({ topics: [`${namespace}analyst.events.isr`] }))
          .catch(() => undefined);
        await admin.disconnect();
        await bus.close();
      }
    }, 60_000);
  });

  messageBusContract(`Kafka at ${where}`, async () => ({ bus: make(), other: make() }), {
    timeoutMs: 30_000,
  });

  messageBusContract(
    `Kafka at ${where}, every message produced twice`,
    async () => ({
      bus: make({ duplicateDelivery: true }),
      other: make({ duplicateDelivery: true }),
      duplicates: true,
    }),
    { timeoutMs: 30_000 },
  );

  describe(`KafkaBus at ${where}`, () => {
    let bus: KafkaBus;
    let other: KafkaBus;

    beforeEach(() => {
      bus = make();
      other = make();
    });
    afterEach(async () => {
      await bus.close();
      await other.close();
    });

    it('keeps installations that share a cluster apart by namespace, showing handlers the unprefixed topic', async () => {
      const a = make({ namespace: unique('ns-a.') });
      const b = make({ namespace: unique('ns-b.') });
      const topic = unique('test.');
      const group = unique('g-');
      const seenA: BusMessage[] = [];
      const seenB: BusMessage[] = [];
      const subA = await a.subscribe(group, [topic], async (m) => void seenA.push(m));
      const subB = await b.subscribe(group, [topic], async (m) => void seenB.push(m));
      await a.publish(topic, [message('k', 'for a')]);
      await b.publish(topic, [message('k', 'for b')]);
      await eventually(() => seenA.length >= 1 && seenB.length >= 1, 30_000);
      await new Promise((r) => setTimeout(r, 300));
      await subA.close();
      await subB.close();
      await a.close();
      await b.close();
      expect(seenA.map((m) => [m.topic, m.payload])).toEqual([[topic, 'for a']]);
      expect(seenB.map((m) => [m.topic, m.payload])).toEqual([[topic, 'for b']]);
    });

    it('keeps per-key order for 1,000 messages on keys spread over every partition, split between two consumers', async () => {
      const keys = keysOnEveryPartition();
      expect(new Set(keys.map(partitionOf)).size).toBe(PARTITIONS);
      const topic = unique('test.');
      const group = unique('g-');
      const seen = new Map<string, number[]>(keys.map((k) => [k, []]));
      const consumersOf = new Map<string, Set<string>>(keys.map((k) => [k, new Set()]));
      const handler = (name: string) => async (m: BusMessage) => {
        seen.get(m.key)!.push((m.payload as { seq: number }).seq);
        consumersOf.get(m.key)!.add(name);
      };
      const first = await bus.subscribe(group, [topic], handler('bus'));
      const second = await other.subscribe(group, [topic], handler('other'));
      const batch = Array.from({ length: 1000 }, (_, i) => message(keys[i % keys.length], { seq: i }));
      for (let i = 0; i < batch.length; i += 50) await bus.publish(topic, batch.slice(i, i + 50));
      const distinct = () => keys.reduce((n, k) => n + new Set(seen.get(k)).size, 0);
      await eventually(() => distinct() === 1000, 60_000);
      await first.close();
      await second.close();
      for (const key of keys) {
        const firstSeen = [...new Set(seen.get(key))];
        expect(firstSeen).toHaveLength(1000 / keys.length);
        expect(firstSeen).toEqual([...firstSeen].sort((x, y) => x - y));
      }
      // Both group members took part: the partitions were really split.
      const members = new Set([...consumersOf.values()].flatMap((s) => [...s]));
      expect(members).toEqual(new Set(['bus', 'other']));
    }, 90_000);

    it('leaves a message whose handler keeps failing uncommitted, so the restarted group member gets it, and only what was not committed', async () => {
      const [stuckKey, ...okKeys] = keysOnEveryPartition();
      const topic = unique('test.');
      const group = unique('g-');
      const sent = Array.from({ length: 200 }, (_, i) =>
        message([stuckKey, ...okKeys][i % PARTITIONS], { seq: i }),
      );
      const stuckFrom = sent.find((m) => m.key === stuckKey && (m.payload as { seq: number }).seq >= 100)!;
      const handledFirst = new Set<number>();
      let failures = 0;
      const first = await bus.subscribe(group, [topic], async (m) => {
        const seq = (m.payload as { seq: number }).seq;
        if (m.key === stuckKey && seq >= (stuckFrom.payload as { seq: number }).seq) {
          failures += 1;
          throw new Error('downstream unavailable');
        }
        handledFirst.add(seq);
      });
      await bus.publish(topic, sent);
      const okCount = sent.filter(
        (m) => m.key !== stuckKey || (m.payload as { seq: number }).seq < 100,
      ).length;
      // Generous: on a loaded 2-core CI machine the group join alone has taken most of 30 s.
      await eventually(() => handledFirst.size === okCount && failures >= 2, 75_000).catch((error: Error) => {
        throw new Error(`${error.message}: handled ${handledFirst.size} of ${okCount}, ${failures} failures`);
      });
      await first.close();

      const handledSecond: number[] = [];
      const second = await other.subscribe(group, [topic], async (m) => {
        handledSecond.push((m.payload as { seq: number }).seq);
      });
      const stuck = sent.filter((m) => m.key === stuckKey && (m.payload as { seq: number }).seq >= 100);
      await eventually(
        () => stuck.every((m) => handledSecond.includes((m.payload as { seq: number }).seq)),
        30_000,
      );
      await new Promise((r) => setTimeout(r, 500));
      await second.close();
      // Everything the first member never managed reached the second one, in order ...
      expect(handledSecond).toEqual(stuck.map((m) => (m.payload as { seq: number }).seq));
      // ... and nothing it had handled was delivered again: those offsets were committed.
      expect(handledSecond.filter((seq) => handledFirst.has(seq))).toEqual([]);
    }, 150_000);

    it('keeps every other partition flowing while one message keeps failing, and retries that one in order', async () => {
      const [stuckKey, ...okKeys] = keysOnEveryPartition();
      const topic = unique('test.');
      const handled: number[] = [];
      let failing = true;
      let failures = 0;
      const subscription = await bus.subscribe(unique('g-'), [topic], async (m) => {
        const seq = (m.payload as { seq: number }).seq;
        if (m.key === stuckKey && failing) {
          failures += 1;
          throw new Error('downstream unavailable');
        }
        handled.push(seq);
      });
      await bus.publish(topic, [message(stuckKey, { seq: 0 }), message(stuckKey, { seq: 1 })]);
      await eventually(() => failures >= 1, 75_000);
      // Published after the failure began: a consumer retrying in place never fetches these.
      const later = Array.from({ length: 30 }, (_, i) =>
        message(okKeys[i % okKeys.length], { seq: 100 + i }),
      );
      await bus.publish(topic, later);
      await eventually(
        () => later.every((m) => handled.includes((m.payload as { seq: number }).seq)),
        30_000,
      );
      expect(handled.filter((seq) => seq < 100)).toEqual([]);
      await eventually(() => failures >= 3, 30_000); // retried meanwhile, with backoff
      failing = false;
      await eventually(() => handled.includes(1), 30_000);
      await subscription.close();
      // The stuck partition's messages arrive once each, in their order.
      expect(handled.filter((seq) => seq < 100)).toEqual([0, 1]);
    }, 150_000);

    it('times out a request whose handler is too slow, ignores the late reply, and answers the next one', async () => {
      const topic = unique('cmd.');
      let calls = 0;
      const server = await bus.serve(topic, unique('srv-'), async (m) => {
        calls += 1;
        if (calls === 1) await new Promise((r) => setTimeout(r, 1_500));
        return { echo: m.payload };
      });
      const failure = (await other
        .request(topic, message('team_1', 'slow'), 500)
        .catch((e: unknown) => e)) as RequestTimeoutError;
      expect(failure).toBeInstanceOf(RequestTimeoutError);
      expect(failure).toMatchObject({ topic, timeoutMs: 500 });
      const reply = await other.request<{ echo: string }>(topic, message('team_1', 'fast'), 20_000);
      expect(reply).toEqual({ echo: 'fast' });
      await server.close();
    }, 60_000);

    it('routes concurrent requests from two instances to their own callers', async () => {
      const topic = unique('cmd.');
      const server = await bus.serve(topic, unique('srv-'), async (m) => ({ n: m.payload, key: m.key }));
      const asks = Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? bus : other).request<{ n: number; key: string }>(topic, message(`team_${i % 3}`, i), 20_000),
      );
      const replies = await Promise.all(asks);
      await server.close();
      expect(replies.map((r) => r.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(replies.map((r) => r.key)).toEqual(Array.from({ length: 20 }, (_, i) => `team_${i % 3}`));
    }, 60_000);
  });
} else {
  describe('MessageBus contract: Kafka', () => {
    it.skip('skipped: no KAFKA_BROKERS (start deploy/local/start.sh or run npm run test:integration)', () =>
      undefined);
  });
}
