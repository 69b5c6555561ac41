import { randomUUID } from 'node:crypto';
import { KafkaJSNonRetriableError } from 'kafkajs';
import { Registry } from 'prom-client';
import { RequestTimeoutError } from '@analyst/eventsourcing';
import { HealthRegistry } from '@analyst/platform';
import { eventually, unique } from '@analyst/testing';
import { KafkaBus, type KafkaBusOptions } from '../src/kafka-bus';

const brokers = process.env.KAFKA_BROKERS?.split(',')
  .map((b) => b.trim())
  .filter(Boolean);

function message(key: string, payload: unknown) {
  return { id: randomUUID(), key, type: 'Test', payload };
}

async function metricValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return undefined;
  const { values } = await metric.get();
  return values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))?.value;
}

if (brokers && brokers.length > 0) {
  describe(`KafkaBus consumer supervision, health and metrics (${brokers.join(',')})`, () => {
    let bus: KafkaBus;
    let health: HealthRegistry;
    let metrics: Registry;
    const make = (extra: Partial<KafkaBusOptions> = {}) =>
      new KafkaBus({
        brokers,
        partitions: 2,
        namespace: unique('sup.'),
        retryDelayMs: 20,
        health,
        metricsRegistry: metrics,
        ...extra,
      });

    beforeEach(() => {
      health = new HealthRegistry();
      metrics = new Registry();
    });
    afterEach(async () => {
      await bus?.close();
    });

    it('replaces a consumer that crashed with "Failed to find group coordinator" and consumes again; not ready meanwhile', async () => {
      bus = make({ restartDelayMs: 300 });
      const seen: string[] = [];
      await bus.subscribe('ledger-maps', ['events.team'], async (m) => void seen.push(m.payload as string));
      await bus.publish('events.team', [message('team_1', 'one')]);
      await eventually(() => seen.includes('one') && bus.isReady(), 20_000);
      expect(health.report()).toEqual([
        { name: 'consumer:ledger-maps', ready: true, live: true, detail: 'group ledger-maps: consuming' },
      ]);

      // kafkajs raises this as non-retriable and, left alone, never restarts the consumer.
      const crashedAt = Date.now();
      expect(
        bus.restartConsumer('ledger-maps', new KafkaJSNonRetriableError('Failed to find group coordinator')),
      ).toBe(true);
      const [during] = health.report();
      expect(during).toMatchObject({ name: 'consumer:ledger-maps', ready: false, live: true });
      expect(during.detail).toBe(
        'group ledger-maps: restarting (attempt 1); last error: KafkaJSNonRetriableError: Failed to find group coordinator',
      );
      expect(bus.isReady()).toBe(false);

      await eventually(() => bus.isReady(), 30_000);
      const readyAfter = Date.now() - crashedAt;
      await bus.publish('events.team', [message('team_1', 'two')]);
      await eventually(() => seen.includes('two'), 30_000);
      const consumedAfter = Date.now() - crashedAt;
      console.log(
        `consumer replaced after a forced crash: ready again in ${readyAfter} ms, new message handled ${consumedAfter} ms after the crash`,
      );
      expect([...new Set(seen)]).toEqual(['one', 'two']);
      expect(
        await metricValue(metrics, 'analyst_kafka_consumer_restarts_total', { group: 'ledger-maps' }),
      ).toBe(1);
    }, 90_000);

    it('reports live: false once a consumer has not recovered for longer than consumerDeadAfterMs, and live again after it recovers', async () => {
      bus = make({ restartDelayMs: 4_000, consumerDeadAfterMs: 1_500 });
      await bus.subscribe('slow-to-recover', ['events.post'], async () => undefined);
      await eventually(() => bus.isReady(), 20_000);
      bus.restartConsumer('slow-to-recover', new Error('broker gone'));
      expect(health.notLive()).toEqual([]);
      await eventually(() => health.notLive().length === 1, 4_000);
      expect(health.notLive()[0]).toMatchObject({
        name: 'consumer:slow-to-recover',
        ready: false,
        live: false,
      });
      expect(health.notLive()[0].detail).toMatch(
        /^group slow-to-recover: restarting \(attempt 1\); last error: Error: broker gone; not recovered for \d+ s$/,
      );
      await eventually(() => bus.isReady(), 30_000);
      expect(health.notLive()).toEqual([]);
    }, 60_000);

    it('exposes consumer lag per group and topic, and counts request timeouts per topic', async () => {
      bus = make();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const handled: number[] = [];
      await bus.subscribe('lagging', ['events.post'], async (m) => {
        await gate;
        handled.push(m.payload as number);
      });
      await eventually(() => bus.isReady(), 20_000);
      await bus.publish(
        'events.post',
        Array.from({ length: 30 }, (_, i) => message(`post_${i % 5}`, i)),
      );
      // Nothing is handled while the gate is shut, so nothing is committed: all 30 are behind.
      await bus.refreshLag();
      expect(
        await metricValue(metrics, 'analyst_kafka_consumer_lag', { group: 'lagging', topic: 'events.post' }),
      ).toBe(30);

      release();
      await eventually(() => handled.length >= 30, 20_000);
      await eventually(
        async () => {
          await bus.refreshLag();
          return (
            (await metricValue(metrics, 'analyst_kafka_consumer_lag', {
              group: 'lagging',
              topic: 'events.post',
            })) === 0
          );
        },
        20_000,
        500,
      );

      const failure = await bus
        .request('commands.nobody', message('team_1', 'x'), 300)
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RequestTimeoutError);
      expect(
        await metricValue(metrics, 'analyst_kafka_request_timeouts_total', { topic: 'commands.nobody' }),
      ).toBe(1);
      const text = await metrics.metrics();
      expect(text).toContain('analyst_kafka_consumer_lag{group="lagging",topic="events.post"} 0');
      expect(text).toContain('analyst_kafka_request_timeouts_total{topic="commands.nobody"} 1');
    }, 60_000);
  });
} else {
  describe('KafkaBus consumer supervision', () => {
    it.skip('skipped: no KAFKA_BROKERS (start deploy/local/start.sh or run npm run test:integration)', () =>
      undefined);
  });
}
