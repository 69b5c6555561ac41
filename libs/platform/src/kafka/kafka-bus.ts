import { randomUUID } from 'node:crypto';
import { Kafka, Partitioners, type Admin, type Consumer, type EachBatchPayload, type IHeaders, type Producer } from 'kafkajs';
import type { Subscription } from '../event-store/event-store.port';
import {
  RequestFailedError,
  RequestTimeoutError,
  type BusMessage,
  type MessageBus,
  type MessageHandler,
  type OutgoingMessage,
  type RequestHandler,
} from '../bus/message-bus.port';
import { HEADER, decode, encode, headerValue } from './kafka-codec';
import { kafkaLogging, type KafkaLogSink } from './kafka-log';

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  /** Names this instance's reply topic and reply group; random by default (one per process). */
  instanceId?: string;
  /**
   * Prefix of every topic and consumer group this bus touches, so several installations (or test
   * runs) can share one cluster without reading each other's messages. Handlers see unprefixed topics.
   */
  namespace?: string;
  /** Partitions of every topic the bus creates. Default 4. */
  partitions?: number;
  /** Replication factor of every topic the bus creates. Default 1 (a single broker). */
  replicationFactor?: number;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** How long an idle fetch waits on the broker; also bounds how long `close()` waits for one. */
  maxWaitTimeMs?: number;
  /** How often resolved offsets are committed while a batch is being handled. Default 500 ms. */
  commitIntervalMs?: number;
  /** First delay before retrying a failed handler; doubles up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Test switch: the producer sends every message twice with the same id (genuine duplicates on the log). */
  duplicateDelivery?: boolean;
  onHandlerError?: (error: unknown, message: BusMessage | null) => void;
  logger?: KafkaLogSink;
}

interface PendingRequest {
  topic: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

type Reply = { result?: unknown } | { error: string };

/** Receives a decoded message plus the raw record headers (serve needs reply-to and correlation-id). */
type RecordHandler = (message: BusMessage, raw: { headers: Record<string, string | undefined> }) => Promise<void>;

/**
 * The distributed bus, on kafkajs directly.
 *
 * Not on @nestjs/microservices' ServerKafka/ClientKafka (11.x, read in node_modules): ServerKafka runs
 * one consumer with one group id (suffixed `-server`) for every pattern and uses `eachMessage` with
 * kafkajs' default auto-commit, so a handler error that is not a KafkaRetriableException becomes an
 * error reply (or a log line for events) and the offset moves past the message. ClientKafka replies on
 * a `<pattern>.reply` topic per pattern, needs `subscribeToResponseOf` before connecting and a custom
 * partition assigner, and leaves timeouts to the caller's rxjs `timeout()`. We need a consumer group
 * per `subscribe(group, …)`, offsets committed only after the handler succeeded, keyed partitioning
 * with per-key order, one reply topic per instance and typed RequestTimeoutError/RequestFailedError.
 *
 * Delivery: one kafkajs consumer per subscription; each partition's batch is handled message by
 * message, and an offset is resolved (and later committed) only once its handler resolved. A failing
 * handler is retried in place with backoff, holding its partition (the same at-least-once, in-order
 * behaviour as the in-process bus); the uncommitted offset hands the message to the next owner of
 * the partition if the consumer stops or the group rebalances meanwhile.
 *
 * New groups start from the beginning of their topics (`fromBeginning: true`): a group that has
 * committed offsets resumes from them, and a brand-new group sees messages published before it
 * first subscribed, as a group of the in-process bus does once it exists.
 */
export class KafkaBus implements MessageBus {
  private readonly kafka: Kafka;
  private readonly instanceId: string;
  private readonly replyTopic: string;
  private readonly partitions: number;
  private readonly replicationFactor: number;
  private readonly knownTopics = new Map<string, Promise<void>>();
  private readonly consumers = new Set<KafkaSubscription>();
  private readonly pending = new Map<string, PendingRequest>();
  private admin: Promise<Admin> | null = null;
  private producer: Promise<Producer> | null = null;
  private replies: Promise<KafkaSubscription> | null = null;
  private closed = false;
  private readonly namespace: string;

  constructor(private readonly options: KafkaBusOptions) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.namespace = options.namespace ?? '';
    this.replyTopic = `${this.namespace}analyst.replies.${this.instanceId}`;
    this.partitions = options.partitions ?? 4;
    this.replicationFactor = options.replicationFactor ?? 1;
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'analyst',
      brokers: options.brokers,
      ...kafkaLogging(options.logger),
    });
  }

  private scoped(name: string): string {
    return this.namespace + name;
  }

  private unscoped(name: string): string {
    return this.namespace && name.startsWith(this.namespace) ? name.slice(this.namespace.length) : name;
  }

  async publish(logicalTopic: string, messages: OutgoingMessage[]): Promise<void> {
    const topic = this.scoped(logicalTopic);
    if (messages.length === 0) return;
    this.assertOpen();
    await this.ensureTopics([topic]);
    const copies = this.options.duplicateDelivery ? 2 : 1;
    const records = messages.flatMap((m) => Array.from({ length: copies }, () => encode(m)));
    await (await this.getProducer()).send({ topic, messages: records, acks: -1 });
  }

  async subscribe(group: string, topics: string[], handler: MessageHandler): Promise<Subscription> {
    return this.consume(this.scoped(group), topics.map((t) => this.scoped(t)), (message) => handler(message));
  }

  async serve(logicalTopic: string, group: string, handler: RequestHandler): Promise<Subscription> {
    const topic = this.scoped(logicalTopic);
    return this.consume(this.scoped(group), [topic], async (message, raw) => {
      const replyTo = raw.headers[HEADER.replyTo];
      const correlationId = raw.headers[HEADER.correlationId];
      if (!replyTo || !correlationId) {
        this.options.onHandlerError?.(new Error(`request on ${topic} without reply-to/correlation-id`), message);
        return;
      }
      let reply: Reply;
      try {
        reply = { result: await handler(message) };
      } catch (error) {
        // The caller gets the failure; retrying here would run a command it has already given up on.
        reply = { error: error instanceof Error ? error.message : String(error) };
      }
      // A failed send throws, so the command is handled again rather than left unanswered.
      await (await this.getProducer()).send({
        topic: replyTo,
        acks: -1,
        messages: [{ key: correlationId, value: JSON.stringify(reply), headers: { [HEADER.correlationId]: correlationId } }],
      });
    });
  }

  async request<TRes = unknown>(logicalTopic: string, message: OutgoingMessage, timeoutMs: number): Promise<TRes> {
    const topic = this.scoped(logicalTopic);
    this.assertOpen();
    const correlationId = randomUUID();
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        reject(new RequestTimeoutError(logicalTopic, timeoutMs));
      }, timeoutMs);
      this.pending.set(correlationId, { topic: logicalTopic, resolve, reject, timer });
    });
    const send = (async () => {
      await Promise.all([this.ensureReplyConsumer(), this.ensureTopics([topic])]);
      const record = encode(message, { [HEADER.replyTo]: this.replyTopic, [HEADER.correlationId]: correlationId });
      await (await this.getProducer()).send({ topic, messages: [record], acks: -1 });
    })();
    send.catch((error: unknown) => this.settle(correlationId, (p) => p.reject(asError(error))));
    return answer as Promise<TRes>;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.settle(id, (p) => p.reject(new Error('KafkaBus closed')));
    const replies = this.replies ? await this.replies.catch(() => null) : null;
    await Promise.all([...this.consumers].map((c) => c.close()));
    await replies?.close();
    if (replies) await this.deleteReplyTopic();
    const producer = this.producer ? await this.producer.catch(() => null) : null;
    await producer?.disconnect();
    const admin = this.admin ? await this.admin.catch(() => null) : null;
    await admin?.disconnect();
  }

  /** Creates missing topics with the configured partitions; concurrent callers share one attempt. */
  async ensureTopics(topics: string[]): Promise<void> {
    const missing = topics.filter((t) => !this.knownTopics.has(t));
    if (missing.length > 0) {
      const created = (async () => {
        const admin = await this.getAdmin();
        // Several processes create the same topics at start-up; while the broker is still settling
        // one of them it answers with retriable errors (UNKNOWN_TOPIC_OR_PARTITION), so try again.
        for (let attempt = 1; ; attempt++) {
          try {
            await admin.createTopics({
              waitForLeaders: true,
              topics: missing.map((topic) => ({
                topic,
                numPartitions: topic === this.replyTopic ? 1 : this.partitions,
                replicationFactor: this.replicationFactor,
              })),
            });
            return;
          } catch (error) {
            if (!(error as { retriable?: boolean }).retriable || attempt >= 10) throw error;
            await new Promise((r) => setTimeout(r, 200 * attempt));
          }
        }
      })();
      for (const topic of missing) this.knownTopics.set(topic, created);
      created.catch(() => {
        for (const topic of missing) if (this.knownTopics.get(topic) === created) this.knownTopics.delete(topic);
      });
    }
    await Promise.all(topics.map((t) => this.knownTopics.get(t)));
  }

  private async consume(group: string, topics: string[], handler: RecordHandler): Promise<KafkaSubscription> {
    this.assertOpen();
    await this.ensureTopics(topics);
    const consumer = this.kafka.consumer({
      groupId: group,
      sessionTimeout: this.options.sessionTimeoutMs ?? 10_000,
      heartbeatInterval: this.options.heartbeatIntervalMs ?? 1_000,
      rebalanceTimeout: 30_000,
      maxWaitTimeInMs: this.options.maxWaitTimeMs ?? 200,
      allowAutoTopicCreation: false,
    });
    const subscription = new KafkaSubscription(consumer, (s) => this.consumers.delete(s));
    this.consumers.add(subscription);
    consumer.on(consumer.events.GROUP_JOIN, () => (subscription.joined = true));
    consumer.on(consumer.events.REBALANCING, () => (subscription.joined = false));
    consumer.on(consumer.events.CRASH, () => (subscription.joined = false));
    try {
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning: true });
      await consumer.run({
        autoCommit: true,
        autoCommitInterval: this.options.commitIntervalMs ?? 500,
        // Offsets are resolved by hand, one handled message at a time, never a whole batch at once.
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: Math.max(this.partitions, 1),
        eachBatch: (payload) => this.handleBatch(subscription, payload, handler),
      });
    } catch (error) {
      await subscription.close();
      throw error;
    }
    return subscription;
  }

  private async handleBatch(subscription: KafkaSubscription, payload: EachBatchPayload, handler: RecordHandler) {
    const { batch } = payload;
    const live = () => !subscription.stopping && payload.isRunning() && !payload.isStale();
    for (const record of batch.messages) {
      if (!live()) return; // unresolved offsets stay uncommitted: the next owner starts here
      let message: BusMessage | null = null;
      try {
        message = decode(this.unscoped(batch.topic), record);
      } catch (error) {
        // A record that is not ours (or not JSON) can never succeed; report it and move on.
        this.options.onHandlerError?.(error, null);
      }
      if (message) {
        const raw = { headers: rawHeaders(record.headers) };
        if (!(await this.handleWithRetry(message, raw, handler, payload, live))) return;
      }
      payload.resolveOffset(record.offset);
      await payload.commitOffsetsIfNecessary();
      await payload.heartbeat();
    }
  }

  /** True once the handler succeeded; false when the consumer stops or loses the partition first. */
  private async handleWithRetry(
    message: BusMessage,
    raw: { headers: Record<string, string | undefined> },
    handler: RecordHandler,
    payload: EachBatchPayload,
    live: () => boolean,
  ): Promise<boolean> {
    let delay = this.options.retryDelayMs ?? 100;
    const maxDelay = this.options.maxRetryDelayMs ?? 5_000;
    for (;;) {
      try {
        await handler(message, raw);
        return true;
      } catch (error) {
        this.options.onHandlerError?.(error, message);
      }
      const until = Date.now() + delay;
      while (Date.now() < until) {
        if (!live()) return false;
        await new Promise((r) => setTimeout(r, Math.min(50, until - Date.now())));
        await payload.heartbeat(); // keeps the membership; throws when the group rebalances
      }
      if (!live()) return false;
      delay = Math.min(delay * 2, maxDelay);
    }
  }

  private ensureReplyConsumer(): Promise<KafkaSubscription> {
    this.replies ??= this.consume(this.replyTopic, [this.replyTopic], async (message, raw) => {
      const correlationId = raw.headers[HEADER.correlationId];
      if (correlationId) this.onReply(correlationId, message.payload as Reply);
    });
    this.replies.catch(() => (this.replies = null));
    return this.replies;
  }

  private onReply(correlationId: string, reply: Reply): void {
    // A reply whose request timed out (or came from another instance's retry) finds nobody waiting.
    this.settle(correlationId, (p) => {
      if (reply && typeof reply === 'object' && 'error' in reply) p.reject(new RequestFailedError(p.topic, reply.error));
      else p.resolve(reply?.result);
    });
  }

  private settle(correlationId: string, action: (pending: PendingRequest) => void): void {
    const pending = this.pending.get(correlationId);
    if (!pending) return;
    this.pending.delete(correlationId);
    clearTimeout(pending.timer);
    action(pending);
  }

  private async deleteReplyTopic(): Promise<void> {
    try {
      const admin = await this.getAdmin();
      await admin.deleteTopics({ topics: [this.replyTopic], timeout: 5_000 });
      await admin.deleteGroups([this.replyTopic]);
    } catch {
      // Housekeeping only: a leftover reply topic is empty and harmless.
    }
  }

  private getAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      this.admin = admin.connect().then(() => admin);
      this.admin.catch(() => (this.admin = null));
    }
    return this.admin;
  }

  private getProducer(): Promise<Producer> {
    if (!this.producer) {
      // Murmur2 over the key, as Java clients hash; one request in flight so retries cannot reorder a key.
      const producer = this.kafka.producer({
        createPartitioner: Partitioners.DefaultPartitioner,
        allowAutoTopicCreation: false,
        maxInFlightRequests: 1,
      });
      this.producer = producer.connect().then(() => producer);
      this.producer.catch(() => (this.producer = null));
    }
    return this.producer;
  }

  /** Ready for /readyz: every consumer this bus started has joined its group. */
  isReady(): boolean {
    return !this.closed && [...this.consumers].every((c) => c.joined);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('KafkaBus is closed');
  }
}

class KafkaSubscription implements Subscription {
  stopping = false;
  /** Set once the consumer has joined its group (and again after each rebalance). */
  joined = false;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly consumer: Consumer,
    private readonly onClose: (s: KafkaSubscription) => void,
  ) {}

  close(): Promise<void> {
    // The flag stops batch loops at once; disconnect then commits what was resolved and leaves the group.
    this.stopping = true;
    this.closing ??= this.consumer.disconnect().finally(() => this.onClose(this));
    return this.closing;
  }
}

function rawHeaders(headers: IHeaders | undefined): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of Object.keys(headers ?? {})) out[name] = headerValue(headers, name);
  return out;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
