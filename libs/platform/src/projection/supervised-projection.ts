import { Logger } from '@nestjs/common';
import type { EventStore, RecordedEvent, Subscription } from '@analyst/eventsourcing';
import { DEFAULT_BACKOFF, Sleeper, backoffDelay, type Backoff } from './backoff';
import type { CheckpointStore } from './checkpoint-store';
import type { ProjectionHealth } from './projection-health';
import type { ProjectionMetrics } from './projection-metrics';
import type { ProjectionRuntime } from './projection-runtime';

export interface SupervisedProjectionOptions {
  /** Label in logs, health and metrics (the service: `ingest`). */
  name: string;
  health: ProjectionHealth;
  /** Where progress is saved every `every` events and at stop; null when read models are rebuilt at boot. */
  checkpoint: { store: CheckpointStore; name: string; every: number } | null;
  metrics?: ProjectionMetrics;
  backoff?: Backoff;
  /**
   * How often the log head is read for stuck detection. Lag does not wait for it: pages read,
   * writes waited for and a head read at each scrape (`readHead`) move the known head at once.
   */
  headPollMs?: number;
  /**
   * `start()` rejects when the first catch-up has been failing for this long, so a process that
   * cannot build its read models exits (and is restarted) rather than hang in bootstrap.
   */
  giveUpStartAfterMs?: number;
}

class ProjectionStopped extends Error {
  constructor(name: string) {
    super(`projection ${name} stopped`);
  }
}

/**
 * Runs a ProjectionRuntime on the event log's `$all` subscription and keeps it running: an event
 * whose handling fails (read store unreachable) is retried with backoff, a subscription that ends
 * with an error is reopened after the last applied position with backoff, and every state is
 * reported to a ProjectionHealth. Re-applying is harmless (the runtime is idempotent), so each
 * restart simply resumes where this process got to.
 */
export class SupervisedProjection {
  private readonly logger = new Logger('Projections');
  private readonly sleeper = new Sleeper();
  private readonly backoff: Backoff;
  private subscription: Subscription | null = null;
  /** Bumped on each (re)subscription, so a late error of an old one is ignored. */
  private generation = 0;
  private restartsInARow = 0;
  private sinceSave = 0;
  private stopped = false;
  private headTimer: NodeJS.Timeout | null = null;
  private startOutcome: { resolve: () => void; reject: (error: unknown) => void } | null = null;
  /** The head read in flight, shared by every gauge of one scrape. */
  private headRead: Promise<void> | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly runtime: ProjectionRuntime,
    private readonly options: SupervisedProjectionOptions,
  ) {
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  private get health(): ProjectionHealth {
    return this.options.health;
  }

  /** Resolves once every event stored at start (after `after`) has been applied. */
  start(after: number): Promise<void> {
    this.stopped = false;
    this.runtime.markApplied(after);
    this.health.started(after);
    this.pollHead();
    this.headTimer = setInterval(() => this.pollHead(), this.options.headPollMs ?? 5_000);
    this.headTimer.unref();
    return new Promise<void>((resolve, reject) => {
      this.startOutcome = { resolve, reject };
      void this.subscribe();
    });
  }

  private pollHead(): void {
    this.events.headPosition().then(
      (head) => this.health.headSeen(head),
      (error) => this.logger.warn(`${this.options.name}: cannot read the log head: ${String(error)}`),
    );
  }

  /**
   * Reads the log head into the health now (a scrape does, so appends of other processes count
   * before the projection reads them). Gives up after `timeoutMs`, keeping what is known, so a
   * slow or unreachable log never fails a scrape: the poll logs that.
   */
  readHead(timeoutMs = 1_000): Promise<void> {
    if (this.headRead) return this.headRead;
    let timer: NodeJS.Timeout | undefined;
    const read = this.events.headPosition().then(
      (head) => this.health.headSeen(head),
      () => undefined,
    );
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    this.headRead = Promise.race([read, late]).finally(() => {
      clearTimeout(timer);
      this.headRead = null;
    });
    return this.headRead;
  }

  private async subscribe(): Promise<void> {
    if (this.stopped) return;
    const generation = ++this.generation;
    try {
      const subscription = await this.events.subscribeToAllPages((page) => this.handle(page), {
        afterPosition: this.runtime.position,
        onCaughtUp: () => this.caughtUp(),
        onError: (error) => void this.ended(generation, error),
      });
      if (this.stopped || generation !== this.generation) await subscription.close();
      else this.subscription = subscription;
    } catch (error) {
      void this.ended(generation, error);
    }
  }

  private caughtUp(): void {
    this.health.caughtUp();
    this.startOutcome?.resolve();
    this.startOutcome = null;
    if (this.options.checkpoint) void this.saveCheckpoint();
  }

  /** The subscription ended with an error: reopen it after the last applied position, with backoff. */
  private async ended(generation: number, error: unknown): Promise<void> {
    if (this.stopped || generation !== this.generation) return;
    this.generation += 1; // from here on, this subscription's errors are stale
    this.health.failed(error);
    this.options.metrics?.restart(this.options.name);
    const delay = backoffDelay(this.backoff, this.restartsInARow++);
    this.logger.error(
      `${this.options.name}: subscription to the log ended (${String(error)}); reopening after ${this.runtime.position} in ${delay} ms`,
    );
    const old = this.subscription;
    this.subscription = null;
    await old?.close().catch(() => undefined);
    if (this.givingUp(error)) return;
    await this.sleeper.sleep(delay);
    await this.subscribe();
  }

  /** One page of the log; a retry resumes at the first event not yet applied. */
  private async handle(page: readonly RecordedEvent[]): Promise<void> {
    const event = page[page.length - 1];
    const first = page.find((e) => e.position > this.runtime.position);
    if (first) this.health.reading(first.position, first.metadata?.occurredAt, event.position);
    for (let attempt = 0; ; attempt++) {
      if (this.stopped) throw new ProjectionStopped(this.options.name);
      const rest = page.filter((e) => e.position > this.runtime.position);
      try {
        await this.runtime.applyPage(rest);
        break;
      } catch (error) {
        const failed = rest[0];
        if (this.stopped) throw error;
        this.health.failed(error);
        this.options.metrics?.failure(this.options.name);
        const delay = backoffDelay(this.backoff, attempt);
        if (attempt % 10 === 0) {
          this.logger.error(
            `${this.options.name}: ${failed.type} ${failed.streamId}@${failed.revision} (position ${failed.position}) failed ${attempt + 1} time(s), retrying in ${delay} ms: ${String(error)}`,
            // Where it threw (a projector reading a null field, say), not only what.
            error instanceof Error ? error.stack : undefined,
          );
        }
        if (this.givingUp(error)) throw error;
        await this.sleeper.sleep(delay);
      }
    }
    this.health.recovered();
    this.restartsInARow = 0;
    this.health.progressed(event.position, event.metadata?.occurredAt);
    this.sinceSave += page.length;
    if (this.options.checkpoint && this.sinceSave >= this.options.checkpoint.every)
      await this.saveCheckpoint();
  }

  /** During the first catch-up only: too long failing ends the start, so the process exits. */
  private givingUp(error: unknown): boolean {
    const limit = this.options.giveUpStartAfterMs;
    if (!this.startOutcome || limit === undefined || this.health.failingForMs < limit) return false;
    this.logger.error(
      `${this.options.name}: giving up the first catch-up after failing for ${Math.round(this.health.failingForMs / 1000)} s`,
    );
    this.startOutcome.reject(error);
    this.startOutcome = null;
    void this.stop();
    return true;
  }

  private async saveCheckpoint(): Promise<void> {
    const checkpoint = this.options.checkpoint;
    this.sinceSave = 0;
    if (!checkpoint || this.runtime.position < 0) return;
    try {
      await checkpoint.store.save(checkpoint.name, this.runtime.position);
    } catch (error) {
      // A lost save costs only re-applying (idempotently) after a restart; the next one retries.
      this.logger.warn(
        `${this.options.name}: checkpoint save at ${this.runtime.position} failed: ${String(error)}`,
      );
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.generation += 1;
    this.health.stop();
    if (this.headTimer) clearInterval(this.headTimer);
    this.headTimer = null;
    this.sleeper.wakeAll();
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.close().catch(() => undefined);
    await this.saveCheckpoint();
  }
}
