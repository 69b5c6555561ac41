import { createHash, randomBytes } from 'node:crypto';

/** A new endpoint id: `we_` and 16 url-safe characters (96 random bits). */
export function newEndpointId(): string {
  return `we_${randomBytes(12).toString('base64url')}`;
}

/**
 * The endpoint id an Idempotency-Key names within a team: a retry with the same key decides on the
 * same id, so the team's stream (and its expected revision) lets exactly one registration through,
 * whichever replica gets the retry; the key itself is not kept.
 */
export function idempotentEndpointId(teamId: string, idempotencyKey: string): string {
  const digest = createHash('sha256').update(`${teamId}\n${idempotencyKey}`).digest('base64url');
  return `we_${digest.slice(0, 22)}`;
}

/** The id of a ping command; the event the log records for it names the delivery (`evt_…`). */
export function newPingId(): string {
  return `png_${randomBytes(12).toString('base64url')}`;
}
