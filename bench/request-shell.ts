// The request shell: what every request pays for in this app, as ratios to floors measured in the
// same run, interleaved (each round loads every server in turn), so the drift of a shared machine
// falls on all of them alike.
//   /healthz and /me            vs a minimal Nest route on the same adapter (same body and headers)
//   GET /posts?limit=50         vs a bare Fastify route that JSON.stringifies the same 50 posts
// Every server runs in its own child process; the load generator has the parent to itself.
// Run: npm run bench -- bench/request-shell.ts [rounds=5] [secondsPerRun=3] [connections=32]
// Profile one server: SWC_NODE_PROJECT=tsconfig.json node -r @swc-node/register --cpu-prof bench/request-shell.ts --serve=app
// (prints its targets; load them with autocannon, then SIGINT/SIGTERM it to write the profile)
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
import { RATE_CLASS_IDS } from '@analyst/domain-identity';
import { IdentityService } from '@analyst/gateway';
import { createHttpApp, loadConfig } from '@analyst/platform';
import { StandaloneModule } from '../apps/standalone/src/app.module';
import { DemoSeeder } from '../apps/standalone/src/demo-seeder';

const ROUNDS = Number(process.argv[2] ?? 5);
const SECONDS = Number(process.argv[3] ?? 3);
const CONNECTIONS = Number(process.argv[4] ?? 32);
const DEMO_KEY = 'ak_shellbench.0123456789abcdefghij';

interface Target {
  url: string;
  headers: Record<string, string>;
}
interface Ready {
  targets: Record<string, Target>;
  /** From the app: what the floors answer with. */
  samples?: {
    me: { body: string; headers: Record<string, string> };
    healthz: { body: string; headers: Record<string, string> };
    posts: string;
  };
}

/** The whole standalone app with its demo data; every limit raised so every answer is a 200. */
async function serveApp(): Promise<Ready> {
  const dataDir = mkdtempSync(join(tmpdir(), 'analyst-bench-shell-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    ANALYST_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ANALYST_DEMO: '1',
    ANALYST_DEMO_KEY: DEMO_KEY,
    ANALYST_ADMIN_TOKEN: 'bench-admin-token-0123456789',
  });
  const app = await createHttpApp(StandaloneModule.forRoot(config), { structuredLogs: false });
  const seed = await app.get(DemoSeeder).seedIfEmpty();
  const identity = app.get(IdentityService);
  const ctx = { correlationId: 'bench', teamId: null };
  const huge = { perMinute: 1e9, perDay: 1e9 };
  await identity.setRateLimits(
    seed!.teamId,
    { limits: Object.fromEntries(RATE_CLASS_IDS.map((c) => [c, huge])), dailyBytes: 1e12 },
    ctx,
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = await app.getUrl();
  const auth = { authorization: `Bearer ${DEMO_KEY}` };
  const targets = {
    healthz: { url: `${base}/healthz`, headers: {} },
    me: { url: `${base}/analyst/v1/me`, headers: auth },
    posts: { url: `${base}/analyst/v1/posts?limit=50`, headers: auth },
  };
  const sample = async (t: Target) => {
    const r = await fetch(t.url, { headers: t.headers });
    if (r.status !== 200) throw new Error(`${t.url}: ${r.status} ${await r.text()}`);
    return {
      body: await r.text(),
      headers: Object.fromEntries(
        [...r.headers].filter(([name]) => /^(x-ratelimit|ratelimit|x-correlation)/.test(name)),
      ),
    };
  };
  // The demo posts are fetched and scored in the background: wait for 50 complete ones.
  let posts = await sample(targets.posts);
  for (let tries = 0; (JSON.parse(posts.body).data as unknown[]).length < 50; tries++) {
    if (tries > 600) throw new Error('the demo team never had 50 complete posts');
    await new Promise((r) => setTimeout(r, 100));
    posts = await sample(targets.posts);
  }
  return {
    targets,
    samples: { me: await sample(targets.me), healthz: await sample(targets.healthz), posts: posts.body },
  };
}

/** A minimal Nest app on the same adapter: one route per answer, returning it with its headers as constants. */
async function serveFloor(): Promise<Ready> {
  const me = JSON.parse(process.env.BENCH_ME!) as { body: string; headers: Record<string, string> };
  const healthz = JSON.parse(process.env.BENCH_HEALTHZ!) as { body: string; headers: Record<string, string> };
  const meBody: unknown = JSON.parse(me.body);
  const healthzBody: unknown = JSON.parse(healthz.body);
  @Controller()
  class FloorController {
    @Get('me')
    me(@Res({ passthrough: true }) reply: FastifyReply): unknown {
      void reply.headers(me.headers);
      return meBody;
    }
    @Get('healthz')
    healthz(@Res({ passthrough: true }) reply: FastifyReply): unknown {
      void reply.headers(healthz.headers);
      return healthzBody;
    }
  }
  @Module({ controllers: [FloorController] })
  class FloorModule {}
  const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  const base = await app.getUrl();
  return {
    targets: {
      floorMe: { url: `${base}/me`, headers: {} },
      floorHealthz: { url: `${base}/healthz`, headers: {} },
    },
  };
}

/** Bare Fastify answering the same 50 posts, serialised with JSON.stringify on every request. */
async function serveBare(): Promise<Ready> {
  const posts: unknown = JSON.parse(process.env.BENCH_POSTS!);
  const app = Fastify({ logger: false });
  app.get('/posts', (_request, reply) => {
    void reply.type('application/json; charset=utf-8').send(JSON.stringify(posts));
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { targets: { barePosts: { url: `${url}/posts`, headers: {} } } };
}

function start(
  mode: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(__filename, [`--serve=${mode}`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as Ready }));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

async function load(t: Target, seconds: number): Promise<{ rps: number; non2xx: number }> {
  const r = await autocannon({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration: seconds });
  return { rps: r.requests.average, non2xx: r.non2xx };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const serve = process.argv.find((a) => a.startsWith('--serve='))?.slice('--serve='.length);
  if (serve) {
    const ready =
      serve === 'app' ? await serveApp() : serve === 'floor' ? await serveFloor() : await serveBare();
    process.on('SIGTERM', () => process.exit(0));
    // Forked by the bench it reports over IPC; run by hand (e.g. under --cpu-prof) it prints its targets.
    if (process.send) process.send(ready);
    else console.log(JSON.stringify(ready.targets));
    return;
  }
  console.log(
    `request-shell bench: ${ROUNDS} rounds × ${SECONDS} s per server, ${CONNECTIONS} connections, Node ${process.version}`,
  );
  const app = await start('app');
  const s = app.ready.samples!;
  const floor = await start('floor', {
    BENCH_ME: JSON.stringify(s.me),
    BENCH_HEALTHZ: JSON.stringify(s.healthz),
  });
  const bare = await start('bare', { BENCH_POSTS: s.posts });
  const children = [app, floor, bare];
  try {
    const targets: Record<string, Target> = {
      ...app.ready.targets,
      ...floor.ready.targets,
      ...bare.ready.targets,
    };
    const names = ['floorHealthz', 'healthz', 'floorMe', 'me', 'barePosts', 'posts'];
    for (const name of names) await load(targets[name], 1); // warm-up: JIT, connection pools
    const rps: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    let non2xx = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of names) {
        const r = await load(targets[name], SECONDS);
        rps[name].push(r.rps);
        non2xx += r.non2xx;
      }
    }
    console.log(
      `bodies: /me ${Buffer.byteLength(s.me.body)} B with ${Object.keys(s.me.headers).length} limit headers, /posts?limit=50 ${Buffer.byteLength(s.posts)} B; non-2xx answers: ${non2xx}`,
    );
    for (const name of names)
      console.log(
        `${name.padEnd(14)} median ${median(rps[name]).toFixed(0).padStart(7)} req/s  (rounds: ${rps[name].map((x) => x.toFixed(0)).join(', ')})`,
      );
    const ratio = (a: string, b: string) => median(rps[a].map((x, i) => x / rps[b][i]));
    console.log(
      `ratio /healthz / minimal Nest route   ${ratio('healthz', 'floorHealthz').toFixed(2)}  (target ≥ 0.9)`,
    );
    console.log(`ratio /me / minimal Nest route        ${ratio('me', 'floorMe').toFixed(2)}  (target ≥ 0.6)`);
    console.log(
      `ratio /posts?limit=50 / bare stringify ${ratio('posts', 'barePosts').toFixed(2)}  (target ≥ 0.5)`,
    );
  } finally {
    for (const c of children) {
      c.child.removeAllListeners('exit');
      c.child.kill();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
