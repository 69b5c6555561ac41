import { Readable } from 'node:stream';
import type { EventStore, RecordedEvent, Subscription } from '@analyst/eventsourcing';
import type { WebhookEventType } from '@analyst/webhooks';
import type { LogTail, TailReader } from './log-tail';
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

type Log = Pick<EventStore, 'subscribeToAllPages'>;

/**
 * One open `GET /events`: the log's events of the team, from a position, turned into frames and
 * pushed into `body` (the response). A stream that starts now follows the process's shared tail
 * (one subscription for all of them), handed each page without waiting; a reader still 64 KB
 * behind when a page comes moves it off the tail, onto a subscription of its own from where it
 * stands, whose handler waits for the reader (so at most 64 KB and one page are held), so the log is read no faster than the client reads.
 * A resumed stream (Last-Event-ID) has its own subscription from the start. A reader stuck for
 * `stalledReaderMs` is closed rather than waited on forever (it resumes by Last-Event-ID). A
 * heartbeat comment goes out every `heartbeatMs` (skipped while the buffer is full).
 */
export class EventStream implements TailReader {
  readonly body: Readable;
  /** The last log position handled (sent or skipped): where an own subscription picks up. */
  private position = -1;
  private subscription: Subscription | null = null;
  private tail: LogTail | null = null;
  private log: Log | null = null;
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

  /** Follows the log after `afterPosition` on a subscription of its own (a resumed stream). */
  async start(log: Log, afterPosition: number): Promise<void> {
    this.opening();
    this.position = afterPosition;
    await this.followOwn(log);
  }

  /** Follows the shared tail from its position (the head of the log): a stream from now. */
  async startOnTail(tail: LogTail, log: Log): Promise<void> {
    this.opening();
    this.tail = tail;
    this.log = log;
    await tail.join(this);
    if (this.closed) tail.leave(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether the stream reads the shared tail (rather than a subscription of its own). */
  get onTail(): boolean {
    return this.tail !== null;
  }

  joined(position: number): void {
    this.position = position;
  }

  /**
   * A page of the shared tail, pushed at once. A reader still 64 KB behind when the next page comes
   * moves the stream off the tail: that page and the rest are read on its own subscription.
   */
  fromTail(page: readonly RecordedEvent[]): void {
    if (this.closed || this.tail === null) return;
    if (this.body.readableLength >= BUFFER_BYTES) {
      this.tail.leave(this);
      this.tail = null;
      void this.followOwn(this.log!).catch((error: unknown) => this.failed(error));
      return;
    }
    for (const recorded of page) this.handle(recorded);
  }

  tailFailed(error: unknown): void {
    this.tail = null;
    this.failed(error);
  }

  private opening(): void {
    this.body.push(RETRY_FRAME);
    this.heartbeat = setInterval(() => {
      if (!this.closed && this.body.readableLength < BUFFER_BYTES) this.body.push(HEARTBEAT_FRAME);
    }, this.options.heartbeatMs);
  }

  private async followOwn(log: Log): Promise<void> {
    const subscription = await log.subscribeToAllPages((page) => this.send(page), {
      afterPosition: this.position,
      onError: (error) => this.failed(error),
    });
    this.subscription = subscription;
    // Closed while subscribing (the client left at once): the subscription goes too.
    if (this.closed) await subscription.close();
  }

  /** An own subscription's handler: awaited page by page, so a slow reader holds the log back for itself only. */
  private async send(page: readonly RecordedEvent[]): Promise<void> {
    for (const recorded of page) {
      if (this.closed) return;
      if (!this.handle(recorded)) await this.readerTakes();
    }
  }

  /** Pushes the event's frame if the stream carries it; false when the reader is 64 KB behind. */
  private handle(recorded: RecordedEvent): boolean {
    // Positions only grow: an event at or before the last one handled was sent (or skipped) already.
    if (recorded.position <= this.position) return true;
    this.position = recorded.position;
    const frame = eventFrame(recorded, this.options.teamId, this.options.types);
    return frame === null || this.body.push(frame);
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

  private failed(error: unknown): void {
    this.options.onError?.(error);
    void this.close();
  }

  /**
   * Ends the stream (idempotent): the body ends after what it holds (cut after a second if the
   * reader does not take it), the heartbeat stops, the stream leaves the tail or closes its subscription.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.readerReady();
    this.tail?.leave(this);
    this.tail = null;
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
