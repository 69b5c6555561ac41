import type { Kafka } from 'kafkajs';
import { BatchDelivery, type RecordHandler } from './kafka-batch-delivery';
import type { KafkaBusOptions } from './kafka-bus-options';
import { SupervisedConsumer } from './kafka-consumer';
import type { KafkaHealthReporter } from './kafka-hooks';
import { jsonLogLine } from './json-log-line';
import { type KafkaMetrics, updateLag } from './kafka-metrics';
import type { KafkaNamespace } from './kafka-namespace';
import type { TopicAdmin } from './kafka-topic-admin';

export interface ConsumerGroupsDeps {
  kafka: Kafka;
  options: KafkaBusOptions;
  /** Partitions of each topic: a consumer handles that many partitions' batches at once. */
  partitions: number;
  topics: TopicAdmin;
  namespace: KafkaNamespace;
  /** Throws once the bus is closed: no consumer starts after that. */
  assertOpen: () => void;
}

export interface ConsumeOptions {
  /** Where a group with no committed offset starts: the topic's first message, or its end. */
  fromBeginning: boolean;
  /** Resolve only once the consumer has fetched (it then has a position on every partition). */
  waitForFetch?: boolean;
}

/**
 * The bus's consumer groups: one supervised consumer per `subscribe`, `serve` and the reply
 * consumer, replaced after any crash for as long as its subscription is open (SupervisedConsumer).
 * Each reports its health as `consumer:<group>` and its lag and restarts as metrics.
 */
export class ConsumerGroups {
  private readonly consumers = new Set<SupervisedConsumer>();
  private readonly healthNames = new Map<SupervisedConsumer, string>();
  private readonly delivery: BatchDelivery;
  private health: KafkaHealthReporter | null = null;
  private metrics: KafkaMetrics | null = null;

  constructor(private readonly deps: ConsumerGroupsDeps) {
    this.delivery = new BatchDelivery(deps.options, deps.namespace);
  }

  /**
   * Starts a consumer in group `groupId` of `topics` (their names on the broker, created when
   * missing); `name` is the group as health and metrics show it.
   */
  async consume(
    name: string,
    groupId: string,
    topics: string[],
    handler: RecordHandler,
    { fromBeginning, waitForFetch = false }: ConsumeOptions,
  ): Promise<SupervisedConsumer> {
    this.deps.assertOpen();
    await this.deps.topics.ensureTopics(topics);
    const { options } = this.deps;
    const sessionTimeout = options.sessionTimeoutMs ?? 10_000;
    const consumer = new SupervisedConsumer(
      {
        kafka: this.deps.kafka,
        groupId,
        name,
        topics,
        fromBeginning,
        config: {
          sessionTimeout,
          heartbeatInterval: options.heartbeatIntervalMs ?? 1_000,
          rebalanceTimeout: 30_000,
          maxWaitTimeInMs: options.maxWaitTimeMs ?? 200,
          allowAutoTopicCreation: false,
        },
        autoCommitIntervalMs: options.commitIntervalMs ?? 500,
        partitionsConsumedConcurrently: Math.max(this.deps.partitions, 1),
        eachBatch: (payload, live) => this.delivery.deliver(payload, live, handler, name),
        restartDelayMs: options.restartDelayMs ?? 500,
        maxRestartDelayMs: options.maxRestartDelayMs ?? 15_000,
        stallAfterMs: options.consumerStallMs ?? sessionTimeout,
        deadAfterMs: options.consumerDeadAfterMs ?? 5 * 60_000,
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

  /** Registers every consumer group, now and later, as `consumer:<group>`. */
  attachHealth(registry: KafkaHealthReporter): void {
    this.health = registry;
    for (const consumer of this.consumers) this.register(consumer);
  }

  /** Counts restarts and gives `refreshLag` its gauge. */
  attachMetrics(metrics: KafkaMetrics): void {
    this.metrics = metrics;
  }

  /** Every consumer has joined its group and is fetching. */
  isReady(): boolean {
    return [...this.consumers].every((c) => c.health().ready);
  }

  /** Replaces a consumer as a crash would. False when no open group has that name. */
  restart(group: string, reason: Error): boolean {
    const consumer = [...this.consumers].find((c) => c.name === group);
    consumer?.forceRestart(reason);
    return consumer !== undefined;
  }

  /** Sets `analyst_kafka_consumer_lag` for every open group (nothing before `attachMetrics`). */
  async refreshLag(): Promise<void> {
    if (!this.metrics) return;
    const { namespace } = this.deps;
    const targets = [...this.consumers].map((c) => ({
      groupId: c.groupId,
      group: c.name,
      topics: c.topics.map((t) => ({ scoped: t, logical: namespace.unscoped(t) })),
    }));
    if (targets.length === 0) return;
    try {
      await updateLag(await this.deps.topics.connected(), this.metrics, targets);
    } catch {
      // No admin connection (broker away): the next round tries again.
    }
  }

  /** Closes every consumer but `last` (the reply consumer, which the bus closes after them). */
  async closeAllBut(last: SupervisedConsumer | null): Promise<void> {
    await Promise.all([...this.consumers].filter((c) => c !== last).map((c) => c.close()));
  }

  private register(consumer: SupervisedConsumer): void {
    if (!this.health || this.healthNames.has(consumer)) return;
    const taken = new Set(this.healthNames.values());
    let name = `consumer:${consumer.name}`;
    for (let n = 2; taken.has(name); n++) name = `consumer:${consumer.name}#${n}`;
    this.healthNames.set(consumer, name);
    this.health.register(name, () => consumer.health());
  }

  /** A consumer closed: its health goes, and its lag series once no open consumer has its group. */
  private forget(consumer: SupervisedConsumer): void {
    this.consumers.delete(consumer);
    const name = this.healthNames.get(consumer);
    if (name) this.health?.unregister(name);
    this.healthNames.delete(consumer);
    if (this.metrics && ![...this.consumers].some((c) => c.name === consumer.name)) {
      for (const topic of consumer.topics)
        this.metrics.lag.remove({ group: consumer.name, topic: this.deps.namespace.unscoped(topic) });
    }
  }

  private logCrash(group: string, error: unknown): void {
    const fields = {
      group,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
    const { logger } = this.deps.options;
    if (logger) logger.warn(fields, 'kafka consumer failed; replacing it after a backoff');
    else
      process.stderr.write(
        `${jsonLogLine('warn', fields, 'kafka consumer failed; replacing it after a backoff')}\n`,
      );
  }
}
