import type { Consumer, ConsumerConfig, EachBatchPayload, Kafka } from 'kafkajs';
import type { Subscription } from '@analyst/eventsourcing';
import type { KafkaComponentHealth } from './kafka-hooks';

export interface SupervisedConsumerOptions {
  kafka: Kafka;
  /** The group as named on the broker (namespace included). */
  groupId: string;
  /** The group as the health check and metrics name it (no namespace). */
  name: string;
  topics: string[];
  config: Omit<ConsumerConfig, 'groupId' | 'retry'>;
  fromBeginning: boolean;
  autoCommitIntervalMs: number;
  partitionsConsumedConcurrently: number;
  eachBatch: (payload: EachBatchPayload, live: () => boolean) => Promise<void>;
  /** First pause before a restart; doubles per failed attempt up to `maxRestartDelayMs`. */
  restartDelayMs: number;
  maxRestartDelayMs: number;
  /** No fetch, heartbeat or handled message for this long: not ready (the broker is likely gone). */
  stallAfterMs: number;
  /** Not recovered for this long: not live, so the orchestrator restarts the process. */
  deadAfterMs: number;
  /**
   * No join, fetch or heartbeat for this long with no handler running: the consumer is replaced
   * (kafkajs lost it without a crash). Well above a slow rejoin after a broker restart, which waits
   * out the old members' session timeout. Default 60 s.
   */
  hangAfterMs?: number;
  onRestart?: (error: unknown) => void;
  onError?: (error: unknown) => void;
}

type State = 'starting' | 'joining' | 'running' | 'restarting' | 'closed';

/**
 * A kafkajs consumer that never stays dead: on any crash (retriable or not: "Failed to find group
 * coordinator" is non-retriable in kafkajs and its consumer then stops for good) the consumer is
 * thrown away and a fresh one is started after an exponential backoff, for as long as the
 * subscription is open. kafkajs' own restart is switched off so there is one restart path, with
 * one backoff and one count.
 */
export class SupervisedConsumer implements Subscription {
  private consumer: Consumer | null = null;
  private generation = 0;
  private state: State = 'starting';
  private joined = false;
  private lastError: string | null = null;
  private failedAttempts = 0;
  private restarts = 0;
  /** Last sign that the consumer works: a fetch, a heartbeat, a join, a handled batch. */
  private lastProgressAt = Date.now();
  private inFlight = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Restarts a consumer that kafkajs left hanging without a crash (see checkStall). */
  private watchdog: NodeJS.Timeout | null = null;
  private generationStartedAt = Date.now();
  private closing: Promise<void> | null = null;
  private readonly idle: Array<() => void> = [];
  private fetchedGeneration = -1;
  private readonly fetchWaiters: Array<{ ok: () => void; fail: (error: unknown) => void }> = [];

  constructor(
    private readonly options: SupervisedConsumerOptions,
    private readonly onClose: (s: SupervisedConsumer) => void = () => undefined,
  ) {}

  get name(): string {
    return this.options.name;
  }

  get groupId(): string {
    return this.options.groupId;
  }

  get topics(): string[] {
    return this.options.topics;
  }

  get restartCount(): number {
    return this.restarts;
  }

  get stopping(): boolean {
    return this.state === 'closed';
  }

  /** First start: failures are thrown to the caller (as subscribe() always did), not retried. */
  async start(): Promise<void> {
    await this.startOnce();
  }

  /**
   * Resolves once the current consumer has completed a fetch, i.e. has a position on every partition
   * it was assigned (a group without commits takes "latest" only then); rejects if it crashes first.
   */
  firstFetch(): Promise<void> {
    if (this.fetchedGeneration === this.generation && this.state === 'running') return Promise.resolve();
    return new Promise((ok, fail) => this.fetchWaiters.push({ ok, fail }));
  }

  /** Replaces the consumer now, as a crash would (tests; an operator's kick). */
  forceRestart(reason: Error): void {
    this.onCrash(this.generation, reason);
  }

  health(now = Date.now()): KafkaComponentHealth {
    const group = `group ${this.options.name}`;
    const lastError = this.lastError ? `; last error: ${this.lastError}` : '';
    const live = now - this.lastProgressAt < this.options.deadAfterMs;
    const deadFor = live ? '' : `; not recovered for ${Math.round((now - this.lastProgressAt) / 1000)} s`;
    switch (this.state) {
      case 'closed':
        return { ready: false, live: true, detail: `${group}: closed` };
      case 'starting':
      case 'joining':
        return { ready: false, live, detail: `${group}: joining${lastError}${deadFor}` };
      case 'restarting':
        return {
          ready: false,
          live,
          detail: `${group}: restarting (attempt ${this.failedAttempts})${lastError}${deadFor}`,
        };
      case 'running': {
        if (!this.joined)
          return { ready: false, live, detail: `${group}: rebalancing${lastError}${deadFor}` };
        const quiet = now - this.lastProgressAt;
        if (quiet >= this.options.stallAfterMs) {
          return {
            ready: false,
            live,
            detail: `${group}: no fetch or heartbeat for ${Math.round(quiet / 1000)} s${lastError}${deadFor}`,
          };
        }
        return { ready: true, live: true, detail: `${group}: consuming` };
      }
    }
  }

  close(): Promise<void> {
    // The state stops batch loops at once; disconnect then commits what was resolved and leaves the group.
    this.closing ??= (async () => {
      this.state = 'closed';
      if (this.restartTimer) clearTimeout(this.restartTimer);
      if (this.watchdog) clearInterval(this.watchdog);
      this.fetchWaiters.splice(0).forEach((w) => w.fail(new Error(`consumer ${this.options.name} closed`)));
      await this.consumer?.disconnect().catch(() => undefined);
      this.onClose(this);
    })();
    return this.closing;
  }

  private progress(generation: number): void {
    if (generation === this.generation) this.lastProgressAt = Date.now();
  }

  private isClosed(): boolean {
    return this.state === 'closed';
  }

  private async startOnce(): Promise<void> {
    if (this.isClosed()) return;
    const generation = ++this.generation;
    this.generationStartedAt = Date.now();
    this.watchdog ??= setInterval(() => this.checkStall(), Math.max(250, this.hangAfterMs / 8));
    this.watchdog.unref();
    this.state = 'joining';
    this.joined = false;
    const consumer = this.options.kafka.consumer({
      ...this.options.config,
      groupId: this.options.groupId,
      // Every crash comes to onCrash, which restarts with our backoff whatever kafkajs thinks of the error.
      // kafkajs' own retries are capped at 2 s apart, so a consumer notices a returning broker soon.
      retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 2_000, restartOnFailure: async () => false },
    });
    this.consumer = consumer;
    const current = () => generation === this.generation && this.state !== 'closed';
    consumer.on(consumer.events.GROUP_JOIN, () => {
      if (!current()) return;
      this.joined = true;
      this.state = 'running';
      this.progress(generation);
    });
    consumer.on(consumer.events.REBALANCING, () => {
      if (current()) this.joined = false;
    });
    consumer.on(consumer.events.FETCH, () => {
      if (!current()) return;
      this.progress(generation);
      this.fetchedGeneration = generation;
      this.fetchWaiters.splice(0).forEach((w) => w.ok());
      // Backoff (and the error shown) start over only once a restarted consumer really works, not merely joined.
      if (this.joined) {
        this.failedAttempts = 0;
        this.lastError = null;
      }
    });
    consumer.on(consumer.events.HEARTBEAT, () => this.progress(generation));
    consumer.on(consumer.events.CRASH, (event) => this.onCrash(generation, event.payload.error));
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning });
      await consumer.run({
        autoCommit: true,
        autoCommitInterval: this.options.autoCommitIntervalMs,
        // Offsets are resolved by hand, one handled message at a time, never a whole batch at once.
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently,
        eachBatch: async (payload) => {
          this.inFlight += 1;
          try {
            const live = () => current() && payload.isRunning() && !payload.isStale();
            await this.options.eachBatch(payload, live);
            this.progress(generation);
          } finally {
            this.inFlight -= 1;
            if (this.inFlight === 0) this.idle.splice(0).forEach((wake) => wake());
          }
        },
      });
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
    // close() may have run while this consumer was connecting, before it was the one to disconnect.
    if (this.isClosed()) await consumer.disconnect().catch(() => undefined);
  }

  /**
   * kafkajs can lose a consumer without a CRASH event: a metadata error on a topic another replica
   * is still creating was seen to reject a promise nobody awaited, leaving the group never joined
   * and the first fetch never coming. A consumer with no join, fetch or heartbeat for `hangAfterMs`,
   * and no handler running (a long batch is not a hang), is replaced as after a crash.
   */
  private get hangAfterMs(): number {
    return this.options.hangAfterMs ?? 60_000;
  }

  private checkStall(): void {
    if (this.state !== 'joining' && this.state !== 'running') return;
    if (this.inFlight > 0) return;
    const quiet = Date.now() - Math.max(this.lastProgressAt, this.generationStartedAt);
    if (quiet > this.hangAfterMs) {
      this.onCrash(
        this.generation,
        new Error(`stalled: no join, fetch or heartbeat for ${Math.round(quiet / 1000)} s`),
      );
    }
  }

  private onCrash(generation: number, error: unknown): void {
    // A restart already pending covers this crash too.
    if (generation !== this.generation || this.state === 'closed' || this.state === 'restarting') return;
    this.lastError = describe(error);
    this.options.onError?.(error);
    this.fetchWaiters.splice(0).forEach((w) => w.fail(error));
    this.scheduleRestart(error);
  }

  private scheduleRestart(error: unknown): void {
    this.state = 'restarting';
    this.joined = false;
    this.generation += 1; // events of the old consumer no longer count
    const failed = this.consumer;
    this.consumer = null;
    const delay = Math.min(
      this.options.restartDelayMs * 2 ** this.failedAttempts,
      this.options.maxRestartDelayMs,
    );
    this.failedAttempts += 1;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      void (async () => {
        // The old consumer must be gone and its handlers finished before a new one takes the partitions.
        await failed?.disconnect().catch(() => undefined);
        await this.drained();
        if (this.isClosed()) return;
        this.restarts += 1;
        this.options.onRestart?.(error);
        try {
          await this.startOnce();
        } catch (startError) {
          if (this.isClosed()) return;
          this.lastError = describe(startError);
          this.options.onError?.(startError);
          this.scheduleRestart(startError);
        }
      })();
    }, delay);
  }

  /** Handlers see `live()` turn false and return; one that hangs anyway holds the restart for at most stallAfterMs. */
  private drained(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((wake) => {
      const timer = setTimeout(wake, this.options.stallAfterMs);
      this.idle.push(() => {
        clearTimeout(timer);
        wake();
      });
    });
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return `${error.name}: ${error.message}`;
}
