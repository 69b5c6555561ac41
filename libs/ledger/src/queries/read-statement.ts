import type { CreditBalances, StatementLine, StatementPage } from '@analyst/contracts';
import type { ReadStore } from '@analyst/platform';
import { LEDGER_STATEMENT, STATEMENT_CHUNK } from '../ledger.tokens';
import type { LedgerStatementDoc } from '../projections/ledger-statement.projector';

export const STATEMENT_DEFAULT_LIMIT = 100;
export const STATEMENT_MAX_LIMIT = 1000;

export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
}

/** Opaque to clients: the stream revision the next page starts at. */
export function encodeStatementCursor(revision: number): string {
  return Buffer.from(JSON.stringify({ r: revision })).toString('base64url');
}

export function decodeStatementCursor(cursor: string): number {
  try {
    const { r } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { r?: unknown };
    if (typeof r === 'number' && Number.isSafeInteger(r) && r >= 0) return r;
  } catch {
    // fall through to the error below
  }
  throw new InvalidCursorError('cursor is not valid: pass meta.nextCursor of the previous page unchanged');
}

/** One page of a team's statement, oldest line first, with running balances after each line. */
export async function readStatement(
  store: ReadStore,
  teamId: string,
  options: { cursor?: string; limit?: number } = {},
): Promise<StatementPage> {
  const limit = options.limit ?? STATEMENT_DEFAULT_LIMIT;
  const from = options.cursor ? decodeStatementCursor(options.cursor) : 0;
  const firstChunk = Math.floor(from / STATEMENT_CHUNK);
  const collection = store.collection<LedgerStatementDoc>(LEDGER_STATEMENT);
  // Opening balances: the sums of the chunks before the page, so no earlier line is read.
  const before = await collection.find({ teamId, chunk: { $lt: firstChunk } }, { projection: { change: 1 } });
  let running: CreditBalances = { maps: 0, adhoc: 0, reserved: 0 };
  for (const doc of before) running = add(running, doc.change);
  const chunks = await collection.find(
    { teamId, chunk: { $gte: firstChunk } },
    { sort: { chunk: 1 }, limit: Math.ceil(limit / STATEMENT_CHUNK) + 1 },
  );
  const data: StatementLine[] = [];
  let hasMore = false;
  let next = from;
  for (const chunk of chunks) {
    for (const line of chunk.lines) {
      running = add(running, line.change);
      if (line.revision < from) continue;
      if (data.length === limit) {
        hasMore = true;
        break;
      }
      data.push({ ...line, balances: running });
      next = line.revision + 1;
    }
    if (hasMore) break;
  }
  return { data, meta: { nextCursor: hasMore ? encodeStatementCursor(next) : null, hasMore } };
}

function add(a: CreditBalances, b: CreditBalances): CreditBalances {
  return { maps: a.maps + b.maps, adhoc: a.adhoc + b.adhoc, reserved: a.reserved + b.reserved };
}
