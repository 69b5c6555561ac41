import {
  DeadlineExceededError,
  NotLeaderError,
  UnavailableError,
  excludeSystemEvents,
  type AllStreamSubscription,
  type EventStoreDBClient,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import type { RecordedEvent, SubscribeOptions, Subscription } from '@analyst/eventsourcing';
import type { EsdbEventStore } from './esdb-event-store';
import { isSystemEvent, positionNumber, toRecorded } from './esdb-mapping';

const CATCH_UP_PAGE = 1000;

/** The handler failed: the subscription stops, as the SQLite one does. */
class HandlerFailed {
  constructor(readonly cause: unknown) {}
}

/**
 * Catch-up then live on `$all`.
 *
 * Catch-up reads `$all` in pages up to the head, then reports `onCaughtUp`, then opens a live
 * subscription from the last record read, so nothing falls between the two. The client's own
 * `caughtUp` event is not used: it is emitted when the server's marker passes through the client's
 * stream transform, ahead of events still buffered for the handler (and only by servers >= 23.10),
 * so it cannot promise "every stored event was handled".
 *
 * The live subscription filters system events on the server; its checkpoint handler advances the
 * resume position across long runs of filtered events, so a resubscription after a dropped
 * connection does not scan them again.
 */
export class EsdbSubscription implements Subscription {
  private closed = false;
  private live: AllStreamSubscription | null = null;
  private loop: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | null = null;
  /** Where to resume: the last record read or checkpointed. */
  private resumeFrom: ReadPosition;
  /** Global position of the last event handed to the handler (or the starting point). */
  private lastDelivered: number;

  constructor(
    private readonly store: EsdbEventStore,
    private readonly client: EventStoreDBClient,
    private readonly handler: (event: RecordedEvent) => Promise<void>,
    private readonly options: SubscribeOptions,
    private readonly onClose: (s: EsdbSubscription) => void,
  ) {
    this.lastDelivered = options.afterPosition ?? -1;
    this.resumeFrom = 'start';
  }

  start(): void {
    this.loop = this.run().catch((error: unknown) => {
      const cause = error instanceof HandlerFailed ? error.cause : error;
      if (this.options.onError) this.options.onError(cause);
      else throw cause;
    });
  }

  private async run(): Promise<void> {
    this.resumeFrom = await this.store.startAfter(this.lastDelivered);
    for await (const page of this.store.pages(this.resumeFrom, this.lastDelivered, CATCH_UP_PAGE)) {
      for (const event of page.events) {
        if (this.closed) return;
        await this.deliver(event);
      }
      this.resumeFrom = page.last;
    }
    if (this.closed) return;
    this.options.onCaughtUp?.();
    let backoff = 100;
    while (!this.closed) {
      const before = this.resumeFrom;
      try {
        await this.follow();
      } catch (error) {
        if (this.closed) return;
        if (!transient(error)) throw error;
      }
      // The server ended or dropped the subscription (restart, leader change): resume from the last
      // position seen, backing off while it stays away.
      if (this.resumeFrom !== before) backoff = 100; // it made progress: this is a new outage
      await this.sleep(backoff);
      backoff = Math.min(backoff * 2, 5_000);
    }
  }

  /** One live subscription, until it ends, fails or is closed. */
  private async follow(): Promise<void> {
    const live = this.client.subscribeToAll({
      fromPosition: this.resumeFrom,
      filter: excludeSystemEvents({
        checkpointInterval: 1,
        checkpointReached: (_subscription, position: Position) => {
          if (
            this.resumeFrom === 'start' ||
            this.resumeFrom === 'end' ||
            position.commit > this.resumeFrom.commit
          ) {
            this.resumeFrom = position;
          }
        },
      }),
    });
    this.live = live;
    if (this.closed) {
      await live.unsubscribe();
      return;
    }
    try {
      for await (const resolved of live) {
        if (this.closed) return;
        const record = resolved.event;
        if (!record) continue;
        this.resumeFrom = record.position;
        if (isSystemEvent(record) || positionNumber(record.position) <= this.lastDelivered) continue;
        await this.deliver(toRecorded(record));
      }
    } catch (error) {
      if (this.closed) return; // the stream is torn down by close(): not a failure
      throw error;
    } finally {
      if (this.live === live) this.live = null;
    }
  }

  private async deliver(event: RecordedEvent): Promise<void> {
    try {
      await this.handler(event);
    } catch (error) {
      throw new HandlerFailed(error);
    }
    this.lastDelivered = event.position;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return this.loop;
    this.closed = true;
    this.wakeUp?.();
    const live = this.live;
    if (live) {
      await live.unsubscribe();
      // Cancelling the gRPC call does not end the readable side; destroying it ends the for-await.
      live.destroy();
    }
    this.onClose(this);
    await this.loop;
  }
}

function transient(error: unknown): boolean {
  return (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof NotLeaderError
  );
}
