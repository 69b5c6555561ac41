import type { InProcessBusTracing } from '@analyst/eventsourcing';
import { consumeTraced } from '../tracing/messaging';
import { TRACEPARENT, injectTraceHeaders, tracingEnabled } from '../tracing/tracing';

/**
 * The platform's OpenTelemetry helpers as the core in-process bus's tracing hooks: the publisher's
 * trace context carried in the message headers and a CONSUMER span around every handler, as on
 * Kafka. PlatformModule constructs the core's InProcessBus with them.
 */
export const IN_PROCESS_TRACING: InProcessBusTracing = {
  // The publisher's trace goes into the headers, unless they already name one (the relay's, stored
  // with the event): delivery runs later, in another async context, so it cannot inherit it.
  outgoing: (headers) => {
    if (!tracingEnabled() || headers?.[TRACEPARENT]) return headers ?? {};
    return injectTraceHeaders({ ...headers });
  },
  consume: (group, message, handler) => consumeTraced('in-process', group, message, () => handler()),
};
