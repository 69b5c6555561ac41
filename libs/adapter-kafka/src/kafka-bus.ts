import { randomUUID } from 'node:crypto';
import { Kafka } from 'kafkajs';
import type { Registry } from 'prom-client';
import type {
  MessageBus,
  MessageHandler,
  OutgoingMessage,
  RequestHandler,
  Subscription,
} from '@analyst/eventsourcing';
import { BrokerProbe } from './kafka-broker-probe';
import type { KafkaBusOptions } from './kafka-bus-options';
import { ConsumerGroups } from './kafka-consumer-groups';
import { NO_KAFKA_TRACING, type KafkaHealthReporter, type KafkaTracing } from './kafka-hooks';
import { kafkaLogging } from './kafka-log';
import { KafkaMetrics } from './kafka-metrics';
import { KafkaNamespace } from './kafka-namespace';
import { ResilientProducer } from './kafka-producer';
import { KafkaPublisher } from './kafka-publisher';
import { KafkaRequestServer } from './kafka-request-server';
import { KafkaRequester } from './kafka-requester';
import { TopicAdmin } from './kafka-topic-admin';

export type { KafkaBusOptions } from './kafka-bus-options';

/**
 * The distributed bus, on kafkajs directly. It composes one part per concern: KafkaPublisher
 * (`publish`), ConsumerGroups (a supervised consumer per group, its health, lag and restarts;
 * BatchDelivery hands it the records), KafkaRequestServer (`serve`), KafkaRequester (`request` over
 * the shared replies topic), TopicAdmin (topic creation) and BrokerProbe (`checkReachable`).
 *
 * Not on @nestjs/microservices' ServerKafka/ClientKafka (11.x, read in node_modules): ServerKafka runs
 * one consumer with one group id (suffixed `-server`) for every pattern and uses `eachMessage` with
 * kafkajs' default auto-commit, so a handler error that is not a KafkaRetriableException becomes an
 * error reply (or a log line for events) and the offset moves past the message. ClientKafka replies on
 * a `<pattern>.reply` topic per pattern, needs `subscribeToResponseOf` before connecting and a custom
 * partition assigner, and leaves timeouts to the caller's rxjs `timeout()`. We need a consumer group
 * per `subscribe(group, …)`, offsets committed only after the handler succeeded, keyed partitioning
 * with per-key order and typed RequestTimeoutError/RequestFailedError.
 */
export class KafkaBus implements MessageBus {
  private readonly namespace: KafkaNamespace;
  private readonly producer: ResilientProducer;
  private readonly topics: TopicAdmin;
  private readonly groups: ConsumerGroups;
  private readonly publisher: KafkaPublisher;
  private readonly server: KafkaRequestServer;
  private readonly requester: KafkaRequester;
  private readonly probe: BrokerProbe;
  private readonly tracing: KafkaTracing;
  private lagTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: KafkaBusOptions) {
    const client = {
      clientId: options.clientId ?? 'analyst',
      brokers: options.brokers,
      ...(options.ssl ? { ssl: { ca: options.ssl.ca } } : {}),
      ...kafkaLogging(options.logger),
    };
    const kafka = new Kafka(client);
    const partitions = options.partitions ?? 4;
    this.namespace = new KafkaNamespace(options.namespace ?? '');
    this.tracing = options.tracing ?? NO_KAFKA_TRACING;
    this.producer = new ResilientProducer(kafka);
    this.topics = new TopicAdmin(kafka, {
      partitions,
      replicationFactor: options.replicationFactor ?? 1,
      minInsyncReplicas: options.minInsyncReplicas,
    });
    const { namespace, topics } = this;
    this.groups = new ConsumerGroups({
      kafka,
      options,
      partitions,
      topics,
      namespace,
      assertOpen: () => this.assertOpen(),
    });
    // What the parts that send records share: one producer, one admin, the names, the tracing.
    const sending = { producer: this.producer, topics, namespace, tracing: this.tracing };
    this.publisher = new KafkaPublisher({
      ...sending,
      duplicateDelivery: options.duplicateDelivery ?? false,
    });
    this.server = new KafkaRequestServer({
      ...sending,
      groups: this.groups,
      onHandlerError: options.onHandlerError,
    });
    this.requester = new KafkaRequester({
      ...sending,
      groups: this.groups,
      instanceId: options.instanceId ?? randomUUID(),
    });
    this.probe = new BrokerProbe(client, () => this.requester.ensureReplyConsumer());
    if (options.health) this.attachHealth(options.health);
    if (options.metricsRegistry) this.attachMetrics(options.metricsRegistry);
  }

  /** Registers every consumer group of this bus, now and later, as `consumer:<group>`. */
  attachHealth(registry: KafkaHealthReporter): void {
    this.groups.attachHealth(registry);
  }

  /** Counts restarts and request timeouts, and computes consumer lag every `lagIntervalMs`. */
  attachMetrics(registry: Registry): void {
    const metrics = KafkaMetrics.for(registry);
    this.groups.attachMetrics(metrics);
    this.requester.attachMetrics(metrics);
    this.lagTimer ??= setInterval(() => void this.refreshLag(), this.options.lagIntervalMs ?? 15_000);
    this.lagTimer.unref();
  }

  /** Sets `analyst_kafka_consumer_lag` for every open group now (the timer calls this). */
  async refreshLag(): Promise<void> {
    if (this.closed) return;
    await this.groups.refreshLag();
  }

  async publish(logicalTopic: string, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    this.assertOpen();
    await this.publisher.publish(logicalTopic, messages);
  }

  /**
   * New groups start from the beginning of their topics (`fromBeginning: true`): a group that has
   * committed offsets resumes from them, and a brand-new group sees messages published before it
   * first subscribed, as a group of the in-process bus does once it exists.
   */
  async subscribe(group: string, topics: string[], handler: MessageHandler): Promise<Subscription> {
    return this.groups.consume(
      group,
      this.namespace.scoped(group),
      topics.map((t) => this.namespace.scoped(t)),
      (message) => this.tracing.consume(group, message, () => handler(message)),
      { fromBeginning: true },
    );
  }

  async serve(logicalTopic: string, group: string, handler: RequestHandler): Promise<Subscription> {
    return this.server.serve(logicalTopic, group, handler);
  }

  async request<TRes = unknown>(
    logicalTopic: string,
    message: OutgoingMessage,
    timeoutMs: number,
  ): Promise<TRes> {
    this.assertOpen();
    return this.requester.request<TRes>(logicalTopic, message, timeoutMs);
  }

  /**
   * For request paths, before they write anything: a broker answers and this instance's reply
   * consumer is in its group within `timeoutMs`; otherwise DependencyUnavailableError (BrokerProbe).
   */
  async checkReachable(timeoutMs: number): Promise<void> {
    this.assertOpen();
    await this.probe.check(timeoutMs);
  }

  /** Creates missing topics with the configured partitions; concurrent callers share one attempt. */
  async ensureTopics(topics: string[]): Promise<void> {
    await this.topics.ensureTopics(topics);
  }

  /** Ready for /readyz: every consumer this bus started has joined its group and is fetching. */
  isReady(): boolean {
    return !this.closed && this.groups.isReady();
  }

  /** Replaces a consumer as a crash would; for fault tests. Returns false when no open group has that name. */
  restartConsumer(group: string, reason = new Error('restart requested')): boolean {
    return this.groups.restart(group, reason);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.lagTimer) clearInterval(this.lagTimer);
    const replies = await this.requester.abandon();
    await this.groups.closeAllBut(replies);
    if (replies) await this.requester.closeReplies(replies);
    await this.producer.close();
    await this.topics.close();
    this.probe.dropAdmin();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('KafkaBus is closed');
  }
}
