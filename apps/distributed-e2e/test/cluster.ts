import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { requestJson } from './e2e-kit';

export const ROOT = join(__dirname, '../../..');

export type AppName = 'relay' | 'ledger' | 'ingest' | 'analysis' | 'sampling' | 'notifier' | 'gateway';

export interface Cluster {
  env: Record<string, string>;
  ports: Record<AppName, number>;
  logDir: string;
  processes: Map<AppName, ChildProcess>;
}

/** Every service of the distributed topology as its own Node process on 127.0.0.1. */
export function clusterConfig(options: {
  dataDir: string;
  logDir: string;
  basePort: number;
  namespace: string;
  database: string;
  /** ANALYST_EVENTSTORE: the log every process shares (`sqlite:<file>` or `postgres://…`; see e2e-event-store.ts). */
  eventStore: string;
}): Cluster {
  const apps: AppName[] = ['relay', 'ledger', 'ingest', 'analysis', 'sampling', 'notifier', 'gateway'];
  const ports = Object.fromEntries(apps.map((a, i) => [a, options.basePort + i])) as Record<AppName, number>;
  mkdirSync(options.logDir, { recursive: true });
  return {
    ports,
    logDir: options.logDir,
    processes: new Map(),
    env: {
      ANALYST_MODE: 'distributed',
      ANALYST_DATA_DIR: options.dataDir,
      // Every process shares the one log (no EventStoreDB here); distributed apps need it said.
      ANALYST_EVENTSTORE: options.eventStore,
      ANALYST_DEMO: '1',
      // The tests add links of every platform; the simulator answers them (no credentials, no internet).
      ANALYST_PROVIDERS: '*=simulated',
      KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
      KAFKA_NAMESPACE: options.namespace,
      KAFKA_PARTITIONS: '4',
      MONGO_URL: process.env.MONGO_URL!,
      MONGO_DB: options.database,
      MONGO_CONDITIONAL_WRITES: process.env.MONGO_CONDITIONAL_WRITES ?? 'server',
      ANALYST_INTERNAL_SECRET: 'e2e-internal-secret-0123456789abcdefghij',
      ANALYST_ADMIN_TOKEN: 'e2e-admin-token-0123456789',
      LOG_LEVEL: 'info', // the logs stay in logDir for post-mortems
      HOST: '127.0.0.1',
      ANALYST_UPSTREAM_INGEST: `http://127.0.0.1:${ports.ingest}`,
      ANALYST_UPSTREAM_LEDGER: `http://127.0.0.1:${ports.ledger}`,
      ANALYST_UPSTREAM_ANALYSIS: `http://127.0.0.1:${ports.analysis}`,
      ANALYST_UPSTREAM_SAMPLING: `http://127.0.0.1:${ports.sampling}`,
      ANALYST_UPSTREAM_NOTIFIER: `http://127.0.0.1:${ports.notifier}`,
      // The tests' webhook receivers listen on 127.0.0.1 over plain http (read by the notifier only).
      ANALYST_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      // A 50-link add waits on 50 sequential ledger reservations over Kafka (docs/benchmarks.md: a 100-link add took 17–21 s).
      ANALYST_UPSTREAM_TIMEOUT_MS: '180000',
      SWC_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
    },
  };
}

/** Starts one app from its TypeScript entry point (no build needed) and waits until /readyz says so. */
export async function startApp(cluster: Cluster, app: AppName, timeoutMs = 90_000): Promise<void> {
  const log = createWriteStream(join(cluster.logDir, `${app}.log`), { flags: 'a' });
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, `apps/${app}/src/main.ts`)], {
    cwd: ROOT,
    env: { ...process.env, ...cluster.env, PORT: String(cluster.ports[app]) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  cluster.processes.set(app, child);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined)
      throw new Error(`${app} exited with ${exited} before it was ready; see ${cluster.logDir}/${app}.log`);
    try {
      const response = await fetch(`http://127.0.0.1:${cluster.ports[app]}/readyz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`${app} not ready within ${timeoutMs} ms; see ${cluster.logDir}/${app}.log`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function stopApp(
  cluster: Cluster,
  app: AppName,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  const child = cluster.processes.get(app);
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
  cluster.processes.delete(app);
}

export async function stopAll(cluster: Cluster): Promise<void> {
  await Promise.all([...cluster.processes.keys()].map((app) => stopApp(cluster, app)));
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = any>(
  cluster: Cluster,
  method: string,
  path: string,
  options: { key?: string; admin?: boolean; body?: unknown } = {},
): Promise<HttpResult<T>> {
  const reply = await requestJson<T>(`http://127.0.0.1:${cluster.ports.gateway}${path}`, method, {
    authorization: options.admin ? cluster.env.ANALYST_ADMIN_TOKEN : options.key,
    body: options.body,
  });
  return { status: reply.status, headers: reply.headers!, body: reply.body };
}

export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** One process of an app running as several replicas: `name` (e.g. `ingest-2`) names its log and its slot. */
export interface ReplicaSpec {
  name: string;
  app: AppName;
  port: number;
  /** Set over the cluster's env for this replica only (e.g. a gateway's ANALYST_UPSTREAM_INGEST). */
  env?: Record<string, string>;
}

const replicaProcesses = new Map<Cluster, Map<string, { spec: ReplicaSpec; child: ChildProcess }>>();
const everyReplicaChild = new Set<ChildProcess>();
let reaperInstalled = false;

/** Whatever happens to the test process (a failed beforeAll, a thrown afterAll, jest exiting), no replica outlives it. */
function installReaper(): void {
  if (reaperInstalled) return;
  reaperInstalled = true;
  process.once('exit', () => {
    for (const child of everyReplicaChild)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

export function replicasOf(cluster: Cluster): Map<string, { spec: ReplicaSpec; child: ChildProcess }> {
  let replicas = replicaProcesses.get(cluster);
  if (!replicas) replicaProcesses.set(cluster, (replicas = new Map()));
  return replicas;
}

/** The pid of a running replica, or null when it is stopped. */
export function replicaPid(cluster: Cluster, name: string): number | null {
  const child = replicasOf(cluster).get(name)?.child;
  return child && child.exitCode === null && child.signalCode === null ? (child.pid ?? null) : null;
}

/**
 * Starts one replica of an app on its own port (its log: `<logDir>/<name>.log`, appended across
 * restarts) and waits until its /readyz says ready. Starting a stopped replica again reuses its spec.
 */
export async function startReplica(cluster: Cluster, spec: ReplicaSpec, timeoutMs = 120_000): Promise<void> {
  installReaper();
  const replicas = replicasOf(cluster);
  const running = replicas.get(spec.name);
  if (running && running.child.exitCode === null && running.child.signalCode === null)
    throw new Error(`${spec.name} is already running`);
  const log = createWriteStream(join(cluster.logDir, `${spec.name}.log`), { flags: 'a' });
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(ROOT, `apps/${spec.app}/src/main.ts`)],
    {
      cwd: ROOT,
      env: { ...process.env, ...cluster.env, ...spec.env, PORT: String(spec.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  replicas.set(spec.name, { spec, child });
  everyReplicaChild.add(child);
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = signal ?? String(code);
    everyReplicaChild.delete(child);
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined)
      throw new Error(
        `${spec.name} exited with ${exited} before it was ready; see ${cluster.logDir}/${spec.name}.log`,
      );
    try {
      const response = await fetch(`http://127.0.0.1:${spec.port}/readyz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(
        `${spec.name} not ready within ${timeoutMs} ms; see ${cluster.logDir}/${spec.name}.log`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Stops a replica (SIGTERM, SIGKILL after 20 s; or SIGKILL at once) and waits for it to exit. Its spec stays for a restart. */
export async function stopReplica(
  cluster: Cluster,
  name: string,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  const child = replicasOf(cluster).get(name)?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** Starts a stopped replica again under its earlier spec (same port, env and log). */
export async function restartReplica(cluster: Cluster, name: string, timeoutMs = 120_000): Promise<void> {
  const known = replicasOf(cluster).get(name);
  if (!known) throw new Error(`no replica named ${name}`);
  await stopReplica(cluster, name);
  await startReplica(cluster, known.spec, timeoutMs);
}

export async function stopReplicas(cluster: Cluster): Promise<void> {
  await Promise.all([...replicasOf(cluster).keys()].map((name) => stopReplica(cluster, name)));
}
