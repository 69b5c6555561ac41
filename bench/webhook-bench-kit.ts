// What the webhook benches (webhook-latency.ts, webhook-fan-out.ts) share: a receiver on 127.0.0.1
// that stamps each arrival, the API calls that make a team and register its endpoints, the standalone
// app as a child process, and the figures' arithmetic. Not a bench itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RATE_CLASS_IDS } from '@analyst/contracts';
import { MongoReadStore } from '@analyst/platform';
import {
  ROOT,
  clusterConfig,
  replicaPid,
  startApp,
  startReplica,
  stopAll,
  stopReplica,
  stopReplicas,
  type AppName,
  type Cluster,
} from '../apps/distributed-e2e/test/cluster';
import { E2eEventLog, e2eStoreKind, storeTitle } from '../apps/distributed-e2e/test/e2e-event-store';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';
export const WEBHOOK_SCOPES = ['webhooks:read', 'webhooks:write'];

/** One request the receiver got: which endpoint (its path), which event, and when it arrived. */
export interface Arrival {
  path: string;
  eventId: string;
  type: string;
  teamId: string;
  /** The webhook event's `createdAt` in epoch ms: its log event's `metadata.occurredAt`. */
  createdAt: number;
  /** Date.now() when the body was read, before the answer was written. */
  arrivedAt: number;
  data: Record<string, unknown>;
}

/**
 * A webhook receiver on 127.0.0.1 that answers every request 204 as soon as its body is read and
 * records it. The same wall clock stamps the arrival and (in the server's process on this machine)
 * the fact's `occurredAt`, so their difference is the fact-to-2xx latency, within a millisecond.
 */
export class StampingReceiver {
  readonly arrivals: Arrival[] = [];
  private readonly perPair = new Map<string, number>();
  private server: Server | null = null;
  private waiters: (() => void)[] = [];
  port = 0;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const arrivedAt = Date.now();
        res.writeHead(204).end();
        let body: {
          id?: string;
          type?: string;
          teamId?: string;
          createdAt?: string;
          data?: Record<string, unknown>;
        } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // kept with an empty id: the exactly-once count shows it as unexpected
        }
        const arrival: Arrival = {
          path: (req.url ?? '/').split('?')[0],
          eventId: body.id ?? '',
          type: body.type ?? '',
          teamId: body.teamId ?? '',
          createdAt: Date.parse(body.createdAt ?? ''),
          arrivedAt,
          data: body.data ?? {},
        };
        this.arrivals.push(arrival);
        const pair = pairKey(arrival.path, arrival.eventId);
        this.perPair.set(pair, (this.perPair.get(pair) ?? 0) + 1);
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** How many requests (endpoint path, event id) got. */
  count(path: string, eventId: string): number {
    return this.perPair.get(pairKey(path, eventId)) ?? 0;
  }

  /** Resolves once `done()` holds (checked at each arrival), or rejects after `timeoutMs`. */
  async until(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

const pairKey = (path: string, eventId: string): string => `${path} ${eventId}`;

export interface Reply<T = any> {
  status: number;
  body: T;
}

/** The public API of one installation (standalone, or the distributed gateway), with its admin token. */
export class BenchApi {
  constructor(readonly base: string) {}

  async request<T = any>(
    method: string,
    path: string,
    auth: string,
    body?: unknown,
    timeoutMs = 180_000,
  ): Promise<Reply<T>> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${auth}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: kept as text for the error message
    }
    return { status: res.status, body: parsed as T };
  }

  /** A request that must answer `status`; anything else stops the bench with the answer. */
  async expect<T = any>(
    status: number,
    method: string,
    path: string,
    auth: string,
    body?: unknown,
  ): Promise<T> {
    const reply = await this.request<T>(method, path, auth, body);
    if (reply.status !== status)
      throw new Error(
        `${method} ${path} answered ${reply.status}, not ${status}: ${JSON.stringify(reply.body)}`,
      );
    return reply.body;
  }

  admin<T = any>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    return this.expect<T>(status, method, path, ADMIN_TOKEN, body);
  }

  /**
   * A Scale team with a key of `scopes`, every rate class raised (the bench measures delivery, not
   * 429s) and `adhocCredits` Ad Hoc credits when it adds links.
   */
  async team(name: string, scopes: string[], adhocCredits = 0): Promise<{ id: string; key: string }> {
    const created = await this.admin(201, 'POST', '/admin/v1/teams', { name, plan: 'scale' });
    const id: string = created.data.id;
    await this.admin(200, 'PUT', `/admin/v1/teams/${id}/limits`, {
      limits: Object.fromEntries(
        RATE_CLASS_IDS.map((c) => [c, { perMinute: 1_000_000, perDay: 100_000_000 }]),
      ),
    });
    if (adhocCredits > 0)
      await this.admin(201, 'POST', `/admin/v1/teams/${id}/credits`, {
        pool: 'adhoc',
        amount: adhocCredits,
        reason: 'webhook bench',
      });
    const key = await this.admin(201, 'POST', `/admin/v1/teams/${id}/keys`, { name: 'bench', scopes });
    return { id, key: key.data.key };
  }

  /** Registers an endpoint for `events` at `url`; answers its id. */
  async register(key: string, url: string, events: readonly string[]): Promise<string> {
    const reply = await this.expect(201, 'POST', '/analyst/v1/webhooks', key, {
      url,
      events,
      description: 'webhook bench receiver',
    });
    return reply.data.id;
  }
}

/**
 * The standalone app as a child process on `port` with a fresh data dir, webhooks allowed to
 * 127.0.0.0/8 over http; resolves once /readyz answers 200. `stop` ends it and removes the dir.
 */
export async function startStandalone(
  port: number,
  env: Record<string, string> = {},
): Promise<{ api: BenchApi; child: ChildProcess; dataDir: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-bench-webhooks-'));
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(ROOT, 'apps/standalone/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        ANALYST_DATA_DIR: dataDir,
        ANALYST_ADMIN_TOKEN: ADMIN_TOKEN,
        ANALYST_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        // The bench adds a few links only; embedding them is no part of the delivery path.
        ANALYST_EMBED_AT_INGEST: 'off',
        LOG_LEVEL: 'warn',
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const api = new BenchApi(`http://127.0.0.1:${port}`);
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`standalone exited with ${child.exitCode} before it was ready`);
    const ready = await fetch(`${api.base}/readyz`).catch(() => null);
    if (ready?.status === 200) return { api, child, dataDir, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error('standalone not ready within 180 s');
    }
    await sleep(250);
  }
}

/** The distributed topology as processes on 127.0.0.1, the notifier as named replicas. */
export interface BenchCluster {
  api: BenchApi;
  cluster: Cluster;
  /** The log the services share (the bench may append to it with its own client). */
  log: E2eEventLog;
  /** Each notifier replica's base URL (/metrics), by name: notifier-1, notifier-2, … */
  notifiers: Map<string, string>;
  /** A running notifier replica's pid, or null. */
  notifierPid(name: string): number | null;
  startNotifier(name: string): Promise<void>;
  stopNotifier(name: string): Promise<void>;
  /** Stops every process and drops the log's and the read store's databases (Kafka topics stay). */
  stop(): Promise<void>;
}

/**
 * Starts `services` (relay first, the gateway last) and `notifiers` notifier replicas as processes,
 * on the PostgreSQL log where POSTGRES_URL is set (E2E_EVENTSTORE=sqlite pins the shared SQLite
 * log), Kafka and MongoDB of the local stack under names of this run; webhooks allowed to
 * 127.0.0.0/8 over http, as the multi-process suites set it.
 */
export async function startCluster(
  label: string,
  services: AppName[],
  notifiers: number,
): Promise<BenchCluster> {
  if (!process.env.KAFKA_BROKERS || !process.env.MONGO_URL)
    throw new Error(
      'the distributed half needs the local stack: deploy/local/with-stack.sh npm run bench -- …',
    );
  const dataDir = mkdtempSync(join(tmpdir(), `analyst-bench-${label}-`));
  const run = `${label}${Date.now().toString(36)}`;
  const log = await E2eEventLog.create(e2eStoreKind(), label.replace(/[^a-z0-9]/g, '_'), dataDir);
  // Seven app ports and the extra notifier replicas above them, in a range of this run.
  const basePort = 20_000 + Math.floor(Math.random() * 2_000) * 10;
  const cluster = clusterConfig({
    dataDir,
    logDir: join(dataDir, 'logs'),
    basePort,
    namespace: `${run}.`,
    database: `analyst_${run}`,
    eventStore: log.location,
  });
  Object.assign(cluster.env, {
    ANALYST_ADMIN_TOKEN: ADMIN_TOKEN,
    ANALYST_DEMO: '0',
    ANALYST_EMBED_AT_INGEST: 'off',
    LOG_LEVEL: 'warn',
  });
  const ports = new Map<string, number>();
  const names = Array.from({ length: notifiers }, (_, i) => `notifier-${i + 1}`);
  names.forEach((name, i) => ports.set(name, basePort + 10 + i));
  cluster.env.ANALYST_UPSTREAM_NOTIFIER = names.map((n) => `http://127.0.0.1:${ports.get(n)}`).join(',');
  const startNotifier = (name: string) =>
    startReplica(cluster, { name, app: 'notifier', port: ports.get(name)! }, 180_000);
  const stop = async () => {
    await stopReplicas(cluster).catch(() => undefined);
    await stopAll(cluster).catch(() => undefined);
    await log.dispose().catch(() => undefined);
    const mongo = await MongoReadStore.connect(process.env.MONGO_URL!, cluster.env.MONGO_DB);
    await mongo.database.dropDatabase();
    await mongo.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const started = Date.now();
    const first = services.filter((s) => s !== 'gateway');
    if (first.includes('relay')) await startApp(cluster, 'relay', 180_000);
    await Promise.all([
      ...first.filter((s) => s !== 'relay').map((s) => startApp(cluster, s, 180_000)),
      ...names.map(startNotifier),
    ]);
    await startApp(cluster, 'gateway', 180_000);
    console.log(
      `  cluster up in ${((Date.now() - started) / 1000).toFixed(0)} s: ${[...first, 'gateway', ...names].join(', ')} on ${storeTitle(log.kind)} (${log.describe()})`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    api: new BenchApi(`http://127.0.0.1:${cluster.ports.gateway}`),
    cluster,
    log,
    notifiers: new Map(names.map((n) => [n, `http://127.0.0.1:${ports.get(n)}`])),
    startNotifier,
    stopNotifier: (name) => stopReplica(cluster, name),
    notifierPid: (name) => replicaPid(cluster, name),
    stop,
  };
}

/** The sum of a metric's samples on a /metrics page whose labels include `labels` (e.g. `outcome="delivered"`). */
export async function scrapeMetric(base: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (labels && !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** Linux's clock ticks a second (USER_HZ), in which /proc/<pid>/stat counts CPU time. */
const CLOCK_TICKS = 100;

function procStat(pid: number): { ppid: number; cpuTicks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state, ppid, …; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // gone, or not Linux
  }
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc; with `children`, plus those
 * of its running children (PostgreSQL's backends). NaN when the process is not there.
 */
export function cpuSeconds(pid: number | null | undefined, children = false): number {
  if (!pid) return NaN;
  const own = procStat(pid);
  if (!own) return NaN;
  let ticks = own.cpuTicks;
  if (children)
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const child = procStat(Number(entry));
      if (child?.ppid === pid) ticks += child.cpuTicks;
    }
  return ticks / CLOCK_TICKS;
}

/** The local stack's server pid (`postgres`, `mongo-java`, `kafka`) from deploy/local/.stack/run, or null. */
export function stackPid(server: string): number | null {
  const file = join(ROOT, 'deploy/local/.stack/run', `${server}.pid`);
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : null;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

export const msFigure = (x: number): string => `${x.toFixed(x < 100 ? 1 : 0)} ms`;
