import type { KafkaTracing } from '@analyst/adapter-kafka';
import { consumeTraced, startProducerSpan } from '../tracing/messaging';
import { endSpan } from '../tracing/tracing';

/**
 * The platform's OpenTelemetry helpers as the Kafka adapter's tracing hooks: a PRODUCER span per
 * published message and per request (until its reply), a CONSUMER span around every handler, the
 * trace context carried in the record headers. PlatformModule constructs the adapter's KafkaBus
 * with them (and its health with the HealthRegistry, which satisfies `KafkaHealthReporter`).
 */
export const KAFKA_TRACING: KafkaTracing = {
  startProducer: (operation, topic, message) => {
    const traced = startProducerSpan('kafka', operation, topic, message);
    return traced && { headers: traced.headers, end: (error?: unknown) => endSpan(traced.span, error) };
  },
  consume: (group, message, handler) => consumeTraced('kafka', group, message, handler),
};
