// Publish-to-handle latency and throughput of the in-process bus and (with KAFKA_BROKERS) Kafka.
// Run: npm run bench -- bench/bus.ts [messages=20000]
import { randomBytes, randomUUID } from 'node:crypto';
import { InProcessBus, KafkaBus, type MessageBus, type OutgoingMessage } from '@analyst/platform';

const TOTAL = Number(process.argv[2] ?? 20_000);
const KEYS = 8;
const BATCH = 200;
const SINGLE = 1_000;

interface Sent {
  seq: number;
  sentAt: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function run(name: string, bus: MessageBus): Promise<void> {
  const topic = `bench.bus.${randomBytes(4).toString('hex')}`;
  const latencies: number[] = [];
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const seen = new Set<number>();
  const sub = await bus.subscribe(`bench-${randomBytes(4).toString('hex')}`, [topic], async (m) => {
    const payload = m.payload as Sent;
    if (payload.seq < 0 || seen.has(payload.seq)) return;
    seen.add(payload.seq);
    latencies.push(performance.now() + performance.timeOrigin - payload.sentAt);
    if (seen.size === TOTAL) done();
  });
  // A warm-up message: topic metadata, partition leaders and the group assignment are in place.
  await bus.publish(topic, [
    { id: randomUUID(), key: 'warm', type: 'Warm', payload: { seq: -1, sentAt: 0 } },
  ]);
  await new Promise((r) => setTimeout(r, 500));
  seen.clear();
  latencies.length = 0;

  const started = performance.now();
  for (let i = 0; i < TOTAL; i += BATCH) {
    const now = performance.now() + performance.timeOrigin;
    const batch: OutgoingMessage[] = [];
    for (let j = i; j < Math.min(TOTAL, i + BATCH); j++) {
      batch.push({
        id: randomUUID(),
        key: `team_${j % KEYS}`,
        type: 'BenchPing',
        payload: { seq: j, sentAt: now },
      });
    }
    await bus.publish(topic, batch);
  }
  await finished;
  const seconds = (performance.now() - started) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `${name.padEnd(12)} ${TOTAL.toLocaleString('en-US')} msgs over ${KEYS} keys in batches of ${BATCH}, as fast as publish returns: ` +
      `${Math.round(TOTAL / seconds).toLocaleString('en-US')} msgs/s, ` +
      `publish-to-handle p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms (includes queueing)`,
  );

  // Unloaded latency: one message in flight at a time.
  const single: number[] = [];
  for (let i = 0; i < SINGLE; i++) {
    const before = seen.size;
    const sentAt = performance.now() + performance.timeOrigin;
    await bus.publish(topic, [
      { id: randomUUID(), key: `team_${i % KEYS}`, type: 'BenchPing', payload: { seq: TOTAL + i, sentAt } },
    ]);
    while (seen.size === before) await new Promise((r) => setImmediate(r));
    single.push(latencies[latencies.length - 1]);
  }
  single.sort((a, b) => a - b);
  console.log(
    `${''.padEnd(12)} ${SINGLE.toLocaleString('en-US')} msgs one at a time: publish-to-handle p50 ${percentile(single, 50).toFixed(3)} ms, p99 ${percentile(single, 99).toFixed(3)} ms`,
  );
  await sub.close();
  await bus.close();
}

async function main(): Promise<void> {
  await run('in-process', new InProcessBus());
  const brokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean);
  if (brokers && brokers.length > 0) await run('kafka', new KafkaBus({ brokers }));
  else console.log('kafka        skipped (set KAFKA_BROKERS)');
}

void main();
