/**
 * Teams that do not slow each other (issue 38), on the distributed stack with the gateway in front:
 * every request goes through the gateway with a team's own key, as a client sends it.
 *
 *   deploy/local/with-stack.sh npm run bench -- bench/team-isolation.ts [teams=100] [postsPerTeam=10] [bigPosts=100] [commentsPerPost=1000]
 *   (a quick try: ... bench/team-isolation.ts 20 5 20)
 *
 * The log: `teams` teams of `postsPerTeam` posts, one big team of `bigPosts` posts, each post with
 * `commentsPerPost` comments (default 100 × 10 + 100 posts of 1,000: 1.1M comments in 101 teams), and
 * a neighbour team that adds links during the run. How it is built: the services start on an empty
 * log (PostgreSQL with POSTGRES_URL, else SQLite; ISO_STORE=sqlite|postgres pins it), the teams and
 * their keys are made through the admin API, the relay is stopped, and every post is appended straight
 * to the log as ingest writes it (ContentLogWriter: PostCreated, PostFetched + comment chunks,
 * score chunks + PostScored; simulated comments scored by the product's scorer, drawn from a pool of
 * 20,000 under new ids). The relay then starts and catches up the whole log over Kafka (its lease is
 * watched: a real-stack check of "no lease lost over a catch-up"), while analysis and sampling
 * project it from the log. The log and read store are kept for the next run with the same sizes
 * (ISO_DIR, default /tmp/analyst-team-isolation; `--drop` removes them at the end).
 *
 * Printed, with the load average:
 * 1. Cold and warm latencies: a 10-post snapshot (POST /analyses) of teams never read, then again;
 *    a 100-row sample of each (GET /analyses/{id}/comments), first and again; the big team's
 *    100-post snapshot and its sample likewise.
 * 2. Isolation: p50/p95 idle and during the neighbour's ISO_ADDS × ISO_ADD_LINKS link adds (default
 *    3 × 40, sent at once; simulated provider, ISO_ADD_COMMENTS 40,000 comments ± 25%, links chosen
 *    by their section's size), ISO_ROUNDS (2) times between
 *    idle windows of ISO_IDLE_SNAPSHOTS (30) requests a loop, of two loops run
 *    side by side: team A's warm 10-post snapshot (a snapshot is stored: it answers once its own
 *    event is projected) and team B's warm 100-row sample (a read alone); the ratio of p95 during to
 *    idle p95 (target ≤ 2). Meanwhile the analysis and sampling replicas' analyst_projection_lag_events
 *    / _seconds are scraped every 250 ms: the most seen.
 * 3. Caches that add up (ISO_REPLICAS=0 skips; needs the gateway's upstream lists): two analysis and
 *    two sampling replicas behind the gateway with comma-separated ANALYST_UPSTREAM_ANALYSIS /
 *    _SAMPLING (team-affine routing), each with ANALYST_READ_CACHE_MB chosen so that the working set
 *    (ISO_WORKING_SET teams, default 24, sized from what the cold phase's teams held) is twice one
 *    replica's live cache; two passes of a snapshot and a sample per team; per replica, the teams the
 *    routing sent it and the second pass's loads and evictions from its /metrics (0 loads: served
 *    warm) and the latencies. When the hash split the teams unevenly (reloads on the fuller replica),
 *    a second round sizes every cache for the larger share and says what multiple of one replica's
 *    cache the working set then is.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { Client } from 'pg';
import { RATE_CLASS_IDS, SCOPES } from '@analyst/contracts';
import { openEventStore, type EventStore } from '@analyst/platform';
import { simulatedCommentCount } from '@analyst/provider-sim';
import { commentsFromPool, ContentLogWriter, SeededRandom } from '@analyst/testing';
import {
  clusterConfig,
  startApp,
  replicasOf,
  startReplica,
  stopAll,
  stopApp,
  stopReplica,
  stopReplicas,
  type AppName,
  type Cluster,
} from '../apps/distributed-e2e/test/cluster';
import { scoredCommentPool } from './scored-comment-pool';

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const TEAMS = Number(positional[0] ?? 100);
const POSTS = Number(positional[1] ?? 10);
const BIG_POSTS = Number(positional[2] ?? 100);
const PER_POST = Number(positional[3] ?? 1000);
const DROP = process.argv.includes('--drop');
const DIR = process.env.ISO_DIR ?? '/tmp/analyst-team-isolation';
const ADDS = Number(process.env.ISO_ADDS ?? 3);
const ADD_LINKS = Number(process.env.ISO_ADD_LINKS ?? 40);
const ADD_COMMENTS = Number(process.env.ISO_ADD_COMMENTS ?? 40_000);
const IDLE_SNAPSHOTS = Number(process.env.ISO_IDLE_SNAPSHOTS ?? 30);
const ROUNDS = Number(process.env.ISO_ROUNDS ?? 2);
const COLD_TEAMS = Math.min(Number(process.env.ISO_COLD_TEAMS ?? 10), TEAMS - 1);
const WORKING_SET = Math.min(Number(process.env.ISO_WORKING_SET ?? 24), TEAMS - 1);
const REPLICAS = process.env.ISO_REPLICAS !== '0';
const ADMIN = 'bench-admin-token-0123456789';
const TOTAL = TEAMS * POSTS * PER_POST + BIG_POSTS * PER_POST;
const LAYOUT = `${TEAMS}x${POSTS}+${BIG_POSTS}x${PER_POST}`;
const NAME = `iso_${LAYOUT.replace(/[^0-9]+/g, '_')}`;
const STORE = process.env.ISO_STORE ?? (process.env.POSTGRES_URL ? 'postgres' : 'sqlite');

interface Team {
  id: string;
  key: string;
  postIds: string[];
}
interface State {
  layout: string;
  eventStore: string;
  teams: Team[];
  big: Team;
  neighbour: Team;
  /** Set once the content is in the log. */
  written: boolean;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const pct = (xs: number[], p: number): number =>
  xs.length === 0
    ? NaN
    : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const p5095 = (xs: number[]) => `p50 ${ms(pct(xs, 50))}, p95 ${ms(pct(xs, 95))} (n ${xs.length})`;
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

/** One request through the gateway; throws unless 2xx. */
async function api<T = any>(
  cluster: Cluster,
  auth: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ ms: number; body: T }> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${cluster.ports.gateway}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${auth}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const took = performance.now() - started;
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return { ms: took, body: (text ? JSON.parse(text) : null) as T };
}

/** A snapshot of `postIds` (201 ready), its time and the analysis id. */
async function snapshot(
  cluster: Cluster,
  team: Team,
  postIds: string[],
): Promise<{ ms: number; id: string }> {
  const { ms: took, body } = await api(cluster, team.key, 'POST', '/analyst/v1/analyses', {
    selection: { postIds },
  });
  if (body.data.status !== 'ready') throw new Error(`snapshot for ${team.id} is ${body.data.status}`);
  return { ms: took, id: body.data.id };
}

async function sample(cluster: Cluster, team: Team, analysisId: string): Promise<number> {
  return (await api(cluster, team.key, 'GET', `/analyst/v1/analyses/${analysisId}/comments?limit=100`)).ms;
}

/** Every series of `name` on a process's /metrics, summed or the largest. */
async function metric(port: number, name: string, how: 'sum' | 'max' = 'sum'): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const values = [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].map((m) =>
    Number(m[1]),
  );
  if (values.length === 0) return NaN;
  return how === 'sum' ? values.reduce((a, b) => a + b, 0) : Math.max(...values);
}

async function cacheStats(port: number) {
  const [teams, bytes, loads, evictions, budget, live] = await Promise.all(
    [
      'analyst_read_cache_teams',
      'analyst_read_cache_bytes',
      'analyst_read_cache_loads_total',
      'analyst_read_cache_evictions_total',
      'analyst_read_cache_budget_bytes',
      'analyst_read_cache_live_budget_bytes',
    ].map((n) => metric(port, n)),
  );
  return { teams, bytes, loads, evictions, budget, live };
}

/** A team with a key of every scope, limits the bench cannot trip, and credits for adds. */
async function createTeam(
  cluster: Cluster,
  name: string,
  credits: number,
): Promise<{ id: string; key: string }> {
  const team = await api(cluster, ADMIN, 'POST', '/admin/v1/teams', { name, plan: 'enterprise' });
  const id: string = team.body.data.id;
  const key = await api(cluster, ADMIN, 'POST', `/admin/v1/teams/${id}/keys`, {
    name: 'bench',
    scopes: [...SCOPES],
  });
  await api(cluster, ADMIN, 'PUT', `/admin/v1/teams/${id}/limits`, {
    limits: Object.fromEntries(
      RATE_CLASS_IDS.map((c) => [c, { perMinute: 10_000_000, perDay: 100_000_000 }]),
    ),
    dailyBytes: 1e12,
  });
  if (credits > 0)
    await api(cluster, ADMIN, 'POST', `/admin/v1/teams/${id}/credits`, {
      pool: 'adhoc',
      amount: credits,
      reason: 'bench',
    });
  return { id, key: key.body.data.key };
}

/** Every post of every team, appended as ingest writes it. */
async function writeContent(events: EventStore, state: State): Promise<void> {
  const started = Date.now();
  const { pool, base, scorer } = scoredCommentPool('I');
  const log = new ContentLogWriter(events);
  const random = new SeededRandom(38);
  let written = 0;
  for (const team of [state.big, ...state.teams]) {
    for (const postId of team.postIds) {
      const link = `https://www.youtube.com/watch?v=${postId}`;
      const content = {
        post: { ...base, link },
        ...commentsFromPool(pool, postId, PER_POST, random, { topics: 2, messages: 1 }),
        topics: [
          { title: 'Battery life', description: null },
          { title: 'Price', description: null },
        ],
        messages: [{ topic: 'Battery', stance: 'lasts all day' }],
        scorer,
      };
      await log.postCreated(team.id, postId, link, 'youtube');
      await log.fetched(team.id, postId, 1, content);
      await log.scored(team.id, postId, 1, content);
      written += PER_POST;
      if (written % 100_000 === 0)
        console.log(`  log: ${written.toLocaleString()} comments written (${seconds(started)})`);
    }
  }
  console.log(
    `log: ${written.toLocaleString()} comments in ${state.teams.length + 1} teams appended in ${seconds(started)}`,
  );
}

async function until(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs: number,
  stepMs = 1000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(stepMs);
  }
}

/** Every projection of `apps` has applied all it knows of (lag 0 at a scrape that reads the head). */
async function projectionsCaughtUp(cluster: Cluster, apps: AppName[]): Promise<boolean> {
  const lags = await Promise.all(
    apps.map((a) => metric(cluster.ports[a], 'analyst_projection_lag_events', 'max')),
  );
  return lags.every((l) => l === 0);
}

function relayLeaseLines(cluster: Cluster): string[] {
  const file = join(cluster.logDir, 'relay.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => /superseded|lease lost|generation/.test(l))
    .map((l) => {
      try {
        const o = JSON.parse(l) as { msg?: string; time?: number };
        return `${new Date(o.time ?? 0).toISOString()} ${o.msg}`;
      } catch {
        return l;
      }
    });
}

function leaseLost(cluster: Cluster): string {
  const lost = relayLeaseLines(cluster).filter((l) => /superseded|lease lost/.test(l));
  return lost.length === 0 ? 'no' : `yes, ${lost.length} lines`;
}

async function prepare(cluster: Cluster, statePath: string): Promise<State> {
  let state: State | null = existsSync(statePath)
    ? (JSON.parse(readFileSync(statePath, 'utf8')) as State)
    : null;
  if (state?.written) {
    await Promise.all(
      (['relay', 'ledger', 'ingest', 'analysis', 'sampling'] as const).map((a) =>
        startApp(cluster, a, 600_000),
      ),
    );
    await startApp(cluster, 'gateway');
    return state;
  }
  // A fresh log: the services on it, the teams made through the admin API.
  await startApp(cluster, 'relay');
  await Promise.all((['ledger', 'ingest', 'analysis', 'sampling'] as const).map((a) => startApp(cluster, a)));
  await startApp(cluster, 'gateway');
  const started = Date.now();
  const postIds = (slug: string, count: number) =>
    Array.from({ length: count }, (_, p) => `po_${slug}_${String(p).padStart(4, '0')}`);
  const teams: Team[] = [];
  for (let i = 0; i < TEAMS; i++) {
    const { id, key } = await createTeam(cluster, `Team ${i}`, 0);
    teams.push({ id, key, postIds: postIds(`t${i}`, POSTS) });
  }
  const bigTeam = await createTeam(cluster, 'Big team', 0);
  const neighbour = await createTeam(cluster, 'Neighbour', 10 * ADDS * ADD_LINKS);
  state = {
    layout: LAYOUT,
    eventStore: cluster.env.ANALYST_EVENTSTORE,
    teams,
    big: { ...bigTeam, postIds: postIds('big', BIG_POSTS) },
    neighbour: { ...neighbour, postIds: [] },
    written: false,
  };
  console.log(`teams: ${TEAMS + 2} made through the admin API in ${seconds(started)}`);

  // The content goes to the log with the relay stopped, so the relay's start is a catch-up of it all.
  await stopApp(cluster, 'relay');
  const location = cluster.env.ANALYST_EVENTSTORE;
  const events: EventStore =
    STORE === 'postgres'
      ? openEventStore({ kind: 'postgres', connectionString: location })
      : openEventStore({ kind: 'sqlite', filename: location.slice('sqlite:'.length), access: 'read-write' });
  const appended = Date.now();
  try {
    await writeContent(events, state);
  } finally {
    await events.close();
  }
  state.written = true;
  writeFileSync(statePath, JSON.stringify(state));

  const relayStarted = Date.now();
  await startApp(cluster, 'relay', 600_000);
  const relayPort = cluster.ports.relay;
  const head = await metric(relayPort, 'analyst_relay_head_position');
  // Led and caught up: the lag reads 0 on a relay that does not lead yet.
  await until(
    'the relay to publish the log',
    async () =>
      (await metric(relayPort, 'analyst_relay_is_leader')) === 1 &&
      (await metric(relayPort, 'analyst_relay_position')) >= head,
    3_600_000,
  );
  const generation = await metric(relayPort, 'analyst_relay_generation');
  // The restart after the appends takes the next generation (the clean stop released the lease);
  // a lease lost while catching up logs 'superseded' or 'lease lost'.
  console.log(
    `relay catch-up on ${STORE} + Kafka: ${head.toLocaleString()} events published in ${seconds(relayStarted)}; generation ${generation}; lease lost: ${leaseLost(cluster)}; lease lines in its log: ${JSON.stringify(relayLeaseLines(cluster))}`,
  );
  await until(
    'analysis, sampling and ingest to project the log',
    () => projectionsCaughtUp(cluster, ['analysis', 'sampling', 'ingest']),
    3_600_000,
    2000,
  );
  console.log(`projections caught up ${seconds(appended)} after the appends began (load ${load()})`);
  return state;
}

/** Cold then warm snapshots and samples of teams never read by these replicas. */
async function coldAndWarm(cluster: Cluster, state: State) {
  const cold = { snap: [] as number[], sample: [] as number[] };
  const warm = { snap: [] as number[], sample: [] as number[] };
  const before = { a: await cacheStats(cluster.ports.analysis), s: await cacheStats(cluster.ports.sampling) };
  const coldTeams = state.teams.slice(1, 1 + COLD_TEAMS);
  const ids = new Map<string, string>();
  for (const team of coldTeams) {
    const snap = await snapshot(cluster, team, team.postIds.slice(0, 10));
    cold.snap.push(snap.ms);
    ids.set(team.id, snap.id);
    cold.sample.push(await sample(cluster, team, snap.id));
  }
  const after = { a: await cacheStats(cluster.ports.analysis), s: await cacheStats(cluster.ports.sampling) };
  for (let round = 0; round < 3; round++)
    for (const team of coldTeams) {
      warm.snap.push((await snapshot(cluster, team, team.postIds.slice(0, 10))).ms);
      warm.sample.push(await sample(cluster, team, ids.get(team.id)!));
    }
  console.log(
    `${Math.min(10, POSTS)}-post snapshot, ${coldTeams.length} teams: cold ${p5095(cold.snap)}; warm ${p5095(warm.snap)}`,
  );
  console.log(`100-row sample of it: cold ${p5095(cold.sample)}; warm ${p5095(warm.sample)}`);
  const big = state.big;
  const bigSnap = await snapshot(cluster, big, big.postIds.slice(0, 100));
  const bigSample = await sample(cluster, big, bigSnap.id);
  const bigWarm = { snap: [] as number[], sample: [] as number[] };
  for (let i = 0; i < 10; i++) {
    bigWarm.snap.push((await snapshot(cluster, big, big.postIds.slice(0, 100))).ms);
    bigWarm.sample.push(await sample(cluster, big, bigSnap.id));
  }
  console.log(
    `big team, ${Math.min(100, BIG_POSTS)}-post snapshot: cold ${ms(bigSnap.ms)}, warm ${p5095(bigWarm.snap)}; 100-row sample: cold ${ms(bigSample)}, warm ${p5095(bigWarm.sample)}`,
  );
  // What one small team holds in each cache, for sizing the replicas' caches below.
  const perTeam = {
    analysis: (after.a.bytes - before.a.bytes) / Math.max(1, after.a.teams - before.a.teams),
    sampling: (after.s.bytes - before.s.bytes) / Math.max(1, after.s.teams - before.s.teams),
    liveShare: after.a.live / after.a.budget,
  };
  console.log(
    `a ${POSTS}-post team held: analysis ${(perTeam.analysis / 2 ** 20).toFixed(2)} MiB, sampling ${(perTeam.sampling / 2 ** 20).toFixed(2)} MiB (live share of the budget ${perTeam.liveShare.toFixed(2)})`,
  );
  return perTeam;
}

/** The neighbour's adds, all sent at once; resolves when every job is completed or partial. */
async function neighbourAdds(
  cluster: Cluster,
  state: State,
  tag: string,
): Promise<{ comments: number; ms: number }> {
  const started = performance.now();
  // YouTube video ids are 11 characters: the run's 5, the add's 1, the link's 5. Only links whose
  // simulated section is within a quarter of ISO_ADD_COMMENTS' share are taken, so every run adds
  // about as many comments (sections range from a handful to thousands).
  const share = ADD_COMMENTS / (ADDS * ADD_LINKS);
  let comments = 0;
  const links = Array.from({ length: ADDS }, (_, a) => {
    const batch: string[] = [];
    for (let i = 0; batch.length < ADD_LINKS; i++) {
      const link = `https://www.youtube.com/watch?v=${tag.slice(0, 5)}${a}${String(i).padStart(5, '0')}`;
      const count = simulatedCommentCount(link);
      if (count === null) throw new Error(`the simulated provider does not read ${link}`);
      if (Math.abs(count - share) > share / 4) continue;
      batch.push(link);
      comments += count;
    }
    return batch;
  });
  const jobs = await Promise.all(
    links.map(
      async (batch) =>
        (await api(cluster, state.neighbour.key, 'POST', '/analyst/v1/content/posts/add', { links: batch }))
          .body.data.id as string,
    ),
  );
  const outcomes = await Promise.all(
    jobs.map(async (job) => {
      let data: { status: string; counts: unknown } | null = null;
      await until(
        `job ${job}`,
        async () => {
          data = (await api(cluster, state.neighbour.key, 'GET', `/analyst/v1/content/jobs/${job}`)).body
            .data;
          return ['completed', 'partial', 'failed'].includes(data!.status);
        },
        1_800_000,
      );
      return data!;
    }),
  );
  for (const outcome of outcomes)
    if (outcome.status !== 'completed')
      throw new Error(`an add ended ${outcome.status}: ${JSON.stringify(outcome.counts)}`);
  return { comments, ms: performance.now() - started };
}

/**
 * Two teams' warm reads idle, during the neighbour's adds, and idle again, side by side: team A's
 * 10-post snapshot (which also writes: a snapshot is stored, and answers once its own event is
 * projected) and team B's 100-row sample of an analysis made before (a read alone). Lag scraped
 * meanwhile.
 */
async function isolation(cluster: Cluster, state: State): Promise<void> {
  const team = state.teams[0];
  const reader = state.teams[state.teams.length - 1];
  const postIds = team.postIds.slice(0, 10);
  for (let i = 0; i < 5; i++) await snapshot(cluster, team, postIds); // warm it
  const readerAnalysis = (await snapshot(cluster, reader, reader.postIds.slice(0, 10))).id;
  for (let i = 0; i < 5; i++) await sample(cluster, reader, readerAnalysis);
  const lag = { events: 0, seconds: 0, scrapes: 0 };
  let scraping = true;
  const scraper = (async () => {
    while (scraping) {
      const values = await Promise.all(
        (['analysis', 'sampling'] as const).flatMap((a) => [
          metric(cluster.ports[a], 'analyst_projection_lag_events', 'max'),
          metric(cluster.ports[a], 'analyst_projection_lag_seconds', 'max'),
        ]),
      ).catch(() => null);
      if (values) {
        lag.events = Math.max(lag.events, values[0], values[2]);
        lag.seconds = Math.max(lag.seconds, values[1], values[3]);
        lag.scrapes++;
      }
      await sleep(250);
    }
  })();
  /** Both loops at once until `more()` says stop. */
  const window = async (more: (done: number) => boolean) => {
    const snaps: number[] = [];
    const samples: number[] = [];
    await Promise.all([
      (async () => {
        while (more(snaps.length)) snaps.push((await snapshot(cluster, team, postIds)).ms);
      })(),
      (async () => {
        while (more(samples.length)) samples.push(await sample(cluster, reader, readerAnalysis));
      })(),
    ]);
    return { snaps, samples };
  };
  // Idle and busy windows alternate (idle, adds, idle, adds, ..., idle), so the drift of a shared
  // machine falls on both alike.
  const idle = { snaps: [] as number[], samples: [] as number[] };
  const busy = { snaps: [] as number[], samples: [] as number[] };
  const idleLag = { events: 0, seconds: 0, scrapes: 0 };
  const busyLag = { events: 0, seconds: 0, scrapes: 0 };
  const keep = (into: typeof idleLag) => {
    into.events = Math.max(into.events, lag.events);
    into.seconds = Math.max(into.seconds, lag.seconds);
    into.scrapes += lag.scrapes;
    Object.assign(lag, { events: 0, seconds: 0, scrapes: 0 });
  };
  const collect = (into: typeof idle, w: typeof idle) => {
    into.snaps.push(...w.snaps);
    into.samples.push(...w.samples);
  };
  const rounds: string[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const quiet = await window((n) => n < IDLE_SNAPSHOTS);
    collect(idle, quiet);
    keep(idleLag);
    if (round === ROUNDS) break;
    const loadBefore = load();
    let adding = true;
    const adds = neighbourAdds(cluster, state, randomBytes(3).toString('hex')).finally(
      () => (adding = false),
    );
    const during = await window(() => adding);
    const added = await adds;
    collect(busy, during);
    keep(busyLag);
    rounds.push(
      `${added.comments.toLocaleString()} comments in ${(added.ms / 1000).toFixed(1)} s (load before ${loadBefore}, after ${load()}; ` +
        `idle p95 snapshot ${ms(pct(quiet.snaps, 95))} / sample ${ms(pct(quiet.samples, 95))}, during ${ms(pct(during.snaps, 95))} / ${ms(pct(during.samples, 95))})`,
    );
  }
  scraping = false;
  await scraper;
  console.log(
    `isolation, ${ROUNDS} rounds of the neighbour's ${ADDS} × ${ADD_LINKS}-link adds between idle windows: ${rounds.join('; ')}`,
  );
  const row = (what: string, key: 'snaps' | 'samples') =>
    console.log(
      `  ${what}: idle ${p5095(idle[key])}; during the adds ${p5095(busy[key])}; ` +
        `p95 during / idle p95 ×${(pct(busy[key], 95) / pct(idle[key], 95)).toFixed(2)} (target ≤ 2), p50 ×${(pct(busy[key], 50) / pct(idle[key], 50)).toFixed(2)}`,
    );
  row(`team A's warm ${postIds.length}-post snapshot (stored: waits for its own event)`, 'snaps');
  row(`team B's warm 100-row sample (a read alone)`, 'samples');
  console.log(
    `  projection lag (analysis and sampling, every 250 ms): during the adds max ${busyLag.events} events / ${busyLag.seconds.toFixed(2)} s over ${busyLag.scrapes} scrapes; idle max ${idleLag.events} / ${idleLag.seconds.toFixed(2)} s over ${idleLag.scrapes}`,
  );
}

/** Two analysis and two sampling replicas behind team-affine routing; a working set twice one replica's cache. */
async function replicas(
  cluster: Cluster,
  state: State,
  perTeam: { analysis: number; sampling: number; liveShare: number },
) {
  const teams = state.teams.slice(1, 1 + WORKING_SET);
  const mbFor = (bytes: number) =>
    Math.max(1, Math.ceil((teams.length * bytes) / 2 / perTeam.liveShare / 2 ** 20));
  const cacheMb = { analysis: mbFor(perTeam.analysis), sampling: mbFor(perTeam.sampling) };
  await Promise.all([
    stopApp(cluster, 'analysis'),
    stopApp(cluster, 'sampling'),
    stopApp(cluster, 'gateway'),
  ]);
  const base = cluster.ports.gateway + 10;
  const specs = [
    { name: 'analysis-1', app: 'analysis' as const, port: base },
    { name: 'analysis-2', app: 'analysis' as const, port: base + 1 },
    { name: 'sampling-1', app: 'sampling' as const, port: base + 2 },
    { name: 'sampling-2', app: 'sampling' as const, port: base + 3 },
  ];
  const list = (app: string) =>
    specs
      .filter((s) => s.app === app)
      .map((s) => `http://127.0.0.1:${s.port}`)
      .join(',');
  const stats = () => Promise.all(specs.map((s) => cacheStats(s.port)));
  const pass = async () => {
    const snaps: number[] = [];
    const samples: number[] = [];
    for (const team of teams) {
      const snap = await snapshot(cluster, team, team.postIds.slice(0, 10));
      snaps.push(snap.ms);
      samples.push(await sample(cluster, team, snap.id));
    }
    return { snaps, samples };
  };
  const workingSet = { analysis: teams.length * perTeam.analysis, sampling: teams.length * perTeam.sampling };
  /** Fresh replicas with these caches, two passes; returns how many teams each replica was sent. */
  const round = async (title: string, mb: Record<'analysis' | 'sampling', number>) => {
    await Promise.all(
      specs.map((s) =>
        startReplica(cluster, { ...s, env: { ANALYST_READ_CACHE_MB: String(mb[s.app]) } }, 600_000),
      ),
    );
    if (!replicasOf(cluster).has('gateway-affine'))
      await startReplica(cluster, {
        name: 'gateway-affine',
        app: 'gateway',
        port: cluster.ports.gateway,
        env: { ANALYST_UPSTREAM_ANALYSIS: list('analysis'), ANALYST_UPSTREAM_SAMPLING: list('sampling') },
      });
    else await sleep(6_000); // the gateway probes its replicas' /readyz every 2 s
    const first = await pass();
    const afterFirst = await stats();
    const second = await pass();
    const afterSecond = await stats();
    const ratio = (app: 'analysis' | 'sampling', i: number) =>
      `×${(workingSet[app] / afterFirst[i].live).toFixed(2)} one replica's live cache`;
    console.log(
      `replicas, ${title}: 2 analysis (ANALYST_READ_CACHE_MB ${mb.analysis}, live ${(afterFirst[0].live / 2 ** 20).toFixed(1)} MiB each) and 2 sampling (${mb.sampling}, live ${(afterFirst[2].live / 2 ** 20).toFixed(1)} MiB each); ` +
        `working set ${teams.length} teams: analysis ${(workingSet.analysis / 2 ** 20).toFixed(1)} MiB (${ratio('analysis', 0)}), sampling ${(workingSet.sampling / 2 ** 20).toFixed(1)} MiB (${ratio('sampling', 2)})`,
    );
    specs.forEach((s, i) =>
      console.log(
        `  ${s.name}: pass 1 sent ${afterFirst[i].loads} teams (holds ${afterFirst[i].teams}, ${(afterFirst[i].bytes / 2 ** 20).toFixed(1)} MiB, ${afterFirst[i].evictions} evictions); pass 2 reloads ${afterSecond[i].loads - afterFirst[i].loads}, evictions ${afterSecond[i].evictions - afterFirst[i].evictions}`,
      ),
    );
    console.log(
      `  pass 1 (cold): snapshot ${p5095(first.snaps)}, sample ${p5095(first.samples)}; pass 2: snapshot ${p5095(second.snaps)}, sample ${p5095(second.samples)}; load ${load()}`,
    );
    await Promise.all(specs.map((s) => stopReplica(cluster, s.name)));
    const reloads = afterSecond.reduce((n, a, i) => n + a.loads - afterFirst[i].loads, 0);
    const sent = (app: string) => Math.max(...specs.map((s, i) => (s.app === app ? afterFirst[i].loads : 0)));
    return { reloads, sent: { analysis: sent('analysis'), sampling: sent('sampling') } };
  };
  const exact = await round('caches of half the working set', cacheMb);
  if (exact.reloads > 0) {
    // The hash does not split teams evenly: each replica sized for the most teams one was sent.
    const fit = (app: 'analysis' | 'sampling') =>
      Math.ceil((exact.sent[app] * perTeam[app] * 1.05) / perTeam.liveShare / 2 ** 20);
    await round('caches of the larger share the routing sent one replica (+5%)', {
      analysis: fit('analysis'),
      sampling: fit('sampling'),
    });
  }
}

async function dropStores(cluster: Cluster): Promise<void> {
  const mongo = await new MongoClient(process.env.MONGO_URL!).connect();
  await mongo.db(cluster.env.MONGO_DB).dropDatabase();
  await mongo.close();
  if (STORE === 'postgres') await admin(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  rmSync(join(DIR, NAME), { recursive: true, force: true });
}

async function admin(statement: string): Promise<void> {
  const client = new Client({ connectionString: process.env.POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  if (!process.env.MONGO_URL || !process.env.KAFKA_BROKERS)
    throw new Error('run through deploy/local/with-stack.sh (needs MONGO_URL and KAFKA_BROKERS)');
  const dir = join(DIR, NAME);
  mkdirSync(dir, { recursive: true });
  const statePath = join(dir, 'state.json');
  let eventStore = `sqlite:${join(dir, 'events.db')}`;
  if (STORE === 'postgres') {
    const url = new URL(process.env.POSTGRES_URL!);
    if (!existsSync(statePath)) {
      await admin(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
      await admin(`CREATE DATABASE ${NAME}`);
    }
    url.pathname = `/${NAME}`;
    eventStore = url.toString();
  }
  const cluster = clusterConfig({
    dataDir: join(dir, 'data'),
    logDir: join(dir, `logs-${new Date().toISOString().replace(/[:.]/g, '-')}`),
    basePort: 21_000 + Math.floor(Math.random() * 400) * 20,
    namespace: `${NAME}.`,
    database: NAME,
    eventStore,
  });
  cluster.env.ANALYST_ADMIN_TOKEN = ADMIN;
  console.log(
    `team isolation bench: ${TOTAL.toLocaleString()} comments (${TEAMS} teams × ${POSTS} posts + a ${BIG_POSTS}-post team, ${PER_POST} comments a post) + a neighbour; log on ${STORE}; load ${load()}; logs ${cluster.logDir}`,
  );
  try {
    const state = await prepare(cluster, statePath);
    await until(
      'every projection to be caught up',
      () => projectionsCaughtUp(cluster, ['analysis', 'sampling']),
      600_000,
    );
    console.log(`services ready (load ${load()})`);
    const perTeam = await coldAndWarm(cluster, state);
    await isolation(cluster, state);
    if (REPLICAS) await replicas(cluster, state, perTeam);
    console.log(
      `relay: lease lost in this run: ${leaseLost(cluster)} (${JSON.stringify(relayLeaseLines(cluster))}); load at the end ${load()}`,
    );
  } finally {
    await stopReplicas(cluster);
    await stopAll(cluster);
    if (DROP) await dropStores(cluster);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
