import type { BusMessage, OutgoingMessage } from '@analyst/eventsourcing';

/**
 * What the bus needs of tracing, injected (`KafkaBusOptions.tracing`) so this adapter loads no
 * OpenTelemetry and nothing of the platform. `@analyst/platform`'s `KafkaBus` passes its tracing
 * helpers here; without it the bus traces nothing (`NO_KAFKA_TRACING`).
 */
export interface KafkaTracing {
  /**
   * Opens a PRODUCER span for one outgoing message (`publish` or `request` on the unprefixed
   * topic) and gives the headers that carry it on the record. Null when tracing is off.
   */
  startProducer(
    operation: 'publish' | 'request',
    topic: string,
    message: OutgoingMessage,
  ): KafkaProducerTrace | null;
  /** Runs the handler of one delivered message inside a CONSUMER span whose parent the message's headers name. */
  consume<T>(group: string, message: BusMessage, handler: (span: KafkaSpan | null) => Promise<T>): Promise<T>;
}

export interface KafkaProducerTrace {
  /** Headers to put on the record (`traceparent`, …). */
  headers: Record<string, string>;
  /** Ends the span; an error (anything but undefined) marks it failed. */
  end(error?: unknown): void;
}

/** The part of a consumer span the bus touches. */
export interface KafkaSpan {
  setAttribute(key: string, value: boolean): unknown;
}

/** No spans, no headers: the handler runs as it is. */
export const NO_KAFKA_TRACING: KafkaTracing = {
  startProducer: () => null,
  consume: (_group, _message, handler) => handler(null),
};

/** What a consumer group says about itself (the shape of the platform's `ComponentHealth`). */
export interface KafkaComponentHealth {
  ready: boolean;
  live?: boolean;
  /** Why it is not ready or not live. */
  detail?: string;
}

/**
 * Where the bus registers each consumer group as `consumer:<group>`. The platform's
 * `HealthRegistry` satisfies it, so `/readyz` and `/healthz` see the groups.
 */
export interface KafkaHealthReporter {
  register(name: string, check: () => KafkaComponentHealth): void;
  unregister(name: string): void;
}
