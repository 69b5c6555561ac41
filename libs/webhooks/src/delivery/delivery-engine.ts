import type { Clock, EventStore, RecordedEvent } from '@analyst/eventsourcing';
import type { WebhookNetworkPolicy } from '../address-policy';
import { shouldDisableEndpoint } from '../endpoint-health';
import type { WebhookEndpointState } from '../endpoint/webhook-endpoint.decider';
import {
  DEFAULT_RETRY_POLICY,
  deliveryJitter,
  nextDeliveryStep,
  type DeliveryStep,
  type RetryPolicy,
} from '../retry-schedule';
import { DELIVERY_TIMEOUT_MS, sendWebhookAttempt } from '../send-webhook';
import { activeSigningSecrets } from '../signing-secrets';
import { isSubscribableWebhookEvent, toWebhookEvent, type WebhookEvent } from '../webhook-events';
import { newDelivery, partitionOf, type DeliveryAttempt, type DeliveryRecord } from './delivery-record';
import type { DeliveryOutcome, DeliveryStore } from './delivery-store';
import type { WebhookEndpointDirectory } from './endpoint-directory';
import type { HeldPartition, PartitionClaims } from './partition-claims';

export interface WebhookDeliveryEngineOptions {
  /** This replica's name in the partition and delivery claims. */
  holder: string;
  /** The event log, read from each held partition's checkpoint. */
  log: Pick<EventStore, 'readAll'>;
  endpoints: WebhookEndpointDirectory;
  deliveries: DeliveryStore;
  partitions: PartitionClaims;
  clock: Clock;
  policy: WebhookNetworkPolicy;
  timeoutMs?: number;
  retryPolicy?: RetryPolicy;
  /** How long one attempt's claim lasts: past the send timeout, so only a stopped replica's claim lapses. */
  claimTtlMs?: number;
  /** Due deliveries attempted per tick, and how many at once. */
  batchSize?: number;
  concurrency?: number;
  /** Log events read per page. */
  pageSize?: number;
  /**
   * While started, how often the partition claims are renewed apart from the ticks: a tick waiting
   * on slow receivers must not let them lapse (keep it well under the claims' time to live).
   */
  heartbeatMs?: number;
  /** Told each tick's report (metrics); a throw here is the caller's bug and fails that tick. */
  onTick?: (report: TickReport) => void;
}

/** What one tick did, for metrics and tests. */
export interface TickReport {
  partitions: number[];
  /** The lowest log checkpoint among the partitions still held after creating deliveries; null when none is held. */
  lowestCheckpoint: number | null;
  created: number;
  attempts: { delivered: number; failed: number; superseded: number };
  finished: { given_up: number; endpoint_disabled: number; endpoint_deleted: number };
  disabledEndpoints: string[];
}

const emptyReport = (partitions: number[]): TickReport => ({
  partitions,
  lowestCheckpoint: null,
  created: 0,
  attempts: { delivered: 0, failed: 0, superseded: 0 },
  finished: { given_up: 0, endpoint_disabled: 0, endpoint_deleted: 0 },
  disabledEndpoints: [],
});

/** Reads of a team's endpoints shared within one page of the log or one tick's attempts, by team. */
type TeamReads = Map<string, Promise<WebhookEndpointState[]>>;

/** One tick's attempts: its report, its endpoint reads, and its delivered attempts not yet folded into health, by endpoint. */
interface TickAttempts {
  report: TickReport;
  endpointReads: TeamReads;
  delivered: Map<string, DeliveryAttempt[]>;
}

/** A long read saves the checkpoints after this many pages, so a restart does not read it all again. */
const CHECKPOINT_EVERY_PAGES = 10;

const statusOfStep = (step: DeliveryStep) =>
  step.kind === 'delivered' ? 'delivered' : step.kind === 'given_up' ? 'given_up' : 'pending';

/**
 * One notifier replica's work, no framework: each tick it refreshes its partitions, creates the
 * deliveries of the log events past each held partition's checkpoint (insert-if-absent, so a
 * replay or another replica adds nothing), then attempts the due deliveries of its partitions,
 * each under a claim, records each attempt, schedules the next with the retry schedule, gives up
 * after 72 hours and disables an endpoint that has failed that long. At least once: a replica
 * stopped mid-attempt leaves a claim that lapses, and another replica attempts again.
 */
export class WebhookDeliveryEngine {
  private readonly timeoutMs: number;
  private readonly claimTtlMs: number;
  private running: Promise<TickReport> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private beating: Promise<unknown> | null = null;
  /** The partitions of the latest refresh: an attempt is made only while its partition is still held. */
  private held = new Set<number>();
  private stopped = false;
  /** While started: runs the next tick after `delay` ms (replacing the one scheduled). */
  private schedule: ((delay: number) => void) | null = null;
  /** A tick of the loop is running now; a wake-up meanwhile runs another right after it. */
  private looping = false;
  private wakeRequested = false;

  constructor(private readonly options: WebhookDeliveryEngineOptions) {
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.claimTtlMs = options.claimTtlMs ?? this.timeoutMs + 30_000;
  }

  /** One round; ticks never overlap (a tick asked for during another waits for it and runs after). */
  async tick(): Promise<TickReport> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.round();
    try {
      const report = await this.running;
      this.options.onTick?.(report);
      return report;
    } finally {
      this.running = null;
    }
  }

  /** Ticks every `intervalMs` until stopped; a failed tick is reported and the next one runs. */
  start(intervalMs: number, onError: (error: unknown) => void = () => undefined): void {
    this.stopped = false;
    this.heartbeat = setInterval(() => {
      if (this.beating) return;
      this.beating = this.refresh()
        .catch(onError)
        .finally(() => (this.beating = null));
    }, this.options.heartbeatMs ?? 3_000);
    const run = () => {
      this.timer = null;
      this.looping = true;
      this.wakeRequested = false;
      this.tick()
        .catch(onError)
        .finally(() => {
          this.looping = false;
          this.schedule?.(this.wakeRequested ? 0 : intervalMs);
        });
    };
    this.schedule = (delay) => {
      if (this.stopped) return;
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(run, delay);
    };
    this.schedule(intervalMs);
  }

  /**
   * New events may be in the log (a live subscription saw an append): tick now rather than at the
   * next interval, or right after the tick in flight, which may have read the log before them.
   * Nothing while stopped.
   */
  wake(): void {
    if (!this.schedule || this.stopped) return;
    this.wakeRequested = true;
    if (!this.looping) this.schedule(0);
  }

  /** Stops ticking, waits for the tick in flight, and gives the partitions back to the other replicas. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.schedule = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    while (this.running) await this.running.catch(() => undefined);
    await this.beating;
    await this.options.partitions.release(this.options.holder);
  }

  private async round(): Promise<TickReport> {
    const held = await this.refresh();
    const report = emptyReport(held.map((h) => h.partition));
    if (held.length === 0) return report;
    const checkpoints = new Map(held.map((h) => [h.partition, h.checkpoint]));
    report.created = await this.createDeliveries(checkpoints);
    report.lowestCheckpoint = checkpoints.size > 0 ? Math.min(...checkpoints.values()) : null;
    await this.attemptDue(report);
    return report;
  }

  private async refresh(): Promise<HeldPartition[]> {
    const held = await this.options.partitions.refresh(this.options.holder);
    this.held = new Set(held.map((h) => h.partition));
    return held;
  }

  /**
   * The deliveries of every log event past each held partition's checkpoint; the count inserted.
   * Moves `checkpoints` (partition → checkpoint) along, and drops the partitions lost meanwhile.
   */
  private async createDeliveries(checkpoints: Map<number, number>): Promise<number> {
    const { log, pageSize } = this.options;
    const from = Math.min(...checkpoints.values());
    let created = 0;
    let readTo = from;
    let pagesUnsaved = 0;
    for await (const page of log.readAll(from, pageSize ?? 500)) {
      if (page.length === 0) continue;
      // A team's endpoints are read once a page: an endpoint registered before one of these
      // events was in the log before the page was read, so a read made now holds it.
      const subscribers: TeamReads = new Map();
      const recipients = await Promise.all(
        page.map((event) => this.deliveriesOf(event, checkpoints, subscribers)),
      );
      // Inserted together: each is its own insert-if-absent, so their order does not matter.
      const inserted = await Promise.all(
        recipients.flat().map((r) => this.options.deliveries.insertIfAbsent(r)),
      );
      created += inserted.filter(Boolean).length;
      readTo = page[page.length - 1].position;
      // Checkpoints are saved when the read ends (and every few pages of a long one), not after each
      // page: a replica stopped before saving reads those pages again and inserts nothing twice.
      if (++pagesUnsaved >= CHECKPOINT_EVERY_PAGES) {
        await this.saveCheckpoints(checkpoints, readTo);
        pagesUnsaved = 0;
        if (checkpoints.size === 0) break;
      }
    }
    if (pagesUnsaved > 0) await this.saveCheckpoints(checkpoints, readTo);
    return created;
  }

  /**
   * Moves every held partition's checkpoint below `position` to it in one step; a partition lost
   * to another replica is that replica's to carry on, so it is dropped from `checkpoints`.
   */
  private async saveCheckpoints(checkpoints: Map<number, number>, position: number): Promise<void> {
    const { partitions, holder } = this.options;
    const moving = [...checkpoints].filter(([, checkpoint]) => checkpoint < position).map(([p]) => p);
    const saved = new Set(await partitions.saveCheckpoints(holder, moving, position));
    for (const partition of moving) {
      if (saved.has(partition)) checkpoints.set(partition, position);
      else checkpoints.delete(partition);
    }
  }

  /** A team's endpoints, read once per `reads` (a page of the log, a tick's attempts). */
  private teamEndpoints(teamId: string, reads: TeamReads): Promise<WebhookEndpointState[]> {
    let read = reads.get(teamId);
    if (!read) reads.set(teamId, (read = this.options.endpoints.endpoints(teamId)));
    return read;
  }

  /** The endpoints an event goes to: a ping to its one endpoint while active, else the active subscribers. */
  private async recipients(event: WebhookEvent, subscribers: TeamReads): Promise<WebhookEndpointState[]> {
    const endpoints = await this.teamEndpoints(event.teamId, subscribers);
    if (!isSubscribableWebhookEvent(event)) {
      const pinged = event.data.id;
      return endpoints.filter((e) => e.status === 'active' && e.endpointId === pinged);
    }
    const type = event.type;
    return endpoints.filter((e) => e.status === 'active' && e.events.includes(type));
  }

  /** The deliveries an event makes in the held partitions whose checkpoint is below it. */
  private async deliveriesOf(
    event: RecordedEvent,
    checkpoints: Map<number, number>,
    subscribers: TeamReads,
  ): Promise<DeliveryRecord[]> {
    const webhookEvent = toWebhookEvent(event);
    if (!webhookEvent) return [];
    const { partitions, clock } = this.options;
    const records: DeliveryRecord[] = [];
    for (const endpoint of await this.recipients(webhookEvent, subscribers)) {
      const partition = partitionOf(endpoint.endpointId, partitions.count);
      const checkpoint = checkpoints.get(partition);
      if (checkpoint === undefined || event.position <= checkpoint) continue;
      // An endpoint gets the facts recorded after it was registered, not the team's history.
      if (Date.parse(webhookEvent.createdAt) < Date.parse(endpoint.createdAt)) continue;
      records.push(newDelivery(endpoint, webhookEvent, partitions.count, clock.now().toISOString()));
    }
    return records;
  }

  private async attemptDue(report: TickReport): Promise<void> {
    const { deliveries, clock, batchSize, concurrency } = this.options;
    const due = await deliveries.due(report.partitions, clock.now().toISOString(), batchSize ?? 100);
    let next = 0;
    // A team's endpoints are read once a tick however many of their deliveries are due (a burst
    // of events to its endpoints): what changed since is seen at the next tick, and this engine's
    // own disabling drops the read at once.
    const tick: TickAttempts = { report, endpointReads: new Map(), delivered: new Map() };
    const worker = async () => {
      while (next < due.length) await this.attempt(due[next++], tick);
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency ?? 8, due.length) }, worker));
    } finally {
      // A delivered attempt cannot disable its endpoint: the tick's are folded into each
      // endpoint's health once, at its end (or with the endpoint's next failure, before it).
      await Promise.all(
        [...tick.delivered].map(([endpointId, attempts]) =>
          deliveries.recordEndpointAttempts(endpointId, attempts),
        ),
      );
    }
  }

  private async attempt(due: DeliveryRecord, tick: TickAttempts): Promise<void> {
    const { deliveries, clock, holder } = this.options;
    const { report, endpointReads } = tick;
    const now = clock.now();
    const until = new Date(now.getTime() + this.claimTtlMs).toISOString();
    // Given back or lost since the tick began (another replica joined): that replica attempts it.
    if (!this.held.has(due.partition)) return;
    const record = await deliveries.claim(due.id, holder, now.toISOString(), until, due);
    if (!record) return; // another replica has it, or it was finished or attempted meanwhile
    const endpoint = (await this.teamEndpoints(record.teamId, endpointReads)).find(
      (e) => e.endpointId === record.endpointId,
    );
    if (!endpoint || endpoint.status !== 'active') {
      const status = endpoint?.status === 'disabled' ? 'endpoint_disabled' : 'endpoint_deleted';
      if (await deliveries.complete(record.id, holder, { attempt: null, status, nextAttemptAt: null }))
        report.finished[status]++;
      return;
    }
    const outcome = await this.send(record, endpoint);
    if (!(await deliveries.complete(record.id, holder, outcome))) {
      // The claim lapsed and another replica attempted it: its attempt is the recorded one.
      report.attempts.superseded++;
      return;
    }
    const { attempt } = outcome;
    report.attempts[attempt.outcome]++;
    if (outcome.status === 'given_up') report.finished.given_up++;
    await this.recordHealth(record, attempt, tick);
  }

  /**
   * A delivered attempt cannot disable its endpoint: it waits for the tick's end (or the
   * endpoint's next failure). A failure is folded at once, with the endpoint's deliveries of this
   * tick so far (one of them ends a failing streak), and may disable the endpoint.
   */
  private async recordHealth(
    record: DeliveryRecord,
    attempt: DeliveryAttempt,
    tick: TickAttempts,
  ): Promise<void> {
    const { deliveries, endpoints, clock } = this.options;
    const earlier = tick.delivered.get(record.endpointId) ?? [];
    if (attempt.outcome === 'delivered') {
      tick.delivered.set(record.endpointId, [...earlier, attempt]);
      return;
    }
    tick.delivered.delete(record.endpointId);
    const health = await deliveries.recordEndpointAttempts(record.endpointId, [...earlier, attempt]);
    if (
      shouldDisableEndpoint(health) &&
      (await endpoints.disable(record.teamId, record.endpointId, health, clock.now().toISOString()))
    ) {
      tick.report.disabledEndpoints.push(record.endpointId);
      tick.endpointReads.delete(record.teamId);
    }
  }

  /** One signed attempt, and where the delivery stands after it. */
  private async send(
    record: DeliveryRecord,
    endpoint: WebhookEndpointState,
  ): Promise<DeliveryOutcome & { attempt: DeliveryAttempt }> {
    const { clock, policy } = this.options;
    const at = clock.now();
    const number = record.attempts.length + 1;
    const result = await sendWebhookAttempt(
      {
        url: endpoint.url,
        body: record.body,
        secrets: activeSigningSecrets(endpoint.secrets, at),
        headers: {
          'analyst-webhook-id': record.eventId,
          'analyst-webhook-type': record.eventType,
          'analyst-webhook-attempt': String(number),
        },
      },
      { policy, timeoutMs: this.timeoutMs, now: () => clock.now().getTime() },
    );
    const step = nextDeliveryStep(
      [...record.attempts, { at: at.toISOString(), outcome: result.outcome }],
      deliveryJitter(record.id),
      this.options.retryPolicy ?? DEFAULT_RETRY_POLICY,
    );
    const nextAttemptAt = step.kind === 'retry' ? step.at : null;
    const attempt: DeliveryAttempt = {
      number,
      at: at.toISOString(),
      outcome: result.outcome,
      responseStatus: result.status ?? null,
      error: result.error ?? null,
      latencyMs: result.latencyMs,
      responseBody: result.body,
      nextRetryAt: nextAttemptAt,
    };
    return { attempt, status: statusOfStep(step), nextAttemptAt };
  }
}
