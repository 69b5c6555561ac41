// Append and replay throughput of the embedded SQLite event store.
// Run: npm run build && node dist/bench/event-store.js [events=1000000]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, type NewEvent } from '@analyst/platform';

const TOTAL = Number(process.argv[2] ?? 1_000_000);

function makeEvent(i: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'CreditsReserved',
    schemaVersion: 1,
    data: { reservationId: `res_${i}`, amount: 1 + (i % 5), fromMaps: 1, fromAdhoc: 0 },
    metadata: {
      correlationId: `corr_${i}`,
      causationId: null,
      teamId: `team_${i % 100}`,
      occurredAt: '2026-11-22T00:00:00.000Z',
    },
  };
}

async function appendRun(
  store: SqliteEventStore,
  events: number,
  batch: number,
  streams: number,
): Promise<number> {
  const revisions = new Array<number>(streams).fill(-1);
  const started = process.hrtime.bigint();
  for (let i = 0; i < events; i += batch) {
    const s = (i / batch) % streams;
    const chunk = Array.from({ length: Math.min(batch, events - i) }, (_, j) => makeEvent(i + j));
    const result = await store.append(
      `ledger-team_${s}`,
      chunk,
      revisions[s] < 0 ? 'no_stream' : revisions[s],
    );
    revisions[s] = result.nextExpectedRevision;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return events / seconds;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-bench-es-'));
  try {
    for (const synchronous of ['FULL', 'NORMAL'] as const) {
      const store = new SqliteEventStore({ filename: join(dir, `single-${synchronous}.db`), synchronous });
      const single = await appendRun(store, 20_000, 1, 100);
      await store.close();
      console.log(
        `append, batches of 1   (synchronous=${synchronous}): ${Math.round(single).toLocaleString('en-US')} events/s`,
      );
    }
    const store = new SqliteEventStore({ filename: join(dir, 'bulk.db') });
    const bulk = await appendRun(store, TOTAL, 100, 100);
    console.log(
      `append, batches of 100 (synchronous=FULL): ${Math.round(bulk).toLocaleString('en-US')} events/s over ${TOTAL.toLocaleString('en-US')} events (target >= 20,000)`,
    );

    const started = process.hrtime.bigint();
    let replayed = 0;
    for await (const page of store.readAll(-1, 10_000)) replayed += page.length;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(
      `full replay: ${replayed.toLocaleString('en-US')} events in ${seconds.toFixed(2)} s = ${Math.round(replayed / seconds).toLocaleString('en-US')} events/s (target >= 200,000)`,
    );
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
