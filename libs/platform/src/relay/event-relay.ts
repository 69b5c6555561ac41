import type { MessageBus } from '../bus/message-bus.port';
import { eventTopic, streamCategory } from '../event-store/categories';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import type { CheckpointStore } from '../projection/checkpoint-store';

/** Bus payload of a published domain event: the recorded event itself. */
export type EventMessage = RecordedEvent;

/**
 * Publishes every stored event to its category's topic, keyed by stream id, and moves its
 * checkpoint only after the bus has taken the event. A crash republishes at most the events after
 * the last checkpoint; consumers are idempotent, so duplicates are harmless and nothing is lost.
 */
export class EventRelay {
  private subscription: Subscription | null = null;
  private sinceSave = 0;

  constructor(
    private readonly store: EventStore,
    private readonly bus: MessageBus,
    private readonly checkpoints: CheckpointStore,
    private readonly name = 'relay',
    private readonly saveEvery = 1,
  ) {}

  async start(): Promise<void> {
    const after = await this.checkpoints.load(this.name);
    this.subscription = await this.store.subscribeToAll((event) => this.publish(event), { afterPosition: after });
  }

  private async publish(event: RecordedEvent): Promise<void> {
    await this.bus.publish(eventTopic(streamCategory(event.streamId)), [
      { id: event.id, key: event.streamId, type: event.type, payload: event },
    ]);
    this.sinceSave += 1;
    if (this.sinceSave >= this.saveEvery) {
      this.sinceSave = 0;
      await this.checkpoints.save(this.name, event.position);
    }
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = null;
  }
}
