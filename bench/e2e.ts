// The cost of the hops: the same API served by standalone (one process) and by the distributed
// topology (gateway → service over HTTP, Kafka, MongoDB/FerretDB, the shared SQLite log), measured
// in one run on this machine. Prints GET /team and GET /posts throughput (20 connections; GET /team
// also with 64, which shows whether a figure is bound by the latency of the hops or by the work) and
// the latency of a 100-post snapshot.
// Needs the local stack for the distributed half: deploy/local/with-stack.sh npm run bench -- bench/e2e.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { RATE_CLASS_IDS } from '@analyst/domain-identity';
import {
  ROOT,
  call,
  clusterConfig,
  startApp,
  stopAll,
  until,
  type Cluster,
} from '../apps/distributed-e2e/test/cluster';
import { sqliteLocation } from '../apps/distributed-e2e/test/e2e-event-store';

const SECONDS = Number(process.argv[2] ?? 10);
const SNAPSHOTS = Number(process.argv[3] ?? 40);
const ADMIN = 'bench-admin-token-0123456789';

interface Target {
  base: string;
  key: string;
  teamId: string;
  admin: (method: string, path: string, body?: unknown) => Promise<Response>;
}

interface Figures {
  teamPerSecond: number;
  /** GET /team with 64 connections: where the 20-connection figure is bound by latency, not work. */
  teamPerSecondWide: number;
  /** GET /me: admission alone (its answer reuses the charge's reading), the floor of every keyed route. */
  mePerSecond: number;
  postsPerSecond: number;
  postsP99: number;
  snapshotP50: number;
  snapshotP95: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function youtube(i: number): string {
  return `https://www.youtube.com/watch?v=${`bench${String(i).padStart(6, '0')}`}`;
}

/** A team with 100 scored posts and limits raised so the load is not cut off by 429s. */
async function prepare(target: Target): Promise<string[]> {
  await target.admin('PUT', `/admin/v1/teams/${target.teamId}/limits`, {
    // Every class raised, and the daily byte cap: the bench measures the routes, not the 429s.
    limits: Object.fromEntries(
      RATE_CLASS_IDS.map((c) => [c, { perMinute: 10_000_000, perDay: 100_000_000 }]),
    ),
    dailyBytes: 1e12,
  });
  await target.admin('POST', `/admin/v1/teams/${target.teamId}/credits`, {
    pool: 'adhoc',
    amount: 500,
    reason: 'bench',
  });
  const headers = { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' };
  const jobs: string[] = [];
  for (let batch = 0; batch < 2; batch++) {
    const links = Array.from({ length: 50 }, (_, i) => youtube(batch * 50 + i));
    const res = await fetch(`${target.base}/analyst/v1/content/posts/add`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ links }),
    });
    if (res.status !== 202) throw new Error(`add failed: ${res.status} ${await res.text()}`);
    jobs.push(((await res.json()) as { data: { id: string } }).data.id);
  }
  const postIds: string[] = [];
  for (const job of jobs) {
    const done = await until(
      `job ${job}`,
      async () => {
        const res = await fetch(`${target.base}/analyst/v1/content/jobs/${job}`, { headers });
        const body = (await res.json()) as { data: { status: string; accepted: { postId: string }[] } };
        return ['completed', 'partial'].includes(body.data.status) ? body.data : null;
      },
      600_000,
    );
    postIds.push(...done.accepted.map((a) => a.postId));
  }
  return postIds;
}

/** Requests per second on `path` over SECONDS, after a 2 s warm-up; every answer must be 2xx. */
async function throughput(target: Target, path: string, connections: number): Promise<autocannon.Result> {
  const options = {
    url: `${target.base}/analyst/v1${path}`,
    headers: { authorization: `Bearer ${target.key}` },
    connections,
  };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: SECONDS });
  if (result.non2xx > 0)
    throw new Error(
      `${result.non2xx} GET ${path} answers were not 2xx: ${JSON.stringify(result.statusCodeStats)}`,
    );
  return result;
}

async function measure(target: Target, postIds: string[]): Promise<Figures> {
  const headers = { authorization: `Bearer ${target.key}` };
  // GET /team: the gateway's own work (key, limits, counters, credits) with no service behind it.
  const team = await throughput(target, '/team', 20);
  const me = await throughput(target, '/me', 20);
  const wide = await throughput(target, '/team', 64);
  const load = await throughput(target, '/posts?limit=25', 20);
  const latencies: number[] = [];
  for (let i = 0; i < SNAPSHOTS; i++) {
    const started = performance.now();
    const res = await fetch(`${target.base}/analyst/v1/analyses`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ selection: { postIds } }),
    });
    const body = (await res.json()) as { data?: { status: string } };
    if (res.status !== 201 || body.data?.status !== 'ready')
      throw new Error(`snapshot answered ${res.status}`);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return {
    teamPerSecond: team.requests.average,
    teamPerSecondWide: wide.requests.average,
    mePerSecond: me.requests.average,
    postsPerSecond: load.requests.average,
    postsP99: load.latency.p99,
    snapshotP50: percentile(latencies, 50),
    snapshotP95: percentile(latencies, 95),
  };
}

async function standalone(): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-bench-e2e-sa-'));
  const port = 18600;
  const key = 'ak_benchsa01.bench-standalone-secret-000';
  const child: ChildProcess = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(ROOT, 'apps/standalone/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        ANALYST_DATA_DIR: dataDir,
        // The demo team (which the key belongs to) is only seeded when asked for.
        ANALYST_DEMO: '1',
        ANALYST_DEMO_KEY: key,
        ANALYST_ADMIN_TOKEN: ADMIN,
        LOG_LEVEL: 'warn',
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    await until(
      'standalone',
      async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200,
      120_000,
    );
    const me = (await (
      await fetch(`${base}/analyst/v1/team`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { data: { id: string } };
    const target: Target = {
      base,
      key,
      teamId: me.data.id,
      admin: (method, path, body) =>
        fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
    };
    return await measure(target, await prepare(target));
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function distributed(): Promise<Figures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-bench-e2e-dist-'));
  const run = `bench${Date.now().toString(36)}`;
  const cluster: Cluster = clusterConfig({
    dataDir,
    logDir: join(dataDir, 'logs'),
    basePort: 18700,
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
    const key = (
      await call(cluster, 'POST', `/admin/v1/teams/${team.body.data.id}/keys`, {
        admin: true,
        body: {
          name: 'bench',
          scopes: ['team:read', 'posts:read', 'posts:write', 'analyses:run', 'analyses:read'],
        },
      })
    ).body.data.key;
    const base = `http://127.0.0.1:${cluster.ports.gateway}`;
    const target: Target = {
      base,
      key,
      teamId: team.body.data.id,
      admin: (method, path, body) =>
        fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
    };
    return await measure(target, await prepare(target));
  } finally {
    await stopAll(cluster);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function row(name: string, f: Figures): string {
  const rate = (n: number) => Math.round(n).toLocaleString('en-US').padStart(7);
  return `${name.padEnd(12)} GET /team ${rate(f.teamPerSecond)} req/s (64 connections: ${rate(f.teamPerSecondWide)})   GET /me ${rate(f.mePerSecond)} req/s   GET /posts ${Math.round(f.postsPerSecond).toLocaleString('en-US').padStart(7)} req/s (p99 ${f.postsP99} ms)   100-post snapshot p50 ${f.snapshotP50.toFixed(1)} ms, p95 ${f.snapshotP95.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  const sa = await standalone();
  console.log(row('standalone', sa));
  if (!process.env.KAFKA_BROKERS || !process.env.MONGO_URL) {
    console.log('distributed  skipped: set KAFKA_BROKERS and MONGO_URL (deploy/local/with-stack.sh)');
    return;
  }
  const dist = await distributed();
  console.log(row('distributed', dist));
  console.log(
    `hops cost: GET /team throughput ×${(dist.teamPerSecond / sa.teamPerSecond).toFixed(2)} and GET /posts ×${(dist.postsPerSecond / sa.postsPerSecond).toFixed(2)} of standalone (target ≥ 0.3 each); GET /team with 64 connections ×${(dist.teamPerSecondWide / sa.teamPerSecondWide).toFixed(2)}; GET /me (admission alone, the floor of a keyed route) ×${(dist.mePerSecond / sa.mePerSecond).toFixed(2)}; snapshot p50 +${(dist.snapshotP50 - sa.snapshotP50).toFixed(1)} ms, p95 +${(dist.snapshotP95 - sa.snapshotP95).toFixed(1)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
