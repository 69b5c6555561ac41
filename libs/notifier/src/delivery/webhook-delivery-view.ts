import { openApi } from '@analyst/platform';
import {
  ATTEMPT_ERROR_CODES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_PING_TYPE,
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryStatus,
} from '@analyst/webhooks';

const { int, nullable, obj, oneOfStrings, str, timestamp } = openApi;

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = [
  'pending',
  'delivered',
  'given_up',
  'endpoint_disabled',
  'endpoint_deleted',
];

/** One attempt as the API shows it: the receiver's answer (status, first 1 KB) or the error. */
export interface DeliveryAttemptView {
  number: number;
  at: string;
  outcome: 'delivered' | 'failed';
  responseStatus: number | null;
  latencyMs: number;
  error: { code: string; message: string } | null;
  /** The first 1 KB of the receiver's answer, as it sent it (the sender reads no more). */
  responseBody: string;
}

/** `GET /webhooks/{webhookId}/deliveries`: one (endpoint, event) delivery. */
export interface WebhookDeliveryView {
  object: 'webhook_delivery';
  id: string;
  event: { id: string; type: DeliveryRecord['eventType'] };
  status: DeliveryStatus;
  /** Attempts made so far. */
  attempts: number;
  lastAttempt: DeliveryAttemptView | null;
  /** When the next attempt is due while pending; null once final. */
  nextRetryAt: string | null;
  createdAt: string;
}

const attemptView = (a: DeliveryAttempt): DeliveryAttemptView => ({
  number: a.number,
  at: a.at,
  outcome: a.outcome,
  responseStatus: a.responseStatus,
  latencyMs: a.latencyMs,
  error: a.error,
  responseBody: a.responseBody,
});

/**
 * What a client sees of a delivery: never the body sent (it is the event, which the client can
 * read on `GET /events` or its own receiver) nor the claim (the replicas' business).
 */
export function webhookDeliveryView(record: DeliveryRecord): WebhookDeliveryView {
  const last = record.attempts[record.attempts.length - 1];
  return {
    object: 'webhook_delivery',
    id: record.id,
    event: { id: record.eventId, type: record.eventType },
    status: record.status,
    attempts: record.attempts.length,
    lastAttempt: last ? attemptView(last) : null,
    nextRetryAt: record.status === 'pending' ? record.nextAttemptAt : null,
    createdAt: record.createdAt,
  };
}

export const WEBHOOK_DELIVERY_SCHEMA = obj(
  {
    object: oneOfStrings(['webhook_delivery']),
    id: str('`dlv_<webhookId>_<event id>`: the same (endpoint, event) always has the same delivery.'),
    event: obj({
      id: str('The event delivered (`evt_…`), as in the body the receiver got.'),
      type: oneOfStrings([...WEBHOOK_EVENT_TYPES, WEBHOOK_PING_TYPE]),
    }),
    status: oneOfStrings(
      DELIVERY_STATUSES,
      'pending (attempts go on), delivered (a 2xx within 10 s), given_up (72 h of failed attempts), endpoint_disabled or endpoint_deleted (finished without an attempt once the endpoint was).',
    ),
    attempts: int('Attempts made so far.', { minimum: 0 }),
    lastAttempt: nullable(
      obj(
        {
          number: int('1 for the first attempt.', { minimum: 1 }),
          at: timestamp(),
          outcome: oneOfStrings(['delivered', 'failed']),
          responseStatus: nullable(int("The receiver's HTTP status, when it answered.")),
          latencyMs: int('From the start of the attempt to its outcome.', { minimum: 0 }),
          error: nullable(
            obj({ code: oneOfStrings(ATTEMPT_ERROR_CODES), message: str() }, ['code', 'message'], {
              description:
                'Why the attempt failed, when it did: http_status, redirect (never followed), timeout, connection_refused, ...',
            }),
          ),
          responseBody: str("The first 1 KB of the receiver's answer (nothing more is read or kept)."),
        },
        undefined,
        { description: 'The latest attempt; null before the first.' },
      ),
    ),
    nextRetryAt: nullable(timestamp('When the next attempt is due, while pending.')),
    createdAt: timestamp('When the delivery was created from the log.'),
  },
  undefined,
  { description: 'One event delivered (or being delivered) to one webhook endpoint.' },
);

/** The route's cursor: where the previous page ended, opaque to the client. */
export function encodeDeliveryCursor(record: Pick<DeliveryRecord, 'createdAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([record.createdAt, record.id])).toString('base64url');
}

/** The cursor's page position, or null when it is not one this route returned. */
export function decodeDeliveryCursor(cursor: string): { createdAt: string; id: string } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === 'string' &&
      value[1].startsWith('dlv_')
    )
      return { createdAt: value[0], id: value[1] };
  } catch {
    // not base64url JSON: refused below
  }
  return null;
}
