import type { Subscription } from './event-store.port';

export interface OutgoingMessage<T = unknown> {
  /** Unique message id; consumers use it (or the event id inside) for idempotency. */
  id: string;
  /** Partitioning key: messages with one key are delivered in order. */
  key: string;
  type: string;
  payload: T;
  headers?: Record<string, string>;
}

export interface BusMessage<T = unknown> extends OutgoingMessage<T> {
  topic: string;
  headers: Record<string, string>;
}

export type MessageHandler<T = unknown> = (message: BusMessage<T>) => Promise<void>;
export type RequestHandler<TReq = unknown, TRes = unknown> = (message: BusMessage<TReq>) => Promise<TRes>;

/**
 * Topics and consumer groups with Kafka's guarantees: order per key only, delivery at least once
 * (a handler that throws gets the message again), every group sees every message.
 */
export interface MessageBus {
  publish(topic: string, messages: OutgoingMessage[]): Promise<void>;
  subscribe(group: string, topics: string[], handler: MessageHandler): Promise<Subscription>;
  /** Sends a command and waits for the single reply of whichever `serve` handler owns its key. */
  request<TRes = unknown>(topic: string, message: OutgoingMessage, timeoutMs: number): Promise<TRes>;
  serve(topic: string, group: string, handler: RequestHandler): Promise<Subscription>;
  /** For readiness probes: false while consumers are still joining their groups. Absent means always ready. */
  isReady?(): boolean;
  /**
   * For request paths, before anything is written: resolves when a request could be sent and its
   * reply read now, rejects with `DependencyUnavailableError` within `timeoutMs` otherwise. Absent
   * means always reachable (in-process).
   */
  checkReachable?(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export const MESSAGE_BUS = Symbol('MessageBus');

/** No reply arrived in time; the command may or may not have run, so commands carry ids. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  constructor(
    readonly topic: string,
    readonly timeoutMs: number,
  ) {
    super(`no reply on ${topic} within ${timeoutMs} ms`);
  }
}

/** The serving handler threw; its message is carried over. */
export class RequestFailedError extends Error {
  override readonly name = 'RequestFailedError';
  constructor(
    readonly topic: string,
    readonly remoteMessage: string,
  ) {
    super(`request on ${topic} failed: ${remoteMessage}`);
  }
}
