import type { EventStore, RecordedEvent, SubscribeOptions, Subscription } from '@analyst/eventsourcing';

/** Awaited event by event, or page by page; the position moves past what the handler resolved. */
export type LiveHandler =
  | { kind: 'event'; handle: (event: RecordedEvent) => Promise<void> }
  | { kind: 'page'; handle: (events: readonly RecordedEvent[]) => Promise<void> };

/**
 * A pull-based catch-up subscription: it reads pages after the last delivered position until the
 * log is exhausted, then sleeps until woken by an append. Catch-up and live delivery are one loop,
 * so no event can fall into the gap between them.
 */
export class LiveSubscription implements Subscription {
  private lastPosition: number;
  private wakeUp: (() => void) | null = null;
  private pending = false;
  private closed = false;
  private caughtUp = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<EventStore, 'readAll'>,
    private readonly handler: LiveHandler,
    private readonly options: SubscribeOptions,
    private readonly onClose: (s: LiveSubscription) => void,
    private readonly pollIntervalMs?: number,
  ) {
    this.lastPosition = options.afterPosition ?? -1;
  }

  start(): void {
    this.loop = this.run().catch((error) => {
      if (this.options.onError) this.options.onError(error);
      else throw error;
    });
  }

  wake(): void {
    this.pending = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      this.pending = false;
      for await (const page of this.store.readAll(this.lastPosition)) {
        if (this.closed || page.length === 0) continue;
        if (this.handler.kind === 'page') {
          await this.handler.handle(page);
          this.lastPosition = page[page.length - 1].position;
          continue;
        }
        for (const event of page) {
          if (this.closed) return;
          await this.handler.handle(event);
          this.lastPosition = event.position;
        }
      }
      if (!this.caughtUp) {
        this.caughtUp = true;
        this.options.onCaughtUp?.();
      }
      if (this.closed) return;
      if (!this.pending) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.pollIntervalMs ? setTimeout(resolve, this.pollIntervalMs) : null;
      this.wakeUp = () => {
        if (timer) clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeUp?.();
    this.onClose(this);
    await this.loop;
  }
}
