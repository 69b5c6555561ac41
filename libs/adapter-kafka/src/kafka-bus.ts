import { randomUUID } from 'node:crypto';
import { Kafka, type Admin, type EachBatchPayload, type IHeaders } from 'kafkajs';
import type { Registry } from 'prom-client';
import {
  type BusMessage,
  DependencyUnavailableError,
  type MessageBus,
  type MessageHandler,
  type OutgoingMessage,
  RequestFailedError,
  type RequestHandler,
  RequestTimeoutError,
  type Subscription,
} from '@analyst/eventsourcing';
import { HEADER, decode, encode, headerValue } from './kafka-codec';
import { NO_KAFKA_TRACING, type KafkaHealthReporter, type KafkaTracing } from './kafka-hooks';
import { SupervisedConsumer } from './kafka-consumer';
import { jsonLogLine } from './json-log-line';
import { kafkaLogging, type KafkaLogSink } from './kafka-log';
import { KafkaMetrics, updateLag } from './kafka-metrics';
import { ResilientProducer, isTopicMetadataError } from './kafka-producer';
import { SendSlots } from './send-slots';

/** Publishes in kafkajs's hands at once (see KafkaBus.publishSlots). */
const PUBLISHES_IN_KAFKAJS = 16;

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  /** Names this instance's reply consumer group (`replies-<instanceId>`); random by default (one per process). */
  instanceId?: string;
  /**
   * Prefix of every topic and consumer group this bus touches, so several installations (or test
   * runs) can share one cluster without reading each other's messages. Handlers see unprefixed topics.
   */
  namespace?: string;
  /** Partitions of every topic the bus creates, the shared replies topic included. Default 4. */
  partitions?: number;
  /** Replication factor of every topic the bus creates. Default 1 (a single broker). */
  replicationFactor?: number;
  /** `min.insync.replicas` of every topic the bus creates; the broker's default when absent. */
  minInsyncReplicas?: number;
  /** TLS to the brokers: the CA certificates (PEM text) that signed their certificates. */
  ssl?: { ca: string[] };
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** How long an idle fetch waits on the broker; also bounds how long `close()` waits for one. */
  maxWaitTimeMs?: number;
  /** How often resolved offsets are committed while a batch is being handled. Default 500 ms. */
  commitIntervalMs?: number;
  /** First delay before retrying a failed handler; doubles up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** First delay before a crashed consumer is replaced; doubles per failed attempt up to `maxRestartDelayMs`. Default 500 ms / 15 s. */
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** A consumer with no fetch, heartbeat or handled batch for this long is not ready. Default: the session timeout (10 s). */
  consumerStallMs?: number;
  /** A consumer that has not recovered for this long reports `live: false` (the process should be restarted). Default 5 min. */
  consumerDeadAfterMs?: number;
  /** How often consumer lag is computed for `analyst_kafka_consumer_lag`. Default 15 s. */
  lagIntervalMs?: number;
  /** Each consumer group reports here as `consumer:<group>` (also possible later with `attachHealth`). */
  health?: KafkaHealthReporter;
  /** Lag, restart and request-timeout metrics go here (also possible later with `attachMetrics`). */
  metricsRegistry?: Registry;
  /**
   * Producer and consumer spans (`@analyst/platform`'s `KafkaBus` passes its OpenTelemetry helpers).
   * Default: none.
   */
  tracing?: KafkaTracing;
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
type RecordHandler = (
  message: BusMessage,
  raw: { headers: Record<string, string | undefined> },
) => Promise<void>;

/** Name of the group that waits for this instance's replies, as health and metrics show it. */
const REPLIES = 'replies';

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
 * with per-key order and typed RequestTimeoutError/RequestFailedError.
 *
 * Delivery: one supervised kafkajs consumer per subscription; each partition's batch is handled
 * message by message, and an offset is resolved (and later committed) only once its handler
 * resolved. A failing handler's partition is paused and fetched again from that message after a
 * backoff (the same at-least-once, in-order behaviour as the in-process bus), while the other
 * partitions go on; the uncommitted offset hands the message to the next owner of the partition if
 * the consumer stops or the group rebalances meanwhile.
 * A consumer that crashes (broker gone, coordinator not found, anything) is replaced after a backoff
 * for as long as its subscription is open; see SupervisedConsumer.
 *
 * Request-reply: every reply goes to ONE shared topic, `<namespace>analyst.replies`, that nobody
 * deletes. Each instance reads all of it in its own group (`replies-<instanceId>`, from the end of
 * the topic: the first request is sent only once that consumer has fetched, so it has a position
 * before any reply to it can exist) and keeps the replies whose `reply-instance` header names it and whose
 * correlation id it still waits for. A reply to an instance that has gone is read by nobody who
 * cares and dropped. (Per-instance reply topics, deleted on close, poisoned every server's producer
 * during a rolling restart: kafkajs keeps refreshing metadata of a topic it once sent to.)
 *
 * New groups start from the beginning of their topics (`fromBeginning: true`): a group that has
 * committed offsets resumes from them, and a brand-new group sees messages published before it
 * first subscribed, as a group of the in-process bus does once it exists.
 */
export class KafkaBus implements MessageBus {
  private readonly kafka: Kafka;
  /** The same brokers without kafkajs' retries, for `checkReachable`: a refused connection fails at once. */
  private readonly probeKafka: Kafka;
  private readonly instanceId: string;
  private readonly replyTopic: string;
  private readonly replyGroup: string;
  private readonly partitions: number;
  private readonly replicationFactor: number;
  private readonly knownTopics = new Map<string, Promise<void>>();
  private readonly consumers = new Set<SupervisedConsumer>();
  private readonly healthNames = new Map<SupervisedConsumer, string>();
  /** Next retry delay of each partition whose handler failed last time, by subscription, topic and partition. */
  private readonly retryDelays = new Map<string, number>();
  private readonly pending = new Map<string, PendingRequest>();
  private readonly producer: ResilientProducer;
  /**
   * Publishes handed to kafkajs at once. kafkajs sends one request at a time per broker here and
   * holds further sends in its own queues, from which it was seen to resume hundreds together and
   * encode them all (JSON, record batch, CRC32C) in one turn of the event loop: a relay catching up
   * 50 KB chunk events with 1,000 publishes waiting stalled 0.6-0.9 s a turn, 19 ms with 16.
   */
  private readonly publishSlots = new SendSlots(PUBLISHES_IN_KAFKAJS);
  private admin: Promise<Admin> | null = null;
  private probeAdmin: Promise<Admin> | null = null;
  private probing: { done: Promise<void>; startedAt: number } | null = null;
  private replies: Promise<SupervisedConsumer> | null = null;
  private health: KafkaHealthReporter | null = null;
  private readonly tracing: KafkaTracing;
  private metrics: KafkaMetrics | null = null;
  private lagTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly namespace: string;

  constructor(private readonly options: KafkaBusOptions) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.namespace = options.namespace ?? '';
    this.replyTopic = `${this.namespace}analyst.replies`;
    this.replyGroup = `${this.namespace}${REPLIES}-${this.instanceId}`;
    this.partitions = options.partitions ?? 4;
    this.replicationFactor = options.replicationFactor ?? 1;
    this.tracing = options.tracing ?? NO_KAFKA_TRACING;
    const client = {
      clientId: options.clientId ?? 'analyst',
      brokers: options.brokers,
      ...(options.ssl ? { ssl: { ca: options.ssl.ca } } : {}),
      ...kafkaLogging(options.logger),
    };
    this.kafka = new Kafka(client);
    // A request to a broker that is still starting may never be answered: the probe gives up after 2 s.
    this.probeKafka = new Kafka({ ...client, retry: { retries: 0 }, requestTimeout: 2_000 });
    this.producer = new ResilientProducer(this.kafka);
    if (options.health) this.attachHealth(options.health);
    if (options.metricsRegistry) this.attachMetrics(options.metricsRegistry);
  }

  /** Registers every consumer group of this bus, now and later, as `consumer:<group>`. */
  attachHealth(registry: KafkaHealthReporter): void {
    this.health = registry;
    for (const consumer of this.consumers) this.register(consumer);
  }

  /** Counts restarts and request timeouts, and computes consumer lag every `lagIntervalMs`. */
  attachMetrics(registry: Registry): void {
    this.metrics = KafkaMetrics.for(registry);
    this.lagTimer ??= setInterval(() => void this.refreshLag(), this.options.lagIntervalMs ?? 15_000);
    this.lagTimer.unref();
  }

  /** Sets `analyst_kafka_consumer_lag` for every open group now (the timer calls this). */
  async refreshLag(): Promise<void> {
    if (!this.metrics || this.closed) return;
    const targets = [...this.consumers].map((c) => ({
      groupId: c.groupId,
      group: c.name,
      topics: c.topics.map((t) => ({ scoped: t, logical: this.unscoped(t) })),
    }));
    if (targets.length === 0) return;
    try {
      await updateLag(await this.getAdmin(), this.metrics, targets);
    } catch {
      // No admin connection (broker away): the next round tries again.
    }
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
    // Encoded only once a slot is free: the encoding then happens one send at a time as earlier
    // sends are acknowledged, not for every queued publish in the same turn of the event loop.
    await this.publishSlots.acquire();
    try {
      const copies = this.options.duplicateDelivery ? 2 : 1;
      const traced = messages.map((m) => this.tracing.startProducer('publish', logicalTopic, m));
      const records = messages.flatMap((m, i) =>
        Array.from({ length: copies }, () => encode(m, traced[i]?.headers)),
      );
      try {
        await this.producer.send(topic, records, {
          retryIf: (error) => this.recreateIfMissing(topic, error),
        });
      } catch (error) {
        for (const t of traced) t?.end(error);
        throw error;
      }
      for (const t of traced) t?.end();
    } finally {
      this.publishSlots.release();
    }
  }

  async subscribe(group: string, topics: string[], handler: MessageHandler): Promise<Subscription> {
    return this.consume(
      group,
      this.scoped(group),
      topics.map((t) => this.scoped(t)),
      (message) => this.tracing.consume(group, message, () => handler(message)),
      {
        fromBeginning: true,
      },
    );
  }

  async serve(logicalTopic: string, group: string, handler: RequestHandler): Promise<Subscription> {
    const topic = this.scoped(logicalTopic);
    return this.consume(
      group,
      this.scoped(group),
      [topic],
      async (message, raw) => {
        const replyTo = raw.headers[HEADER.replyTo];
        const correlationId = raw.headers[HEADER.correlationId];
        if (!replyTo || !correlationId) {
          this.options.onHandlerError?.(
            new Error(`request on ${topic} without reply-to/correlation-id`),
            message,
          );
          return;
        }
        // The command runs in a span whose parent is the requester's, so its events join the trace.
        await this.tracing.consume(group, message, async (span) => {
          let reply: Reply;
          try {
            reply = { result: await handler(message) };
          } catch (error) {
            // The caller gets the failure; retrying here would run a command it has already given up on.
            reply = { error: error instanceof Error ? error.message : String(error) };
            span?.setAttribute('analyst.request.failed', true);
          }
          await this.sendReply(replyTo, raw.headers[HEADER.replyInstance], correlationId, reply, message);
        });
      },
      { fromBeginning: true },
    );
  }

  async request<TRes = unknown>(
    logicalTopic: string,
    message: OutgoingMessage,
    timeoutMs: number,
  ): Promise<TRes> {
    const topic = this.scoped(logicalTopic);
    this.assertOpen();
    const correlationId = randomUUID();
    const deadline = Date.now() + timeoutMs;
    // One span from send to reply (or timeout); the server's span is its child.
    const traced = this.tracing.startProducer('request', logicalTopic, message);
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        this.metrics?.requestTimeouts.inc({ topic: logicalTopic });
        reject(new RequestTimeoutError(logicalTopic, timeoutMs));
      }, timeoutMs);
      this.pending.set(correlationId, { topic: logicalTopic, resolve, reject, timer });
    });
    const send = (async () => {
      await Promise.all([this.ensureReplyConsumer(), this.ensureTopics([topic])]);
      const record = encode(message, {
        ...traced?.headers,
        [HEADER.replyTo]: this.replyTopic,
        [HEADER.replyInstance]: this.instanceId,
        [HEADER.correlationId]: correlationId,
      });
      // A send that fails (broker restarting, stale metadata) is retried until the request's own deadline.
      await this.producer.send(topic, [record], {
        deadline,
        retryIf: (error) => this.recreateIfMissing(topic, error),
      });
    })();
    send.catch((error: unknown) => this.settle(correlationId, (p) => p.reject(asError(error))));
    if (traced) {
      answer.then(
        () => traced.end(),
        (error: unknown) => traced.end(error),
      );
    }
    return answer as Promise<TRes>;
  }

  /**
   * For request paths, before they write anything: a broker answers a metadata request and this
   * instance's reply consumer is in its group, within `timeoutMs`; otherwise DependencyUnavailableError.
   * Concurrent callers share a probe younger than their timeout. kafkajs' own retries would take
   * seconds to give up on a stopped broker, so the probe's client has none.
   */
  async checkReachable(timeoutMs: number): Promise<void> {
    this.assertOpen();
    // A probe older than this caller's patience may be stuck on a broker that was restarting: start afresh.
    if (!this.probing || Date.now() - this.probing.startedAt >= timeoutMs) {
      const probing = {
        done: this.probe().finally(() => {
          if (this.probing === probing) this.probing = null;
        }),
        startedAt: Date.now(),
      };
      this.probing = probing;
    }
    const probe = this.probing.done;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DependencyUnavailableError('message broker', `no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([probe, late]);
    } catch (error) {
      if (error instanceof DependencyUnavailableError) throw error;
      throw new DependencyUnavailableError('message broker', asError(error).message, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.lagTimer) clearInterval(this.lagTimer);
    for (const id of [...this.pending.keys()]) this.settle(id, (p) => p.reject(new Error('KafkaBus closed')));
    const replies = this.replies ? await this.replies.catch(() => null) : null;
    await Promise.all([...this.consumers].filter((c) => c !== replies).map((c) => c.close()));
    await replies?.close();
    if (replies) await this.deleteReplyGroup();
    await this.producer.close();
    const admin = this.admin ? await this.admin.catch(() => null) : null;
    await admin?.disconnect();
    this.dropProbeAdmin();
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
                numPartitions: this.partitions,
                replicationFactor: this.replicationFactor,
                configEntries: this.options.minInsyncReplicas
                  ? [{ name: 'min.insync.replicas', value: String(this.options.minInsyncReplicas) }]
                  : [],
              })),
            });
            // A topic another replica created a moment ago ("already exists" counts as success here)
            // may not serve metadata yet; subscribing then was seen to leak a rejection from kafkajs.
            await this.untilServed(admin, missing);
            return;
          } catch (error) {
            if (!(error as { retriable?: boolean }).retriable || attempt >= 10) throw error;
            await new Promise((r) => setTimeout(r, 200 * attempt));
          }
        }
      })();
      for (const topic of missing) this.knownTopics.set(topic, created);
      created.catch(() => {
        for (const topic of missing)
          if (this.knownTopics.get(topic) === created) this.knownTopics.delete(topic);
      });
    }
    await Promise.all(topics.map((t) => this.knownTopics.get(t)));
  }

  /** Waits until every topic answers metadata with a leader on each partition (a few tries). */
  private async untilServed(admin: Admin, topics: string[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { topics: described } = await admin.fetchTopicMetadata({ topics });
        if (described.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0)))
          return;
      } catch (error) {
        if (!(error as { retriable?: boolean }).retriable || attempt >= 10) throw error;
      }
      if (attempt >= 10) return; // leaders still electing: the consumers' own retries take it from here
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }

  /** Ready for /readyz: every consumer this bus started has joined its group and is fetching. */
  isReady(): boolean {
    return !this.closed && [...this.consumers].every((c) => c.health().ready);
  }

  /** Replaces a consumer as a crash would; for fault tests. Returns false when no open group has that name. */
  restartConsumer(group: string, reason = new Error('restart requested')): boolean {
    const consumer = [...this.consumers].find((c) => c.name === group);
    consumer?.forceRestart(reason);
    return consumer !== undefined;
  }

  /**
   * A send failed on a topic-metadata error: when the topic is really gone (deleted by someone),
   * create it again before the retry; a topic we created ourselves must exist for our messages.
   */
  private async recreateIfMissing(topic: string, error: unknown): Promise<boolean> {
    if (isTopicMetadataError(error) && !(await this.topicExists(topic))) {
      this.knownTopics.delete(topic);
      await this.ensureTopics([topic]);
    }
    return true;
  }

  private async sendReply(
    replyTo: string,
    replyInstance: string | undefined,
    correlationId: string,
    reply: Reply,
    request: BusMessage,
  ): Promise<void> {
    const record = {
      key: replyInstance ?? correlationId,
      value: JSON.stringify(reply),
      headers: {
        [HEADER.correlationId]: correlationId,
        ...(replyInstance ? { [HEADER.replyInstance]: replyInstance } : {}),
      },
    };
    let gone = false;
    try {
      await this.producer.send(replyTo, [record], {
        // A reply topic that no longer exists (an older requester's own topic, deleted when it left) is never retried.
        retryIf: async (error) => !(gone = isTopicMetadataError(error) && !(await this.topicExists(replyTo))),
      });
    } catch (error) {
      if (!gone) throw error; // the command is handled again (handlers are idempotent) rather than left unanswered
      this.options.onHandlerError?.(
        new Error(`reply dropped: its topic ${replyTo} no longer exists`),
        request,
      );
    }
  }

  private async topicExists(topic: string): Promise<boolean> {
    try {
      return (await (await this.getAdmin()).listTopics()).includes(topic);
    } catch {
      return true; // cannot tell (broker away): assume it exists and let the retries decide
    }
  }

  private async consume(
    name: string,
    groupId: string,
    topics: string[],
    handler: RecordHandler,
    { fromBeginning, waitForFetch = false }: { fromBeginning: boolean; waitForFetch?: boolean },
  ): Promise<SupervisedConsumer> {
    this.assertOpen();
    await this.ensureTopics(topics);
    const sessionTimeout = this.options.sessionTimeoutMs ?? 10_000;
    const consumer = new SupervisedConsumer(
      {
        kafka: this.kafka,
        groupId,
        name,
        topics,
        fromBeginning,
        config: {
          sessionTimeout,
          heartbeatInterval: this.options.heartbeatIntervalMs ?? 1_000,
          rebalanceTimeout: 30_000,
          maxWaitTimeInMs: this.options.maxWaitTimeMs ?? 200,
          allowAutoTopicCreation: false,
        },
        autoCommitIntervalMs: this.options.commitIntervalMs ?? 500,
        partitionsConsumedConcurrently: Math.max(this.partitions, 1),
        eachBatch: (payload, live) => this.handleBatch(payload, live, handler, name),
        restartDelayMs: this.options.restartDelayMs ?? 500,
        maxRestartDelayMs: this.options.maxRestartDelayMs ?? 15_000,
        stallAfterMs: this.options.consumerStallMs ?? sessionTimeout,
        deadAfterMs: this.options.consumerDeadAfterMs ?? 5 * 60_000,
        onRestart: () => this.metrics?.restarts.inc({ group: name }),
        onError: (error) => this.logCrash(name, error),
      },
      (c) => this.forget(c),
    );
    this.consumers.add(consumer);
    this.register(consumer);
    try {
      await consumer.start();
      if (waitForFetch) await consumer.firstFetch();
    } catch (error) {
      await consumer.close();
      throw error;
    }
    return consumer;
  }

  private register(consumer: SupervisedConsumer): void {
    if (!this.health || this.healthNames.has(consumer)) return;
    const taken = new Set(this.healthNames.values());
    let name = `consumer:${consumer.name}`;
    for (let n = 2; taken.has(name); n++) name = `consumer:${consumer.name}#${n}`;
    this.healthNames.set(consumer, name);
    this.health.register(name, () => consumer.health());
  }

  private forget(consumer: SupervisedConsumer): void {
    this.consumers.delete(consumer);
    const name = this.healthNames.get(consumer);
    if (name) this.health?.unregister(name);
    this.healthNames.delete(consumer);
    if (this.metrics && ![...this.consumers].some((c) => c.name === consumer.name)) {
      for (const topic of consumer.topics)
        this.metrics.lag.remove({ group: consumer.name, topic: this.unscoped(topic) });
    }
  }

  private logCrash(group: string, error: unknown): void {
    const fields = {
      group,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
    if (this.options.logger)
      this.options.logger.warn(fields, 'kafka consumer failed; replacing it after a backoff');
    else
      process.stderr.write(
        `${jsonLogLine('warn', fields, 'kafka consumer failed; replacing it after a backoff')}\n`,
      );
  }

  private async handleBatch(
    payload: EachBatchPayload,
    live: () => boolean,
    handler: RecordHandler,
    subscription: string,
  ): Promise<void> {
    const { batch } = payload;
    const partitionKey = `${subscription}|${batch.topic}|${batch.partition}`;
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
        try {
          await handler(message, { headers: rawHeaders(record.headers) });
          this.retryDelays.delete(partitionKey);
        } catch (error) {
          this.options.onHandlerError?.(error, message);
          this.retryLater(partitionKey, payload);
          return;
        }
      }
      payload.resolveOffset(record.offset);
      await payload.commitOffsetsIfNecessary();
      await payload.heartbeat();
    }
  }

  /**
   * A failed handler's partition is paused and resumed after a backoff (doubling per failure in a
   * row), then fetched again from the failed message, which is not resolved: the retry keeps the
   * partition's order. Retrying in place instead would hold the whole batch fetch, and kafkajs
   * fetches again only once every partition's batch is done, so one failing message would stall
   * every other partition of the subscription.
   */
  private retryLater(partitionKey: string, payload: EachBatchPayload): void {
    const delay = this.retryDelays.get(partitionKey) ?? this.options.retryDelayMs ?? 100;
    this.retryDelays.set(partitionKey, Math.min(delay * 2, this.options.maxRetryDelayMs ?? 5_000));
    const resume = payload.pause();
    setTimeout(resume, delay).unref();
  }

  private ensureReplyConsumer(): Promise<SupervisedConsumer> {
    this.replies ??= this.consume(
      REPLIES,
      this.replyGroup,
      [this.replyTopic],
      async (message, raw) => {
        const forInstance = raw.headers[HEADER.replyInstance];
        const correlationId = raw.headers[HEADER.correlationId];
        // Every instance reads every reply; most are someone else's. Unknown ids (timed out, or a
        // departed instance's) find nobody waiting and are dropped.
        if (forInstance && forInstance !== this.instanceId) return;
        if (correlationId) this.onReply(correlationId, message.payload as Reply);
      },
      { fromBeginning: false, waitForFetch: true },
    );
    this.replies.catch(() => (this.replies = null));
    return this.replies;
  }

  private onReply(correlationId: string, reply: Reply): void {
    this.settle(correlationId, (p) => {
      if (reply && typeof reply === 'object' && 'error' in reply)
        p.reject(new RequestFailedError(p.topic, reply.error));
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

  /** The replies topic stays (others use it); only this instance's group goes. */
  private async deleteReplyGroup(): Promise<void> {
    try {
      await (await this.getAdmin()).deleteGroups([this.replyGroup]);
    } catch {
      // Housekeeping only: an empty group expires with the broker's offsets retention.
    }
  }

  private async probe(): Promise<void> {
    this.probeAdmin ??= (async () => {
      const admin = this.probeKafka.admin();
      await admin.connect();
      return admin;
    })();
    try {
      await (await this.probeAdmin).describeCluster();
    } catch (error) {
      // A fresh admin (and connection) for the next probe, as after a broker restart.
      this.dropProbeAdmin();
      throw error;
    }
    await this.ensureReplyConsumer();
  }

  /** Forgets the probe's admin; it disconnects once its connect settles, which nobody waits for. */
  private dropProbeAdmin(): void {
    const admin = this.probeAdmin;
    this.probeAdmin = null;
    admin?.then((a) => a.disconnect()).catch(() => undefined);
  }

  private getAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      this.admin = admin.connect().then(() => admin);
      this.admin.catch(() => (this.admin = null));
    }
    return this.admin;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('KafkaBus is closed');
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
