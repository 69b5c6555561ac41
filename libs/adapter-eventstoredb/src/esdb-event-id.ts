import { createHash } from 'node:crypto';

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Fixed namespace for ids derived by this adapter (a random UUID chosen once). */
const NAMESPACE = Buffer.from('6f1b8f2e4c3a4d0b9a7e5c2d1f0e3b4a', 'hex');

/**
 * EventStoreDB ids must be UUIDs and come back in lower case. Our ids are any string, so one that
 * is not a lower-case UUID is mapped to a deterministic UUID (SHA-1 name-based, RFC 4122 version 5
 * layout): the same event id always gives the same ESDB id, which keeps ESDB's idempotent append
 * working for retried writes. The original id travels in the metadata.
 */
export function esdbEventId(id: string): { uuid: string; derived: boolean } {
  if (CANONICAL_UUID.test(id)) return { uuid: id, derived: false };
  const bytes = createHash('sha1').update(NAMESPACE).update(id, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { uuid, derived: true };
}
