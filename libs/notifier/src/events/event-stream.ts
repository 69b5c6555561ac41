import { Readable } from 'node:stream';
import type { EventStore, RecordedEvent, Subscription } from '@analyst/eventsourcing';
import type { WebhookEventType } from '@analyst/webhooks';
import { HEARTBEAT_FRAME, RETRY_FRAME, eventFrame } from './sse-frames';

/** Bytes held for a reader before the log is no longer read for it. */
const BUFFER_BYTES = 64 * 1024;
/** At shutdown, how long an ended stream may take to flush before its connection is cut. */
const SHUTDOWN_FLUSH_MS = 1000;

export interface EventStreamOptions {
  teamId: string;
  types: ReadonlySet<WebhookEventType> | null;
  heartbeatMs: number;
  stalledReaderMs: number;
  /** Told once, when the stream is closed for any reason. */
  onClosed: (stream: EventStream) => void;
  /** Told of a log subscription that failed (the stream is closed; the client resumes by Last-Event-ID). */
  onError?: (error: unknown) => void;
}

/**
 * One open `GET /events`: a live subscription to the log from a position, each page's events of
 * the team turned into frames and pushed into `body` (the response). Backpressure: when the reader
 * has not taken 64 KB, the subscription's handler waits for it, so the log is read no faster than
 * the client reads, and a reader stuck for `stalledReaderMs` is closed rather than waited on
 * forever. A heartbeat comment goes out every `heartbeatMs` (skipped while the buffer is full).
 */
export class EventStream {
  readonly body: Readable;
  private subscription: Subscription | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stall: NodeJS.Timeout | null = null;
  private resume: (() => void) | null = null;
  private closed = false;

  constructor(private readonly options: EventStreamOptions) {
    this.body = new Readable({
      highWaterMark: BUFFER_BYTES,
      read: () => this.readerReady(),
      // The client went away (Fastify destroys the payload) or the stream was cut at shutdown.
      destroy: (error, callback) => {
        void this.close();
        callback(error);
      },
    });
  }

  /** Sends the retry frame, starts the heartbeat and follows the log after `afterPosition`. */
  async start(log: Pick<EventStore, 'subscribeToAllPages'>, afterPosition: number): Promise<void> {
    this.body.push(RETRY_FRAME);
    this.heartbeat = setInterval(() => {
      if (!this.closed && this.body.readableLength < BUFFER_BYTES) this.body.push(HEARTBEAT_FRAME);
    }, this.options.heartbeatMs);
    const subscription = await log.subscribeToAllPages((page) => this.send(page), {
      afterPosition,
      onError: (error) => {
        this.options.onError?.(error);
        void this.close();
      },
    });
    this.subscription = subscription;
    // Closed while subscribing (the client left at once): the subscription goes too.
    if (this.closed) await subscription.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The subscription's handler: awaited page by page, so a slow reader holds the log back for itself only. */
  private async send(page: readonly RecordedEvent[]): Promise<void> {
    for (const recorded of page) {
      if (this.closed) return;
      const frame = eventFrame(recorded, this.options.teamId, this.options.types);
      if (frame !== null && !this.body.push(frame)) await this.readerTakes();
    }
  }

  /** Resolves when the reader wants more, or the stream closed (a reader stuck too long closes it). */
  private readerTakes(): Promise<void> {
    return new Promise((resolve) => {
      this.resume = resolve;
      this.stall = setTimeout(() => void this.close(), this.options.stalledReaderMs);
    });
  }

  private readerReady(): void {
    if (this.stall) clearTimeout(this.stall);
    this.stall = null;
    const resume = this.resume;
    this.resume = null;
    resume?.();
  }

  /**
   * Ends the stream (idempotent): the body ends after what it holds (cut after a second if the
   * reader does not take it), the heartbeat stops, the log subscription closes.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.readerReady();
    if (!this.body.destroyed) {
      this.body.push(null);
      const cut = setTimeout(() => this.body.destroy(), SHUTDOWN_FLUSH_MS);
      cut.unref();
      this.body.once('end', () => clearTimeout(cut));
      this.body.once('close', () => clearTimeout(cut));
    }
    this.options.onClosed(this);
    await this.subscription?.close();
  }
}
