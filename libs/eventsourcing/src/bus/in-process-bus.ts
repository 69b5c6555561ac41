import type { Subscription } from '../event-store.port';
import {
  type BusMessage,
  type MessageBus,
  type MessageHandler,
  type OutgoingMessage,
  RequestFailedError,
  type RequestHandler,
  RequestTimeoutError,
} from '../message-bus.port';
import { KeyedQueue } from './keyed-queue';

/**
 * What the bus needs of tracing, injected (`InProcessBusOptions.tracing`) so the core loads no
 * OpenTelemetry. `@analyst/platform` exports an `InProcessBus` of the same name that passes its
 * tracing helpers; without them the bus traces nothing (`NO_BUS_TRACING`).
 */
export interface InProcessBusTracing {
  /**
   * The headers a message travels with, from those it was published (or sent as a request) with:
   * delivery runs later, in another async context, so the publisher's trace must ride in them.
   */
  outgoing(headers: Record<string, string> | undefined): Record<string, string>;
  /** Runs the handler of one delivered message (`group`: its consumer group, or the served topic). */
  consume<T>(group: string, message: BusMessage, handler: () => Promise<T>): Promise<T>;
}

/** No trace headers, no spans: the headers as given and the handler as it is. */
export const NO_BUS_TRACING: InProcessBusTracing = {
  outgoing: (headers) => headers ?? {},
  consume: (_group, _message, handler) => handler(),
};

export interface InProcessBusOptions {
  /** Test switch: deliver every message twice, to prove handlers are idempotent. */
  duplicateDelivery?: boolean;
  /** Delay before redelivering a message whose handler threw. */
  retryDelayMs?: number;
  onHandlerError?: (error: unknown, message: BusMessage) => void;
  /**
   * `publish` resolves only once every group's consumer has handled the message. Nothing here
   * survives a crash, so the standalone relay uses this to move its checkpoint past an event only
   * after the event's consumers are done with it: after a restart it republishes what was not.
   */
  awaitHandled?: boolean;
  /** Trace propagation and consumer spans; none by default (the platform's `InProcessBus` passes its own). */
  tracing?: InProcessBusTracing;
}

interface Consumer {
  handler: MessageHandler;
  active: boolean;
}

/** Messages of one key waiting in one group, handed over in order like a partition. */
interface Lane {
  messages: BusMessage[];
  running: Promise<void> | null;
}

/** A queued message and the callbacks of publishers waiting for it to be handled. */
type Waiters = Map<BusMessage, () => void>;

/**
 * A consumer group: it outlives its consumers, so messages published while no consumer is attached
 * (or left unhandled when one stops) wait for the next consumer, as uncommitted offsets do on Kafka.
 */
interface Group {
  name: string;
  topics: Set<string>;
  consumers: Consumer[];
  lanes: Map<string, Lane>;
}

/**
 * The standalone bus. Delivery is asynchronous (never inside `publish`), ordered per key, and at
 * least once: a message leaves its group only after a handler has succeeded with it.
 */
export class InProcessBus implements MessageBus {
  private readonly groups = new Map<string, Group>();
  private readonly servers = new Map<string, RequestHandler>();
  private readonly serveQueue = new KeyedQueue();
  private readonly handled: Waiters = new Map();
  private readonly tracing: InProcessBusTracing;

  constructor(private readonly options: InProcessBusOptions = {}) {
    this.tracing = options.tracing ?? NO_BUS_TRACING;
  }

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const outgoing of messages) {
      const headers = this.tracing.outgoing(outgoing.headers);
      for (const group of this.groups.values()) {
        if (!group.topics.has(topic)) continue;
        // Each group gets its own copy, so one group's waiter cannot be confused with another's.
        const message: BusMessage = { ...outgoing, topic, headers: { ...headers } };
        if (this.options.awaitHandled && group.consumers.length > 0) {
          pending.push(new Promise<void>((resolve) => this.handled.set(message, resolve)));
        }
        const laneKey = `${topic}\u0000${message.key}`;
        let lane = group.lanes.get(laneKey);
        if (!lane) {
          lane = { messages: [], running: null };
          group.lanes.set(laneKey, lane);
        }
        lane.messages.push(message);
        this.pump(group, laneKey, lane);
      }
    }
    await Promise.all(pending);
  }

  /** Releases a publisher waiting on `message`, whether it was handled or can no longer be. */
  private release(message: BusMessage): void {
    const resolve = this.handled.get(message);
    if (resolve) {
      this.handled.delete(message);
      resolve();
    }
  }

  private pump(group: Group, laneKey: string, lane: Lane): void {
    if (lane.running || group.consumers.length === 0) return;
    lane.running = (async () => {
      await Promise.resolve(); // never deliver inside publish()
      while (lane.messages.length > 0) {
        const message = lane.messages[0];
        const copies = this.options.duplicateDelivery ? 2 : 1;
        for (let i = 0; i < copies; i++) {
          if (!(await this.deliverOnce(group, message))) {
            // No consumer left: keep the messages queued, but do not block their publishers.
            for (const queued of lane.messages) this.release(queued);
            return;
          }
        }
        lane.messages.shift();
        this.release(message);
      }
      group.lanes.delete(laneKey);
    })().finally(() => {
      lane.running = null;
      if (lane.messages.length > 0 && group.consumers.length > 0) this.pump(group, laneKey, lane);
    });
  }

  /** Retries until a consumer succeeds; false when the group has no consumer left. */
  private async deliverOnce(group: Group, message: BusMessage): Promise<boolean> {
    for (;;) {
      if (group.consumers.length === 0) return false;
      const consumer = group.consumers[hash(message.key) % group.consumers.length];
      try {
        // Handlers get the published object itself, not a copy (large chunk events made copying the
        // main cost): handlers treat messages as read-only, as they must with Kafka's shared batches.
        await this.tracing.consume(group.name, message, () => consumer.handler(message));
        return true;
      } catch (error) {
        this.options.onHandlerError?.(error, message);
        await new Promise((r) => setTimeout(r, this.options.retryDelayMs ?? 50));
      }
    }
  }

  async subscribe(groupName: string, topics: string[], handler: MessageHandler): Promise<Subscription> {
    let group = this.groups.get(groupName);
    if (!group) {
      group = { name: groupName, topics: new Set(), consumers: [], lanes: new Map() };
      this.groups.set(groupName, group);
    }
    for (const topic of topics) group.topics.add(topic);
    const consumer: Consumer = { handler, active: true };
    group.consumers.push(consumer);
    for (const [laneKey, lane] of group.lanes) this.pump(group, laneKey, lane);
    const owner = group;
    return {
      close: async () => {
        const index = owner.consumers.indexOf(consumer);
        if (index >= 0) owner.consumers.splice(index, 1);
        // Let in-flight handlers finish; what they did not reach stays queued for the group.
        await Promise.all([...owner.lanes.values()].map((l) => l.running));
      },
    };
  }

  async serve(topic: string, _group: string, handler: RequestHandler): Promise<Subscription> {
    this.servers.set(topic, handler);
    return {
      close: async () => {
        if (this.servers.get(topic) === handler) this.servers.delete(topic);
      },
    };
  }

  async request<TRes>(topic: string, outgoing: OutgoingMessage, timeoutMs: number): Promise<TRes> {
    const message: BusMessage = {
      ...outgoing,
      topic,
      headers: { ...this.tracing.outgoing(outgoing.headers) },
    };
    return new Promise<TRes>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(new RequestTimeoutError(topic, timeoutMs));
      }, timeoutMs);
      void this.serveQueue.push(`${topic}\u0000${message.key}`, async () => {
        await Promise.resolve();
        const handler = this.servers.get(topic);
        if (!handler || settled) return; // nobody serves the topic: the caller times out, as on Kafka
        try {
          const reply = (await this.tracing.consume(topic, message, () => handler(message))) as TRes;
          clearTimeout(timer);
          resolve(reply);
        } catch (error) {
          clearTimeout(timer);
          reject(new RequestFailedError(topic, error instanceof Error ? error.message : String(error)));
        }
      });
    });
  }

  async close(): Promise<void> {
    for (const group of this.groups.values()) group.consumers.length = 0;
    await Promise.all([...this.groups.values()].flatMap((g) => [...g.lanes.values()].map((l) => l.running)));
    this.groups.clear();
    this.servers.clear();
    for (const resolve of this.handled.values()) resolve();
    this.handled.clear();
  }
}

function hash(key: string): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return h >>> 0;
}
