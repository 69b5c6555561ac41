// Throughput of GET /analyst/v1/me through the whole gateway (auth, rate limits, byte accounting,
// Nest, Fastify) next to a bare Fastify route answering a JSON body, on the same machine in the
// same run. Each server runs in its own child process, so the load generator does not share its
// event loop.
// Run: npm run build && node dist/bench/gateway.js [seconds=10] [connections=50]
import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify, { type FastifyReply } from 'fastify';
import { Controller, Get, Module, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { GatewayModule, IdentityService } from '@analyst/gateway';
import { ObservabilityModule, PlatformModule, createHttpApp, loadConfig } from '@analyst/platform';

const SECONDS = Number(process.argv[2] ?? 10);
const CONNECTIONS = Number(process.argv[3] ?? 50);

interface Ready {
  url: string;
  headers: Record<string, string>;
  /** The same Nest app's /healthz: the framework without the gateway, for context. */
  baselineUrl?: string;
}

async function serveBare(): Promise<Ready> {
  const app = Fastify({ logger: false });
  // The same JSON body /me answers with, so the comparison isolates auth, limits and Nest, not payload size.
  const body = JSON.parse(process.env.BENCH_BARE_BODY ?? '{"data":{"ok":true}}');
  // Context run: the same response headers /me sends, as constants (what sending them costs, with no limiter behind them).
  const headers = process.env.BENCH_BARE_HEADERS
    ? (JSON.parse(process.env.BENCH_BARE_HEADERS) as Record<string, string>)
    : null;
  app.get('/bare', async (_request, reply) => {
    if (headers) void reply.headers(headers);
    return body;
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${url}/bare`, headers: {} };
}

/**
 * Context run: the floor of this stack for this response. A Nest app on the same Fastify adapter with
 * one controller that returns the same body with /me's limit headers as constants: no auth, no
 * counters, no hooks.
 */
const FLOOR_BODY: unknown = JSON.parse(process.env.BENCH_BARE_BODY ?? '{"data":{"ok":true}}');
const FLOOR_HEADERS: Record<string, string> = JSON.parse(process.env.BENCH_BARE_HEADERS ?? '{}');

@Controller('bare')
class FloorController {
  @Get()
  get(@Res({ passthrough: true }) reply: FastifyReply): unknown {
    void reply.headers(FLOOR_HEADERS);
    return FLOOR_BODY;
  }
}

@Module({ controllers: [FloorController] })
class FloorModule {}

async function serveMinimalNest(): Promise<Ready> {
  const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  return { url: `${await app.getUrl()}/bare`, headers: {} };
}

async function serveGateway(): Promise<Ready> {
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-bench-gw-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    ANALYST_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ANALYST_ADMIN_TOKEN: 'bench-admin-token-0123456789',
  });
  class BenchModule {}
  Module({
    imports: [
      PlatformModule.forRoot(config),
      ObservabilityModule.forRoot({ service: 'bench', level: 'silent' }),
      GatewayModule,
    ],
  })(BenchModule);
  const app = await createHttpApp(BenchModule, { structuredLogs: false });
  const identity = app.get(IdentityService);
  const ctx = { correlationId: 'bench', teamId: null };
  const { teamId } = await identity.createTeam({ name: 'Bench', plan: 'enterprise' }, ctx);
  // Raised so the run measures the limiter's work without being stopped by it.
  await identity.setRateLimits(teamId, { limits: { global: { perMinute: 1e9, perDay: 1e9 } } }, ctx);
  const { key } = await identity.createKey(teamId, { name: 'bench' }, ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = await app.getUrl();
  return {
    url: `${base}/analyst/v1/me`,
    headers: { authorization: `Bearer ${key}` },
    baselineUrl: `${base}/healthz`,
  };
}

type Mode = 'bare' | 'nest' | 'gateway';

function start(mode: Mode, env: Record<string, string> = {}): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(__filename, [`--serve=${mode}`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as Ready }));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

async function load(ready: Ready, seconds: number): Promise<{ rps: number; p99: number; non2xx: number }> {
  const result = await autocannon({
    url: ready.url,
    headers: ready.headers,
    connections: CONNECTIONS,
    duration: seconds,
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx };
}

type Figures = { rps: number; p99: number; non2xx: number };

async function measure(
  mode: Mode,
  env: Record<string, string> = {},
): Promise<{
  main: Figures;
  baseline: Figures | null;
  sample: string;
  sampleHeaders: Record<string, string>;
}> {
  const { child, ready } = await start(mode, env);
  try {
    const response = await fetch(ready.url, { headers: ready.headers });
    const sample = await response.text();
    const sampleHeaders = Object.fromEntries(
      [...response.headers].filter(([name]) => /^(x-ratelimit|ratelimit|x-correlation)/.test(name)),
    );
    await load(ready, Math.min(3, SECONDS)); // warm-up: JIT, connection pool
    const main = await load(ready, SECONDS);
    const baseline = ready.baselineUrl ? await load({ url: ready.baselineUrl, headers: {} }, SECONDS) : null;
    return { main, baseline, sample, sampleHeaders };
  } finally {
    child.removeAllListeners('exit');
    child.kill();
  }
}

async function main(): Promise<void> {
  const serve = process.argv.find((a) => a.startsWith('--serve='))?.slice('--serve='.length);
  if (serve) {
    const ready =
      serve === 'bare'
        ? await serveBare()
        : serve === 'nest'
          ? await serveMinimalNest()
          : await serveGateway();
    process.on('SIGTERM', () => process.exit(0));
    process.send?.(ready);
    return;
  }
  console.log(
    `gateway bench: ${CONNECTIONS} connections, ${SECONDS} s per run after a warm-up, Node ${process.version}`,
  );
  const run = await measure('gateway');
  const gateway = run.main;
  const bare = (await measure('bare', { BENCH_BARE_BODY: run.sample })).main;
  // Context: where the floor sits for this response with this stack.
  const bareWithHeaders = (
    await measure('bare', {
      BENCH_BARE_BODY: run.sample,
      BENCH_BARE_HEADERS: JSON.stringify(run.sampleHeaders),
    })
  ).main;
  const floor = (
    await measure('nest', {
      BENCH_BARE_BODY: run.sample,
      BENCH_BARE_HEADERS: JSON.stringify(run.sampleHeaders),
    })
  ).main;
  console.log(`response body: ${Buffer.byteLength(run.sample)} bytes (the bare route answers the same JSON)`);
  const ratio = gateway.rps / bare.rps;
  const line = (name: string, f: Figures) =>
    console.log(
      `${name.padEnd(40)}${f.rps.toFixed(0).padStart(8)} req/s  p99 ${f.p99} ms  non-2xx ${f.non2xx}`,
    );
  line('bare Fastify GET /bare', bare);
  line('gateway GET /analyst/v1/me', gateway);
  if (run.baseline) line('same Nest app GET /healthz (context)', run.baseline);
  line(`bare + /me's ${Object.keys(run.sampleHeaders).length} limit headers (context)`, bareWithHeaders);
  line('minimal Nest route + same headers (floor)', floor);
  console.log(
    `ratio gateway/bare                      ${ratio.toFixed(3)}  (overhead ${((1 - ratio) * 100).toFixed(1)}% of the bare route's throughput; goal under 25%)`,
  );
  console.log(
    `ratio floor/bare                        ${(floor.rps / bare.rps).toFixed(3)}  (Nest plus the headers alone, before any auth or counting)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
