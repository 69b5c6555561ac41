import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cluster';

const run = promisify(execFile);

export const KAFKA_ONLY = join(ROOT, 'deploy/local/kafka-only.sh');
const KAFKA_JARS = join(ROOT, 'deploy/local/kafka/lib');

export function kafkaJarsPresent(): boolean {
  return existsSync(KAFKA_JARS) && readdirSync(KAFKA_JARS).some((f) => f.startsWith('kafka_2.13-'));
}

/** A port nobody listens on right now (the OS picks it). */
/**
 * Why a suite that starts its own broker cannot run here, or null: it needs the stack's variables
 * (for the store and the read store) and the Kafka jars (for its own broker). Logged once when set.
 */
export function ownBrokerSkipReason(suite: string): string | null {
  const reason =
    !process.env.KAFKA_BROKERS || !process.env.MONGO_URL
      ? `${suite} needs KAFKA_BROKERS and MONGO_URL (set -a; . deploy/local/.stack/env; set +a)`
      : !kafkaJarsPresent()
        ? `${suite} needs the Kafka jars in deploy/local/kafka/lib (run deploy/local/start.sh once)`
        : null;
  if (reason) console.log(`skipped: ${reason}`);
  return reason;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One Kafka broker of the test's own (deploy/local/kafka-only.sh on free ports and a temporary
 * state dir), so it can be stopped without touching the shared stack. However the test process
 * ends, the broker goes with it: the script starts it with setsid, so no signal to our process
 * group reaches it and only this exit hook (or afterAll) can.
 */
export class OwnBroker {
  readonly env: NodeJS.ProcessEnv;
  private cleaned = false;
  private readonly onExit = () => this.cleanNow();

  private constructor(
    readonly port: number,
    controllerPort: number,
  ) {
    this.env = {
      ...process.env,
      ANALYST_STACK_DIR: mkdtempSync(join(tmpdir(), 'analyst-faults-kafka-')),
      KAFKA_PORT: String(port),
      KAFKA_CONTROLLER_PORT: String(controllerPort),
      KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m',
      // A controlled shutdown of a one-node broker takes a few seconds; never wait forever.
      ANALYST_STACK_STOP_TIMEOUT: '20',
    };
    process.once('exit', this.onExit);
  }

  static async create(): Promise<OwnBroker> {
    return new OwnBroker(await freePort(), await freePort());
  }

  get brokers(): string {
    return `127.0.0.1:${this.port}`;
  }

  get stateDir(): string {
    return this.env.ANALYST_STACK_DIR!;
  }

  /** Starts (again, on the same data dir); resolves once a client can create a topic. */
  async start(): Promise<void> {
    await this.script('start');
  }

  /** SIGTERM, a controlled shutdown; the data stays for the next start. */
  async stop(): Promise<void> {
    await this.script('stop');
  }

  /** SIGKILL: gone at once, as in a crash, with whatever was in flight; the data stays for the next start. */
  async kill(): Promise<void> {
    await this.script('kill');
  }

  async clean(): Promise<void> {
    if (this.cleaned) return;
    await this.script('kill');
    await this.script('clean');
    this.cleaned = true;
    process.removeListener('exit', this.onExit);
  }

  private async script(command: 'start' | 'stop' | 'kill' | 'clean'): Promise<void> {
    await run('bash', [KAFKA_ONLY, command], { env: this.env, timeout: 150_000 });
  }

  /** Synchronous, for the exit hook: kill at once, then remove the state dir. */
  private cleanNow(): void {
    if (this.cleaned) return;
    this.cleaned = true;
    for (const command of ['kill', 'clean'])
      spawnSync('bash', [KAFKA_ONLY, command], { env: this.env, timeout: 30_000, stdio: 'ignore' });
  }
}

export interface ReadySample {
  at: number;
  /** HTTP status of /readyz; 0 when nothing answered (process stopped, not listening yet). */
  status: number;
  /** The failing checks of a 503, or the connection error. */
  detail: string;
}

/**
 * Polls /readyz of every service every `everyMs` (each service on its own timer, so one slow
 * answer does not delay the others) and keeps every sample, so a test can ask what a service said
 * in any window and print the transitions.
 */
export class ReadinessMonitor {
  readonly samples = new Map<string, ReadySample[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly targets: () => Record<string, number>,
    private readonly everyMs = 250,
  ) {}

  start(): void {
    for (const name of Object.keys(this.targets())) this.poll(name);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
  }

  private poll(name: string): void {
    if (this.stopped) return;
    const started = Date.now();
    void this.probe(this.targets()[name]).then((sample) => {
      const list = this.samples.get(name) ?? [];
      list.push({ ...sample, at: started });
      this.samples.set(name, list);
      if (!this.stopped)
        this.timers.set(
          name,
          setTimeout(() => this.poll(name), Math.max(0, this.everyMs - (Date.now() - started))),
        );
    });
  }

  private async probe(port: number): Promise<Omit<ReadySample, 'at'>> {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) });
      const body = (await response.json().catch(() => ({}))) as {
        error?: Record<string, { message?: string }>;
      };
      const detail = Object.entries(body.error ?? {})
        .map(([check, e]) => `${check}: ${e.message ?? ''}`)
        .join('; ');
      return { status: response.status, detail: detail.slice(0, 400) };
    } catch (error) {
      return { status: 0, detail: String((error as Error).cause ?? error).slice(0, 200) };
    }
  }

  between(name: string, from: number, to = Infinity): ReadySample[] {
    return (this.samples.get(name) ?? []).filter((s) => s.at >= from && s.at <= to);
  }

  latest(name: string): ReadySample | undefined {
    const list = this.samples.get(name);
    return list?.[list.length - 1];
  }

  /** First sample at or after `from` that matches, or undefined. */
  first(name: string, from: number, match: (s: ReadySample) => boolean): ReadySample | undefined {
    return this.between(name, from).find(match);
  }

  /** Status changes of one service since `from`, with times relative to `origin`. */
  transitions(name: string, from: number, origin = from): { atMs: number; status: number; detail: string }[] {
    const out: { atMs: number; status: number; detail: string }[] = [];
    let last: number | null = null;
    for (const s of this.between(name, from)) {
      if (s.status !== last)
        out.push({ atMs: s.at - origin, status: s.status, detail: s.detail.slice(0, 160) });
      last = s.status;
    }
    return out;
  }

  /** Resolves when the newest sample of every named service is 200 (polled, so it waits for fresh ones). */
  async allReady(
    names: string[],
    since: number,
    timeoutMs: number,
  ): Promise<{ ok: boolean; readyAfterMs: Record<string, number | null> }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const readyAfterMs = Object.fromEntries(
        names.map((n) => {
          const latest = this.latest(n);
          // The start of the run of 200s that the newest sample ends.
          const list = this.between(n, since);
          let i = list.length - 1;
          if (!latest || latest.at < since || latest.status !== 200) return [n, null];
          while (i > 0 && list[i - 1].status === 200) i--;
          return [n, list[i].at - since];
        }),
      ) as Record<string, number | null>;
      if (Object.values(readyAfterMs).every((v) => v !== null)) return { ok: true, readyAfterMs };
      if (Date.now() > deadline) return { ok: false, readyAfterMs };
      await sleep(this.everyMs);
    }
  }
}

async function scrape(port: number): Promise<string | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) });
    return response.status === 200 ? await response.text() : null;
  } catch {
    return null;
  }
}

/** One gauge of a service's /metrics (the first series of that name, whatever its labels), or null when it does not answer or lacks it. */
export async function gauge(port: number, name: string): Promise<number | null> {
  const text = await scrape(port);
  // Every series carries the default label service="<app>", so the name is followed by `{`.
  const line = text?.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : null;
}

/** The consumer groups a service reports lag for on /metrics (`analyst_kafka_consumer_lag{group=…}`), sorted. */
export async function consumerGroups(port: number): Promise<string[] | null> {
  const text = await scrape(port);
  if (text === null) return null;
  const groups = new Set<string>();
  for (const line of text.split('\n')) {
    const match = /^analyst_kafka_consumer_lag\{.*?group="([^"]+)"/.exec(line);
    if (match) groups.add(match[1]);
  }
  return [...groups].sort();
}
