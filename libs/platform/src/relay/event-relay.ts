import type { MessageBus } from '../bus/message-bus.port';
import { eventTopic, streamCategory } from '../event-store/categories';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import type { CheckpointStore } from '../projection/checkpoint-store';

/** Bus payload of a published domain event: the recorded event itself. */
export type EventMessage = RecordedEvent;

export interface EventRelayOptions {
  /** Checkpoint name; one per relay. */
  name?: string;
  /** Events published but not yet acknowledged before the relay waits for the oldest one. */
  maxInFlight?: number;
  /** Save the checkpoint after this many acknowledged events (and on stop); a crash republishes at most these. */
  checkpointEvery?: number;
  /** Delay before publishing again after the bus refused an event. */
  retryDelayMs?: number;
  onPublishError?: (error: unknown, event: RecordedEvent) => void;
}

/**
 * Publishes every stored event to its category's topic, keyed by stream id. Events are published
 * in log order without waiting for each other (the bus keeps per-key order), and the checkpoint
 * only moves to a position once it and every earlier event are acknowledged by the bus. A crash
 * republishes at most the unacknowledged tail; consumers are idempotent, so nothing is lost and
 * duplicates are harmless.
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
  private readonly name: string;
  private readonly maxInFlight: number;

  constructor(
    private readonly store: EventStore,
    private readonly bus: MessageBus,
    private readonly checkpoints: CheckpointStore,
    private readonly options: EventRelayOptions = {},
  ) {
    this.name = options.name ?? 'relay';
    this.maxInFlight = options.maxInFlight ?? 1000;
  }

  async start(): Promise<void> {
    this.stopped = false;
    const after = await this.checkpoints.load(this.name);
    this.saved = after;
    this.subscription = await this.store.subscribeToAll((event) => this.publish(event), { afterPosition: after });
  }

  private async publish(event: RecordedEvent): Promise<void> {
    if (this.window.length >= this.maxInFlight) await this.window[0].settled;
    const entry = { position: event.position, done: false, settled: Promise.resolve() };
    entry.settled = this.deliver(event).then(() => {
      entry.done = true;
      this.advance();
    });
    this.window.push(entry);
  }

  /** Publishes until the bus takes the event; a refused publish is retried, never skipped. */
  private async deliver(event: RecordedEvent): Promise<void> {
    for (;;) {
      try {
        await this.bus.publish(eventTopic(streamCategory(event.streamId)), [
          { id: event.id, key: event.streamId, type: event.type, payload: event },
        ]);
        return;
      } catch (error) {
        this.options.onPublishError?.(error, event);
        if (this.stopped) return;
        await new Promise((r) => setTimeout(r, this.options.retryDelayMs ?? 500));
      }
    }
  }

  /** Moves the checkpoint over the acknowledged prefix of the window (saved every few events). */
  private advance(): void {
    while (this.window.length > 0 && this.window[0].done) {
      this.reached = this.window.shift()!.position;
      this.sinceSave += 1;
    }
    if (this.sinceSave >= (this.options.checkpointEvery ?? 50) || (this.window.length === 0 && this.stopped)) this.save();
  }

  private save(): void {
    this.sinceSave = 0;
    const reached = this.reached;
    this.saving = this.saving.then(async () => {
      if (reached > this.saved) {
        await this.checkpoints.save(this.name, reached);
        this.saved = reached;
      }
    });
  }

  /** Stops reading, lets in-flight publishes finish, and saves the final checkpoint. */
  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
    this.stopped = true;
    await Promise.all(this.window.map((e) => e.settled));
    this.save();
    await this.saving;
  }
}
