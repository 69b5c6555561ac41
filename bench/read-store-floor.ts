// The floor the distributed topology stands on: what one MongoDB-protocol server answers per
// operation the gateway and the projections use, against the size of the collection. On the local
// stack (FerretDB 1.24 on SQLite) only an insert stays flat: a find by _id scans (FerretDB pushes
// `{_id}` down as json->'$._id' while its _id index is on json->"_id", so SQLite cannot use it), an
// update by _id grows with the collection, and atomic updates are serialized; MongoDB answers all
// of them from the _id index.
// Needs a server: deploy/local/with-stack.sh npm run bench -- bench/read-store-floor.ts
import { MongoClient } from 'mongodb';

const SIZES = [10, 100, 1000, 3000];
const OPS = 200;
const CONCURRENCY = 32;

async function timed(n: number, op: (i: number) => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await op(i);
  return Number(process.hrtime.bigint() - started) / 1e6 / n;
}

async function throughput(seconds: number, op: (worker: number) => Promise<unknown>): Promise<number> {
  let done = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (Date.now() < end) {
        await op(worker);
        done++;
      }
    }),
  );
  return Math.round(done / seconds);
}

async function main(): Promise<void> {
  const url = process.env.MONGO_URL;
  if (!url) throw new Error('MONGO_URL is not set: run through deploy/local/with-stack.sh');
  const client = await new MongoClient(url).connect();
  const db = client.db(`read_store_floor_${Date.now()}`);
  try {
    const info = await db.admin().command({ buildInfo: 1 });
    console.log(
      `server: ${info.ferretdbVersion ? `FerretDB ${info.ferretdbVersion}` : `MongoDB ${info.version}`}`,
    );
    const docs = db.collection<{ _id: string; teamId: string; pad: string; s?: number }>('docs');
    const pad = 'x'.repeat(2000);
    let stored = 0;
    for (const size of SIZES) {
      const batch = [];
      while (stored < size) batch.push({ _id: `d${stored++}`, teamId: 't', pad });
      if (batch.length > 0) await docs.insertMany(batch);
      // Ids from the whole collection, and ids it does not hold: a scan that stops at the first match
      // looks flat when only the first documents are asked for.
      const find = await timed(OPS, (i) => docs.findOne({ _id: `d${(i * 7919) % size}` }));
      const miss = await timed(OPS, (i) => docs.findOne({ _id: `missing${i}` }));
      const insert = await timed(OPS, (i) => docs.insertOne({ _id: `n${size}-${i}`, teamId: 't', pad }));
      await docs.deleteMany({ _id: { $regex: `^n${size}-` } });
      const update = await timed(OPS, (i) => docs.updateOne({ _id: `d${i % 10}` }, { $set: { s: i } }));
      console.log(
        `${String(size).padStart(5)} docs of ~2 KB: findOne by _id ${find.toFixed(2)} ms (absent ${miss.toFixed(2)} ms), insertOne ${insert.toFixed(2)} ms, updateOne by _id ${update.toFixed(2)} ms (mean of ${OPS}, one at a time)`,
      );
    }
    // The gateway's rate-counter charge: one findOneAndUpdate $inc per request on a small collection.
    const counters = db.collection<{ _id: string }>('counters');
    await counters.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `k${i}` })));
    const charges = await throughput(5, (w) =>
      counters.findOneAndUpdate(
        { _id: `k${w % 50}` },
        { $inc: { 'd.global': 1 } },
        { upsert: true, returnDocument: 'after' },
      ),
    );
    const reads = await throughput(5, (w) => counters.findOne({ _id: `k${w % 50}` }));
    console.log(
      `${CONCURRENCY} concurrent clients: findOneAndUpdate $inc by _id ${charges} ops/s, findOne by _id ${reads} ops/s`,
    );
  } finally {
    await db.dropDatabase();
    await client.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
