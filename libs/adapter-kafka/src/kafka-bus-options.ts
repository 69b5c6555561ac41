import type { Registry } from 'prom-client';
import type { BusMessage } from '@analyst/eventsourcing';
import type { KafkaHealthReporter, KafkaTracing } from './kafka-hooks';
import type { KafkaLogSink } from './kafka-log';

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
