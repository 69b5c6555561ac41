import { context, type Attributes } from '@opentelemetry/api';
import type { BusMessage } from '@analyst/eventsourcing';
import {
  SpanKind,
  TRACEPARENT,
  contextWith,
  extractTraceContext,
  injectTraceHeaders,
  startSpan,
  tracingEnabled,
  withSpan,
  type Span,
} from './tracing';

// Messaging attribute names of the OpenTelemetry semantic conventions (still incubating there, so
// spelled out here rather than imported from the unstable entry point).
const SYSTEM = 'messaging.system';
const DESTINATION = 'messaging.destination.name';
const OPERATION = 'messaging.operation.type';
const GROUP = 'messaging.consumer.group.name';
const MESSAGE_ID = 'messaging.message.id';
const KEY = 'messaging.kafka.message.key';
/** The message's type (event or command name): what a reader of the trace looks for first. */
const MESSAGE_TYPE = 'analyst.message.type';

export type MessagingSystem = 'kafka' | 'in-process';

export function producerAttributes(
  system: MessagingSystem,
  topic: string,
  message: { id: string; key: string; type: string },
): Attributes {
  return {
    [SYSTEM]: system,
    [DESTINATION]: topic,
    [OPERATION]: 'send',
    [MESSAGE_ID]: message.id,
    [KEY]: message.key,
    [MESSAGE_TYPE]: message.type,
  };
}

/**
 * Runs a handler for one delivered message inside a CONSUMER span whose parent is the producer's
 * span, read from the message's `traceparent` header (a new trace when it has none).
 */
export function consumeTraced<T>(
  system: MessagingSystem,
  group: string,
  message: BusMessage,
  handler: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) return handler(null);
  return withSpan(
    `process ${message.topic}`,
    {
      kind: SpanKind.CONSUMER,
      parent: extractTraceContext(message.headers),
      attributes: {
        [SYSTEM]: system,
        [DESTINATION]: message.topic,
        [OPERATION]: 'process',
        [GROUP]: group,
        [MESSAGE_ID]: message.id,
        [KEY]: message.key,
        [MESSAGE_TYPE]: message.type,
      },
    },
    handler,
  );
}

/**
 * A PRODUCER span for one outgoing message and the headers that carry it. Its parent is the trace
 * the message already names (the relay passes the one stored with the event), else the active
 * span. Null when tracing is off.
 */
export function startProducerSpan(
  system: MessagingSystem,
  name: string,
  topic: string,
  message: { id: string; key: string; type: string; headers?: Record<string, string> },
): { span: Span; headers: Record<string, string> } | null {
  if (!tracingEnabled()) return null;
  const parent = message.headers?.[TRACEPARENT] ? extractTraceContext(message.headers) : context.active();
  const span = startSpan(`${name} ${topic}`, {
    kind: SpanKind.PRODUCER,
    parent,
    attributes: producerAttributes(system, topic, message),
  })!;
  return { span, headers: injectTraceHeaders<Record<string, string>>({}, contextWith(span, parent)) };
}
