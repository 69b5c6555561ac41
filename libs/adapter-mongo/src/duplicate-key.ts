import { UNKNOWN_INDEX } from '@analyst/eventsourcing';

/** Codes MongoDB uses for a unique-index violation (11001 and 12582 are from older servers). */
const DUPLICATE_KEY_CODES = new Set([11000, 11001, 12582]);

/** MongoDB names the index in its message: `E11000 duplicate key error collection: db.c index: team_link dup key: …`. */
const MONGO_INDEX = /index: (\S+)/;

/**
 * FerretDB v1 reports a unique clash on update as an InternalError carrying its backend's message,
 * with the index stored as `<collection>_<hash8>_<index name>`: SQLite's `UNIQUE constraint failed:
 * index '…'`, PostgreSQL's `duplicate key value violates unique constraint "…"`.
 */
const FERRET_INDEX = [
  /UNIQUE constraint failed: index '.+?_[0-9a-f]{8}_(.+?)'/,
  /duplicate key value violates unique constraint "(?:.+?_[0-9a-f]{8}_)?(.+?)"/,
];
/** The same backends' messages when no index name could be read from them. */
const FERRET_UNNAMED = /UNIQUE constraint failed|duplicate key value violates unique constraint/;

interface ServerErrorLike {
  code?: unknown;
  codeName?: unknown;
  message?: unknown;
  keyPattern?: unknown;
  writeErrors?: unknown;
  errorResponse?: { code?: unknown; codeName?: unknown; errmsg?: unknown };
}

function normalise(index: string): string {
  return index === '_id_' ? '_id' : index;
}

/** A single-write failure inside a bulk error carries the code and message of the real cause. */
function firstWriteError(error: ServerErrorLike): ServerErrorLike | null {
  const errors = error.writeErrors;
  const first = Array.isArray(errors) ? errors[0] : errors;
  if (!first || typeof first !== 'object') return null;
  const e = first as { code?: unknown; errmsg?: unknown; err?: { code?: unknown; errmsg?: unknown } };
  return { code: e.code ?? e.err?.code, message: e.errmsg ?? e.err?.errmsg };
}

function isDuplicateCode(error: ServerErrorLike): boolean {
  const codes = [error.code, error.errorResponse?.code];
  const names = [error.codeName, error.errorResponse?.codeName];
  return (
    codes.some((c) => typeof c === 'number' && DUPLICATE_KEY_CODES.has(c)) || names.includes('DuplicateKey')
  );
}

/**
 * Whether a driver error is a unique-index violation, and on which index: `null` when it is not one,
 * `_id` for the primary key, an index name, or UNKNOWN_INDEX when the server did not say (FerretDB's
 * E11000 carries no index name; the caller can look for the clash itself).
 */
export function duplicateKeyIndex(error: unknown): string | null {
  if (!error || typeof error !== 'object') return null;
  const outer = error as ServerErrorLike;
  const inner = firstWriteError(outer);
  for (const e of inner ? [outer, inner] : [outer]) {
    const index = clashedIndex(e);
    if (index !== null) return index;
  }
  return null;
}

/** The index one server error reports a clash on; null when it reports none. */
function clashedIndex(e: ServerErrorLike): string | null {
  const message = typeof e.message === 'string' ? e.message : String(e.errorResponse?.errmsg ?? '');
  return isDuplicateCode(e) ? mongoIndex(e, message) : ferretIndex(message);
}

/** MongoDB's duplicate key: the index its message names, else `_id` when its key pattern is `_id` alone. */
function mongoIndex(e: ServerErrorLike, message: string): string {
  const named = MONGO_INDEX.exec(message)?.[1];
  if (named) return normalise(named);
  const keys = e.keyPattern && typeof e.keyPattern === 'object' ? Object.keys(e.keyPattern) : [];
  return keys.length === 1 && keys[0] === '_id' ? '_id' : UNKNOWN_INDEX;
}

/** FerretDB's backend message: the index it names, UNKNOWN_INDEX when it names none, null for another error. */
function ferretIndex(message: string): string | null {
  for (const pattern of FERRET_INDEX) {
    const ferret = pattern.exec(message)?.[1];
    if (ferret) return normalise(ferret);
  }
  return FERRET_UNNAMED.test(message) ? UNKNOWN_INDEX : null;
}
