import { KafkaBus as AdapterKafkaBus, type KafkaBusOptions, type KafkaTracing } from '@analyst/adapter-kafka';
import { consumeTraced, startProducerSpan } from '../tracing/messaging';
import { endSpan } from '../tracing/tracing';

/** The platform's OpenTelemetry helpers as the Kafka adapter's tracing hooks. */
export const KAFKA_TRACING: KafkaTracing = {
  startProducer: (operation, topic, message) => {
    const traced = startProducerSpan('kafka', operation, topic, message);
    return traced && { headers: traced.headers, end: (error?: unknown) => endSpan(traced.span, error) };
  },
  consume: (group, message, handler) => consumeTraced('kafka', group, message, handler),
};

/**
 * The adapter's KafkaBus with the platform's tracing: a PRODUCER span per published message and
 * per request (until its reply), a CONSUMER span around every handler, the trace context carried
 * in the record headers. Health goes to the `HealthRegistry` given as `health` (or `attachHealth`),
 * which satisfies the adapter's `KafkaHealthReporter`. Services and apps use this one.
 */
export class KafkaBus extends AdapterKafkaBus {
  constructor(options: KafkaBusOptions) {
    super({ tracing: KAFKA_TRACING, ...options });
  }
}
