import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  eventsOf,
  isRecordedEvent,
  type BusMessage,
  type DomainEvent,
  type EventGuard,
  type MessageBus,
  type MessageHandler,
  type Recorded,
  type Subscription,
} from '@analyst/eventsourcing';

export interface EventConsumerOptions<E extends DomainEvent> {
  /** Logger context, e.g. 'CreditSettlement'. */
  name: string;
  /** Consumer group: each group sees every message once (at least once). */
  group: string;
  topics: readonly string[];
  /** The event types this consumer handles; any other message on its topics is skipped. */
  types: readonly E['type'][];
  /** Wraps the subscribed handler, e.g. to count failures in the service's metrics. */
  wrap?: (handler: MessageHandler) => MessageHandler;
}

/**
 * The lifecycle of one bus subscription: opened at module start, closed (once) at module end. The
 * base of every class that listens on the bus, so none writes its own subscribe/close pair.
 */
export abstract class BusListener implements OnModuleInit, OnModuleDestroy {
  private subscription: Subscription | null = null;

  /** Subscribes (or serves); called once, at module start. */
  protected abstract listen(): Promise<Subscription>;

  async onModuleInit(): Promise<void> {
    this.subscription = await this.listen();
  }

  async onModuleDestroy(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.close();
  }
}

/**
 * A process manager's bus side: it subscribes at module start and closes at module end, narrows each
 * relayed event to the union `E` (the one place a bus payload becomes a domain event: a guard on
 * `type`, no cast), and settles what a failure means. A subclass only says what to do with an event.
 *
 * Delivery is at least once, so `on` must be idempotent; the hooks say which errors mean the work is
 * done already (`alreadyHandled`) or can never be done (`refused`). Any other error is logged and
 * rethrown, and the bus delivers the event again.
 */
export abstract class EventConsumer<E extends DomainEvent> extends BusListener {
  protected readonly logger: Logger;
  private readonly handles: EventGuard<E>;

  protected constructor(
    private readonly consumerBus: MessageBus,
    private readonly consumer: EventConsumerOptions<E>,
  ) {
    super();
    this.logger = new Logger(consumer.name);
    this.handles = eventsOf<E>(consumer.types);
  }

  protected listen(): Promise<Subscription> {
    const handler: MessageHandler = (message) => this.handle(message);
    return this.consumerBus.subscribe(
      this.consumer.group,
      [...this.consumer.topics],
      this.consumer.wrap ? this.consumer.wrap(handler) : handler,
    );
  }

  /** One delivery; public so tests can feed a message without a bus. */
  async handle(message: BusMessage): Promise<void> {
    const event = message.payload;
    if (!isRecordedEvent(event)) {
      // Only the relay publishes on event topics: a payload that is not a stored event is a bug, not noise.
      this.logger.error(`${message.type} ${message.id} on ${message.topic} is not a stored event`);
      throw new MalformedEventError(message);
    }
    if (!this.handles(event)) return;
    try {
      await this.on(event);
    } catch (error) {
      if (this.alreadyHandled(error)) return;
      const what = `${event.type} ${event.id} on ${event.streamId}@${event.revision}`;
      if (this.refused(error)) {
        this.logger.error(`${what} refused, not retried: ${describe(error)}`);
        return;
      }
      this.logger.warn(`${what} failed, to be delivered again: ${describe(error)}`);
      throw error;
    }
  }

  /** What the event asks for; must be harmless when the same event comes again. */
  protected abstract on(event: Recorded<E>): Promise<void>;

  /** Idempotency hook: the error says an earlier delivery (or another path) already did the work, or there is none. */
  protected alreadyHandled(_error: unknown): boolean {
    return false;
  }

  /** The error is a rule's final answer: retrying cannot help, so it is logged and the delivery counts as done. */
  protected refused(_error: unknown): boolean {
    return false;
  }
}

/** A message on an event topic whose payload is not a stored event; it fails (and is redelivered) like any bug. */
export class MalformedEventError extends Error {
  override readonly name = 'MalformedEventError';
  constructor(readonly delivery: BusMessage) {
    super(`${delivery.type} ${delivery.id} on ${delivery.topic} carries no stored event`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
