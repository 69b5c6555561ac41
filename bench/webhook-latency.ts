/**
 * Push latency (issue 39): from a fact in the log to the receiver's 2xx, standalone and
 * distributed, in one run. The fact's time is its log event's `metadata.occurredAt` (the webhook
 * event's `createdAt`); a receiver on 127.0.0.1 stamps each arrival with the same wall clock and
 * answers 204 at once. One endpoint subscribed to every type, registered through the API.
 *
 * Facts come through the API at a steady, modest rate, as a client makes them: every `intervalMs`
 * one link is added (simulated provider, a small section of 20-400 comments: `post.updated` when
 * its version is scored, `content_job.completed` when the job settles) and, once posts exist, a
 * snapshot of the latest 10 posts is created (`analysis.ready`). The bench then waits until every
 * fact the API answered for has arrived, and checks each arrived once.
 *   standalone: the standalone app as a child process (the notifier mounted in process, its log and
 *     state in SQLite), ANALYST_WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8.
 *   distributed (with the local stack): relay, ledger, ingest, analysis, one notifier and the
 *     gateway as processes (apps/distributed-e2e/test/cluster.ts), the log on PostgreSQL
 *     (E2E_EVENTSTORE=sqlite: the shared SQLite file), deliveries in MongoDB, endpoints registered
 *     through the gateway. Skipped without KAFKA_BROKERS and MONGO_URL.
 * Printed per topology and per event type: p50, p95, max (ms) and n; then the same latency in
 * steps, from the notifier's records (GET /webhooks/{id}/deliveries): noticed (the fact to its
 * delivery record), queued (the record to its attempt), sent (the attempt to the arrival); the
 * distributed/standalone ratios of p50 and p95; the load average before each.
 *
 *   npm run bench -- bench/webhook-latency.ts [rounds=40] [intervalMs=1000]
 *   deploy/local/with-stack.sh npm run bench -- bench/webhook-latency.ts [rounds] [intervalMs]
 *
 * Figures (2026-11-29, this 2-core machine shared with other work, load 10-14 in every run;
 * distributed on PostgreSQL and the mongo-java-server stand-in; 40 rounds, 119 facts each side,
 * every one arrived once):
 *                       standalone p50 / p95 / max     distributed p50 / p95 / max    ratio p50, p95
 *   run 1 (load 11-12)      59 / 294 / 519 ms             421 / 865 / 1,295 ms          7.1x, 2.9x
 *   run 2 (load 13-14)      38 / 255 / 505 ms             210 / 453 /   647 ms          5.5x, 1.8x
 *   run 3 (load 10-13)      46 / 157 / 245 ms             181 / 548 /   699 ms          3.9x, 3.5x
 * Run 3's steps, p50 / p95 (ms): standalone noticed 30 / 134, queued 1 / 20, sent 9 / 34;
 * distributed noticed 126 / 289, queued 33 / 303, sent 3 / 29. Standalone, the engine is woken in
 * process by the SQLite log's subscription and its stores are SQLite; distributed, the wake comes
 * from PostgreSQL's LISTEN/NOTIFY and a tick is a series of MongoDB round trips (partition claims,
 * a checkpoint per held partition, the delivery inserted, the due query, the claim), each a few ms
 * on the stand-in at this load: the distributed time is in noticing and queueing, not in sending.
 *
 * After the engine's round trips were cut (commit 2922cd7: the claims renewed in one write, the
 * checkpoints once a read in one write, the claim without a re-read, health once an endpoint a
 * tick), the commit before it (42feb23, a worktree) and this code back to back, 30 rounds, 89 facts
 * each side, all once; distributed p50 / p95 (ms), steps p50:
 *                        before                          after                           after/before
 *   pair 1 (load 20 / 11)   112 / 197, noticed 68, queued 35    77 / 146, noticed 53, queued 11   0.69x / 0.74x
 *   pair 2 (load 1.2, quiet) 85 / 140, noticed 56, queued 24    48 / 127, noticed 31, queued 11   0.56x / 0.91x
 * Standalone (SQLite stores, one process) unchanged within the noise: p50 13-14 ms on the quiet
 * machine. Noticing is now the wake from PostgreSQL's NOTIFY, the claims' refresh (two waits), the
 * log page, the team's endpoints and the inserts; queueing one checkpoint write and the due query.
 */
import { simulatedCommentCount } from '@analyst/provider-sim';
import { WEBHOOK_EVENT_TYPES } from '@analyst/webhooks';
import {
  BenchApi,
  StampingReceiver,
  WEBHOOK_SCOPES,
  load,
  quantile,
  sleep,
  startCluster,
  startStandalone,
  type Arrival,
} from './webhook-bench-kit';

const ROUNDS = Number(process.argv[2] ?? 40);
const INTERVAL_MS = Number(process.argv[3] ?? 1000);
const SNAPSHOT_POSTS = 10;
/** After the last round, how long the facts it started may take to arrive (a job on a busy machine). */
const SETTLE_MS = 300_000;
const SCOPES = ['team:read', 'posts:read', 'posts:write', 'analyses:run', 'analyses:read', ...WEBHOOK_SCOPES];

interface Figures {
  name: string;
  load: string;
  /** Latencies (ms) by event type, and all together under 'all'. */
  byType: Map<string, number[]>;
  /** The same latency in its steps (ms), from the deliveries route's records; see `steps`. */
  steps: Map<string, number[]>;
  facts: number;
  duplicates: number;
}

/** One delivery as GET /webhooks/{id}/deliveries shows it (what the steps need of it). */
interface DeliveryView {
  event: { id: string };
  createdAt: string;
  lastAttempt: { at: string } | null;
}

/**
 * Where a fact's latency goes, from the notifier's own records (its clock is this machine's):
 * noticed = the delivery record created - the fact; queued = the attempt began - the record
 * created; sent = arrival - the attempt began (connect, sign, POST, the receiver reading the body).
 */
function steps(arrivals: Map<string, Arrival>, deliveries: DeliveryView[]): Map<string, number[]> {
  const out = new Map<string, number[]>([
    ['noticed', []],
    ['queued', []],
    ['sent', []],
  ]);
  for (const d of deliveries) {
    const arrival = arrivals.get(d.event.id);
    if (!arrival || !d.lastAttempt) continue;
    const created = Date.parse(d.createdAt);
    const attempted = Date.parse(d.lastAttempt.at);
    out.get('noticed')!.push(created - arrival.createdAt);
    out.get('queued')!.push(attempted - created);
    out.get('sent')!.push(arrival.arrivedAt - attempted);
  }
  return out;
}

/** Every delivery of the endpoint, newest first, page by page. */
async function deliveriesOf(api: BenchApi, key: string, webhookId: string): Promise<DeliveryView[]> {
  const out: DeliveryView[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await api.expect(
      200,
      'GET',
      `/analyst/v1/webhooks/${webhookId}/deliveries?limit=100${query}`,
      key,
    );
    out.push(...(page.data as DeliveryView[]));
    cursor = page.meta.nextCursor;
  } while (cursor);
  return out;
}

/** Links whose simulated sections are small, so ingest's work per round stays modest. */
function smallLinks(tag: string, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    if (i >= 100_000) throw new Error(`only ${out.length} small sections among 100,000 links`);
    // A YouTube video id is 11 characters: 6 of the run's tag, 5 of the counter.
    const link = `https://www.youtube.com/watch?v=${tag.padEnd(6, 'x').slice(-6)}${String(i).padStart(5, '0')}`;
    const comments = simulatedCommentCount(link) ?? 0;
    if (comments >= 20 && comments <= 400) out.push(link);
  }
  return out;
}

async function measure(name: string, api: BenchApi, tag: string): Promise<Figures> {
  const receiver = new StampingReceiver();
  await receiver.start();
  try {
    const team = await api.team(`Webhook latency ${tag}`, SCOPES, 10_000);
    const webhookId = await api.register(team.key, receiver.url('/hook'), WEBHOOK_EVENT_TYPES);
    const figuresLoad = load();
    console.log(`  ${name}: team ${team.id}, endpoint registered; adding links`);
    const links = smallLinks(tag, ROUNDS);
    const jobs: string[] = [];
    const analyses: string[] = [];
    const started = Date.now();
    for (let round = 0; round < ROUNDS; round++) {
      const due = started + round * INTERVAL_MS;
      await sleep(Math.max(0, due - Date.now()));
      const added = await api.expect(202, 'POST', '/analyst/v1/content/posts/add', team.key, {
        links: [links[round]],
        credits: { source: 'adhoc' },
      });
      jobs.push(added.data.id);
      // The posts seen so far are those whose post.updated arrived: snapshot the latest few.
      const postIds = [
        ...new Set(receiver.arrivals.filter((a) => a.type === 'post.updated').map((a) => String(a.data.id))),
      ].slice(-SNAPSHOT_POSTS);
      if (postIds.length > 0) {
        const snapshot = await api.expect(201, 'POST', '/analyst/v1/analyses', team.key, {
          selection: { postIds },
        });
        analyses.push(snapshot.data.id);
      }
    }
    console.log(
      `  ${name}: ${jobs.length} adds and ${analyses.length} snapshots sent in ${((Date.now() - started) / 1000).toFixed(0)} s; ${receiver.arrivals.length} events arrived so far`,
    );
    // Every job settles as one content_job.* event and (1 link, completed) one post.updated.
    const settled = (type: string, ids: string[]) => {
      const got = new Set(receiver.arrivals.filter((a) => a.type.startsWith(type)).map((a) => a.data.id));
      return ids.every((id) => got.has(id));
    };
    await receiver.until(
      `${jobs.length} jobs' and ${analyses.length} analyses' events`,
      () =>
        settled('content_job.', jobs) &&
        settled('analysis.', analyses) &&
        receiver.arrivals.filter((a) => a.type === 'post.updated').length >=
          receiver.arrivals.filter((a) => a.type === 'content_job.completed').length,
      SETTLE_MS,
    );
    await sleep(2_000); // a late second request would show as a duplicate
    const byType = new Map<string, number[]>([['all', []]]);
    const seen = new Map<string, Arrival>();
    let duplicates = 0;
    for (const a of receiver.arrivals) {
      if (seen.has(a.eventId)) {
        duplicates++;
        continue;
      }
      seen.set(a.eventId, a);
      const latency = a.arrivedAt - a.createdAt;
      if (!byType.has(a.type)) byType.set(a.type, []);
      byType.get(a.type)!.push(latency);
      byType.get('all')!.push(latency);
    }
    const recorded = await deliveriesOf(api, team.key, webhookId);
    return {
      name,
      load: figuresLoad,
      byType,
      steps: steps(seen, recorded),
      facts: seen.size,
      duplicates,
    };
  } finally {
    await receiver.stop();
  }
}

function row(label: string, values: number[]): string {
  return `  ${label.padEnd(26)} ${quantile(values, 0.5).toFixed(0).padStart(8)}  ${quantile(values, 0.95)
    .toFixed(0)
    .padStart(8)}  ${Math.max(...values)
    .toFixed(0)
    .padStart(8)}  ${String(values.length).padStart(5)}`;
}

function print(f: Figures): void {
  console.log(
    `\n${f.name}: ${f.facts} facts delivered, ${f.duplicates} duplicate requests; load before ${f.load}`,
  );
  console.log('  type                         p50 ms    p95 ms    max ms      n');
  for (const [type, values] of [...f.byType].sort(([a], [b]) =>
    a === 'all' ? 1 : b === 'all' ? -1 : a.localeCompare(b),
  ))
    console.log(row(type, values));
  console.log('  steps (the deliveries route):');
  for (const [step, values] of f.steps) console.log(row(`  ${step}`, values));
}

async function main(): Promise<void> {
  console.log(
    `webhook-latency: ${ROUNDS} rounds every ${INTERVAL_MS} ms (an add of 1 link, a snapshot); load ${load()}`,
  );
  const results: Figures[] = [];
  const standalone = await startStandalone(18_900 + Math.floor(Math.random() * 50));
  try {
    results.push(await measure('standalone', standalone.api, `s${Date.now().toString(36)}`));
  } finally {
    await standalone.stop();
  }
  print(results[0]);

  if (process.env.KAFKA_BROKERS && process.env.MONGO_URL) {
    const cluster = await startCluster('whlatency', ['relay', 'ledger', 'ingest', 'analysis', 'gateway'], 1);
    try {
      results.push(await measure('distributed', cluster.api, `d${Date.now().toString(36)}`));
    } finally {
      await cluster.stop();
    }
    print(results[1]);
    const [s, d] = results.map((r) => r.byType.get('all')!);
    console.log(
      `\ndistributed / standalone: p50 ${(quantile(d, 0.5) / quantile(s, 0.5)).toFixed(1)}x, p95 ${(quantile(d, 0.95) / quantile(s, 0.95)).toFixed(1)}x`,
    );
  } else {
    console.log(
      '\ndistributed skipped: no KAFKA_BROKERS/MONGO_URL (deploy/local/with-stack.sh npm run bench -- …)',
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
