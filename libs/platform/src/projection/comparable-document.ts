/**
 * A read-model document as a value two stores can agree on: the runtime's bookkeeping dropped, keys
 * sorted, binary columns as base64 whatever type the store hands back (a Uint8Array in memory, a
 * driver `Binary` from MongoDB), dates as ISO strings, and `undefined` fields absent (MongoDB does
 * not keep them).
 */
export function comparableDocument(doc: Record<string, unknown>): unknown {
  const { _streams: _s, _version: _v, ...rest } = doc;
  return comparable(rest);
}

function comparable(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return { $date: value.toISOString() };
  const bytes = bytesOf(value);
  if (bytes)
    return { $binary: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
  if (Array.isArray(value)) return value.map(comparable);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) out[key] = comparable(field);
  }
  return out;
}

/** The bytes of a binary value: a typed array, or the MongoDB driver's `Binary` (`_bsontype`). */
function bytesOf(value: object): Uint8Array | null {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  const binary = value as { _bsontype?: string; buffer?: unknown };
  if (binary._bsontype === 'Binary' && binary.buffer instanceof Uint8Array) return binary.buffer;
  return null;
}

/**
 * The first path where two comparable documents differ, with both values shortened for a report;
 * null when they are equal.
 */
export function firstDifference(
  expected: unknown,
  actual: unknown,
  path = '',
): { path: string; expected: string; actual: string } | null {
  if (Object.is(expected, actual)) return null;
  const bothObjects =
    expected !== null && actual !== null && typeof expected === 'object' && typeof actual === 'object';
  if (bothObjects && Array.isArray(expected) === Array.isArray(actual)) {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])].sort();
    for (const key of keys) {
      const found = firstDifference(e[key], a[key], path ? `${path}.${key}` : key);
      if (found) return found;
    }
    return null;
  }
  return { path: path || '(document)', expected: shortened(expected), actual: shortened(actual) };
}

function shortened(value: unknown): string {
  const text = value === undefined ? 'absent' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
