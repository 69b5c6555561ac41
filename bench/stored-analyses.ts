// Does a snapshot get slower as analyses pile up? On the distributed topology (gateway → analysis
// service, Kafka, MongoDB/FerretDB, the shared SQLite log), one team with 100 scored posts takes
// snapshots of all 100 one after another, and the p50 of each block is printed against the number
// of analyses already stored, with the ratio of the last block to the first (target: within 20%).
// Needs the local stack: deploy/local/with-stack.sh npm run bench -- bench/stored-analyses.ts [total=1000] [block=50]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  call,
  clusterConfig,
  startApp,
  stopAll,
  until,
  type Cluster,
} from '../apps/distributed-e2e/test/cluster';
import { sqliteLocation } from '../apps/distributed-e2e/test/e2e-event-store';

const TOTAL = Number(process.argv[2] ?? 1000);
const BLOCK = Number(process.argv[3] ?? 50);
const ADMIN = 'bench-admin-token-0123456789';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  if (!process.env.KAFKA_BROKERS || !process.env.MONGO_URL) {
    console.log(
      'stored-analyses bench skipped: set KAFKA_BROKERS and MONGO_URL (deploy/local/with-stack.sh)',
    );
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-bench-stored-'));
  const run = `stored${Date.now().toString(36)}`;
  const cluster: Cluster = clusterConfig({
    dataDir,
    logDir: join(dataDir, 'logs'),
    basePort: 18800,
    namespace: `${run}.`,
    database: `analyst_${run}`,
    // The README's figures are of the shared SQLite log.
    eventStore: sqliteLocation(dataDir),
  });
  cluster.env.ANALYST_ADMIN_TOKEN = ADMIN;
  cluster.env.LOG_LEVEL = 'warn';
  try {
    await startApp(cluster, 'relay');
    await Promise.all([
      startApp(cluster, 'ledger'),
      startApp(cluster, 'ingest'),
      startApp(cluster, 'analysis'),
      startApp(cluster, 'sampling'),
    ]);
    await startApp(cluster, 'gateway');
    const team = await call(cluster, 'POST', '/admin/v1/teams', {
      admin: true,
      body: { name: 'Bench', plan: 'enterprise' },
    });
    const teamId: string = team.body.data.id;
    const scopes = ['posts:read', 'posts:write', 'analyses:run', 'analyses:read'];
    const key: string = (
      await call(cluster, 'POST', `/admin/v1/teams/${teamId}/keys`, {
        admin: true,
        body: { name: 'bench', scopes },
      })
    ).body.data.key;
    const huge = { perMinute: 10_000_000, perDay: 10_000_000 };
    await call(cluster, 'PUT', `/admin/v1/teams/${teamId}/limits`, {
      admin: true,
      body: { limits: { global: huge, analysis_create: huge } },
    });
    await call(cluster, 'POST', `/admin/v1/teams/${teamId}/credits`, {
      admin: true,
      body: { pool: 'adhoc', amount: 500, reason: 'bench' },
    });
    const base = `http://127.0.0.1:${cluster.ports.gateway}`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const links = Array.from(
      { length: 100 },
      (_, i) => `https://www.youtube.com/watch?v=stored${String(i).padStart(5, '0')}`,
    );
    const added = await fetch(`${base}/analyst/v1/content/posts/add`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ links }),
    });
    if (added.status !== 202) throw new Error(`add failed: ${added.status} ${await added.text()}`);
    const jobId = ((await added.json()) as { data: { id: string } }).data.id;
    const job = await until(
      `job ${jobId}`,
      async () => {
        const body = (await (
          await fetch(`${base}/analyst/v1/content/jobs/${jobId}`, { headers })
        ).json()) as { data: { status: string; accepted: { postId: string }[] } };
        return ['completed', 'partial'].includes(body.data.status) ? body.data : null;
      },
      600_000,
    );
    const postIds = job.accepted.map((a) => a.postId);
    console.log(
      `stored-analyses bench: ${TOTAL} snapshots of ${postIds.length} posts, p50 per block of ${BLOCK}, Node ${process.version}`,
    );
    // GET /analyses/{id} of stored analyses: p50 of 20 reads, with few and with all stored.
    const ids: string[] = [];
    const getP50 = async (): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        const res = await fetch(`${base}/analyst/v1/analyses/${ids[(i * 7919) % ids.length]}`, {
          headers,
        });
        await res.text();
        if (res.status !== 200) throw new Error(`GET analysis answered ${res.status}`);
        times.push(performance.now() - started);
      }
      return median(times);
    };
    let getEarly = 0;
    const blocks: { stored: number; p50: number; bytes: number }[] = [];
    let latencies: number[] = [];
    let bytes = 0;
    for (let i = 0; i < TOTAL; i++) {
      const started = performance.now();
      const res = await fetch(`${base}/analyst/v1/analyses`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ selection: { postIds } }),
      });
      const text = await res.text();
      latencies.push(performance.now() - started);
      if (res.status !== 201 || (JSON.parse(text) as { data?: { status: string } }).data?.status !== 'ready')
        throw new Error(`snapshot ${i} answered ${res.status}: ${text.slice(0, 200)}`);
      bytes = Buffer.byteLength(text);
      ids.push((JSON.parse(text) as { data: { id: string } }).data.id);
      if (i === 9) getEarly = await getP50();
      if (latencies.length === BLOCK) {
        blocks.push({ stored: i + 1 - BLOCK, p50: median(latencies), bytes });
        console.log(
          `  ${String(i + 1 - BLOCK).padStart(5)} stored before the block: p50 ${median(latencies).toFixed(1)} ms (response ${bytes} B)`,
        );
        latencies = [];
      }
    }
    const getLate = await getP50();
    console.log(
      `GET /analyses/{id}: p50 ${getEarly.toFixed(1)} ms with 10 stored, ${getLate.toFixed(1)} ms with ${TOTAL} stored`,
    );
    const listStarted = performance.now();
    const list = await fetch(`${base}/analyst/v1/analyses?limit=100`, { headers });
    await list.text();
    console.log(
      `GET /analyses?limit=100 with ${TOTAL} stored: ${(performance.now() - listStarted).toFixed(1)} ms`,
    );
    if (blocks.length >= 2) {
      const first = blocks[0].p50;
      const last = blocks[blocks.length - 1].p50;
      console.log(`ratio last block / first block: ${(last / first).toFixed(2)} (target ≤ 1.20)`);
    }
  } finally {
    await stopAll(cluster);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
