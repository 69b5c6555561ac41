import type { CreditBalances, StatementLine } from '@analyst/contracts';
import { canonicalJson } from './canonical-json';

/** A statement line's fields in canonical (sorted) order. */
const LINE_KEYS = [
  'balances',
  'change',
  'commandId',
  'eventId',
  'month',
  'note',
  'occurredAt',
  'position',
  'reservationId',
  'revision',
  'teamId',
  'type',
] as const;

function balances(b: CreditBalances): string {
  if (
    Object.keys(b).length !== 3 ||
    b.adhoc === undefined ||
    b.maps === undefined ||
    b.reserved === undefined
  )
    return canonicalJson(b);
  return `{"adhoc":${JSON.stringify(b.adhoc)},"maps":${JSON.stringify(b.maps)},"reserved":${JSON.stringify(b.reserved)}}`;
}

/**
 * `canonicalJson(line)` for a statement line, without sorting keys per line: the export hashes a
 * million of these, and the generic walk was most of its time. Anything but the exact line shape
 * (an extra or missing field) falls back to the generic walk, so the bytes are always the same.
 */
export function canonicalStatementLine(line: StatementLine): string {
  const record = line as unknown as Record<string, unknown>;
  if (Object.keys(record).length !== LINE_KEYS.length) return canonicalJson(line);
  for (const key of LINE_KEYS) if (record[key] === undefined) return canonicalJson(line);
  return (
    `{"balances":${balances(line.balances)},"change":${balances(line.change)},"commandId":${JSON.stringify(line.commandId)}` +
    `,"eventId":${JSON.stringify(line.eventId)},"month":${JSON.stringify(line.month)},"note":${JSON.stringify(line.note)}` +
    `,"occurredAt":${JSON.stringify(line.occurredAt)},"position":${JSON.stringify(line.position)},"reservationId":${JSON.stringify(line.reservationId)}` +
    `,"revision":${JSON.stringify(line.revision)},"teamId":${JSON.stringify(line.teamId)},"type":${JSON.stringify(line.type)}}`
  );
}
