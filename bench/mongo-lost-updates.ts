// Lost updates on one document under concurrent clients, per MongoDB-protocol server: what the
// local stack's stand-in must not lose (issue 29). 8 clients (own connections, as replicas are):
// 500 `updateOne($inc)` each, then 100 `{ _id, _version }`-guarded read-modify-writes each (the
// projection runtime's write), then 2 s of `findOneAndUpdate($inc)` (the rate counters' write): its
// throughput, and how many answers repeated a count another client was given.
// Needs a server: MONGO_URL=… npm run bench -- bench/mongo-lost-updates.ts
// (deploy/local/start.sh runs mongo-java-server; ANALYST_MONGO_STANDIN=ferretdb runs FerretDB).
import { MongoClient, type Collection } from 'mongodb';

const CLIENTS = 8;
const INCS = 500;
const GUARDED = 100;

interface Counter {
  _id: string;
  n: number;
  _version: number;
}

function each<T>(clients: MongoClient[], db: string, fn: (c: Collection<Counter>, i: number) => Promise<T>) {
  return Promise.all(clients.map((client, i) => fn(client.db(db).collection<Counter>('counters'), i)));
}

async function main(): Promise<void> {
  const url = process.env.MONGO_URL;
  if (!url) throw new Error('MONGO_URL is not set: run through deploy/local/with-stack.sh');
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => new MongoClient(url).connect()));
  const db = `lost_updates_${Date.now()}`;
  const counters = clients[0].db(db).collection<Counter>('counters');
  try {
    const info = await clients[0].db('admin').command({ buildInfo: 1 });
    const server = info.ferretdbVersion ? 'FerretDB' : `version ${info.version}`;
    console.log(`${url} (${server}), ${CLIENTS} clients`);

    await counters.insertOne({ _id: 'inc', n: 0, _version: 0 });
    await each(clients, db, async (c) => {
      for (let i = 0; i < INCS; i++) await c.updateOne({ _id: 'inc' }, { $inc: { n: 1 } });
    });
    const incs = (await counters.findOne({ _id: 'inc' }))?.n ?? 0;
    console.log(`$inc: ${incs} of ${CLIENTS * INCS} kept, ${CLIENTS * INCS - incs} lost`);

    await counters.insertOne({ _id: 'guarded', n: 0, _version: 0 });
    let retries = 0;
    await each(clients, db, async (c) => {
      for (let done = 0; done < GUARDED;) {
        const current = await c.findOne({ _id: 'guarded' });
        if (!current) throw new Error('the document vanished');
        const { matchedCount } = await c.updateOne(
          { _id: 'guarded', _version: current._version },
          { $set: { n: current.n + 1, _version: current._version + 1 } },
        );
        if (matchedCount === 1) done++;
        else retries++;
      }
    });
    const guarded = await counters.findOne({ _id: 'guarded' });
    const accepted = CLIENTS * GUARDED;
    const lost = accepted - (guarded?.n ?? 0);
    console.log(
      `{_id, _version}-guarded: ${accepted} writes accepted, ${guarded?.n} kept, ${lost} lost ` +
        `(${Math.round((100 * lost) / accepted)}%), ${retries} refused as stale`,
    );

    // Created first: FerretDB refuses concurrent upserts of one new _id with E11000.
    await counters.insertOne({ _id: 'tickets', n: 0, _version: 0 });
    const answers: number[] = [];
    const until = Date.now() + 2000;
    await each(clients, db, async (c) => {
      while (Date.now() < until) {
        const after = await c.findOneAndUpdate(
          { _id: 'tickets' },
          { $inc: { n: 1 } },
          { returnDocument: 'after' },
        );
        answers.push(after?.n ?? -1);
      }
    });
    const kept = (await counters.findOne({ _id: 'tickets' }))?.n ?? 0;
    console.log(
      `findOneAndUpdate: ${Math.round(answers.length / 2)}/s, ${answers.length - kept} lost, ` +
        `${answers.length - new Set(answers).size} answers repeated`,
    );
  } finally {
    await clients[0].db(db).dropDatabase();
    await Promise.all(clients.map((c) => c.close()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
