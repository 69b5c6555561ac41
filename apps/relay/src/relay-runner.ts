import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Gauge } from 'prom-client';
import {
  ANALYST_CONFIG,
  CHECKPOINT_STORE,
  CLOCK,
  EVENT_STORE,
  EventRelay,
  HealthRegistry,
  HttpMetrics,
  MESSAGE_BUS,
  READ_STORE,
  RelayLease,
  type AnalystConfig,
  type CheckpointStore,
  type Clock,
  type EventStore,
  type MessageBus,
  type ReadStore,
} from '@analyst/platform';

/** Publishing failing this long without one success makes the leading relay not ready. */
const PUBLISH_STUCK_AFTER_MS = 5_000;

/**
 * Runs the relay while this replica holds the lease. The holder renews every
 * ANALYST_RELAY_LEASE_RENEW_MS; a standby checks as often, so it takes over at most TTL + one
 * interval after the holder's last renewal (8 s with the defaults), and at its next check after a
 * graceful release. Each takeover starts a fresh relay fenced by the new lease generation.
 */
@Injectable()
export class RelayRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Relay');
  readonly lease: RelayLease;
  private relay: EventRelay | null = null;
  private timer: NodeJS.Timeout | null = null;
  private tick: Promise<void> = Promise.resolve();
  /** The running start-or-stop pass, and whether the lease changed while it ran. */
  private reconciling: Promise<void> | null = null;
  private reconcileAgain = false;
  private relayGeneration: number | null = null;
  private shuttingDown = false;
  private lastCheckOk = 0;
  /** When the newest lease check began: a renewal's expiry counts from then. */
  private lastCheckStarted = 0;
  private lastError: string | null = null;
  private readonly renewMs: number;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(READ_STORE) store: ReadStore,
    @Inject(CHECKPOINT_STORE) legacy: CheckpointStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ANALYST_CONFIG) config: AnalystConfig,
    @Optional() health?: HealthRegistry,
    @Optional() metrics?: HttpMetrics,
  ) {
    this.renewMs = config.ANALYST_RELAY_LEASE_RENEW_MS ?? 2_000;
    this.lease = new RelayLease(
      store,
      clock,
      `relay-${randomUUID()}`,
      'relay',
      config.ANALYST_RELAY_LEASE_TTL_MS ?? 6_000,
      legacy,
    );
    health?.register('relay', () => this.health());
    if (metrics) this.registerMetrics(metrics);
  }

  get active(): boolean {
    return this.relay !== null;
  }

  onApplicationBootstrap(): void {
    this.step();
    this.timer = setInterval(() => this.step(), this.renewMs);
  }

  /** Queues one lease check behind the running one (checks never overlap). */
  private step(): Promise<void> {
    this.tick = this.tick
      .then(() => this.check())
      .catch((error) => {
        this.lastError = String(error);
        this.logger.error(`lease check failed: ${this.lastError}`);
      });
    return this.tick;
  }

  /**
   * The relay's fence check before each batch: first the renewal, when the timer's is overdue (a
   * long turn held the timer back), so a relay publishing batch after batch renews at least as
   * often as it checks its fence.
   */
  private async stillHeld(generation: number): Promise<boolean> {
    if (this.clock.now().getTime() - this.lastCheckStarted >= this.renewMs) await this.step();
    return this.lease.stillHeld(generation);
  }

  /**
   * One lease check: renew (holder) or try to take over (standby), then start or stop the relay to
   * match. The check never waits for the relay: stopping one waits for its publishes in flight,
   * and a renewal held up behind that would let the lease lapse (the next check is due while the
   * relay drains), so starting and stopping run on their own chain.
   */
  async check(): Promise<void> {
    this.lastCheckStarted = this.clock.now().getTime();
    await this.lease.tryAcquire();
    this.lastCheckOk = this.clock.now().getTime();
    this.lastError = null;
    this.reconcile();
  }

  /** Starts or stops the relay until it matches the lease; one pass at a time, re-reading the lease after each step. */
  private reconcile(): void {
    if (this.shuttingDown) return; // shutdown stops whatever relay runs
    if (this.reconciling) {
      this.reconcileAgain = true;
      return;
    }
    this.reconciling = (async () => {
      do {
        this.reconcileAgain = false;
        const generation = this.lease.generation;
        const relay = this.relay;
        if (relay && (relay.isFenced || this.relayGeneration !== generation)) {
          this.relay = null;
          await relay.stop();
          // A fence check that failed without the lease moving (the read store did not answer) stops
          // the relay too; it starts again under the same generation.
          this.logger.warn(
            this.relayGeneration === this.lease.generation
              ? `fence check failed: relay stopped, starting again under generation ${this.relayGeneration}`
              : 'lease lost: relay stopped',
          );
          this.reconcileAgain = true;
        } else if (!relay && generation !== null) {
          await this.startRelay(generation);
          this.reconcileAgain = true; // the lease may have moved while the relay started
        }
      } while (this.reconcileAgain && !this.shuttingDown);
    })()
      .catch((error) => {
        this.lastError = String(error);
        this.logger.error(`relay start or stop failed: ${this.lastError}`);
      })
      .finally(() => (this.reconciling = null));
  }

  private async startRelay(generation: number): Promise<void> {
    const relay = new EventRelay(this.events, this.bus, this.lease.checkpoints(generation), {
      name: 'relay',
      fence: { generation, stillHeld: () => this.stillHeld(generation) },
      onFenced: () => this.logger.warn(`lease generation ${generation} superseded: publishing stopped`),
    });
    await relay.start();
    this.relay = relay;
    this.relayGeneration = generation;
    this.logger.log(`lease generation ${generation} acquired: relaying events to Kafka`);
  }

  private health() {
    const stale = this.clock.now().getTime() - this.lastCheckOk > 3 * this.renewMs;
    const role = this.relay ? `leader (generation ${this.lease.generation})` : 'standby';
    if (stale)
      return {
        ready: false,
        detail: `${role}; no successful lease check for ${3 * this.renewMs} ms${this.lastError ? `: ${this.lastError}` : ''}`,
      };
    // A leader that cannot publish (Kafka away) is stuck: say so, while it keeps retrying.
    const failing = this.relay?.failingPublish;
    if (failing && failing.forMs > PUBLISH_STUCK_AFTER_MS)
      return {
        ready: false,
        detail: `${role}; publishing has failed for ${Math.round(failing.forMs / 1000)} s: ${failing.error}`,
      };
    return { ready: true, detail: role };
  }

  private registerMetrics(metrics: HttpMetrics): void {
    const registry = metrics.registry;
    const gauge = (name: string, help: string, collect: (g: Gauge) => void | Promise<void>) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          return collect(this);
        },
      });
    let head = -1;
    // Gauges are collected concurrently: each that needs the head reads it (a cheap query).
    const readHead = async () => (head = await this.events.headPosition().catch(() => head));
    gauge('analyst_relay_head_position', 'Global position of the newest event in the log', async (g) =>
      g.set(await readHead()),
    );
    gauge(
      'analyst_relay_position',
      'Last global position published and acknowledged (this replica, while leader)',
      (g) => g.set(this.relay?.position ?? -1),
    );
    gauge(
      'analyst_relay_lag_events',
      'Log positions between the head and what the leader has published; 0 on a standby',
      async (g) => {
        const relay = this.relay;
        g.set(relay ? Math.max(0, (await readHead()) - relay.position) : 0);
      },
    );
    gauge('analyst_relay_is_leader', '1 while this replica holds the relay lease and publishes', (g) =>
      g.set(this.relay ? 1 : 0),
    );
    gauge(
      'analyst_relay_generation',
      'Lease generation (fencing token) this replica publishes under; 0 on a standby',
      (g) => g.set(this.lease.generation ?? 0),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.shuttingDown = true;
    await this.tick;
    await this.reconciling;
    if (this.relay) {
      const relay = this.relay;
      this.relay = null;
      await relay.stop();
    }
    // Hand over at once rather than after the TTL.
    await this.lease.release();
  }
}
