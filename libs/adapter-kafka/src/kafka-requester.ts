import { randomUUID } from 'node:crypto';
import { type OutgoingMessage, RequestFailedError, RequestTimeoutError } from '@analyst/eventsourcing';
import { HEADER, encode } from './kafka-codec';
import type { SupervisedConsumer } from './kafka-consumer';
import type { ConsumerGroups } from './kafka-consumer-groups';
import type { KafkaTracing } from './kafka-hooks';
import type { KafkaMetrics } from './kafka-metrics';
import type { KafkaNamespace } from './kafka-namespace';
import type { ResilientProducer } from './kafka-producer';
import type { TopicAdmin } from './kafka-topic-admin';

/** Name of the group that waits for this instance's replies, as health and metrics show it. */
const REPLIES = 'replies';

interface PendingRequest {
  topic: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface KafkaRequesterDeps {
  groups: ConsumerGroups;
  producer: ResilientProducer;
  topics: TopicAdmin;
  namespace: KafkaNamespace;
  tracing: KafkaTracing;
  /** Names this instance's reply group and the `reply-instance` header of its requests. */
  instanceId: string;
}

/**
 * `request`: sends a command and waits for its reply, or fails with RequestTimeoutError or
 * RequestFailedError.
 *
 * Every reply goes to ONE shared topic, `<namespace>analyst.replies`, that nobody deletes. Each
 * instance reads all of it in its own group (`replies-<instanceId>`, from the end of the topic: the
 * first request is sent only once that consumer has fetched, so it has a position before any reply
 * to it can exist) and keeps the replies whose `reply-instance` header names it and whose
 * correlation id it still waits for. A reply to an instance that has gone is read by nobody who
 * cares and dropped. (Per-instance reply topics, deleted on close, poisoned every server's producer
 * during a rolling restart: kafkajs keeps refreshing metadata of a topic it once sent to.)
 */
export class KafkaRequester {
  private readonly replyTopic: string;
  private readonly replyGroup: string;
  /** Requests waiting for their reply, by correlation id. */
  private readonly pending = new Map<string, PendingRequest>();
  private replies: Promise<SupervisedConsumer> | null = null;
  private metrics: KafkaMetrics | null = null;

  constructor(private readonly deps: KafkaRequesterDeps) {
    this.replyTopic = deps.namespace.scoped('analyst.replies');
    this.replyGroup = deps.namespace.scoped(`${REPLIES}-${deps.instanceId}`);
  }

  /** Counts requests that got no reply in time. */
  attachMetrics(metrics: KafkaMetrics): void {
    this.metrics = metrics;
  }

  request<TRes>(logicalTopic: string, message: OutgoingMessage, timeoutMs: number): Promise<TRes> {
    const { namespace, producer, topics, tracing, instanceId } = this.deps;
    const topic = namespace.scoped(logicalTopic);
    const correlationId = randomUUID();
    const deadline = Date.now() + timeoutMs;
    // One span from send to reply (or timeout); the server's span is its child.
    const traced = tracing.startProducer('request', logicalTopic, message);
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        this.metrics?.requestTimeouts.inc({ topic: logicalTopic });
        reject(new RequestTimeoutError(logicalTopic, timeoutMs));
      }, timeoutMs);
      this.pending.set(correlationId, { topic: logicalTopic, resolve, reject, timer });
    });
    const send = (async () => {
      await Promise.all([this.ensureReplyConsumer(), topics.ensureTopics([topic])]);
      const record = encode(message, {
        ...traced?.headers,
        [HEADER.replyTo]: this.replyTopic,
        [HEADER.replyInstance]: instanceId,
        [HEADER.correlationId]: correlationId,
      });
      // A send that fails (broker restarting, stale metadata) is retried until the request's own deadline.
      await producer.send(topic, [record], {
        deadline,
        retryIf: (error) => topics.recreateIfMissing(topic, error),
      });
    })();
    send.catch((error: unknown) =>
      this.settle(correlationId, (p) => p.reject(error instanceof Error ? error : new Error(String(error)))),
    );
    if (traced) {
      answer.then(
        () => traced.end(),
        (error: unknown) => traced.end(error),
      );
    }
    // The reply is JSON off the wire: the port lets the caller name its type, which no bus can check.
    return answer as Promise<TRes>;
  }

  /** Starts this instance's reply consumer once (again after a failed start); resolves once it has fetched. */
  ensureReplyConsumer(): Promise<SupervisedConsumer> {
    this.replies ??= this.deps.groups.consume(
      REPLIES,
      this.replyGroup,
      [this.replyTopic],
      async (message, raw) => {
        const forInstance = raw.headers[HEADER.replyInstance];
        const correlationId = raw.headers[HEADER.correlationId];
        // Every instance reads every reply; most are someone else's. Unknown ids (timed out, or a
        // departed instance's) find nobody waiting and are dropped.
        if (forInstance && forInstance !== this.deps.instanceId) return;
        if (correlationId) this.onReply(correlationId, message.payload);
      },
      { fromBeginning: false, waitForFetch: true },
    );
    this.replies.catch(() => (this.replies = null));
    return this.replies;
  }

  /**
   * Rejects every request still waiting and gives the reply consumer once its start has settled
   * (null when there is none), for the bus to close last.
   */
  async abandon(): Promise<SupervisedConsumer | null> {
    for (const id of [...this.pending.keys()]) this.settle(id, (p) => p.reject(new Error('KafkaBus closed')));
    return this.replies ? await this.replies.catch(() => null) : null;
  }

  /** The replies topic stays (others use it); only this instance's group goes. */
  async closeReplies(replies: SupervisedConsumer): Promise<void> {
    await replies.close();
    await this.deps.topics.deleteGroup(this.replyGroup);
  }

  /** A reply's payload is the `Reply` a server wrote (kafka-codec): its error's message, or its result. */
  private onReply(correlationId: string, reply: unknown): void {
    const isObject = typeof reply === 'object' && reply !== null;
    this.settle(correlationId, (p) => {
      if (isObject && 'error' in reply) p.reject(new RequestFailedError(p.topic, String(reply.error)));
      else p.resolve(isObject && 'result' in reply ? reply.result : undefined);
    });
  }

  private settle(correlationId: string, action: (pending: PendingRequest) => void): void {
    const pending = this.pending.get(correlationId);
    if (!pending) return;
    this.pending.delete(correlationId);
    clearTimeout(pending.timer);
    action(pending);
  }
}
