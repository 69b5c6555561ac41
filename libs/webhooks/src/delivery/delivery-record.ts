import { createHash } from 'node:crypto';
import type { AttemptErrorCode } from '../send-webhook';
import type { WebhookDeliveryType, WebhookEvent } from '../webhook-events';

/** Where a delivery stands; every status but `pending` is final. */
export type DeliveryStatus = 'pending' | 'delivered' | 'given_up' | 'endpoint_disabled' | 'endpoint_deleted';

/** One attempt as `GET /webhooks/{id}/deliveries` will show it. */
export interface DeliveryAttempt {
  /** 1-based. */
  number: number;
  at: string;
  outcome: 'delivered' | 'failed';
  /** The receiver's status code, when it answered. */
  responseStatus: number | null;
  error: { code: AttemptErrorCode; message: string } | null;
  latencyMs: number;
  /** The first 1 KB of the receiver's answer (the sender reads no more). */
  responseBody: string;
  /** When the next attempt is due; null once delivered or given up. */
  nextRetryAt: string | null;
}

/** One (endpoint, event) pair: created once, attempted until delivered, given up or its endpoint gone. */
export interface DeliveryRecord {
  id: string;
  endpointId: string;
  teamId: string;
  partition: number;
  eventId: string;
  eventType: WebhookDeliveryType;
  /** The JSON body, fixed at creation: every attempt sends the same bytes (only the signature's time moves). */
  body: string;
  createdAt: string;
  status: DeliveryStatus;
  /** Due time of the next attempt while pending; null once final. */
  nextAttemptAt: string | null;
  attempts: DeliveryAttempt[];
  /** The replica attempting it now, until when; a lapsed claim may be taken by another. */
  claim: { holder: string; until: string } | null;
}

/**
 * The same (endpoint, event) always has the same delivery id, so a replay of the log, a rebuilt
 * checkpoint or a second replica reading the same event inserts nothing new.
 */
export function deliveryId(endpointId: string, eventId: string): string {
  return `dlv_${endpointId}_${eventId}`;
}

/** The partition an endpoint's deliveries belong to: a stable hash of its id, modulo the count. */
export function partitionOf(endpointId: string, partitions: number): number {
  return createHash('sha256').update(endpointId).digest().readUInt32BE(0) % partitions;
}

/** A new pending delivery of `event` to an endpoint, due now. */
export function newDelivery(
  endpoint: { endpointId: string; teamId: string },
  event: WebhookEvent,
  partitions: number,
  now: string,
): DeliveryRecord {
  return {
    id: deliveryId(endpoint.endpointId, event.id),
    endpointId: endpoint.endpointId,
    teamId: endpoint.teamId,
    partition: partitionOf(endpoint.endpointId, partitions),
    eventId: event.id,
    eventType: event.type,
    body: JSON.stringify(event),
    createdAt: now,
    status: 'pending',
    nextAttemptAt: now,
    attempts: [],
    claim: null,
  };
}
