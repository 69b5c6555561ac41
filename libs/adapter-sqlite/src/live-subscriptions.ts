import type { EventStore, RecordedEvent, SubscribeOptions, Subscription } from '@analyst/eventsourcing';
import { LiveSubscription, type LiveHandler } from './live-subscription';

/**
 * The open subscriptions of a store that serves them by reading its own log (SQLite, PostgreSQL):
 * the port's two subscribe calls, waking them all after an append, closing them all with the store.
 */
export class LiveSubscriptions implements Pick<EventStore, 'subscribeToAll' | 'subscribeToAllPages'> {
  private readonly open = new Set<LiveSubscription>();

  constructor(
    private readonly store: Pick<EventStore, 'readAll'>,
    /** Also read the log this often, for appends nothing wakes us for (another process's). */
    private readonly pollIntervalMs?: number,
    /** Awaited before a subscription's first read (PostgreSQL listens there, so no append slips by). */
    private readonly beforeFirstRead?: () => Promise<void>,
  ) {}

  async subscribeToAll(
    handler: (event: RecordedEvent) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    return this.subscribe({ kind: 'event', handle: handler }, options);
  }

  async subscribeToAllPages(
    handler: (events: readonly RecordedEvent[]) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<Subscription> {
    return this.subscribe({ kind: 'page', handle: handler }, options);
  }

  private async subscribe(handler: LiveHandler, options: SubscribeOptions): Promise<Subscription> {
    // Only awaited when there is something to wait for: SQLite's subscription starts in the call.
    if (this.beforeFirstRead) await this.beforeFirstRead();
    const subscription = new LiveSubscription(
      this.store,
      handler,
      options,
      (s) => this.open.delete(s),
      this.pollIntervalMs,
    );
    this.open.add(subscription);
    subscription.start();
    return subscription;
  }

  /** After an append: each subscription reads on from where it stands. */
  wake(): void {
    for (const subscription of this.open) subscription.wake();
  }

  async close(): Promise<void> {
    await Promise.all([...this.open].map((s) => s.close()));
  }
}
