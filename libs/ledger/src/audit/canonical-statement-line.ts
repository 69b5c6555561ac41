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

/** The fields in the order `statementLine` creates them: the order `JSON.stringify(line)` writes. */
const CREATED_KEYS = [
  'teamId',
  'revision',
  'position',
  'eventId',
  'occurredAt',
  'type',
  'commandId',
  'reservationId',
  'month',
  'change',
  'balances',
  'note',
] as const;

const FIGURE_KEYS = ['maps', 'adhoc', 'reserved'] as const;

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
  if (Object.keys(line).length !== LINE_KEYS.length) return canonicalJson(line);
  for (const key of LINE_KEYS) if (line[key] === undefined) return canonicalJson(line);
  return (
    `{"balances":${balances(line.balances)},"change":${balances(line.change)},"commandId":${JSON.stringify(line.commandId)}` +
    `,"eventId":${JSON.stringify(line.eventId)},"month":${JSON.stringify(line.month)},"note":${JSON.stringify(line.note)}` +
    `,"occurredAt":${JSON.stringify(line.occurredAt)},"position":${JSON.stringify(line.position)},"reservationId":${JSON.stringify(line.reservationId)}` +
    `,"revision":${JSON.stringify(line.revision)},"teamId":${JSON.stringify(line.teamId)},"type":${JSON.stringify(line.type)}}`
  );
}

/** A statement line as JSON twice: canonical (hashed) and in its own key order (written). */
export interface RenderedStatementLine {
  /** `canonicalJson(line)`. */
  canonical: string;
  /** `JSON.stringify(line)`. */
  json: string;
}

/** Whether the object's enumerable keys are exactly `keys`, in that order (inherited ones count). */
function keysAre(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) {
    if (key !== keys[i]) return false;
    i += 1;
  }
  return i === keys.length;
}

const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

function isPlainBalances(value: unknown): value is CreditBalances {
  if (typeof value !== 'object' || value === null || !keysAre(value, FIGURE_KEYS)) return false;
  const b: { readonly [K in (typeof FIGURE_KEYS)[number]]?: unknown } = value;
  return isFiniteNumber(b.maps) && isFiniteNumber(b.adhoc) && isFiniteNumber(b.reserved);
}

/**
 * A line exactly as `statementLine` makes it: its fields in that order, strings and finite numbers
 * where it puts them. Only for such a line are the fast renderings below the same bytes.
 */
function isCreatedShape(line: StatementLine): boolean {
  return (
    keysAre(line, CREATED_KEYS) &&
    typeof line.teamId === 'string' &&
    isFiniteNumber(line.revision) &&
    isFiniteNumber(line.position) &&
    typeof line.eventId === 'string' &&
    typeof line.occurredAt === 'string' &&
    typeof line.type === 'string' &&
    typeof line.commandId === 'string' &&
    (line.reservationId === null || typeof line.reservationId === 'string') &&
    typeof line.month === 'string' &&
    isPlainBalances(line.change) &&
    isPlainBalances(line.balances) &&
    typeof line.note === 'string'
  );
}

/**
 * `{ canonical: canonicalJson(line), json: JSON.stringify(line) }`, with each field rendered once
 * for both (the export writes and hashes a million lines). A line of any other shape than
 * `statementLine`'s goes through the generic renderings, so the bytes are always the same.
 */
export function renderStatementLine(line: StatementLine): RenderedStatementLine {
  if (!isCreatedShape(line)) return { canonical: canonicalStatementLine(line), json: JSON.stringify(line) };
  // Finite numbers print the same through a template as through JSON.stringify.
  const c = line.change;
  const b = line.balances;
  const teamId = JSON.stringify(line.teamId);
  const eventId = JSON.stringify(line.eventId);
  const occurredAt = JSON.stringify(line.occurredAt);
  const type = JSON.stringify(line.type);
  const commandId = JSON.stringify(line.commandId);
  const reservationId = line.reservationId === null ? 'null' : JSON.stringify(line.reservationId);
  const month = JSON.stringify(line.month);
  const note = JSON.stringify(line.note);
  return {
    canonical:
      `{"balances":{"adhoc":${b.adhoc},"maps":${b.maps},"reserved":${b.reserved}},"change":{"adhoc":${c.adhoc},"maps":${c.maps},"reserved":${c.reserved}}` +
      `,"commandId":${commandId},"eventId":${eventId},"month":${month},"note":${note},"occurredAt":${occurredAt}` +
      `,"position":${line.position},"reservationId":${reservationId},"revision":${line.revision},"teamId":${teamId},"type":${type}}`,
    json:
      `{"teamId":${teamId},"revision":${line.revision},"position":${line.position},"eventId":${eventId},"occurredAt":${occurredAt}` +
      `,"type":${type},"commandId":${commandId},"reservationId":${reservationId},"month":${month}` +
      `,"change":{"maps":${c.maps},"adhoc":${c.adhoc},"reserved":${c.reserved}},"balances":{"maps":${b.maps},"adhoc":${b.adhoc},"reserved":${b.reserved}},"note":${note}}`,
  };
}
