import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyWebhookSignature } from '@analyst/client';
import { MongoReadStore } from '@analyst/platform';
import { unique } from '@analyst/testing';
import { WEBHOOK_EVENT_TYPES } from '@analyst/webhooks';
import {
  clusterConfig,
  replicaPid,
  replicasOf,
  startReplica,
  stopReplica,
  stopReplicas,
  type Cluster,
  type ReplicaSpec,
} from './cluster';
import { E2eEventLog, e2eStoreKind, storeTitle } from './e2e-event-store';
import {
  chargeableLinks,
  createTeam,
  requestJson,
  waitFor as waitUntil,
  type NewTeam,
  type Reply,
} from './e2e-kit';
import { freePort, gauge, OwnBroker, ownBrokerSkipReason, sleep } from './fault-kit';
import { WebhookReceiver, type ReceivedWebhook } from './webhook-receiver';

/**
 * Push delivery under faults, in the distributed topology: two notifier replicas beside relay,
 * ledger, ingest, analysis and gateway (each its own process) over a Kafka broker of the suite's own,
 * the shared MongoDB stand-in (own database) and the shared log. Every event comes from a real API
 * call through the gateway (adds with the simulated provider: content_job.completed and post.updated;
 * a snapshot: analysis.ready; a ping: webhook.ping) and reaches a real receiver on 127.0.0.1, which
 * counts what it got per event id and checks each signature with the endpoint's secret.
 */

const skipReason = ownBrokerSkipReason('notifier faults e2e');
const STORE = e2eStoreKind();

/** Deliveries of a team's events reach the receiver within this of the API call that made them. */
const DELIVERY_BOUND_MS = 90_000;
/** A job of a few links completes within this of its add's answer. */
const JOB_BOUND_MS = 120_000;
/**
 * After the last expected request, how long the receiver is watched for one more. A second attempt
 * after a lost claim comes 40 s later (the 10 s timeout + 30 s), a retry after a failure within
 * 30 s: nothing that failed once goes unseen for 45 s.
 */
const QUIET_MS = 45_000;
/** How long the broker stays stopped in (5), at least: as the faults suite's outage. */
const OUTAGE_MS = 20_000;
/** The engine's delivery partitions (DEFAULT_DELIVERY_PARTITIONS): together the replicas hold them all. */
const PARTITIONS = 16;
/** A restarted or killed replica's partitions are held again (claims lapse, a fair share retaken) within this. */
const REBALANCE_BOUND_MS = 90_000;
const NOTIFIERS = ['notifier-1', 'notifier-2'];
const ALL_TYPES: string[] = [...WEBHOOK_EVENT_TYPES];

type Team = NewTeam;

interface Endpoint {
  id: string;
  secret: string;
  path: string;
  team: Team;
}

/** What the API said it did, hence which webhook events must arrive (type and the object's id). */
interface Expected {
  type: string;
  objectId: string;
  /** Known from the API for a ping (its answer names the event): two pings of one endpoint differ only by it. */
  eventId?: string;
}

/** Which arrival stands for an expected event: its event id where the API told it, else its type and object. */
function arrivalKey(e: Expected): string {
  return e.eventId ?? `${e.type} ${e.objectId}`;
}

(skipReason ? describe.skip : describe)(
  `notifier faults: two replicas, a receiver failing, down and holding, a replica SIGKILLed, a Kafka outage; the log on ${storeTitle(STORE)}`,
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'analyst-notifier-faults-'));
    const run = unique('ntf');
    const reports: Record<string, unknown> = {};
    const port: Record<string, number> = {};
    const receiver = new WebhookReceiver();
    let log: E2eEventLog | undefined;
    let broker: OwnBroker | undefined;
    let cluster: Cluster;

    function http<T = any>(
      method: string,
      path: string,
      options: { key?: string; admin?: boolean; body?: unknown } = {},
    ): Promise<Reply<T>> {
      return requestJson<T>(`http://127.0.0.1:${port.gateway}${path}`, method, {
        authorization: options.admin ? cluster.env.ANALYST_ADMIN_TOKEN : options.key,
        body: options.body,
        timeoutMs: 200_000,
        networkErrorsAsStatus0: true,
      });
    }

    function report(name: string, observed: unknown): void {
      reports[name] = observed;
      console.log(`notifier faults ${name}:\n${JSON.stringify(observed, null, 2)}`);
    }

    function spec(name: string, app: ReplicaSpec['app']): ReplicaSpec {
      return { name, app, port: port[name] };
    }

    function notifierPids(): number[] {
      return NOTIFIERS.map((n) => replicaPid(cluster, n)).filter((p): p is number => p !== null);
    }

    async function newTeam(label: string): Promise<Team> {
      const admin = (method: string, path: string, body: unknown) =>
        http(method, path, { admin: true, body });
      const team = await createTeam(admin, {
        name: `Notifier ${label} ${run}`,
        keyName: `notifier-${label}`,
        adhoc: 50,
        reason: `notifier faults ${label}`,
        scopes: [
          'posts:read',
          'posts:write',
          'team:read',
          'analyses:run',
          'analyses:read',
          'webhooks:read',
          'webhooks:write',
        ],
      });
      // Registrations and pings count against webhooks_write (10 a minute on the plan): raised here.
      const limits = await admin('PUT', `/admin/v1/teams/${team.id}/limits`, {
        limits: {
          global: { perMinute: 5_000 },
          content_jobs: { perMinute: 5_000 },
          content_add_posts: { perMinute: 100 },
          webhooks_write: { perMinute: 500 },
        },
      });
      expect(limits.status).toBe(200);
      return team;
    }

    async function register(team: Team, path: string): Promise<Endpoint> {
      const reply = await http('POST', '/analyst/v1/webhooks', {
        key: team.key,
        body: { url: receiver.url(path), events: ALL_TYPES, description: `notifier faults ${path}` },
      });
      expect({ status: reply.status, body: reply.body }).toMatchObject({
        status: 201,
        body: { data: { object: 'webhook_endpoint', url: receiver.url(path), status: 'active' } },
      });
      expect(reply.body.data.secret).toMatch(/^whsec_/);
      return { id: reply.body.data.id, secret: reply.body.data.secret, path, team };
    }

    /**
     * Adds `count` links of Ad Hoc credits; answers once the job is terminal, with what the events
     * must say. `prefix`: one character per add of the run (a YouTube id is 11 characters: the run's
     * tag, this, and a 4-digit index).
     */
    async function addPosts(team: Team, prefix: string, count: number): Promise<Expected[]> {
      const links = chargeableLinks(prefix, count);
      let reply: Reply = await http('POST', '/analyst/v1/content/posts/add', {
        key: team.key,
        body: { links, credits: { source: 'adhoc' } },
      });
      // Right after a broker outage ingest may still be rejoining: the contract's 503 says send it again.
      const deadline = Date.now() + JOB_BOUND_MS;
      while (reply.status === 503 && Date.now() < deadline) {
        await sleep(5_000);
        reply = await http('POST', '/analyst/v1/content/posts/add', {
          key: team.key,
          body: { links, credits: { source: 'adhoc' } },
        });
      }
      expect(reply.status).toBe(202);
      const jobId: string = reply.body.data.id;
      const done = await waitUntil(
        () => http('GET', `/analyst/v1/content/jobs/${jobId}`, { key: team.key }),
        (r) => ['completed', 'partial', 'failed'].includes(r.body?.data?.status),
        JOB_BOUND_MS,
        500,
      );
      expect(done.value.body.data.status).toBe('completed');
      const postIds: string[] = done.value.body.data.accepted.map((a: { postId: string }) => a.postId);
      expect(postIds).toHaveLength(count);
      return [
        { type: 'content_job.completed', objectId: jobId },
        ...postIds.map((id) => ({ type: 'post.updated', objectId: id })),
      ];
    }

    async function snapshot(team: Team, postIds: string[]): Promise<Expected> {
      const reply = await http('POST', '/analyst/v1/analyses', {
        key: team.key,
        body: { selection: { postIds } },
      });
      expect(reply.status).toBe(201);
      expect(reply.body.data.status).toBe('ready');
      return { type: 'analysis.ready', objectId: reply.body.data.id };
    }

    async function ping(endpoint: Endpoint): Promise<Expected & { eventId: string }> {
      const reply = await http('POST', `/analyst/v1/webhooks/${endpoint.id}/ping`, {
        key: endpoint.team.key,
      });
      expect(reply.status).toBe(202);
      expect(reply.body.data).toMatchObject({ type: 'webhook.ping', webhookId: endpoint.id });
      return { type: 'webhook.ping', objectId: endpoint.id, eventId: reply.body.data.id };
    }

    async function deliveries(endpoint: Endpoint): Promise<any[]> {
      const reply = await http('GET', `/analyst/v1/webhooks/${endpoint.id}/deliveries?limit=100`, {
        key: endpoint.team.key,
      });
      expect(reply.status).toBe(200);
      return reply.body.data;
    }

    /** The first arrival of each event at `path`, under both its event id and "type objectId" (see arrivalKey). */
    function arrivals(path: string): Map<string, ReceivedWebhook> {
      const out = new Map<string, ReceivedWebhook>();
      for (const r of receiver.at(path))
        for (const key of [r.eventId, `${r.type} ${String(r.data.id)}`]) if (!out.has(key)) out.set(key, r);
      return out;
    }

    /** Waits until every expected event reached `path` at least once (bounded); answers whether they did. */
    async function arrived(
      path: string,
      expected: Expected[],
      timeoutMs = DELIVERY_BOUND_MS,
    ): Promise<boolean> {
      const wanted = expected.map(arrivalKey);
      const waited = await waitUntil(
        async () => arrivals(path),
        (got) => wanted.every((w) => got.has(w)),
        timeoutMs,
        250,
      );
      return waited.ok;
    }

    /**
     * What `path` received: per event, its type, object and the number of requests; every body is of
     * the endpoint's team, carries the event id in its header, and verifies with the endpoint's secret.
     */
    async function received(endpoint: Endpoint) {
      const requests = receiver.at(endpoint.path);
      const signatures = await Promise.all(
        requests.map((r) =>
          verifyWebhookSignature(r.raw, r.signature, endpoint.secret, {
            nowSeconds: Math.floor(r.at / 1000),
          }),
        ),
      );
      const events = new Map<string, { type: string; objectId: string; requests: number }>();
      for (const r of requests) {
        const e = events.get(r.eventId) ?? { type: r.type, objectId: String(r.data.id), requests: 0 };
        e.requests += 1;
        events.set(r.eventId, e);
      }
      return {
        requests: requests.length,
        everySignatureValid: signatures.every((s) => s.ok),
        everyBodyOfTheTeam: requests.every((r) => r.teamId === endpoint.team.id),
        everyIdAnEventId: requests.every((r) => /^evt_[A-Za-z0-9_-]+$/.test(r.eventId)),
        events,
      };
    }

    /** The (type, object) pairs received, sorted, with the number of distinct event ids each had. */
    function objectsOf(events: Map<string, { type: string; objectId: string }>): string[] {
      return [...events.values()].map((e) => `${e.type} ${e.objectId}`).sort();
    }

    function expectedObjects(expected: Expected[]): string[] {
      return expected.map((e) => `${e.type} ${e.objectId}`).sort();
    }

    /** Each delivery as the route shows it: event, status, attempts, the last attempt's status. */
    function deliverySummary(list: any[]) {
      return list
        .map((d) => ({
          event: `${d.event?.type} ${d.event?.id}`,
          status: d.status as string,
          attempts: d.attempts as number,
          lastResponseStatus: d.lastAttempt?.responseStatus ?? null,
        }))
        .sort((a, b) => a.event.localeCompare(b.event));
    }

    async function partitionsHeld(): Promise<Record<string, number | null>> {
      return Object.fromEntries(
        await Promise.all(
          NOTIFIERS.map(async (n) => [n, await gauge(port[n], 'analyst_notifier_partitions_held')] as const),
        ),
      );
    }

    /** Both replicas hold partitions and together all of them (bounded); answers what they held. */
    async function splitBetweenReplicas(): Promise<{ ok: boolean; held: Record<string, number | null> }> {
      const waited = await waitUntil(
        partitionsHeld,
        (held) =>
          NOTIFIERS.every((n) => (held[n] ?? 0) > 0) &&
          NOTIFIERS.reduce((sum, n) => sum + (held[n] ?? 0), 0) === PARTITIONS,
        REBALANCE_BOUND_MS,
        1_000,
      );
      return { ok: waited.ok, held: waited.value };
    }

    beforeAll(async () => {
      const started = Date.now();
      broker = await OwnBroker.create();
      await broker.start();
      for (const name of ['relay', 'ledger', 'ingest', 'analysis', 'sampling', 'gateway', ...NOTIFIERS])
        port[name] = await freePort();
      await receiver.start();
      log = await E2eEventLog.create(STORE, 'notifier', dataDir);
      cluster = clusterConfig({
        dataDir,
        logDir: join(tmpdir(), `analyst-notifier-faults-logs-${run}`), // kept after the run, for post-mortems
        basePort: port.relay,
        namespace: `${run}.`,
        database: `analyst_${run}`,
        eventStore: log.location,
      });
      Object.assign(cluster.env, {
        KAFKA_BROKERS: broker.brokers,
        ANALYST_UPSTREAM_INGEST: `http://127.0.0.1:${port.ingest}`,
        ANALYST_UPSTREAM_LEDGER: `http://127.0.0.1:${port.ledger}`,
        ANALYST_UPSTREAM_ANALYSIS: `http://127.0.0.1:${port.analysis}`,
        // Not started: no route of this suite reads samples.
        ANALYST_UPSTREAM_SAMPLING: `http://127.0.0.1:${port.sampling}`,
        ANALYST_UPSTREAM_NOTIFIER: NOTIFIERS.map((n) => `http://127.0.0.1:${port[n]}`).join(','),
        ANALYST_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      });
      await startReplica(cluster, spec('relay', 'relay'));
      await Promise.all([
        startReplica(cluster, spec('ledger', 'ledger')),
        startReplica(cluster, spec('ingest', 'ingest')),
        startReplica(cluster, spec('analysis', 'analysis')),
        ...NOTIFIERS.map((n) => startReplica(cluster, spec(n, 'notifier'))),
      ]);
      await startReplica(cluster, spec('gateway', 'gateway'));
      receiver.trackSenders(notifierPids);
      reports.startup = {
        ms: Date.now() - started,
        broker: broker.brokers,
        receiverPort: receiver.port,
        logDir: cluster.logDir,
        eventLog: log.describe(),
      };
      console.log(
        `notifier faults cluster up in ${Date.now() - started} ms on ${log.describe()}; logs in ${cluster.logDir}`,
      );
    }, 420_000);

    afterAll(async () => {
      // Each step runs whatever the previous one threw, so no process, broker or database is left behind.
      const steps: (() => Promise<unknown>)[] = [
        () => (cluster ? stopReplicas(cluster) : Promise.resolve()),
        () => receiver.stop(),
        () => (log ? log.dispose() : Promise.resolve()),
        () => (broker ? broker.clean() : Promise.resolve()),
        async () => {
          if (!cluster) return;
          const mongo = await MongoReadStore.connect(process.env.MONGO_URL!, cluster.env.MONGO_DB);
          await mongo.database.dropDatabase();
          await mongo.close();
        },
        async () => {
          if (cluster)
            writeFileSync(
              join(cluster.logDir, 'notifier-faults-report.json'),
              JSON.stringify(reports, null, 2),
            );
          rmSync(dataDir, { recursive: true, force: true });
        },
      ];
      const errors: unknown[] = [];
      for (const step of steps) await step().catch((error) => errors.push(error));
      if (errors.length > 0) throw errors[0];
    }, 180_000);

    it('(1) two notifier replicas split the partitions and deliver every event of 6 endpoints once: jobs, posts, an analysis and pings, each signed with its endpoint secret', async () => {
      const split = await splitBetweenReplicas();
      const team = await newTeam('once');
      const endpoints: Endpoint[] = [];
      for (let i = 0; i < 6; i++) endpoints.push(await register(team, `/once-${i}`));
      const facts = await addPosts(team, 'a', 3);
      const postIds = facts.filter((f) => f.type === 'post.updated').map((f) => f.objectId);
      facts.push(await snapshot(team, postIds));
      const pings = new Map<string, Expected & { eventId: string }>();
      for (const endpoint of endpoints) pings.set(endpoint.path, await ping(endpoint));

      const allArrived = await Promise.all(
        endpoints.map((e) => arrived(e.path, [...facts, pings.get(e.path)!])),
      );
      await sleep(QUIET_MS);
      const perEndpoint = await Promise.all(
        endpoints.map(async (e) => ({ endpoint: e, got: await received(e), list: await deliveries(e) })),
      );
      const senders = new Set(
        receiver.requests.filter((r) => r.path.startsWith('/once-')).map((r) => r.senderPid),
      );
      report('(1) once', {
        partitionsHeld: split.held,
        endpoints: perEndpoint.map(({ endpoint, got, list }) => ({
          path: endpoint.path,
          requests: got.requests,
          events: got.events.size,
          deliveries: deliverySummary(list).map((d) => `${d.status}/${d.attempts}`),
        })),
        senderPids: [...senders],
        notifierPids: notifierPids(),
      });

      expect(split.ok).toBe(true);
      expect(allArrived).toEqual(endpoints.map(() => true));
      for (const { endpoint, got, list } of perEndpoint) {
        const wanted = [...facts, pings.get(endpoint.path)!];
        expect(objectsOf(got.events)).toEqual(expectedObjects(wanted));
        // Once: one request per event, no event twice under two ids.
        expect({ requests: got.requests, events: got.events.size }).toEqual({
          requests: wanted.length,
          events: wanted.length,
        });
        expect(got).toMatchObject({
          everySignatureValid: true,
          everyBodyOfTheTeam: true,
          everyIdAnEventId: true,
        });
        const pingEvent = [...got.events.entries()].find(([, e]) => e.type === 'webhook.ping');
        expect(pingEvent?.[0]).toBe(pings.get(endpoint.path)!.eventId);
        expect(deliverySummary(list)).toEqual(
          [...got.events.entries()]
            .map(([id, e]) => ({
              event: `${e.type} ${id}`,
              status: 'delivered',
              attempts: 1,
              lastResponseStatus: 200,
            }))
            .sort((a, b) => a.event.localeCompare(b.event)),
        );
      }
      // Every request came from one of the two notifier processes.
      for (const pid of senders) expect(notifierPids()).toContain(pid);
    }, 600_000);

    it('(2) a receiver answering 500 then 200 gets each event once more and no more; the deliveries route shows both attempts', async () => {
      const team = await newTeam('flaky');
      const endpoint = await register(team, '/flaky');
      receiver.behave('/flaky', (seen) => (seen === 0 ? 500 : 200));
      const facts = [...(await addPosts(team, 'b', 2))];
      facts.push(await ping(endpoint));

      // The first retry of a failed attempt comes within 30 s (full jitter below 30 s, 1 s floor).
      const twice = await waitUntil(
        async () => receiver.countsAt('/flaky'),
        (counts) => counts.size === facts.length && [...counts.values()].every((n) => n >= 2),
        DELIVERY_BOUND_MS + 30_000,
        250,
      );
      await sleep(QUIET_MS);
      const got = await received(endpoint);
      const list = await deliveries(endpoint);
      report('(2) 500 then 200', {
        counts: Object.fromEntries(receiver.countsAt('/flaky')),
        answers: receiver.at('/flaky').map((r) => `${r.eventId} ${r.answered} attempt=${r.attempt}`),
        deliveries: deliverySummary(list),
      });

      expect(twice.ok).toBe(true);
      expect(objectsOf(got.events)).toEqual(expectedObjects(facts));
      expect([...got.events.values()].map((e) => e.requests)).toEqual(facts.map(() => 2));
      expect(got).toMatchObject({ everySignatureValid: true, everyBodyOfTheTeam: true });
      // Per event: the first request was answered 500, the second 200, in that order.
      for (const id of got.events.keys())
        expect(
          receiver
            .at('/flaky')
            .filter((r) => r.eventId === id)
            .map((r) => r.answered),
        ).toEqual([500, 200]);
      expect(deliverySummary(list)).toEqual(
        [...got.events.entries()]
          .map(([id, e]) => ({
            event: `${e.type} ${id}`,
            status: 'delivered',
            attempts: 2,
            lastResponseStatus: 200,
          }))
          .sort((a, b) => a.event.localeCompare(b.event)),
      );
    }, 600_000);

    it('(3) a receiver down while events happen gets every one of them once after it is back, each delivery recording its refused attempts', async () => {
      const team = await newTeam('down');
      const endpoint = await register(team, '/down');
      const downReceiver = new WebhookReceiver();
      await downReceiver.start();
      // The endpoint points at a receiver of its own, so closing it refuses only this endpoint's connections.
      const reply = await http('POST', '/analyst/v1/webhooks', {
        key: team.key,
        body: { url: downReceiver.url('/down'), events: ALL_TYPES },
      });
      expect(reply.status).toBe(201);
      const own: Endpoint = { id: reply.body.data.id, secret: reply.body.data.secret, path: '/down', team };
      // The first endpoint stays up: the same events reach it at once, so they exist when the other is down.
      await downReceiver.stop();
      const downAt = Date.now();
      const facts = [...(await addPosts(team, 'c', 2))];
      facts.push(await ping(own));
      const upArrived = await arrived(
        endpoint.path,
        facts.filter((f) => f.type !== 'webhook.ping'),
      );

      // Down "for a while": until every delivery of the closed receiver has been refused twice (its
      // first attempt and its first retry, which comes within 30 s).
      const refused = await waitUntil(
        () => deliveries(own),
        (list) =>
          list.length === facts.length && list.every((d) => d.status === 'pending' && d.attempts >= 2),
        DELIVERY_BOUND_MS + 30_000,
        1_000,
      );
      const latestRetry = Math.max(
        ...refused.value.map((d) => Date.parse(d.nextRetryAt ?? '') || Date.now()),
      );
      await downReceiver.start();
      const upAt = Date.now();
      // Bounded by the schedule the route shows: the latest next retry, plus the tick and a loaded machine's slack.
      const bound = Math.max(0, latestRetry - Date.now()) + 60_000;
      const back = await waitUntil(
        async () => downReceiver.countsAt('/down'),
        (counts) => counts.size === facts.length,
        bound,
        250,
      );
      await sleep(QUIET_MS);
      const list = await deliveries(own);
      const requests = downReceiver.at('/down');
      const signatures = await Promise.all(
        requests.map((r) =>
          verifyWebhookSignature(r.raw, r.signature, own.secret, { nowSeconds: Math.floor(r.at / 1000) }),
        ),
      );
      await downReceiver.stop();
      report('(3) receiver down', {
        downMs: upAt - downAt,
        waitedAfterUpMs: back.ms,
        boundMs: bound,
        counts: Object.fromEntries(downReceiver.countsAt('/down')),
        deliveries: deliverySummary(list),
        refusedErrors: refused.value.map((d) => d.lastAttempt?.error?.code ?? null),
      });

      expect(upArrived).toBe(true);
      expect(refused.ok).toBe(true);
      expect(refused.value.map((d) => d.lastAttempt?.error?.code)).toEqual(
        facts.map(() => 'connection_refused'),
      );
      expect(back.ok).toBe(true);
      expect(requests.map((r) => `${r.type} ${String(r.data.id)}`).sort()).toEqual(expectedObjects(facts));
      expect([...downReceiver.countsAt('/down').values()]).toEqual(facts.map(() => 1));
      expect(signatures.every((s) => s.ok)).toBe(true);
      expect(requests.every((r) => r.teamId === team.id)).toBe(true);
      for (const d of deliverySummary(list)) {
        expect(d.status).toBe('delivered');
        expect(d.attempts).toBeGreaterThanOrEqual(3);
        expect(d.lastResponseStatus).toBe(200);
      }
    }, 900_000);

    it('(4) a notifier SIGKILLed while the receiver holds its request loses nothing: the other replica delivers the event', async () => {
      const team = await newTeam('kill');
      const endpoint = await register(team, '/kill');
      let killed = false;
      receiver.behave('/kill', () => (killed ? 200 : 'hold'));
      const pinged = await ping(endpoint);

      const held = await waitUntil(
        async () => receiver.at('/kill').find((r) => r.answered === 'held'),
        (r) => r !== undefined,
        DELIVERY_BOUND_MS,
        100,
      );
      expect(held.ok).toBe(true);
      const holder = NOTIFIERS.find((n) => replicaPid(cluster, n) === held.value!.senderPid);
      expect(holder).toBeDefined();
      const survivor = NOTIFIERS.find((n) => n !== holder)!;
      const survivorPid = replicaPid(cluster, survivor);
      // Well inside the attempt's 10 s timeout: the request is still held when the sender dies.
      await stopReplica(cluster, holder!, 'SIGKILL');
      const killedAt = Date.now();
      killed = true;

      const delivered = await waitUntil(
        async () => receiver.at('/kill').filter((r) => r.answered === 200),
        (list) => list.length >= 1,
        120_000,
        250,
      );
      await sleep(QUIET_MS);
      const got = await received(endpoint);
      const list = await deliveries(endpoint);
      await startReplica(cluster, replicasOf(cluster).get(holder!)!.spec, REBALANCE_BOUND_MS);
      const split = await splitBetweenReplicas();
      report('(4) SIGKILL mid-delivery', {
        holder,
        survivor,
        redeliveredAfterKillMs: delivered.ok ? delivered.value[0].at - killedAt : null,
        requests: receiver.at('/kill').map((r) => ({ answered: r.answered, senderPid: r.senderPid })),
        deliveries: deliverySummary(list),
        partitionsAfterRestart: split.held,
      });

      expect(delivered.ok).toBe(true);
      expect(objectsOf(got.events)).toEqual(expectedObjects([pinged]));
      expect([...got.events.keys()]).toEqual([pinged.eventId]);
      // The held request and the survivor's: the event twice, as at-least-once allows, and no more.
      expect(receiver.at('/kill').map((r) => r.answered)).toEqual(['held', 200]);
      expect(receiver.at('/kill')[1].senderPid).toBe(survivorPid);
      expect(got).toMatchObject({ everySignatureValid: true, everyBodyOfTheTeam: true });
      expect(deliverySummary(list)).toMatchObject([
        { event: `webhook.ping ${pinged.eventId}`, status: 'delivered', lastResponseStatus: 200 },
      ]);
      expect(split.ok).toBe(true);
    }, 600_000);

    it(`(5) with Kafka stopped for ${OUTAGE_MS / 1000} s, an analysis and a ping at its start and a ping at its end are delivered while the broker is away, both notifiers stay up and ready; adds after it returns are delivered too; none lost, none twice`, async () => {
      const team = await newTeam('outage');
      const endpoint = await register(team, '/outage');
      const before = await addPosts(team, 'd', 2);
      const beforeArrived = await arrived(endpoint.path, before);

      const pidsBefore = notifierPids();
      await broker!.stop();
      const stoppedAt = Date.now();
      const postIds = before.filter((f) => f.type === 'post.updated').map((f) => f.objectId);
      const during: Expected[] = [await snapshot(team, postIds), await ping(endpoint)];
      const duringArrived = await arrived(endpoint.path, during);
      // Late in the outage too, once the Kafka clients have long noticed it (session timeouts of 10 s).
      await sleep(Math.max(0, stoppedAt + OUTAGE_MS - Date.now()));
      const late = await ping(endpoint);
      during.push(late);
      const lateArrived = await arrived(endpoint.path, [late]);
      // Ready throughout: a notifier consumes nothing from Kafka, so Kubernetes keeps routing /webhooks to it.
      const readyDuringOutage = await Promise.all(
        NOTIFIERS.map(async (n) => (await requestJson(`http://127.0.0.1:${port[n]}/readyz`, 'GET')).status),
      );
      const restartAt = Date.now();
      await broker!.start();
      const after = await addPosts(team, 'e', 2);
      const afterArrived = await arrived(endpoint.path, after);
      await sleep(QUIET_MS);
      const got = await received(endpoint);
      const list = await deliveries(endpoint);
      const all = [...before, ...during, ...after];
      const receivedAt = (e: Expected) => arrivals(endpoint.path).get(arrivalKey(e))?.at ?? null;
      report('(5) broker outage', {
        outageMs: restartAt - stoppedAt,
        readyDuringOutage,
        duringReceivedAfterStopMs: during.map((e) => {
          const at = receivedAt(e);
          return at === null ? null : at - stoppedAt;
        }),
        counts: Object.fromEntries(receiver.countsAt('/outage')),
        deliveries: deliverySummary(list).map((d) => `${d.event} ${d.status}/${d.attempts}`),
      });

      expect(beforeArrived).toBe(true);
      expect(duringArrived).toBe(true);
      expect(lateArrived).toBe(true);
      expect(restartAt - stoppedAt).toBeGreaterThanOrEqual(OUTAGE_MS);
      // Neither notifier restarted: the outage is nothing to them.
      expect(notifierPids()).toEqual(pidsBefore);
      expect(readyDuringOutage).toEqual(NOTIFIERS.map(() => 200));
      // Delivered while the broker was still stopped: the notifier reads the log, not Kafka.
      for (const e of during) expect(receivedAt(e)!).toBeLessThan(restartAt);
      expect(afterArrived).toBe(true);
      expect(objectsOf(got.events)).toEqual(expectedObjects(all));
      expect([...got.events.values()].map((e) => e.requests)).toEqual(all.map(() => 1));
      expect(got).toMatchObject({ everySignatureValid: true, everyBodyOfTheTeam: true });
      expect(deliverySummary(list).map((d) => d.status)).toEqual(all.map(() => 'delivered'));
    }, 900_000);
  },
);
