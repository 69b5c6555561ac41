import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { BusMessage, OutgoingMessage } from '@analyst/eventsourcing';

/** Headers the adapter owns; they are set on every record and never handed to handlers as user headers. */
export const HEADER = {
  id: 'message-id',
  type: 'message-type',
  replyTo: 'reply-to',
  /** Which instance waits for the reply: every instance reads the one shared replies topic. */
  replyInstance: 'reply-instance',
  correlationId: 'correlation-id',
} as const;

/** A reply's payload on the replies topic: the serving handler's result, or its error's message. */
export type Reply = { result?: unknown } | { error: string };

const TRANSPORT_HEADERS = new Set<string>(Object.values(HEADER));

/** A record as produced: key for partitioning, JSON payload, id and type as headers. */
export function encode(message: OutgoingMessage, extra: Record<string, string> = {}): Message {
  return {
    key: message.key,
    value: JSON.stringify(message.payload ?? null),
    headers: { ...(message.headers ?? {}), [HEADER.id]: message.id, [HEADER.type]: message.type, ...extra },
  };
}

export function headerValue(headers: IHeaders | undefined, name: string): string | undefined {
  const raw = headers?.[name];
  if (raw === undefined) return undefined;
  const first = Array.isArray(raw) ? raw[0] : raw;
  return first === undefined ? undefined : first.toString();
}

export function decode(topic: string, record: KafkaMessage): BusMessage {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(record.headers ?? {})) {
    if (TRANSPORT_HEADERS.has(name)) continue;
    const value = headerValue(record.headers, name);
    if (value !== undefined) headers[name] = value;
  }
  return {
    topic,
    id: headerValue(record.headers, HEADER.id) ?? '',
    type: headerValue(record.headers, HEADER.type) ?? '',
    key: record.key?.toString() ?? '',
    payload: record.value === null ? null : JSON.parse(record.value.toString()),
    headers,
  };
}
