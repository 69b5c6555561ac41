import type { Filter } from './read-store.port';

/**
 * The document an upsert starts from, as MongoDB builds it: the filter's plain equality fields
 * (including dotted paths), ignoring operators such as $gt or $or.
 */
export function upsertSeed(filter: Filter): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith('$')) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const ops = Object.keys(value as object);
      if (ops.some((k) => k.startsWith('$'))) {
        if (ops.length === 1 && ops[0] === '$eq') setPath(seed, key, (value as { $eq: unknown }).$eq);
        continue;
      }
    }
    setPath(seed, key, value);
  }
  return seed;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    node[part] = (node[part] as Record<string, unknown>) ?? {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}
