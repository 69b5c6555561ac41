import { hostname } from 'node:os';
import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import {
  CLOCK,
  EVENT_STORE,
  PeriodicTask,
  type Clock,
  type EventStore,
  type Subscription,
} from '@analyst/platform';
import {
  toWebhookEvent,
  WebhookDeliveryEngine,
  webhookNetworkPolicyFromEnv,
  type DeliveryStore,
  type PartitionClaims,
  type WebhookEndpointDirectory,
} from '@analyst/webhooks';
import { NotifierMetrics } from './notifier-metrics';
import { NOTIFIER_DELIVERY_OPTIONS, type NotifierDeliveryOptions } from './notifier-delivery-options';
import { NOTIFIER_STORES, type NotifierStores } from './notifier-stores';

export const WEBHOOK_ENDPOINT_DIRECTORY = Symbol('WebhookEndpointDirectory');

let replicasInProcess = 0;

/**
 * This process's name in the partition and delivery claims: the host (the pod's name in
 * Kubernetes) and pid, stable for the process's life; a second runner in one process (tests)
 * gets a suffix.
 */
function replicaName(): string {
  const n = replicasInProcess++;
  return `${hostname()}-${process.pid}${n === 0 ? '' : `-${n}`}`;
}

/** Finished deliveries (delivered, given up, endpoint gone) are kept this long for the deliveries route. */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
const START_RETRY_MS = 5_000;

/** A failing store fails every tick: say so once, then at most every 30 s while it lasts. */
const ERROR_LOG_EVERY_MS = 30_000;

/**
 * Runs this replica's delivery engine with the application: the partitions are created at the
 * log's head on a first deployment (no endpoint is older than the routes), the engine ticks every
 * `ANALYST_NOTIFIER_TICK_MS`, and a live subscription to the log wakes it as soon as an event that
 * becomes a webhook event is appended, so a delivery does not wait for the next tick. A failed tick
 * is logged and the next one runs; nothing here stops the process. Every hour it removes the
 * finished deliveries older than 30 days (the deliveries route shows recent ones; a pending one is
 * never removed). Stopped before the stores close
 * (onModuleDestroy comes before every onApplicationShutdown), giving its partitions back.
 */
@Injectable()
export class WebhookDeliveryRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Notifier');
  readonly holder = replicaName();
  readonly engine: WebhookDeliveryEngine;
  private subscription: Subscription | null = null;
  private readonly pruning: PeriodicTask;
  private retryTimer: NodeJS.Timeout | null = null;
  private destroyed = false;
  private readonly startRetryMs: number;
  private lastErrorLoggedAt = -Infinity;

  constructor(
    @Inject(NOTIFIER_STORES) private readonly stores: NotifierStores,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOK_ENDPOINT_DIRECTORY) endpoints: WebhookEndpointDirectory,
    @Inject(NOTIFIER_DELIVERY_OPTIONS) private readonly options: NotifierDeliveryOptions,
    @Optional() metrics?: NotifierMetrics,
  ) {
    this.startRetryMs = options.startRetryMs ?? START_RETRY_MS;
    this.engine = new WebhookDeliveryEngine({
      holder: this.holder,
      log: events,
      endpoints,
      deliveries: stores.deliveries,
      partitions: stores.partitions,
      clock,
      policy: webhookNetworkPolicyFromEnv(),
      onTick: (report) => metrics?.record(report),
    });
    // Any replica may prune: removing what is already gone is nothing.
    this.pruning = new PeriodicTask(
      PRUNE_EVERY_MS,
      () => this.pruneFinished(),
      (error) => this.failed('pruning finished deliveries', error),
    );
  }

  /** Removes the finished deliveries created more than 30 days before now; the count removed. */
  pruneFinished(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString();
    return this.stores.deliveries.pruneFinished(before);
  }

  get deliveries(): DeliveryStore {
    return this.stores.deliveries;
  }

  get partitions(): PartitionClaims {
    return this.stores.partitions;
  }

  /**
   * Starts at once when the stores answer; else says why and tries again every 5 s in the
   * background, so a store failing its first calls (just after the platform connected) does not
   * fail the start (the routes and probes serve meanwhile).
   */
  async onApplicationBootstrap(): Promise<void> {
    if (await this.tryStart()) return;
    const retry = () => {
      this.retryTimer = setTimeout(() => {
        void this.tryStart().then((started) => {
          if (!started && !this.destroyed) retry();
        });
      }, this.startRetryMs);
    };
    retry();
  }

  private async tryStart(): Promise<boolean> {
    if (this.destroyed) return false;
    let head: number;
    try {
      head = await this.events.headPosition();
      await this.stores.partitions.initialize(head);
    } catch (error) {
      this.failed(`starting the delivery engine (again in ${this.startRetryMs / 1000} s)`, error);
      return false;
    }
    if (this.destroyed) return false;
    this.engine.start(this.options.tickMs, (error) => this.failed('delivery tick', error));
    this.pruning.start(true);
    try {
      this.subscription = await this.events.subscribeToAllPages(
        async (page) => {
          if (page.some((event) => toWebhookEvent(event) !== null)) this.engine.wake();
        },
        {
          afterPosition: head,
          onError: (error) => this.failed('log subscription (the tick still runs)', error),
        },
      );
    } catch (error) {
      this.failed('log subscription (the tick still runs)', error);
    }
    if (this.destroyed) await this.subscription?.close(); // stopped while subscribing
    this.logger.log(`delivery engine started as ${this.holder}, ticking every ${this.options.tickMs} ms`);
    return true;
  }

  async onModuleDestroy(): Promise<void> {
    this.destroyed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.pruning.stop();
    await this.subscription?.close().catch((error) => this.failed('closing the log subscription', error));
    this.subscription = null;
    await this.engine.stop().catch((error) => this.failed('stopping the delivery engine', error));
  }

  private failed(what: string, error: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorLoggedAt < ERROR_LOG_EVERY_MS) return;
    this.lastErrorLoggedAt = now;
    this.logger.warn(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
