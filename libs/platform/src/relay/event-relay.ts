import { performance } from 'node:perf_hooks';
import {
  eventTopic,
  streamCategory,
  type EventStore,
  type MessageBus,
  type RecordedEvent,
  type Subscription,
} from '@analyst/eventsourcing';
import type { CheckpointStore } from '../projection/checkpoint-store';
import { TRACEPARENT } from '../tracing/tracing';

/** Bus payload of a published domain event: the recorded event itself. */
export type EventMessage = RecordedEvent;

export interface EventRelayOptions {
  /** Checkpoint name; one per relay. */
  name?: string;
  /**
   * Events published but not yet acknowledged before the relay waits for the oldest one (a batch
   * larger than this goes out as acknowledgements make room).
   */
  maxInFlight?: number;
  /** Save the checkpoint after this many acknowledged events (and on stop); a crash republishes at most these. */
  checkpointEvery?: number;
  /** Delay before publishing again after the bus refused an event. */
  retryDelayMs?: number;
  onPublishError?: (error: unknown, event: RecordedEvent) => void;
  /** Events published under one fencing check at most. */
  maxBatch?: number;
  /** The lease this relay publishes under; without one (standalone) nothing is fenced. */
  fence?: RelayFence;
  /** Called once when the fence says the lease moved on: the relay has stopped publishing. */
  onFenced?: () => void;
}

/** Resolves on the event loop's next check phase, after pending timers and I/O callbacks. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Publishing work the relay lets one turn of the event loop take before it yields: the lease's
 * renewal timer and every socket wait at most about this long behind a catch-up.
 */
const TURN_BUDGET_MS = 20;
/** Events published in the first turn, before a turn's cost has been measured. */
const FIRST_SLICE = 16;

/** Header carrying the lease generation a message was published under (for diagnosis). */
export const RELAY_GENERATION_HEADER = 'x-relay-generation';

/**
 * The fencing token: the lease generation this relay publishes under, and the check that it is
 * still the newest one, made before every publish batch and every checkpoint write.
 */
export interface RelayFence {
  readonly generation: number;
  stillHeld(): Promise<boolean>;
}

/**
 * Publishes every stored event to its category's topic, keyed by stream id. Events are published
 * in log order without waiting for each other (the bus keeps per-key order), in batches of what
 * the log delivered at once, and the checkpoint only moves to a position once it and every earlier
 * event are acknowledged by the bus. A crash republishes at most the unacknowledged tail;
 * consumers are idempotent, so nothing is lost and duplicates are harmless.
 *
 * With a fence, each batch and each checkpoint write first checks that the lease generation is
 * still this relay's; once it is not, the relay publishes and saves nothing more.
 */
export class EventRelay {
  private subscription: Subscription | null = null;
  /** Positions published, oldest first, with whether the bus acknowledged them yet. */
  private readonly window: { position: number; done: boolean; settled: Promise<void> }[] = [];
  private saving: Promise<void> = Promise.resolve();
  private saved = -1;
  private reached = -1;
  private sinceSave = 0;
  private stopped = false;
  private fenced = false;
  /** Events read from the log and not yet published, oldest first. */
  private pending: RecordedEvent[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  private readonly name: string;
  private readonly maxInFlight: number;
  private readonly maxBatch: number;
  /** Events published in one turn of the event loop, adapted to what a turn of them cost. */
  private slice = FIRST_SLICE;

  constructor(
    private readonly store: EventStore,
    private readonly bus: MessageBus,
    private readonly checkpoints: CheckpointStore,
    private readonly options: EventRelayOptions = {},
  ) {
    this.name = options.name ?? 'relay';
    this.maxInFlight = options.maxInFlight ?? 1000;
    this.maxBatch = options.maxBatch ?? 500;
  }

  /** Last position acknowledged by the bus with every earlier one (-1 before the first). */
  get position(): number {
    return Math.max(this.reached, this.saved);
  }

  /** True once the fence found the lease held by a newer generation. */
  get isFenced(): boolean {
    return this.fenced;
  }

  async start(): Promise<void> {
    this.stopped = false;
    const after = await this.checkpoints.load(this.name);
    this.saved = after;
    this.subscription = await this.store.subscribeToAll((event) => this.publish(event), {
      afterPosition: after,
    });
  }

  /** Queues the event; a full batch is flushed before the log is read further (backpressure). */
  private async publish(event: RecordedEvent): Promise<void> {
    if (this.fenced) return;
    this.pending.push(event);
    if (this.pending.length >= this.maxBatch) {
      await this.flush();
    } else if (!this.flushScheduled) {
      // Whatever the subscription delivers in the same turn goes out as one batch.
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        void this.flush();
      });
    }
  }

  private flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushBatch());
    return this.flushing;
  }

  /** One batch: check the fence once, then publish its events as the window has room for them. */
  private async flushBatch(): Promise<void> {
    if (this.pending.length === 0 || this.fenced) return;
    // A catch-up can read and publish batch after batch without a macrotask in between (a log
    // read synchronously, a bus that acknowledges at once): with a backlog (a full batch waiting),
    // one turn of the event loop per batch lets timers and I/O run, the lease's renewal among
    // them, before the fence is checked. A live append (a partial batch) goes out in the same
    // turn, as it always did, so another service's projection has it by the next request.
    if (this.pending.length >= this.maxBatch) await yieldToEventLoop();
    const batch = this.pending.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    if (!(await this.stillHeld())) return;
    const generation = this.options.fence
      ? { [RELAY_GENERATION_HEADER]: String(this.options.fence.generation) }
      : undefined;
    // A publish does its encoding after its first await (KafkaBus: JSON, then kafkajs's record
    // batch and CRC), so a batch published in one go runs all of it in one turn: 500 chunk events
    // of 50 KB took 0.6-1.2 s of one turn on a quiet machine, several seconds on a loaded one, and
    // a turn longer than TTL - renew interval lets the lease lapse. So the batch goes out in
    // slices, each as large as the window has room for and sized so that a turn stays near
    // TURN_BUDGET_MS (a turn's time includes its microtasks: the encoding), with a yield between.
    // The fence is checked once per batch; a relay fenced meanwhile (a checkpoint's check) stops.
    for (let next = 0; next < batch.length;) {
      while (this.window.length >= this.maxInFlight) await this.window[0].settled;
      if (this.fenced) return;
      const started = performance.now();
      const end = Math.min(batch.length, next + this.slice, next + this.maxInFlight - this.window.length);
      for (; next < end; next++) this.dispatch(batch[next], generation);
      if (next < batch.length) {
        await yieldToEventLoop();
        this.adaptSlice(performance.now() - started);
      }
    }
  }

  /**
   * One publish per event, as before batching: each is acknowledged on its own, so the checkpoint
   * can stop exactly before an event whose consumers have not finished (in-process bus).
   */
  private dispatch(event: RecordedEvent, generation: Record<string, string> | undefined): void {
    const entry = { position: event.position, done: false, settled: Promise.resolve() };
    entry.settled = this.deliver(eventTopic(streamCategory(event.streamId)), [event], generation).then(() => {
      entry.done = true;
      this.advance();
    });
    this.window.push(entry);
  }

  /** Fewer events a turn after a turn over budget, twice as many after one well under it. */
  private adaptSlice(turnMs: number): void {
    if (turnMs > TURN_BUDGET_MS) this.slice = Math.max(1, Math.floor((this.slice * TURN_BUDGET_MS) / turnMs));
    else if (turnMs < TURN_BUDGET_MS / 2) this.slice = Math.min(this.maxBatch, this.slice * 2);
  }

  /** False (and the relay fenced for good) once the lease belongs to a newer generation. */
  private async stillHeld(): Promise<boolean> {
    if (this.fenced) return false;
    if (!this.options.fence) return true;
    let held = false;
    try {
      held = await this.options.fence.stillHeld();
    } catch {
      held = false; // cannot prove it holds the lease: publishing could overlap a new holder
    }
    if (held) return true;
    if (!this.fenced) {
      this.fenced = true;
      this.pending = [];
      this.options.onFenced?.();
    }
    return false;
  }

  /** Set while publishes keep failing (broker away): since when, and the last error. */
  private publishFailure: { since: number; error: string } | null = null;

  /** How long publishing has been failing without one success, and why; null while it works. */
  get failingPublish(): { forMs: number; error: string } | null {
    return this.publishFailure
      ? { forMs: Date.now() - this.publishFailure.since, error: this.publishFailure.error }
      : null;
  }

  /** Publishes until the bus takes the events; a refused publish is retried, never skipped. */
  private async deliver(
    topic: string,
    events: RecordedEvent[],
    headers: Record<string, string> | undefined,
  ): Promise<void> {
    const messages = events.map((event) => {
      // The trace of whoever appended the event; the bus makes its producer span a child of it.
      const traced = event.metadata.traceparent
        ? { ...headers, [TRACEPARENT]: event.metadata.traceparent }
        : headers;
      return {
        id: event.id,
        key: event.streamId,
        type: event.type,
        payload: event,
        ...(traced ? { headers: traced } : {}),
      };
    });
    for (;;) {
      try {
        await this.bus.publish(topic, messages);
        this.publishFailure = null;
        return;
      } catch (error) {
        this.publishFailure ??= { since: Date.now(), error: '' };
        this.publishFailure.error = error instanceof Error ? error.message : String(error);
        for (const event of events) this.options.onPublishError?.(error, event);
        // A fenced relay does not retry: the new holder publishes these from its own checkpoint.
        if (this.stopped || this.fenced) return;
        await new Promise((r) => setTimeout(r, this.options.retryDelayMs ?? 500));
        if (!(await this.stillHeld())) return;
      }
    }
  }

  /** Moves the checkpoint over the acknowledged prefix of the window (saved every few events). */
  private advance(): void {
    while (this.window.length > 0 && this.window[0].done) {
      this.reached = this.window.shift()!.position;
      this.sinceSave += 1;
    }
    if (this.sinceSave >= (this.options.checkpointEvery ?? 50) || (this.window.length === 0 && this.stopped))
      this.save();
  }

  private save(): void {
    this.sinceSave = 0;
    const reached = this.reached;
    this.saving = this.saving.then(async () => {
      if (reached > this.saved && (await this.stillHeld())) {
        await this.checkpoints.save(this.name, reached);
        this.saved = reached;
      }
    });
  }

  /** Stops reading, publishes what was read (unless fenced), lets publishes finish, saves the final checkpoint. */
  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
    while (this.pending.length > 0 && !this.fenced) await this.flush();
    await this.flushing;
    this.stopped = true;
    await Promise.all(this.window.map((e) => e.settled));
    this.save();
    await this.saving;
  }
}
