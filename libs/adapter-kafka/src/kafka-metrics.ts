import type { Admin } from 'kafkajs';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * The bus's Prometheus metrics. Created once per registry and shared by every bus on it (tests run
 * several buses in one process; prom-client refuses a second metric of the same name).
 */
export class KafkaMetrics {
  private static readonly byRegistry = new WeakMap<Registry, KafkaMetrics>();

  readonly lag: Gauge<'group' | 'topic'>;
  readonly restarts: Counter<'group'>;
  readonly requestTimeouts: Counter<'topic'>;

  static for(registry: Registry): KafkaMetrics {
    let metrics = KafkaMetrics.byRegistry.get(registry);
    if (!metrics) {
      metrics = new KafkaMetrics(registry);
      KafkaMetrics.byRegistry.set(registry, metrics);
    }
    return metrics;
  }

  private constructor(registry: Registry) {
    this.lag = new Gauge({
      name: 'analyst_kafka_consumer_lag',
      help: 'Messages behind the high watermark, summed over the partitions of the topic, per consumer group',
      labelNames: ['group', 'topic'],
      registers: [registry],
    });
    this.restarts = new Counter({
      name: 'analyst_kafka_consumer_restarts_total',
      help: 'Consumers replaced after a crash, per consumer group',
      labelNames: ['group'],
      registers: [registry],
    });
    this.requestTimeouts = new Counter({
      name: 'analyst_kafka_request_timeouts_total',
      help: 'Requests that got no reply in time, per command topic',
      labelNames: ['topic'],
      registers: [registry],
    });
  }
}

export interface LagTarget {
  /** Group name on the broker (namespace included). */
  groupId: string;
  /** Label values: the unprefixed group and topics. */
  group: string;
  topics: Array<{ scoped: string; logical: string }>;
}

/**
 * Lag of one group on one topic: high watermark minus committed offset, summed over partitions.
 * A partition the group never committed counts from the low watermark (new groups start from the
 * beginning); a committed offset above the high watermark (a truncated log) counts as zero.
 */
export async function groupLag(admin: Admin, groupId: string, topic: string): Promise<number> {
  const [watermarks, [committed]] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const committedBy = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
  let lag = 0;
  for (const p of watermarks) {
    const high = Number(p.high);
    const at = committedBy.get(p.partition);
    const from = at === undefined || at < 0 ? Number(p.low) : at;
    lag += Math.max(0, high - from);
  }
  return lag;
}

/** Updates the lag gauge of every target, one admin round per target, never per message. */
export async function updateLag(admin: Admin, metrics: KafkaMetrics, targets: LagTarget[]): Promise<void> {
  for (const target of targets) {
    for (const topic of target.topics) {
      try {
        metrics.lag.set(
          { group: target.group, topic: topic.logical },
          await groupLag(admin, target.groupId, topic.scoped),
        );
      } catch {
        // Broker unreachable: keep the last value; consumer health says what is wrong.
      }
    }
  }
}
