import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { EventStore, RecordedEvent } from '@analyst/eventsourcing';
import { LogFollower } from './log-follower';

/**
 * A Nest service that keeps `state` folded from the whole event log in memory: it folds the log
 * at boot, stays live on the event store's subscription, and `current()` waits for every event
 * stored before the call (read-your-writes across services in one process). Only events of the
 * listed types reach `apply`.
 */
export abstract class LiveLogFold<T> implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private readonly follower: LogFollower;

  protected constructor(
    events: EventStore,
    readonly state: T,
    eventTypes: readonly string[],
    apply: (state: T, event: RecordedEvent) => void,
    private readonly names: { logger: string; state: string },
  ) {
    this.logger = new Logger(names.logger);
    const handled = new Set(eventTypes);
    this.follower = new LogFollower(
      events,
      (event) => {
        if (handled.has(event.type)) apply(this.state, event);
      },
      names.state,
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    const started = Date.now();
    await this.follower.start();
    this.logger.log(
      `${this.names.state} at position ${this.follower.position} in ${Date.now() - started} ms`,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower.stop();
  }

  /** The state once it has folded every event stored now. */
  async current(timeoutMs = 10_000): Promise<T> {
    await this.follower.caughtUp(timeoutMs);
    return this.state;
  }
}
