import type { Doc, Projection } from './read-store.port';

/**
 * A projection as MongoDB applies it, dotted paths included (`a.b` keeps or drops `b` inside `a`, in
 * each element where `a` is an array). The result shares the untouched parts with `doc`: callers
 * clone it.
 */
export function projectDocument<T extends Doc>(doc: T, projection: Projection): T {
  const entries = Object.entries(projection);
  const include = entries.filter(([k, v]) => v === 1 && k !== '_id').map(([k]) => k.split('.'));
  if (include.length === 0) {
    let out: Record<string, unknown> = doc;
    for (const [key, value] of entries) if (value === 0) out = without(out, key.split('.'));
    return out as T;
  }
  let out: Record<string, unknown> = projection._id === 0 ? {} : { _id: doc._id };
  for (const path of include) out = withPath(out, doc, path);
  return out as T;
}

/** `node` without the value at `path` (copies of the objects on the way, the rest shared). */
function without(node: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (!(head in node)) return node;
  const copy = { ...node };
  if (rest.length === 0) {
    delete copy[head];
    return copy;
  }
  const child = node[head];
  if (Array.isArray(child)) copy[head] = child.map((item) => (isObject(item) ? without(item, rest) : item));
  else if (isObject(child)) copy[head] = without(child, rest);
  return copy;
}

/** `out` with the value at `path` of `source` added (nothing when the path stops). */
function withPath(
  out: Record<string, unknown>,
  source: Record<string, unknown>,
  path: string[],
): Record<string, unknown> {
  const [head, ...rest] = path;
  if (!(head in source)) return out;
  const value = source[head];
  if (rest.length === 0) return { ...out, [head]: value };
  const existing = out[head];
  if (Array.isArray(value)) {
    const items = value.filter(isObject).map((item, i) => {
      const prior = Array.isArray(existing) && isObject(existing[i]) ? existing[i] : {};
      return withPath(prior as Record<string, unknown>, item, rest);
    });
    return { ...out, [head]: items };
  }
  if (!isObject(value)) return out;
  return { ...out, [head]: withPath(isObject(existing) ? existing : {}, value, rest) };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  !(value instanceof Uint8Array) &&
  !(value instanceof Date);
