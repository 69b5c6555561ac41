import type { EventStore, RecordedEvent, Subscription } from '@analyst/eventsourcing';
import { PositionWaiters } from './position-waiters';

/**
 * Folds the whole event log into something in memory (a columnar index, say) and stays live, so a
 * request can wait until every event stored before it has been folded (read-your-writes).
 */
export class LogFollower {
  private readonly reached = new PositionWaiters();
  private subscription: Subscription | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly fold: (event: RecordedEvent) => void,
    private readonly name: string,
  ) {}

  get position(): number {
    return this.reached.position;
  }

  /** Resolves once the log stored at start has been folded. */
  start(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      void this.events
        .subscribeToAll(
          async (event) => {
            this.fold(event);
            this.reached.advance(event.position);
          },
          { afterPosition: -1, onCaughtUp: resolve, onError: reject },
        )
        .then((s) => (this.subscription = s), reject);
    });
  }

  /** Waits until every event stored now has been folded. */
  async caughtUp(timeoutMs = 10_000): Promise<void> {
    await this.reached.waitFor(await this.events.headPosition(), timeoutMs, this.name);
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
  }
}
