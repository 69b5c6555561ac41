import { EventEmitter } from 'node:events';
import type { Kafka } from 'kafkajs';
import { eventually } from '@analyst/testing';
import { SupervisedConsumer } from '../src/kafka-consumer';

/**
 * A kafkajs consumer that connects, subscribes and runs, then never joins, fetches or heartbeats
 * and never crashes: what a leaked metadata rejection left behind at start-up.
 */
function hangingKafka(created: { count: number }): Kafka {
  return {
    consumer: () => {
      created.count += 1;
      const emitter = new EventEmitter();
      return {
        events: {
          GROUP_JOIN: 'join',
          REBALANCING: 'rebalancing',
          FETCH: 'fetch',
          HEARTBEAT: 'heartbeat',
          CRASH: 'crash',
        },
        on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
        connect: async () => undefined,
        subscribe: async () => undefined,
        run: async () => undefined,
        disconnect: async () => undefined,
      };
    },
  } as unknown as Kafka;
}

describe('SupervisedConsumer watchdog', () => {
  it('replaces a consumer that never joins, fetches or heartbeats without crashing, and says why', async () => {
    const created = { count: 0 };
    const errors: string[] = [];
    const consumer = new SupervisedConsumer({
      kafka: hangingKafka(created),
      groupId: 'g',
      name: 'g',
      topics: ['t'],
      config: {},
      fromBeginning: true,
      autoCommitIntervalMs: 500,
      partitionsConsumedConcurrently: 1,
      eachBatch: async () => undefined,
      restartDelayMs: 10,
      maxRestartDelayMs: 20,
      stallAfterMs: 40,
      hangAfterMs: 80,
      deadAfterMs: 60_000,
      onError: (e) => errors.push(String(e)),
    });
    await consumer.start();
    expect(consumer.health().ready).toBe(false);
    await eventually(() => consumer.restartCount >= 2, 5_000);
    expect(created.count).toBeGreaterThanOrEqual(3);
    expect(errors[0]).toMatch(/^Error: stalled: no join, fetch or heartbeat for \d+ s$/);
    await consumer.close();
    const after = created.count;
    await new Promise((r) => setTimeout(r, 200));
    expect(created.count).toBe(after);
  });
});
